/*
 * sim_fragment.c - held pages and the fragmenting set-up of the high-order workloads.
 *
 * stress-highalloc in mmtests fills memory with page cache that stays allocated; the Lu RFC's
 * THP test first ran a program that touched almost all memory and exited, leaving high
 * orders broken up. Both become: allocate the whole zone as order-0 pages, then free them
 * (in a random order, through the pcp lists and free_pcppages_bulk() like any free) except
 * a few long-lived pages spread over most pageblocks. A kernel that merges on free gets whole
 * pageblocks back where nothing stayed; one that skips merging does not, until compaction.
 */
#include <stdlib.h>

#include "machine/machine.h"
#include "sim_fragment.h"

int held_init(struct held_pages *h, struct blab_zone *z, uint32_t nslots)
{
	h->z = z;
	h->nslots = nslots;
	h->slot_idx = malloc((size_t)nslots * sizeof(*h->slot_idx));
	h->owner = malloc((size_t)z->pages * sizeof(*h->owner));
	if (!h->slot_idx || !h->owner) {
		held_free(h);
		return BLAB_ENOMEMHOST;
	}
	for (uint32_t i = 0; i < nslots; i++)
		h->slot_idx[i] = NIL;
	for (uint32_t i = 0; i < z->pages; i++)
		h->owner[i] = NIL;
	return 0;
}

void held_free(struct held_pages *h)
{
	free(h->slot_idx);
	free(h->owner);
	h->slot_idx = NULL;
	h->owner = NULL;
}

void held_set(struct held_pages *h, uint32_t slot, uint64_t pfn)
{
	uint32_t idx = pfn_to_idx(h->z, pfn);
	h->slot_idx[slot] = idx;
	h->owner[idx] = slot;
}

void held_clear(struct held_pages *h, uint32_t slot)
{
	uint32_t idx = h->slot_idx[slot];
	if (idx != NIL)
		h->owner[idx] = NIL;
	h->slot_idx[slot] = NIL;
}

void held_migrated(void *ctx, uint64_t old_pfn, uint64_t new_pfn, unsigned order)
{
	struct held_pages *h = ctx;
	uint32_t old_idx = pfn_to_idx(h->z, old_pfn), slot = h->owner[old_idx];

	(void)order;
	if (slot == NIL)
		return; /* not one of ours (cannot happen: every allocation is held) */
	h->owner[old_idx] = NIL;
	held_set(h, slot, new_pfn);
}

/* set every runnable CPU's clock to the highest of them */
static void sim_sync_clocks(struct sim_run *run)
{
	uint64_t max = 0;

	for (uint32_t cpu = 0; cpu < run->c->cpus; cpu++)
		if (run->mm->now[cpu] > max)
			max = run->mm->now[cpu];
	for (uint32_t cpu = 0; cpu < run->c->cpus; cpu++) {
		run->mm->now[cpu] = max;
		sched_set_clock(&run->mm->sched, cpu, max);
	}
}

int sim_check_hi_order(const struct blab_sim_config *c, char *err, size_t errlen)
{
	if (c->hi_order < 1 || c->hi_order > BLAB_DEFAULT_TOP_ORDER) {
		SIM_ERR(err, errlen, "hi_order must be 1..%u", BLAB_DEFAULT_TOP_ORDER);
		return BLAB_EORDER;
	}
	return 0;
}

int sim_check_compact(const struct blab_sim_config *c, char *err, size_t errlen)
{
	if (c->compact > BLAB_SIM_COMPACT_FULL) {
		SIM_ERR(err, errlen, "compact must be none, merge or full");
		return BLAB_EINVAL;
	}
	return 0;
}

unsigned sim_compact_mode(const struct blab_sim_config *c)
{
	return c->compact == BLAB_SIM_COMPACT_FULL ? BLAB_COMPACT_MIGRATE : BLAB_COMPACT_MERGE;
}

void sim_hi_stats_start(const struct sim_run *run, struct sim_hi_stats *hs)
{
	hs->merge_skipped = run->z->merge_skipped;
	blab_zone_frag_index(run->z, run->c->hi_order, &hs->unusable, &hs->extfrag);
}

void sim_hi_stats_report(const struct sim_hi_stats *hs, struct blab_sim_result *r)
{
	r->hi_attempts = hs->attempts;
	r->hi_success = hs->success;
	r->hi_cycles = hs->cycles;
	r->merge_skipped = hs->merge_skipped;
	r->unusable_index = hs->unusable;
	r->extfrag_index = hs->extfrag;
}

/* One op run to its end on the model machine. Set-up runs alone, so every lock is free;
 * blab_op_step() directly, as the tasks do, rather than blab_alloc() & co., whose debug
 * builds check the whole zone after every op (the loop checks it after the run). */
static int run_op(struct blab_zone *z, struct blab_op *op)
{
	int ret;
	while ((ret = blab_op_step(z, op)) == BLAB_STEP_LOCK)
		;
	return ret;
}

static int alloc0(struct blab_zone *z, uint64_t *pfn)
{
	struct blab_op op;
	int ret;
	blab_op_alloc(&op, 0, 0, BLAB_MT_MOVABLE, 0);
	ret = run_op(z, &op);
	if (ret == 0)
		*pfn = op.pfn;
	return ret;
}

static int free0(struct blab_zone *z, uint64_t pfn)
{
	struct blab_op op;
	blab_op_free(&op, 0, pfn, 0, 0);
	return run_op(z, &op);
}

static int drain_all(struct blab_zone *z)
{
	for (unsigned cpu = 0; cpu < z->cpus; cpu++) {
		struct blab_op op;
		int ret;
		blab_op_drain(&op, cpu);
		if ((ret = run_op(z, &op)) != 0)
			return ret;
	}
	return 0;
}

int sim_fill_and_fragment(struct sim_run *run, struct held_pages *h, uint32_t first,
			  uint32_t keep_every, uint32_t free_pb_every, uint32_t *filled)
{
	struct blab_zone *z = run->z;
	uint32_t n = 0, nfree = 0, *order;
	int ret = 0;

	while (first + n < h->nslots) {
		uint64_t pfn;
		ret = alloc0(z, &pfn);
		if (ret == BLAB_ENOMEM) {
			ret = 0; /* the zone is full */
			break;
		}
		if (ret)
			return ret;
		held_set(h, first + n, pfn);
		n++;
	}
	*filled = n;
	order = malloc((size_t)(n ? n : 1) * sizeof(*order));
	if (!order)
		return BLAB_ENOMEMHOST;
	for (uint32_t i = 0; i < n; i++) {
		uint64_t pfn = idx_to_pfn(z, h->slot_idx[first + i]);
		uint64_t pb = pfn >> z->pageblock_order;
		if (keep_every && (!free_pb_every || pb % free_pb_every) && pfn % keep_every == 0)
			continue; /* a long-lived page */
		order[nfree++] = first + i;
	}
	for (uint32_t i = nfree; i > 1; i--) { /* Fisher-Yates with the run's PRNG */
		uint32_t j = blab_rng_below(&run->rng, i), t = order[i - 1];
		order[i - 1] = order[j];
		order[j] = t;
	}
	for (uint32_t i = 0; i < nfree && !ret; i++) {
		uint32_t slot = order[i];
		ret = free0(z, idx_to_pfn(z, h->slot_idx[slot]));
		held_clear(h, slot);
	}
	free(order);
	if (!ret)
		ret = drain_all(z);
	sim_sync_clocks(run);
	return ret;
}
