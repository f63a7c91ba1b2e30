/*
 * workload_trunc.c - mmtests' trunc shape: a task reads a sparse file into the page cache,
 * then truncates it, and the truncate is what is timed.
 *
 *   loop { read --pages pages into the page cache; truncate the file to 0 }
 *
 * Read (set-up, not scored): each page is an order-0 MOVABLE allocation through the pcp,
 * its frame written (--clear-lines of it pass through the cache model: the copy from the
 * sparse file is zeroes), and every 15 pages go on the LRU under lru_lock.
 * Truncate (scored): per page the page-cache work of truncate_inode_pages_range() (finding
 * and deleting the xarray entry, accounting: BLAB_COST_UNMAP, an estimate), then per
 * pagevec of 15 release_pages(): lru_lock once to take them off the LRU, and each page freed
 * to the pcp, free_pcppages_bulk() running in the preset's shape when the list reaches high.
 * Seed 002 runs it on one task; with more CPUs each runs its own file.
 * Score: pages truncated per second of virtual time per task, scored rounds (the first is a
 * warm-up when there are two or more), summed over tasks.
 */
#include <stdlib.h>

#include "machine/machine.h"
#include "sim.h"
#include "workload_common.h"

enum { TR_READ = 0, TR_LRU_ADD, TR_TRUNC, TR_TRUNC_LRU, TR_TRUNC_FREE, TR_DONE };

struct trunc_task {
	uint32_t *pfns;  /* the file's pages: pfn - zone start */
	uint32_t i;      /* next page to read / to truncate */
	uint32_t pv;     /* pages in the pagevec */
	uint32_t k;      /* truncate: pages of the pagevec freed so far */
	uint8_t state, op_active;
	struct sim_rounds rounds; /* the truncate is the timed part */
	uint64_t pages_done;
	struct blab_op op;
};

struct trunc_state {
	struct trunc_task *tasks;
	uint32_t *pfns;
	struct sim_lru lru; /* the node's inactive file LRU, shared by every task's file */
};

static int trunc_step(struct sim_run *run, unsigned cpu)
{
	struct blab_zone *z = run->z;
	struct trunc_state *st = run->priv;
	struct trunc_task *t = &st->tasks[cpu];
	uint32_t pages = run->c->pages;
	int ret;

	for (;;) {
		switch (t->state) {
		case TR_READ:
			if (t->i == pages) {
				if (t->pv) {
					t->state = TR_LRU_ADD;
					return SIM_STEP;
				}
				t->i = 0;
				sim_round_timed_start(z, cpu, &t->rounds);
				t->state = TR_TRUNC;
				break;
			}
			if (!t->op_active) {
				blab_op_alloc(&t->op, cpu, 0, BLAB_MT_MOVABLE, 0);
				t->op_active = 1;
			}
			ret = sim_op_step(z, &t->op, &t->op_active);
			if (ret != BLAB_STEP_DONE)
				return ret == BLAB_STEP_LOCK ? SIM_STEP : ret;
			mach_clear_page(&z->machine, cpu, t->op.pfn, run->c->clear_lines, BLAB_PATH_NONE);
			t->pfns[t->i++] = pfn_to_idx(z, t->op.pfn);
			if (++t->pv == BLAB_SIM_PAGEVEC) {
				t->state = TR_LRU_ADD;
				return SIM_STEP;
			}
			break;
		case TR_LRU_ADD:
			sim_lru_add_batch(z, cpu, &st->lru, t->pfns, t->i - t->pv, t->pv);
			t->pv = 0;
			t->state = TR_READ;
			break;
		case TR_TRUNC:
			if (t->i == pages) {
				if (sim_round_timed_end(z, cpu, run->c, &t->rounds, pages)) {
					t->state = TR_DONE;
					return SIM_FINISHED;
				}
				t->i = 0;
				t->state = TR_READ;
				break;
			}
			t->pv = sim_pagevec_size(pages, t->i);
			/* __delete_from_page_cache() clears page->mapping (the struct page is
			 * written, so release_pages() finds it warm); xarray delete, accounting */
			sim_unmap_pages(z, cpu, t->pfns + t->i, t->pv);
			t->state = TR_TRUNC_LRU;
			return SIM_STEP;
		case TR_TRUNC_LRU: /* pagevec_release() -> release_pages() */
			sim_lru_release_batch(z, cpu, &st->lru, t->pfns, t->i, t->pv);
			t->k = 0;
			t->state = TR_TRUNC_FREE;
			break;
		case TR_TRUNC_FREE: /* free_unref_page_list() */
			ret = sim_free_pages_step(z, cpu, &t->op, &t->op_active, t->pfns + t->i,
						  t->pv, &t->k);
			if (ret != BLAB_STEP_DONE)
				return ret == BLAB_STEP_LOCK ? SIM_STEP : ret;
			t->i += t->pv;
			t->pages_done += t->pv;
			t->pv = 0;
			t->state = TR_TRUNC;
			break;
		default:
			return SIM_FINISHED;
		}
	}
}

static int trunc_setup(struct sim_run *run, char *err, size_t errlen)
{
	const struct blab_sim_config *c = run->c;
	struct trunc_state *st = calloc(1, sizeof(*st));

	run->priv = st;
	if (!st || !(st->tasks = sim_tasks_alloc(c, sizeof(*st->tasks), &st->pfns)))
		return sim_out_of_host_memory(err, errlen);
	if (sim_lru_init(&st->lru, run->z->pages))
		return sim_out_of_host_memory(err, errlen);
	for (uint32_t cpu = 0; cpu < c->cpus; cpu++)
		st->tasks[cpu].pfns = sim_task_pfns(st->pfns, c, cpu);
	return 0;
}

static void trunc_finish(const struct sim_run *run, struct blab_sim_result *r)
{
	const struct trunc_state *st = run->priv;

	for (uint32_t cpu = 0; cpu < run->c->cpus; cpu++)
		sim_rounds_finish(run, &st->tasks[cpu].rounds, st->tasks[cpu].pages_done, r);
}

static void trunc_teardown(struct sim_run *run)
{
	struct trunc_state *st = run->priv;

	if (st) {
		free(st->tasks);
		free(st->pfns);
		sim_lru_free(&st->lru);
		free(st);
	}
	run->priv = NULL;
}

const struct sim_workload sim_workload_trunc = {
	.name = "trunc",
	.id = BLAB_WL_TRUNC,
	.score_unit = "pages truncated/s",
	.one_zone_why = "its page-cache files and LRU list live in one zone; it has not been split per node yet",
	.check = NULL,
	.zone_pages = sim_zone_pages_per_task,
	.setup = trunc_setup,
	.step = trunc_step,
	.finish = trunc_finish,
	.teardown = trunc_teardown,
};
