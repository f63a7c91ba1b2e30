/*
 * machine.h - the hooks between the allocator and the machine it runs on.
 *
 * The allocator never touches host time, host addresses or host locks directly: it says
 * "cpu touched the struct page line at this kernel virtual address", "cpu prefetched it",
 * "cpu takes zone->lock". Hooks are static inline and branch on z->machine.kind:
 *   PLAIN  here: no costs, the clock counts ops, touches become ACCESS/PREFETCH events.
 *   MODEL  src/model/ (later): define BLAB_HAVE_MODEL and provide model_touch() etc.
 *   REAL   src/real/  (later): define BLAB_HAVE_REAL and provide real_touch() etc.
 * Extension point: add the call in the marked #ifdef branch; PLAIN pays one branch.
 */
#ifndef BLAB_MACHINE_H
#define BLAB_MACHINE_H

#include "internal.h"

/* cost classes for mach_work() */
enum blab_cost {
	BLAB_COST_LIST_OP = 0, /* a list_add / list_del */
	BLAB_COST_BUDDY_CALC = 1,
	BLAB_COST_CALL = 2,
};

static inline void mach_touch(struct blab_zone *z, unsigned cpu, uint64_t vaddr, int write,
			      unsigned path)
{
#ifdef BLAB_HAVE_MODEL
	if (z->machine.kind == BLAB_MACHINE_MODEL) {
		model_touch(z, cpu, vaddr, write, path);
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
	EMIT(z, BLAB_EVC_CACHE, BLAB_EV_ACCESS, (vaddr - VMEMMAP_START) / 64u, 0, cpu, 0, path,
	     BLAB_ACC_PLAIN | (write ? BLAB_EVF_WRITE : 0), 0, 0);
}

/* the struct page line of pfn */
static inline void mach_touch_page(struct blab_zone *z, unsigned cpu, uint64_t pfn, int write,
				   unsigned path)
{
	mach_touch(z, cpu, page_vaddr(pfn), write, path);
}

static inline void mach_prefetch(struct blab_zone *z, unsigned cpu, uint64_t vaddr, unsigned path)
{
#ifdef BLAB_HAVE_MODEL
	if (z->machine.kind == BLAB_MACHINE_MODEL) {
		model_prefetch(z, cpu, vaddr, path);
		return;
	}
#endif
#ifdef BLAB_HAVE_REAL
	if (z->machine.kind == BLAB_MACHINE_REAL) {
		real_prefetch(z, cpu, vaddr, path);
		return;
	}
#endif
	EMIT(z, BLAB_EVC_CACHE, BLAB_EV_PREFETCH, (vaddr - VMEMMAP_START) / 64u, 0, cpu, 0, path,
	     0, 0, 0);
}

static inline uint64_t mach_now(struct blab_zone *z, unsigned cpu)
{
#ifdef BLAB_HAVE_MODEL
	if (z->machine.kind == BLAB_MACHINE_MODEL)
		return model_now(z, cpu);
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
		model_work(z, cpu, cost);
		return;
	}
#endif
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
		model_lock(z, cpu, lockid);
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
		model_unlock(z, cpu, lockid);
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
	uint16_t o = z->machine.lock_owner[lockid];
	return o != BLAB_CPU_NONE && o != cpu;
}

#endif
