/* The lock model: FIFO by arrival, computed waits, handoff costs, queueing, contention %. */
#include <string.h>

#include "harness.h"
#include "machine/model/model.h"

/* Default topology: CPUs 0..27 socket 0, 28..55 socket 1, 56 = CPU 0's sibling.
 * Costs: atomic 20, handoff 70 (same socket), 300 (other socket). */

static void test_fifo_waits(void)
{
	struct model_params p;
	struct lock_model lm;
	uint64_t t = 0;
	model_params_default(&p);
	CHECK_EQ(lock_init(&lm, &p, 2, 112), 0);

	/* CPU 0 at 100: free, never taken: just the atomic */
	CHECK_EQ(lock_acquire(&lm, LOCK_ZONE, 0, 100, &t), 1);
	CHECK_EQ(t, 120);
	CHECK_EQ(lock_release(&lm, LOCK_ZONE, 0, 500, &t), MODEL_NO_CPU); /* held 380 */
	/* CPU 1 asked at 200 (its step runs after CPU 0's): spins until 500, then the line
	 * moves from core 0 (70) and the atomic (20) */
	CHECK_EQ(lock_acquire(&lm, LOCK_ZONE, 1, 200, &t), 1);
	CHECK_EQ(t, 590);
	CHECK_EQ(lock_release(&lm, LOCK_ZONE, 1, 700, &t), MODEL_NO_CPU); /* held 110 */
	/* CPU 2 asked at 300: behind CPU 1, in arrival order */
	CHECK_EQ(lock_acquire(&lm, LOCK_ZONE, 2, 300, &t), 1);
	CHECK_EQ(t, 790);
	CHECK_EQ(lock_release(&lm, LOCK_ZONE, 2, 800, &t), MODEL_NO_CPU); /* held 10 */

	const struct lock_counters *c = &lm.lock[LOCK_ZONE].c;
	CHECK_EQ(c->acquisitions, 3);
	CHECK_EQ(c->contended, 2);
	CHECK_EQ(c->wait_cycles, 20 + 390 + 490);
	CHECK_EQ(c->spin_cycles, (300 + 70) + (400 + 70));
	CHECK_EQ(c->hold_cycles, 380 + 110 + 10);
	CHECK_EQ(lm.cpu[1][LOCK_ZONE].spin_cycles, 370);
	CHECK_EQ(lm.cpu[2][LOCK_ZONE].wait_cycles, 490);
	CHECK_EQ(lm.cpu[0][LOCK_ZONE].contended, 0);
	CHECK_EQ(lm.cpu[0][LOCK_ZONE].hold_cycles, 380);

	/* 840 spin cycles of 8400 cycles in all: 10.00 % */
	CHECK_EQ(lock_contention_bp(&lm, LOCK_ZONE, 8400), 1000);
	CHECK_EQ(lock_contention_bp(&lm, LOCK_ZONE, 0), 0);
	CHECK_EQ(lock_contention_bp(&lm, LOCK_LRU, 8400), 0);

	/* the other lock is independent */
	CHECK_EQ(lm.lock[LOCK_LRU].c.acquisitions, 0);
	CHECK_EQ(lock_check(&lm, NULL, 0), 0);
	char err[80] = "";
	lm.lock[LOCK_LRU].qlen = 1; /* queued on a free lock */
	CHECK_EQ(lock_check(&lm, err, sizeof(err)), -1);
	CHECK_EQ(strcmp(err, "lock 1: CPUs queued on a free lock"), 0);
	lm.lock[LOCK_LRU].qlen = 0;
	lm.cpu[3][LOCK_ZONE].acquisitions++;
	CHECK_EQ(lock_check(&lm, err, sizeof(err)), -1);
	CHECK_EQ(strcmp(err, "lock 0: per-CPU counters do not add up to the lock's"), 0);
}

static void test_handoff_costs(void)
{
	struct model_params p;
	struct lock_model lm;
	uint64_t t = 0;
	model_params_default(&p);
	CHECK_EQ(lock_init(&lm, &p, 1, 112), 0);
	CHECK_EQ(lock_acquire(&lm, 0, 0, 0, &t), 1);
	CHECK_EQ(t, 20);
	lock_release(&lm, 0, 0, 50, &t);
	CHECK_EQ(lock_acquire(&lm, 0, 0, 60, &t), 1); /* same CPU: line still here */
	CHECK_EQ(t, 80);
	lock_release(&lm, 0, 0, 90, &t);
	CHECK_EQ(lock_acquire(&lm, 0, 56, 100, &t), 1); /* SMT sibling: same core, same L1 */
	CHECK_EQ(t, 120);
	lock_release(&lm, 0, 56, 130, &t);
	CHECK_EQ(lock_acquire(&lm, 0, 28, 200, &t), 1); /* other socket */
	CHECK_EQ(t, 520);
	CHECK_EQ(lm.lock[0].c.contended, 0);
	CHECK_EQ(lm.lock[0].c.spin_cycles, 0); /* uncontended transfers are not spinning */
	CHECK_EQ(lm.lock[0].c.wait_cycles, 20 + 20 + 20 + 320);
}

static void test_queue_across_steps(void)
{
	struct model_params p;
	struct lock_model lm;
	uint64_t t = 0;
	model_params_default(&p);
	CHECK_EQ(lock_init(&lm, &p, 3, 8), 0);
	CHECK_EQ(lock_acquire(&lm, 2, 0, 0, &t), 1); /* CPU 0 holds it and stops */
	CHECK_EQ(t, 20);
	CHECK_EQ(lock_acquire(&lm, 2, 1, 10, &t), 0); /* queued */
	CHECK_EQ(lock_acquire(&lm, 2, 2, 15, &t), 0); /* queued behind CPU 1 */
	CHECK_EQ(lock_check(&lm, NULL, 0), 0);
	CHECK_EQ(lock_release(&lm, 2, 0, 100, &t), 1); /* FIFO: CPU 1 first */
	CHECK_EQ(t, 190);
	CHECK_EQ(lock_release(&lm, 2, 1, 200, &t), 2);
	CHECK_EQ(t, 290);
	CHECK_EQ(lock_release(&lm, 2, 2, 300, &t), MODEL_NO_CPU);
	const struct lock_counters *c = &lm.lock[2].c;
	CHECK_EQ(c->acquisitions, 3);
	CHECK_EQ(c->contended, 2);
	CHECK_EQ(c->wait_cycles, 20 + 180 + 275);
	CHECK_EQ(c->spin_cycles, (90 + 70) + (185 + 70));
	CHECK_EQ(c->hold_cycles, 80 + 10 + 10);
	/* after the queue drains, the free_at path again */
	CHECK_EQ(lock_acquire(&lm, 2, 3, 250, &t), 1);
	CHECK_EQ(t, 300 + 70 + 20);
}

static void test_init_errors(void)
{
	struct model_params p;
	struct lock_model lm;
	model_params_default(&p);
	CHECK_EQ(lock_init(&lm, &p, 0, 4), -1);
	CHECK_EQ(lock_init(&lm, &p, MODEL_MAX_LOCKS + 1, 4), -1);
	CHECK_EQ(lock_init(&lm, &p, 1, 0), -1);
	CHECK_EQ(lock_init(&lm, &p, 1, 257), -1);
	CHECK_EQ(lock_init(&lm, &p, MODEL_MAX_LOCKS, 256), 0);
}

int main(void)
{
	test_fifo_waits();
	test_handoff_costs();
	test_queue_across_steps();
	test_init_errors();
	return harness_report("test_model_lock");
}
