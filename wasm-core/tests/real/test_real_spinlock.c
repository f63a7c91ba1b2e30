/*
 * The real machine's ticket spinlock and its timed hooks: mutual exclusion (a plain counter
 * incremented under the lock by several threads ends exact), tickets served in order, and
 * per-CPU counts of acquisitions. Run under ThreadSanitizer too (make test-tsan): a missing
 * acquire/release would show there as a data race on the counter.
 */
#include <pthread.h>
#include <string.h>

#include "harness.h"
#include "machine/real/real.h"

enum { THREADS = 3, ROUNDS = 2000 };

static struct real_spinlock lock;
static uint64_t counter; /* plain: only the lock protects it */
static int inside;       /* how many threads are in the critical section (must stay <= 1) */
static int overlap;

static void *hammer(void *arg)
{
	(void)arg;
	for (int i = 0; i < ROUNDS; i++) {
		real_spin_lock(&lock);
		if (++inside != 1)
			overlap = 1;
		counter++;
		inside--;
		real_spin_unlock(&lock);
	}
	return NULL;
}

static void test_mutual_exclusion(void)
{
	pthread_t th[THREADS];

	real_spin_init(&lock);
	counter = 0;
	for (int i = 0; i < THREADS; i++)
		CHECK_EQ(pthread_create(&th[i], NULL, hammer, NULL), 0);
	for (int i = 0; i < THREADS; i++)
		pthread_join(th[i], NULL);
	CHECK_EQ(counter, (uint64_t)THREADS * ROUNDS);
	CHECK_EQ(overlap, 0);
	CHECK(!real_spin_is_locked(&lock));
}

static void test_tickets_in_order(void)
{
	struct real_spinlock l;
	uint32_t a, b;

	real_spin_init(&l);
	CHECK_EQ(real_spin_lock(&l), 0); /* free: no wait */
	CHECK(real_spin_is_locked(&l));
	a = real_spin_ticket(&l);        /* two waiters queue behind the holder */
	b = real_spin_ticket(&l);
	CHECK(!real_spin_is_mine(&l, a));
	real_spin_unlock(&l);            /* the first waiter's turn, not the second's */
	CHECK(real_spin_is_mine(&l, a));
	CHECK(!real_spin_is_mine(&l, b));
	real_spin_unlock(&l);
	CHECK(real_spin_is_mine(&l, b));
	real_spin_unlock(&l);
	CHECK(!real_spin_is_locked(&l));
}

/* the machine hooks: every CPU counts its own acquisitions; times only when timed */
static struct real_machine rm;
static uint64_t shared_work;

static void *cpu_main(void *arg)
{
	unsigned cpu = (unsigned)(uintptr_t)arg;
	for (int i = 0; i < ROUNDS; i++) {
		real_lock(&rm, cpu, 0);
		shared_work++;
		real_unlock(&rm, cpu, 0);
	}
	return NULL;
}

static void machine_round(int timed)
{
	pthread_t th[THREADS];
	uint64_t acq = 0, contended = 0, hold = 0;

	CHECK_EQ(real_machine_init(&rm, THREADS, timed), 0);
	shared_work = 0;
	for (unsigned i = 0; i < THREADS; i++)
		CHECK_EQ(pthread_create(&th[i], NULL, cpu_main, (void *)(uintptr_t)i), 0);
	for (int i = 0; i < THREADS; i++)
		pthread_join(th[i], NULL);
	CHECK_EQ(shared_work, (uint64_t)THREADS * ROUNDS);
	for (unsigned i = 0; i < THREADS; i++) {
		CHECK_EQ(atomic_load(&rm.cpu[i].lock[0].acquisitions), ROUNDS);
		CHECK_EQ(atomic_load(&rm.cpu[i].lock[1].acquisitions), 0);
		acq += atomic_load(&rm.cpu[i].lock[0].acquisitions);
		contended += atomic_load(&rm.cpu[i].lock[0].contended);
		hold += atomic_load(&rm.cpu[i].lock[0].hold_ns);
	}
	CHECK_EQ(acq, (uint64_t)THREADS * ROUNDS);
	CHECK(contended <= acq);
	if (timed)
		CHECK(hold > 0); /* 6000 holds cannot all take 0 ns */
	else
		CHECK_EQ(hold, 0);
	CHECK(((uintptr_t)rm.cpu & 63u) == 0); /* per-CPU blocks on their own lines */
	real_machine_free(&rm);
}

static void test_machine_hooks(void)
{
	machine_round(1);
	machine_round(0);
	CHECK_EQ(real_machine_init(&rm, 0, 1), -1);
}

int main(void)
{
	test_mutual_exclusion();
	test_tickets_in_order();
	test_machine_hooks();
	return harness_report("test_real_spinlock");
}
