/*
 * sim_jobs.h - blab sim --jobs N: independent runs on N threads. Each run is a whole model
 * machine of its own (the core has no global state), so the order they finish in changes
 * nothing; callers keep each result in its own slot and print them in order afterwards, and
 * the output is the same bytes as with one thread.
 */
#ifndef BLAB_CLI_SIM_JOBS_H
#define BLAB_CLI_SIM_JOBS_H

#include <stddef.h>

#define SIM_JOBS_MAX 256u

/* Calls run(i, ctx) for every i in 0..n-1 on `jobs` threads (1: on this one), each i once.
 * 0, or -1 when a thread could not start (the runs it would have done are done by the others). */
int sim_jobs_run(size_t n, unsigned jobs, void (*run)(size_t i, void *ctx), void *ctx);

#endif
