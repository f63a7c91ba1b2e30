/*
 * real.h - the real machine: the allocator on real threads, with a real lock and a real clock.
 *
 * Each thread is one CPU of the zone and owns its per_cpu_pages, exactly as a kernel CPU
 * owns its pageset: it touches its pcp lists without a lock. zone->lock (and lru_lock) are
 * ticket spinlocks on C11 atomics (spinlock.h). The clock is CLOCK_MONOTONIC in ns.
 * prefetch() is __builtin_prefetch() of the host address of the struct page; WebAssembly has
 * no prefetch instruction, so in a WASM build the compiler drops it (REAL_HAVE_PREFETCH 0).
 *
 * What the threads share, and why that is safe (the TSan suite checks it):
 *   - free_area[], nr_free, free_pages and the struct pages on free lists: only under
 *     zone->lock. page->buddy (PageBuddy) is written only under zone->lock, so a CPU merging
 *     may test a buddy that another CPU owns (it sits on that CPU's pcp list).
 *   - z->pcp_pages and z->now: not kept while threads run (real_settle() recounts).
 *   - the event log: off. A real zone refuses a log or a sink; threads would race on it.
 *   - counters below: each written by its own CPU only, read live by the driver as relaxed
 *     atomics (a sample may be a few ns stale, never torn).
 *   - watermarks: refused (alloc would read free_pages without the lock).
 */
#ifndef BLAB_REAL_H
#define BLAB_REAL_H

#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "spinlock.h"

#define REAL_NLOCKS 3 /* BLAB_LOCK_ZONE, _LRU, _SLAB_LIST */

#ifdef __EMSCRIPTEN__
#define REAL_HAVE_PREFETCH 0 /* WebAssembly has no prefetch instruction */
#else
#define REAL_HAVE_PREFETCH 1
#endif

/* one lock as seen by one CPU; written by that CPU only */
struct real_lock_stat {
	_Atomic uint64_t acquisitions;
	_Atomic uint64_t contended; /* acquisitions that had to wait */
	_Atomic uint64_t spin_ns;   /* time spent waiting */
	_Atomic uint64_t hold_ns;   /* time between lock and unlock */
	uint64_t taken_at;          /* private to the holder */
};

/* per CPU, on its own cache lines so that counting never bounces a line between CPUs */
struct real_cpu {
	_Alignas(64) struct real_lock_stat lock[REAL_NLOCKS];
	struct real_spinlock pcp_lock; /* this CPU's pcp->lock (6.0+ presets; prim.h) */
	_Atomic uint64_t pages;   /* workload progress (page_fault1: pages faulted) */
	_Alignas(64) unsigned char frame[4096]; /* clear_page() target: this CPU's "page frame" */
};

struct real_machine {
	uint32_t ncpus;
	uint8_t time_locks; /* 1: spin and hold times (two clock reads per hold); 0: counts only */
	struct real_spinlock lock[REAL_NLOCKS];
	struct real_cpu *cpu; /* ncpus, 64-byte aligned */
	void *cpu_mem;        /* what was allocated for cpu[] */
};

int real_machine_init(struct real_machine *rm, uint32_t ncpus, int time_locks);
void real_machine_free(struct real_machine *rm);

static inline uint64_t real_clock_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The owner's counter update: relaxed load + store (no locked instruction; one writer). */
static inline void real_count(_Atomic uint64_t *c, uint64_t add)
{
	atomic_store_explicit(c, atomic_load_explicit(c, memory_order_relaxed) + add,
			      memory_order_relaxed);
}

static inline void real_lock(struct real_machine *rm, unsigned cpu, unsigned lockid)
{
	struct real_spinlock *l = &rm->lock[lockid];
	struct real_lock_stat *s = &rm->cpu[cpu].lock[lockid];
	uint32_t me = real_spin_ticket(l);

	if (!real_spin_is_mine(l, me)) {
		if (rm->time_locks) {
			uint64_t t0 = real_clock_ns();
			real_spin_wait(l, me);
			s->taken_at = real_clock_ns();
			real_count(&s->spin_ns, s->taken_at - t0);
		} else {
			real_spin_wait(l, me);
		}
		real_count(&s->contended, 1);
	} else if (rm->time_locks) {
		s->taken_at = real_clock_ns();
	}
	real_count(&s->acquisitions, 1);
}

/* zone->lock or lru_lock by spin_trylock(): 1 when taken (counted), else 0 */
static inline int real_trylock(struct real_machine *rm, unsigned cpu, unsigned lockid)
{
	struct real_lock_stat *s = &rm->cpu[cpu].lock[lockid];

	if (!real_spin_trylock(&rm->lock[lockid]))
		return 0;
	if (rm->time_locks)
		s->taken_at = real_clock_ns();
	real_count(&s->acquisitions, 1);
	return 1;
}

static inline void real_unlock(struct real_machine *rm, unsigned cpu, unsigned lockid)
{
	struct real_lock_stat *s = &rm->cpu[cpu].lock[lockid];

	if (rm->time_locks)
		real_count(&s->hold_ns, real_clock_ns() - s->taken_at);
	real_spin_unlock(&rm->lock[lockid]);
}

/* clear_page(): 4 KB of stores, into this CPU's own frame (always cache-hot, see docs/real.md) */
static inline void real_clear_page(struct real_machine *rm, unsigned cpu)
{
	memset(rm->cpu[cpu].frame, 0, sizeof(rm->cpu[cpu].frame));
}

#endif
