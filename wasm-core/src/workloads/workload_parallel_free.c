/*
 * workload_parallel_free.c - every CPU frees a large anonymous region at the same moment,
 * as in seed 004's "parallel free" (a 512 GB anonymous mapping freed at exit):
 *
 *   loop { fault in --pages order-0 pages; wait for every task; unmap them all }
 *
 * The allocation half is set-up (not scored): each page comes from the pcp and goes onto
 * the node's LRU list as a faulted anonymous page does, lru_cache_add()'s pagevec of 15
 * under lru_lock (sim_lru_add_batch). A barrier lines the tasks up so that the frees start
 * together, as when many processes exit or munmap at once. The free half is the exit's
 * unmap, the shape page_fault1's munmap has: zap_pte_range work per page, release_pages()
 * taking up to SWAP_CLUSTER_MAX (32) pages off the LRU list under lru_lock, then each of
 * them freed through the pcp (free_unref_page_list), where free_pcppages_bulk() runs inside
 * the resumable free op when the list reaches high, in the preset's shape. So the free half
 * contends on both lru_lock and zone->lock, and taking the work out of one (skip-merge)
 * shows up as contention on the other.
 * Score: pages freed per second of virtual time per task (from the barrier to the task's
 * last free), scored rounds only, summed over tasks.
 *
 * With node_zones (--node-zones) each CPU allocates from, LRU-lists on and frees to its
 * socket's zone, under that node's zone->lock and lru_lock; the barrier stays one for all
 * tasks of all nodes (every process exits at once), and the free half's contention is the
 * spin on every node's zone->lock and lru_lock, summed.
 *
 * A step ends just before a lock: an op's BLAB_STEP_LOCK or the workload's lru_lock.
 */
#include <stdlib.h>

#include "machine/machine.h"
#include "sim.h"
#include "workload_common.h"

enum { PF_ALLOC = 0, PF_LRU_ADD, PF_BARRIER, PF_UNMAP, PF_UNMAP_LRU, PF_UNMAP_FREE, PF_DONE };

struct pfree_task {
	uint32_t *pfns;  /* the region: pfn - zone start of each page */
	uint32_t i;      /* next page to allocate / to unmap */
	uint32_t pv;     /* pages in the pagevec (allocating) or in the release batch (freeing) */
	uint32_t k;      /* pages of the release batch freed to the pcp so far */
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
	/* each node's LRU list (index = node; [0] only without node_zones), every task of the
	 * node with its pages on it */
	struct sim_lru lru[BLAB_SIM_MAX_NODES];
	/* when the last round's frees began: the locks' spin cycles then (seed 004 reports
	 * the exit's contention, so the free half is measured apart from the set-up) */
	uint64_t last_release, zone_spin0, lru_spin0;
	uint32_t done; /* tasks finished */
};

/* spin cycles so far on every node's lock `which` (LOCK_ZONE or LOCK_LRU): node 0's only
 * without node_zones */
static uint64_t nodes_spin(const struct sim_run *run, unsigned which)
{
	uint64_t spin = 0;

	for (uint32_t n = 0; n < sim_nodes(run); n++)
		spin += run->mm->locks.lock[n * MODEL_NODE_LOCKS + which].c.spin_cycles;
	return spin;
}

/* 1 when every node's LRU list is empty */
static int lrus_empty(const struct sim_run *run, const struct pfree_state *st)
{
	for (uint32_t n = 0; n < sim_nodes(run); n++)
		if (st->lru[n].link && st->lru[n].link[st->lru[n].head].next != st->lru[n].head)
			return 0;
	return 1;
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
	uint32_t r = t->rounds.round, n = run->c->cpus;
	uint64_t low = UINT64_MAX;

	if (!t->arrived) {
		t->arrived = 1;
		st->arrived[r]++;
		if (mm->now[cpu] > st->release[r])
			st->release[r] = mm->now[cpu];
		if (st->arrived[r] == n && r + 1 == run->c->iterations) {
			/* the last arrival of the last round: everyone else waits here and no
			 * lock is held, so what is spun from here on is the free half's */
			st->last_release = st->release[r];
			st->zone_spin0 = nodes_spin(run, LOCK_ZONE);
			st->lru_spin0 = nodes_spin(run, LOCK_LRU);
		}
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
	struct blab_zone *z = sim_cpu_zone(run, cpu);
	struct pfree_state *st = run->priv;
	struct pfree_task *t = &st->tasks[cpu];
	struct sim_lru *lru = &st->lru[sim_cpu_node(run, cpu)];
	uint32_t pages = run->c->pages;
	int ret;

	for (;;) {
		switch (t->state) {
		case PF_ALLOC: /* the fault's page, then lru_cache_add() */
			if (t->i == pages) {
				if (t->pv) { /* lru_add_drain() before the exit */
					t->state = PF_LRU_ADD;
					return SIM_STEP;
				}
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
			if (++t->pv == BLAB_SIM_PAGEVEC) {
				t->state = PF_LRU_ADD;
				return SIM_STEP; /* the step ends before lru_lock */
			}
			break;
		case PF_LRU_ADD: /* __pagevec_lru_add() */
			sim_lru_add_batch(z, cpu, lru, t->pfns, t->i - t->pv, t->pv);
			t->pv = 0;
			t->state = PF_ALLOC;
			break;
		case PF_BARRIER:
			if (!barrier(run, st, cpu))
				return SIM_STEP;
			t->arrived = 0;
			t->i = 0;
			sim_round_timed_start(z, cpu, &t->rounds);
			t->state = PF_UNMAP;
			break;
		case PF_UNMAP:
			if (t->i == pages) {
				if (sim_round_timed_end(z, cpu, run->c, &t->rounds, pages)) {
					t->state = PF_DONE;
					/* the last task done: every page went back off the lists */
					if (++st->done == run->c->cpus && !lrus_empty(run, st))
						return BLAB_ECHECK;
					return SIM_FINISHED;
				}
				t->i = 0;
				t->state = PF_ALLOC;
				return SIM_STEP; /* the next round's allocations start in a new step */
			}
			/* release_pages() keeps lru_lock for SWAP_CLUSTER_MAX pages at most */
			t->pv = pages - t->i < SIM_SWAP_CLUSTER_MAX ? pages - t->i : SIM_SWAP_CLUSTER_MAX;
			/* zap_pte_range: page_remove_rmap() writes each struct page */
			sim_unmap_pages(z, cpu, t->pfns + t->i, t->pv);
			t->state = PF_UNMAP_LRU;
			return SIM_STEP; /* the step ends before lru_lock */
		case PF_UNMAP_LRU: /* release_pages(): off the LRU list under lru_lock */
			sim_lru_release_batch(z, cpu, lru, t->pfns, t->i, t->pv);
			t->k = 0;
			t->state = PF_UNMAP_FREE;
			break;
		case PF_UNMAP_FREE: /* free_unref_page_list() */
			ret = sim_free_pages_step(z, cpu, &t->op, &t->op_active, t->pfns + t->i, t->pv,
						  &t->k);
			if (ret != BLAB_STEP_DONE)
				return ret == BLAB_STEP_LOCK ? SIM_STEP : ret;
			t->i += t->pv;
			t->pages_done += t->pv;
			t->pv = 0;
			t->state = PF_UNMAP;
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
	if (sim_node_lrus_init(run, st->lru))
		return sim_out_of_host_memory(err, errlen);
	for (uint32_t cpu = 0; cpu < c->cpus; cpu++)
		st->tasks[cpu].pfns = sim_task_pfns(st->pfns, c, cpu);
	return 0;
}

static void pfree_finish(const struct sim_run *run, struct blab_sim_result *r)
{
	const struct pfree_state *st = run->priv;
	const struct model_machine *mm = run->mm;
	uint64_t n = run->c->cpus, cycles = model_machine_cycles(mm) - n * st->last_release;

	for (uint32_t cpu = 0; cpu < run->c->cpus; cpu++)
		sim_rounds_finish(run, &st->tasks[cpu].rounds, st->tasks[cpu].pages_done, r);
	/* the last round's free half: every CPU's clock from the release to its last free */
	r->free_zone_contention_bp =
		sim_contention_bp(nodes_spin(run, LOCK_ZONE) - st->zone_spin0, cycles);
	r->free_lru_contention_bp =
		sim_contention_bp(nodes_spin(run, LOCK_LRU) - st->lru_spin0, cycles);
}

static void pfree_teardown(struct sim_run *run)
{
	struct pfree_state *st = run->priv;

	if (st) {
		free(st->tasks);
		free(st->pfns);
		free(st->arrived);
		free(st->release);
		sim_node_lrus_free(st->lru);
		free(st);
	}
	run->priv = NULL;
}

const struct sim_workload sim_workload_parallel_free = {
	.name = "parallel_free",
	.id = BLAB_WL_PARALLEL_FREE,
	.score_unit = "pages freed/s",
	.node_zones = 1,
	.check = NULL,
	.zone_pages = sim_zone_pages_per_task,
	.setup = pfree_setup,
	.step = pfree_step,
	.finish = pfree_finish,
	.teardown = pfree_teardown,
};
