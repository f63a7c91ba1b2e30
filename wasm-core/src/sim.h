/*
 * sim.h - what the simulation loop (sim.c) and its workloads share.
 */
#ifndef BLAB_SIM_INTERNAL_H
#define BLAB_SIM_INTERNAL_H

#include "blab_sim.h"
#include "internal.h"

enum { SIM_STEP = 0, SIM_FINISHED = 1 };

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

/* batch and high left 0 in s become those of a 96 GB node with 56 CPUs (sim.c); the real
 * machine (real/run.c) sizes its pcp lists the same way */
void sim_node_pcp_sizes(struct blab_strategy *s);

/* One step of page_fault1 on cpu: runs until the task is about to take a lock. Returns
 * SIM_STEP, SIM_FINISHED or a negative BLAB_E* code. */
int sim_page_fault1_step(struct blab_zone *z, unsigned cpu, struct sim_task *t);

#endif
