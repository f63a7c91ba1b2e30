/*
 * hooks.c - the model machine behind machine.h: each touch and prefetch goes through the
 * cache model, each lock through the lock model, each piece of work onto the CPU's virtual
 * clock, and what they did becomes event records (ACCESS with its outcome and cycles,
 * PREFETCH with when the line lands, PREFETCH_WASTED, LOCK_ACQUIRE with the cycles spun).
 * The modules themselves (cache.c, lock.c, sched.c) know nothing of events or zones.
 */
#include <stdlib.h>

#include "machine/prim.h"
#include "model.h"

_Static_assert(MODEL_MAX_CPUS == BLAB_MODEL_MAX_CPUS, "one bound on the model's CPUs");
_Static_assert(MODEL_NODE_LOCKS == MACH_NLOCKS, "a zone's locks are its node's locks");
_Static_assert((int)LOCK_ZONE == (int)BLAB_LOCK_ZONE && (int)LOCK_LRU == (int)BLAB_LOCK_LRU &&
		       (int)LOCK_SLAB_LIST == (int)BLAB_LOCK_SLAB_LIST,
	       "the model's lock ids are the core's");

/* mach_now() on the model: the CPU's virtual clock */
static inline uint64_t model_time(const struct blab_machine *m, unsigned cpu)
{
	return cpu < m->nclocks ? m->clock[cpu] : 0;
}

/* a record stamped with cpu's clock, as machine.h's MACH_EMIT does */
#define MODEL_EMIT(m, cls, type, pfn, order, cpu, mt, path, flags, a0, a1)                   \
	do {                                                                                 \
		if (log_on(&(m)->log, (cls)))                                                \
			mach_log_event((m), model_time((m), (cpu)), (type), (pfn), (order), (cpu), \
				       (mt), (path), (flags), (a0), (a1));                   \
	} while (0)

/* the model's lock id of this zone's lock BLAB_LOCK_* id (its node's, when zones share a
 * machine: lock_base) */
static inline unsigned model_lock_id(const struct blab_machine *m, unsigned lockid)
{
	return m->lock_base + lockid;
}

/* a miss while holding this zone's zone->lock makes the lock hold longer: counted */
static inline void count_locked_miss(struct blab_machine *m, const struct model_machine *mm,
				     unsigned cpu, struct cache_result r)
{
	if (r.outcome != CACHE_L1 && r.outcome != CACHE_PF_HIT &&
	    mm->locks.lock[model_lock_id(m, LOCK_ZONE)].holder == cpu)
		m->misses_zone_locked++;
}

static void drain_wasted(struct blab_machine *m, struct model_machine *mm)
{
	struct cache_wasted w[MODEL_WASTED_MAX];
	uint32_t n;

	if (!mm->cache.nwasted)
		return;
	n = cache_take_wasted(&mm->cache, w, MODEL_WASTED_MAX);
	for (uint32_t i = 0; i < n; i++)
		MODEL_EMIT(m, BLAB_EVC_CACHE, BLAB_EV_PREFETCH_WASTED, line_event_pfn(w[i].vaddr), 0,
			  w[i].cpu, 0, w[i].path, line_event_flags(w[i].vaddr), 0, 0);
}

/*
 * The hooks below answer the commonest access, an L1 hit on the most recent way of its set
 * (model_touch_mru, model_store_mru), in a few loads and no call; everything else, and the
 * hit's event record when the log keeps one, goes out of line.
 */

#define NOINLINE __attribute__((noinline))

/* the ACCESS record of an L1 hit answered inline, `cycles` paid */
static NOINLINE void emit_l1_hit(struct blab_machine *m, unsigned cpu, uint64_t vaddr,
				 unsigned flags, unsigned path, uint32_t cycles)
{
	mach_log_event(m, model_time(m, cpu), BLAB_EV_ACCESS, line_event_pfn(vaddr), 0, cpu, 0,
		       path, CACHE_L1 | flags | line_event_flags(vaddr), cycles, 0);
}

static NOINLINE void touch_slow(struct blab_machine *m, unsigned cpu, uint64_t vaddr,
				int write, unsigned path)
{
	struct model_machine *mm = mach_model(m);
	struct cache_result r;

	if (cpu >= mm->ncpus)
		return; /* zone set-up: no CPU pays */
	r = model_touch(mm, cpu, vaddr, write, (uint8_t)path);
	count_locked_miss(m, mm, cpu, r);
	MODEL_EMIT(m, BLAB_EVC_CACHE, BLAB_EV_ACCESS, line_event_pfn(vaddr), 0, cpu, 0, path,
		  r.outcome | (write ? BLAB_EVF_WRITE : 0) | line_event_flags(vaddr), r.cycles, 0);
	drain_wasted(m, mm);
}

void _mach_model_touch(struct blab_machine *m, unsigned cpu, uint64_t vaddr, int write,
		       unsigned path)
{
	struct model_machine *mm = mach_model(m);

	if (cpu < mm->ncpus &&
	    model_touch_mru(mm, cpu, vaddr >> MODEL_LINE_SHIFT, write, (uint8_t)path)) {
		if (log_on(&m->log, BLAB_EVC_CACHE))
			emit_l1_hit(m, cpu, vaddr, write ? BLAB_EVF_WRITE : 0, path,
				    mm->p.l1_cycles);
		return;
	}
	touch_slow(m, cpu, vaddr, write, path);
}

static NOINLINE void touch_ahead_slow(struct blab_machine *m, unsigned cpu, uint64_t vaddr,
				      unsigned path)
{
	struct model_machine *mm = mach_model(m);
	struct cache_result r;

	if (cpu >= mm->ncpus)
		return;
	r = model_touch_ahead(mm, cpu, vaddr, (uint8_t)path);
	count_locked_miss(m, mm, cpu, r);
	MODEL_EMIT(m, BLAB_EVC_CACHE, BLAB_EV_ACCESS, line_event_pfn(vaddr), 0, cpu, 0, path,
		  r.outcome, r.cycles, 0);
	drain_wasted(m, mm);
}

/* an independent load the CPU runs ahead of (model_touch_ahead) */
void _mach_model_touch_ahead(struct blab_machine *m, unsigned cpu, uint64_t vaddr,
			     unsigned path)
{
	struct model_machine *mm = mach_model(m);

	if (cpu < mm->ncpus && model_touch_mru(mm, cpu, vaddr >> MODEL_LINE_SHIFT, 0, (uint8_t)path)) {
		if (log_on(&m->log, BLAB_EVC_CACHE))
			emit_l1_hit(m, cpu, vaddr, 0, path, mm->p.l1_cycles);
		return;
	}
	touch_ahead_slow(m, cpu, vaddr, path);
}

static NOINLINE void touch_line_slow(struct blab_machine *m, unsigned cpu, uint64_t vaddr,
				     int write, unsigned path)
{
	struct model_machine *mm = mach_model(m);
	struct cache_result r;

	if (cpu >= mm->ncpus)
		return;
	r = model_touch(mm, cpu, vaddr, write, (uint8_t)path);
	count_locked_miss(m, mm, cpu, r);
	drain_wasted(m, mm);
}

/* ACCESS events name a struct page by its pfn (docs/events.md); the struct zone lines that
 * mach_touch_line() charges have none, so they are counted, not logged */
void _mach_model_touch_line(struct blab_machine *m, unsigned cpu, uint64_t vaddr, int write,
			    unsigned path)
{
	struct model_machine *mm = mach_model(m);

	if (line_is_page(vaddr)) {
		_mach_model_touch(m, cpu, vaddr, write, path);
		return;
	}
	if (cpu < mm->ncpus &&
	    model_touch_mru(mm, cpu, vaddr >> MODEL_LINE_SHIFT, write, (uint8_t)path))
		return;
	touch_line_slow(m, cpu, vaddr, write, path);
}

static NOINLINE void store_slow(struct blab_machine *m, unsigned cpu, uint64_t vaddr,
				unsigned path)
{
	struct model_machine *mm = mach_model(m);
	struct cache_result r;

	if (cpu >= mm->ncpus)
		return;
	r = model_store(mm, cpu, vaddr, (uint8_t)path);
	count_locked_miss(m, mm, cpu, r);
	if (line_is_page(vaddr))
		MODEL_EMIT(m, BLAB_EVC_CACHE, BLAB_EV_ACCESS, line_event_pfn(vaddr), 0, cpu, 0, path,
			  r.outcome | BLAB_EVF_WRITE, r.cycles, 0);
	drain_wasted(m, mm);
}

/* a buffered store (model_store): the ACCESS event's arg0 is what the CPU paid */
void _mach_model_store(struct blab_machine *m, unsigned cpu, uint64_t vaddr, unsigned path)
{
	struct model_machine *mm = mach_model(m);
	uint64_t before;

	if (cpu < mm->ncpus) {
		before = mm->now[cpu];
		if (model_store_mru(mm, cpu, vaddr >> MODEL_LINE_SHIFT, (uint8_t)path)) {
			if (line_is_page(vaddr) && log_on(&m->log, BLAB_EVC_CACHE))
				emit_l1_hit(m, cpu, vaddr, BLAB_EVF_WRITE, path,
					    (uint32_t)(mm->now[cpu] - before));
			return;
		}
	}
	store_slow(m, cpu, vaddr, path);
}

void _mach_model_prefetch(struct blab_machine *m, unsigned cpu, uint64_t vaddr, unsigned path)
{
	struct model_machine *mm = mach_model(m);
	uint64_t redundant;
	uint32_t land;

	if (cpu >= mm->ncpus)
		return;
	/* arg1 = 1: the line was already in this CPU's L1 (the cache model's pf_redundant), so
	 * this prefetch fetched nothing and no hit, late or wasted will ever be counted for it */
	redundant = mm->cache.cnt_cpu[cpu].pf_redundant;
	land = model_prefetch(mm, cpu, vaddr, (uint8_t)path);
	redundant = mm->cache.cnt_cpu[cpu].pf_redundant - redundant;
	MODEL_EMIT(m, BLAB_EVC_CACHE, BLAB_EV_PREFETCH, line_event_pfn(vaddr), 0, cpu, 0, path,
		  line_event_flags(vaddr), land, (uint32_t)redundant);
	drain_wasted(m, mm);
}

/* a pcp->lock: the model's own small locks, one per CPU (lock_pcp_*), never logged */
static void model_pcp_lock(struct model_machine *mm, unsigned cpu, unsigned owner)
{
	model_store_fence(mm, cpu);
	mm->now[cpu] = lock_pcp_take(&mm->locks, owner, cpu, mm->now[cpu]);
}

void _mach_model_lock(struct blab_machine *m, unsigned cpu, unsigned lockid)
{
	struct model_machine *mm = mach_model(m);
	const struct lock_counters *c;
	uint64_t spin0, spun;

	if (mach_lock_is_pcp(lockid)) {
		if (cpu < mm->ncpus && lockid - MACH_LOCK_PCP < mm->ncpus)
			model_pcp_lock(mm, cpu, lockid - MACH_LOCK_PCP);
		return;
	}
	lockid = model_lock_id(m, lockid); /* the event names the model's lock */
	if (cpu >= mm->ncpus || lockid >= mm->locks.nlocks)
		return;
	c = &mm->locks.cpu[cpu][lockid];
	spin0 = c->spin_cycles;
	/* never parks: no op or workload stops while it holds a lock (docs/sim.md) */
	if (!model_lock(mm, cpu, lockid))
		m->parked++;
	spun = c->spin_cycles - spin0;
	MODEL_EMIT(m, BLAB_EVC_LOCK, BLAB_EV_LOCK_ACQUIRE, 0, 0, cpu, lockid, 0, 0,
		  (uint32_t)(spun > 0xffffffffu ? 0xffffffffu : spun), 0);
}

/* spin_trylock() at the CPU's clock: fails when the lock is held at that time */
int _mach_model_trylock(struct blab_machine *m, unsigned cpu, unsigned lockid)
{
	struct model_machine *mm = mach_model(m);
	uint64_t t;

	if (cpu >= mm->ncpus)
		return 0;
	model_store_fence(mm, cpu); /* the atomic drains the store buffer, taken or not */
	if (mach_lock_is_pcp(lockid)) {
		if (lockid - MACH_LOCK_PCP >= mm->ncpus)
			return 0;
		if (!lock_pcp_try(&mm->locks, lockid - MACH_LOCK_PCP, cpu, mm->now[cpu], &t)) {
			mm->now[cpu] += mm->p.atomic_cycles; /* the failed compare-and-swap */
			return 0;
		}
		mm->now[cpu] = t;
		return 1;
	}
	lockid = model_lock_id(m, lockid);
	if (lockid >= mm->locks.nlocks || !lock_try(&mm->locks, lockid, cpu, mm->now[cpu], &t))
		return 0;
	mm->now[cpu] = t;
	MODEL_EMIT(m, BLAB_EVC_LOCK, BLAB_EV_LOCK_ACQUIRE, 0, 0, cpu, lockid, 0, 0, 0, 0);
	return 1;
}

void _mach_model_unlock(struct blab_machine *m, unsigned cpu, unsigned lockid)
{
	struct model_machine *mm = mach_model(m);
	uint64_t held;

	if (mach_lock_is_pcp(lockid)) {
		if (cpu < mm->ncpus && lockid - MACH_LOCK_PCP < mm->ncpus) {
			model_store_fence(mm, cpu);
			lock_pcp_release(&mm->locks, lockid - MACH_LOCK_PCP, cpu, mm->now[cpu]);
		}
		return;
	}
	lockid = model_lock_id(m, lockid);
	if (cpu >= mm->ncpus || lockid >= mm->locks.nlocks)
		return;
	model_store_fence(mm, cpu); /* held until the stores made under it are visible */
	held = mm->now[cpu] - mm->locks.lock[lockid].held_since;
	model_unlock(mm, cpu, lockid);
	MODEL_EMIT(m, BLAB_EVC_LOCK, BLAB_EV_LOCK_RELEASE, 0, 0, cpu, lockid, 0, 0,
		  (uint32_t)(held > 0xffffffffu ? 0xffffffffu : held), 0);
}

/* held across steps only when a step stopped inside a critical section */
int _mach_model_lock_busy(const struct blab_machine *m, unsigned cpu, unsigned lockid)
{
	const struct model_machine *mm = mach_model(m);
	uint16_t h;

	if (mach_lock_is_pcp(lockid))
		h = lockid - MACH_LOCK_PCP < mm->ncpus ? mm->locks.pcp[lockid - MACH_LOCK_PCP].holder
						       : MODEL_NO_CPU;
	else
		h = mm->locks.lock[model_lock_id(m, lockid)].holder;
	return h != MODEL_NO_CPU && h != cpu;
}

void _mach_model_clear_page(struct blab_machine *m, unsigned cpu, uint64_t pfn, unsigned lines,
			    unsigned path)
{
	struct model_machine *mm = mach_model(m);

	if (cpu >= mm->ncpus)
		return;
	uint32_t wait = cache_clear_page(&mm->cache, cpu, frame_vaddr(pfn), lines, mm->now[cpu],
					 (uint8_t)path);
	drain_wasted(m, mm);
	mm->now[cpu] += (uint64_t)mm->p.clear_page_cycles + wait;
}

/* ---- set-up ---- */

/* the cycles each class of mach_work() costs on this machine */
static uint32_t model_cost(const struct model_params *p, unsigned cost)
{
	switch (cost) {
	case BLAB_COST_CLEAR_PAGE:
		return p->clear_page_cycles;
	case BLAB_COST_FAULT:
		return model_fault_cycles(p); /* 1000 at defaults: [est], docs/model.md */
	case BLAB_COST_UNMAP:
		return model_unmap_cycles(p); /* 100 at defaults: [est] */
	default:
		return p->list_op_cycles;
	}
}

static void attach(struct blab_machine *m, struct model_machine *mm)
{
	m->impl = mm;
	m->clock = mm->now;
	m->nclocks = mm->ncpus;
	for (unsigned c = 0; c < BLAB_COST_NR; c++)
		m->work_cycles[c] = model_cost(&mm->p, c);
}

int _mach_model_init(struct blab_machine *m, const struct model_params *p, unsigned cpus,
		     uint64_t first_pfn, uint64_t pages)
{
	struct model_machine *mm = malloc(sizeof(*mm));

	if (!mm || model_machine_init_at(mm, p, cpus, first_pfn, pages, 0, MACH_NLOCKS)) {
		free(mm);
		return -1;
	}
	cache_set_frames(&mm->cache, first_pfn, pages);
	attach(m, mm);
	return 0;
}

uint64_t _mach_model_mem_bytes(const struct model_params *p, unsigned cpus, uint64_t pages)
{
	return model_machine_mem_bytes(p, cpus, pages, 0);
}

int _mach_model_check_shared(const struct model_machine *mm, unsigned node, unsigned cpus,
			     uint64_t first_pfn, uint64_t pages)
{
	const struct cache_model *cm;
	uint64_t dense_first;

	if (!mm || node >= MODEL_MAX_NODES || (node + 1) * MODEL_NODE_LOCKS > mm->locks.nlocks)
		return BLAB_EINVAL;
	if (cpus != mm->ncpus)
		return BLAB_ECPU; /* the pagesets are indexed by the machine's CPU numbers */
	cm = &mm->cache;
	dense_first = cm->dir_base_line - (MODEL_VMEMMAP_START >> MODEL_LINE_SHIFT);
	/* its struct pages in the shared dense directory, not the hashed part */
	if (first_pfn < dense_first || pages > cm->dir_npages ||
	    first_pfn - dense_first > cm->dir_npages - pages)
		return BLAB_ELIMIT;
	return 0;
}

/* the machine's clocks and caches go on; this zone only adds its node's locks */
void _mach_model_init_shared(struct blab_machine *m, struct model_machine *mm, unsigned node)
{
	attach(m, mm);
	m->impl_shared = 1;
	m->lock_base = (uint8_t)(node * MODEL_NODE_LOCKS);
}

void _mach_model_free(struct blab_machine *m)
{
	model_machine_free(mach_model(m));
	free(m->impl);
}
