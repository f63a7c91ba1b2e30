/*
 * real_fastpath - one order-0 alloc + free pair on the real machine, one thread: the pcp fast
 * path (v4.16, v5.18: the page comes from and goes back to this CPU's list; zone->lock only
 * once per batch) and the path without pcp lists (v2.5.44: zone->lock, __rmqueue_smallest and
 * __free_one_page for every page). The same source is built natively (gcc) and as WebAssembly
 * (emcc, run by Node), so the two can be compared.
 *
 * Lock timing is off (the allocator's own cost, what the 25 ns budget is about) unless
 * --timed: then every zone->lock hold reads the clock twice, as `blab run` does.
 *
 * Last, the control: the same pairs on the plain machine (v5.18), in the same process and
 * minutes, so a figure taken on a busy machine can be read against it.
 *
 * Prints one JSON object per preset: {"preset":..,"machine":"real"|"plain","timed":0|1,
 * "ns_per_pair":[run, ...],"cpu_ns_per_pair":[run, ...]} (wall clock, and this thread's CPU
 * time where the platform has that clock: fastpath_pairs.h).
 */
#ifndef _GNU_SOURCE /* the core's CMake build defines it for every file */
#define _GNU_SOURCE
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blab.h"
#include "fastpath_pairs.h"

static int measure(const char *preset, unsigned machine, unsigned pairs, unsigned runs,
		   int timed)
{
	struct blab_zone_config cfg;
	struct blab_zone *z;
	char head[128];
	int err;

	blab_zone_config_init(&cfg);
	cfg.pages = 1u << 18;
	cfg.cpus = 1;
	cfg.machine = (uint8_t)machine;
	cfg.log_mask = 0; /* a real zone keeps no log; the plain control keeps none either */
	cfg.real_untimed = !timed;
	if ((err = blab_preset(preset, &cfg.strategy)) || (err = blab_zone_create(&cfg, &z))) {
		fprintf(stderr, "real_fastpath: %s: %s\n", preset, blab_strerror(err));
		return 1;
	}
	snprintf(head, sizeof(head),
		 "{\"preset\":\"%s\",\"machine\":\"%s\",\"timed\":%d,\"ns_per_pair\":[", preset,
		 machine == BLAB_MACHINE_REAL ? "real" : "plain", timed);
	if (!(err = fastpath_pairs(z, pairs, runs, head))) {
		blab_zone_destroy(z);
		return 0;
	}
	fprintf(stderr, "real_fastpath: %s: %s\n", preset, blab_strerror(err));
	blab_zone_destroy(z);
	return 1;
}

int main(int argc, char **argv)
{
	unsigned pairs = 2000000, runs = 5;
	int bad = 0, timed = 0;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--timed")) {
			timed = 1;
		} else {
			printf("usage: real_fastpath [--timed]   (v2.5.44, v4.16, v5.18; then the plain "
			       "machine's v5.18 as the control; %u pairs x %u runs)\n",
			       pairs, runs);
			return strcmp(argv[i], "--help") ? 2 : 0;
		}
	}
	bad |= measure("v2.5.44", BLAB_MACHINE_REAL, pairs / 4, runs, timed);
	bad |= measure("v4.16", BLAB_MACHINE_REAL, pairs, runs, timed);
	bad |= measure("v5.18", BLAB_MACHINE_REAL, pairs, runs, timed);
	if (!timed)
		bad |= measure("v5.18", BLAB_MACHINE_PLAIN, pairs, runs, 0);
	return bad;
}
