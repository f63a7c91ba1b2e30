/*
 * sim_fragment.h - what the high-order workloads (stress_highalloc, mixed) share: a record of
 * which pages a workload holds (slots), kept right when compaction migrates them, and the
 * set-up that fills the zone and frees it again in a fragmenting pattern.
 */
#ifndef BLAB_SIM_FRAGMENT_H
#define BLAB_SIM_FRAGMENT_H

#include <stdio.h>

#include "sim.h"

/* a reason into err, which may be NULL */
#define SIM_ERR(err, errlen, ...)                                                          \
	do {                                                                               \
		if ((err) && (errlen))                                                     \
			snprintf((err), (errlen), __VA_ARGS__);                            \
	} while (0)

/* slot -> page index (NIL when empty) and page index -> slot (NIL when not ours) */
struct held_pages {
	struct blab_zone *z;
	uint32_t *slot_idx;
	uint32_t *owner;
	uint32_t nslots;
};

int held_init(struct held_pages *h, struct blab_zone *z, uint32_t nslots);
void held_free(struct held_pages *h);
void held_set(struct held_pages *h, uint32_t slot, uint64_t pfn);
void held_clear(struct held_pages *h, uint32_t slot);
/* blab_migrate_fn: the page of a slot moved */
void held_migrated(void *ctx, uint64_t old_pfn, uint64_t new_pfn, unsigned order);

/*
 * Allocates order-0 MOVABLE pages on cpu 0 into slots first.. until the zone is empty, then
 * frees them in a random order except the pages `keep` says to keep, drains every pcp list,
 * and brings every CPU's clock to cpu 0's, so the measured phase starts together.
 * keep_every = 0 frees everything; else in every pageblock whose number is not a multiple
 * of free_pb_every, every keep_every-th page stays allocated. *filled: pages allocated.
 */
int sim_fill_and_fragment(struct sim_run *run, struct held_pages *h, uint32_t first,
			  uint32_t keep_every, uint32_t free_pb_every, uint32_t *filled);

/* set every runnable CPU's clock to the highest of them */
void sim_sync_clocks(struct sim_run *run);

#endif
