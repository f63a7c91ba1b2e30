/*
 * machine.h - the hooks between the allocator and the machine it runs on.
 *
 * The allocator never touches host time, host addresses or host locks directly: it says
 * "cpu touched the struct page line at this kernel virtual address", "cpu prefetched it",
 * "cpu takes zone->lock". This header is all the allocator (src/mm/) knows of machines, as
 * mimalloc's allocator knows its platforms only through prim.h:
 *   PLAIN  here, inline: no costs, the clock counts ops, touches become ACCESS/PREFETCH events.
 *   MODEL  machine/model/: the cache, lock and clock models, behind the _mach_model_* calls.
 *   REAL   machine/real/: real threads, a ticket spinlock, the real clock (_mach_real_*).
 * Each hook tests the kind (one well-predicted branch) and calls the machine's function
 * (declared in prim.h); the plain machine's work is done right here, so replays pay no call.
 */
#ifndef BLAB_MACHINE_H
#define BLAB_MACHINE_H

#include "prim.h"

/* ---- set-up (machine.c) ---- */

/* Can a machine of `kind` run `cpus` CPUs with these model parameters (NULL = defaults)?
 * 0, BLAB_EINVAL (bad kind or parameters) or BLAB_ECPU. */
int mach_check(unsigned kind, const struct model_params *p, unsigned cpus);
/* Start m as its own machine of `kind` (checked) for the zone's pfns first_pfn .. + pages.
 * real_timed: the real machine times spins and holds. 0 or BLAB_ENOMEMHOST. */
int mach_init(struct blab_machine *m, unsigned kind, const struct model_params *p,
	      unsigned cpus, uint64_t first_pfn, uint64_t pages, int real_timed);
/* Can a zone of `cpus` CPUs and pfns first_pfn .. + pages run on mm, a model machine someone
 * else owns, as NUMA node `node` (its locks are the node's)? 0, BLAB_EINVAL, BLAB_ECPU, or
 * BLAB_ELIMIT when the pfns are not in mm's dense struct page directory. */
/* The host bytes mach_init() takes for a machine of `kind` (checked) with these arguments:
 * the model's caches and directory, or the real machine's per-CPU counters; 0 for PLAIN.
 * What blab_zone_mem_bytes() adds to the zone's own arrays. */
uint64_t mach_mem_bytes(unsigned kind, const struct model_params *p, unsigned cpus,
			uint64_t pages);
int mach_check_shared(const struct model_machine *mm, unsigned node, unsigned cpus,
		      uint64_t first_pfn, uint64_t pages);
/* Start m on mm (checked) as node `node`; mm is never freed with m. */
void mach_init_shared(struct blab_machine *m, struct model_machine *mm, unsigned node);
void mach_free(struct blab_machine *m);

/* ---- the clock and the event records ---- */

static inline uint64_t mach_now(const struct blab_machine *m, unsigned cpu)
{
	if (m->kind == BLAB_MACHINE_MODEL)
		return cpu < m->nclocks ? m->clock[cpu] : 0;
	if (m->kind == BLAB_MACHINE_REAL)
		return _mach_real_now();
	(void)cpu;
	return m->now;
}

/* An op begins: the plain clock counts it (real threads would race on the count). */
static inline void mach_op_begin(struct blab_machine *m)
{
	if (m->kind != BLAB_MACHINE_REAL)
		m->now++;
}

/* One record stamped with cpu's clock, into m's log (machine.c). */
void _mach_emit(struct blab_machine *m, unsigned type, uint64_t pfn, unsigned order,
		unsigned cpu, unsigned mt, unsigned path, unsigned flags, uint32_t arg0,
		uint32_t arg1);
#define MACH_EMIT(m, cls, type, pfn, order, cpu, mt, path, flags, a0, a1)                   \
	do {                                                                                \
		if (log_on(&(m)->log, (cls)))                                               \
			_mach_emit((m), (type), (pfn), (order), (cpu), (mt), (path), (flags), \
				   (a0), (a1));                                             \
	} while (0)

/* ---- the hooks ---- */

static inline void mach_touch(struct blab_machine *m, unsigned cpu, uint64_t vaddr, int write,
			      unsigned path)
{
	if (m->kind == BLAB_MACHINE_MODEL) {
		_mach_model_touch(m, cpu, vaddr, write, path);
		return;
	}
	if (m->kind == BLAB_MACHINE_REAL)
		return; /* the allocator's own loads and stores are the real touches */
	/* plain: record the access; the outcome is not modelled */
	MACH_EMIT(m, BLAB_EVC_CACHE, BLAB_EV_ACCESS, line_event_pfn(vaddr), 0, cpu, 0, path,
		  BLAB_ACC_PLAIN | (write ? BLAB_EVF_WRITE : 0) | line_event_flags(vaddr), 0, 0);
}

/* the struct page line of pfn */
static inline void mach_touch_page(struct blab_machine *m, unsigned cpu, uint64_t pfn,
				   int write, unsigned path)
{
	mach_touch(m, cpu, page_vaddr(pfn), write, path);
}

/*
 * A read of the struct page of pfn whose address is computed, not loaded, and whose value
 * only steers a predictable branch (the buddy in __free_one_page): the model lets the CPU
 * run ahead of an L2 hit (model_touch_ahead); the other machines see a plain read.
 */
static inline void mach_touch_page_ahead(struct blab_machine *m, unsigned cpu, uint64_t pfn,
					 unsigned path)
{
	if (m->kind == BLAB_MACHINE_MODEL) {
		_mach_model_touch_ahead(m, cpu, page_vaddr(pfn), path);
		return;
	}
	mach_touch(m, cpu, page_vaddr(pfn), 0, path);
}

/*
 * A store to the struct page of pfn that no load waits on right away (expand()'s page[size]).
 * The model buffers it (model_store); the other machines see a plain write.
 */
static inline void mach_store_page(struct blab_machine *m, unsigned cpu, uint64_t pfn,
				   unsigned path)
{
	if (m->kind == BLAB_MACHINE_MODEL) {
		_mach_model_store(m, cpu, page_vaddr(pfn), path);
		return;
	}
	mach_touch(m, cpu, page_vaddr(pfn), 1, path);
}

/*
 * List plumbing the kernel does under zone->lock and the model machine must pay for: the
 * free_area list heads and nr_free in struct zone (mach_touch_line, a load or
 * read-modify-write) and a list neighbour's lru pointer (mach_store_line, a buffered
 * store). Only the model machine sees them: the plain machine's event log records the
 * struct pages the algorithm inspects, not the neighbours its list_add rewrites, and the
 * real machine's kernel-shaped lists touch them by themselves.
 */
static inline void mach_touch_line(struct blab_machine *m, unsigned cpu, uint64_t vaddr,
				   int write, unsigned path)
{
	if (m->kind == BLAB_MACHINE_MODEL)
		_mach_model_touch_line(m, cpu, vaddr, write, path);
}

static inline void mach_store_line(struct blab_machine *m, unsigned cpu, uint64_t vaddr,
				   unsigned path)
{
	if (m->kind == BLAB_MACHINE_MODEL)
		_mach_model_store(m, cpu, vaddr, path);
}

static inline void mach_prefetch(struct blab_machine *m, unsigned cpu, uint64_t vaddr,
				 unsigned path)
{
	if (m->kind == BLAB_MACHINE_MODEL) {
		_mach_model_prefetch(m, cpu, vaddr, path);
		return;
	}
	if (m->kind == BLAB_MACHINE_REAL) {
		/* prefetch() of a struct page line: the host address of that struct page */
		if (line_is_page(vaddr))
			_mach_real_prefetch(m, (vaddr - VMEMMAP_START) / 64u);
		return;
	}
	MACH_EMIT(m, BLAB_EVC_CACHE, BLAB_EV_PREFETCH, line_event_pfn(vaddr), 0, cpu, 0, path,
		  line_event_flags(vaddr), 0, 0);
}

/* plain and real: nothing (the real machine's work is the code that runs); the model: the
 * cost class's cycles on the CPU's clock, as model_work() does */
static inline void mach_work(struct blab_machine *m, unsigned cpu, unsigned cost)
{
	if (m->kind == BLAB_MACHINE_MODEL && cpu < m->nclocks)
		m->clock[cpu] += m->work_cycles[cost];
}

/* plain: where the holder of lockid is kept (a pcp->lock of a CPU past npcp: NULL) */
static inline uint16_t *mach_plain_owner(struct blab_machine *m, unsigned lockid)
{
	if (!mach_lock_is_pcp(lockid))
		return &m->lock_owner[lockid];
	lockid -= MACH_LOCK_PCP;
	return lockid < m->npcp ? &m->pcp_owner[lockid] : NULL;
}

/*
 * The op layer calls mach_lock() only when blab_op_step() resumes after BLAB_STEP_LOCK and
 * the lock is free (plain), so plain never waits: arg0 (cycles spun) is 0. A pcp->lock is
 * taken without a record (prim.h).
 */
static inline void mach_lock(struct blab_machine *m, unsigned cpu, unsigned lockid)
{
	uint16_t *owner;

	if (m->kind == BLAB_MACHINE_MODEL) {
		_mach_model_lock(m, cpu, lockid);
		return;
	}
	if (m->kind == BLAB_MACHINE_REAL) {
		_mach_real_lock(m, cpu, lockid);
		return;
	}
	if (!(owner = mach_plain_owner(m, lockid)))
		return;
	*owner = (uint16_t)cpu;
	if (mach_lock_is_pcp(lockid))
		return;
	m->lock_taken_at[lockid] = mach_now(m, cpu);
	MACH_EMIT(m, BLAB_EVC_LOCK, BLAB_EV_LOCK_ACQUIRE, 0, 0, cpu, lockid, 0, 0, 0, 0);
}

/*
 * spin_trylock(): 1 when cpu now holds the lock, 0 (nothing changed) when another CPU holds
 * it. Plain: held means a step of another op stopped inside the lock. Model: also when
 * another CPU's critical section, already run, ends after this CPU's clock. Real: the
 * spinlock's own trylock.
 */
static inline int mach_trylock(struct blab_machine *m, unsigned cpu, unsigned lockid)
{
	uint16_t *owner;

	if (m->kind == BLAB_MACHINE_MODEL)
		return _mach_model_trylock(m, cpu, lockid);
	if (m->kind == BLAB_MACHINE_REAL)
		return _mach_real_trylock(m, cpu, lockid);
	owner = mach_plain_owner(m, lockid);
	if (!owner || (*owner != BLAB_CPU_NONE && *owner != cpu))
		return 0;
	mach_lock(m, cpu, lockid);
	return 1;
}

static inline void mach_unlock(struct blab_machine *m, unsigned cpu, unsigned lockid)
{
	uint64_t held;
	uint16_t *owner;

	if (m->kind == BLAB_MACHINE_MODEL) {
		_mach_model_unlock(m, cpu, lockid);
		return;
	}
	if (m->kind == BLAB_MACHINE_REAL) {
		_mach_real_unlock(m, cpu, lockid);
		return;
	}
	if (!(owner = mach_plain_owner(m, lockid)))
		return;
	*owner = BLAB_CPU_NONE;
	if (mach_lock_is_pcp(lockid))
		return;
	held = mach_now(m, cpu) - m->lock_taken_at[lockid];
	MACH_EMIT(m, BLAB_EVC_LOCK, BLAB_EV_LOCK_RELEASE, 0, 0, cpu, lockid, 0, 0,
		  (uint32_t)(held > 0xffffffffu ? 0xffffffffu : held), 0);
}

/* Would cpu have to wait for the lock? (Only when a step stopped inside a critical section.) */
static inline int mach_lock_busy(struct blab_machine *m, unsigned cpu, unsigned lockid)
{
	uint16_t *o;

	if (m->kind == BLAB_MACHINE_MODEL)
		return _mach_model_lock_busy(m, cpu, lockid);
	if (m->kind == BLAB_MACHINE_REAL)
		return 0; /* the spinlock itself waits */
	o = mach_plain_owner(m, lockid);
	return o && *o != BLAB_CPU_NONE && *o != cpu;
}

/*
 * clear_page() of pfn's frame: on the model, `lines` of its 64 lines (spread evenly) are
 * written through the cache model, so they evict what the CPU had as rep stosb does, but the
 * CPU pays clear_page_cycles rather than a miss per line: the stores stream.
 */
static inline void mach_clear_page(struct blab_machine *m, unsigned cpu, uint64_t pfn,
				   unsigned lines, unsigned path)
{
	if (m->kind == BLAB_MACHINE_MODEL) {
		_mach_model_clear_page(m, cpu, pfn, lines, path);
		return;
	}
	if (m->kind == BLAB_MACHINE_REAL) {
		_mach_real_clear_page(m, cpu);
		return;
	}
	mach_work(m, cpu, BLAB_COST_CLEAR_PAGE);
}

#endif
