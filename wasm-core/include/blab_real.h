/*
 * blab_real.h - workloads on the real machine: one real thread per CPU of the zone, a ticket
 * spinlock for zone->lock, the host's clock (docs/real.md).
 *
 * A run does not block its caller: blab_run_start() starts the threads and returns;
 * blab_run_sample() reads every thread's counters while they run (for per-second samples);
 * blab_run_stop() asks the threads to stop faulting and unmap; blab_run_finish() joins
 * them and checks that every page came back. So the same calls serve the CLI (which sleeps
 * between samples) and a browser worker (which polls from its event loop: a Web Worker must
 * return to it before the threads it asked for can start).
 */
#ifndef BLAB_REAL_API_H
#define BLAB_REAL_API_H

#include <stddef.h>
#include <stdint.h>
#include "blab.h"

#ifdef __cplusplus
extern "C" {
#endif

/* bounds (docs/limits.md) */
#define BLAB_RUN_MAX_THREADS 64u
#define BLAB_RUN_MAX_PAGES (1u << 18)   /* pages each task maps per round (1 GB) */
#define BLAB_RUN_MAX_MAPPED (1u << 22)  /* threads x pages: the zone's size */

enum blab_run_workload { BLAB_RUN_PAGE_FAULT1 = 1 };

struct blab_run_config {
	uint32_t workload;  /* enum blab_run_workload */
	uint32_t threads;   /* 1 .. BLAB_RUN_MAX_THREADS: one CPU of the zone each */
	uint32_t pages;     /* pages each task maps per round (page_fault1: 32768 = 128 MB) */
	struct blab_strategy strategy; /* batch/high 0: those of a 96 GB node, as blab sim */
	uint8_t pin;        /* 1: pin thread i to the i-th CPU the process may run on */
	uint8_t untimed;    /* 1: count lock acquisitions, do not time spins and holds */
	uint64_t mem_limit; /* host bytes the run may take (its zone and mappings); 0: default */
};
void blab_run_config_init(struct blab_run_config *c);

/* one thread's counters since the start (lock 0 = zone->lock, 1 = lru_lock) */
struct blab_run_lock {
	uint64_t acquisitions, contended, spin_ns, hold_ns;
};
struct blab_run_thread {
	uint64_t pages; /* page_fault1: pages faulted */
	struct blab_run_lock lock[2];
};

struct blab_run;

/* 0, or a negative BLAB_E* code with a reason in err. */
int blab_run_start(const struct blab_run_config *c, struct blab_run **out, char *err,
		   size_t errlen);
/* Threads that have started (they wait for each other, then go together). */
unsigned blab_run_started(const struct blab_run *r);
/* ns since all threads went (0 before); the threads' counters at this moment. */
uint64_t blab_run_sample(const struct blab_run *r, struct blab_run_thread *out, unsigned n);
/* Threads fault no more pages: each unmaps what it faulted in the round it is in (gives
 * those pages back) and ends, within a step or two of the call. */
void blab_run_stop(struct blab_run *r);
/* Threads that have ended. */
unsigned blab_run_finished(const struct blab_run *r);
/* Joins the threads (waits for them), drains the pcp lists and checks the zone: 0, or a
 * negative code with a reason in err. Call once, after blab_run_stop(). */
int blab_run_finish(struct blab_run *r, char *err, size_t errlen);
void blab_run_free(struct blab_run *r);

/* Where thread i runs: the CPU it is pinned to, or -1 with why in `why` (pinning off, the OS
 * refused, or WebAssembly, which has no affinity). */
int blab_run_pinned(const struct blab_run *r, unsigned thread, char *why, size_t whylen);
/* the pcp batch and high the run's zone was set up with (6.7+: high_min, where high starts) */
uint32_t blab_run_batch(const struct blab_run *r);
uint32_t blab_run_high(const struct blab_run *r);
/* 1 when prefetch() is a real instruction in this build, 0 in WebAssembly (none exists) */
int blab_run_has_prefetch(void);

/* Parses a thread list: "4", "1..4", "1,2,4" or a mix ("1..2,8"); ascending, no repeats,
 * each 1..max. Returns the count (<= cap) or -1 with "why" in err. */
int blab_run_parse_threads(const char *s, unsigned max, unsigned *out, unsigned cap, char *err,
			   size_t errlen);

#ifdef __cplusplus
}
#endif
#endif
