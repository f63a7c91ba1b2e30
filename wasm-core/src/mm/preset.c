/*
 * preset.c - the kernel's history as named strategy presets. Each one is a set of the
 * individual switches in struct blab_strategy; a scenario may start from a preset and
 * change any switch.
 */
#include <string.h>
#include "blab.h"

struct preset {
	const char *name;
	const char *describe;
	struct blab_strategy s;
};

/* fields: pcp, pcp_per_mt, pcp_max_order, bulk_free, merge_tail, high_mode, batch_era,
 * watermarks, bulk_rr, free_factor, batch, high, skip_merge, clusters */
static const struct preset presets[] = {
	{"v2.5.44", "no per-cpu lists: every page allocation and free takes zone->lock",
	 {BLAB_PCP_NONE, 0, 0, BLAB_BULK_ONE_PASS, 0, BLAB_HIGH_6BATCH, 0, 0, BLAB_RR_BATCH_FREE, 0, 0, 0, 0, BLAB_CLUSTERS_NONE}},
	{"v2.5.45",
	 "hot/cold per-cpu lists, rmqueue_bulk() refills batch pages under one lock (Morton/Bligh 2002, lwn.net/Articles/14768)",
	 {BLAB_PCP_HOTCOLD, 0, 0, BLAB_BULK_ONE_PASS, 0, BLAB_HIGH_6BATCH, 0, 0, BLAB_RR_BATCH_FREE, 0, 0, 0, 0, BLAB_CLUSTERS_NONE}},
	{"v2.6.25",
	 "one LIFO list per cpu searched by migratetype, hot to the head and cold to the tail (2.6.25 merged hot and cold)",
	 {BLAB_PCP_LIFO, 0, 0, BLAB_BULK_ONE_PASS, 0, BLAB_HIGH_6BATCH, 1, 0, BLAB_RR_BATCH_FREE, 0, 0, 0, 0, BLAB_CLUSTERS_NONE}},
	{"v4.16",
	 "pcp list per migratetype; free_pcppages_bulk() picks and merges in one pass under zone->lock",
	 {BLAB_PCP_LIFO, 1, 0, BLAB_BULK_ONE_PASS, 1, BLAB_HIGH_6BATCH, 1, 0, BLAB_RR_BATCH_FREE, 0, 0, 0, 0, BLAB_CLUSTERS_NONE}},
	{"v4.17-pick",
	 "0a5f4e5b4562 alone: free_pcppages_bulk() picks pages outside zone->lock, merges under it",
	 {BLAB_PCP_LIFO, 1, 0, BLAB_BULK_TWO_PASS, 1, BLAB_HIGH_6BATCH, 1, 0, BLAB_RR_BATCH_FREE, 0, 0, 0, 0, BLAB_CLUSTERS_NONE}},
	{"v4.17",
	 "0a5f4e5b4562 + 97334162e4d7: pick outside the lock and prefetch each buddy (at most batch)",
	 {BLAB_PCP_LIFO, 1, 0, BLAB_BULK_TWO_PASS_PREFETCH, 1, BLAB_HIGH_6BATCH, 1, 0, BLAB_RR_BATCH_FREE, 0, 0, 0, 0, BLAB_CLUSTERS_NONE}},
	{"v5.17",
	 "the state 8b10b465d0e1 started from (seed 002's vanilla 5.17-rc3): two passes with the buddy prefetch, as 4.17, but 5.14+ pcp sizes and order <= 3 lists",
	 {BLAB_PCP_LIFO, 1, 3, BLAB_BULK_TWO_PASS_PREFETCH, 1, BLAB_HIGH_ZONE, 2, 0, BLAB_RR_BATCH_FREE, 1, 0, 0, 0, BLAB_CLUSTERS_NONE}},
	{"v5.18-prefetch",
	 "8b10b465d0e1 alone: single pass with zone->lock taken before selection, prefetch under the lock; order <= 3 pcp, zone_highsize(), 1 MB batch cap",
	 {BLAB_PCP_LIFO, 1, 3, BLAB_BULK_SINGLE_PASS_PREFETCH, 1, BLAB_HIGH_ZONE, 2, 0, BLAB_RR_LIST, 1, 0, 0, 0, BLAB_CLUSTERS_NONE}},
	{"v5.18",
	 "8b10b465d0e1 + 2a791f4412cb: single pass under zone->lock, buddy prefetch removed",
	 {BLAB_PCP_LIFO, 1, 3, BLAB_BULK_SINGLE_PASS, 1, BLAB_HIGH_ZONE, 2, 0, BLAB_RR_LIST, 1, 0, 0, 0, BLAB_CLUSTERS_NONE}},
	/* Aaron Lu's zone->lock RFC v2 (2018-03-20, not merged), on v4.16; docs/skipmerge.md */
	{"lu-rfc-p2",
	 "Lu RFC 2/4 on v4.16: order-0 frees skip merging (merge-skipped), compaction merges them",
	 {BLAB_PCP_LIFO, 1, 0, BLAB_BULK_ONE_PASS, 1, BLAB_HIGH_6BATCH, 1, 0, BLAB_RR_BATCH_FREE, 0, 0, 0, 1, BLAB_CLUSTERS_NONE}},
	{"lu-rfc-p3",
	 "Lu RFC 2/4 + 3/4: rmqueue_bulk() cuts clusters of order-0 pages without touching each struct page",
	 {BLAB_PCP_LIFO, 1, 0, BLAB_BULK_ONE_PASS, 1, BLAB_HIGH_6BATCH, 1, 0, BLAB_RR_BATCH_FREE, 0, 0, 0, 1, BLAB_CLUSTERS_PER_FREE}},
	{"lu-rfc-p4",
	 "Lu RFC 2/4..4/4: + free_pcppages_bulk() keeps clusters up once per bulk free",
	 {BLAB_PCP_LIFO, 1, 0, BLAB_BULK_ONE_PASS, 1, BLAB_HIGH_6BATCH, 1, 0, BLAB_RR_BATCH_FREE, 0, 0, 0, 1, BLAB_CLUSTERS_PER_BULK}},
};

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
