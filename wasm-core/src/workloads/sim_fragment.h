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

/* Config checks both high-order workloads make: 0, or a negative BLAB_E* code and why. */
int sim_check_hi_order(const struct blab_sim_config *c, char *err, size_t errlen);
int sim_check_compact(const struct blab_sim_config *c, char *err, size_t errlen);

/* the blab_compact_op mode --compact merge|full asks for (none never compacts) */
unsigned sim_compact_mode(const struct blab_sim_config *c);

/* The high-order side of a run, as blab_sim_result reports it. */
struct sim_hi_stats {
	uint64_t attempts, success, cycles;
	uint32_t merge_skipped; /* pages the set-up left merge-skipped */
	int32_t unusable, extfrag; /* the --hi-order indices when the attempts begin */
};

/* after the set-up: how fragmented it left the zone for order c->hi_order */
void sim_hi_stats_start(const struct sim_run *run, struct sim_hi_stats *hs);

/* copies the high-order counters and indices into r */
void sim_hi_stats_report(const struct sim_hi_stats *hs, struct blab_sim_result *r);

#endif
