/*
 * sim_common.h - what both `blab sim` front ends (cmd_sim.c for the page allocator
 * workloads, cmd_sim_hackbench.c for hackbench) share: the usage-error message and the
 * event sink behind --hash and --events (the options themselves: sim_args.c). One copy, so
 * both print the same digests and messages.
 */
#ifndef BLAB_CLI_SIM_COMMON_H
#define BLAB_CLI_SIM_COMMON_H

#include <stdint.h>
#include <stdio.h>

#include "blab_sim.h"

/* "blab sim: " + fmt (with arg) + a line naming HELP; returns 2, the usage-error status */
int sim_usage_error(const char *help, const char *fmt, const char *arg);

/* One run's event sink: the FNV-1a digest of every record (--hash) and, with a file, the
 * first BLAB_MAX_LOG_EVENTS records written to it (--events). */
struct sim_sink {
	uint64_t hash;
	FILE *f;
	uint64_t written, dropped;
};

/* points cfg's sink at s (a fresh digest, records to f if not NULL) and logs every event */
void sim_sink_attach(struct blab_sim_config *cfg, struct sim_sink *s, FILE *f);

/* after the run: says on stderr how many records --events had to leave out, if any */
void sim_sink_report(const struct sim_sink *s);

/* --events FILE: opened for writing, or NULL with the reason on stderr */
FILE *sim_events_open(const char *path);

/* closes it; -1 (and says so on stderr) when the records did not all reach the file */
int sim_events_close(FILE *f, const char *path);

#endif
