/*
 * workload_common.h - the pieces the per-task workloads (page_fault1, parallel_free, trunc)
 * have in common: stepping a resumable page op, a pagevec's trip under lru_lock, the
 * unmap/truncate work before it, the per-task arrays, and the timed-round bookkeeping and
 * score. One copy, so that the workloads charge the model machine the same way for the
 * same kernel path.
 */
#ifndef BLAB_WORKLOAD_COMMON_H
#define BLAB_WORKLOAD_COMMON_H

#include "sim.h"

/* Steps the op in flight: BLAB_STEP_DONE when it finished (and *active is cleared),
 * BLAB_STEP_LOCK when the CPU's step must end before a lock, or a negative error. */
int sim_op_step(struct blab_zone *z, struct blab_op *op, uint8_t *active);

/* The same for an op that may fail for want of memory (a high-order allocation):
 * BLAB_ENOMEM, like success, ends the op with BLAB_STEP_DONE and is left in op->err. */
int sim_op_step_may_fail(struct blab_zone *z, struct blab_op *op, uint8_t *active);

/*
 * The node's LRU list, shared by every task (one lruvec: will-it-scale's processes all sit
 * in the root memcg): prev/next per page index (pfn - zone start), index `head` being the
 * list head in the lruvec. Pages are added at the head, so one task's pages end up
 * interleaved with the others' and taking one off rewrites other CPUs' struct pages.
 */
struct sim_lru {
	/* zone pages + 1 entries (the last is the head); a page's two links share a host line */
	struct blab_links *link;
	uint32_t head;
};

/* an empty list for a zone of zone_pages pages; -1 when the host is out of memory */
int sim_lru_init(struct sim_lru *l, uint32_t zone_pages);
void sim_lru_free(struct sim_lru *l);
/* One LRU list per node of the run (lru[n] for node n's zone, sim_nodes() of them; a node
 * without a zone keeps an empty slot): 0, or -1 when the host is out of memory. */
int sim_node_lrus_init(const struct sim_run *run, struct sim_lru lru[BLAB_SIM_MAX_NODES]);
/* Frees every slot of lru (also those never set up). */
void sim_node_lrus_free(struct sim_lru lru[BLAB_SIM_MAX_NODES]);

/* __pagevec_lru_add() of pages [first, first + n) of pfns: one lru_lock hold; per page
 * its struct page, the lruvec's list head, the old first page's lru.prev (often another
 * CPU's page) and the lruvec's size counter are written. */
void sim_lru_add_batch(struct blab_zone *z, unsigned cpu, struct sim_lru *l,
		       const uint32_t *pfns, uint32_t first, uint32_t n);

/* release_pages()'s lru_lock hold over pages [first, first + n) (at most SWAP_CLUSTER_MAX:
 * it drops the lock every 32 pages): del_page_from_lru_list() of each, rewriting both
 * neighbours' struct pages (or the list head) and the size counter. */
void sim_lru_release_batch(struct blab_zone *z, unsigned cpu, struct sim_lru *l,
			   const uint32_t *pfns, uint32_t first, uint32_t n);

/* compaction moved page old_idx to new_idx: the new page takes its place on the list (the
 * isolate/putback under lru_lock is not charged) */
void sim_lru_migrated(struct sim_lru *l, uint32_t old_idx, uint32_t new_idx);

/* One lru_lock hold over pages [first, first + n) of pfns touching only their own struct
 * pages (no list): what the real machine's threads run, whose lists are not shared. */
void sim_lru_batch(struct blab_zone *z, unsigned cpu, const uint32_t *pfns, uint32_t first,
		   uint32_t n);

/* release_pages() drops lru_lock every SWAP_CLUSTER_MAX pages */
#define SIM_SWAP_CLUSTER_MAX 32u

/* free_unref_page_list() for pfns[0, n): frees them to the pcp one resumable op at a time,
 * *k counting those freed (it survives a step that ends at a lock). BLAB_STEP_DONE once all
 * n are freed, else BLAB_STEP_LOCK or a negative error. */
int sim_free_pages_step(struct blab_zone *z, unsigned cpu, struct blab_op *op, uint8_t *active,
			const uint32_t *pfns, uint32_t n, uint32_t *k);

/* How many of pages [i, pages) the next pagevec takes: BLAB_SIM_PAGEVEC or what is left. */
static inline uint32_t sim_pagevec_size(uint32_t pages, uint32_t i)
{
	return pages - i < BLAB_SIM_PAGEVEC ? pages - i : BLAB_SIM_PAGEVEC;
}

/* The per-page work before release_pages() for pages[0, n): zap_pte_range's
 * page_remove_rmap() or truncate's __delete_from_page_cache() writes the struct page (so
 * release_pages() finds it warm under lru_lock), plus BLAB_COST_UNMAP of other work. */
void sim_unmap_pages(struct blab_zone *z, unsigned cpu, const uint32_t *pfns, uint32_t n);

/* Pages the zone needs when every task holds --pages pages: cpus x pages. */
uint64_t sim_zone_pages_per_task(const struct blab_sim_config *c);

/* calloc'ed array of c->cpus tasks of task_size bytes, and in *pfns one block of
 * c->cpus x c->pages entries (task cpu's share: sim_task_pfns()). NULL (and *pfns NULL) when
 * the host is out of memory. */
void *sim_tasks_alloc(const struct blab_sim_config *c, size_t task_size, uint32_t **pfns);

static inline uint32_t *sim_task_pfns(uint32_t *pfns, const struct blab_sim_config *c,
				      uint32_t cpu)
{
	return pfns + (size_t)cpu * c->pages;
}

/* spin cycles over cycles in 1/100 %, as lock_contention_bp(); 0 for no cycles */
uint32_t sim_contention_bp(uint64_t spin, uint64_t cycles);

/* adds n per second of virtual time over `cycles` of a cpu_mhz clock (0 for no cycles) to r's
 * score, and in thousandths to its score_milli */
void sim_score_add(struct blab_sim_result *r, uint64_t n, uint64_t cycles, uint32_t cpu_mhz);

/* A task whose rounds each end in a timed part (a free or a truncate of --pages pages). */
struct sim_rounds {
	uint32_t round;         /* rounds finished */
	uint64_t start;         /* clock when this round's timed part began */
	uint64_t scored_pages, scored_cycles; /* timed parts of the scored rounds */
};

/* The timed part begins: notes the clock and marks the round in the event log. */
void sim_round_timed_start(struct blab_zone *z, unsigned cpu, struct sim_rounds *rd);

/* The timed part of pages pages ended: scores it unless it was the warm-up round (the
 * first, when there are two or more). Returns 1 when that was the last round. */
int sim_round_timed_end(struct blab_zone *z, unsigned cpu, const struct blab_sim_config *c,
			struct sim_rounds *rd, uint32_t pages);

/* Adds one task's pages and its score to r. */
void sim_rounds_finish(const struct sim_run *run, const struct sim_rounds *rd,
		       uint64_t pages_done, struct blab_sim_result *r);

#endif
