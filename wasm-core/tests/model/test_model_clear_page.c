/* cache_clear_page(): a cleared frame's lines push struct page lines out of L1, L2 and the
 * LLC as true LRU says, waste prefetches they evict, and stay coherent with frame lines the
 * directory knows. */
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "machine/model/model.h"

#define PG(pfn) MODEL_PAGE_VADDR(pfn)
#define FR(pfn) MODEL_FRAME_VADDR(pfn)

/* 1 socket x 2 cores: L1 one set of l1_ways, L2 one set of 16, LLC 2 sets of 16. */
static void tiny(struct model_params *p, uint32_t l1_ways)
{
	model_params_default(p);
	p->sockets = 1;
	p->cores_per_socket = 2;
	p->threads_per_core = 1;
	p->l1_bytes = 64 * l1_ways;
	p->l1_ways = l1_ways;
	p->l2_bytes = 64 * 16;
	p->l2_ways = 16;
	p->llc_bytes_per_core = 64 * 16; /* x 2 cores = 2 sets of 16 */
	p->llc_ways = 16;
	p->fill_buffers = 0;
}

static uint32_t out(struct cache_model *m, uint32_t cpu, uint64_t va)
{
	return cache_access(m, cpu, va, 0, 0, 0).outcome;
}

/* n clear_page()s of one line each (distinct frames) by CPU cpu */
static void clears(struct cache_model *m, uint32_t cpu, uint32_t first_pfn, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		cache_clear_page(m, cpu, FR(first_pfn + i), 1, 0, 0);
}

static void check_ok(const struct cache_model *m)
{
	char why[160] = "";
	if (cache_check(m, why, sizeof(why)))
		fprintf(stderr, "cache_check: %s\n", why);
	CHECK_EQ(cache_check(m, why, sizeof(why)), 0);
}

/* A struct page line is pushed down one level at a time: l1_ways fillers to leave L1, 16 to
 * leave L2 (into the victim LLC), and 16 in its LLC set to leave the LLC; the L2 passes
 * fillers on to the LLC, where they alternate between its two sets. */
static void evictions(uint32_t l1_ways)
{
	struct model_params p;
	struct cache_model m;
	tiny(&p, l1_ways);
	CHECK_EQ(cache_init(&m, &p, 1, 64, 0), 0);
	CHECK_EQ(out(&m, 0, PG(0)), CACHE_MEM);
	clears(&m, 0, 1000, l1_ways - 1);
	CHECK_EQ(out(&m, 0, PG(0)), CACHE_L1); /* ranked last, still there */
	clears(&m, 0, 1000, l1_ways);
	CHECK_EQ(out(&m, 0, PG(0)), CACHE_L2);
	clears(&m, 0, 2000, 16);
	CHECK_EQ(out(&m, 0, PG(0)), CACHE_LLC); /* the L2 victim went to the victim LLC */
	check_ok(&m);
	clears(&m, 0, 3000, 16); /* out of L2 again: the LLC copy becomes most recent */
	clears(&m, 0, 4000, 31); /* 15 or 16 fillers in each LLC set: 15 in its own */
	CHECK_EQ(out(&m, 0, PG(0)), CACHE_LLC);
	clears(&m, 0, 5000, 16); /* out of L2 once more, most recent in the LLC */
	clears(&m, 0, 6000, 32); /* 16 fillers in its set: gone */
	CHECK_EQ(out(&m, 0, PG(0)), CACHE_MEM);
	CHECK_EQ(cache_cpu_counters(&m, 0).cleared_lines, (uint64_t)(l1_ways - 1 + l1_ways + 16 + 16 + 31 + 16 + 32));
	CHECK_EQ(cache_cpu_counters(&m, 0).access[CACHE_MEM], 2); /* cleared lines are not accesses */
	check_ok(&m);
	cache_free(&m);
}

static void test_evictions(void)
{
	evictions(4); /* ranks rotated one by one */
	evictions(8); /* ranks rotated eight to a word */
}

/* A prefetched line evicted by the clear, unused, is wasted and reported. */
static void test_wasted_prefetch(void)
{
	struct model_params p;
	struct cache_model m;
	struct cache_wasted w[MODEL_WASTED_MAX];
	tiny(&p, 4);
	CHECK_EQ(cache_init(&m, &p, 1, 64, 0), 0);
	cache_prefetch(&m, 0, PG(5), 0, 7);
	clears(&m, 0, 100, 4);
	CHECK_EQ(cache_cpu_counters(&m, 0).pf_wasted, 1);
	CHECK_EQ(cache_path_counters(&m, 7).pf_wasted, 1);
	CHECK_EQ(cache_take_wasted(&m, w, MODEL_WASTED_MAX), 1);
	CHECK_EQ(w[0].vaddr, PG(5));
	CHECK_EQ(w[0].path, 7);
	CHECK_EQ(cache_finish(&m), 0); /* nothing left in flight */
	check_ok(&m);
	cache_free(&m);
}

/* nlines spreads the lines over the frame; an inclusive LLC receives every one of them, a
 * victim LLC only what the L2 pushes out. */
static void test_lines_and_llc_modes(void)
{
	struct model_params p;
	struct cache_model m;
	model_params_default(&p);
	CHECK_EQ(cache_init(&m, &p, 1, 64, 0), 0);
	cache_clear_page(&m, 0, FR(10), 64, 0, 3);
	cache_clear_page(&m, 0, FR(11), 8, 0, 3);
	CHECK_EQ(cache_cpu_counters(&m, 0).cleared_lines, 72);
	CHECK_EQ(cache_path_counters(&m, 3).cleared_lines, 72);
	CHECK_EQ(m.llc[0].fillers, 0); /* L2 not full yet: nothing pushed down */
	check_ok(&m);
	cache_free(&m);

	p.llc_victim = 0;
	CHECK_EQ(cache_init(&m, &p, 1, 64, 0), 0);
	cache_clear_page(&m, 0, FR(10), 64, 0, 0);
	CHECK_EQ(m.llc[0].fillers, 64);
	check_ok(&m);
	cache_free(&m);
}

/* A frame line the directory knows (read through cache_access by another core) is written
 * coherently: the reader's copy goes stale and its next read meets the clearer's copy. */
static void test_known_frame_line(void)
{
	struct model_params p;
	struct cache_model m;
	tiny(&p, 4);
	CHECK_EQ(cache_init(&m, &p, 2, 64, 0), 0);
	CHECK_EQ(out(&m, 1, FR(7)), CACHE_MEM);
	CHECK_EQ(out(&m, 1, FR(7)), CACHE_L1);
	cache_clear_page(&m, 0, FR(7), 1, 0, 0);
	CHECK_EQ(cache_cpu_counters(&m, 0).writes, 1); /* only the known line went through cache_access */
	CHECK_EQ(out(&m, 1, FR(7)), CACHE_REMOTE);
	check_ok(&m);
	cache_free(&m);
}

/* The batched clear (each line its own L2 set, no frame line in the directory) and the plain
 * loop (taken once the directory knows any hashed line) give the same caches: the same
 * outcomes for a long mix of struct page touches, prefetches and clears, on CPU 0, while
 * CPU 28 (other socket, other LLC) only puts a hashed line into model b's directory. */
static void test_batched_equals_loop(void)
{
	struct model_params p;
	struct cache_model a, b;
	model_params_default(&p);
	CHECK_EQ(cache_init(&a, &p, 29, 1 << 14, 0), 0);
	CHECK_EQ(cache_init(&b, &p, 29, 1 << 14, 0), 0);
	(void)out(&b, 28, FR(1 << 20));
	CHECK(b.dir_hash_live > 0 && a.dir_hash_live == 0);
	uint64_t x = 12345, diff = 0;
	for (uint32_t i = 0; i < 200000; i++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		uint32_t pfn = (uint32_t)(x >> 33) % (1 << 14), op = (uint32_t)(x >> 20) % 16;
		if (op == 0) {
			cache_clear_page(&a, 0, FR(pfn), 64, i, 0);
			cache_clear_page(&b, 0, FR(pfn), 64, i, 0);
		} else if (op == 1) {
			diff += cache_prefetch(&a, 0, PG(pfn), i, 1) != cache_prefetch(&b, 0, PG(pfn), i, 1);
		} else {
			struct cache_result ra = cache_access(&a, 0, PG(pfn), op & 2, i, 0);
			struct cache_result rb = cache_access(&b, 0, PG(pfn), op & 2, i, 0);
			diff += ra.outcome != rb.outcome || ra.cycles != rb.cycles;
		}
	}
	CHECK_EQ(diff, 0);
	{ struct cache_counters ca = cache_cpu_counters(&a, 0), cb = cache_cpu_counters(&b, 0); CHECK(memcmp(ca.access, cb.access, sizeof(ca.access)) == 0); }
	CHECK(cache_cpu_counters(&a, 0).access[CACHE_LLC] > 0 && cache_cpu_counters(&a, 0).access[CACHE_MEM] > 0);
	CHECK_EQ(cache_cpu_counters(&a, 0).pf_wasted, cache_cpu_counters(&b, 0).pf_wasted);
	CHECK_EQ(a.llc[0].fillers, b.llc[0].fillers);
	CHECK(a.llc[0].fillers > 0);
	check_ok(&a);
	check_ok(&b);
	cache_free(&a);
	cache_free(&b);
}

/* Lazy clears (cache_clear.h, "clear_page() in bulk": model a) against clears applied at once
 * (model b, whose directory knows a frame line): the same outcome and cycles for every
 * access and prefetch, the same wasted prefetches in the same order, the same counters, on
 * CPUs that share a core (0 and 56), another core (1) and the other socket (28), with L2
 * and LLC at full size and at an eighth (two groups of 64 L2 sets). Model a is checked
 * (cache_check: ranks, filler ranks, deadlines, due masks, prefetch marks) as it goes. */
static void lazy_equals_loop(uint32_t scale)
{
	static const uint32_t cpus[] = {0, 56, 1, 28};
	struct model_params p;
	struct cache_model a, b;
	struct cache_wasted wa[MODEL_WASTED_MAX], wb[MODEL_WASTED_MAX];
	model_params_default(&p);
	p.l2_bytes /= scale;
	p.llc_bytes_per_core /= scale;
	CHECK_EQ(cache_init(&a, &p, 57, 1 << 13, 0), 0);
	CHECK_EQ(cache_init(&b, &p, 57, 1 << 13, 0), 0);
	CHECK(a.l1[0].lazy && a.l2[0].due != NULL);
	cache_set_frames(&a, 0, 1 << 13);
	cache_set_frames(&b, 0, 1 << 14);
	(void)out(&a, 28, FR((1 << 13) + 7)); /* a frame line for b only */
	(void)out(&b, 28, FR((1 << 13) + 7));
	CHECK(a.dir_frame_live == 0 && b.dir_frame_live == 1);
	uint64_t x = 777 + scale, diff = 0, clears = 0;
	for (uint32_t i = 0; i < 120000; i++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		uint32_t pfn = (uint32_t)(x >> 33) % 3000, op = (uint32_t)(x >> 20) % 16;
		uint32_t cpu = cpus[(x >> 40) % 4];
		if (op == 0) {
			cache_clear_page(&a, cpu, FR(pfn), 64, i, 0);
			cache_clear_page(&b, cpu, FR(pfn), 64, i, 0);
			clears++;
		} else if (op == 1) {
			diff += cache_prefetch(&a, cpu, PG(pfn), i, 1) !=
				cache_prefetch(&b, cpu, PG(pfn), i, 1);
		} else {
			struct cache_result ra = cache_access(&a, cpu, PG(pfn), op & 2, i, 0);
			struct cache_result rb = cache_access(&b, cpu, PG(pfn), op & 2, i, 0);
			diff += ra.outcome != rb.outcome || ra.cycles != rb.cycles;
		}
		uint32_t na = cache_take_wasted(&a, wa, MODEL_WASTED_MAX);
		uint32_t nb = cache_take_wasted(&b, wb, MODEL_WASTED_MAX);
		diff += na != nb || memcmp(wa, wb, na * sizeof(wa[0])) != 0;
		if (i % 4000 == 0)
			check_ok(&a);
	}
	CHECK_EQ(diff, 0);
	CHECK(clears > 5000);
	CHECK(memcmp(a.cnt_cpu, b.cnt_cpu, sizeof(a.cnt_cpu)) == 0);
	CHECK(memcmp(a.mru_cpu, b.mru_cpu, sizeof(a.mru_cpu)) == 0);
	CHECK(cache_cpu_counters(&a, 0).access[CACHE_LLC] > 0 && cache_cpu_counters(&a, 0).access[CACHE_REMOTE] > 0);
	CHECK(cache_cpu_counters(&a, 0).pf_wasted > 0);
	CHECK_EQ(a.llc[0].fillers, b.llc[0].fillers);
	CHECK_EQ(a.llc[1].fillers, b.llc[1].fillers);
	CHECK_EQ(cache_finish(&a), cache_finish(&b));
	check_ok(&a);
	check_ok(&b);
	cache_free(&a);
	cache_free(&b);
}

static void test_lazy_equals_loop(void)
{
	lazy_equals_loop(1);
	lazy_equals_loop(8);
}

/* cache_set_frames: a hashed line outside the zone's frames (struct zone's free_area sits in
 * the direct map below them) leaves cache_clear_page on its batched path; a frame line of the
 * zone, or any hashed line before the range is known, does not. */
static void test_frame_range(void)
{
	struct model_params p;
	struct cache_model m;
	model_params_default(&p);
	CHECK_EQ(cache_init(&m, &p, 2, 0x100000 + 4096, 0), 0);
	(void)out(&m, 0, FR(0x7ffc0)); /* below the zone */
	CHECK_EQ(m.dir_frame_live, 1);
	cache_set_frames(&m, 0x100000, 4096);
	CHECK_EQ(m.dir_frame_live, 0);
	(void)out(&m, 1, FR(0x7ffc1));
	(void)out(&m, 1, FR(0x100000 + 4096)); /* one past the last frame */
	CHECK_EQ(m.dir_frame_live, 0);
	CHECK_EQ(m.dir_hash_live, 3);
	(void)out(&m, 1, FR(0x100000 + 4095) + 64 * 63);
	CHECK_EQ(m.dir_frame_live, 1);
	/* the known frame line stays coherent: the clear writes it, CPU 1's copy goes stale */
	cache_clear_page(&m, 0, FR(0x100000 + 4095), 64, 10, 0);
	CHECK_EQ(out(&m, 1, FR(0x100000 + 4095) + 64 * 63), CACHE_REMOTE);
	check_ok(&m);
	cache_free(&m);
}

int main(void)
{
	test_frame_range();
	test_batched_equals_loop();
	test_lazy_equals_loop();
	test_evictions();
	test_wasted_prefetch();
	test_lines_and_llc_modes();
	test_known_frame_line();
	return harness_report("test_model_clear_page");
}
