/*
 * sim_progress.h - `blab sim`'s progress line on a terminal: a full-size run (112 tasks x
 * 128 MB) takes half a minute of host time, and a sweep several runs of it.
 */
#ifndef BLAB_CLI_SIM_PROGRESS_H
#define BLAB_CLI_SIM_PROGRESS_H

#include <time.h>

#include "blab_sim.h"

struct sim_progress {
	const char *preset;
	unsigned cpus;
	struct timespec start, last;
	int shown; /* a line is on the terminal and must be cleared */
};

/* Hooks p into cfg when stderr is a terminal (never into a pipe or a file, so tests and
 * scripts see the same bytes as before); a no-op otherwise, and always in the WASM build
 * (wasm-core/cli/blab.mjs), where isatty() cannot tell. */
void sim_progress_attach(struct blab_sim_config *cfg, struct sim_progress *p,
			 const char *preset, unsigned cpus);
/* Clears the line after the run, if one was shown. */
void sim_progress_done(struct sim_progress *p);

#endif
