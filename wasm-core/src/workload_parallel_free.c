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
#include <stdlib.h>

#include "machine.h"
#include "sim.h"
#include "workload_common.h"

enum { PF_ALLOC = 0, PF_BARRIER, PF_FREE, PF_DONE };

struct pfree_task {
	uint32_t *pfns;  /* the region: pfn - zone start of each page */
	uint32_t i;      /* next page to allocate / to free */
	uint8_t state, op_active, arrived;
	struct sim_rounds rounds; /* the frees are the timed part */
	uint64_t pages_done;
	struct blab_op op;
};

struct pfree_state {
	struct pfree_task *tasks;
	uint32_t *pfns;
	uint32_t *arrived;  /* per round: tasks at the barrier */
	uint64_t *release;  /* per round: the latest arrival, when everyone may go */
};

/*
 * The barrier: a task that arrived waits, its clock moving to just past the lowest clock of
 * the tasks still allocating (they run before it again), until the last one arrives; then
 * all leave at the latest arrival time. Returns 1 when cpu may go on.
 */
static int barrier(struct sim_run *run, struct pfree_state *st, unsigned cpu)
{
	struct pfree_task *t = &st->tasks[cpu];
	struct model_machine *mm = run->mm;
	uint32_t r = t->rounds.round, n = run->c->cpus;
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
			ret = sim_op_step(z, &t->op, &t->op_active);
			if (ret != BLAB_STEP_DONE)
				return ret == BLAB_STEP_LOCK ? SIM_STEP : ret;
			t->pfns[t->i++] = pfn_to_idx(z, t->op.pfn);
			break;
		case PF_BARRIER:
			if (!barrier(run, st, cpu))
				return SIM_STEP;
			t->arrived = 0;
			t->i = 0;
			sim_round_timed_start(z, cpu, &t->rounds);
			t->state = PF_FREE;
			break;
		case PF_FREE:
			if (t->i == pages) {
				if (sim_round_timed_end(z, cpu, run->c, &t->rounds, pages)) {
					t->state = PF_DONE;
					return SIM_FINISHED;
				}
				t->i = 0;
				t->state = PF_ALLOC;
				return SIM_STEP; /* the next round's allocations start in a new step */
			}
			if (!t->op_active) {
				/* the caller's per-page work; put_page() writes the refcount */
				sim_unmap_pages(z, cpu, t->pfns + t->i, 1);
				blab_op_free(&t->op, cpu, idx_to_pfn(z, t->pfns[t->i]), 0, 0);
				t->op_active = 1;
			}
			ret = sim_op_step(z, &t->op, &t->op_active);
			if (ret != BLAB_STEP_DONE)
				return ret == BLAB_STEP_LOCK ? SIM_STEP : ret;
			t->i++;
			t->pages_done++;
			break;
		default:
			return SIM_FINISHED;
		}
	}
}

static int pfree_setup(struct sim_run *run, char *err, size_t errlen)
{
	const struct blab_sim_config *c = run->c;
	struct pfree_state *st = calloc(1, sizeof(*st));

	if (st) {
		st->tasks = sim_tasks_alloc(c, sizeof(*st->tasks), &st->pfns);
		st->arrived = calloc(c->iterations, sizeof(*st->arrived));
		st->release = calloc(c->iterations, sizeof(*st->release));
	}
	run->priv = st;
	if (!st || !st->tasks || !st->arrived || !st->release)
		return sim_out_of_host_memory(err, errlen);
	for (uint32_t cpu = 0; cpu < c->cpus; cpu++)
		st->tasks[cpu].pfns = sim_task_pfns(st->pfns, c, cpu);
	return 0;
}

static void pfree_finish(const struct sim_run *run, struct blab_sim_result *r)
{
	const struct pfree_state *st = run->priv;

	for (uint32_t cpu = 0; cpu < run->c->cpus; cpu++)
		sim_rounds_finish(run, &st->tasks[cpu].rounds, st->tasks[cpu].pages_done, r);
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
	.one_zone_why = "its tasks free into one zone; it has not been split per node yet",
	.check = NULL,
	.zone_pages = sim_zone_pages_per_task,
	.setup = pfree_setup,
	.step = pfree_step,
	.finish = pfree_finish,
	.teardown = pfree_teardown,
};
