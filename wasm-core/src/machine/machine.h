/*
 * machine.h - the hooks between the allocator and the machine it runs on.
 *
 * The allocator never touches host time, host addresses or host locks directly: it says
 * "cpu touched the struct page line at this kernel virtual address", "cpu prefetched it",
 * "cpu takes zone->lock". Hooks are static inline and branch on z->machine.kind:
 *   PLAIN  here: no costs, the clock counts ops, touches become ACCESS/PREFETCH events.
 *   MODEL  src/model/: the cache, lock and clock models (model/model.h).
 *   REAL   src/real/: real threads, a ticket spinlock, the real clock (real/real.h).
 * Extension point: add the call in the marked #ifdef branch; PLAIN pays one branch.
 */
#ifndef BLAB_MACHINE_H
#define BLAB_MACHINE_H

#include "mm/mm.h"
#include "machine/model/model.h"
#include "machine/real/real.h"

#define BLAB_HAVE_MODEL 1
#define BLAB_HAVE_REAL 1

/* cost classes for mach_work() */
enum blab_cost {
	BLAB_COST_LIST_OP = 0, /* a list_add / list_del */
	BLAB_COST_BUDDY_CALC = 1,
	BLAB_COST_CALL = 2,
	BLAB_COST_CLEAR_PAGE = 3, /* clear_page() of a 4 KB frame (its lines: mach_clear_page) */
	BLAB_COST_FAULT = 4,      /* page fault entry + handle_mm_fault bookkeeping (sim workloads) */
	BLAB_COST_UNMAP = 5,      /* zap_pte_range + release_pages work per page (sim workloads) */
};

/* ---- real machine glue: src/real/real.h ---- */

static inline struct real_machine *zone_rm(const struct blab_zone *z)
{
	return (struct real_machine *)z->machine.impl;
}

/* The allocator's own loads and stores of struct page are the real touches: nothing to add. */
static inline void real_touch(struct blab_zone *z, unsigned cpu, uint64_t vaddr, int write,
			      unsigned path)
{
	(void)z, (void)cpu, (void)vaddr, (void)write, (void)path;
}

/* prefetch() of a struct page line: the host address of that struct page */
static inline void real_prefetch(struct blab_zone *z, unsigned cpu, uint64_t vaddr, unsigned path)
{
	uint64_t pfn = (vaddr - VMEMMAP_START) / 64u;

	(void)cpu, (void)path;
	if (vaddr < VMEMMAP_START || pfn < z->start_pfn || pfn - z->start_pfn >= z->pages)
		return;
#if REAL_HAVE_PREFETCH
	__builtin_prefetch(&z->mem_map[pfn - z->start_pfn], 1, 3);
#endif
}

static inline uint64_t real_now(struct blab_zone *z, unsigned cpu)
{
	(void)z, (void)cpu;
	return real_clock_ns();
}

/* ---- model machine glue: src/model/model.h's hooks, wrapped into event records ---- */

static inline struct model_machine *zone_mm(const struct blab_zone *z)
{
	return (struct model_machine *)z->machine.impl;
}

/*
 * A struct page line is reported by its pfn. Any other line (a slab object, a page frame, a
 * per-CPU or socket line) by its address minus PAGE_OFFSET, flagged BLAB_EVF_SLAB: the full
 * 64-bit address would not fit the 53 bits a JavaScript number holds exactly.
 */
static inline int line_is_page(uint64_t vaddr)
{
	return vaddr >= VMEMMAP_START && vaddr - VMEMMAP_START < BLAB_MAX_START_PFN * 64u;
}

static inline uint64_t line_event_pfn(uint64_t vaddr)
{
	if (line_is_page(vaddr))
		return (vaddr - VMEMMAP_START) / 64u;
	return vaddr - PAGE_OFFSET;
}

static inline unsigned line_event_flags(uint64_t vaddr)
{
	return line_is_page(vaddr) ? 0 : BLAB_EVF_SLAB;
}

/* the model's lock id of this zone's lock BLAB_LOCK_* id (its node's, when zones share a
 * machine: internal.h, lock_base) */
static inline unsigned zmodel_lock_id(const struct blab_zone *z, unsigned lockid)
{
	return z->machine.lock_base + lockid;
}

static inline int zmodel_holds_zone_lock(const struct blab_zone *z,
					 const struct model_machine *mm, unsigned cpu)
{
	return mm->locks.lock[zmodel_lock_id(z, LOCK_ZONE)].holder == cpu;
}

static inline void model_drain_wasted(struct blab_zone *z, struct model_machine *mm)
{
	struct cache_wasted w[MODEL_WASTED_MAX];
	uint32_t n;

	if (!mm->cache.nwasted)
		return;
	n = cache_take_wasted(&mm->cache, w, MODEL_WASTED_MAX);
	for (uint32_t i = 0; i < n; i++)
		EMIT(z, BLAB_EVC_CACHE, BLAB_EV_PREFETCH_WASTED, line_event_pfn(w[i].vaddr), 0,
		     w[i].cpu, 0, w[i].path, line_event_flags(w[i].vaddr), 0, 0);
}

/* ACCESS events name a struct page by its pfn (docs/events.md); the struct zone lines that
 * mach_touch_line() / mach_store_line() charge have none, so they are counted, not logged */
static inline int zmodel_logged_line(uint64_t vaddr)
{
	return vaddr >= VMEMMAP_START && vaddr - VMEMMAP_START < BLAB_MAX_START_PFN * 64u;
}

static inline void zmodel_touch(struct blab_zone *z, unsigned cpu, uint64_t vaddr, int write,
				unsigned path)
{
	struct model_machine *mm = zone_mm(z);
	struct cache_result r;

	if (cpu >= mm->ncpus)
		return; /* zone set-up: no CPU pays */
	r = model_touch(mm, cpu, vaddr, write, (uint8_t)path);
	if (r.outcome != CACHE_L1 && r.outcome != CACHE_PF_HIT &&
	    zmodel_holds_zone_lock(z, mm, cpu))
		z->machine.misses_zone_locked++;
	EMIT(z, BLAB_EVC_CACHE, BLAB_EV_ACCESS, line_event_pfn(vaddr), 0, cpu, 0, path,
	     r.outcome | (write ? BLAB_EVF_WRITE : 0) | line_event_flags(vaddr), r.cycles, 0);
	model_drain_wasted(z, mm);
}

/* an independent load the CPU runs ahead of (model_touch_ahead) */
static inline void zmodel_touch_ahead(struct blab_zone *z, unsigned cpu, uint64_t vaddr,
				      unsigned path)
{
	struct model_machine *mm = zone_mm(z);
	struct cache_result r;

	if (cpu >= mm->ncpus)
		return;
	r = model_touch_ahead(mm, cpu, vaddr, (uint8_t)path);
	if (r.outcome != CACHE_L1 && r.outcome != CACHE_PF_HIT &&
	    zmodel_holds_zone_lock(z, mm, cpu))
		z->machine.misses_zone_locked++;
	EMIT(z, BLAB_EVC_CACHE, BLAB_EV_ACCESS, line_event_pfn(vaddr), 0, cpu, 0, path, r.outcome,
	     r.cycles, 0);
	model_drain_wasted(z, mm);
}

/* a buffered store (model_store): the ACCESS event's arg0 is what the CPU paid */
static inline void zmodel_store(struct blab_zone *z, unsigned cpu, uint64_t vaddr, unsigned path)
{
	struct model_machine *mm = zone_mm(z);
	struct cache_result r;

	if (cpu >= mm->ncpus)
		return;
	r = model_store(mm, cpu, vaddr, (uint8_t)path);
	if (r.outcome != CACHE_L1 && r.outcome != CACHE_PF_HIT &&
	    zmodel_holds_zone_lock(z, mm, cpu))
		z->machine.misses_zone_locked++;
	if (zmodel_logged_line(vaddr))
		EMIT(z, BLAB_EVC_CACHE, BLAB_EV_ACCESS, line_event_pfn(vaddr), 0, cpu, 0, path,
		     r.outcome | BLAB_EVF_WRITE, r.cycles, 0);
	model_drain_wasted(z, mm);
}

static inline void zmodel_prefetch(struct blab_zone *z, unsigned cpu, uint64_t vaddr,
				   unsigned path)
{
	struct model_machine *mm = zone_mm(z);
	uint32_t land;

	if (cpu >= mm->ncpus)
		return;
	land = model_prefetch(mm, cpu, vaddr, (uint8_t)path);
	EMIT(z, BLAB_EVC_CACHE, BLAB_EV_PREFETCH, line_event_pfn(vaddr), 0, cpu, 0, path,
	     line_event_flags(vaddr), land, 0);
	model_drain_wasted(z, mm);
}

static inline uint64_t zmodel_cost(const struct model_params *p, unsigned cost)
{
	switch (cost) {
	case BLAB_COST_CLEAR_PAGE:
		return p->clear_page_cycles;
	case BLAB_COST_FAULT:
		return 250u * p->list_op_cycles; /* 1000 at defaults: [est], docs/sim.md */
	case BLAB_COST_UNMAP:
		return 25u * p->list_op_cycles; /* 100 at defaults: [est] */
	default:
		return p->list_op_cycles;
	}
}

static inline void zmodel_lock(struct blab_zone *z, unsigned cpu, unsigned lockid)
{
	struct model_machine *mm = zone_mm(z);
	const struct lock_counters *c;
	uint64_t spin0, spun;

	lockid = zmodel_lock_id(z, lockid); /* the event names the model's lock */
	if (cpu >= mm->ncpus || lockid >= mm->locks.nlocks)
		return;
	c = &mm->locks.cpu[cpu][lockid];
	spin0 = c->spin_cycles;
	/* never parks: no op or workload stops while it holds a lock (docs/sim.md) */
	if (!model_lock(mm, cpu, lockid))
		z->machine.parked++;
	spun = c->spin_cycles - spin0;
	EMIT(z, BLAB_EVC_LOCK, BLAB_EV_LOCK_ACQUIRE, 0, 0, cpu, lockid, 0, 0,
	     (uint32_t)(spun > 0xffffffffu ? 0xffffffffu : spun), 0);
}

static inline void zmodel_unlock(struct blab_zone *z, unsigned cpu, unsigned lockid)
{
	struct model_machine *mm = zone_mm(z);
	uint64_t held;

	lockid = zmodel_lock_id(z, lockid);
	if (cpu >= mm->ncpus || lockid >= mm->locks.nlocks)
		return;
	model_store_fence(mm, cpu); /* held until the stores made under it are visible */
	held = mm->now[cpu] - mm->locks.lock[lockid].held_since;
	model_unlock(mm, cpu, lockid);
	EMIT(z, BLAB_EVC_LOCK, BLAB_EV_LOCK_RELEASE, 0, 0, cpu, lockid, 0, 0,
	     (uint32_t)(held > 0xffffffffu ? 0xffffffffu : held), 0);
}

static inline void mach_touch(struct blab_zone *z, unsigned cpu, uint64_t vaddr, int write,
			      unsigned path)
{
#ifdef BLAB_HAVE_MODEL
	if (z->machine.kind == BLAB_MACHINE_MODEL) {
		zmodel_touch(z, cpu, vaddr, write, path);
		return;
	}
#endif
#ifdef BLAB_HAVE_REAL
	if (z->machine.kind == BLAB_MACHINE_REAL) {
		real_touch(z, cpu, vaddr, write, path);
		return;
	}
#endif
	/* plain: record the access; the outcome is not modelled */
	EMIT(z, BLAB_EVC_CACHE, BLAB_EV_ACCESS, line_event_pfn(vaddr), 0, cpu, 0, path,
	     BLAB_ACC_PLAIN | (write ? BLAB_EVF_WRITE : 0) | line_event_flags(vaddr), 0, 0);
}

/* the struct page line of pfn */
static inline void mach_touch_page(struct blab_zone *z, unsigned cpu, uint64_t pfn, int write,
				   unsigned path)
{
	mach_touch(z, cpu, page_vaddr(pfn), write, path);
}

/*
 * A read of the struct page of pfn whose address is computed, not loaded, and whose value
 * only steers a predictable branch (the buddy in __free_one_page): the model lets the CPU
 * run ahead of an L2 hit (model_touch_ahead); the other machines see a plain read.
 */
static inline void mach_touch_page_ahead(struct blab_zone *z, unsigned cpu, uint64_t pfn,
					 unsigned path)
{
#ifdef BLAB_HAVE_MODEL
	if (z->machine.kind == BLAB_MACHINE_MODEL) {
		zmodel_touch_ahead(z, cpu, page_vaddr(pfn), path);
		return;
	}
#endif
	mach_touch(z, cpu, page_vaddr(pfn), 0, path);
}

/*
 * A store to the struct page of pfn that no load waits on right away (expand()'s page[size]).
 * The model buffers it (model_store); the other machines see a plain write.
 */
static inline void mach_store_page(struct blab_zone *z, unsigned cpu, uint64_t pfn,
				   unsigned path)
{
#ifdef BLAB_HAVE_MODEL
	if (z->machine.kind == BLAB_MACHINE_MODEL) {
		zmodel_store(z, cpu, page_vaddr(pfn), path);
		return;
	}
#endif
	mach_touch(z, cpu, page_vaddr(pfn), 1, path);
}

/*
 * List plumbing the kernel does under zone->lock and the model machine must pay for: the
 * free_area list heads and nr_free in struct zone (mach_touch_line, a load or
 * read-modify-write) and a list neighbour's lru pointer (mach_store_line, a buffered
 * store). Only the model machine sees them: the plain machine's event log records the
 * struct pages the algorithm inspects, not the neighbours its list_add rewrites, and the
 * real machine's kernel-shaped lists touch them by themselves.
 */
static inline void mach_touch_line(struct blab_zone *z, unsigned cpu, uint64_t vaddr, int write,
				   unsigned path)
{
#ifdef BLAB_HAVE_MODEL
	if (z->machine.kind == BLAB_MACHINE_MODEL) {
		struct model_machine *mm = zone_mm(z);
		struct cache_result r;
		if (zmodel_logged_line(vaddr)) {
			zmodel_touch(z, cpu, vaddr, write, path);
			return;
		}
		if (cpu >= mm->ncpus)
			return;
		r = model_touch(mm, cpu, vaddr, write, (uint8_t)path);
		if (r.outcome != CACHE_L1 && r.outcome != CACHE_PF_HIT &&
		    zmodel_holds_zone_lock(z, mm, cpu))
			z->machine.misses_zone_locked++;
		model_drain_wasted(z, mm);
		return;
	}
#endif
	(void)z, (void)cpu, (void)vaddr, (void)write, (void)path;
}

static inline void mach_store_line(struct blab_zone *z, unsigned cpu, uint64_t vaddr,
				   unsigned path)
{
#ifdef BLAB_HAVE_MODEL
	if (z->machine.kind == BLAB_MACHINE_MODEL)
		zmodel_store(z, cpu, vaddr, path);
#endif
	(void)z, (void)cpu, (void)vaddr, (void)path;
}

static inline void mach_prefetch(struct blab_zone *z, unsigned cpu, uint64_t vaddr, unsigned path)
{
#ifdef BLAB_HAVE_MODEL
	if (z->machine.kind == BLAB_MACHINE_MODEL) {
		zmodel_prefetch(z, cpu, vaddr, path);
		return;
	}
#endif
#ifdef BLAB_HAVE_REAL
	if (z->machine.kind == BLAB_MACHINE_REAL) {
		real_prefetch(z, cpu, vaddr, path);
		return;
	}
#endif
	EMIT(z, BLAB_EVC_CACHE, BLAB_EV_PREFETCH, line_event_pfn(vaddr), 0, cpu, 0, path,
	     line_event_flags(vaddr), 0, 0);
}

static inline uint64_t mach_now(struct blab_zone *z, unsigned cpu)
{
#ifdef BLAB_HAVE_MODEL
	if (z->machine.kind == BLAB_MACHINE_MODEL)
		return cpu < zone_mm(z)->ncpus ? zone_mm(z)->now[cpu] : 0;
#endif
#ifdef BLAB_HAVE_REAL
	if (z->machine.kind == BLAB_MACHINE_REAL)
		return real_now(z, cpu);
#endif
	(void)cpu;
	return z->now;
}

static inline void mach_work(struct blab_zone *z, unsigned cpu, unsigned cost)
{
#ifdef BLAB_HAVE_MODEL
	if (z->machine.kind == BLAB_MACHINE_MODEL) {
		if (cpu < zone_mm(z)->ncpus)
			model_work(zone_mm(z), cpu, zmodel_cost(&zone_mm(z)->p, cost));
		return;
	}
#endif
	/* plain and real: the real machine's work is the code that runs */
	(void)z;
	(void)cpu;
	(void)cost;
}

/*
 * The op layer calls mach_lock() only when blab_op_step() resumes after BLAB_STEP_LOCK and
 * the lock is free (plain), so plain never waits: arg0 (cycles spun) is 0.
 */
static inline void mach_lock(struct blab_zone *z, unsigned cpu, unsigned lockid)
{
#ifdef BLAB_HAVE_MODEL
	if (z->machine.kind == BLAB_MACHINE_MODEL) {
		zmodel_lock(z, cpu, lockid);
		return;
	}
#endif
#ifdef BLAB_HAVE_REAL
	if (z->machine.kind == BLAB_MACHINE_REAL) {
		if (cpu < zone_rm(z)->ncpus && lockid < REAL_NLOCKS)
			real_lock(zone_rm(z), cpu, lockid);
		return;
	}
#endif
	z->machine.lock_owner[lockid] = (uint16_t)cpu;
	z->machine.lock_taken_at[lockid] = mach_now(z, cpu);
	EMIT(z, BLAB_EVC_LOCK, BLAB_EV_LOCK_ACQUIRE, 0, 0, cpu, lockid, 0, 0, 0, 0);
}

static inline void mach_unlock(struct blab_zone *z, unsigned cpu, unsigned lockid)
{
#ifdef BLAB_HAVE_MODEL
	if (z->machine.kind == BLAB_MACHINE_MODEL) {
		zmodel_unlock(z, cpu, lockid);
		return;
	}
#endif
#ifdef BLAB_HAVE_REAL
	if (z->machine.kind == BLAB_MACHINE_REAL) {
		if (cpu < zone_rm(z)->ncpus && lockid < REAL_NLOCKS)
			real_unlock(zone_rm(z), cpu, lockid);
		return;
	}
#endif
	uint64_t held = mach_now(z, cpu) - z->machine.lock_taken_at[lockid];
	z->machine.lock_owner[lockid] = BLAB_CPU_NONE;
	EMIT(z, BLAB_EVC_LOCK, BLAB_EV_LOCK_RELEASE, 0, 0, cpu, lockid, 0, 0,
	     (uint32_t)(held > 0xffffffffu ? 0xffffffffu : held), 0);
}

static inline int mach_lock_busy(const struct blab_zone *z, unsigned cpu, unsigned lockid)
{
	if (z->machine.kind == BLAB_MACHINE_MODEL) {
		/* held across steps only when a step stopped inside a critical section */
		uint16_t h = zone_mm(z)->locks.lock[zmodel_lock_id(z, lockid)].holder;
		return h != MODEL_NO_CPU && h != cpu;
	}
	if (z->machine.kind == BLAB_MACHINE_REAL)
		return 0; /* the spinlock itself waits */
	uint16_t o = z->machine.lock_owner[lockid];
	return o != BLAB_CPU_NONE && o != cpu;
}

/*
 * clear_page() of pfn's frame: `lines` of its 64 lines (spread evenly) are written through
 * the cache model, so they evict what the CPU had as rep stosb does, but the CPU pays
 * clear_page_cycles rather than a miss per line: the stores stream.
 */
static inline void mach_clear_page(struct blab_zone *z, unsigned cpu, uint64_t pfn,
				   unsigned lines, unsigned path)
{
	if (z->machine.kind == BLAB_MACHINE_MODEL) {
		struct model_machine *mm = zone_mm(z);
		if (cpu >= mm->ncpus)
			return;
		cache_clear_page(&mm->cache, cpu, frame_vaddr(pfn), lines, mm->now[cpu],
				 (uint8_t)path);
		model_drain_wasted(z, mm);
		mm->now[cpu] += mm->p.clear_page_cycles;
		return;
	}
	if (z->machine.kind == BLAB_MACHINE_REAL) {
		if (cpu < zone_rm(z)->ncpus)
			real_clear_page(zone_rm(z), cpu);
		return;
	}
	mach_work(z, cpu, BLAB_COST_CLEAR_PAGE);
}

#endif
