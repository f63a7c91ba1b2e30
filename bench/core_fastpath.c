/*
 * core_fastpath — how long one order-0 alloc + free pair takes in the allocator core,
 * single-threaded on the plain machine (no model bookkeeping, no real lock contention).
 *
 * For each preset it warms a zone, then times `pairs` alloc/free pairs on cpu 0 and
 * repeats the measurement `runs` times. With a pcp preset nearly every pair is served by
 * the per-CPU list (the fast path); with v2.5.44 every page takes zone->lock and goes
 * through __rmqueue_smallest / __free_one_page.
 *
 * Prints one JSON object per preset: {"preset":..,"ns_per_pair":[run, run, ...]}.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blab.h"
#include "fastpath_pairs.h"

static int measure(const char *preset, unsigned pairs, unsigned runs)
{
	struct blab_zone_config cfg;
	struct blab_zone *z;
	char head[96];
	int err;

	blab_zone_config_init(&cfg);
	cfg.pages = 1u << 18; /* 1 GB zone: batch and high as a real zone of that size gets */
	cfg.cpus = 1;
	if ((err = blab_preset(preset, &cfg.strategy)) || (err = blab_zone_create(&cfg, &z))) {
		fprintf(stderr, "core_fastpath: %s: %s\n", preset, blab_strerror(err));
		return 1;
	}
	snprintf(head, sizeof(head), "{\"preset\":\"%s\",\"ns_per_pair\":[", preset);
	if (!(err = fastpath_pairs(z, pairs, runs, head))) {
		blab_zone_destroy(z);
		return 0;
	}
	fprintf(stderr, "core_fastpath: %s: %s\n", preset, blab_strerror(err));
	blab_zone_destroy(z);
	return 1;
}

int main(int argc, char **argv)
{
	unsigned pairs = 2000000, runs = 5;
	int bad = 0;

	if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		printf("usage: core_fastpath [PRESET ...]   (default: v2.5.44 v4.16 v5.18)\n");
		return 0;
	}
	if (argc > 1) {
		for (int i = 1; i < argc; i++)
			bad |= measure(argv[i], pairs, runs);
	} else {
		bad |= measure("v2.5.44", pairs / 4, runs);
		bad |= measure("v4.16", pairs, runs);
		bad |= measure("v5.18", pairs, runs);
	}
	return bad;
}
