/*
 * workload_page_fault1.h - page_fault1's per-task state machine, shared by the model
 * machine's workload table (workload_page_fault1.c) and the real machine's threads
 * (real/run.c), so both run the same fault / lru / unmap sequence.
 */
#ifndef BLAB_WORKLOAD_PAGE_FAULT1_H
#define BLAB_WORKLOAD_PAGE_FAULT1_H

#include "mm/mm.h"
#include "workload_common.h"

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
	/* will-it-scale's processes each at their own point of their loop (pf1_setup,
	 * blab_sim_config.out_of_step): after the warm-up round a round of phase_pages, then the scored rounds
	 * (full_pages each), then one of tail_pages = full_pages - phase_pages, neither scored;
	 * all 0: every round full_pages */
	uint32_t full_pages, phase_pages, tail_pages;
	uint64_t scored_pages, scored_end; /* pages and clock when the last scored round ended */
	struct blab_op op;
	struct sim_lru *lru;  /* the node's LRU list (model machine); NULL: lru_lock held over
			       * the batch's own struct pages only (real machine) */
};

/* One step of page_fault1 on cpu: runs until the task is about to take a lock. Returns
 * SIM_STEP, SIM_FINISHED or a negative BLAB_E* code. */
int sim_page_fault1_step(struct blab_zone *z, unsigned cpu, struct sim_task *t);

/* Makes the round the task is in its last, and when the task is faulting (between two
 * steps, no op in flight) ends the round's mapping at the pages faulted so far, so that it
 * unmaps those and finishes: the real machine's stop. Returns 1 once the mapping is cut (or
 * the task is past faulting), 0 while an op is in flight: call again after the next step. */
int sim_page_fault1_cut(struct sim_task *t);

#endif
