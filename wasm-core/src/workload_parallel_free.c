/*
 * workload_parallel_free.c - every CPU frees a large region at the same moment:
 *
 *   loop { allocate --pages order-0 pages; wait for every task; free them all }
 *
 * The allocation half is set-up (not scored); a barrier lines the tasks up so that the
 * frees start together, as when many processes exit or munmap at once. Each page is freed
 * through the pcp (free_unref_page), and free_pcppages_bulk() runs inside the resumable free
 * op when the list reaches high, in the preset's shape. No LRU and no page tables: this is
 * the allocator's free path alone, where zone->lock contention is all there is.
 * Score: pages freed per second of virtual time per task (from the barrier to the task's
 * last free), scored rounds only, summed over tasks.
 */
#include <stdio.h>
#include <stdlib.h>

#include "machine.h"
#include "sim.h"

enum { PF_ALLOC = 0, PF_BARRIER, PF_FREE, PF_DONE };

struct pfree_task {
	uint32_t *pfns;  /* the region: pfn - zone start of each page */
	uint32_t i;      /* next page to allocate / to free */
	uint32_t round;
	uint8_t state, op_active, arrived;
	uint64_t free_start;     /* clock when this round's frees began */
	uint64_t scored_pages, scored_cycles, pages_done;
	struct blab_op op;
};

struct pfree_state {
	struct pfree_task *tasks;
	uint32_t *pfns;
	uint32_t *arrived;  /* per round: tasks at the barrier */
	uint64_t *release;  /* per round: the latest arrival, when everyone may go */
};

/* Steps the op in flight: BLAB_STEP_DONE, BLAB_STEP_LOCK (end the CPU's step) or an error. */
static int step_op(struct blab_zone *z, struct pfree_task *t)
{
	int ret = blab_op_step(z, &t->op);

	if (ret == BLAB_STEP_LOCK)
		return ret;
	if (ret != BLAB_STEP_DONE)
		return ret < 0 ? ret : BLAB_EINVAL;
	t->op_active = 0;
	return BLAB_STEP_DONE;
}

/*
 * The barrier: a task that arrived waits, its clock moving to just past the lowest clock of
 * the tasks still allocating (they run before it again), until the last one arrives; then
 * all leave at the latest arrival time. Returns 1 when cpu may go on.
 */
static int barrier(struct sim_run *run, struct pfree_state *st, unsigned cpu)
{
	struct pfree_task *t = &st->tasks[cpu];
	struct model_machine *mm = run->mm;
	uint32_t r = t->round, n = run->c->cpus;
	uint64_t low = UINT64_MAX;

	if (!t->arrived) {
		t->arrived = 1;
		st->arrived[r]++;
		if (mm->now[cpu] > st->release[r])
			st->release[r] = mm->now[cpu];
	}
	if (st->arrived[r] == n) {
		if (mm->now[cpu] < st->release[r])
			mm->now[cpu] = st->release[r];
		return 1;
	}
	for (uint32_t c = 0; c < n; c++)
		if (!st->tasks[c].arrived && mm->now[c] < low)
			low = mm->now[c];
	mm->now[cpu] = low + 1; /* low >= our clock: we were the lowest runnable CPU */
	return 0;
}

static int pfree_step(struct sim_run *run, unsigned cpu)
{
	struct blab_zone *z = run->z;
	struct pfree_state *st = run->priv;
	struct pfree_task *t = &st->tasks[cpu];
	uint32_t pages = run->c->pages;
	int ret;

	for (;;) {
		switch (t->state) {
		case PF_ALLOC:
			if (t->i == pages) {
				t->state = PF_BARRIER;
				break;
			}
			if (!t->op_active) {
				blab_op_alloc(&t->op, cpu, 0, BLAB_MT_MOVABLE, 0);
				t->op_active = 1;
			}
			if ((ret = step_op(z, t)) != BLAB_STEP_DONE)
				return ret == BLAB_STEP_LOCK ? SIM_STEP : ret;
			t->pfns[t->i++] = pfn_to_idx(z, t->op.pfn);
			break;
		case PF_BARRIER:
			if (!barrier(run, st, cpu))
				return SIM_STEP;
			t->arrived = 0;
			t->i = 0;
			t->free_start = mach_now(z, cpu);
			blab_mark(z, cpu, 1, t->round);
			t->state = PF_FREE;
			break;
		case PF_FREE:
			if (t->i == pages) {
				if (t->round > 0 || run->c->iterations == 1) {
					t->scored_pages += pages;
					t->scored_cycles += mach_now(z, cpu) - t->free_start;
				}
				if (++t->round >= run->c->iterations) {
					t->state = PF_DONE;
					return SIM_FINISHED;
				}
				t->i = 0;
				t->state = PF_ALLOC;
				return SIM_STEP; /* the next round's allocations start in a new step */
			}
			if (!t->op_active) {
				/* the caller's per-page work; put_page() writes the refcount */
				mach_touch_page(z, cpu, idx_to_pfn(z, t->pfns[t->i]), 1,
						BLAB_PATH_NONE);
				mach_work(z, cpu, BLAB_COST_UNMAP);
				blab_op_free(&t->op, cpu, idx_to_pfn(z, t->pfns[t->i]), 0, 0);
				t->op_active = 1;
			}
			if ((ret = step_op(z, t)) != BLAB_STEP_DONE)
				return ret == BLAB_STEP_LOCK ? SIM_STEP : ret;
			t->i++;
			t->pages_done++;
			break;
		default:
			return SIM_FINISHED;
		}
	}
}

static uint64_t pfree_zone_pages(const struct blab_sim_config *c)
{
	return (uint64_t)c->cpus * c->pages;
}

static int pfree_setup(struct sim_run *run, char *err, size_t errlen)
{
	const struct blab_sim_config *c = run->c;
	struct pfree_state *st = calloc(1, sizeof(*st));

	if (st) {
		st->tasks = calloc(c->cpus, sizeof(*st->tasks));
		st->pfns = malloc((size_t)c->cpus * c->pages * sizeof(*st->pfns));
		st->arrived = calloc(c->iterations, sizeof(*st->arrived));
		st->release = calloc(c->iterations, sizeof(*st->release));
	}
	run->priv = st;
	if (!st || !st->tasks || !st->pfns || !st->arrived || !st->release) {
		if (err && errlen)
			snprintf(err, errlen, "out of host memory");
		return BLAB_ENOMEMHOST;
	}
	for (uint32_t cpu = 0; cpu < c->cpus; cpu++)
		st->tasks[cpu].pfns = st->pfns + (size_t)cpu * c->pages;
	return 0;
}

static void pfree_finish(const struct sim_run *run, struct blab_sim_result *r)
{
	const struct pfree_state *st = run->priv;

	for (uint32_t cpu = 0; cpu < run->c->cpus; cpu++) {
		const struct pfree_task *t = &st->tasks[cpu];
		r->pages_total += t->pages_done;
		r->pages_scored += t->scored_pages;
		if (t->scored_cycles)
			r->score += (uint64_t)((unsigned __int128)t->scored_pages *
					       run->mp->cpu_mhz * 1000000u / t->scored_cycles);
	}
}

static void pfree_teardown(struct sim_run *run)
{
	struct pfree_state *st = run->priv;

	if (st) {
		free(st->tasks);
		free(st->pfns);
		free(st->arrived);
		free(st->release);
		free(st);
	}
	run->priv = NULL;
}

const struct sim_workload sim_workload_parallel_free = {
	.name = "parallel_free",
	.id = BLAB_WL_PARALLEL_FREE,
	.score_unit = "pages freed/s",
	.check = NULL,
	.zone_pages = pfree_zone_pages,
	.setup = pfree_setup,
	.step = pfree_step,
	.finish = pfree_finish,
	.teardown = pfree_teardown,
};
