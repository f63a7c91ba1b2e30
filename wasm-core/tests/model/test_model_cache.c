/* The cache model: LRU order, capacity misses, write-invalidate, prefetch hit/late/wasted. */
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "machine/model/model.h"
#include "blab.h"

#define PG(pfn) MODEL_PAGE_VADDR(pfn)

/* 2 sockets x 2 cores x 2 threads: CPU c on core c % 4, socket (c % 4) / 2; CPU 4 is CPU 0's
 * SMT sibling. Latencies as the defaults: L1 4, L2 14, LLC 55, xcore 70, xsocket 300, mem 240. */
static void tiny(struct model_params *p, uint32_t l1_ways)
{
	model_params_default(p);
	p->sockets = 2;
	p->cores_per_socket = 2;
	p->threads_per_core = 2;
	p->l1_bytes = 64 * l1_ways; /* one set */
	p->l1_ways = l1_ways;
	p->l2_bytes = 64 * 16; /* one set of 16 */
	p->l2_ways = 16;
	p->llc_bytes_per_core = 64 * 16; /* 2 sets x 16 per socket */
	p->llc_ways = 16;
}

static uint32_t out(struct cache_model *m, uint32_t cpu, uint64_t va, int write, uint64_t now)
{
	return cache_access(m, cpu, va, write, now, 0).outcome;
}

static void test_lru_order(void)
{
	struct model_params p;
	struct cache_model m;
	tiny(&p, 4);
	CHECK_EQ(cache_init(&m, &p, 1, 64, 0), 0);
	for (int i = 0; i < 4; i++) /* A B C D */
		CHECK_EQ(out(&m, 0, PG(i), 0, 0), CACHE_MEM);
	CHECK_EQ(out(&m, 0, PG(0), 0, 0), CACHE_L1); /* recency, newest first: A D C B */
	CHECK_EQ(out(&m, 0, PG(1), 0, 0), CACHE_L1); /* B A D C */
	CHECK_EQ(out(&m, 0, PG(4), 0, 0), CACHE_MEM); /* E evicts C: E B A D */
	CHECK_EQ(out(&m, 0, PG(3), 0, 0), CACHE_L1);  /* D still there: D E B A */
	CHECK_EQ(out(&m, 0, PG(2), 0, 0), CACHE_L2);  /* C was the one evicted; evicts A */
	CHECK_EQ(out(&m, 0, PG(1), 0, 0), CACHE_L1);
	CHECK_EQ(out(&m, 0, PG(0), 0, 0), CACHE_L2);
	CHECK_EQ(cache_cpu_counters(&m, 0).access[CACHE_MEM], 5);
	CHECK_EQ(cache_cpu_counters(&m, 0).access[CACHE_L1], 4);
	CHECK_EQ(cache_cpu_counters(&m, 0).access[CACHE_L2], 2);
	CHECK_EQ(cache_cpu_counters(&m, 0).cycles, 5 * 240 + 4 * 4 + 2 * 14);
	cache_free(&m);
}

/* Sequential passes over n struct pages on one CPU with the default (Skylake-SP) sizes. */
static void two_passes(uint32_t n, uint32_t want, int victim)
{
	struct model_params p;
	struct cache_model m;
	model_params_default(&p);
	p.llc_victim = (uint32_t)victim;
	CHECK_EQ(cache_init(&m, &p, 1, n, 0), 0);
	for (uint32_t i = 0; i < n; i++)
		CHECK_EQ(out(&m, 0, PG(i), 0, i), CACHE_MEM);
	uint64_t before[CACHE_NR_OUTCOMES];
	{ struct cache_counters c0 = cache_cpu_counters(&m, 0); memcpy(before, c0.access, sizeof(before)); }
	for (uint32_t i = 0; i < n; i++)
		out(&m, 0, PG(i), 0, n + i);
	CHECK_EQ(cache_cpu_counters(&m, 0).access[want] - before[want], n);
	CHECK_EQ(cache_check(&m, NULL, 0), 0);
	cache_free(&m);
}

static void test_capacity(void)
{
	two_passes(256, CACHE_L1, 1);     /* 16 KB fits the 32 KB L1 */
	two_passes(1024, CACHE_L2, 1);    /* 64 KB: 16 lines per 8-way L1 set, LRU thrashes */
	two_passes(32768, CACHE_LLC, 1);  /* 2 MB > 1 MB L2: the victim LLC got the evictions */
	two_passes(32768, CACHE_LLC, 0);  /* inclusive fill: same answer */
}

static void test_write_invalidate(void)
{
	struct model_params p;
	struct cache_model m;
	struct cache_result r;
	tiny(&p, 4);
	CHECK_EQ(cache_init(&m, &p, 8, 64, 0), 0);
	r = cache_access(&m, 0, PG(7), 1, 0, 0);
	CHECK_EQ(r.outcome, CACHE_MEM);
	CHECK_EQ(r.cycles, 240);
	r = cache_access(&m, 1, PG(7), 0, 0, 0); /* CPU 1: other core, same socket */
	CHECK_EQ(r.outcome, CACHE_REMOTE);
	CHECK_EQ(r.cycles, 70);
	CHECK_EQ(out(&m, 1, PG(7), 0, 0), CACHE_L1); /* now it has its own copy */
	CHECK_EQ(out(&m, 0, PG(7), 0, 0), CACHE_L1); /* shared: the writer keeps its copy */
	CHECK_EQ(out(&m, 4, PG(7), 0, 0), CACHE_L1); /* CPU 0's SMT sibling shares its L1 */

	/* CPU 2 (socket 1) writes: every other copy goes stale */
	CHECK_EQ(out(&m, 2, PG(7), 1, 0), CACHE_MEM);
	r = cache_access(&m, 0, PG(7), 0, 0, 0);
	CHECK_EQ(r.outcome, CACHE_REMOTE);
	CHECK_EQ(r.cycles, 300); /* across sockets */
	/* CPU 1's copy is stale too; the line is no longer Modified anywhere, but CPU 0's
	 * remote hit left a shared copy in socket 0's LLC */
	CHECK_EQ(out(&m, 1, PG(7), 0, 0), CACHE_LLC);
	CHECK_EQ(out(&m, 2, PG(7), 0, 0), CACHE_L1);

	/* writes to a line one already owns keep it: no invalidation of itself */
	CHECK_EQ(out(&m, 3, PG(9), 1, 0), CACHE_MEM);
	CHECK_EQ(out(&m, 3, PG(9), 1, 0), CACHE_L1);
	CHECK_EQ(out(&m, 3, PG(9), 0, 0), CACHE_L1);
	CHECK_EQ(cache_cpu_counters(&m, 3).writes, 2);
	cache_free(&m);
}

static void test_hashed_lines(void)
{
	struct model_params p;
	struct cache_model m;
	tiny(&p, 4);
	/* page frames and slab objects live in the hashed directory */
	CHECK_EQ(cache_init(&m, &p, 2, 0, 1), 0); /* one slot: every new line forgets the last */
	uint64_t a = MODEL_FRAME_VADDR(5), b = MODEL_FRAME_VADDR(6) + 64;
	CHECK_EQ(out(&m, 0, a, 1, 0), CACHE_MEM);
	CHECK_EQ(out(&m, 1, a, 0, 0), CACHE_REMOTE);
	CHECK_EQ(out(&m, 1, a, 0, 0), CACHE_L1);
	CHECK_EQ(m.dir_forgotten, 0);
	CHECK_EQ(out(&m, 0, b, 0, 0), CACHE_MEM);
	CHECK_EQ(m.dir_forgotten, 1);
	/* a's history is gone: its copies are stale, a conservative miss */
	CHECK_EQ(out(&m, 1, a, 0, 0), CACHE_MEM);
	CHECK_EQ(m.dir_forgotten, 2);
	cache_free(&m);
}

static void remember(void *ctx, const struct cache_wasted *w)
{
	*(struct cache_wasted *)ctx = *w;
}

static void test_prefetch(void)
{
	struct model_params p;
	struct cache_model m;
	struct cache_result r;
	tiny(&p, 2);
	CHECK_EQ(cache_init(&m, &p, 8, 64, 0), 0);

	/* lands before use: a prefetch hit at L1 cost */
	CHECK_EQ(cache_prefetch(&m, 0, PG(1), 1000, 7), 240);
	r = cache_access(&m, 0, PG(1), 0, 1240, 3);
	CHECK_EQ(r.outcome, CACHE_PF_HIT);
	CHECK_EQ(r.cycles, 4);
	CHECK_EQ(out(&m, 0, PG(1), 0, 1300), CACHE_L1); /* used once: a plain line now */

	/* used while in flight: pays the rest */
	CHECK_EQ(cache_prefetch(&m, 0, PG(2), 2000, 7), 240);
	r = cache_access(&m, 0, PG(2), 1, 2100, 3);
	CHECK_EQ(r.outcome, CACHE_PF_LATE);
	CHECK_EQ(r.cycles, 140);

	/* a second prefetch of a line in L1 does nothing */
	CHECK_EQ(cache_prefetch(&m, 0, PG(2), 2200, 7), 0);
	CHECK_EQ(cache_cpu_counters(&m, 0).pf_redundant, 1);

	/* prefetched from L2: lands after the L2 latency */
	CHECK_EQ(out(&m, 0, PG(3), 0, 2300), CACHE_MEM); /* L1 {3, 2}, 1 only in L2 */
	CHECK_EQ(cache_prefetch(&m, 0, PG(1), 2400, 7), 14); /* evicts 2 */
	r = cache_access(&m, 0, PG(1), 0, 2404, 3);
	CHECK_EQ(r.outcome, CACHE_PF_LATE);
	CHECK_EQ(r.cycles, 10);

	/* evicted before use: wasted, charged to the prefetching CPU and path */
	CHECK_EQ(cache_prefetch(&m, 0, PG(4), 3000, 9), 240);
	out(&m, 0, PG(5), 0, 3500);
	CHECK_EQ(cache_cpu_counters(&m, 0).pf_wasted, 0);
	out(&m, 0, PG(6), 0, 3600); /* L1 is 2-way: 4 goes */
	CHECK_EQ(cache_cpu_counters(&m, 0).pf_wasted, 1);
	CHECK_EQ(cache_path_counters(&m, 9).pf_wasted, 1);
	CHECK_EQ(out(&m, 0, PG(4), 0, 4000), CACHE_L2); /* no prefetch credit any more */

	struct cache_wasted wl[4];
	CHECK_EQ(cache_take_wasted(&m, wl, 4), 1);
	CHECK_EQ(wl[0].vaddr, PG(4));
	CHECK_EQ(wl[0].cpu, 0);
	CHECK_EQ(wl[0].path, 9);
	CHECK_EQ(cache_take_wasted(&m, wl, 4), 0);

	/* invalidated by another CPU's write before use: wasted */
	CHECK_EQ(cache_prefetch(&m, 0, PG(8), 5000, 9), 240);
	out(&m, 1, PG(8), 1, 5010);
	CHECK_EQ(out(&m, 0, PG(8), 0, 6000), CACHE_REMOTE);
	CHECK_EQ(cache_cpu_counters(&m, 0).pf_wasted, 2);

	CHECK_EQ(cache_take_wasted(&m, wl, 4), 1);
	CHECK_EQ(wl[0].vaddr, PG(8));

	/* still unused when the run ends: wasted */
	CHECK_EQ(cache_prefetch(&m, 5, PG(10), 7000, 11), 240); /* CPU 5 = core 1 */
	struct cache_wasted last = { 0, 0, 0 };
	CHECK_EQ(cache_finish_each(&m, remember, &last), 1);
	CHECK_EQ(last.vaddr, PG(10));
	CHECK_EQ(last.cpu, 5);
	CHECK_EQ(last.path, 11);
	CHECK_EQ(m.nwasted, 0);
	CHECK_EQ(cache_cpu_counters(&m, 5).pf_wasted, 1);
	CHECK_EQ(cache_path_counters(&m, 11).pf_wasted, 1);
	CHECK_EQ(cache_finish(&m), 0);

	CHECK_EQ(cache_cpu_counters(&m, 0).prefetches, 5);
	CHECK_EQ(cache_path_counters(&m, 7).prefetches, 3);
	CHECK_EQ(cache_path_counters(&m, 3).access[CACHE_PF_HIT], 1);
	CHECK_EQ(cache_path_counters(&m, 3).access[CACHE_PF_LATE], 2);
	struct cache_counters t;
	cache_total(&m, &t);
	CHECK_EQ(t.prefetches, 6);
	CHECK_EQ(t.pf_wasted, 3);
	CHECK_EQ(t.access[CACHE_PF_HIT] + t.access[CACHE_PF_LATE], 3);
	cache_free(&m);
}

static void test_wasted_overflow(void)
{
	struct model_params p;
	struct cache_model m;
	struct cache_wasted wl[MODEL_WASTED_MAX];
	tiny(&p, 2);
	p.fill_buffers = 0;
	CHECK_EQ(cache_init(&m, &p, 1, 64, 0), 0);
	/* 2-way L1: every third prefetch evicts an unused one; nobody drains */
	for (int i = 0; i < MODEL_WASTED_MAX + 5 + 2; i++)
		cache_prefetch(&m, 0, PG(i), 0, 1);
	CHECK_EQ(cache_cpu_counters(&m, 0).pf_wasted, MODEL_WASTED_MAX + 5);
	CHECK_EQ(m.wasted_lost, 5);
	CHECK_EQ(cache_take_wasted(&m, wl, 3), 3);
	CHECK_EQ(wl[0].vaddr, PG(0)); /* oldest first */
	CHECK_EQ(wl[2].vaddr, PG(2));
	CHECK_EQ(cache_take_wasted(&m, wl, MODEL_WASTED_MAX), MODEL_WASTED_MAX - 3);
	CHECK_EQ(wl[0].vaddr, PG(3));
	CHECK_EQ(cache_finish(&m), 2);
	CHECK_EQ(m.nwasted, 0);
	cache_free(&m);
}

static void test_fill_buffers(void)
{
	struct model_params p;
	struct cache_model m;
	struct cache_result r;
	tiny(&p, 8);
	p.fill_buffers = 2;
	CHECK_EQ(cache_init(&m, &p, 8, 64, 0), 0);
	/* a burst of prefetches lands two at a time */
	CHECK_EQ(cache_prefetch(&m, 0, PG(1), 0, 0), 240);
	CHECK_EQ(cache_prefetch(&m, 0, PG(2), 0, 0), 240);
	CHECK_EQ(cache_prefetch(&m, 0, PG(3), 1, 0), 479); /* waits for PG(1)'s buffer */
	/* a demand miss waits behind them: PG(2)'s buffer frees at 240 */
	r = cache_access(&m, 0, PG(4), 0, 10, 0);
	CHECK_EQ(r.outcome, CACHE_MEM);
	CHECK_EQ(r.cycles, 230 + 240);
	/* the other core has its own buffers, and so has the SMT sibling (CPU 4) */
	r = cache_access(&m, 1, PG(5), 0, 10, 0);
	CHECK_EQ(r.cycles, 240);
	r = cache_access(&m, 4, PG(6), 0, 10, 0);
	CHECK_EQ(r.cycles, 240);
	/* PG(3) lands at 480: used at 300 it is late by 180 */
	r = cache_access(&m, 0, PG(3), 0, 300, 0);
	CHECK_EQ(r.outcome, CACHE_PF_LATE);
	CHECK_EQ(r.cycles, 180);
	cache_free(&m);

	p.fill_buffers = 0; /* no limit */
	CHECK_EQ(cache_init(&m, &p, 8, 64, 0), 0);
	for (int i = 0; i < 8; i++)
		CHECK_EQ(cache_prefetch(&m, 0, PG(i), 0, 0), 240);
	cache_free(&m);
}

/* Same sequence, two models: identical counters and results. */
static uint64_t run_random(struct cache_model *m, uint64_t seed)
{
	struct blab_rng r;
	uint64_t h = 1469598103934665603ull;
	blab_rng_seed(&r, seed);
	for (int i = 0; i < 200000; i++) {
		uint64_t x = blab_rng_next(&r);
		uint32_t cpu = (uint32_t)(x % 8);
		uint64_t va = (x >> 8) % 3 ? PG((x >> 16) % 300) : MODEL_FRAME_VADDR((x >> 16) % 50);
		uint64_t now = (uint64_t)i * 10;
		uint32_t v;
		if ((x >> 40) % 5 == 0)
			v = cache_prefetch(m, cpu, va, now, (uint8_t)(x >> 48));
		else
			v = cache_access(m, cpu, va, (x >> 44) & 1, now, (uint8_t)(x >> 48)).cycles;
		h = (h ^ v) * 1099511628211ull;
	}
	return h;
}

/* Touching the line touched last takes a shortcut; it must give the full path's answer. */
static void test_repeat_touch(void)
{
	struct model_params p;
	struct cache_model m;
	tiny(&p, 2);
	CHECK_EQ(cache_init(&m, &p, 8, 64, 0), 0);
	CHECK_EQ(out(&m, 0, PG(1), 0, 0), CACHE_MEM);
	CHECK_EQ(out(&m, 0, PG(1), 1, 0), CACHE_L1); /* repeat, and a write: CPU 0 owns it */
	CHECK_EQ(out(&m, 0, PG(1), 0, 0), CACHE_L1);
	CHECK_EQ(out(&m, 1, PG(1), 0, 0), CACHE_REMOTE); /* the write happened */
	CHECK_EQ(out(&m, 1, PG(1), 1, 0), CACHE_L1);     /* CPU 1 takes it over */
	CHECK_EQ(out(&m, 0, PG(1), 0, 0), CACHE_REMOTE); /* CPU 0's last line went stale */
	/* the SMT sibling makes another line most recent in the shared L1, then evicts PG(1) */
	CHECK_EQ(out(&m, 4, PG(2), 0, 0), CACHE_MEM);
	CHECK_EQ(out(&m, 0, PG(1), 0, 0), CACHE_L1);
	CHECK_EQ(out(&m, 4, PG(2), 0, 0), CACHE_L1);
	CHECK_EQ(out(&m, 4, PG(3), 0, 0), CACHE_MEM); /* 2-way L1: PG(1) goes */
	CHECK_EQ(out(&m, 0, PG(1), 0, 0), CACHE_L2);
	/* a prefetched line is not taken for a plain repeat */
	CHECK_EQ(cache_prefetch(&m, 0, PG(5), 100, 0), 240);
	CHECK_EQ(cache_access(&m, 0, PG(5), 0, 200, 0).outcome, CACHE_PF_LATE);
	CHECK_EQ(cache_access(&m, 0, PG(5), 0, 400, 0).outcome, CACHE_L1);
	CHECK_EQ(cache_check(&m, NULL, 0), 0);
	cache_free(&m);
}

/* The checker notices broken state. */
static void test_checker(void)
{
	struct model_params p;
	struct cache_model m;
	char err[160] = "";
	tiny(&p, 4);
	CHECK_EQ(cache_init(&m, &p, 2, 64, 0), 0);
	for (int i = 0; i < 6; i++)
		out(&m, 0, PG(i), i & 1, 0);
	CHECK_EQ(cache_check(&m, err, sizeof(err)), 0);
	{
		/* a 4-way L1 keeps its LRU order in one word: list the MRU way twice */
		uint64_t o = m.l1[0].sets[0].order;
		m.l1[0].sets[0].order = (o & ~0xf0ull) | ((o & 0xfu) << 4);
		CHECK_EQ(cache_check(&m, err, sizeof(err)), -1);
		CHECK(strstr(err, "L1 0 set 0") && strstr(err, "not a permutation"));
		m.l1[0].sets[0].order = o;
		CHECK_EQ(cache_check(&m, err, sizeof(err)), 0);
		/* a nibble above the last of the 4 ranks must stay 0xf */
		m.l1[0].sets[0].order = o & ~(1ull << 20);
		CHECK_EQ(cache_check(&m, err, sizeof(err)), -1);
		CHECK(strstr(err, "not a permutation") != NULL);
		m.l1[0].sets[0].order = o;
	}
	cache_free(&m);

	CHECK_EQ(cache_init(&m, &p, 2, 64, 0), 0);
	out(&m, 0, PG(1), 0, 0);
	out(&m, 0, PG(2), 0, 0);
	/* fills go to the LRU way: 15, then 14 */
	CHECK(m.l2[0].way[15].line && m.l2[0].way[14].line);
	m.l2[0].way[14].line = m.l2[0].way[15].line;
	CHECK_EQ(cache_check(&m, err, sizeof(err)), -1);
	CHECK(strstr(err, "twice") != NULL);
	cache_free(&m);
}

static void test_determinism(void)
{
	struct model_params p;
	struct cache_model a, b;
	tiny(&p, 4);
	p.l2_bytes = 64 * 16 * 4;
	CHECK_EQ(cache_init(&a, &p, 8, 300, 64), 0);
	CHECK_EQ(cache_init(&b, &p, 8, 300, 64), 0);
	uint64_t ha = run_random(&a, 42), hb = run_random(&b, 42);
	CHECK_EQ(ha, hb);
	char err[160] = "";
	CHECK_EQ(cache_check(&a, err, sizeof(err)), 0);
	if (err[0])
		fprintf(stderr, "%s\n", err);
	CHECK(memcmp(a.cnt_cpu, b.cnt_cpu, sizeof(a.cnt_cpu)) == 0);
	CHECK(memcmp(a.cnt_path, b.cnt_path, sizeof(a.cnt_path)) == 0);
	CHECK(memcmp(a.mru_cpu, b.mru_cpu, sizeof(a.mru_cpu)) == 0);
	CHECK(memcmp(a.mru_path, b.mru_path, sizeof(a.mru_path)) == 0);
	struct cache_counters t;
	cache_total(&a, &t);
	/* the mix exercised every outcome */
	for (int o = 0; o < CACHE_NR_OUTCOMES; o++)
		CHECK(t.access[o] > 0);
	CHECK(t.pf_wasted > 0);
	cache_free(&a);
	cache_free(&b);
}

/*
 * LRU against a plain recency list, for way counts that are and are not multiples of the
 * eight ranks cache_lru.h handles per 64-bit word (touch, LRU search): one CPU, one L1 set, a
 * random stream of reads over a few more lines than the set holds. A read is an L1 hit
 * exactly when its line is among the `ways` most recently used distinct lines.
 */
static void test_lru_reference(void)
{
	static const uint32_t ways[] = {3, 5, 8, 11, 13, 16, 24, 64};
	for (size_t t = 0; t < sizeof(ways) / sizeof(ways[0]); t++) {
		uint32_t n = ways[t], pool = n + 3, recent[67], len = 0;
		struct model_params p;
		struct cache_model m;
		struct blab_rng r;
		char why[160];
		tiny(&p, n);
		CHECK_EQ(cache_init(&m, &p, 1, 128, 0), 0);
		blab_rng_seed(&r, 7 + n);
		for (int i = 0; i < 4000; i++) {
			uint32_t pfn = (uint32_t)(blab_rng_next(&r) % pool), pos = len;
			for (uint32_t j = 0; j < len; j++)
				if (recent[j] == pfn)
					pos = j;
			uint32_t o = out(&m, 0, PG(pfn), 0, (uint64_t)i * 1000);
			if (pos < len && pos < n) /* pos == len: never seen */
				CHECK_EQ(o, CACHE_L1);
			else
				CHECK(o != CACHE_L1);
			if (pos == len)
				len++;
			for (uint32_t j = pos; j > 0; j--) /* move to the front */
				recent[j] = recent[j - 1];
			recent[0] = pfn;
		}
		CHECK_EQ(cache_check(&m, why, sizeof(why)), 0);
		cache_free(&m);
	}
}

int main(void)
{
	test_lru_order();
	test_lru_reference();
	test_capacity();
	test_write_invalidate();
	test_hashed_lines();
	test_prefetch();
	test_fill_buffers();
	test_wasted_overflow();
	test_repeat_touch();
	test_checker();
	test_determinism();
	return harness_report("test_model_cache");
}
