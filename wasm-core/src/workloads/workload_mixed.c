/*
 * workload_mixed.c - the Lu RFC's THP test: order-0 page_fault1 tasks beside tasks that
 * want order --hi-order blocks (transparent huge pages).
 *
 * Set-up breaks every high-order block first, as the RFC did by running a program that used
 * almost all memory and exited: the whole zone is allocated as order-0 pages and freed again
 * (sim_fragment.c). A kernel that merges on free gets its blocks back at once; with skip
 * merge the zone is left as merge-skipped order-0 pages until compaction merges them.
 *
 * CPUs 0 .. ceil(cpus/2)-1 run page_fault1 exactly as `--workload page_fault1` does (its own
 * callbacks, reused); the others loop, for as long as any page_fault1 task runs: allocate a
 * block of --hi-order (compacting on failure per --compact, then deferring compaction after
 * a failure as defer_compaction() does), clear its pages, free it. A failed attempt costs a
 * fault and counts as a fallback to small pages.
 *
 * Score: order-0 pages/s as page_fault1 counts them; hi_attempts / hi_success / hi_cycles
 * count the huge-page side.
 */
#include <stdio.h>
#include <stdlib.h>

#include "machine/machine.h"
#include "sim_fragment.h"
#include "workload_common.h"

extern const struct sim_workload sim_workload_page_fault1;
void sim_page_fault1_migrated(void *priv, uint32_t ntasks, uint32_t old_idx, uint32_t new_idx);

#define MAX_DEFER_SHIFT 6u /* COMPACT_MAX_DEFER_SHIFT */

enum { M_START = 0, M_ALLOC, M_COMPACT, M_RETRY, M_USE, M_FREE, M_DONE };

struct thp_task {
	uint8_t state, op_active;
	uint64_t t0, pfn;
	struct blab_op op;
	struct blab_compact_op cop;
};

struct mixed_state {
	void *pf1;              /* page_fault1's own state */
	struct blab_zone *z;
	struct thp_task *thp;
	struct held_pages held; /* the set-up's pages (freed before the run) */
	uint32_t n0, running0;  /* page_fault1 tasks, and those still running */
	uint32_t defer_shift, considered;
	struct sim_hi_stats hi;
};

/* blab_migrate_fn: only page_fault1's order-0 pages can move (huge pages are too big) */
static void mixed_migrated(void *ctx, uint64_t old_pfn, uint64_t new_pfn, unsigned order)
{
	struct mixed_state *st = ctx;
	(void)order;
	sim_page_fault1_migrated(st->pf1, st->n0, pfn_to_idx(st->z, old_pfn),
				 pfn_to_idx(st->z, new_pfn));
}

static int mixed_check(const struct blab_sim_config *c, char *err, size_t errlen)
{
	int ret;

	if (c->cpus < 2) {
		SIM_ERR(err, errlen, "mixed needs at least 2 cpus (page_fault1 and huge-page tasks)");
		return BLAB_ECPU;
	}
	ret = sim_check_hi_order(c, err, errlen);
	return ret ? ret : sim_check_compact(c, err, errlen);
}

static uint64_t mixed_zone_pages(const struct blab_sim_config *c)
{
	uint32_t n0 = (c->cpus + 1) / 2;
	/* the order-0 tasks' mappings, and room for two blocks per huge-page task */
	return (uint64_t)n0 * c->pages + (uint64_t)(c->cpus - n0) * (2u << c->hi_order);
}

static struct sim_run pf1_run(const struct sim_run *run)
{
	struct sim_run r = *run;
	r.priv = ((struct mixed_state *)run->priv)->pf1;
	return r;
}

static int mixed_setup(struct sim_run *run, char *err, size_t errlen)
{
	const struct blab_sim_config *c = run->c;
	struct mixed_state *st = calloc(1, sizeof(*st));
	struct sim_run r;
	uint32_t filled;
	int ret;

	run->priv = st;
	if (!st || !(st->thp = calloc(c->cpus, sizeof(*st->thp)))) {
		SIM_ERR(err, errlen, "out of host memory");
		return BLAB_ENOMEMHOST;
	}
	st->n0 = st->running0 = (c->cpus + 1) / 2;
	st->z = run->z;
	ret = held_init(&st->held, run->z, run->z->pages);
	if (!ret)
		ret = sim_fill_and_fragment(run, &st->held, 0, 0, 0, &filled);
	if (ret) {
		SIM_ERR(err, errlen, "breaking up the zone: %s", blab_strerror(ret));
		return ret;
	}
	sim_hi_stats_start(run, &st->hi);
	r = pf1_run(run);
	ret = sim_workload_page_fault1.setup(&r, err, errlen);
	st->pf1 = r.priv;
	return ret;
}

static int thp_step(struct sim_run *run, unsigned cpu)
{
	const struct blab_sim_config *c = run->c;
	struct mixed_state *st = run->priv;
	struct thp_task *t = &st->thp[cpu];
	struct blab_zone *z = run->z;
	int ret;

	for (;;) {
		switch (t->state) {
		case M_START:
			if (!st->running0) {
				t->state = M_DONE;
				return SIM_FINISHED;
			}
			mach_work(&z->machine, cpu, BLAB_COST_FAULT);
			t->t0 = mach_now(&z->machine, cpu);
			blab_op_alloc(&t->op, cpu, c->hi_order, BLAB_MT_MOVABLE, 0);
			t->op_active = 1;
			t->state = M_ALLOC;
			break;
		case M_ALLOC:
		case M_RETRY:
			ret = sim_op_step_may_fail(z, &t->op, &t->op_active);
			if (ret != BLAB_STEP_DONE)
				return ret == BLAB_STEP_LOCK ? SIM_STEP : ret;
			if (t->op.err && t->state == M_ALLOC && c->compact != BLAB_SIM_COMPACT_NONE &&
			    ++st->considered >= (1u << st->defer_shift)) {
				/* compaction_deferred() said go */
				st->considered = 0;
				blab_compact_op_init(&t->cop, cpu, c->hi_order, sim_compact_mode(c),
						     mixed_migrated, st);
				t->state = M_COMPACT;
				break;
			}
			st->hi.attempts++;
			st->hi.cycles += mach_now(&z->machine, cpu) - t->t0;
			if (t->op.err) {
				t->state = M_START; /* fall back to small pages: counted, not modelled */
				return SIM_STEP;
			}
			st->hi.success++;
			t->pfn = t->op.pfn;
			t->state = M_USE;
			break;
		case M_COMPACT:
			ret = blab_compact_step(z, &t->cop);
			if (ret == BLAB_STEP_LOCK)
				return SIM_STEP;
			if (ret != BLAB_STEP_DONE)
				return ret < 0 ? ret : BLAB_EINVAL;
			if (t->cop.success)
				st->defer_shift = 0;
			else if (st->defer_shift < MAX_DEFER_SHIFT)
				st->defer_shift++; /* defer_compaction() */
			blab_op_alloc(&t->op, cpu, c->hi_order, BLAB_MT_MOVABLE, 0);
			t->op_active = 1;
			t->state = M_RETRY;
			break;
		case M_USE: /* clear_huge_page(), then munmap */
			for (uint32_t i = 0; i < (1u << c->hi_order); i++)
				mach_clear_page(&z->machine, cpu, t->pfn + i, c->clear_lines, BLAB_PATH_NONE);
			blab_op_free(&t->op, cpu, t->pfn, c->hi_order, 0);
			t->op_active = 1;
			t->state = M_FREE;
			return SIM_STEP;
		case M_FREE:
			ret = sim_op_step_may_fail(z, &t->op, &t->op_active);
			if (ret != BLAB_STEP_DONE)
				return ret == BLAB_STEP_LOCK ? SIM_STEP : ret;
			if (t->op.err)
				return t->op.err;
			t->state = M_START;
			break;
		default:
			return SIM_FINISHED;
		}
	}
}

static int mixed_step(struct sim_run *run, unsigned cpu)
{
	struct mixed_state *st = run->priv;

	if (cpu < st->n0) {
		struct sim_run r = pf1_run(run);
		int ret = sim_workload_page_fault1.step(&r, cpu);
		if (ret == SIM_FINISHED)
			st->running0--;
		return ret;
	}
	return thp_step(run, cpu);
}

static void mixed_finish(const struct sim_run *run, struct blab_sim_result *r)
{
	const struct mixed_state *st = run->priv;
	struct sim_run pr = pf1_run(run);

	sim_workload_page_fault1.finish(&pr, r);
	sim_hi_stats_report(&st->hi, r);
}

static void mixed_teardown(struct sim_run *run)
{
	struct mixed_state *st = run->priv;

	if (st) {
		struct sim_run r = pf1_run(run);
		if (st->pf1 && sim_workload_page_fault1.teardown)
			sim_workload_page_fault1.teardown(&r);
		held_free(&st->held);
		free(st->thp);
		free(st);
	}
	run->priv = NULL;
}

const struct sim_workload sim_workload_mixed = {
	.name = "mixed",
	.id = BLAB_WL_MIXED,
	.score_unit = "order-0 pages/s",
	.one_zone_why = "its huge-page tasks compact, and compaction scans and migrates pages within one zone",
	.check = mixed_check,
	.zone_pages = mixed_zone_pages,
	.setup = mixed_setup,
	.step = mixed_step,
	.finish = mixed_finish,
	.teardown = mixed_teardown,
};
