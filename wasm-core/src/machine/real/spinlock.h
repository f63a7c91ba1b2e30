/*
 * spinlock.h - a ticket spinlock on C11 atomics: zone->lock of the real machine.
 *
 * A CPU takes a ticket with one atomic fetch-add on `next` and spins until `owner` shows its
 * number; unlock hands the lock to the next ticket. Waiters are served in arrival order,
 * as the kernel's ticket spinlocks (2.6.25 .. 4.1) and queued spinlocks (4.2+) serve them,
 * and as the model machine's lock model does. Both words share one cache line, like the
 * kernel's arch_spinlock_t: every waiter re-reads that line when the owner writes it.
 *
 * The timed variants measure the time a CPU spins before the lock is its (only when it had
 * to wait: an uncontended acquisition reads the clock once) and the time it holds it.
 */
#ifndef BLAB_REAL_SPINLOCK_H
#define BLAB_REAL_SPINLOCK_H

#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
/* PAUSE: spin politely, so the sibling hyperthread keeps its share of the core */
#define real_cpu_relax() _mm_pause()
#elif defined(__aarch64__)
#define real_cpu_relax() __asm__ __volatile__("yield" ::: "memory")
#else
/* WebAssembly has no pause instruction: a plain re-read */
#define real_cpu_relax() ((void)0)
#endif

struct real_spinlock {
	_Alignas(64) _Atomic uint32_t next; /* the ticket the next arrival takes */
	_Atomic uint32_t owner;             /* the ticket that holds the lock */
	char pad[64 - 2 * sizeof(uint32_t)];
};

static inline void real_spin_init(struct real_spinlock *l)
{
	atomic_init(&l->next, 0);
	atomic_init(&l->owner, 0);
}

/* Three steps, so a caller can read a clock only when it has to wait. */
static inline uint32_t real_spin_ticket(struct real_spinlock *l)
{
	return atomic_fetch_add_explicit(&l->next, 1, memory_order_relaxed);
}

static inline int real_spin_is_mine(struct real_spinlock *l, uint32_t ticket)
{
	return atomic_load_explicit(&l->owner, memory_order_acquire) == ticket;
}

/*
 * Unlike a kernel CPU, a user thread can be preempted while it holds the lock or while its
 * ticket comes up, and with a FIFO lock everyone behind it then waits a whole time slice.
 * So after REAL_SPIN_BEFORE_YIELD polls a waiter yields the CPU between polls; with a thread
 * per CPU and nothing else running it never gets that far (a hold is a few microseconds).
 */
#define REAL_SPIN_BEFORE_YIELD 4096u

#ifdef __EMSCRIPTEN__
#include <emscripten/threading.h>
/* Emscripten's sched_yield() returns at once: wait on the owner word instead (Atomics.wait,
 * at most 50 us), which hands the core to another thread */
static inline void real_spin_yield(struct real_spinlock *l)
{
	uint32_t seen = atomic_load_explicit(&l->owner, memory_order_relaxed);
	emscripten_futex_wait((volatile void *)&l->owner, seen, 0.05);
}
#else
static inline void real_spin_yield(struct real_spinlock *l)
{
	(void)l;
	sched_yield();
}
#endif

static inline void real_spin_wait(struct real_spinlock *l, uint32_t ticket)
{
	uint32_t spins = 0;

	while (!real_spin_is_mine(l, ticket)) {
		if (++spins < REAL_SPIN_BEFORE_YIELD)
			real_cpu_relax();
		else
			real_spin_yield(l);
	}
}

/* Takes the lock; returns 1 when it had to wait (another CPU held it), else 0. */
static inline int real_spin_lock(struct real_spinlock *l)
{
	uint32_t me = real_spin_ticket(l);

	if (real_spin_is_mine(l, me))
		return 0;
	real_spin_wait(l, me);
	return 1;
}

/* spin_trylock(): 1 when the lock was free and is now the caller's, 0 (nothing taken) when
 * some CPU holds it or waits for it */
static inline int real_spin_trylock(struct real_spinlock *l)
{
	uint32_t o = atomic_load_explicit(&l->owner, memory_order_relaxed);
	uint32_t n = o;

	return atomic_compare_exchange_strong_explicit(&l->next, &n, o + 1, memory_order_acquire,
						       memory_order_relaxed);
}

/* Only the holder writes owner, so a plain load of it and a release store suffice. */
static inline void real_spin_unlock(struct real_spinlock *l)
{
	uint32_t o = atomic_load_explicit(&l->owner, memory_order_relaxed);
	atomic_store_explicit(&l->owner, o + 1, memory_order_release);
}

/* 1 when some CPU holds the lock (a snapshot: it may change at once) */
static inline int real_spin_is_locked(struct real_spinlock *l)
{
	return atomic_load_explicit(&l->next, memory_order_relaxed) !=
	       atomic_load_explicit(&l->owner, memory_order_relaxed);
}

#endif
