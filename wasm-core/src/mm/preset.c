/*
 * preset.c - the kernel's history as named strategy presets. Each one is a set of the
 * individual switches in struct blab_strategy; a scenario may start from a preset and
 * change any switch.
 */
#include <string.h>
#include "blab.h"

struct preset {
	const char *name;
	const char *title;    /* a few words, for a menu */
	const char *describe; /* one line */
	const char *commit; /* the upstream commits it stands for, or "" (before git, an RFC) */
	struct blab_strategy s;
};

/*
 * One row per kernel. A switch not named is 0: no pcp lists, one pass, 6 * batch, the 2002
 * batch cap, no watermarks, round-robin bulk frees, no free_factor, batch and high from the
 * formulas, no skip-merge, no clusters, expand() keeping the lower half, no THP-sized blocks
 * on the pcp lists.
 */
#define V4_16 .pcp = BLAB_PCP_LIFO, .pcp_per_mt = 1, .merge_tail = 1, .batch_era = 1
#define V5_14_LISTS .pcp = BLAB_PCP_LIFO, .pcp_per_mt = 1, .merge_tail = 1, .pcp_max_order = 3, \
	      .batch_era = 2
#define V5_14 V5_14_LISTS, .high_mode = BLAB_HIGH_ZONE, .free_factor = BLAB_FREE_FACTOR
/* 6.0 on: 5.18's single pass and list order, and pcp->lock */
#define V6_0 V5_14_LISTS, .bulk_free = BLAB_BULK_SINGLE_PASS, .bulk_rr = BLAB_RR_LIST, .pcp_lock = 1
/* 6.7 on: high auto-tuned between high_min and high_max, refills of batch << alloc_factor,
 * drains of free_count, all bounded by CONFIG_PCP_BATCH_SCALE_MAX at its default (52166607ecc9) */
#define V6_7 V6_0, .high_mode = BLAB_HIGH_AUTO, .alloc_factor = 1, .free_factor = BLAB_FREE_COUNT, \
	     .pcp_batch_scale_max = BLAB_PCP_BATCH_SCALE_MAX_DEFAULT
/* 6.10 on: drain_pages_zone() in chunks of batch << 5, pcp->lock taken for each (55f77df7d715);
 * two THP lists, movable and the rest (bf14ed81f571) */
#define V6_10 V6_7, .drain_chunk = 1, .pcp_thp = BLAB_THP_MOVABLE
static const struct preset presets[] = {
	{.name = "v2.5.44", .title = "no pcp lists, every page takes zone->lock",
	 .commit = "",
	 .describe = "no per-cpu lists: every page allocation and free takes zone->lock; the buddy allocator's free_area bitmaps; expand() hands out the top of a block",
	 .s = {.pcp = BLAB_PCP_NONE, .buddy_map = 1, .expand_top = 1}},
	{.name = "v2.5.45", .title = "hot/cold pcp, rmqueue_bulk (2002)",
	 .commit = "",
	 .describe = "hot/cold per-cpu lists, rmqueue_bulk() refills batch pages under one lock (Morton/Bligh 2002, lwn.net/Articles/14768); expand() hands out the top of a block, as 2.5.44",
	 .s = {.pcp = BLAB_PCP_HOTCOLD, .buddy_map = 1, .expand_top = 1}},
	{.name = "v2.6.25", .title = "one LIFO pcp list per CPU",
	 .commit = "",
	 .describe = "one LIFO list per cpu searched by migratetype, hot to the head and cold to the tail (2.6.25 merged hot and cold)",
	 .s = {.pcp = BLAB_PCP_LIFO, .batch_era = 1}},
	{.name = "v4.16", .title = "pcp per migratetype, one-pass bulk free",
	 .commit = "",
	 .describe = "pcp list per migratetype; free_pcppages_bulk() picks and merges in one pass under zone->lock",
	 .s = {V4_16, .bulk_free = BLAB_BULK_ONE_PASS}},
	{.name = "v4.17-pick", .title = "pick outside zone->lock",
	 .commit = "0a5f4e5b4562",
	 .describe = "0a5f4e5b4562 alone: free_pcppages_bulk() picks pages outside zone->lock, merges under it",
	 .s = {V4_16, .bulk_free = BLAB_BULK_TWO_PASS}},
	{.name = "v4.17", .title = "pick outside + prefetch_buddy()",
	 .commit = "0a5f4e5b4562 97334162e4d7",
	 .describe = "0a5f4e5b4562 + 97334162e4d7: pick outside the lock and prefetch each buddy (at most batch)",
	 .s = {V4_16, .bulk_free = BLAB_BULK_TWO_PASS_PREFETCH}},
	{.name = "v5.14", .title = "high from the low watermark, high-order lists",
	 .commit = "b92ca18e8ca5 3b12e7e97938 44042b449872",
	 .describe = "b92ca18e8ca5: high = zone_highsize() (the low watermark over the node's CPUs, at least 4 batches); 3b12e7e97938: drains of batch << free_factor; 44042b449872: pcp lists for orders 1..3 and for THP-sized blocks, one per migratetype; bulk free in two passes with prefetch, as 4.17",
	 .s = {V5_14, .bulk_free = BLAB_BULK_TWO_PASS_PREFETCH, .pcp_thp = BLAB_THP_PER_MT}},
	{.name = "v5.17", .title = "5.14+ pcp sizes, two passes with prefetch",
	 .commit = "",
	 .describe = "the state 8b10b465d0e1 started from (seed 002's vanilla 5.17-rc3): two passes with the buddy prefetch, as 4.17, but 5.14+ pcp sizes, order <= 3 lists and a THP list per migratetype",
	 .s = {V5_14, .bulk_free = BLAB_BULK_TWO_PASS_PREFETCH, .pcp_thp = BLAB_THP_PER_MT}},
	{.name = "v5.18-prefetch", .title = "single pass, prefetch kept",
	 .commit = "8b10b465d0e1",
	 .describe = "8b10b465d0e1 alone: single pass with zone->lock taken before selection, prefetch under the lock; order <= 3 pcp and a THP list per migratetype, as 5.17, zone_highsize(), 1 MB batch cap",
	 .s = {V5_14, .bulk_free = BLAB_BULK_SINGLE_PASS_PREFETCH, .bulk_rr = BLAB_RR_LIST,
	       .pcp_thp = BLAB_THP_PER_MT}},
	{.name = "v5.18", .title = "single pass, prefetch removed",
	 .commit = "8b10b465d0e1 2a791f4412cb f26b3fa04611 5d0a661d808f",
	 .describe = "8b10b465d0e1 + 2a791f4412cb: single pass under zone->lock, buddy prefetch removed; f26b3fa04611: a high-order free while free_factor is up drains the whole list (free_high); 5d0a661d808f: one THP list for every migratetype",
	 .s = {V5_14, .bulk_free = BLAB_BULK_SINGLE_PASS, .bulk_rr = BLAB_RR_LIST,
	       .free_high = BLAB_FREE_HIGH_ALL, .pcp_thp = BLAB_THP_ONE}},
	{.name = "v6.0", .title = "pcp->lock taken with a trylock",
	 .commit = "4b23a68f9536 443c2accd1b6",
	 .describe = "4b23a68f9536: pcp->lock by trylock (busy: an allocation takes one block under zone->lock, a free goes to free_one_page()); 443c2accd1b6: remote drains take the other CPU's pcp->lock; 5.18's single pass and free_high",
	 .s = {V6_0, .high_mode = BLAB_HIGH_ZONE, .free_factor = BLAB_FREE_FACTOR,
	       .free_high = BLAB_FREE_HIGH_ALL, .pcp_thp = BLAB_THP_ONE}},
	{.name = "v6.7", .title = "high auto-tuned between high_min and high_max",
	 .commit = "90b41691b988 51a755c56dc0 52166607ecc9",
	 .describe = "90b41691b988, 51a755c56dc0: high moves between high_min and high_max (refills raise it, decay_pcp_high() lowers it about once a second); refills of batch << alloc_factor up to CONFIG_PCP_BATCH_SCALE_MAX, 5 by default (52166607ecc9); drains of free_count; free_high once free_count >= batch",
	 .s = {V6_7, .free_high = BLAB_FREE_HIGH_BATCH, .pcp_thp = BLAB_THP_ONE}},
	{.name = "v6.16", .title = "free_high only past batch + high_min / 2",
	 .commit = "c544a952ba61 55f77df7d715 bf14ed81f571",
	 .describe = "c544a952ba61: a high-order free drains hard only once free_count >= batch + high_min / 2 (was batch); 6.10's 55f77df7d715: drain_pages_zone() gives a list back batch << 5 pages per pcp->lock hold; 6.10's bf14ed81f571: two THP lists, movable and the rest",
	 .s = {V6_10, .free_high = BLAB_FREE_HIGH_HALF_MIN}},
	{.name = "v6.19", .title = "drains and decays in chunks of batch",
	 .commit = "fc4b909c368f 91e691296646",
	 .describe = "fc4b909c368f: decay_pcp_high() gives back batch pages per free_pcppages_bulk(), pcp->lock taken again for each; 91e691296646: a free's drain frees at most batch pages per zone->lock hold and tries pcp->lock again between chunks (busy: the rest stays)",
	 .s = {V6_10, .free_high = BLAB_FREE_HIGH_HALF_MIN, .bulk_chunk = 1}},
	/* Aaron Lu's zone->lock RFC v2 (2018-03-20, not merged), on the tree it was posted
	 * against: 4.16 with 4.17's two-pass bulk free and buddy prefetch (0a5f4e5b4562,
	 * 97334162e4d7), which its patches 2/4 and 4/4 edit; docs/skipmerge.md */
	{.name = "lu-rfc-p2", .title = "Lu RFC 2018, order-0 frees skip merging",
	 .commit = "",
	 .describe = "Lu RFC 2/4 on 4.17's two-pass bulk free: order-0 frees skip merging (merge-skipped) and prefetch no buddy; compaction merges them",
	 .s = {V4_16, .bulk_free = BLAB_BULK_TWO_PASS_PREFETCH, .skip_merge = 1}},
	{.name = "lu-rfc-p3", .title = "+ rmqueue_bulk() cuts clusters",
	 .commit = "",
	 .describe = "Lu RFC 2/4 + 3/4: rmqueue_bulk() cuts clusters of order-0 pages without touching each struct page",
	 .s = {V4_16, .bulk_free = BLAB_BULK_TWO_PASS_PREFETCH, .skip_merge = 1,
	       .clusters = BLAB_CLUSTERS_PER_FREE}},
	{.name = "lu-rfc-p4", .title = "+ clusters kept up once per bulk free",
	 .commit = "",
	 .describe = "Lu RFC 2/4..4/4: + free_pcppages_bulk() keeps clusters up once per bulk free",
	 .s = {V4_16, .bulk_free = BLAB_BULK_TWO_PASS_PREFETCH, .skip_merge = 1,
	       .clusters = BLAB_CLUSTERS_PER_BULK}},
};
#undef V4_16
#undef V5_14
#undef V5_14_LISTS
#undef V6_0
#undef V6_7
#undef V6_10

#define NPRESETS (sizeof(presets) / sizeof(presets[0]))

int blab_preset(const char *name, struct blab_strategy *out)
{
	if (!name || !out)
		return BLAB_EINVAL;
	for (unsigned i = 0; i < NPRESETS; i++) {
		if (strcmp(presets[i].name, name) == 0) {
			*out = presets[i].s;
			return 0;
		}
	}
	return BLAB_EPRESET;
}

_Static_assert(NPRESETS <= BLAB_PRESETS_MAX, "a set of presets is a 64-bit mask (blab.h)");

unsigned blab_preset_count(void)
{
	return (unsigned)NPRESETS;
}

const char *blab_preset_name(unsigned i)
{
	return i < NPRESETS ? presets[i].name : NULL;
}

const char *blab_preset_describe(unsigned i)
{
	return i < NPRESETS ? presets[i].describe : NULL;
}

const char *blab_preset_title(unsigned i)
{
	return i < NPRESETS ? presets[i].title : NULL;
}

const char *blab_preset_commit(unsigned i)
{
	return i < NPRESETS ? presets[i].commit : NULL;
}
