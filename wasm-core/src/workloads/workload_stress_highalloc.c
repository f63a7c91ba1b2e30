/*
 * workload_stress_highalloc.c - mmtests' stress-highalloc on the model machine.
 *
 * Set-up (sim_fragment.c): the zone is filled with order-0 MOVABLE pages, then everything is
 * freed except every 16th page in three pageblocks out of four: those stay allocated for the
 * whole run, the long-lived page cache of the original. Pageblocks 0, 4, 8, ... are entirely
 * free, which is an order-9 block only if the frees merged.
 *
 * Then cpu 0 makes --iterations attempts at an order --hi-order block (kept once obtained,
 * as the benchmark keeps its huge pages), --delay-us virtual microseconds apart. A failed
 * attempt compacts as the allocator's slow path would (__alloc_pages_direct_compact) and
 * tries once more; --compact none|merge|full says what compaction may do. The other CPUs
 * fault and free order-0 pages meanwhile (a small working set each), as the kernel builds of
 * mmtests keep doing: each keeps 256 pages, more than its per-cpu list holds, so its frees
 * and refills go through the buddy lists and zone->lock.
 *
 * Score: the share of attempts that got a block, in %. hi_cycles: the attempts' cycles,
 * compaction included (the cost per allocation).
 */
#include <stdio.h>
#include <stdlib.h>

#include "machine/machine.h"
#include "sim_fragment.h"
#include "workload_common.h"

#define KEEP_EVERY 16u     /* one long-lived page in 16 ... */
#define FREE_PB_EVERY 4u   /* ... except in every 4th pageblock, left entirely free */
#define CHURN_PAGES 256u   /* order-0 pages each churning CPU keeps: more than pcp high, so
			    * its frees reach the buddy lists */

enum { H_START = 0, H_ALLOC, H_COMPACT, H_RETRY, H_DELAY, H_RELEASE, H_DONE };

struct hi_task {
	uint8_t state, op_active;
	uint32_t i, k;
	uint64_t t0;
	struct blab_op op;
	struct blab_compact_op cop;
};

struct hi_state {
	struct held_pages held;
	struct hi_task *tasks;
	uint32_t fill_slots, churn_first, block_first, nblocks;
	uint32_t filled;
	uint8_t done;           /* cpu 0 made every attempt */
	struct sim_hi_stats hi;
};

static int hi_check(const struct blab_sim_config *c, char *err, size_t errlen)
{
	int ret = sim_check_hi_order(c, err, errlen);

	if (ret)
		return ret;
	if (c->delay_us > BLAB_SIM_MAX_DELAY_US) {
		SIM_ERR(err, errlen, "delay must be 0..%u us", BLAB_SIM_MAX_DELAY_US);
		return BLAB_ELIMIT;
	}
	return sim_check_compact(c, err, errlen);
}

/* --pages is the long-lived fill; the loop adds room for the pcp lists, which set-up fills too */
static uint64_t hi_zone_pages(const struct blab_sim_config *c)
{
	return c->pages;
}

static int hi_setup(struct sim_run *run, char *err, size_t errlen)
{
	const struct blab_sim_config *c = run->c;
	struct hi_state *st = calloc(1, sizeof(*st));
	int ret;

	run->priv = st;
	if (!st || !(st->tasks = calloc(c->cpus, sizeof(*st->tasks)))) {
		SIM_ERR(err, errlen, "out of host memory");
		return BLAB_ENOMEMHOST;
	}
	st->fill_slots = run->z->pages;
	st->churn_first = st->fill_slots;
	st->block_first = st->churn_first + c->cpus * CHURN_PAGES;
	st->nblocks = c->iterations;
	ret = held_init(&st->held, run->z, st->block_first + st->nblocks);
	if (ret) {
		SIM_ERR(err, errlen, "out of host memory");
		return ret;
	}
	ret = sim_fill_and_fragment(run, &st->held, 0, KEEP_EVERY, FREE_PB_EVERY, &st->filled);
	if (ret) {
		SIM_ERR(err, errlen, "filling the zone: %s", blab_strerror(ret));
		return ret;
	}
	sim_hi_stats_start(run, &st->hi);
	return 0;
}

/* frees slot's page with a resumable op: DONE when freed (or the slot was empty) */
static int free_slot(struct sim_run *run, struct hi_task *t, unsigned cpu, uint32_t slot,
		     unsigned order)
{
	struct hi_state *st = run->priv;
	int ret;

	if (!t->op_active) {
		if (st->held.slot_idx[slot] == NIL)
			return BLAB_STEP_DONE;
		blab_op_free(&t->op, cpu, idx_to_pfn(run->z, st->held.slot_idx[slot]), order, 0);
		t->op_active = 1;
	}
	ret = sim_op_step_may_fail(run->z, &t->op, &t->op_active);
	if (ret == BLAB_STEP_DONE) {
		if (t->op.err)
			return t->op.err;
		held_clear(&st->held, slot);
	}
	return ret;
}

static int attempt_step(struct sim_run *run, struct hi_task *t)
{
	const struct blab_sim_config *c = run->c;
	struct hi_state *st = run->priv;
	struct blab_zone *z = run->z;
	int ret;

	for (;;) {
		switch (t->state) {
		case H_START:
			if (t->i == c->iterations) {
				st->done = 1;
				t->state = H_RELEASE;
				t->k = 0;
				break;
			}
			t->t0 = mach_now(&z->machine, 0);
			blab_op_alloc(&t->op, 0, c->hi_order, BLAB_MT_MOVABLE, 0);
			t->op_active = 1;
			t->state = H_ALLOC;
			break;
		case H_ALLOC:
		case H_RETRY:
			ret = sim_op_step_may_fail(z, &t->op, &t->op_active);
			if (ret != BLAB_STEP_DONE)
				return ret == BLAB_STEP_LOCK ? SIM_STEP : ret;
			if (t->op.err == 0) {
				held_set(&st->held, st->block_first + t->i, t->op.pfn);
				st->hi.success++;
			} else if (t->state == H_ALLOC && c->compact != BLAB_SIM_COMPACT_NONE) {
				blab_compact_op_init(&t->cop, 0, c->hi_order, sim_compact_mode(c),
						     held_migrated, &st->held);
				t->state = H_COMPACT;
				break;
			}
			st->hi.attempts++;
			st->hi.cycles += mach_now(&z->machine, 0) - t->t0;
			t->i++;
			t->state = H_DELAY;
			break;
		case H_COMPACT:
			ret = blab_compact_step(z, &t->cop);
			if (ret == BLAB_STEP_LOCK)
				return SIM_STEP;
			if (ret != BLAB_STEP_DONE)
				return ret < 0 ? ret : BLAB_EINVAL;
			blab_op_alloc(&t->op, 0, c->hi_order, BLAB_MT_MOVABLE, 0);
			t->op_active = 1;
			t->state = H_RETRY;
			break;
		case H_DELAY:
			if (c->delay_us)
				model_work(run->mm, 0, (uint64_t)c->delay_us * run->mp->cpu_mhz);
			t->state = H_START;
			return SIM_STEP;
		case H_RELEASE: /* the blocks, then the long-lived pages */
			if (t->k == st->nblocks + st->fill_slots) {
				t->state = H_DONE;
				return SIM_FINISHED;
			}
			if (t->k < st->nblocks)
				ret = free_slot(run, t, 0, st->block_first + t->k, c->hi_order);
			else
				ret = free_slot(run, t, 0, t->k - st->nblocks, 0);
			if (ret == BLAB_STEP_LOCK)
				return SIM_STEP;
			if (ret != BLAB_STEP_DONE)
				return ret < 0 ? ret : BLAB_EINVAL;
			t->k++;
			break;
		default:
			return SIM_FINISHED;
		}
	}
}

/* cpus 1..: fault a page into the next of CHURN_PAGES slots, freeing what was there */
static int churn_step(struct sim_run *run, unsigned cpu, struct hi_task *t)
{
	struct hi_state *st = run->priv;
	struct blab_zone *z = run->z;
	uint32_t base = st->churn_first + cpu * CHURN_PAGES;
	int ret;

	for (;;) {
		uint32_t slot = base + t->k;
		switch (t->state) {
		case 0: /* free the slot's old page */
			if (st->done) {
				t->state = 2;
				t->k = 0;
				break;
			}
			ret = free_slot(run, t, cpu, slot, 0);
			if (ret == BLAB_STEP_LOCK)
				return SIM_STEP;
			if (ret != BLAB_STEP_DONE)
				return ret < 0 ? ret : BLAB_EINVAL;
			t->state = 1;
			break;
		case 1: /* fault a new one */
			if (!t->op_active) {
				mach_work(&z->machine, cpu, BLAB_COST_FAULT);
				blab_op_alloc(&t->op, cpu, 0, BLAB_MT_MOVABLE, 0);
				t->op_active = 1;
			}
			ret = sim_op_step_may_fail(z, &t->op, &t->op_active);
			if (ret != BLAB_STEP_DONE)
				return ret == BLAB_STEP_LOCK ? SIM_STEP : ret;
			if (t->op.err == 0) {
				mach_clear_page(&z->machine, cpu, t->op.pfn, run->c->clear_lines,
						BLAB_PATH_NONE);
				held_set(&st->held, slot, t->op.pfn);
			}
			t->k = (t->k + 1) % CHURN_PAGES;
			t->state = 0;
			return SIM_STEP; /* let the allocator's clock catch up */
		case 2: /* the allocator is done: give everything back */
			if (t->k == CHURN_PAGES)
				return SIM_FINISHED;
			ret = free_slot(run, t, cpu, base + t->k, 0);
			if (ret == BLAB_STEP_LOCK)
				return SIM_STEP;
			if (ret != BLAB_STEP_DONE)
				return ret < 0 ? ret : BLAB_EINVAL;
			t->k++;
			break;
		default:
			return SIM_FINISHED;
		}
	}
}

static int hi_step(struct sim_run *run, unsigned cpu)
{
	struct hi_state *st = run->priv;
	struct hi_task *t = &st->tasks[cpu];

	return cpu == 0 ? attempt_step(run, t) : churn_step(run, cpu, t);
}

static void hi_finish(const struct sim_run *run, struct blab_sim_result *r)
{
	const struct hi_state *st = run->priv;

	sim_hi_stats_report(&st->hi, r);
	r->score = st->hi.attempts ? st->hi.success * 100 / st->hi.attempts : 0;
	r->score_milli = st->hi.attempts ? st->hi.success * 100000 / st->hi.attempts : 0;
	r->pages_scored = st->hi.success << run->c->hi_order;
	r->pages_total = st->filled;
}

static void hi_teardown(struct sim_run *run)
{
	struct hi_state *st = run->priv;

	if (st) {
		held_free(&st->held);
		free(st->tasks);
		free(st);
	}
	run->priv = NULL;
}

const struct sim_workload sim_workload_stress_highalloc = {
	.name = "stress_highalloc",
	.id = BLAB_WL_STRESS_HIGHALLOC,
	.score_unit = "% of attempts",
	.one_zone_why = "compaction scans and migrates pages within one zone",
	.check = hi_check,
	.zone_pages = hi_zone_pages,
	.setup = hi_setup,
	.step = hi_step,
	.finish = hi_finish,
	.teardown = hi_teardown,
};
