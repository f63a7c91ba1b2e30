/*
 * test_fastpath.c - the inline pcp hit (src/mm/pcp.h) against the op state machine.
 *
 * Two zones with the same config get the same random ops (orders 0..4 and out of range,
 * every migratetype and a bad one, cold and hot, bad cpus, bad pfns, double and misaligned
 * frees, drains): zone A tries rmqueue_pcplist_hit() / free_unref_page_hit() first and falls back to the public
 * calls, exactly as blab_alloc_gfp() does; zone B runs every op through blab_op_step(). The
 * return codes, pfns, event logs (every class, cache accesses included) and the zones'
 * pages, lists and counts must be byte-identical (checked every 61 ops and at the end; the
 * return codes after every op), on the plain machine
 * (recorded and quiet) and the model machine. The fast path must also have been taken.
 */
#include <stdlib.h>
#include "common.h"
#include "mm/pcp.h"

#define HELD 512
#define OPS 3000

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint32_t rnd(uint32_t n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng % n);
}

static struct blab_zone *zone(const char *preset, unsigned machine, int logged, int wmarks)
{
	struct blab_zone_config cfg;
	struct blab_zone *z = NULL;

	blab_zone_config_init(&cfg);
	if (blab_preset(preset, &cfg.strategy))
		return NULL;
	cfg.pages = 1024;
	cfg.cpus = 3;
	/* lists that hold pages: 4.x's zone formula gives a 1024-page zone batch 1 / high 6,
	 * where a list is refilled and drained every few ops and the inline hit never runs */
	cfg.strategy.batch = 7;
	cfg.strategy.high = 42;
	cfg.machine = (uint8_t)machine;
	cfg.strategy.watermarks = (uint8_t)wmarks;
	cfg.log_mask = logged ? BLAB_EVC_ALL : 0;
	cfg.log_capacity = logged ? 1u << 20 : 0;
	if (blab_zone_create(&cfg, &z))
		return NULL;
	return z;
}

static int step_op(struct blab_zone *z, struct blab_op *op)
{
	int ret;

	while ((ret = blab_op_step(z, op)) == BLAB_STEP_LOCK)
		;
	return ret;
}

static int same_zone(const struct blab_zone *a, const struct blab_zone *b)
{
	uint32_t na, nb;
	const struct blab_event *ea = blab_log(a, &na), *eb = blab_log(b, &nb);

	return a->machine.now == b->machine.now && a->free_pages == b->free_pages &&
	       a->below_high == b->below_high &&
	       a->pcp_pages == b->pcp_pages && na == nb &&
	       (!na || !memcmp(ea, eb, na * sizeof(*ea))) &&
	       a->page_stride == b->page_stride && !memcmp(a->mem_map, b->mem_map, (size_t)a->pages * a->page_stride) &&
	       !memcmp(a->pageset, b->pageset, a->cpus * sizeof(*a->pageset)) &&
	       !memcmp(a->free_area, b->free_area, sizeof(a->free_area));
}

/* ops run, and how many of them the fast path took */
struct tally {
	unsigned ops, fast_alloc, fast_free;
	unsigned below_high; /* ops after which ZONE_BELOW_HIGH was set */
};

static void compare(const char *preset, unsigned machine, int logged, int wmarks,
		    struct tally *t)
{
	struct blab_zone *a = zone(preset, machine, logged, wmarks);
	struct blab_zone *b = zone(preset, machine, logged, wmarks);
	uint64_t held[HELD];
	unsigned order_of[HELD], n = 0;

	CHECK(a && b);
	if (!a || !b)
		goto out;
	for (unsigned i = 0; i < OPS; i++) {
		unsigned r = rnd(100), cpu = rnd(16) ? rnd(3) : 3 + rnd(300);
		unsigned gfp = rnd(4) ? 0 : BLAB_GFP_COLD;
		struct blab_op op;
		int ra, rb;

		if (r < (wmarks ? 58u : 50u) && n < HELD) {
			unsigned order = rnd(5) ? 0 : rnd(5), mt = rnd(3);
			uint64_t pa = 0, pb = 0;
			if (!rnd(100))
				order = 11 + rnd(300);
			if (!rnd(100))
				mt = 3 + rnd(300);
			if (cpu < a->cpus && (pcp_hit_quiet(a) ? rmqueue_pcplist_hit(a, cpu, order, mt, gfp, &pa, 1)
							    : rmqueue_pcplist_hit(a, cpu, order, mt, gfp, &pa, 0))) {
				ra = 0;
				t->fast_alloc++;
			} else {
				ra = blab_alloc_gfp(a, cpu, order, mt, gfp, &pa);
			}
			blab_op_alloc(&op, cpu, order, mt, gfp);
			rb = step_op(b, &op);
			pb = rb == 0 ? op.pfn : 0;
			CHECK_EQ(ra, rb);
			CHECK_EQ(pa, pb);
			if (!ra) {
				held[n] = pa;
				order_of[n++] = order;
			}
		} else if (r < 99 && n) {
			unsigned k = rnd(n), order = order_of[k], bad = rnd(40);
			uint64_t pfn = held[k];
			if (bad == 0)
				order ^= 1; /* wrong order */
			else if (bad == 1)
				pfn += 1;   /* a tail page, or misaligned */
			else if (bad == 2)
				pfn = rnd(2) ? a->start_pfn + a->pages + rnd(100) : (uint64_t)0 - 1;
			else if (bad == 3)
				order = 11 + rnd(300);
			for (int twice = 0; twice < (bad == 4 ? 2 : 1); twice++) { /* 4: double free */
				if (cpu < a->cpus && (pcp_hit_quiet(a) ? free_unref_page_hit(a, cpu, pfn, order, gfp, 1)
								    : free_unref_page_hit(a, cpu, pfn, order, gfp, 0))) {
					ra = 0;
					t->fast_free++;
				} else {
					ra = blab_free_gfp(a, cpu, pfn, order, gfp);
				}
				blab_op_free(&op, cpu, pfn, order, gfp);
				rb = step_op(b, &op);
				CHECK_EQ(ra, rb);
				if (!ra && !twice) {
					held[k] = held[--n];
					order_of[k] = order_of[n];
				}
			}
		} else {
			cpu = rnd(3);
			ra = blab_drain(a, cpu);
			blab_op_drain(&op, cpu);
			rb = step_op(b, &op);
			CHECK_EQ(ra, rb);
		}
		t->ops++;
		t->below_high += a->below_high;
		if ((i % 61 == 0 || i == OPS - 1) && !same_zone(a, b)) {
			fprintf(stderr, "  %s machine %u logged %d wmarks %d: zones differ after op %u\n",
				preset, machine, logged, wmarks, i);
			CHECK(0);
			break;
		}
	}
	CHECK(zone_ok(a));
out:
	blab_zone_destroy(a);
	blab_zone_destroy(b);
}

int main(void)
{
	static const char *const presets[] = {"v2.5.44", "v2.5.45", "v2.6.25", "v4.16", "v4.17",
					      "v5.17",   "v5.18",   "lu-rfc-p2", "lu-rfc-p4"};
	/* the presets whose pcp hits go inline: per-migratetype LIFO lists without 6.0's
	 * pcp->lock and tuning (5.18's free_high included: it leaves order-0 frees alone), and
	 * 2.5.45's hot/cold pair; not 2.5.44 (no lists) nor 2.6.25 (one shared list, searched) */
	static const int inline_hits[] = {0, 1, 0, 1, 1, 1, 1, 1, 1};
	struct tally t = {0, 0, 0, 0};

	for (unsigned p = 0; p < sizeof(presets) / sizeof(presets[0]); p++) {
		struct tally own = {0, 0, 0, 0};
		compare(presets[p], BLAB_MACHINE_PLAIN, 1, 0, &own);
		compare(presets[p], BLAB_MACHINE_PLAIN, 0, 0, &own);
		compare(presets[p], BLAB_MACHINE_PLAIN, 1, 1, &own);
		compare(presets[p], BLAB_MACHINE_MODEL, 1, 0, &own);
		if (inline_hits[p]) {
			CHECK(own.fast_alloc > 0);
			CHECK(own.fast_free > 0);
		} else {
			CHECK_EQ(own.fast_alloc + own.fast_free, 0u);
		}
		if (own.fast_alloc == 0 && inline_hits[p])
			fprintf(stderr, "test_fastpath: %s never took the inline pcp hit\n", presets[p]);
		t.ops += own.ops;
		t.fast_alloc += own.fast_alloc;
		t.fast_free += own.fast_free;
		t.below_high += own.below_high;
	}
	/* the comparison means something only if the fast path ran, often (29,390 allocations
	 * and 28,534 frees of 108,000 ops) */
	CHECK(t.fast_alloc > t.ops / 24);
	CHECK(t.fast_free > t.ops / 16);
	/* the runs with watermarks go under the high watermark, where the inline hit must leave
	 * the allocation that sets ZONE_BELOW_HIGH to the op */
	CHECK(t.below_high > 0);
	printf("test_fastpath: %u ops, %u fast allocs, %u fast frees\n", t.ops, t.fast_alloc,
	       t.fast_free);
	return harness_report("test_fastpath");
}
