/*
 * test_compaction.c - compaction (merge and migrate passes, resumable steps, the failed
 * flag that turns merging back on, argument checks) on the plain machine, and on the model
 * machine the two results the Lu RFC is about: page_fault1 at 56 CPUs loses most of its
 * zone->lock contention to lru_lock, and order-9 allocations on a fragmented zone fail
 * more with skip-merge until compaction runs. Small sizes, no host timings.
 */
#include "blab_sim.h"
#include "common.h"

static struct blab_zone *small_zone(const char *preset)
{
	return mkzone_no_pcp(preset, 32);
}

/* all 32 pages allocated, then freed but one per pageblock (pfns 0, 8, 16, 24) */
static void fragment(struct blab_zone *z)
{
	uint64_t pfn;
	for (int i = 0; i < 32; i++)
		CHECK_EQ(blab_alloc(z, 0, 0, BLAB_MT_MOVABLE, &pfn), 0);
	for (uint64_t p = 0; p < 32; p++)
		if (p % 8)
			CHECK_EQ(blab_free(z, 0, p, 0), 0);
}

struct moves {
	uint64_t from[8], to[8];
	int n;
};

static void moved(void *ctx, uint64_t old_pfn, uint64_t new_pfn, unsigned order)
{
	struct moves *m = ctx;
	CHECK_EQ(order, 0);
	if (m->n < 8) {
		m->from[m->n] = old_pfn;
		m->to[m->n] = new_pfn;
	}
	m->n++;
}

static void merge_then_migrate(void)
{
	struct blab_zone *z = small_zone("lu-rfc-p2");
	struct blab_compact_stats st;
	struct moves m = {{0}, {0}, 0};
	uint64_t pfn;
	int ok = -1;

	CHECK(z);
	if (!z)
		return;
	fragment(z);
	CHECK_EQ(z->merge_skipped, 28);
	CHECK_EQ(blab_alloc(z, 0, 3, BLAB_MT_MOVABLE, &pfn), BLAB_ENOMEM);
	/* merge pass: each pageblock comes back as 1 + 2 + 4 pages, still no order 3 */
	CHECK_EQ(blab_compact(z, 0, 3, BLAB_COMPACT_MERGE, NULL, NULL, &ok), 0);
	CHECK_EQ(ok, 0);
	CHECK_EQ(z->merge_skipped, 0);
	CHECK_EQ(z->free_area[2].nr_free, 4);
	CHECK_EQ(z->compact_failed, 1);
	CHECK(zone_ok(z));
	/* compaction failed: order-0 frees merge again */
	CHECK_EQ(blab_free(z, 0, 0, 0), 0);
	CHECK_EQ(z->merge_skipped, 0);
	CHECK_EQ(z->free_area[3].nr_free, 1);
	CHECK_EQ(blab_alloc(z, 0, 3, BLAB_MT_MOVABLE, &pfn), 0);
	CHECK_EQ(pfn, 0);
	/* migrate pass: one page moves, its pageblock is freed whole */
	CHECK_EQ(blab_compact(z, 0, 3, BLAB_COMPACT_MIGRATE, moved, &m, &ok), 0);
	CHECK_EQ(ok, 1);
	CHECK_EQ(m.n, 1);
	CHECK_EQ(m.from[0], 8);
	CHECK(m.to[0] >= 16);
	CHECK(zone_page(z, pfn_to_idx(z, m.to[0]))->flags & PG_alloc);
	CHECK_EQ(z->free_area[3].nr_free, 1);
	CHECK_EQ(z->compact_failed, 0);
	CHECK(zone_ok(z));
	CHECK_EQ(blab_compact_stats(z, &st), 0);
	CHECK_EQ(st.runs, 2);
	CHECK_EQ(st.successes, 1);
	CHECK_EQ(st.migrated, 1);
	CHECK(st.merged >= 12);
	/* the moved page is freed at its new pfn; the old one is not ours any more */
	CHECK_EQ(blab_free(z, 0, 8, 0), BLAB_EDOUBLEFREE);
	CHECK_EQ(blab_free(z, 0, m.to[0], 0), 0);
	CHECK(zone_ok(z));
	blab_zone_destroy(z);
}

/* the resumable op stops before zone->lock for each pageblock with merge-skipped pages */
static void steps(void)
{
	struct blab_zone *z = small_zone("lu-rfc-p2");
	struct blab_compact_op op;
	int locks = 0, ret;
	uint64_t pfn;

	CHECK(z);
	if (!z)
		return;
	fragment(z);
	CHECK_EQ(blab_compact_op_init(&op, 0, 3, BLAB_COMPACT_MERGE, NULL, NULL), 0);
	while ((ret = blab_compact_step(z, &op)) == BLAB_STEP_LOCK) {
		locks++;
		CHECK(zone_ok(z)); /* between steps the zone is consistent */
		CHECK_EQ(blab_alloc(z, 0, 0, BLAB_MT_MOVABLE, &pfn), BLAB_EBUSY);
	}
	CHECK_EQ(ret, BLAB_STEP_DONE);
	CHECK_EQ(locks, 4);
	CHECK_EQ(blab_compact_step(z, &op), BLAB_EINVAL); /* done already */
	blab_zone_destroy(z);
}

static void bad_arguments(void)
{
	struct blab_zone *z = small_zone("lu-rfc-p2");
	struct blab_compact_op op;
	struct blab_compact_stats st;
	uint64_t pfn;
	int ok;

	CHECK(z);
	if (!z)
		return;
	CHECK_EQ(blab_compact(NULL, 0, 3, 0, NULL, NULL, &ok), BLAB_EINVAL);
	CHECK_EQ(blab_compact(z, 1, 3, 0, NULL, NULL, &ok), BLAB_ECPU);
	CHECK_EQ(blab_compact(z, 0, 0, 0, NULL, NULL, &ok), BLAB_EORDER);
	CHECK_EQ(blab_compact(z, 0, 5, 0, NULL, NULL, &ok), BLAB_EORDER);
	CHECK_EQ(blab_compact(z, 0, 3, 2, NULL, NULL, &ok), BLAB_EINVAL);
	CHECK_EQ(blab_compact_op_init(NULL, 0, 3, 0, NULL, NULL), BLAB_EINVAL);
	CHECK_EQ(blab_compact_step(z, NULL), BLAB_EINVAL);
	/* a forged op in a middle state is refused, not followed */
	CHECK_EQ(blab_compact_op_init(&op, 0, 3, 1, NULL, NULL), 0);
	op.state = 3; /* C_MIGRATE */
	op.target = 1ull << 40;
	CHECK_EQ(blab_compact_step(z, &op), BLAB_EINVAL);
	CHECK_EQ(blab_compact_stats(NULL, &st), BLAB_EINVAL);
	CHECK_EQ(blab_alloc_compact(z, 0, 3, BLAB_MT_MOVABLE, 7, NULL, NULL, &pfn), BLAB_EINVAL);
	CHECK_EQ(blab_alloc_compact(z, 0, 3, BLAB_MT_MOVABLE, 0, NULL, NULL, NULL), BLAB_EINVAL);
	CHECK(zone_ok(z));
	blab_zone_destroy(z);
}

static int sim(uint32_t wl, const char *preset, uint32_t cpus, uint32_t pages, uint32_t iter,
	       uint32_t compact, struct blab_sim_result *r)
{
	struct blab_sim_config c;
	char err[160];
	int ret;

	blab_sim_config_init(&c);
	c.workload = wl;
	c.cpus = cpus;
	c.pages = pages;
	c.iterations = iter;
	c.clear_lines = 1;
	c.delay_us = 20;
	c.compact = compact;
	CHECK_EQ(blab_preset(preset, &c.strategy), 0);
	ret = blab_sim_run(&c, r, err, sizeof(err));
	if (ret)
		fprintf(stderr, "blab_sim_run %s: %s\n", preset, err);
	return ret;
}

/* page_fault1 at 56 CPUs: zone->lock contention falls, lru_lock contention rises */
static void page_fault1_56(void)
{
	struct blab_sim_result base, p2, p4;

	CHECK_EQ(sim(BLAB_WL_PAGE_FAULT1, "v4.16", 56, 384, 4, 0, &base), 0);
	CHECK_EQ(sim(BLAB_WL_PAGE_FAULT1, "lu-rfc-p2", 56, 384, 4, 0, &p2), 0);
	CHECK_EQ(sim(BLAB_WL_PAGE_FAULT1, "lu-rfc-p4", 56, 384, 4, 0, &p4), 0);
	fprintf(stderr, "  page_fault1 56 cpus zlock%%/lru%% (1/100 %%): v4.16 %u/%u p2 %u/%u p4 %u/%u\n",
		base.zone_contention_bp, base.lru_contention_bp, p2.zone_contention_bp,
		p2.lru_contention_bp, p4.zone_contention_bp, p4.lru_contention_bp);
	CHECK(base.zone_contention_bp > 5000); /* the problem the RFC starts from */
	CHECK(p2.zone_contention_bp < base.zone_contention_bp);
	CHECK(p4.zone_contention_bp * 10 < base.zone_contention_bp * 7); /* cut by > 30 % */
	CHECK(p4.zone_contention_bp < p2.zone_contention_bp);
	/* v4.16 already spends a few % on lru_lock (the shared LRU list's neighbours miss),
	 * skip merge multiplies it */
	CHECK(p2.lru_contention_bp > 4 * (base.lru_contention_bp + 1));
	CHECK(p4.lru_contention_bp > p2.lru_contention_bp);
	CHECK(p4.misses_zone_locked * 2 < base.misses_zone_locked);
	CHECK(p4.score > base.score);
}

/* stress_highalloc: skip-merge fails order-9 attempts that v4.16 serves, compaction fixes it */
static void stress_highalloc(void)
{
	struct blab_sim_result base_none, p2_none, base_full, p2_full;

	CHECK_EQ(sim(BLAB_WL_STRESS_HIGHALLOC, "v4.16", 2, 2048, 6, BLAB_SIM_COMPACT_NONE,
		     &base_none), 0);
	CHECK_EQ(sim(BLAB_WL_STRESS_HIGHALLOC, "lu-rfc-p2", 2, 2048, 6, BLAB_SIM_COMPACT_NONE,
		     &p2_none), 0);
	CHECK_EQ(sim(BLAB_WL_STRESS_HIGHALLOC, "v4.16", 2, 2048, 6, BLAB_SIM_COMPACT_FULL,
		     &base_full), 0);
	CHECK_EQ(sim(BLAB_WL_STRESS_HIGHALLOC, "lu-rfc-p2", 2, 2048, 6, BLAB_SIM_COMPACT_FULL,
		     &p2_full), 0);
	CHECK_EQ(base_none.hi_attempts, 6);
	CHECK(base_none.hi_success > 0);
	CHECK(p2_none.hi_success < base_none.hi_success); /* worse with skip-merge */
	CHECK(p2_none.merge_skipped > 0);
	CHECK_EQ(base_none.merge_skipped, 0);
	CHECK(p2_none.unusable_index > base_none.unusable_index);
	CHECK(p2_none.extfrag_index > 0 && base_none.extfrag_index == -1000);
	CHECK(p2_full.hi_success > p2_none.hi_success); /* better again after compaction */
	CHECK(p2_full.compact.merged > 0);
	CHECK(p2_full.hi_cycles / p2_full.hi_attempts >
	      base_full.hi_cycles / base_full.hi_attempts); /* and dearer */
	CHECK_EQ(p2_full.score, p2_full.hi_success * 100 / p2_full.hi_attempts);
}

/* mixed: the huge-page tasks get fewer blocks next to skip-merging page_fault1 tasks */
static void mixed(void)
{
	struct blab_sim_result base, p2;
	CHECK_EQ(sim(BLAB_WL_MIXED, "v4.16", 2, 384, 2, BLAB_SIM_COMPACT_MERGE, &base), 0);
	CHECK_EQ(sim(BLAB_WL_MIXED, "lu-rfc-p2", 2, 384, 2, BLAB_SIM_COMPACT_MERGE, &p2), 0);
	CHECK(base.hi_attempts > 0 && p2.hi_attempts > 0);
	CHECK(p2.hi_success * base.hi_attempts < base.hi_success * p2.hi_attempts);
	CHECK(base.score > 0 && p2.score > 0);
	/* full compaction migrates page_fault1's pages under its feet: the run must still
	 * free every page at the pfn it moved to */
	CHECK_EQ(sim(BLAB_WL_MIXED, "lu-rfc-p4", 4, 512, 2, BLAB_SIM_COMPACT_FULL, &p2), 0);
	CHECK(p2.compact.runs > 0);
	{
		struct blab_sim_result r;
		struct blab_sim_config c;
		char err[160];
		blab_sim_config_init(&c);
		c.workload = BLAB_WL_MIXED;
		c.cpus = 1;
		CHECK_EQ(blab_sim_run(&c, &r, err, sizeof(err)), BLAB_ECPU);
		c.cpus = 2;
		c.compact = 3;
		CHECK_EQ(blab_sim_run(&c, &r, err, sizeof(err)), BLAB_EINVAL);
		c.workload = BLAB_WL_STRESS_HIGHALLOC;
		c.compact = 0;
		c.delay_us = BLAB_SIM_MAX_DELAY_US + 1;
		CHECK_EQ(blab_sim_run(&c, &r, err, sizeof(err)), BLAB_ELIMIT);
		c.delay_us = 0;
		c.hi_order = 11;
		CHECK_EQ(blab_sim_run(&c, &r, err, sizeof(err)), BLAB_EORDER);
		CHECK_EQ(blab_sim_run(&c, &r, NULL, 0), BLAB_EORDER);
	}
}

int main(void)
{
	merge_then_migrate();
	steps();
	bad_arguments();
	page_fault1_56();
	stress_highalloc();
	mixed();
	return harness_report("test_compaction");
}
