/*
 * workload_page_fault1.c - will-it-scale's page_fault1 as a per-CPU state machine:
 *
 *   loop { mmap 128 MB anonymous; write one byte to each page; munmap }
 *
 * Each first write faults: fault entry work, an order-0 MOVABLE page from the pcp
 * (alloc_pages via a resumable op), clear_page() of its frame, and the page goes into a
 * per-CPU pagevec; every 15 pages lru_cache_add() takes lru_lock once and puts them on the
 * LRU. munmap: zap_pte_range work per page, then per batch of 15 (release_pages) lru_lock
 * once to take them off the LRU, and each page is freed to the pcp, where free_pcppages_bulk
 * runs inside the resumable free op when the list reaches high.
 *
 * A step ends just before a lock: an op's BLAB_STEP_LOCK or the workload's lru_lock.
 */
#include <stdlib.h>

#include "machine/machine.h"
#include "sim.h"
#include "workload_common.h"
#include "workload_page_fault1.h"

struct pf1_state {
	struct sim_task *tasks;
	uint32_t *pfns;
	/* each CPU's spin cycles on its node's zone->lock and lru_lock when its warm-up round
	 * ended: the scored rounds' own contention is what is left (pf1_finish) */
	uint64_t (*warm_spin)[2];
	/* ... and when its last scored round ended (a part-round may follow: sim_task) */
	uint64_t (*scored_spin)[2];
	/* each node's LRU list (index = node; [0] only without node_zones), over its zone */
	struct sim_lru lru[BLAB_SIM_MAX_NODES];
};

enum { T_FAULT = 0, T_LRU_ADD, T_UNMAP, T_UNMAP_LRU, T_UNMAP_FREE, T_DONE };

/* rounds before the scored ones: the warm-up, and the phase round when there is one */
static uint32_t warm_rounds(const struct sim_task *t)
{
	return t->iterations > 1 ? 1u + (t->phase_pages != 0) : 0u;
}

static void round_end(struct blab_zone *z, unsigned cpu, struct sim_task *t)
{
	t->round++;
	if (t->round == warm_rounds(t)) {
		t->warm_pages = t->pages_done;
		t->warm_end = mach_now(&z->machine, cpu);
	}
	if (t->phase_pages) /* the next round's size */
		t->pages = t->round == 1 ? t->phase_pages : t->full_pages;
	if (t->round == t->iterations) {
		t->scored_pages = t->pages_done;
		t->scored_end = mach_now(&z->machine, cpu);
		if (t->tail_pages)
			t->pages = t->tail_pages;
	}
	blab_mark(z, cpu, 1, t->round);
}

/* rounds the task runs: its iterations, and the last part-round when it has one */
static uint32_t rounds(const struct sim_task *t)
{
	return t->iterations + (t->tail_pages != 0);
}

int sim_page_fault1_step(struct blab_zone *z, unsigned cpu, struct sim_task *t)
{
	int ret;

	for (;;) {
		switch (t->state) {
		case T_FAULT:
			if (t->i == t->pages) {
				if (t->pv) { /* munmap's lru_add_drain() */
					t->state = T_LRU_ADD;
					return SIM_STEP;
				}
				t->i = 0;
				t->state = T_UNMAP;
				break;
			}
			if (!t->op_active) {
				mach_work(&z->machine, cpu, BLAB_COST_FAULT);
				blab_op_alloc(&t->op, cpu, 0, BLAB_MT_MOVABLE, 0);
				t->op_active = 1;
			}
			ret = sim_op_step(z, &t->op, &t->op_active);
			if (ret != BLAB_STEP_DONE)
				return ret == BLAB_STEP_LOCK ? SIM_STEP : ret;
			mach_clear_page(&z->machine, cpu, t->op.pfn, t->clear_lines, BLAB_PATH_NONE);
			t->pfns[t->i++] = pfn_to_idx(z, t->op.pfn);
			t->pages_done++;
			if (++t->pv == BLAB_SIM_PAGEVEC) {
				t->state = T_LRU_ADD;
				return SIM_STEP;
			}
			break;
		case T_LRU_ADD: /* __pagevec_lru_add() */
			if (t->lru)
				sim_lru_add_batch(z, cpu, t->lru, t->pfns, t->i - t->pv, t->pv);
			else
				sim_lru_batch(z, cpu, t->pfns, t->i - t->pv, t->pv);
			t->pv = 0;
			t->state = T_FAULT;
			break;
		case T_UNMAP:
			if (t->i == t->pages) {
				round_end(z, cpu, t);
				if (t->round >= rounds(t)) {
					t->end = mach_now(&z->machine, cpu);
					t->state = T_DONE;
					return SIM_FINISHED;
				}
				t->i = 0;
				t->state = T_FAULT;
				break;
			}
			/* release_pages() keeps lru_lock for SWAP_CLUSTER_MAX pages at most */
			t->pv = t->pages - t->i < SIM_SWAP_CLUSTER_MAX ? t->pages - t->i
								      : SIM_SWAP_CLUSTER_MAX;
			/* zap_pte_range: page_remove_rmap() writes the struct page (_mapcount) */
			sim_unmap_pages(z, cpu, t->pfns + t->i, t->pv);
			t->state = T_UNMAP_LRU;
			return SIM_STEP;
		case T_UNMAP_LRU: /* release_pages(): off the LRU under lru_lock */
			if (t->lru)
				sim_lru_release_batch(z, cpu, t->lru, t->pfns, t->i, t->pv);
			else
				sim_lru_batch(z, cpu, t->pfns, t->i, t->pv);
			t->k = 0;
			t->state = T_UNMAP_FREE;
			break;
		case T_UNMAP_FREE: /* free_unref_page_list() */
			ret = sim_free_pages_step(z, cpu, &t->op, &t->op_active, t->pfns + t->i,
						  t->pv, &t->k);
			if (ret != BLAB_STEP_DONE)
				return ret == BLAB_STEP_LOCK ? SIM_STEP : ret;
			t->i += t->pv;
			t->pv = 0;
			t->state = T_UNMAP;
			break;
		default:
			return SIM_FINISHED;
		}
	}
}

int sim_page_fault1_cut(struct sim_task *t)
{
	t->iterations = t->round + 1;
	if (t->state == T_FAULT || t->state == T_LRU_ADD) {
		if (t->op_active)
			return 0;
		t->pages = t->i;
	}
	return 1;
}

/* cpu's spin cycles so far on its node's zone->lock (which 0) or lru_lock (1) */
static uint64_t cpu_spin(const struct sim_run *run, unsigned cpu, unsigned which)
{
	unsigned id = sim_cpu_node(run, cpu) * MODEL_NODE_LOCKS + (which ? LOCK_LRU : LOCK_ZONE);

	return run->mm->locks.cpu[cpu][id].spin_cycles;
}

static int pf1_step(struct sim_run *run, unsigned cpu)
{
	struct pf1_state *st = run->priv;
	struct sim_task *t = &st->tasks[cpu];
	uint32_t round = t->round;
	int ret = sim_page_fault1_step(sim_cpu_zone(run, cpu), cpu, t);

	/* A step takes a lock only at its start, so the counters now are those of the moment
	 * the warm-up round ended (round_end) */
	if (t->round == warm_rounds(t) && round + 1 == t->round) {
		st->warm_spin[cpu][0] = cpu_spin(run, cpu, 0);
		st->warm_spin[cpu][1] = cpu_spin(run, cpu, 1);
	}
	if (round + 1 == t->iterations && t->round == t->iterations) {
		st->scored_spin[cpu][0] = cpu_spin(run, cpu, 0);
		st->scored_spin[cpu][1] = cpu_spin(run, cpu, 1);
	}
	return ret;
}

static int pf1_setup(struct sim_run *run, char *err, size_t errlen)
{
	const struct blab_sim_config *c = run->c;
	struct pf1_state *st = calloc(1, sizeof(*st));

	run->priv = st;
	if (!st || !(st->tasks = sim_tasks_alloc(c, sizeof(*st->tasks), &st->pfns)) ||
	    !(st->warm_spin = calloc(c->cpus, sizeof(*st->warm_spin))) ||
	    !(st->scored_spin = calloc(c->cpus, sizeof(*st->scored_spin))))
		return sim_out_of_host_memory(err, errlen);
	if (sim_node_lrus_init(run, st->lru))
		return sim_out_of_host_memory(err, errlen);
	for (uint32_t cpu = 0; cpu < c->cpus; cpu++) {
		struct sim_task *t = &st->tasks[cpu];
		t->lru = &st->lru[sim_cpu_node(run, cpu)];
		t->pfns = sim_task_pfns(st->pfns, c, cpu);
		t->pages = c->pages;
		t->iterations = c->iterations;
		t->clear_lines = c->clear_lines;
		t->full_pages = c->pages;
		if (c->out_of_step && c->cpus > 1 && c->pages > 1) {
			/* each task cuts the round after its warm-up at its own page and runs the
			 * rest after its scored rounds: will-it-scale's processes, minutes into a
			 * run, are each at their own point of their 128 MB loop, where rounds in
			 * step would unmap together (docs/sim.md, "Tasks in step") */
			t->phase_pages = 1u + (uint32_t)blab_rng_below(&run->rng, c->pages - 1u);
			t->tail_pages = c->pages - t->phase_pages;
		}
	}
	return 0;
}

/*
 * score: pages / virtual seconds per task, outside the warm-up round, summed. The scored
 * rounds' lock contention: each CPU's spin after its warm-up over its cycles after it (a
 * profile of the running benchmark, as the seeds' perf numbers are; the warm-up splits every
 * page out of high-order blocks under zone->lock, which a minutes-long run does once).
 */
static void pf1_finish(const struct sim_run *run, struct blab_sim_result *r)
{
	const struct pf1_state *st = run->priv;
	uint64_t cycles = 0, spin[2] = {0, 0};

	for (uint32_t cpu = 0; cpu < run->c->cpus; cpu++) {
		const struct sim_task *t = &st->tasks[cpu];
		uint64_t pages = t->scored_pages - t->warm_pages;
		uint64_t cyc = t->scored_end - t->warm_end;
		r->pages_total += t->pages_done;
		r->pages_scored += pages;
		sim_score_add(r, pages, cyc, run->mp->cpu_mhz);
		cycles += cyc;
		for (unsigned w = 0; w < 2; w++)
			spin[w] += st->scored_spin[cpu][w] - st->warm_spin[cpu][w];
	}
	r->scored_zone_contention_bp = sim_contention_bp(spin[0], cycles);
	r->scored_lru_contention_bp = sim_contention_bp(spin[1], cycles);
}

/* pages faulted so far, of all rounds' */
static void pf1_progress(const struct sim_run *run, uint64_t *done, uint64_t *total)
{
	const struct pf1_state *st = run->priv;

	*done = 0;
	for (uint32_t cpu = 0; cpu < run->c->cpus; cpu++)
		*done += st->tasks[cpu].pages_done;
	*total = (uint64_t)run->c->cpus * run->c->pages * run->c->iterations;
}

static void pf1_teardown(struct sim_run *run)
{
	struct pf1_state *st = run->priv;

	if (st) {
		free(st->tasks);
		free(st->pfns);
		free(st->warm_spin);
		free(st->scored_spin);
		sim_node_lrus_free(st->lru);
		free(st);
	}
	run->priv = NULL;
}

/*
 * Compaction moved a page (workload_mixed.c runs page_fault1 beside compacting tasks): the
 * task holding page old_idx now holds new_idx. Only the entries a task still holds are
 * searched: [0, i) while faulting, what is not yet freed while unmapping.
 */
void sim_page_fault1_migrated(void *priv, uint32_t ntasks, uint32_t old_idx, uint32_t new_idx)
{
	struct pf1_state *st = priv;

	sim_lru_migrated(&st->lru[0], old_idx, new_idx); /* mixed: one zone */
	for (uint32_t cpu = 0; cpu < ntasks; cpu++) {
		struct sim_task *t = &st->tasks[cpu];
		uint32_t lo = 0, hi = 0;
		if (t->state == T_FAULT || t->state == T_LRU_ADD) {
			hi = t->i;
		} else if (t->state == T_UNMAP || t->state == T_UNMAP_LRU) {
			lo = t->i;
			hi = t->pages;
		} else if (t->state == T_UNMAP_FREE) {
			lo = t->i + t->k;
			hi = t->pages;
		}
		for (uint32_t j = lo; j < hi; j++)
			if (t->pfns[j] == old_idx) {
				t->pfns[j] = new_idx;
				return;
			}
	}
}

const struct sim_workload sim_workload_page_fault1 = {
	.name = "page_fault1",
	.id = BLAB_WL_PAGE_FAULT1,
	.score_unit = "pages/s",
	.node_zones = 1,
	.check = NULL,
	.zone_pages = sim_zone_pages_per_task,
	.setup = pf1_setup,
	.step = pf1_step,
	.finish = pf1_finish,
	.teardown = pf1_teardown,
	.progress = pf1_progress,
};
