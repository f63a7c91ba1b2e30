/*
 * test_snapshot.c - blab_zone_create_snapshot() and the op-script `snapshot` line: the zone
 * holds exactly the snapshot's counts, no two free buddies touch, it can be driven on, and
 * freeing everything gives back the zone memblock would have made; bad input gets its code.
 */
#include <stdio.h>
#include "common.h"

static struct blab_zone_config cfg_of(uint32_t pages, uint64_t start, unsigned cpus, unsigned top)
{
	struct blab_zone_config cfg;
	blab_zone_config_init(&cfg);
	cfg.pages = pages;
	cfg.start_pfn = start;
	cfg.cpus = (uint16_t)cpus;
	cfg.top_order = (uint8_t)top;
	cfg.pageblock_order = (uint8_t)(top < 3 ? top : 3);
	cfg.strategy.batch = 4;
	cfg.strategy.high = 64;
	cfg.log_capacity = 1 << 16;
	return cfg;
}

/* no free block has a free buddy of its own order inside the zone */
static int buddies_apart(const struct blab_zone *z)
{
	for (uint32_t i = 0; i < z->pages; i++) {
		const struct page *p = zone_page(z, i);
		uint64_t pfn = idx_to_pfn(z, i), buddy;
		if (!(p->flags & PG_buddy) || p->order == z->top_order)
			continue;
		buddy = pfn ^ (1ull << p->order);
		if (buddy < z->start_pfn || buddy >= z->start_pfn + z->pages)
			continue;
		const struct page *b = zone_page(z, pfn_to_idx(z, buddy));
		if ((b->flags & PG_buddy) && b->order == p->order)
			return 0;
	}
	return 1;
}

static void layout(void)
{
	const uint32_t pcp[3] = {5, 0, 17};
	struct blab_snapshot snap = {.nr_free = {7, 3, 0, 2, 1, 4}, .pcp_count = pcp};
	struct blab_zone_config cfg = cfg_of(1000, 0x2005, 3, 5);
	struct blab_zone *z = NULL, *ref = NULL;
	struct blab_zone_info info, refinfo;
	uint64_t need = 0, pfn;
	uint32_t free_pages = 0;

	CHECK_EQ(blab_zone_create_snapshot(&cfg, &snap, &z), 0);
	if (!z)
		return;
	CHECK(zone_ok(z));
	CHECK(buddies_apart(z));
	CHECK_EQ(blab_zone_info(z, &info), 0);
	for (unsigned o = 0; o <= 5; o++) {
		CHECK_EQ(info.nr_free[o], snap.nr_free[o]);
		free_pages += snap.nr_free[o] << o;
	}
	CHECK_EQ(info.free_pages, free_pages);
	CHECK_EQ(info.pcp_pages, 22);
	for (unsigned c = 0; c < 3; c++) {
		struct blab_pcp_info pi;
		CHECK_EQ(blab_pcp_info(z, c, 0, &pi), 0);
		CHECK_EQ(pi.count, pcp[c]);
	}
	/* 0x2005 aligns up to 0x2020 for the order-5 slots: 27 + 4*32 + 32 + 2*16 + 3*4 + 7*2 */
	CHECK_EQ(blab_snapshot_pages(&snap, cfg.start_pfn, 5, 3, cfg.pages, &need), 0);
	CHECK_EQ(need, 27 + 128 + 32 + 32 + 12 + 14 + 22);
	/* the log replays to the same state: the first record is ZONE_INIT, none are LOG_FULL */
	{
		uint32_t n;
		const struct blab_event *ev = blab_log(z, &n);
		CHECK(n > 0 && ev[0].type == BLAB_EV_ZONE_INIT);
		CHECK(!blab_log_full(z));
	}
	/* it runs on: an order-0 alloc from cpu 2's list, an order-3 from the buddy lists */
	CHECK_EQ(blab_alloc(z, 2, 0, BLAB_MT_MOVABLE, &pfn), 0);
	CHECK_EQ(z->pageset[2].pcp[0].count, 16);
	CHECK_EQ(blab_alloc(z, 0, 3, BLAB_MT_MOVABLE, &pfn), 0);
	CHECK(zone_ok(z));
	/* free every allocated block and drain: memblock's zone of the same span comes back */
	for (uint32_t i = 0; i < z->pages; i++)
		if (zone_page(z, i)->flags & PG_alloc)
			CHECK_EQ(blab_free(z, 0, idx_to_pfn(z, i), zone_page(z, i)->order), 0);
	CHECK_EQ(blab_drain_all(z), 0);
	CHECK(zone_ok(z));
	CHECK_EQ(blab_zone_create(&cfg, &ref), 0);
	CHECK_EQ(blab_zone_info(z, &info), 0);
	CHECK_EQ(blab_zone_info(ref, &refinfo), 0);
	CHECK_EQ(info.free_pages, cfg.pages);
	for (unsigned o = 0; o <= 5; o++)
		CHECK_EQ(info.nr_free[o], refinfo.nr_free[o]);
	blab_zone_destroy(ref);
	blab_zone_destroy(z);

	/* the smallest zone that holds it is enough; one page less is not */
	cfg.pages = (uint32_t)need;
	CHECK_EQ(blab_zone_create_snapshot(&cfg, &snap, &z), 0);
	CHECK(zone_ok(z));
	blab_zone_destroy(z);
	cfg.pages = (uint32_t)need - 1;
	CHECK_EQ(blab_zone_create_snapshot(&cfg, &snap, &z), BLAB_ESNAPSHOT);
	CHECK(z == NULL);
}

static void bad_input(void)
{
	uint32_t big[BLAB_MAX_CPUS];
	struct blab_snapshot snap = {.nr_free = {1}};
	struct blab_zone_config cfg = cfg_of(64, 0, 2, 4);
	struct blab_zone *z = (struct blab_zone *)&cfg;
	uint64_t need;

	CHECK_EQ(blab_zone_create_snapshot(NULL, &snap, &z), BLAB_EINVAL);
	CHECK_EQ(blab_zone_create_snapshot(&cfg, NULL, &z), BLAB_EINVAL);
	CHECK_EQ(blab_zone_create_snapshot(&cfg, &snap, NULL), BLAB_EINVAL);
	snap.nr_free[5] = 1; /* above top_order 4 */
	CHECK_EQ(blab_zone_create_snapshot(&cfg, &snap, &z), BLAB_EORDER);
	CHECK(z == NULL);
	snap.nr_free[5] = 0;
	snap.nr_free[0] = 0xffffffffu; /* no overflow: simply too many */
	CHECK_EQ(blab_zone_create_snapshot(&cfg, &snap, &z), BLAB_ESNAPSHOT);
	snap.nr_free[0] = 1;
	for (unsigned c = 0; c < BLAB_MAX_CPUS; c++)
		big[c] = 0xffffffffu;
	snap.pcp_count = big;
	CHECK_EQ(blab_zone_create_snapshot(&cfg, &snap, &z), BLAB_ESNAPSHOT);
	big[0] = 3;
	big[1] = 0;
	cfg.strategy.pcp = BLAB_PCP_NONE;
	CHECK_EQ(blab_zone_create_snapshot(&cfg, &snap, &z), BLAB_ESTRATEGY);
	cfg = cfg_of(64, 0, 2, 4);
	cfg.machine = BLAB_MACHINE_MODEL;
	CHECK_EQ(blab_zone_create_snapshot(&cfg, &snap, &z), BLAB_EINVAL);
	cfg = cfg_of(0, 0, 2, 4);
	CHECK_EQ(blab_zone_create_snapshot(&cfg, &snap, &z), BLAB_EINVAL);
	cfg = cfg_of(BLAB_MAX_PAGES + 1, 0, 2, 4);
	CHECK_EQ(blab_zone_create_snapshot(&cfg, &snap, &z), BLAB_ELIMIT);
	cfg = cfg_of(64, 0, BLAB_MAX_CPUS + 1, 4);
	CHECK_EQ(blab_zone_create_snapshot(&cfg, &snap, &z), BLAB_ECPU);
	cfg = cfg_of(64, 0, 2, BLAB_MAX_ORDER_LIMIT + 1);
	CHECK_EQ(blab_zone_create_snapshot(&cfg, &snap, &z), BLAB_EORDER);
	cfg = cfg_of(64, BLAB_MAX_START_PFN - 10, 2, 4);
	CHECK_EQ(blab_zone_create_snapshot(&cfg, &snap, &z), BLAB_ELIMIT);
	CHECK_EQ(blab_snapshot_pages(NULL, 0, 4, 1, 100, &need), BLAB_EINVAL);
	CHECK_EQ(blab_snapshot_pages(&snap, 0, 4, 0, 100, &need), BLAB_EINVAL);
	CHECK_EQ(blab_snapshot_pages(&snap, 0, 11, 1, 100, &need), BLAB_EINVAL);
	CHECK(z == NULL);
}

static void script(void)
{
	static const char *const bad[] = {
		"snapshot nr_free=1,x",            /* not a number */
		"snapshot nr_free=1,,2",           /* an empty column */
		"snapshot nr_free=0,0,0,0,0,1",    /* order 5 > top_order 4 */
		"snapshot nr_free=1,2,3,4,5,6,7,8,9,10,11,12", /* more than 11 orders */
		"snapshot nr_free=16777217",       /* > BLAB_MAX_PAGES */
		"snapshot nr_free=0,0,0,0,9",      /* does not fit 128 pages */
		"snapshot pcp=2:1",                /* cpu out of range */
		"snapshot pcp=1",                  /* not CPU:COUNT */
		"snapshot pcp=0:-1",               /* not a count */
		"snapshot",                        /* nothing to lay out */
		"snapshot nr_free=1 order=3",      /* unknown key */
	};
	FILE *devnull = fopen("/dev/null", "w");
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct blab_script *s = blab_script_new(devnull, devnull);
		CHECK_EQ(blab_script_line(s, "zone pages=128 cpus=2 top_order=4", 1), 0);
		if (blab_script_line(s, bad[i], 2) == 0)
			harness_fail(__FILE__, __LINE__, bad[i], "accepted");
		/* a refused snapshot leaves the zone its `zone` line made */
		CHECK_EQ(blab_script_zone(s)->free_pages, 128);
		blab_script_free(s);
	}
	{
		struct blab_script *s = blab_script_new(devnull, devnull);
		CHECK(blab_script_line(s, "snapshot nr_free=1", 1) != 0); /* no zone yet */
		CHECK_EQ(blab_script_line(s, "zone pages=128 cpus=2 top_order=4", 2), 0);
		CHECK_EQ(blab_script_line(s, "snapshot nr_free=3,1 pcp=1:4", 3), 0);
		CHECK_EQ(blab_script_line(s, "snapshot pcp=0:2", 4), 0); /* adds, keeps nr_free */
		CHECK_EQ(blab_script_zone(s)->free_pages, 5);
		CHECK_EQ(blab_script_zone(s)->pcp_pages, 6);
		CHECK_EQ(blab_script_line(s, "alloc order=0 cpu=1", 5), 0);
		CHECK_EQ(blab_script_zone(s)->pcp_pages, 5);
		CHECK(blab_script_line(s, "snapshot nr_free=1", 6) != 0); /* after an op */
		CHECK(zone_ok(blab_script_zone(s)));
		blab_script_free(s);
	}
	{
		/* a refused line changes nothing: its pcp counts are not kept for the next one */
		struct blab_script *s = blab_script_new(devnull, devnull);
		CHECK_EQ(blab_script_line(s, "zone pages=64 cpus=2 top_order=4", 1), 0);
		CHECK(blab_script_line(s, "snapshot nr_free=0,0,0,0,3 pcp=1:60", 2) != 0);
		CHECK_EQ(blab_script_line(s, "snapshot nr_free=0,0,0,0,3", 3), 0);
		CHECK_EQ(blab_script_zone(s)->pcp_pages, 0);
		CHECK_EQ(blab_script_zone(s)->free_pages, 48);
		CHECK(zone_ok(blab_script_zone(s)));
		blab_script_free(s);
	}
	fclose(devnull);
}

int main(void)
{
	layout();
	bad_input();
	script();
	return harness_report("test_snapshot");
}
