/*
 * test_prop.c - property test: long random op sequences on small odd-sized zones with odd
 * start pfns and several cpus, for every preset. After every op the invariant checker must
 * pass and a shadow model of what is allocated must agree with the core: blocks handed
 * out are aligned, inside the zone and never overlap; bad frees fail with the right error
 * and change nothing. At the end everything is freed and drained, and the zone must be
 * merged back to its boot-time decomposition.
 *
 * BLAB_PROP_OPS sets the ops per preset (default 10^6; 10^5 in debug builds, where the
 * core's own checker also runs after every op). `--shard I/N` runs every N-th preset from the
 * I-th (harness.h), the same runs as in the whole test.
 */
#include <stdlib.h>
#include <string.h>
#include "common.h"

struct blk {
	uint64_t pfn;
	uint8_t order;
};

struct shadow {
	struct blk *blocks;
	uint32_t n;
	uint8_t *owned;
	uint32_t pages; /* pages in blocks */
	uint64_t start;
	int bad;        /* compaction moved something that is not one of our blocks */
};

/* blab_migrate_fn: compaction moved one of our blocks; the shadow follows it */
static void prop_migrated(void *ctx, uint64_t old_pfn, uint64_t new_pfn, unsigned order)
{
	struct shadow *sh = ctx;
	for (uint32_t k = 0; k < sh->n; k++) {
		if (sh->blocks[k].pfn != old_pfn)
			continue;
		if (sh->blocks[k].order != order)
			break;
		for (uint32_t p = 0; p < (1u << order); p++) {
			sh->owned[old_pfn - sh->start + p] = 0;
			if (sh->owned[new_pfn - sh->start + p])
				sh->bad = 1;
			sh->owned[new_pfn - sh->start + p] = 1;
		}
		sh->blocks[k].pfn = new_pfn;
		return;
	}
	sh->bad = 1;
}

struct zcfg {
	uint32_t pages;
	uint64_t start;
	uint16_t cpus;
	uint8_t top, pbo;
	uint32_t batch, high; /* 0 = preset default */
};

static const struct zcfg zcfgs[] = {
	{149, 7, 3, 10, 9, 0, 0},
	{173, 0x1001, 4, 6, 3, 7, 20},
	{97, 13, 2, 4, 2, 3, 9},
	{151, 3, 5, 8, 5, 5, 31},
};
#define NZ (sizeof(zcfgs) / sizeof(zcfgs[0]))

static unsigned rand_order(struct blab_rng *r, unsigned top)
{
	uint32_t x = blab_rng_below(r, 100);
	if (x < 70)
		return 0;
	if (x < 90)
		return 1 + blab_rng_below(r, top < 3 ? top : 3);
	return blab_rng_below(r, top + 1);
}

static int failed_at(const char *preset, unsigned zi, uint64_t op, const char *what, int err,
		     const char *msg)
{
	fprintf(stderr, "preset %s zone %u op %llu: %s (%s) %s\n", preset, zi,
		(unsigned long long)op, what, blab_strerror(err), msg ? msg : "");
	harness_fail(__FILE__, __LINE__, what, NULL);
	return 1;
}

static int run_zone(const char *preset, unsigned zi, uint64_t nops, uint64_t seed)
{
	const struct zcfg *c = &zcfgs[zi];
	struct blab_zone_config cfg;
	struct blab_zone *z;
	struct blab_rng rng;
	struct shadow sh;
	uint32_t boot_nr_free[BLAB_MAX_ORDER_LIMIT + 1];
	char msg[256];
	int err;

	blab_zone_config_init(&cfg);
	CHECK_EQ(blab_preset(preset, &cfg.strategy), 0);
	cfg.pages = c->pages;
	cfg.start_pfn = c->start;
	cfg.cpus = c->cpus;
	cfg.top_order = c->top;
	cfg.pageblock_order = c->pbo;
	if (c->batch)
		cfg.strategy.batch = c->batch;
	if (c->high)
		cfg.strategy.high = c->high;
	err = blab_zone_create(&cfg, &z);
	if (err)
		return failed_at(preset, zi, 0, "zone_create", err, NULL);
	for (unsigned o = 0; o <= c->top; o++)
		boot_nr_free[o] = z->free_area[o].nr_free;

	sh.blocks = calloc(c->pages, sizeof(struct blk));
	sh.owned = calloc(c->pages, 1);
	sh.n = 0;
	sh.pages = 0;
	sh.start = c->start;
	sh.bad = 0;
	blab_rng_seed(&rng, seed);

	for (uint64_t i = 0; i < nops; i++) {
		uint32_t x = blab_rng_below(&rng, 100);
		unsigned cpu = blab_rng_below(&rng, c->cpus);
		uint32_t before_free = z->free_pages + z->pcp_pages;

		if (x < 48) {
			unsigned order = rand_order(&rng, c->top);
			unsigned mt = blab_rng_below(&rng, 10) < 7 ? BLAB_MT_MOVABLE :
				      blab_rng_below(&rng, 2) ? BLAB_MT_UNMOVABLE : BLAB_MT_RECLAIMABLE;
			unsigned gfp = blab_rng_below(&rng, 20) == 0 ? BLAB_GFP_COLD : 0;
			uint64_t pfn;
			err = blab_alloc_gfp(z, cpu, order, mt, gfp, &pfn);
			if (err == BLAB_ENOMEM)
				goto checked;
			if (err)
				return failed_at(preset, zi, i, "alloc", err, NULL);
			if (pfn & ((1ull << order) - 1) || pfn < c->start ||
			    pfn + (1ull << order) > c->start + c->pages)
				return failed_at(preset, zi, i, "alloc returned a bad block", 0, NULL);
			for (uint32_t p = 0; p < (1u << order); p++) {
				if (sh.owned[pfn - c->start + p])
					return failed_at(preset, zi, i, "alloc overlaps an allocated block", 0,
							 NULL);
				sh.owned[pfn - c->start + p] = 1;
			}
			sh.blocks[sh.n].pfn = pfn;
			sh.blocks[sh.n].order = (uint8_t)order;
			sh.n++;
			sh.pages += 1u << order;
		} else if (x < 88) {
			if (!sh.n)
				continue;
			uint32_t k = blab_rng_below(&rng, sh.n);
			struct blk b = sh.blocks[k];
			unsigned gfp = blab_rng_below(&rng, 20) == 0 ? BLAB_GFP_COLD : 0;
			err = blab_free_gfp(z, cpu, b.pfn, b.order, gfp);
			if (err)
				return failed_at(preset, zi, i, "free", err, NULL);
			for (uint32_t p = 0; p < (1u << b.order); p++)
				sh.owned[b.pfn - c->start + p] = 0;
			sh.blocks[k] = sh.blocks[--sh.n];
			sh.pages -= 1u << b.order;
		} else if (x < 90) {
			err = blab_drain(z, cpu);
			if (err)
				return failed_at(preset, zi, i, "drain", err, NULL);
		} else if (x < 92) {
			/* compaction: merges merge-skipped pages, may migrate our movable blocks */
			unsigned order = 1 + blab_rng_below(&rng, c->top ? c->top : 1);
			unsigned mode = blab_rng_below(&rng, 2);
			if (c->top == 0)
				continue;
			err = blab_compact(z, cpu, order, mode, prop_migrated, &sh, NULL);
			if (err)
				return failed_at(preset, zi, i, "compact", err, NULL);
			if (sh.bad)
				return failed_at(preset, zi, i, "compaction moved a block we do not own", 0,
						 NULL);
			if (z->free_pages + z->pcp_pages != before_free)
				return failed_at(preset, zi, i, "compaction changed the free page count", 0,
						 NULL);
		} else {
			/* a bad call: it must fail with the right code and change nothing */
			int want;
			uint64_t pfn;
			unsigned order;
			uint32_t y = blab_rng_below(&rng, 6);
			if (y == 0 && sh.n) {
				struct blk b = sh.blocks[blab_rng_below(&rng, sh.n)];
				if (b.order == 0)
					continue;
				pfn = b.pfn;
				order = b.order - 1;
				want = BLAB_EWRONGORDER;
			} else if (y == 1 && sh.n) {
				struct blk b = sh.blocks[blab_rng_below(&rng, sh.n)];
				if (b.order == 0)
					continue;
				pfn = b.pfn + 1;
				order = 0;
				want = BLAB_ETAIL;
			} else if (y == 2) {
				pfn = c->start + c->pages + blab_rng_below(&rng, 5);
				order = 0;
				want = BLAB_EPFN;
			} else {
				uint32_t idx = blab_rng_below(&rng, c->pages);
				const struct page *p = zone_page(z, idx);
				pfn = c->start + idx;
				order = p->order;
				if ((p->flags & ~PG_merge_skipped) == PG_buddy)
					want = BLAB_EDOUBLEFREE;
				else if (p->flags & PG_pcp)
					want = BLAB_EONPCP;
				else if (p->flags == 0)
					want = BLAB_ENOTALLOC, order = 0;
				else
					continue;
				if (pfn & ((1ull << order) - 1))
					continue;
			}
			err = blab_free(z, cpu, pfn, order);
			if (err != want)
				return failed_at(preset, zi, i, "bad free gave the wrong result", err,
						 blab_strerror(want));
			if (z->free_pages + z->pcp_pages != before_free)
				return failed_at(preset, zi, i, "a rejected free changed the zone", err,
						 NULL);
		}
checked:
#ifndef BLAB_DEBUG_CHECK /* debug builds: the core checks after every op itself */
		err = blab_check(z, msg, sizeof(msg));
		if (err)
			return failed_at(preset, zi, i, "check", err, msg);
#endif
		if (sh.pages + z->free_pages + z->pcp_pages != c->pages)
			return failed_at(preset, zi, i, "pages do not add up", 0, NULL);
	}

	/* give everything back: the zone must be whole again */
	while (sh.n) {
		struct blk b = sh.blocks[--sh.n];
		err = blab_free(z, blab_rng_below(&rng, c->cpus), b.pfn, b.order);
		if (err)
			return failed_at(preset, zi, nops, "final free", err, NULL);
	}
	CHECK_EQ(blab_drain_all(z), 0);
	merge_skipped_all(z);
	err = blab_check(z, msg, sizeof(msg));
	if (err)
		return failed_at(preset, zi, nops, "final check", err, msg);
	for (unsigned o = 0; o <= c->top; o++)
		if (z->free_area[o].nr_free != boot_nr_free[o])
			return failed_at(preset, zi, nops, "zone not merged back to its boot layout", 0,
					 NULL);
	free(sh.blocks);
	free(sh.owned);
	blab_zone_destroy(z);
	return 0;
}

int main(int argc, char **argv)
{
	unsigned shard, nshards;
#ifdef BLAB_SMALL_TESTS
	uint64_t nops = 100000;
#else
	uint64_t nops = 1000000;
#endif
	const char *env = getenv("BLAB_PROP_OPS");
	if (env && *env)
		nops = strtoull(env, NULL, 10);
	/* ctest runs the presets in four shares side by side (harness_shard(), CMakeLists.txt) */
	if (harness_shard(argc, argv, &shard, &nshards))
		return 2;

	for (unsigned p = 0; p < blab_preset_count(); p++) {
		const char *name = blab_preset_name(p);
		if (p % nshards != shard)
			continue;
		for (unsigned zi = 0; zi < NZ; zi++) {
			uint64_t share = nops / NZ + (zi < nops % NZ ? 1 : 0);
			if (run_zone(name, zi, share, 0x5eed0000u + p * 16 + zi))
				return harness_report("test_prop");
		}
		printf("preset %-15s %llu random ops: ok\n", name, (unsigned long long)nops);
	}
	return harness_report("test_prop");
}
