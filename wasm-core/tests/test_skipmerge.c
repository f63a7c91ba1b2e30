/*
 * test_skipmerge.c - Lu RFC skip-merge and clusters on the plain machine: order-0 frees stay
 * unmerged and flagged, the checker accepts that and nothing else, clusters refill the pcp
 * list in one cut, the fragmentation indices follow mm/vmstat.c, and the entry points reject
 * bad arguments.
 */
#include "common.h"

static void presets(void)
{
	struct blab_strategy s;
	CHECK_EQ(blab_preset("lu-rfc-p2", &s), 0);
	CHECK_EQ(s.skip_merge, 1);
	CHECK_EQ(s.clusters, BLAB_CLUSTERS_NONE);
	CHECK_EQ(blab_preset("lu-rfc-p4", &s), 0);
	CHECK_EQ(s.skip_merge, 1);
	CHECK_EQ(s.clusters, BLAB_CLUSTERS_PER_BULK);
	/* the RFC's tree: 4.17's two-pass bulk free with the buddy prefetch, which 2/4 edits */
	for (unsigned i = 2; i <= 4; i++) {
		char name[16];
		snprintf(name, sizeof(name), "lu-rfc-p%u", i);
		CHECK_EQ(blab_preset(name, &s), 0);
		CHECK_EQ(s.bulk_free, BLAB_BULK_TWO_PASS_PREFETCH);
	}
	CHECK_EQ(blab_preset("v4.16", &s), 0);
	CHECK_EQ(s.skip_merge, 0);
}

/* four order-0 frees: merged to one order-2 block by v4.16, four flagged pages by the RFC */
static void frees_skip_merging(void)
{
	const char *names[2] = {"v4.16", "lu-rfc-p2"};
	for (int k = 0; k < 2; k++) {
		struct blab_zone *z = mkzone_no_pcp(names[k], 16);
		uint64_t pfn[4];
		uint32_t skipped = 99;
		CHECK(z);
		if (!z)
			return;
		for (int i = 0; i < 4; i++)
			CHECK_EQ(blab_alloc(z, 0, 0, BLAB_MT_MOVABLE, &pfn[i]), 0);
		for (int i = 0; i < 4; i++)
			CHECK_EQ(blab_free(z, 0, pfn[i], 0), 0);
		CHECK(zone_ok(z));
		CHECK_EQ(blab_merge_skipped(z, &skipped), 0);
		if (k == 0) {
			CHECK_EQ(z->free_area[4].nr_free, 1); /* all merged back */
			CHECK_EQ(skipped, 0);
		} else {
			CHECK_EQ(z->free_area[0].nr_free, 4);
			CHECK_EQ(skipped, 4);
			for (int i = 0; i < 4; i++)
				CHECK_EQ(zone_page(z, pfn_to_idx(z, pfn[i]))->flags,
					 PG_buddy | PG_merge_skipped);
		}
		/* an order-1 free still merges with a merge-skipped buddy */
		blab_zone_destroy(z);
	}
}

/* the checker: merge-skipped pages are fine at order 0, a lie about them is not */
static void checker(void)
{
	struct blab_zone *z = mkzone_no_pcp("lu-rfc-p2", 16);
	uint64_t a, b;
	char msg[256];
	CHECK(z);
	if (!z)
		return;
	CHECK_EQ(blab_alloc(z, 0, 0, BLAB_MT_MOVABLE, &a), 0);
	CHECK_EQ(blab_alloc(z, 0, 0, BLAB_MT_MOVABLE, &b), 0);
	CHECK_EQ(blab_free(z, 0, a, 0), 0);
	CHECK_EQ(blab_free(z, 0, b, 0), 0);
	CHECK(zone_ok(z)); /* two free buddies of order 0 left unmerged: allowed */
	z->merge_skipped++;
	CHECK_EQ(blab_check(z, msg, sizeof(msg)), BLAB_ECHECK);
	CHECK(strstr(msg, "merge-skipped counter") != NULL);
	z->merge_skipped--;
	/* both unflagged: then they must have merged */
	zone_page(z, pfn_to_idx(z, a))->flags = PG_buddy;
	zone_page(z, pfn_to_idx(z, b))->flags = PG_buddy;
	z->merge_skipped -= 2;
	CHECK_EQ(blab_check(z, msg, sizeof(msg)), BLAB_ECHECK);
	CHECK(strstr(msg, "not merged") != NULL);
	zone_page(z, pfn_to_idx(z, a))->flags = PG_buddy | PG_merge_skipped;
	zone_page(z, pfn_to_idx(z, b))->flags = PG_buddy | PG_merge_skipped;
	z->merge_skipped += 2;
	zone_page(z, pfn_to_idx(z, a))->order = 1; /* merge-skipped above order 0 is a lie */
	CHECK_EQ(blab_check(z, msg, sizeof(msg)), BLAB_ECHECK);
	zone_page(z, pfn_to_idx(z, a))->order = 0;
	CHECK(zone_ok(z));
	blab_zone_destroy(z);
}

struct count_sink {
	uint32_t cluster, cluster_pages, skipped_adds;
};

static void count(void *ctx, const struct blab_event *e)
{
	struct count_sink *c = ctx;
	if (e->type == BLAB_EV_RMQUEUE_CLUSTER) {
		c->cluster++;
		c->cluster_pages += e->arg0;
	}
	if (e->type == BLAB_EV_BUDDY_ADD && (e->flags & BLAB_EVF_MERGE_SKIPPED))
		c->skipped_adds++;
}

/* with clusters, a refill cuts the order-0 list once; the pages come out in list order */
static void clusters_refill(void)
{
	struct blab_zone_config cfg;
	struct blab_zone *z = NULL;
	struct count_sink cs = {0, 0, 0};
	uint64_t pfn[8], got;

	blab_zone_config_init(&cfg);
	CHECK_EQ(blab_preset("lu-rfc-p4", &cfg.strategy), 0);
	cfg.pages = 64;
	cfg.top_order = 4;
	cfg.pageblock_order = 3;
	cfg.strategy.batch = 4;
	cfg.strategy.high = 8;
	cfg.log_mask = BLAB_EVC_ALL;
	cfg.sink = count;
	cfg.sink_ctx = &cs;
	CHECK_EQ(blab_zone_create(&cfg, &z), 0);
	if (!z)
		return;
	for (int i = 0; i < 8; i++)
		CHECK_EQ(blab_alloc(z, 0, 0, BLAB_MT_MOVABLE, &pfn[i]), 0);
	CHECK_EQ(cs.cluster, 0); /* nothing on the order-0 list yet: split as always */
	for (int i = 0; i < 8; i++)
		CHECK_EQ(blab_free(z, 0, pfn[i], 0), 0);
	CHECK_EQ(blab_drain_all(z), 0);
	CHECK_EQ(cs.skipped_adds, 8);
	CHECK_EQ(z->free_area[0].nr_free, 8);
	CHECK(zone_ok(z));
	CHECK_EQ(blab_alloc(z, 0, 0, BLAB_MT_MOVABLE, &got), 0);
	CHECK_EQ(cs.cluster, 1);
	CHECK_EQ(cs.cluster_pages, 4);
	CHECK_EQ(z->free_area[0].nr_free, 4);
	CHECK_EQ(z->merge_skipped, 4);
	CHECK_EQ(z->pageset[0].pcp[0].count, 3);
	CHECK(zone_ok(z));
	blab_zone_destroy(z);
}

/* mm/vmstat.c by hand: nr_free = {4, 0, 1, 1, 0}: 16 free pages in 6 blocks */
static void fragindex(void)
{
	uint32_t nr[5] = {4, 0, 1, 1, 0};
	int32_t un, ex;
	CHECK_EQ(blab_frag_index(nr, 4, 0, &un, &ex), 0);
	CHECK_EQ(un, 0);
	CHECK_EQ(ex, -1000);
	CHECK_EQ(blab_frag_index(nr, 4, 3, &un, &ex), 0);
	CHECK_EQ(un, 500); /* 8 of 16 pages sit in blocks below order 3 */
	CHECK_EQ(ex, -1000);
	CHECK_EQ(blab_frag_index(nr, 4, 4, &un, &ex), 0);
	CHECK_EQ(un, 1000);
	/* 1000 - (1000 + 16000 / 16) / 6 = 1000 - 333 */
	CHECK_EQ(ex, 667);
	{
		uint32_t none[5] = {0, 0, 0, 0, 0};
		CHECK_EQ(blab_frag_index(none, 4, 2, &un, &ex), 0);
		CHECK_EQ(un, 1000);
		CHECK_EQ(ex, 0);
	}
	{
		/* 28 single pages, order 3 wanted: 1000 - (1000 + 3500) / 28 = 840 */
		uint32_t ones[5] = {28, 0, 0, 0, 0};
		CHECK_EQ(blab_frag_index(ones, 4, 3, &un, &ex), 0);
		CHECK_EQ(ex, 840);
	}
	CHECK_EQ(blab_frag_index(NULL, 4, 0, &un, &ex), BLAB_EINVAL);
	CHECK_EQ(blab_frag_index(nr, 4, 5, &un, &ex), BLAB_EORDER);
	CHECK_EQ(blab_frag_index(nr, 11, 0, &un, &ex), BLAB_EORDER);
	CHECK_EQ(blab_frag_index(nr, 4, 0, NULL, &ex), BLAB_EINVAL);
	CHECK_EQ(blab_zone_frag_index(NULL, 0, &un, &ex), BLAB_EINVAL);
}

static void bad_arguments(void)
{
	struct blab_zone_config cfg;
	struct blab_zone *z = NULL;
	uint32_t n;

	blab_zone_config_init(&cfg);
	cfg.pages = 64;
	cfg.strategy.skip_merge = 2;
	CHECK_EQ(blab_zone_create(&cfg, &z), BLAB_ESTRATEGY);
	cfg.strategy.skip_merge = 1;
	cfg.strategy.clusters = 3;
	CHECK_EQ(blab_zone_create(&cfg, &z), BLAB_ESTRATEGY);
	CHECK_EQ(blab_merge_skipped(NULL, &n), BLAB_EINVAL);
}

int main(void)
{
	presets();
	frees_skip_merging();
	checker();
	clusters_refill();
	fragindex();
	bad_arguments();
	return harness_report("test_skipmerge");
}
