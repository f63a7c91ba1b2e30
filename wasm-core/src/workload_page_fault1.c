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
#include <stdio.h>
#include <stdlib.h>

#include "machine.h"
#include "sim.h"

struct sim_task {
	uint32_t *pfns;       /* the mapping: pfn - zone start of each faulted page */
	uint32_t pages, iterations, clear_lines;
	uint8_t state;
	uint8_t op_active;
	uint32_t i;           /* next page to fault, or to unmap */
	uint32_t pv;          /* pages waiting in the pagevec (fault) / in this batch (unmap) */
	uint32_t k;           /* unmap: pages of the batch freed so far */
	uint32_t round;
	uint64_t pages_done;  /* faulted, all rounds */
	uint64_t warm_pages, warm_end, end; /* pages and clock at the end of the warm-up round */
	struct blab_op op;
};

struct pf1_state {
	struct sim_task *tasks;
	uint32_t *pfns;
};

enum { T_FAULT = 0, T_LRU_ADD, T_UNMAP, T_UNMAP_LRU, T_UNMAP_FREE, T_DONE };

static void round_end(struct blab_zone *z, unsigned cpu, struct sim_task *t)
{
	t->round++;
	if (t->round == 1 && t->iterations > 1) {
		t->warm_pages = t->pages_done;
		t->warm_end = mach_now(z, cpu);
	}
	blab_mark(z, cpu, 1, t->round);
}

/* One lru_lock hold over pages [first, first + n) of the mapping: each page's struct page
 * is written as it goes on (lru_cache_add) or off (release_pages) the LRU list. */
static void lru_batch(struct blab_zone *z, unsigned cpu, const struct sim_task *t,
		      uint32_t first, uint32_t n)
{
	mach_lock(z, cpu, BLAB_LOCK_LRU);
	for (uint32_t j = first; j < first + n; j++) {
		mach_touch_page(z, cpu, idx_to_pfn(z, t->pfns[j]), 1, BLAB_PATH_NONE);
		mach_work(z, cpu, BLAB_COST_LIST_OP);
	}
	mach_unlock(z, cpu, BLAB_LOCK_LRU);
}

/* Steps the task's op in flight: BLAB_STEP_DONE when it finished, BLAB_STEP_LOCK when the
 * CPU's step must end before a lock, or a negative error. */
static int step_op(struct blab_zone *z, struct sim_task *t)
{
	int ret = blab_op_step(z, &t->op);

	if (ret == BLAB_STEP_LOCK)
		return ret;
	if (ret != BLAB_STEP_DONE)
		return ret < 0 ? ret : BLAB_EINVAL;
	t->op_active = 0;
	return BLAB_STEP_DONE;
}

static int pf1_step(struct sim_run *run, unsigned cpu)
{
	struct blab_zone *z = run->z;
	struct sim_task *t = &((struct pf1_state *)run->priv)->tasks[cpu];
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
				mach_work(z, cpu, BLAB_COST_FAULT);
				blab_op_alloc(&t->op, cpu, 0, BLAB_MT_MOVABLE, 0);
				t->op_active = 1;
			}
			if ((ret = step_op(z, t)) != BLAB_STEP_DONE)
				return ret == BLAB_STEP_LOCK ? SIM_STEP : ret;
			mach_clear_page(z, cpu, t->op.pfn, t->clear_lines, BLAB_PATH_NONE);
			t->pfns[t->i++] = pfn_to_idx(z, t->op.pfn);
			t->pages_done++;
			if (++t->pv == BLAB_SIM_PAGEVEC) {
				t->state = T_LRU_ADD;
				return SIM_STEP;
			}
			break;
		case T_LRU_ADD: /* __pagevec_lru_add() */
			lru_batch(z, cpu, t, t->i - t->pv, t->pv);
			t->pv = 0;
			t->state = T_FAULT;
			break;
		case T_UNMAP:
			if (t->i == t->pages) {
				round_end(z, cpu, t);
				if (t->round >= t->iterations) {
					t->end = mach_now(z, cpu);
					t->state = T_DONE;
					return SIM_FINISHED;
				}
				t->i = 0;
				t->state = T_FAULT;
				break;
			}
			t->pv = t->pages - t->i < BLAB_SIM_PAGEVEC ? t->pages - t->i
								  : BLAB_SIM_PAGEVEC;
			for (uint32_t j = 0; j < t->pv; j++) {
				/* zap_pte_range: page_remove_rmap() writes the struct page
				 * (_mapcount), so release_pages() finds it warm under lru_lock */
				mach_touch_page(z, cpu, idx_to_pfn(z, t->pfns[t->i + j]), 1,
						BLAB_PATH_NONE);
				mach_work(z, cpu, BLAB_COST_UNMAP);
			}
			t->state = T_UNMAP_LRU;
			return SIM_STEP;
		case T_UNMAP_LRU: /* release_pages(): off the LRU under lru_lock */
			lru_batch(z, cpu, t, t->i, t->pv);
			t->k = 0;
			t->state = T_UNMAP_FREE;
			break;
		case T_UNMAP_FREE: /* free_unref_page_list() */
			if (t->k == t->pv) {
				t->i += t->pv;
				t->pv = 0;
				t->state = T_UNMAP;
				break;
			}
			if (!t->op_active) {
				blab_op_free(&t->op, cpu, idx_to_pfn(z, t->pfns[t->i + t->k]), 0, 0);
				t->op_active = 1;
			}
			if ((ret = step_op(z, t)) != BLAB_STEP_DONE)
				return ret == BLAB_STEP_LOCK ? SIM_STEP : ret;
			t->k++;
			break;
		default:
			return SIM_FINISHED;
		}
	}
}

static uint64_t pf1_zone_pages(const struct blab_sim_config *c)
{
	return (uint64_t)c->cpus * c->pages;
}

static int pf1_setup(struct sim_run *run, char *err, size_t errlen)
{
	const struct blab_sim_config *c = run->c;
	struct pf1_state *st = calloc(1, sizeof(*st));

	if (st) {
		st->tasks = calloc(c->cpus, sizeof(*st->tasks));
		st->pfns = malloc((size_t)c->cpus * c->pages * sizeof(*st->pfns));
	}
	run->priv = st;
	if (!st || !st->tasks || !st->pfns) {
		if (err && errlen)
			snprintf(err, errlen, "out of host memory");
		return BLAB_ENOMEMHOST;
	}
	for (uint32_t cpu = 0; cpu < c->cpus; cpu++) {
		struct sim_task *t = &st->tasks[cpu];
		t->pfns = st->pfns + (size_t)cpu * c->pages;
		t->pages = c->pages;
		t->iterations = c->iterations;
		t->clear_lines = c->clear_lines;
	}
	return 0;
}

/* score: pages / virtual seconds per task, outside the warm-up round, summed */
static void pf1_finish(const struct sim_run *run, struct blab_sim_result *r)
{
	const struct pf1_state *st = run->priv;

	for (uint32_t cpu = 0; cpu < run->c->cpus; cpu++) {
		const struct sim_task *t = &st->tasks[cpu];
		uint64_t pages = t->pages_done - t->warm_pages;
		uint64_t cyc = t->end - t->warm_end;
		r->pages_total += t->pages_done;
		r->pages_scored += pages;
		if (cyc)
			r->score += (uint64_t)((unsigned __int128)pages * run->mp->cpu_mhz *
					       1000000u / cyc);
	}
}

static void pf1_teardown(struct sim_run *run)
{
	struct pf1_state *st = run->priv;

	if (st) {
		free(st->tasks);
		free(st->pfns);
		free(st);
	}
	run->priv = NULL;
}

const struct sim_workload sim_workload_page_fault1 = {
	.name = "page_fault1",
	.id = BLAB_WL_PAGE_FAULT1,
	.score_unit = "pages/s",
	.check = NULL,
	.zone_pages = pf1_zone_pages,
	.setup = pf1_setup,
	.step = pf1_step,
	.finish = pf1_finish,
	.teardown = pf1_teardown,
};
