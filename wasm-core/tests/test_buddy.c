/* test_buddy.c - the buddy allocator: boot layout, expand, merge, tail placement, fallback */
#include "common.h"

static void boot_layout(void)
{
	/* 1000 pages at pfn 0: 512+256+128+64+32+8 */
	struct blab_zone *z = mkzone("v2.5.44", 1000, 0, 1, 10, 9);
	static const uint32_t want[11] = {0, 0, 0, 1, 0, 1, 1, 1, 1, 1, 0};
	CHECK(z);
	for (int o = 0; o <= 10; o++)
		CHECK_EQ(z->free_area[o].nr_free, want[o]);
	CHECK(zone_ok(z));
	blab_zone_destroy(z);

	/* an odd start: pfn 5..20 -> 5(0) 6(1) 8(3) 16(2) 20(0) */
	z = mkzone("v2.5.44", 16, 5, 1, 10, 9);
	CHECK(z);
	CHECK_EQ(z->free_area[0].nr_free, 2);
	CHECK_EQ(z->free_area[1].nr_free, 1);
	CHECK_EQ(z->free_area[2].nr_free, 1);
	CHECK_EQ(z->free_area[3].nr_free, 1);
	CHECK(zone_ok(z));
	blab_zone_destroy(z);
}

static void expand_and_merge(void)
{
	/* 16 pages, no pcp, the modern expand(): an order-0 alloc splits 16 -> 8+4+2+1+1 */
	struct blab_zone *z = mkzone_no_pcp("v4.16", 16);
	uint64_t pfn, pfn2;
	CHECK(z);
	CHECK_EQ(blab_alloc(z, 0, 0, BLAB_MT_MOVABLE, &pfn), 0);
	CHECK_EQ(pfn, 0);
	for (int o = 0; o < 4; o++)
		CHECK_EQ(z->free_area[o].nr_free, 1);
	CHECK_EQ(z->free_area[4].nr_free, 0);
	/* upper halves: 8 (order 3), 4 (2), 2 (1), 1 (0) */
	CHECK_EQ(z->free_area[3].free_list[BLAB_MT_MOVABLE].head, 8);
	CHECK_EQ(z->free_area[2].free_list[BLAB_MT_MOVABLE].head, 4);
	CHECK_EQ(z->free_area[1].free_list[BLAB_MT_MOVABLE].head, 2);
	CHECK_EQ(z->free_area[0].free_list[BLAB_MT_MOVABLE].head, 1);
	/* the next order-0 alloc takes pfn 1, its buddy */
	CHECK_EQ(blab_alloc(z, 0, 0, BLAB_MT_MOVABLE, &pfn2), 0);
	CHECK_EQ(pfn2, 1);
	CHECK(zone_ok(z));
	/* freeing both merges all the way back up */
	CHECK_EQ(blab_free(z, 0, 0, 0), 0);
	CHECK_EQ(z->free_area[0].nr_free, 1);
	CHECK_EQ(blab_free(z, 0, 1, 0), 0);
	CHECK_EQ(z->free_area[4].nr_free, 1);
	CHECK_EQ(z->free_pages, 16);
	CHECK(zone_ok(z));
	blab_zone_destroy(z);
}

/*
 * 2.4/2.5's expand() lists the lower half of each split and goes on with the upper one
 * (expand_top): an order-0 page from a lone order-3 block is its last pfn, and the next
 * ones walk down; since 2.6 the upper half is listed and the first pfn handed out.
 */
static void expand_top_half(void)
{
	static const char *const presets[] = {"v2.5.44", "v2.5.45", "v2.6.25", "v4.16"};
	for (unsigned i = 0; i < 4; i++) {
		struct blab_zone_config cfg;
		struct blab_zone *z;
		const struct blab_event *ev;
		uint32_t n, splits = 0;
		uint64_t pfn;
		int top = i < 2;
		blab_zone_config_init(&cfg);
		CHECK_EQ(blab_preset(presets[i], &cfg.strategy), 0);
		CHECK_EQ(cfg.strategy.expand_top, top);
		cfg.strategy.pcp = BLAB_PCP_NONE; /* straight to __rmqueue() */
		cfg.pages = 8;
		cfg.start_pfn = 0x20;
		cfg.top_order = 3;
		cfg.pageblock_order = 3;
		cfg.log_capacity = 256;
		cfg.log_mask = BLAB_EVC_STATE | BLAB_EVC_EXPLAIN;
		CHECK_EQ(blab_zone_create(&cfg, &z), 0);
		blab_log_clear(z);
		CHECK_EQ(blab_alloc(z, 0, 0, BLAB_MT_MOVABLE, &pfn), 0);
		CHECK_EQ(pfn, top ? 0x27 : 0x20);
		/* the halves left free: 2.5 the lower ones (0, 4, 6), 2.6+ the upper (4, 2, 1) */
		CHECK_EQ(z->free_area[2].free_list[BLAB_MT_MOVABLE].head, top ? 0 : 4);
		CHECK_EQ(z->free_area[1].free_list[BLAB_MT_MOVABLE].head, top ? 4 : 2);
		CHECK_EQ(z->free_area[0].free_list[BLAB_MT_MOVABLE].head, top ? 6 : 1);
		/* each SPLIT says which half it lists; the BUDDY_ADD after it is that half */
		ev = blab_log(z, &n);
		for (uint32_t k = 0; k + 1 < n; k++) {
			uint64_t listed;
			if (ev[k].type != BLAB_EV_SPLIT)
				continue;
			splits++;
			CHECK_EQ((ev[k].flags & BLAB_EVF_SPLIT_TOP) != 0, top);
			listed = ev[k].pfn + (top ? 0 : 1ull << ev[k].order);
			CHECK_EQ(ev[k + 1].type, BLAB_EV_BUDDY_ADD);
			CHECK_EQ(ev[k + 1].pfn, listed);
			CHECK_EQ(ev[k + 1].order, ev[k].order);
		}
		CHECK_EQ(splits, 3);
		/* the rest of the block: 0x26 down to 0x20 on 2.5, 0x21 up to 0x27 since */
		for (uint64_t k = 1; k < 8; k++) {
			CHECK_EQ(blab_alloc(z, 0, 0, BLAB_MT_MOVABLE, &pfn), 0);
			CHECK_EQ(pfn, top ? 0x27 - k : 0x20 + k);
		}
		CHECK(zone_ok(z));
		blab_zone_destroy(z);
	}
}

static void buddy_outside_zone(void)
{
	/* pages 1..3: pfn 1 (order 0) has its buddy pfn 0 outside: never merges */
	struct blab_zone *z = mkzone("v2.5.44", 3, 1, 1, 10, 9);
	uint64_t pfn;
	CHECK(z);
	CHECK_EQ(z->free_area[0].nr_free, 1);
	CHECK_EQ(z->free_area[1].nr_free, 1);
	CHECK_EQ(blab_alloc(z, 0, 0, BLAB_MT_MOVABLE, &pfn), 0);
	CHECK_EQ(pfn, 1);
	CHECK_EQ(blab_free(z, 0, 1, 0), 0);
	CHECK_EQ(z->free_area[0].nr_free, 1);
	CHECK(zone_ok(z));
	blab_zone_destroy(z);
}

static void tail_placement(void)
{
	/*
	 * 8 pages, orders 0..3. Allocate all eight at order 0 (pfn 0..7 in turn), then free
	 * 2 and 3 (they merge into order 1 at 2), then 5 (its buddy 4 is allocated, and so is
	 * the order-1 block 6..7 one order up: head), then 1 (its buddy 0 is allocated, but
	 * one order up 2..3 is free: a merge is likely soon, so buddy_merge_likely() puts it
	 * at the tail).
	 */
	for (int mt = 0; mt < 2; mt++) {
		struct blab_zone_config cfg;
		struct blab_zone *z;
		uint64_t pfn;
		blab_zone_config_init(&cfg);
		blab_preset("v4.16", &cfg.strategy);
		cfg.strategy.pcp = BLAB_PCP_NONE;
		cfg.strategy.merge_tail = (uint8_t)mt;
		cfg.pages = 8;
		cfg.top_order = 3;
		cfg.pageblock_order = 3;
		CHECK_EQ(blab_zone_create(&cfg, &z), 0);
		for (uint64_t i = 0; i < 8; i++) {
			CHECK_EQ(blab_alloc(z, 0, 0, BLAB_MT_MOVABLE, &pfn), 0);
			CHECK_EQ(pfn, i);
		}
		CHECK_EQ(blab_free(z, 0, 2, 0), 0);
		CHECK_EQ(blab_free(z, 0, 3, 0), 0);
		CHECK_EQ(z->free_area[1].nr_free, 1);
		CHECK_EQ(blab_free(z, 0, 5, 0), 0);
		CHECK_EQ(blab_free(z, 0, 1, 0), 0);
		CHECK_EQ(z->free_area[0].nr_free, 2);
		if (mt) {
			CHECK_EQ(z->free_area[0].free_list[BLAB_MT_MOVABLE].head, 5);
			CHECK_EQ(z->free_area[0].free_list[BLAB_MT_MOVABLE].tail, 1);
		} else {
			CHECK_EQ(z->free_area[0].free_list[BLAB_MT_MOVABLE].head, 1);
		}
		CHECK(zone_ok(z));
		blab_zone_destroy(z);
	}
}

static void fallback_steals(void)
{
	/* all pageblocks start MOVABLE: an UNMOVABLE request must steal */
	struct blab_zone *z = mkzone("v4.16", 64, 0, 1, 6, 3);
	uint64_t pfn;
	CHECK(z);
	z->s.pcp = BLAB_PCP_NONE; /* direct buddy path, keeps the arithmetic simple */
	CHECK_EQ(blab_alloc(z, 0, 0, BLAB_MT_UNMOVABLE, &pfn), 0);
	/* the largest movable block (order 6, whole zone) is claimed: every pageblock flips */
	for (uint32_t b = 0; b < z->nr_pageblocks; b++)
		CHECK_EQ(z->pageblock_mt[b], BLAB_MT_UNMOVABLE);
	CHECK(zone_ok(z));
	/* a movable request now steals back the largest block (order 5 at 32: >= pbo) */
	{
		uint64_t p2;
		CHECK_EQ(blab_alloc(z, 0, 0, BLAB_MT_MOVABLE, &p2), 0);
		CHECK_EQ(p2, 32);
		CHECK_EQ(z->pageblock_mt[p2 >> 3], BLAB_MT_MOVABLE);
		CHECK_EQ(z->pageblock_mt[0], BLAB_MT_UNMOVABLE);
	}
	CHECK(zone_ok(z));
	blab_zone_destroy(z);
}

static void enomem(void)
{
	struct blab_zone *z = mkzone("v2.5.44", 5, 0, 1, 10, 9);
	uint64_t pfn;
	CHECK(z);
	CHECK_EQ(blab_alloc(z, 0, 3, BLAB_MT_MOVABLE, &pfn), BLAB_ENOMEM);
	CHECK_EQ(blab_alloc(z, 0, 2, BLAB_MT_MOVABLE, &pfn), 0);
	CHECK_EQ(blab_alloc(z, 0, 0, BLAB_MT_MOVABLE, &pfn), 0);
	CHECK_EQ(pfn, 4);
	CHECK_EQ(blab_alloc(z, 0, 0, BLAB_MT_MOVABLE, &pfn), BLAB_ENOMEM);
	CHECK(zone_ok(z));
	blab_zone_destroy(z);
}

static void watermarks(void)
{
	struct blab_zone_info info;
	struct blab_zone *z = mkzone("v5.18", 1000, 0, 1, 10, 9);
	CHECK(z);
	CHECK_EQ(blab_zone_info(z, &info), 0);
	/* min_free_kbytes = sqrt(4000 * 16) = 252 -> min 63; gap max(15, 1) */
	CHECK_EQ(info.min_free_kbytes, 252);
	CHECK_EQ(info.wmark_min, 63);
	CHECK_EQ(info.wmark_low, 78);
	CHECK_EQ(info.wmark_high, 93);
	blab_zone_destroy(z);
	CHECK_EQ(blab_min_free_kbytes(6291456), 20066); /* 24 GB: int_sqrt(25165824 * 16) */
	CHECK_EQ(blab_min_free_kbytes(10), 128);
	CHECK_EQ(blab_min_free_kbytes(1ull << 40), 262144);
}

static void watermark_enforced(void)
{
	struct blab_zone_config cfg;
	struct blab_zone *z;
	uint64_t pfn;
	int n = 0, err;
	blab_zone_config_init(&cfg);
	blab_preset("v2.5.44", &cfg.strategy);
	cfg.strategy.watermarks = 1;
	cfg.pages = 1000;
	CHECK_EQ(blab_zone_create(&cfg, &z), 0);
	while ((err = blab_alloc(z, 0, 0, BLAB_MT_MOVABLE, &pfn)) == 0)
		n++;
	CHECK_EQ(err, BLAB_EWMARK);
	CHECK_EQ(n, 1000 - 78);
	blab_zone_destroy(z);
}

/* MERGE events name the buddy: pfn ^ (1 << order), relative to the zone start */
static void buddy_pfn(void)
{
	struct blab_zone_config cfg;
	struct blab_zone *z;
	uint64_t pfn[16];
	const struct blab_event *ev;
	uint32_t n, merges = 0;

	blab_zone_config_init(&cfg);
	blab_preset("v2.5.44", &cfg.strategy);
	cfg.pages = 16;
	cfg.start_pfn = 0x40; /* aligned to 16: one order-4 block */
	cfg.top_order = 4;
	cfg.pageblock_order = 4;
	cfg.log_capacity = 4096;
	cfg.log_mask = BLAB_EVC_ALL;
	CHECK_EQ(blab_zone_create(&cfg, &z), 0);
	for (int i = 0; i < 16; i++)
		CHECK_EQ(blab_alloc(z, 0, 0, BLAB_MT_MOVABLE, &pfn[i]), 0);
	blab_log_clear(z);
	for (int i = 15; i >= 0; i--)
		CHECK_EQ(blab_free(z, 0, pfn[i], 0), 0);
	ev = blab_log(z, &n);
	for (uint32_t i = 0; i < n; i++) {
		if (ev[i].type != BLAB_EV_MERGE)
			continue;
		merges++;
		CHECK_EQ(ev[i].arg0 + 0x40, ev[i].pfn ^ (1ull << ev[i].order));
	}
	CHECK_EQ(merges, 15); /* 8 + 4 + 2 + 1 */
	CHECK_EQ(z->free_area[4].nr_free, 1);
	blab_zone_destroy(z);
}

int main(void)
{
	buddy_pfn();
	boot_layout();
	expand_and_merge();
	expand_top_half();
	buddy_outside_zone();
	tail_placement();
	fallback_steals();
	enomem();
	watermarks();
	watermark_enforced();
	return harness_report("test_buddy");
}
