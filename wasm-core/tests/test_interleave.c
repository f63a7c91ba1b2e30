/*
 * test_interleave.c - several cpus with ops in flight at once, stepped in random order, as
 * the model machine's scheduler will do. Each cpu has at most one op; a step runs up to the
 * next zone->lock; the zone must pass the checker after every step, every block handed out
 * must be new, and at the end the zone must merge back to its boot layout.
 */
#include <stdlib.h>
#include "common.h"

struct blk {
	uint64_t pfn;
	uint8_t order;
};

static int run(const char *preset, uint32_t nsteps, uint64_t seed)
{
	enum { CPUS = 4 };
	struct blab_zone_config cfg;
	struct blab_zone *z;
	struct blab_rng r;
	struct blab_op op[CPUS];
	int busy[CPUS] = {0};
	struct blk *owned;
	uint32_t n = 0, boot[BLAB_MAX_ORDER_LIMIT + 1];
	uint8_t *taken;
	char msg[256];

	blab_zone_config_init(&cfg);
	blab_preset(preset, &cfg.strategy);
	cfg.pages = 211;
	cfg.start_pfn = 9;
	cfg.cpus = CPUS;
	cfg.top_order = 7;
	cfg.pageblock_order = 4;
	cfg.strategy.batch = 4;
	cfg.strategy.high = 12;
	if (blab_zone_create(&cfg, &z))
		return 1;
	for (unsigned o = 0; o <= 7; o++)
		boot[o] = z->free_area[o].nr_free;
	owned = calloc(cfg.pages, sizeof(*owned));
	taken = calloc(cfg.pages, 1);
	blab_rng_seed(&r, seed);

	for (uint32_t step = 0; step < nsteps; step++) {
		unsigned cpu = blab_rng_below(&r, CPUS);
		int ret;
		if (!busy[cpu]) {
			uint32_t x = blab_rng_below(&r, 10);
			if (x < 5) {
				unsigned order = blab_rng_below(&r, 4) ? 0 : blab_rng_below(&r, 4);
				blab_op_alloc(&op[cpu], cpu, order, blab_rng_below(&r, 3), 0);
			} else if (x < 9 && n) {
				uint32_t k = blab_rng_below(&r, n);
				blab_op_free(&op[cpu], cpu, owned[k].pfn, owned[k].order, 0);
				for (uint32_t p = 0; p < (1u << owned[k].order); p++)
					taken[owned[k].pfn - cfg.start_pfn + p] = 0;
				owned[k] = owned[--n];
			} else {
				blab_op_drain(&op[cpu], cpu);
			}
			busy[cpu] = 1;
		}
		ret = blab_op_step(z, &op[cpu]);
		if (ret == BLAB_STEP_DONE) {
			busy[cpu] = 0;
			if (op[cpu].kind == BLAB_OP_ALLOC) {
				uint64_t pfn = op[cpu].pfn;
				for (uint32_t p = 0; p < (1u << op[cpu].order); p++) {
					if (taken[pfn - cfg.start_pfn + p]) {
						fprintf(stderr, "%s step %u: pfn 0x%llx handed out twice\n", preset,
							step, (unsigned long long)(pfn + p));
						return 1;
					}
					taken[pfn - cfg.start_pfn + p] = 1;
				}
				owned[n].pfn = pfn;
				owned[n++].order = op[cpu].order;
			}
		} else if (ret == BLAB_ENOMEM && op[cpu].kind == BLAB_OP_ALLOC) {
			busy[cpu] = 0;
		} else if (ret != BLAB_STEP_LOCK) {
			fprintf(stderr, "%s step %u: cpu %u op %u: %s\n", preset, step, cpu, op[cpu].kind,
				blab_strerror(ret));
			return 1;
		}
		if (blab_check(z, msg, sizeof(msg))) {
			fprintf(stderr, "%s step %u: %s\n", preset, step, msg);
			return 1;
		}
	}
	/* finish what is in flight, give everything back */
	for (unsigned cpu = 0; cpu < CPUS; cpu++)
		if (busy[cpu]) {
			int ret;
			while ((ret = blab_op_step(z, &op[cpu])) == BLAB_STEP_LOCK)
				;
			if (ret == 0 && op[cpu].kind == BLAB_OP_ALLOC) {
				owned[n].pfn = op[cpu].pfn;
				owned[n++].order = op[cpu].order;
			}
		}
	while (n) {
		n--;
		CHECK_EQ(blab_free(z, 0, owned[n].pfn, owned[n].order), 0);
	}
	CHECK_EQ(blab_drain_all(z), 0);
	CHECK(zone_ok(z));
	merge_skipped_all(z);
	CHECK(zone_ok(z));
	for (unsigned o = 0; o <= 7; o++)
		CHECK_EQ(z->free_area[o].nr_free, boot[o]);
	free(owned);
	free(taken);
	blab_zone_destroy(z);
	return 0;
}

int main(void)
{
#ifdef BLAB_SMALL_TESTS
	uint32_t steps = 10000; /* debug and sanitizer builds are slower */
#else
	uint32_t steps = 50000;
#endif
	for (unsigned p = 0; p < blab_preset_count(); p++)
		if (run(blab_preset_name(p), steps, 1000 + p))
			CHECK(!"interleaved run failed");
	return harness_report("test_interleave");
}
