/* test_pcp.c - per-cpu lists: batch/high formulas, refill, drain, hot/cold, bulk-free passes */
#include "common.h"

static void formulas(void)
{
	/* 24 GB = 6291456 pages */
	CHECK_EQ(blab_zone_batchsize(6291456, 2), 63); /* 4.18+: 1 MB cap */
	CHECK_EQ(blab_zone_batchsize(6291456, 1), 31); /* <= 4.17: 512 KB cap */
	CHECK_EQ(blab_zone_batchsize(6291456, 0), 16); /* 2002: 256 KB / 4 */
	CHECK_EQ(blab_zone_batchsize(1000, 1), 0);     /* tiny zone: rounddown(1) - 1 */
	CHECK_EQ(blab_zone_batchsize(1000, 0), 1);
	CHECK_EQ(blab_zone_batchsize(65536, 1), 15);   /* 64 >> 2 = 16 -> 24 -> 16 - 1 */
	CHECK_EQ(blab_zone_highsize(78, 1, 1), 78);
	CHECK_EQ(blab_zone_highsize(78, 63, 2), 252);
	CHECK_EQ(blab_zone_highsize(100000, 63, 2), 50000);
}

static void defaults(void)
{
	struct blab_pcp_info pi;
	struct blab_zone *z = mkzone("v4.16", 1u << 20, 0, 2, 10, 9); /* 4 GB */
	CHECK(z);
	CHECK_EQ(blab_pcp_info(z, 1, 0, &pi), 0);
	CHECK_EQ(pi.batch, 31);
	CHECK_EQ(pi.high, 186);
	CHECK(pi.present);
	CHECK_EQ(blab_pcp_info(z, 1, 1, &pi), 0);
	CHECK(!pi.present);
	blab_zone_destroy(z);

	z = mkzone("v2.5.45", 1u << 20, 0, 1, 10, 9);
	CHECK(z);
	CHECK_EQ(blab_pcp_info(z, 0, 0, &pi), 0);
	CHECK_EQ(pi.batch, 16);
	CHECK_EQ(pi.low, 32);
	CHECK_EQ(pi.high, 96);
	CHECK_EQ(blab_pcp_info(z, 0, 1, &pi), 0);
	CHECK(pi.present);
	CHECK_EQ(pi.low, 0);
	CHECK_EQ(pi.high, 32);
	blab_zone_destroy(z);
}

static struct blab_zone *zone_bh(const char *preset, uint32_t pages, unsigned cpus, uint32_t batch,
				 uint32_t high)
{
	struct blab_zone_config cfg;
	struct blab_zone *z = NULL;
	blab_zone_config_init(&cfg);
	blab_preset(preset, &cfg.strategy);
	cfg.pages = pages;
	cfg.cpus = (uint16_t)cpus;
	cfg.strategy.batch = batch;
	cfg.strategy.high = high;
	cfg.log_capacity = 1u << 16;
	cfg.log_mask = BLAB_EVC_ALL;
	CHECK_EQ(blab_zone_create(&cfg, &z), 0);
	return z;
}

static void refill_and_drain(void)
{
	const char *presets[] = {"v4.16", "v4.17-pick", "v4.17", "v5.18-prefetch", "v5.18"};
	for (unsigned p = 0; p < 5; p++) {
		struct blab_zone *z = zone_bh(presets[p], 1024, 2, 8, 24);
		uint64_t pfn[40];
		/* first alloc refills batch = 8 pages in one zone->lock hold, hands out one */
		CHECK_EQ(blab_alloc(z, 0, 0, BLAB_MT_MOVABLE, &pfn[0]), 0);
		CHECK_EQ(z->pageset[0].pcp[0].count, 7);
		CHECK_EQ(z->free_pages, 1024 - 8);
		/* rmqueue_bulk appends ascending: the next ones come out in pfn order */
		for (int i = 1; i < 8; i++) {
			CHECK_EQ(blab_alloc(z, 0, 0, BLAB_MT_MOVABLE, &pfn[i]), 0);
			CHECK_EQ(pfn[i], pfn[0] + (uint64_t)i);
		}
		CHECK_EQ(z->pageset[0].pcp[0].count, 0);
		for (int i = 8; i < 40; i++)
			CHECK_EQ(blab_alloc(z, 0, 0, BLAB_MT_MOVABLE, &pfn[i]), 0);
		/* free 24 on cpu 1: the 24th makes count reach high and frees batch */
		for (int i = 0; i < 23; i++)
			CHECK_EQ(blab_free(z, 1, pfn[i], 0), 0);
		CHECK_EQ(z->pageset[1].pcp[0].count, 23);
		CHECK_EQ(blab_free(z, 1, pfn[23], 0), 0);
		CHECK_EQ(z->pageset[1].pcp[0].count, 24 - 8);
		/* LIFO: the page freed last is handed out first */
		{
			uint64_t again;
			CHECK_EQ(blab_alloc(z, 1, 0, BLAB_MT_MOVABLE, &again), 0);
			CHECK_EQ(again, pfn[23]);
			CHECK_EQ(blab_free(z, 1, again, 0), 0);
		}
		/* the cold end went back: the first freed pages are on the buddy lists again */
		CHECK(zone_page(z, pfn[0])->flags & (PG_buddy) || zone_page(z, pfn[0])->flags == 0);
		CHECK(!(zone_page(z, pfn[0])->flags & PG_pcp));
		CHECK(zone_page(z, pfn[22])->flags & PG_pcp);
		CHECK(zone_ok(z));
		CHECK_EQ(blab_drain(z, 1), 0);
		CHECK_EQ(z->pageset[1].pcp[0].count, 0);
		CHECK(zone_ok(z));
		blab_zone_destroy(z);
	}
}

/* step by step: where each bulk-free strategy stops for zone->lock, and what it did first */
static void bulk_free_steps(void)
{
	static const struct {
		const char *preset;
		int picked_before_lock; /* pages already off the pcp when LOCK is returned */
		int prefetches_before_lock;
	} cases[] = {
		{"v4.16", 0, 0},
		{"v4.17-pick", 8, 0},
		{"v4.17", 8, 8},
		{"v5.18-prefetch", 0, 0},
		{"v5.18", 0, 0},
	};
	for (unsigned c = 0; c < 5; c++) {
		struct blab_zone *z = zone_bh(cases[c].preset, 1024, 2, 8, 16);
		uint64_t pfn[32];
		struct blab_op op;
		uint32_t nev, before, prefetches = 0;
		const struct blab_event *ev;
		int ret;

		for (int i = 0; i < 32; i++)
			CHECK_EQ(blab_alloc(z, 0, 0, BLAB_MT_MOVABLE, &pfn[i]), 0);
		for (int i = 0; i < 15; i++)
			CHECK_EQ(blab_free(z, 1, pfn[i], 0), 0);
		blab_log(z, &before);
		blab_op_free(&op, 1, pfn[15], 0, 0);
		ret = blab_op_step(z, &op);
		CHECK_EQ(ret, BLAB_STEP_LOCK);
		CHECK_EQ(z->pageset[1].pcp[0].count, 16u - (uint32_t)cases[c].picked_before_lock);
		ev = blab_log(z, &nev);
		for (uint32_t i = before; i < nev; i++)
			if (ev[i].type == BLAB_EV_PREFETCH)
				prefetches++;
		CHECK_EQ(prefetches, cases[c].prefetches_before_lock);
		/* picked pages are in flight; the checker accepts them */
		CHECK(zone_ok(z));
		/* another cpu holding zone->lock makes the step wait */
		z->machine.lock_owner[BLAB_LOCK_ZONE] = 0;
		CHECK_EQ(blab_op_step(z, &op), BLAB_ELOCKED);
		z->machine.lock_owner[BLAB_LOCK_ZONE] = BLAB_CPU_NONE;
		/* cpu 1 may not start another op meanwhile */
		{
			uint64_t x;
			CHECK_EQ(blab_alloc(z, 1, 0, BLAB_MT_MOVABLE, &x), BLAB_EBUSY);
		}
		CHECK_EQ(blab_op_step(z, &op), BLAB_STEP_DONE);
		CHECK_EQ(z->pageset[1].pcp[0].count, 8);
		CHECK_EQ(z->machine.lock_owner[BLAB_LOCK_ZONE], BLAB_CPU_NONE);
		/* single_pass_prefetch: prefetches happen under the lock */
		if (c == 3) {
			prefetches = 0;
			ev = blab_log(z, &nev);
			for (uint32_t i = before; i < nev; i++)
				if (ev[i].type == BLAB_EV_PREFETCH)
					prefetches++;
			CHECK_EQ(prefetches, 8);
		}
		CHECK(zone_ok(z));
		blab_zone_destroy(z);
	}
}

static void prefetch_limited_to_batch(void)
{
	/* drain of 40 pages with batch 8: 97334162e4d7 prefetches only the first 8 buddies */
	struct blab_zone *z = zone_bh("v4.17", 1024, 1, 8, 1000);
	uint64_t pfn[40];
	uint32_t before, nev, prefetches = 0;
	const struct blab_event *ev;
	for (int i = 0; i < 40; i++)
		CHECK_EQ(blab_alloc(z, 0, 0, BLAB_MT_MOVABLE, &pfn[i]), 0);
	for (int i = 0; i < 40; i++)
		CHECK_EQ(blab_free(z, 0, pfn[i], 0), 0);
	blab_log(z, &before);
	CHECK_EQ(blab_drain(z, 0), 0);
	ev = blab_log(z, &nev);
	for (uint32_t i = before; i < nev; i++)
		if (ev[i].type == BLAB_EV_PREFETCH)
			prefetches++;
	CHECK_EQ(prefetches, 8);
	CHECK(zone_ok(z));
	blab_zone_destroy(z);
}

static void hot_cold(void)
{
	/* 2.5.45: hot low 2b, high 6b; cold low 0, high 2b; b = 4 */
	struct blab_zone *z = zone_bh("v2.5.45", 1024, 1, 4, 0);
	uint64_t pfn[40], c;
	/* hot alloc: count 0 <= low 8 -> refill 4; then count 4 <= 8 -> refill again on next */
	CHECK_EQ(blab_alloc(z, 0, 0, BLAB_MT_MOVABLE, &pfn[0]), 0);
	CHECK_EQ(z->pageset[0].pcp[0].count, 3);
	CHECK_EQ(blab_alloc(z, 0, 0, BLAB_MT_MOVABLE, &pfn[1]), 0);
	CHECK_EQ(z->pageset[0].pcp[0].count, 6);
	/* cold alloc uses the cold list */
	CHECK_EQ(blab_alloc_gfp(z, 0, 0, BLAB_MT_MOVABLE, BLAB_GFP_COLD, &c), 0);
	CHECK_EQ(z->pageset[0].pcp[1].count, 3);
	for (int i = 2; i < 40; i++)
		CHECK_EQ(blab_alloc(z, 0, 0, BLAB_MT_MOVABLE, &pfn[i]), 0);
	CHECK(zone_ok(z));
	CHECK_EQ(blab_drain(z, 0), 0);
	CHECK_EQ(z->pageset[0].pcp[0].count, 0);
	CHECK_EQ(z->pageset[0].pcp[1].count, 0);
	/* free: at count >= high (24) free batch first, then add */
	for (int i = 0; i < 24; i++)
		CHECK_EQ(blab_free(z, 0, pfn[i], 0), 0);
	CHECK_EQ(z->pageset[0].pcp[0].count, 24);
	CHECK_EQ(blab_free(z, 0, pfn[24], 0), 0);
	CHECK_EQ(z->pageset[0].pcp[0].count, 21);
	CHECK_EQ(blab_free_gfp(z, 0, c, 0, BLAB_GFP_COLD), 0);
	CHECK_EQ(z->pageset[0].pcp[1].count, 1);
	CHECK(zone_page(z, c)->flags & PG_cold);
	CHECK(zone_ok(z));
	blab_zone_destroy(z);
}

static void single_list_by_mt(void)
{
	/* 2.6.25: one list; an unmovable alloc skips movable pages on it */
	struct blab_zone *z = zone_bh("v2.6.25", 1024, 1, 4, 100);
	uint64_t a, b;
	CHECK_EQ(blab_alloc(z, 0, 0, BLAB_MT_MOVABLE, &a), 0);
	CHECK_EQ(z->pageset[0].pcp[0].count, 3);
	CHECK_EQ(blab_alloc(z, 0, 0, BLAB_MT_UNMOVABLE, &b), 0);
	/* no unmovable page on the list: refill 4 unmovable ones, take one */
	CHECK_EQ(z->pageset[0].pcp[0].count, 6);
	CHECK_EQ(zone_page(z, b)->flags, PG_alloc);
	/* the new run went in front of the movable pages, in the order taken */
	{
		const struct blab_list *l = &z->pageset[0].pcp[0].lists[0];
		uint32_t i = l->head;
		for (int k = 0; k < 3; k++) {
			CHECK_EQ(zone_page(z, i)->mt, BLAB_MT_UNMOVABLE);
			if (k)
				CHECK(i > zone_page(z, i)->prev);
			i = zone_page(z, i)->next;
		}
		CHECK_EQ(zone_page(z, i)->mt, BLAB_MT_MOVABLE);
	}
	CHECK(zone_ok(z));
	blab_zone_destroy(z);
}

static void high_order_pcp(void)
{
	/* 5.14+: order 3 lives on the pcp too; count is in pages, refill batch >> order */
	struct blab_zone *z = zone_bh("v5.18", 4096, 1, 63, 1000);
	uint64_t pfn;
	CHECK_EQ(blab_alloc(z, 0, 3, BLAB_MT_MOVABLE, &pfn), 0);
	CHECK_EQ(z->pageset[0].pcp[0].count, (63u >> 3) * 8 - 8);
	CHECK_EQ(blab_free(z, 0, pfn, 3), 0);
	CHECK_EQ(z->pageset[0].pcp[0].count, (63u >> 3) * 8);
	CHECK(zone_page(z, pfn)->flags & PG_pcp);
	/* order 4 bypasses the pcp */
	CHECK_EQ(blab_alloc(z, 0, 4, BLAB_MT_MOVABLE, &pfn), 0);
	CHECK_EQ(blab_free(z, 0, pfn, 4), 0);
	CHECK(zone_ok(z));
	blab_zone_destroy(z);
}

static void no_pcp(void)
{
	struct blab_zone *z = zone_bh("v2.5.44", 64, 2, 0, 0);
	uint64_t pfn;
	uint32_t n;
	const struct blab_event *ev;
	int locks = 0;
	CHECK_EQ(blab_alloc(z, 1, 0, BLAB_MT_MOVABLE, &pfn), 0);
	CHECK_EQ(blab_free(z, 1, pfn, 0), 0);
	ev = blab_log(z, &n);
	for (uint32_t i = 0; i < n; i++)
		locks += ev[i].type == BLAB_EV_LOCK_ACQUIRE;
	CHECK_EQ(locks, 2);
	CHECK_EQ(z->free_area[6].nr_free, 1);
	blab_zone_destroy(z);
}

/* which lists free_pcppages_bulk() visits, in order: 4.16 round-robin vs 5.18 list by list */
static void drain_order(void)
{
	static const struct {
		const char *preset;
		const char *want;
	} cases[] = {{"v4.16", "MUUMUM"}, {"v5.18", "UUUMMM"}};
	for (int c = 0; c < 2; c++) {
		struct blab_zone *z = zone_bh(cases[c].preset, 4096, 2, 4, 1000);
		uint64_t u[3], m[3];
		uint32_t before, n;
		const struct blab_event *ev;
		char got[16];
		int k = 0;
		for (int i = 0; i < 3; i++)
			CHECK_EQ(blab_alloc(z, 0, 0, BLAB_MT_UNMOVABLE, &u[i]), 0);
		for (int i = 0; i < 3; i++)
			CHECK_EQ(blab_alloc(z, 0, 0, BLAB_MT_MOVABLE, &m[i]), 0);
		for (int i = 0; i < 3; i++) {
			CHECK_EQ(blab_free(z, 1, u[i], 0), 0);
			CHECK_EQ(blab_free(z, 1, m[i], 0), 0);
		}
		blab_log(z, &before);
		CHECK_EQ(blab_drain(z, 1), 0);
		ev = blab_log(z, &n);
		for (uint32_t i = before; i < n && k < 15; i++)
			if (ev[i].type == BLAB_EV_PCP_DEL)
				got[k++] = ev[i].mt == BLAB_MT_UNMOVABLE ? 'U' : 'M';
		got[k] = 0;
		if (strcmp(got, cases[c].want))
			fprintf(stderr, "  %s drained %s, want %s\n", cases[c].preset, got, cases[c].want);
		CHECK(strcmp(got, cases[c].want) == 0);
		CHECK(zone_ok(z));
		blab_zone_destroy(z);
	}
}

/* 5.14+ nr_pcp_free(): consecutive frees give back more each time, up to high - batch */
static void free_factor(void)
{
	static const struct {
		const char *preset;
		uint32_t want[5];
	} cases[] = {{"v4.16", {8, 8, 8, 8, 8}}, {"v5.18", {8, 16, 32, 56, 56}}};
	for (int c = 0; c < 2; c++) {
		struct blab_zone *z = zone_bh(cases[c].preset, 4096, 2, 8, 64);
		static uint64_t pfn[200];
		uint32_t before, n, k = 0;
		const struct blab_event *ev;
		for (int i = 0; i < 200; i++)
			CHECK_EQ(blab_alloc(z, 0, 0, BLAB_MT_MOVABLE, &pfn[i]), 0);
		blab_log(z, &before);
		for (int i = 0; i < 176; i++)
			CHECK_EQ(blab_free(z, 1, pfn[i], 0), 0);
		ev = blab_log(z, &n);
		for (uint32_t i = before; i < n; i++)
			if (ev[i].type == BLAB_EV_PCP_DRAIN && !(ev[i].flags & BLAB_EVF_END)) {
				if (k < 5)
					CHECK_EQ(ev[i].arg0, cases[c].want[k]);
				k++;
			}
		CHECK_EQ(k, c == 0 ? 15 : 5); /* 4.16: 64, then every 8 frees */
		CHECK(zone_ok(z));
		blab_zone_destroy(z);
	}
}

int main(void)
{
	free_factor();
	drain_order();
	formulas();
	defaults();
	refill_and_drain();
	bulk_free_steps();
	prefetch_limited_to_batch();
	hot_cold();
	single_list_by_mt();
	high_order_pcp();
	no_pcp();
	return harness_report("test_pcp");
}
