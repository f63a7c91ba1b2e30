/*
 * fuzz_sim_config.c - libFuzzer target: a scenario for the model machine. Scenarios reach
 * the core as a struct blab_sim_config (built from `blab sim` arguments, the browser's
 * blab_js_sim() arguments or a lesson's run), so this target drives blab_sim_run() with
 * configs made from fuzz bytes: every workload id (and unknown ones), CPU counts past the
 * machine, page counts past the limits, zero and absurd iterations, clear_lines, sockets,
 * cache_scale, hackbench's groups / loops / object size, the high-order knobs, every preset
 * or raw strategy bytes, a zone per node (node_zones, refused for all but page_fault1 and
 * parallel_free).
 *
 * Oracle, beyond ASan/UBSan/LSan: the result is 0 or a known negative error with a reason in
 * err; a successful run is deterministic (the same config twice gives the same result
 * struct, byte for byte). Legal but large scenarios are skipped so one input stays fast
 * (the limits themselves are enforced by blab_sim_run() and tested in test_sim.c); values
 * past the limits are always passed through, to be refused.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "blab.h"
#include "blab_sim.h"
#include "fuzz_bytes.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A value from a menu of edges, or a small raw number. */
static uint32_t pick(struct bytes *b, const uint32_t *menu, unsigned nmenu, uint32_t small)
{
	uint32_t sel = take(b, 1);
	if (sel < 128)
		return menu[sel % nmenu];
	return take(b, 2) % (small + 1);
}

static int known_error(int rc)
{
	return (rc <= BLAB_EINVAL && rc >= BLAB_EHOSTMEM) || rc == BLAB_ESLABCACHE ||
	       rc == BLAB_ESLABOBJ;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint32_t cpus_menu[] = {0, 1, 2, 3, 112, 113, 224, 256, 257, 65535, 0xffffffffu};
	static const uint32_t pages_menu[] = {0, 1, 2, 7, 64, 1u << 20, (1u << 20) + 1, 0xffffffffu};
	static const uint32_t iter_menu[] = {0, 1, 2, 3, 1000, 1001, 0xffffffffu};
	static const uint32_t small_menu[] = {0, 1, 2, 8, 9, 10, 11, 64, 65, 255, 0xffffffffu};
	struct bytes b = {data, size};
	struct blab_sim_config c;
	struct blab_sim_result r1, r2;
	char err[256];
	int rc;

	blab_sim_config_init(&c);
	c.workload = take(&b, 1) % 9; /* 0 and 7, 8: unknown ids */
	c.cpus = pick(&b, cpus_menu, sizeof(cpus_menu) / sizeof(cpus_menu[0]), 8);
	c.pages = pick(&b, pages_menu, sizeof(pages_menu) / sizeof(pages_menu[0]), 300);
	c.iterations = pick(&b, iter_menu, sizeof(iter_menu) / sizeof(iter_menu[0]), 4);
	c.seed = take(&b, 4);
	c.clear_lines = pick(&b, small_menu, sizeof(small_menu) / sizeof(small_menu[0]), 64);
	c.sockets = pick(&b, small_menu, sizeof(small_menu) / sizeof(small_menu[0]), 9);
	c.cache_scale = pick(&b, small_menu, sizeof(small_menu) / sizeof(small_menu[0]), 70);
	c.hi_order = pick(&b, small_menu, sizeof(small_menu) / sizeof(small_menu[0]), 12);
	c.delay_us = take(&b, 2);
	c.compact = take(&b, 1) % 5;
	c.hackbench.groups = pick(&b, cpus_menu, sizeof(cpus_menu) / sizeof(cpus_menu[0]), 6);
	c.hackbench.loops = pick(&b, pages_menu, sizeof(pages_menu) / sizeof(pages_menu[0]), 50);
	c.hackbench.object_size = pick(&b, small_menu, sizeof(small_menu) / sizeof(small_menu[0]), 5000);
	c.hackbench.same_cpu = (uint8_t)take(&b, 1);
	c.hackbench.slub_prefetch = (uint8_t)take(&b, 1);
	{
		uint32_t s = take(&b, 1);
		if (s < 200 && blab_preset_count())
			blab_preset(blab_preset_name(s % blab_preset_count()), &c.strategy);
		else /* raw strategy bytes: the zone must refuse what does not fit together */
			for (size_t i = 0; i < sizeof(c.strategy); i++)
				((uint8_t *)&c.strategy)[i] = (uint8_t)take(&b, 1);
	}
	c.node_zones = (uint8_t)(take(&b, 1) % 3); /* 2: refused */

	/* skip legal but slow scenarios: the work bound here is far below the real one */
	{
		uint64_t cpus = c.cpus, pages = c.pages, it = c.iterations;
		int legal = cpus >= 1 && cpus <= BLAB_SIM_MAX_CPUS && pages >= 1 &&
			    pages <= BLAB_SIM_MAX_PAGES && it >= 1 && it <= BLAB_SIM_MAX_ITERATIONS;
		if (legal && (cpus * pages * it > 1024 || pages > 256 || cpus > 8))
			return 0;
		if (legal && (c.workload == BLAB_WL_STRESS_HIGHALLOC || c.workload == BLAB_WL_MIXED) &&
		    (pages > 64 || it > 2))
			return 0; /* these fill and fragment the whole zone first */
		if (c.workload == BLAB_WL_HACKBENCH && c.hackbench.groups <= 16 &&
		    (uint64_t)c.hackbench.groups * c.hackbench.loops > 500 && c.hackbench.loops <= 100000)
			return 0;
		if (c.sockets > 2 && c.sockets <= 8)
			return 0; /* big machines: legal, but their caches take long to set up */
		if (legal && c.cache_scale < 16)
			return 0; /* full-size caches: legal, but seconds per input under ASan */
	}

	memset(err, 0, sizeof(err));
	rc = blab_sim_run(&c, &r1, err, sizeof(err));
	if (rc) {
		if (!known_error(rc) || !err[0])
			abort();
		return 0;
	}
	rc = blab_sim_run(&c, &r2, err, sizeof(err));
	if (rc || memcmp(&r1, &r2, sizeof(r1)))
		abort();
	return 0;
}
