/*
 * The seeds' directions on the model machine, at sizes small enough for a unit test
 * (docs/fidelity.md has the full-size runs): 2.5.45's batching of zone->lock and its gain
 * growing with CPUs; 4.17 ahead of 4.16 under contention and level at one CPU; the single
 * pass ahead of the two passes on one task's trunc; parallel_free and trunc account every
 * page; seed 004's skip-merge moving parallel_free's contention from zone->lock to
 * lru_lock; more than 112 CPUs on a 4-socket machine; the same seed gives the same log.
 * These assert directions (which way, and roughly how far), never timings.
 */
#include <string.h>

#include "blab_sim.h"
#include "common.h"

static uint64_t wide_pfns; /* records whose pfn JavaScript could not hold (>= 2^53) */

static void hash_sink(void *ctx, const struct blab_event *e)
{
	uint64_t *h = ctx;
	*h = fnv1a_event(*h, e);
	if (e->pfn >= (1ull << 53))
		wide_pfns++; /* e.g. a struct zone line logged as an ACCESS: the player rejects it */
}

static int run(uint32_t workload, const char *preset, uint32_t cpus, uint32_t pages,
	       uint32_t sockets, uint64_t *hash, struct blab_sim_result *r)
{
	struct blab_sim_config c;
	char err[160];
	int ret;

	blab_sim_config_init(&c);
	c.workload = workload;
	c.cpus = cpus;
	c.pages = pages;
	c.iterations = 2;
	c.sockets = sockets;
	c.clear_lines = 8; /* fewer frame lines through the cache model: a faster test */
	CHECK_EQ(blab_preset(preset, &c.strategy), 0);
	if (hash) {
		*hash = FNV1A_OFFSET;
		c.log_mask = BLAB_EVC_ALL;
		c.sink = hash_sink;
		c.sink_ctx = hash;
	}
	ret = blab_sim_run(&c, r, err, sizeof(err));
	if (ret)
		fprintf(stderr, "blab_sim_run %s %u cpus: %s\n", preset, cpus, err);
	return ret;
}

/* b's score over a's, in per mille of a's (1000 = level) */
static int64_t permille(const struct blab_sim_result *a, const struct blab_sim_result *b)
{
	return a->score ? (int64_t)(b->score * 1000 / a->score) : 0;
}

static void test_pcp_2002(void)
{
	struct blab_sim_result a1, b1, a8, b8;

	CHECK_EQ(run(BLAB_WL_PAGE_FAULT1, "v2.5.44", 1, 256, 0, NULL, &a1), 0);
	CHECK_EQ(run(BLAB_WL_PAGE_FAULT1, "v2.5.45", 1, 256, 0, NULL, &b1), 0);
	CHECK_EQ(run(BLAB_WL_PAGE_FAULT1, "v2.5.44", 8, 256, 0, NULL, &a8), 0);
	CHECK_EQ(run(BLAB_WL_PAGE_FAULT1, "v2.5.45", 8, 256, 0, NULL, &b8), 0);
	/* zone->lock acquisitions per page fall by about the batch size */
	CHECK(b8.batch >= 8);
	CHECK(a8.zone_acq * 10 >= b8.zone_acq * b8.batch * 7);
	CHECK(a8.zone_acq * 10 <= b8.zone_acq * b8.batch * 13);
	/* and the gain grows with the CPUs that contend for the lock */
	CHECK(permille(&a8, &b8) > permille(&a1, &b1));
	CHECK(permille(&a8, &b8) > 1000);
}

static void test_prefetch_2018(void)
{
	struct blab_sim_result a, b;

	/* one CPU: within 2 % (seed 000: the patch is about the contended case) */
	CHECK_EQ(run(BLAB_WL_PAGE_FAULT1, "v4.16", 1, 512, 0, NULL, &a), 0);
	CHECK_EQ(run(BLAB_WL_PAGE_FAULT1, "v4.17", 1, 512, 0, NULL, &b), 0);
	CHECK(permille(&a, &b) >= 980 && permille(&a, &b) <= 1020);
	CHECK_EQ(b.zone_contention_bp, 0);

	/* 56 CPUs contending: 4.17 ahead by more than 1 %, with less hold time per
	 * acquisition, fewer misses under the lock, and buddy prefetches that landed */
	CHECK_EQ(run(BLAB_WL_PAGE_FAULT1, "v4.16", 56, 512, 0, NULL, &a), 0);
	CHECK_EQ(run(BLAB_WL_PAGE_FAULT1, "v4.17", 56, 512, 0, NULL, &b), 0);
	CHECK(a.zone_contention_bp > 2000);
	CHECK(permille(&a, &b) > 1010);
	CHECK(b.zone_hold / b.zone_acq < a.zone_hold / a.zone_acq);
	CHECK(b.misses_zone_locked < a.misses_zone_locked);
	/* the buddy prefetches are used: landed or on their way (late), seldom wasted; many
	 * are late because the buddy's struct page was last written by another CPU's LRU
	 * list_del, so the prefetch fetches a modified line from a remote core */
	CHECK(b.pf_hit > 0);
	CHECK(b.pf_hit + b.pf_late > 10 * b.pf_wasted);
	CHECK_EQ(a.prefetches, 0);
}

static void test_trunc_2022(void)
{
	struct blab_sim_result a, b, c;

	/* one task truncating: the single pass (8b10b465d0e1) is faster than the two passes
	 * it replaced (seed 002: elapsed -2.4 %, -3.6 %); no zone->lock contention */
	CHECK_EQ(run(BLAB_WL_TRUNC, "v5.17", 1, 4096, 0, NULL, &a), 0);
	CHECK_EQ(run(BLAB_WL_TRUNC, "v5.18-prefetch", 1, 4096, 0, NULL, &b), 0);
	CHECK_EQ(run(BLAB_WL_TRUNC, "v5.18", 1, 4096, 0, NULL, &c), 0);
	CHECK(permille(&a, &b) > 1000);
	CHECK(permille(&a, &c) > 1000);
	CHECK_EQ(a.zone_contention_bp, 0);
	CHECK_EQ(a.pages_total, 2 * 4096);
	CHECK_EQ(a.pages_scored, 4096);
	CHECK(a.lru_acq > 0);
}

/* lru_lock holds of one parallel_free task per round: lru_cache_add()'s pagevecs of 15 while
 * faulting, release_pages()'s batches of SWAP_CLUSTER_MAX (32) while unmapping */
static uint64_t pfree_lru_holds(uint32_t pages)
{
	return (pages + 14) / 15 + (pages + 31) / 32;
}

static void test_parallel_free(void)
{
	struct blab_sim_result a, b;

	CHECK_EQ(run(BLAB_WL_PARALLEL_FREE, "v4.16", 1, 256, 0, NULL, &a), 0);
	CHECK_EQ(a.pages_total, 2 * 256);
	CHECK_EQ(a.pages_scored, 256);
	CHECK_EQ(a.zone_contention_bp, 0);
	CHECK_EQ(a.free_zone_contention_bp, 0);
	CHECK_EQ(a.free_lru_contention_bp, 0);
	/* the pages go on the LRU list as they are faulted and come off it as they are freed;
	 * the run itself fails (BLAB_ECHECK) when any page is left on the list */
	CHECK_EQ(a.lru_acq, 2 * pfree_lru_holds(256));
	CHECK_EQ(run(BLAB_WL_PARALLEL_FREE, "v4.16", 16, 250, 0, NULL, &b), 0);
	CHECK_EQ(b.pages_scored, 16 * 250);
	CHECK_EQ(b.lru_acq, 16 * 2 * pfree_lru_holds(250)); /* 250: partial batches too */
	CHECK(b.zone_contention_bp > 0);
	CHECK(b.free_zone_contention_bp > 0 && b.free_lru_contention_bp > 0);
	/* sixteen CPUs freeing at once free less than sixteen times as fast */
	CHECK(b.score < 16 * a.score);
}

/*
 * Seed 004 (Lu's RFC, parallel free): patch 2/4's skip-merge takes the free path's work out
 * of zone->lock, and the contention moves to lru_lock (zone->lock 90% -> almost 0, lru_lock
 * almost 0 -> 90%). The model reproduces that in the free half at 56 tasks; the margins are
 * wide (the model gives about 56 -> 0 % and 39 -> 92 % here), the values are not asserted.
 * Whole-run figures include the set-up's faults, where 2/4 changes little, so they are not
 * what the seed measured.
 */
static void test_skipmerge_parallel_free(void)
{
	struct blab_sim_result base, p2, p4;

	CHECK_EQ(run(BLAB_WL_PARALLEL_FREE, "v4.16", 56, 256, 0, NULL, &base), 0);
	CHECK_EQ(run(BLAB_WL_PARALLEL_FREE, "lu-rfc-p2", 56, 256, 0, NULL, &p2), 0);
	CHECK_EQ(run(BLAB_WL_PARALLEL_FREE, "lu-rfc-p4", 56, 256, 0, NULL, &p4), 0);
	fprintf(stderr, "parallel_free 56 tasks free half zone->lock / lru_lock bp: v4.16 %u / %u, "
		"lu-rfc-p2 %u / %u, lu-rfc-p4 %u / %u\n", base.free_zone_contention_bp,
		base.free_lru_contention_bp, p2.free_zone_contention_bp, p2.free_lru_contention_bp,
		p4.free_zone_contention_bp, p4.free_lru_contention_bp);
	CHECK(base.free_zone_contention_bp > 3000);         /* the base is zone->lock bound */
	CHECK(p2.free_zone_contention_bp * 10 < base.free_zone_contention_bp);
	CHECK(p2.free_lru_contention_bp > 7000);            /* lru_lock takes over */
	CHECK(p2.free_lru_contention_bp > base.free_lru_contention_bp + 3000);
	CHECK(p4.free_zone_contention_bp * 10 < base.free_zone_contention_bp);
	CHECK(p4.free_lru_contention_bp > base.free_lru_contention_bp + 3000);
	/* with zone->lock out of the way, the pages are freed faster */
	CHECK(p2.score > base.score);
}

/*
 * Seed 004's page_fault1 figures are a profile of the running benchmark, so page_fault1 also
 * reports the scored rounds' contention: each task's spin after its warm-up round. The RFC's
 * warm-up splits every page out of high-order blocks under zone->lock, which the steady state
 * does not: lu-rfc-p4 spins on zone->lock in the warm-up and hardly after it, v4.16 throughout.
 * With one round the scored figure is the whole run's.
 */
static void test_scored_contention(void)
{
	struct blab_sim_result base, p4, one;
	struct blab_sim_config c;
	char err[160];

	CHECK_EQ(run(BLAB_WL_PAGE_FAULT1, "v4.16", 56, 512, 0, NULL, &base), 0);
	CHECK_EQ(run(BLAB_WL_PAGE_FAULT1, "lu-rfc-p4", 56, 512, 0, NULL, &p4), 0);
	fprintf(stderr, "page_fault1 56 tasks zone->lock bp whole run / scored rounds: v4.16 %u / "
		"%u, lu-rfc-p4 %u / %u\n", base.zone_contention_bp, base.scored_zone_contention_bp,
		p4.zone_contention_bp, p4.scored_zone_contention_bp);
	CHECK(base.scored_zone_contention_bp > 5000);
	CHECK(p4.scored_zone_contention_bp * 4 < p4.zone_contention_bp);
	CHECK(p4.scored_lru_contention_bp > p4.scored_zone_contention_bp);

	blab_sim_config_init(&c);
	c.workload = BLAB_WL_PAGE_FAULT1;
	c.cpus = 8;
	c.pages = 256;
	c.iterations = 1;
	c.clear_lines = 8;
	CHECK_EQ(blab_preset("v4.16", &c.strategy), 0);
	CHECK_EQ(blab_sim_run(&c, &one, err, sizeof(err)), 0);
	CHECK_EQ(one.scored_zone_contention_bp, one.zone_contention_bp);
	CHECK_EQ(one.scored_lru_contention_bp, one.lru_contention_bp);
}

/* Lu RFC 2/4: with merges skipped there is no buddy to prefetch, so its two-pass bulk free
 * issues none (4.17 with the same loop does) */
static void test_skipmerge_no_prefetch(void)
{
	struct blab_sim_result p2, v417;

	CHECK_EQ(run(BLAB_WL_PAGE_FAULT1, "lu-rfc-p2", 8, 256, 0, NULL, &p2), 0);
	CHECK_EQ(run(BLAB_WL_PAGE_FAULT1, "v4.17", 8, 256, 0, NULL, &v417), 0);
	CHECK_EQ(p2.prefetches, 0);
	CHECK(v417.prefetches > 0);
}

static void test_topology(void)
{
	struct blab_sim_result a;
	struct blab_sim_config c;
	char err[160];

	/* 113..256 CPUs need more sockets: 4 x 28 x 2 = 224, 8 sockets for the rest */
	CHECK_EQ(run(BLAB_WL_PAGE_FAULT1, "v4.17", 200, 8, 4, NULL, &a), 0);
	CHECK_EQ(a.pages_scored, 200 * 8);
	CHECK_EQ(run(BLAB_WL_PAGE_FAULT1, "v4.17", 256, 8, 8, NULL, &a), 0);
	CHECK_EQ(a.pages_scored, 256 * 8);
	blab_sim_config_init(&c);
	c.pages = 8;
	c.cpus = 225;
	c.sockets = 4;
	CHECK_EQ(blab_sim_run(&c, &a, err, sizeof(err)), BLAB_ECPU);
	c.sockets = 9;
	CHECK_EQ(blab_sim_run(&c, &a, err, sizeof(err)), BLAB_EINVAL);
	c.sockets = 0;
	c.cpus = 2;
	c.cache_scale = 3;
	CHECK_EQ(blab_sim_run(&c, &a, err, sizeof(err)), BLAB_EINVAL);
	c.cache_scale = 16;
	CHECK_EQ(blab_sim_run(&c, &a, err, sizeof(err)), 0);
}

static void test_determinism(void)
{
	uint64_t h1, h2;
	struct blab_sim_result a, b;
	const uint32_t wl[] = {BLAB_WL_PARALLEL_FREE, BLAB_WL_TRUNC, BLAB_WL_PAGE_FAULT1};

	for (unsigned i = 0; i < 3; i++) {
		CHECK_EQ(run(wl[i], "v4.17", 3, 128, 0, &h1, &a), 0);
		CHECK_EQ(run(wl[i], "v4.17", 3, 128, 0, &h2, &b), 0);
		CHECK(h1 == h2);
		CHECK_EQ(wide_pfns, 0);
		CHECK_EQ(a.score, b.score);
		CHECK_EQ(a.cycles_total, b.cycles_total);
	}
}

int main(void)
{
	test_determinism();
	test_pcp_2002();
	test_prefetch_2018();
	test_trunc_2022();
	test_parallel_free();
	test_skipmerge_parallel_free();
	test_scored_contention();
	test_skipmerge_no_prefetch();
	test_topology();
	return harness_report("test_fidelity");
}
