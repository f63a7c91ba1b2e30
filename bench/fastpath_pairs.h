/*
 * fastpath_pairs.h - the timing loop core_fastpath.c (plain machine) and real_fastpath.c
 * (real machine) share, so the two benches measure exactly the same alloc + free pattern.
 *
 * Each run is timed twice: by the wall clock (ns_per_pair, what the budget is about) and by
 * this thread's CPU clock (cpu_ns_per_pair): on a machine shared with other work the thread
 * is often off its CPU, which inflates the wall time but not the CPU time. Where there is no
 * thread CPU clock (WebAssembly), cpu_ns_per_pair is left out.
 */
#ifndef BLAB_BENCH_FASTPATH_PAIRS_H
#define BLAB_BENCH_FASTPATH_PAIRS_H

#include <stdio.h>
#include <time.h>

#include "blab.h"

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* this thread's CPU time in ns, or -1 where there is no such clock */
static double cpu_now_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts))
		return -1;
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/*
 * On cpu 0 of z: takes a small working set of held pages (so frees and allocs interleave
 * like a fault loop), prints json_head, then times `pairs` free + alloc pairs runs + 1 times
 * and prints each run's ns per pair (run 0 warms up and is not printed), then
 * `],"cpu_ns_per_pair":[` and each run's CPU ns per pair, and "]}\n".
 * Returns 0 or the blab error code (the caller says which preset failed).
 */
static int fastpath_pairs(struct blab_zone *z, unsigned pairs, unsigned runs, const char *json_head)
{
	enum { HELD = 64, MAX_RUNS = 64 };
	uint64_t held[HELD];
	double cpu[MAX_RUNS + 1];
	int err, have_cpu = cpu_now_ns() >= 0;

	for (unsigned i = 0; i < HELD; i++)
		if ((err = blab_alloc(z, 0, 0, BLAB_MT_MOVABLE, &held[i])))
			return err;
	fputs(json_head, stdout);
	if (runs > MAX_RUNS)
		runs = MAX_RUNS;
	for (unsigned r = 0; r <= runs; r++) {
		double c0 = cpu_now_ns(), t0 = now_ns(), dt;

		for (unsigned i = 0; i < pairs; i++) {
			unsigned slot = i % HELD;

			if ((err = blab_free(z, 0, held[slot], 0)) ||
			    (err = blab_alloc(z, 0, 0, BLAB_MT_MOVABLE, &held[slot])))
				return err;
		}
		dt = now_ns() - t0;
		cpu[r] = (cpu_now_ns() - c0) / pairs;
		if (r)
			printf("%s%.2f", r > 1 ? "," : "", dt / pairs);
	}
	if (have_cpu) {
		printf("],\"cpu_ns_per_pair\":[");
		for (unsigned r = 1; r <= runs; r++)
			printf("%s%.2f", r > 1 ? "," : "", cpu[r]);
	}
	printf("]}\n");
	fflush(stdout);
	return 0;
}

#endif
