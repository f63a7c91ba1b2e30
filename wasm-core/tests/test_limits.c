/*
 * test_limits.c - one test per row of docs/limits.md: the value just past each hard limit
 * gives its documented error (API code or op-script message), the value at the limit is
 * accepted where that is cheap, and nothing past a limit allocates.
 */
#include <stdlib.h>
#include "common.h"

static int create(struct blab_zone_config *cfg)
{
	struct blab_zone *z = (struct blab_zone *)1;
	int err = blab_zone_create(cfg, &z);
	if (err)
		CHECK(z == NULL);
	blab_zone_destroy(z);
	return err;
}

static void pages_limit(void)
{
	struct blab_zone_config cfg;
	blab_zone_config_init(&cfg);
	cfg.pages = 0;
	CHECK_EQ(create(&cfg), BLAB_EINVAL);
	cfg.pages = BLAB_MAX_PAGES + 1;
	CHECK_EQ(create(&cfg), BLAB_ELIMIT);
	cfg.pages = UINT32_MAX;
	CHECK_EQ(create(&cfg), BLAB_ELIMIT);
	cfg.pages = 1;
	CHECK_EQ(create(&cfg), 0);
}

static void start_pfn_limit(void)
{
	struct blab_zone_config cfg;
	blab_zone_config_init(&cfg);
	cfg.pages = 64;
	cfg.start_pfn = BLAB_MAX_START_PFN - 64; /* last pfn 2^40 - 1: the last that fits */
	CHECK_EQ(create(&cfg), 0);
	cfg.start_pfn = BLAB_MAX_START_PFN - 63;
	CHECK_EQ(create(&cfg), BLAB_ELIMIT);
	cfg.start_pfn = BLAB_MAX_START_PFN;
	CHECK_EQ(create(&cfg), BLAB_ELIMIT);
	cfg.start_pfn = UINT64_MAX - 10; /* start + pages wraps around */
	CHECK_EQ(create(&cfg), BLAB_ELIMIT);
	cfg.start_pfn = UINT64_MAX;
	CHECK_EQ(create(&cfg), BLAB_ELIMIT);
}

static void cpus_limit(void)
{
	struct blab_zone_config cfg;
	struct blab_zone *z;
	uint64_t pfn;
	blab_zone_config_init(&cfg);
	cfg.pages = 64;
	cfg.cpus = BLAB_MAX_CPUS + 1;
	CHECK_EQ(create(&cfg), BLAB_ECPU);
	cfg.cpus = 0xffff;
	CHECK_EQ(create(&cfg), BLAB_ECPU);
	cfg.cpus = BLAB_MAX_CPUS;
	CHECK_EQ(create(&cfg), 0);
	cfg.cpus = 2;
	CHECK_EQ(blab_zone_create(&cfg, &z), 0);
	CHECK_EQ(blab_alloc(z, 2, 0, BLAB_MT_MOVABLE, &pfn), BLAB_ECPU);
	CHECK_EQ(blab_alloc(z, UINT32_MAX, 0, BLAB_MT_MOVABLE, &pfn), BLAB_ECPU);
	CHECK_EQ(blab_free(z, 65536, 0, 0), BLAB_ECPU);
	CHECK_EQ(blab_drain(z, 2), BLAB_ECPU);
	struct blab_op op;
	blab_op_alloc(&op, 70000, 0, BLAB_MT_MOVABLE, 0); /* clamped, then refused */
	CHECK_EQ(blab_op_step(z, &op), BLAB_ECPU);
	struct blab_pcp_info pi;
	CHECK_EQ(blab_pcp_info(z, 2, 0, &pi), BLAB_ECPU);
	CHECK(zone_ok(z));
	blab_zone_destroy(z);
}

static void order_limits(void)
{
	struct blab_zone_config cfg;
	struct blab_zone *z;
	uint64_t pfn;
	blab_zone_config_init(&cfg);
	cfg.pages = 4096;
	cfg.top_order = BLAB_MAX_ORDER_LIMIT + 1;
	CHECK_EQ(create(&cfg), BLAB_EORDER);
	cfg.top_order = 0xfe;
	CHECK_EQ(create(&cfg), BLAB_EORDER);
	cfg.top_order = 5;
	cfg.pageblock_order = 6;
	CHECK_EQ(create(&cfg), BLAB_EORDER);
	cfg.pageblock_order = 5;
	CHECK_EQ(blab_zone_create(&cfg, &z), 0);
	CHECK_EQ(blab_alloc(z, 0, 6, BLAB_MT_MOVABLE, &pfn), BLAB_EORDER);
	CHECK_EQ(blab_alloc(z, 0, UINT32_MAX, BLAB_MT_MOVABLE, &pfn), BLAB_EORDER);
	CHECK_EQ(blab_alloc(z, 0, 5, BLAB_MT_MOVABLE, &pfn), 0);
	CHECK_EQ(blab_free(z, 0, pfn, 6), BLAB_EORDER);
	CHECK_EQ(blab_free(z, 0, pfn, 256), BLAB_EORDER); /* not truncated to order 0 */
	CHECK_EQ(blab_free(z, 0, pfn, 5), 0);
	CHECK(zone_ok(z));
	blab_zone_destroy(z);
}

static void strategy_limits(void)
{
	struct blab_zone_config cfg;
	blab_zone_config_init(&cfg);
	cfg.pages = 64;
	cfg.strategy.pcp_max_order = BLAB_PCP_MAX_ORDER + 1;
	CHECK_EQ(create(&cfg), BLAB_ESTRATEGY);
	blab_preset("v2.5.45", &cfg.strategy);
	cfg.strategy.pcp_max_order = 1;
	CHECK_EQ(create(&cfg), BLAB_ESTRATEGY);
	blab_zone_config_init(&cfg);
	cfg.pages = 64;
	cfg.strategy.batch = (1u << 20) + 1;
	CHECK_EQ(create(&cfg), BLAB_ELIMIT);
	cfg.strategy.batch = 1u << 20;
	CHECK_EQ(create(&cfg), 0);
	cfg.strategy.high = (1u << 24) + 1;
	CHECK_EQ(create(&cfg), BLAB_ELIMIT);
	cfg.strategy.high = UINT32_MAX;
	CHECK_EQ(create(&cfg), BLAB_ELIMIT);
	cfg.strategy.high = 1u << 24;
	CHECK_EQ(create(&cfg), 0);
	/* the 6.7+ presets' fixed high_max: the same bound as high */
	blab_zone_config_init(&cfg);
	cfg.pages = 64;
	blab_preset("v6.7", &cfg.strategy);
	cfg.strategy.high_max = (1u << 24) + 1;
	CHECK_EQ(create(&cfg), BLAB_ELIMIT);
	cfg.strategy.high_max = 1u << 24;
	CHECK_EQ(create(&cfg), 0);
}

static void mt_limit(void)
{
	struct blab_zone *z = mkzone("v5.18", 64, 0, 1, 0xff, 0xff);
	uint64_t pfn;
	CHECK(z);
	CHECK_EQ(blab_alloc(z, 0, 0, BLAB_MT_PCPTYPES, &pfn), BLAB_EMT);
	CHECK_EQ(blab_alloc(z, 0, 0, BLAB_MT_ISOLATE, &pfn), BLAB_EMT);
	CHECK_EQ(blab_alloc(z, 0, 0, UINT32_MAX, &pfn), BLAB_EMT);
	CHECK_EQ(blab_alloc(z, 0, 0, 0x101, &pfn), BLAB_EMT); /* not truncated to 1 */
	CHECK(zone_ok(z));
	blab_zone_destroy(z);
}

static void log_limit(void)
{
	struct blab_zone_config cfg;
	struct blab_zone *z;
	const struct blab_event *ev;
	uint32_t n = 0;
	uint64_t pfn;
	blab_zone_config_init(&cfg);
	cfg.pages = 64;
	cfg.log_capacity = BLAB_MAX_LOG_EVENTS + 1;
	CHECK_EQ(create(&cfg), BLAB_ELIMIT);
	cfg.log_capacity = UINT32_MAX;
	CHECK_EQ(create(&cfg), BLAB_ELIMIT);
	cfg.log_capacity = 1;
	CHECK_EQ(create(&cfg), BLAB_EINVAL);
	cfg.log_capacity = 2;
	CHECK_EQ(blab_zone_create(&cfg, &z), 0);
	for (int i = 0; i < 4; i++)
		CHECK_EQ(blab_alloc(z, 0, 0, BLAB_MT_MOVABLE, &pfn), 0);
	ev = blab_log(z, &n);
	CHECK_EQ(n, 2);
	CHECK(ev && ev[n - 1].type == BLAB_EV_LOG_FULL);
	CHECK_EQ(blab_log_full(z), 1);
	CHECK(zone_ok(z));
	blab_zone_destroy(z);
}

static void inflight_limit(void)
{
	struct blab_zone *z = mkzone("v2.5.44", 64, 0, 2, 0xff, 0xff); /* no pcp: alloc locks */
	struct blab_op a, b;
	uint64_t pfn;
	CHECK(z);
	blab_op_alloc(&a, 0, 0, BLAB_MT_MOVABLE, 0);
	CHECK_EQ(blab_op_step(z, &a), BLAB_STEP_LOCK);
	blab_op_alloc(&b, 0, 0, BLAB_MT_MOVABLE, 0);
	CHECK_EQ(blab_op_step(z, &b), BLAB_EBUSY);
	CHECK_EQ(blab_alloc(z, 0, 0, BLAB_MT_MOVABLE, &pfn), BLAB_EBUSY);
	CHECK_EQ(blab_alloc(z, 1, 0, BLAB_MT_MOVABLE, &pfn), 0); /* another cpu may go on */
	CHECK_EQ(blab_op_step(z, &a), BLAB_STEP_DONE);
	CHECK_EQ(blab_op_step(z, &a), BLAB_EINVAL); /* done: nothing left to step */
	CHECK_EQ(blab_op_step(z, &b), BLAB_STEP_LOCK); /* now b may start */
	CHECK_EQ(blab_op_step(z, &b), BLAB_STEP_DONE);
	CHECK(zone_ok(z));
	blab_zone_destroy(z);
}

/* ---- op scripts: the messages users see ---- */

static char errbuf[4096];

/* runs the lines, returns the index of the first failing line (or -1), error text in errbuf */
static int script(const char *const *lines, int n)
{
	FILE *out = tmpfile(), *err = tmpfile();
	struct blab_script *s = blab_script_new(out, err);
	int bad = -1;
	size_t got;
	CHECK(s && out && err);
	for (int i = 0; i < n && bad < 0; i++)
		if (blab_script_line(s, lines[i], (unsigned)i + 1))
			bad = i;
	blab_script_free(s);
	rewind(err);
	got = fread(errbuf, 1, sizeof(errbuf) - 1, err);
	errbuf[got] = 0;
	fclose(out);
	fclose(err);
	return bad;
}

#define SCRIPT_FAILS_WITH(expect_line, expect_msg, ...)                                  \
	do {                                                                             \
		const char *const _l[] = {__VA_ARGS__};                                  \
		int _bad = script(_l, (int)(sizeof(_l) / sizeof(_l[0])));                  \
		CHECK_EQ(_bad, (expect_line) - 1);                                       \
		if (!strstr(errbuf, expect_msg)) {                                       \
			fprintf(stderr, "  got: %s  want: %s\n", errbuf, expect_msg);    \
			CHECK(!"op-script message");                                     \
		}                                                                        \
	} while (0)

static void script_limits(void)
{
	char *longline = malloc(BLAB_SCRIPT_MAX_LINE + 2), *okline = malloc(BLAB_SCRIPT_MAX_LINE + 1);
	char words[200] = "check";
	CHECK(longline && okline);

	SCRIPT_FAILS_WITH(1, "line 1: zone: pages=16777217 is too large (at most 16777216)",
			  "zone pages=16777217");
	SCRIPT_FAILS_WITH(1, "line 1: zone: pages=N is required", "zone cpus=2");
	SCRIPT_FAILS_WITH(1, "zone: invalid argument", "zone pages=0");
	SCRIPT_FAILS_WITH(1, "line 1: zone: start_pfn=0x10000000000 is too large",
			  "zone pages=1 start_pfn=0x10000000000");
	SCRIPT_FAILS_WITH(1, "line 1: zone: ", "zone pages=64 start_pfn=0xffffffffff");
	SCRIPT_FAILS_WITH(1, "line 1: zone: cpus=257 is too large (at most 256)",
			  "zone pages=64 cpus=257");
	SCRIPT_FAILS_WITH(1, "line 1: zone: top_order=11 is too large (at most 10)",
			  "zone pages=64 top_order=11");
	SCRIPT_FAILS_WITH(1, "line 1: zone: pageblock_order=6 is larger than top_order=5",
			  "zone pages=64 top_order=5 pageblock_order=6");
	SCRIPT_FAILS_WITH(1, "line 1: zone: pcp_max_order=4 is too large (at most 3)",
			  "zone pages=64 pcp_max_order=4");
	/* one digit past a small bound (max - d used to wrap and let these through) */
	SCRIPT_FAILS_WITH(1, "line 1: zone: top_order=0xf is too large (at most 10)",
			  "zone pages=64 top_order=0xf");
	SCRIPT_FAILS_WITH(1, "line 1: zone: merge_tail=5 is too large (at most 1)",
			  "zone pages=64 merge_tail=5");
	SCRIPT_FAILS_WITH(1, "line 1: zone: watermarks=0002 is too large (at most 1)",
			  "zone pages=64 watermarks=0002");
	SCRIPT_FAILS_WITH(1, "line 1: zone: expand_top=2 is too large (at most 1)",
			  "zone pages=64 expand_top=2");
	SCRIPT_FAILS_WITH(1, "line 1: zone: drain_chunk=x is not a number (decimal or 0x hex)",
			  "zone pages=64 drain_chunk=x");
	SCRIPT_FAILS_WITH(1, "line 1: zone: pcp_thp=two: expected none, per_mt, one or movable",
			  "zone pages=64 pcp_thp=two");
	SCRIPT_FAILS_WITH(1, "line 1: zone: inconsistent strategy switches",
			  "zone pages=64 pcp=hotcold pcp_thp=one");
	SCRIPT_FAILS_WITH(1, "line 1: zone: batch=1048577 is too large (at most 1048576)",
			  "zone pages=64 batch=1048577");
	SCRIPT_FAILS_WITH(1, "line 1: zone: high=16777217 is too large (at most 16777216)",
			  "zone pages=64 high=16777217");
	SCRIPT_FAILS_WITH(1, "line 1: zone: log=67108865 is too large (at most 67108864)",
			  "zone pages=64 log=67108865");
	SCRIPT_FAILS_WITH(1, "line 1: zone: high_max=16777217 is too large (at most 16777216)",
			  "zone pages=64 preset=v6.7 high_max=16777217");
	SCRIPT_FAILS_WITH(2, "line 2: alloc: count=65537 is too large (at most 65536)",
			  "zone pages=64", "alloc order=0 count=65537");
	SCRIPT_FAILS_WITH(2, "line 2: alloc: count=0: at least 1", "zone pages=64",
			  "alloc order=0 count=0");
	SCRIPT_FAILS_WITH(2, "line 2: free: last=1048577 is too large (at most 1048576)",
			  "zone pages=64", "free last=1048577");
	SCRIPT_FAILS_WITH(2, "line 2: alloc: cpu=1 out of range (the zone has 1 cpus: 0..0)",
			  "zone pages=64", "alloc order=0 cpu=1");
	SCRIPT_FAILS_WITH(2, "line 2: alloc: cpu=65536 is too large (at most 65535)",
			  "zone pages=64", "alloc order=0 cpu=65536");
	SCRIPT_FAILS_WITH(2, "line 2: alloc: order=11: order out of range", "zone pages=64",
			  "alloc order=11");
	SCRIPT_FAILS_WITH(2, "line 2: alloc: order=256 is too large (at most 255)",
			  "zone pages=64", "alloc order=256");
	SCRIPT_FAILS_WITH(2, "line 2: alloc: mt=highatomic: expected movable", "zone pages=64",
			  "alloc order=0 mt=highatomic");
	SCRIPT_FAILS_WITH(2, "line 2: free: pfn=18446744073709551616 is too large (at most 18446744073709551615)",
			  "zone pages=64", "free pfn=18446744073709551616 order=0");
	SCRIPT_FAILS_WITH(2, "line 2: free: pfn=0x10000000000000000 is too large",
			  "zone pages=64", "free pfn=0x10000000000000000 order=0");
	SCRIPT_FAILS_WITH(2, "line 2: free: pfn=-1 is not a number (decimal or 0x hex)",
			  "zone pages=64", "free pfn=-1 order=0");
	SCRIPT_FAILS_WITH(2, "line 2: free: pfn=0x is not a number", "zone pages=64",
			  "free pfn=0x order=0");
	SCRIPT_FAILS_WITH(2, "pfn outside the zone", "zone pages=64",
			  "free pfn=18446744073709551615 order=0");

	/* line length: 1024 characters are fine, 1025 are not */
	memset(okline, ' ', BLAB_SCRIPT_MAX_LINE);
	memcpy(okline, "check", 5);
	okline[BLAB_SCRIPT_MAX_LINE] = 0;
	memset(longline, ' ', BLAB_SCRIPT_MAX_LINE + 1);
	memcpy(longline, "check", 5);
	longline[BLAB_SCRIPT_MAX_LINE + 1] = 0;
	{
		const char *const l[] = {"zone pages=64", okline, longline};
		CHECK_EQ(script(l, 3), 2);
		CHECK(strstr(errbuf, "line 3: line longer than 1024 characters") != NULL);
	}
	/* words: 32 are parsed (and here refused as an unknown key), 33 are too many */
	for (int i = 1; i < 32; i++)
		strcat(words, " k=1");
	{
		const char *const l[] = {"zone pages=64", words};
		CHECK_EQ(script(l, 2), 1);
		CHECK(strstr(errbuf, "line 2: check: unknown key 'k'") != NULL);
	}
	strcat(words, " k=1");
	{
		const char *const l[] = {"zone pages=64", words};
		CHECK_EQ(script(l, 2), 1);
		CHECK(strstr(errbuf, "line 2: more than 32 words") != NULL);
	}
	free(longline);
	free(okline);
}

int main(void)
{
	pages_limit();
	start_pfn_limit();
	cpus_limit();
	order_limits();
	strategy_limits();
	mt_limit();
	log_limit();
	inflight_limit();
	script_limits();
	return harness_report("test_limits");
}
