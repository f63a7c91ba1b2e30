/*
 * A point (blab_sim.h), the run the browser asks for and `blab sim --points` reads: its key
 * names each workload's own fields (hackbench's groups, loops, slub_prefetch, same_cpu; the
 * others' cpus, pages, iterations) with every default spelt out and reads back to the same
 * point; a bad key says which field and why; the config a point runs; and its record, one JSON
 * line with every counter of BLAB_JS_SIM_STATS by name, which blab_sim_point_record_ok()
 * accepts whole and refuses with anything missing, extra or cut.
 */
#include <stdlib.h>
#include <string.h>

#include "blab_js.h"
#include "blab_sim.h"
#include "harness.h"

static int has(const char *s, const char *part)
{
	return s && strstr(s, part) != NULL;
}

static void test_key_round_trip(void)
{
	struct blab_sim_point p = {0}, q;
	char key[BLAB_SIM_POINT_KEY_MAX], again[BLAB_SIM_POINT_KEY_MAX], err[200];

	p.workload = blab_sim_workload_id("hackbench");
	p.groups = 4;
	p.loops = 4000;
	p.slub_prefetch = 1;
	p.seed = 2;
	strcpy(p.preset, "v4.16");
	CHECK(blab_sim_point_key(&p, key, sizeof(key)) < (int)sizeof(key));
	/* hackbench says what its numbers are, and nothing of page_fault1's */
	CHECK(!strcmp(key, "workload=hackbench preset=v4.16 groups=4 loops=4000 slub_prefetch=1 "
			   "same_cpu=0 seed=2 batch=0 high=0 clear_lines=64 cache_scale=1"));
	CHECK(!has(key, "cpus=") && !has(key, "pages=") && !has(key, "iterations="));
	CHECK_EQ(blab_sim_point_parse(key, &q, err, sizeof(err)), 0);
	CHECK_EQ(q.groups, 4);
	CHECK_EQ(q.loops, 4000);
	CHECK_EQ(q.slub_prefetch, 1);
	CHECK_EQ(q.same_cpu, 0);
	CHECK_EQ(q.cpus, 0);
	blab_sim_point_key(&q, again, sizeof(again));
	CHECK(!strcmp(key, again));

	memset(&p, 0, sizeof(p));
	p.workload = blab_sim_workload_id("page_fault1");
	p.cpus = 56;
	p.pages = 4096;
	p.iterations = 2;
	p.seed = 1;
	p.cache_scale = 8;
	strcpy(p.preset, "v4.17");
	blab_sim_point_key(&p, key, sizeof(key));
	CHECK(!strcmp(key, "workload=page_fault1 preset=v4.17 cpus=56 pages=4096 iterations=2 "
			   "seed=1 batch=0 high=0 clear_lines=64 cache_scale=8"));
	CHECK_EQ(blab_sim_point_parse(key, &q, err, sizeof(err)), 0);
	blab_sim_point_key(&q, again, sizeof(again));
	CHECK(!strcmp(key, again));
	CHECK_EQ(q.groups, 0);

	/* the longest key fits its bound */
	memset(&p, 0, sizeof(p));
	p.workload = blab_sim_workload_id("hackbench");
	p.groups = BLAB_HACKBENCH_MAX_GROUPS;
	p.loops = BLAB_HACKBENCH_MAX_LOOPS;
	p.slub_prefetch = p.same_cpu = 1;
	p.seed = UINT64_MAX;
	p.batch = p.high = 1u << 16;
	memset(p.preset, 'x', 31);
	CHECK(blab_sim_point_key(&p, key, sizeof(key)) < (int)BLAB_SIM_POINT_KEY_MAX);
}

static void expect_bad(const char *key, const char *why)
{
	struct blab_sim_point p;
	char err[200] = "";
	int rc = blab_sim_point_parse(key, &p, err, sizeof(err));
	CHECK_EQ(rc, BLAB_EINVAL);
	if (!has(err, why)) {
		fprintf(stderr, "key \"%s\": \"%s\" does not say \"%s\"\n", key, err, why);
		CHECK(0);
	}
}

static void test_bad_keys(void)
{
	/* hackbench's key in page_fault1's terms is refused, naming the field it wanted */
	expect_bad("workload=hackbench preset=v4.16 cpus=4 pages=100 iterations=1 seed=1 batch=0 "
		   "high=0 clear_lines=64 cache_scale=1", "expected groups= at \"cpus=4");
	expect_bad("workload=hackbench preset=v4.16 cpus=4", "hackbench's key: groups loops");
	expect_bad("workload=page_fault1 preset=v4.16 groups=4 loops=100 slub_prefetch=1 same_cpu=0 "
		   "seed=1 batch=0 high=0 clear_lines=64 cache_scale=1", "expected cpus= at");
	expect_bad("workload=hackbench preset=v4.16 groups=4 loops=100 slub_prefetch=2 same_cpu=0 "
		   "seed=1 batch=0 high=0 clear_lines=64 cache_scale=1", "slub_prefetch: more than 1");
	expect_bad("workload=hackbench preset=v4.16 groups=113 loops=100 slub_prefetch=1 same_cpu=0 "
		   "seed=1 batch=0 high=0 clear_lines=64 cache_scale=1", "groups: more than 112");
	expect_bad("workload=hackbench preset=v4.16 groups=4 loops=1000001 slub_prefetch=1 "
		   "same_cpu=0 seed=1 batch=0 high=0 clear_lines=64 cache_scale=1",
		   "loops: more than 1000000");
	expect_bad("workload=hackbench preset=v4.16 groups=4 loops=100 slub_prefetch=1 same_cpu=0 "
		   "seed=1 batch=0 high=0 clear_lines=64", "the key ends before cache_scale=");
	expect_bad("workload=page_fault1 preset=v4.16 cpus=4 pages=x", "pages: expected a decimal");
	expect_bad("workload=page_fault1 preset=v4.16 cpus=4 pages=1 iterations=1 seed=1 batch=0 "
		   "high=0 clear_lines=64 cache_scale=1 more", "unexpected \"more\" after cache_scale");
	expect_bad("workload=nope preset=v4.16", "unknown workload 'nope'");
	/* a key spells out the defaults: a 0 would be a second spelling of clear_lines=64 and
	 * cache_scale=1 (found by fuzz_sim_point) */
	expect_bad("workload=page_fault1 preset=v4.16 cpus=4 pages=1 iterations=1 seed=1 batch=0 "
		   "high=0 clear_lines=0 cache_scale=1", "clear_lines: less than 1");
	expect_bad("workload=hackbench preset=v4.16 groups=4 loops=100 slub_prefetch=1 same_cpu=0 "
		   "seed=1 batch=0 high=0 clear_lines=64 cache_scale=0", "cache_scale: less than 1");
	char longkey[BLAB_SIM_POINT_KEY_MAX + 8];
	memset(longkey, 'a', sizeof(longkey) - 1);
	longkey[sizeof(longkey) - 1] = '\0';
	expect_bad(longkey, "longer than 255 characters");
}

/* CONFIG_PCP_BATCH_SCALE_MAX (52166607ecc9): named last in a key, and only when set, so every
 * key made before it existed reads the same; a 6.7+ preset's only */
static void test_batch_scale(void)
{
	struct blab_sim_point p = {0}, q;
	struct blab_sim_config c;
	char key[BLAB_SIM_POINT_KEY_MAX], again[BLAB_SIM_POINT_KEY_MAX], err[200] = "";

	p.workload = blab_sim_workload_id("page_fault1");
	p.cpus = 2;
	p.pages = 1024;
	p.iterations = 2;
	p.seed = 1;
	strcpy(p.preset, "v6.7");
	blab_sim_point_key(&p, key, sizeof(key));
	CHECK(!has(key, "pcp_batch_scale_max"));
	CHECK_EQ(blab_sim_point_config(&p, &c, err, sizeof(err)), 0);
	CHECK_EQ(c.strategy.pcp_batch_scale_max, BLAB_PCP_BATCH_SCALE_MAX_DEFAULT);
	p.pcp_batch_scale_max = 0 + 1;
	blab_sim_point_key(&p, key, sizeof(key));
	CHECK(!strcmp(key, "workload=page_fault1 preset=v6.7 cpus=2 pages=1024 iterations=2 seed=1 "
			   "batch=0 high=0 clear_lines=64 cache_scale=1 pcp_batch_scale_max=0"));
	CHECK_EQ(blab_sim_point_parse(key, &q, err, sizeof(err)), 0);
	CHECK_EQ(q.pcp_batch_scale_max, 1);
	blab_sim_point_key(&q, again, sizeof(again));
	CHECK(!strcmp(key, again));
	CHECK_EQ(blab_sim_point_config(&q, &c, err, sizeof(err)), 0);
	CHECK_EQ(c.strategy.pcp_batch_scale_max, 0);
	/* past the Kconfig's range, on an older kernel, or followed by anything: refused */
	expect_bad("workload=page_fault1 preset=v6.7 cpus=2 pages=1 iterations=1 seed=1 batch=0 "
		   "high=0 clear_lines=64 cache_scale=1 pcp_batch_scale_max=7",
		   "pcp_batch_scale_max: more than 6");
	expect_bad("workload=page_fault1 preset=v6.7 cpus=2 pages=1 iterations=1 seed=1 batch=0 "
		   "high=0 clear_lines=64 cache_scale=1 pcp_batch_scale_max=3 x", "unexpected \"x\"");
	strcpy(p.preset, "v6.0");
	p.pcp_batch_scale_max = 3 + 1;
	CHECK_EQ(blab_sim_point_config(&p, &c, err, sizeof(err)), BLAB_EINVAL);
	CHECK(has(err, "has no CONFIG_PCP_BATCH_SCALE_MAX"));
	strcpy(p.preset, "v6.19");
	p.pcp_batch_scale_max = BLAB_PCP_BATCH_SCALE_MAX_LIMIT + 2;
	CHECK_EQ(blab_sim_point_config(&p, &c, err, sizeof(err)), BLAB_EINVAL);
	CHECK(has(err, "past the Kconfig's 0..6"));
	/* the longest key, the option included, fits its bound */
	memset(&p, 0, sizeof(p));
	p.workload = blab_sim_workload_id("hackbench");
	p.groups = BLAB_HACKBENCH_MAX_GROUPS;
	p.loops = BLAB_HACKBENCH_MAX_LOOPS;
	p.slub_prefetch = p.same_cpu = 1;
	p.seed = UINT64_MAX;
	p.batch = p.high = 1u << 16;
	p.pcp_batch_scale_max = BLAB_PCP_BATCH_SCALE_MAX_LIMIT + 1;
	memset(p.preset, 'x', 31);
	CHECK(blab_sim_point_key(&p, key, sizeof(key)) < (int)BLAB_SIM_POINT_KEY_MAX);
}

/* node_zones=1 and out_of_step=1: seed 002's topology, named last and only when set */
static void test_topology(void)
{
	struct blab_sim_point p = {0}, q;
	struct blab_sim_config c;
	char key[BLAB_SIM_POINT_KEY_MAX], again[BLAB_SIM_POINT_KEY_MAX], err[200] = "";

	p.workload = blab_sim_workload_id("page_fault1");
	p.cpus = 48;
	p.pages = 4096;
	p.iterations = 3;
	p.seed = 1;
	strcpy(p.preset, "v5.17");
	CHECK(blab_sim_point_key(&p, key, sizeof(key)) < (int)sizeof(key));
	CHECK(!has(key, "node_zones") && !has(key, "out_of_step"));
	CHECK_EQ(blab_sim_point_config(&p, &c, err, sizeof(err)), 0);
	CHECK_EQ(c.node_zones, 0);
	CHECK_EQ(c.out_of_step, 0);
	p.node_zones = p.out_of_step = 1;
	CHECK(blab_sim_point_key(&p, key, sizeof(key)) < (int)sizeof(key));
	CHECK(!strcmp(key, "workload=page_fault1 preset=v5.17 cpus=48 pages=4096 iterations=3 seed=1 "
			   "batch=0 high=0 clear_lines=64 cache_scale=1 node_zones=1 out_of_step=1"));
	CHECK_EQ(blab_sim_point_parse(key, &q, err, sizeof(err)), 0);
	CHECK_EQ(q.node_zones, 1);
	CHECK_EQ(q.out_of_step, 1);
	CHECK(blab_sim_point_key(&q, again, sizeof(again)) < (int)sizeof(again));
	CHECK(!strcmp(key, again));
	CHECK_EQ(blab_sim_point_config(&q, &c, err, sizeof(err)), 0);
	CHECK_EQ(c.node_zones, 1);
	CHECK_EQ(c.out_of_step, 1);
	expect_bad("workload=page_fault1 preset=v5.17 cpus=48 pages=4096 iterations=3 seed=1 batch=0 "
		   "high=0 clear_lines=64 cache_scale=1 node_zones=0", "node_zones: less than 1");
	expect_bad("workload=page_fault1 preset=v5.17 cpus=48 pages=4096 iterations=3 seed=1 batch=0 "
		   "high=0 clear_lines=64 cache_scale=1 out_of_step=1 node_zones=1",
		   "unexpected \"node_zones=1\"");
	q.node_zones = 2; /* a caller's struct, not a parsed key: still refused */
	CHECK_EQ(blab_sim_point_config(&q, &c, err, sizeof(err)), BLAB_EINVAL);
	CHECK(has(err, "each 0 or 1"));
	/* the longest key, every option set, fits its bound */
	memset(&p, 0, sizeof(p));
	p.workload = blab_sim_workload_id("stress_highalloc");
	p.cpus = BLAB_SIM_MAX_CPUS;
	p.pages = BLAB_SIM_MAX_PAGES;
	p.iterations = BLAB_SIM_MAX_ITERATIONS;
	p.seed = UINT64_MAX;
	p.batch = p.high = 1u << 16;
	p.clear_lines = p.cache_scale = 64;
	p.pcp_batch_scale_max = BLAB_PCP_BATCH_SCALE_MAX_LIMIT + 1;
	p.latency = p.node_zones = p.out_of_step = 1;
	memset(p.preset, 'x', 31);
	CHECK(blab_sim_point_key(&p, key, sizeof(key)) < (int)BLAB_SIM_POINT_KEY_MAX);
	p.workload = blab_sim_workload_id("hackbench");
	p.groups = BLAB_HACKBENCH_MAX_GROUPS;
	p.loops = BLAB_HACKBENCH_MAX_LOOPS;
	p.slub_prefetch = p.same_cpu = 1;
	CHECK(blab_sim_point_key(&p, key, sizeof(key)) < (int)BLAB_SIM_POINT_KEY_MAX);
}

static void test_config(void)
{
	struct blab_sim_point p = {0};
	struct blab_sim_config c;
	char err[200] = "";

	p.workload = blab_sim_workload_id("hackbench");
	p.groups = 3;
	p.loops = 120;
	p.slub_prefetch = 1;
	p.same_cpu = 1;
	strcpy(p.preset, "v4.16");
	CHECK_EQ(blab_sim_point_config(&p, &c, err, sizeof(err)), 0);
	CHECK_EQ(c.cpus, 3);
	CHECK_EQ(c.hackbench.groups, 3);
	CHECK_EQ(c.hackbench.loops, 120);
	CHECK_EQ(c.hackbench.slub_prefetch, 1);
	CHECK_EQ(c.hackbench.same_cpu, 1);
	p.same_cpu = 2; /* a caller's struct, not a parsed key: still refused */
	CHECK_EQ(blab_sim_point_config(&p, &c, err, sizeof(err)), BLAB_EINVAL);
	CHECK(has(err, "each is 0 or 1"));
	strcpy(p.preset, "v9.99");
	p.same_cpu = 0;
	CHECK_EQ(blab_sim_point_config(&p, &c, err, sizeof(err)), BLAB_EINVAL);
	CHECK(has(err, "unknown preset 'v9.99'"));
}

static void test_record(void)
{
	static const char *const names[] = {
#define BLAB_X(js, expr) #js,
		BLAB_JS_SIM_STATS(BLAB_X)
#undef BLAB_X
	};
	const char *key = "workload=page_fault1 preset=v4.16 cpus=2 pages=64 iterations=2 seed=1 "
			  "batch=0 high=0 clear_lines=8 cache_scale=1";
	struct blab_sim_point p;
	struct blab_sim_config c;
	struct blab_sim_result r;
	char err[200], *rec, *bad;
	int len;

	CHECK_EQ(blab_sim_point_parse(key, &p, err, sizeof(err)), 0);
	CHECK_EQ(blab_sim_point_config(&p, &c, err, sizeof(err)), 0);
	CHECK_EQ(blab_sim_run(&c, &r, err, sizeof(err)), 0);
	len = blab_sim_point_record(NULL, 0, key, &r);
	rec = malloc((size_t)len + 1);
	bad = malloc((size_t)len + 64);
	if (!rec || !bad) {
		CHECK(0);
		return;
	}
	CHECK_EQ(blab_sim_point_record(rec, (size_t)len + 1, key, &r), len);
	CHECK_EQ(strlen(rec), len);
	CHECK(!strncmp(rec, "{\"key\":\"", 8) && rec[len - 1] == '\n' && !memchr(rec, '\n', len - 1));
	/* every counter of the table by its name, in the table's order */
	const char *at = rec;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		char want[48];
		snprintf(want, sizeof(want), "\"%s\":", names[i]);
		const char *got = strstr(at, want);
		CHECK(got != NULL);
		if (got)
			at = got;
	}
	CHECK(has(rec, "\"score\":") && r.score > 0);
	CHECK_EQ(blab_sim_point_record_ok(rec, (size_t)len, key), 1);
	/* another point's, cut short, a counter missing, one extra, not a number */
	CHECK_EQ(blab_sim_point_record_ok(rec, (size_t)len, "workload=page_fault1 preset=v4.17"), 0);
	CHECK_EQ(blab_sim_point_record_ok(rec, (size_t)len - 1, key), 0);
	CHECK_EQ(blab_sim_point_record_ok(rec, (size_t)len - 3, key), 0);
	const char *sc = strstr(rec, "\"pagesScored\":");
	const char *next = sc ? strchr(sc, ',') : NULL;
	if (sc && next) {
		size_t a = (size_t)(sc - rec), b = (size_t)(next + 1 - rec);
		memcpy(bad, rec, a);
		memcpy(bad + a, rec + b, (size_t)len - b);
		CHECK_EQ(blab_sim_point_record_ok(bad, (size_t)len - (b - a), key), 0);
		memcpy(bad, rec, (size_t)len - 3);
		memcpy(bad + len - 3, ",\"extra\":1}}\n", 13);
		CHECK_EQ(blab_sim_point_record_ok(bad, (size_t)len + 10, key), 0);
		memcpy(bad, rec, (size_t)len);
		bad[a + strlen("\"pagesScored\":")] = 'x';
		CHECK_EQ(blab_sim_point_record_ok(bad, (size_t)len, key), 0);
	} else {
		CHECK(0);
	}
	/* each counter is an int64 as "%lld" prints it: no leading zero, no -0, nothing a JSON
	 * reader would refuse or round (found by fuzz_sim_point) */
	static const struct {
		const char *score;
		int ok;
	} scores[] = {
		{"0", 1}, {"9223372036854775807", 1}, {"-9223372036854775808", 1}, {"-1", 1},
		{"007", 0}, {"-0", 0}, {"9223372036854775808", 0}, {"-9223372036854775809", 0},
		{"9999999999999999999", 0}, {"+1", 0}, {"", 0}, {"-", 0},
	};
	const char *v = strstr(rec, "\"score\":"), *after = v ? strchr(v, ',') : NULL;
	for (size_t i = 0; v && after && i < sizeof(scores) / sizeof(scores[0]); i++) {
		size_t a = (size_t)(v - rec) + strlen("\"score\":"), k = strlen(scores[i].score);
		size_t tail = (size_t)len - (size_t)(after - rec);
		memcpy(bad, rec, a);
		memcpy(bad + a, scores[i].score, k);
		memcpy(bad + a + k, after, tail);
		if (blab_sim_point_record_ok(bad, a + k + tail, key) != scores[i].ok) {
			fprintf(stderr, "record with score %s: not %s\n", scores[i].score,
				scores[i].ok ? "accepted" : "refused");
			CHECK(0);
		}
	}
	CHECK(v && after);
	/* snprintf-like: a short buffer holds what fits and still says the whole length */
	CHECK_EQ(blab_sim_point_record(bad, 10, key, &r), len);
	CHECK_EQ(strlen(bad), 9);
	free(rec);
	free(bad);
}

int main(void)
{
	test_key_round_trip();
	test_bad_keys();
	test_config();
	test_topology();
	test_batch_scale();
	test_record();
	return harness_report("sim_point");
}
