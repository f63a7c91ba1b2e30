/* test_errors.c - every entry point rejects bad input with its own error code */
#include "common.h"

static void strerror_distinct(void)
{
	for (int a = 0; a >= BLAB_EHOSTMEM; a--) {
		CHECK(strcmp(blab_strerror(a), "unknown error") != 0);
		for (int b = a - 1; b >= BLAB_EHOSTMEM; b--)
			CHECK(strcmp(blab_strerror(a), blab_strerror(b)) != 0);
	}
	CHECK(strcmp(blab_strerror(-999), "unknown error") == 0);
	CHECK(strcmp(blab_strerror(1), "unknown error") == 0);
}

static void zone_errors(void)
{
	struct blab_zone_config cfg;
	struct blab_zone *z;

	CHECK_EQ(blab_zone_create(NULL, &z), BLAB_EINVAL);
	blab_zone_config_init(&cfg);
	CHECK_EQ(blab_zone_create(&cfg, NULL), BLAB_EINVAL);
	CHECK_EQ(blab_zone_create(&cfg, &z), BLAB_EINVAL); /* 0 pages */
	cfg.pages = BLAB_MAX_PAGES + 1;
	CHECK_EQ(blab_zone_create(&cfg, &z), BLAB_ELIMIT);
	cfg.pages = 10;
	cfg.start_pfn = BLAB_MAX_START_PFN - 5;
	CHECK_EQ(blab_zone_create(&cfg, &z), BLAB_ELIMIT);
	cfg.start_pfn = 0;
	cfg.cpus = 257;
	CHECK_EQ(blab_zone_create(&cfg, &z), BLAB_ECPU);
	cfg.cpus = 256;
	cfg.top_order = 11;
	CHECK_EQ(blab_zone_create(&cfg, &z), BLAB_EORDER);
	cfg.top_order = 4;
	cfg.pageblock_order = 5;
	CHECK_EQ(blab_zone_create(&cfg, &z), BLAB_EORDER);
	cfg.pageblock_order = 0xff;
	cfg.strategy.pcp = 7;
	CHECK_EQ(blab_zone_create(&cfg, &z), BLAB_ESTRATEGY);
	cfg.strategy.pcp = BLAB_PCP_HOTCOLD;
	cfg.strategy.pcp_max_order = 3;
	CHECK_EQ(blab_zone_create(&cfg, &z), BLAB_ESTRATEGY);
	cfg.strategy.pcp = BLAB_PCP_LIFO;
	cfg.strategy.pcp_max_order = 4;
	CHECK_EQ(blab_zone_create(&cfg, &z), BLAB_ESTRATEGY);
	cfg.strategy.pcp_max_order = 0;
	/* the 0|1 switches (2002's expand_top, 6.10's drain_chunk among them) refuse 2 */
	cfg.strategy.expand_top = 2;
	CHECK_EQ(blab_zone_create(&cfg, &z), BLAB_ESTRATEGY);
	cfg.strategy.expand_top = 1;
	cfg.strategy.drain_chunk = 2;
	CHECK_EQ(blab_zone_create(&cfg, &z), BLAB_ESTRATEGY);
	cfg.strategy.expand_top = 0;
	cfg.strategy.drain_chunk = 0;
	/* THP lists: four kinds, and only beside per-migratetype LIFO lists */
	cfg.strategy.pcp_thp = BLAB_THP_MOVABLE + 1;
	CHECK_EQ(blab_zone_create(&cfg, &z), BLAB_ESTRATEGY);
	{
		uint8_t per_mt = cfg.strategy.pcp_per_mt;
		cfg.strategy.pcp_thp = BLAB_THP_ONE;
		cfg.strategy.pcp_per_mt = 0; /* 2.6.25's one shared list */
		CHECK_EQ(blab_zone_create(&cfg, &z), BLAB_ESTRATEGY);
		cfg.strategy.pcp_per_mt = 1;
		cfg.strategy.pcp = BLAB_PCP_HOTCOLD;
		CHECK_EQ(blab_zone_create(&cfg, &z), BLAB_ESTRATEGY);
		cfg.strategy.pcp = BLAB_PCP_LIFO;
		cfg.strategy.pcp_per_mt = per_mt;
		cfg.strategy.pcp_thp = BLAB_THP_NONE;
	}
	cfg.machine = 9;
	CHECK_EQ(blab_zone_create(&cfg, &z), BLAB_EINVAL);
	cfg.machine = BLAB_MACHINE_PLAIN;
	cfg.log_capacity = BLAB_MAX_LOG_EVENTS + 1;
	CHECK_EQ(blab_zone_create(&cfg, &z), BLAB_ELIMIT);
	cfg.log_capacity = 0;
	CHECK_EQ(blab_zone_create(&cfg, &z), 0); /* 256 cpus, fine */
	blab_zone_destroy(z);
	blab_zone_destroy(NULL);

	struct blab_strategy s;
	CHECK_EQ(blab_preset("v9.99", &s), BLAB_EPRESET);
	CHECK_EQ(blab_preset(NULL, &s), BLAB_EINVAL);
	CHECK_EQ(blab_preset("v4.16", NULL), BLAB_EINVAL);
	CHECK(blab_preset_name(blab_preset_count()) == NULL);
	for (unsigned i = 0; i < blab_preset_count(); i++) {
		CHECK_EQ(blab_preset(blab_preset_name(i), &s), 0);
		CHECK(blab_preset_describe(i) && strlen(blab_preset_describe(i)) > 10);
	}
}

static void op_errors(void)
{
	const char *presets[] = {"v2.5.44", "v2.5.45", "v4.16", "v5.18"};
	for (int p = 0; p < 4; p++) {
		struct blab_zone *z = mkzone(presets[p], 100, 3, 2, 10, 9);
		uint64_t pfn, big, small;
		struct blab_op op;
		CHECK(z);
		/* NULLs and ranges */
		CHECK_EQ(blab_alloc(NULL, 0, 0, 1, &pfn), BLAB_EINVAL);
		CHECK_EQ(blab_alloc(z, 0, 0, 1, NULL), BLAB_EINVAL);
		CHECK_EQ(blab_alloc(z, 2, 0, 1, &pfn), BLAB_ECPU);
		CHECK_EQ(blab_alloc(z, 0, 11, 1, &pfn), BLAB_EORDER);
		CHECK_EQ(blab_alloc(z, 0, 0, BLAB_MT_HIGHATOMIC, &pfn), BLAB_EMT);
		CHECK_EQ(blab_alloc(z, 0, 7, 1, &pfn), BLAB_ENOMEM); /* 128 pages > 100 */
		CHECK_EQ(blab_free(NULL, 0, 3, 0), BLAB_EINVAL);
		CHECK_EQ(blab_free(z, 5, 3, 0), BLAB_ECPU);
		CHECK_EQ(blab_free(z, 0, 2, 0), BLAB_EPFN);
		CHECK_EQ(blab_free(z, 0, 103, 0), BLAB_EPFN);
		CHECK_EQ(blab_free(z, 0, 0xffffffffffffffffull, 0), BLAB_EPFN);
		CHECK_EQ(blab_free(z, 0, 4, 11), BLAB_EORDER);
		CHECK_EQ(blab_free(z, 0, 5, 1), BLAB_EALIGN);
		CHECK_EQ(blab_drain(z, 2), BLAB_ECPU);
		CHECK_EQ(blab_drain(NULL, 0), BLAB_EINVAL);
		CHECK_EQ(blab_op_step(NULL, &op), BLAB_EINVAL);
		CHECK_EQ(blab_op_step(z, NULL), BLAB_EINVAL);
		CHECK_EQ(blab_op_alloc(NULL, 0, 0, 0, 0), BLAB_EINVAL);
		blab_op_alloc(&op, 9, 0, 1, 0);
		CHECK_EQ(blab_op_step(z, &op), BLAB_ECPU);
		memset(&op, 0, sizeof(op));
		op.kind = 77;
		CHECK_EQ(blab_op_step(z, &op), BLAB_EINVAL);

		/* the block-state errors */
		CHECK_EQ(blab_alloc(z, 0, 2, 1, &big), 0);
		CHECK_EQ(blab_alloc(z, 0, 0, 1, &small), 0);
		CHECK_EQ(blab_free(z, 0, big, 1), BLAB_EWRONGORDER);
		CHECK_EQ(blab_free(z, 0, big, 3), big & 7 ? BLAB_EALIGN : BLAB_EWRONGORDER);
		CHECK_EQ(blab_free(z, 0, big + 1, 0), BLAB_ETAIL);
		CHECK_EQ(blab_free(z, 0, big + 2, 1), BLAB_ETAIL);
		CHECK_EQ(blab_free(z, 0, small, 0), 0);
		if (!(zone_page(z, pfn_to_idx(z, small))->flags & PG_pcp)) {
			/* no pcp, or (v4.16 on 100 pages) high = 6 * 0: it went straight back */
			CHECK(p == 0 || p == 2);
			CHECK_EQ(blab_free(z, 0, small, 0), BLAB_EDOUBLEFREE);
		} else {
			/* with pcp lists, the page sits on cpu 0's list */
			CHECK_EQ(blab_free(z, 0, small, 0), BLAB_EONPCP);
			CHECK_EQ(blab_free(z, 1, small, 0), BLAB_EONPCP);
			CHECK_EQ(blab_drain(z, 0), 0);
			CHECK_EQ(blab_free(z, 0, small, 0), BLAB_EDOUBLEFREE);
		}
		CHECK_EQ(blab_free(z, 0, 99, 0), BLAB_ENOTALLOC); /* inside the free block 96..99 */
		CHECK_EQ(blab_free(z, 0, big, 2), 0);
		CHECK_EQ(blab_drain_all(z), 0);
		CHECK_EQ(z->free_pages, 100);
		CHECK(zone_ok(z));
		blab_zone_destroy(z);
	}
}

static void info_errors(void)
{
	struct blab_zone *z = mkzone("v4.16", 64, 0, 2, 10, 9);
	struct blab_pcp_info pi;
	struct blab_zone_info zi;
	char msg[8];
	CHECK_EQ(blab_pcp_info(z, 2, 0, &pi), BLAB_ECPU);
	CHECK_EQ(blab_pcp_info(z, 0, 2, &pi), BLAB_EINVAL);
	CHECK_EQ(blab_pcp_info(NULL, 0, 0, &pi), BLAB_EINVAL);
	CHECK_EQ(blab_zone_info(NULL, &zi), BLAB_EINVAL);
	CHECK_EQ(blab_check(NULL, msg, sizeof(msg)), BLAB_EINVAL);
	/* a corrupted zone is caught, the message is cut to fit */
	z->free_area[0].nr_free++;
	CHECK_EQ(blab_check(z, msg, sizeof(msg)), BLAB_ECHECK);
	CHECK_EQ(strlen(msg), 7);
	CHECK_EQ(blab_check(z, NULL, 0), BLAB_ECHECK);
	z->free_area[0].nr_free--;
	CHECK(zone_ok(z));
	/* an unmerged pair of free buddies is a violation */
	{
		uint64_t a, b;
		z->s.pcp = BLAB_PCP_NONE;
		CHECK_EQ(blab_alloc(z, 0, 0, 1, &a), 0);
		CHECK_EQ(blab_alloc(z, 0, 0, 1, &b), 0);
		CHECK_EQ(a ^ b, 1);
		_blab_clear_allocated(z, pfn_to_idx(z, a), 0);
		_blab_add_to_free_list(z, pfn_to_idx(z, a), 0, 1, 0, 0, 0);
		_blab_clear_allocated(z, pfn_to_idx(z, b), 0);
		_blab_add_to_free_list(z, pfn_to_idx(z, b), 0, 1, 0, 0, 0);
		char m[256];
		CHECK_EQ(blab_check(z, m, sizeof(m)), BLAB_ECHECK);
		CHECK(strstr(m, "not merged") != NULL);
	}
	blab_zone_destroy(z);
}

int main(void)
{
	strerror_distinct();
	zone_errors();
	op_errors();
	info_errors();
	return harness_report("test_errors");
}
