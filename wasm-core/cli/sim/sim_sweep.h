/*
 * sim_sweep.h - a sweep of the page allocator workloads (every workload but hackbench): a run
 * per CPU count and preset, run by cmd_sim.c and printed by sim_sweep_print.c.
 */
#ifndef BLAB_CLI_SIM_SWEEP_H
#define BLAB_CLI_SIM_SWEEP_H

#include <stdint.h>

#include "blab_hist.h"
#include "blab_latency.h"
#include "blab_sim.h"
#include "blab_zoneinfo.h"
#include "../options.h"
#include "sim_args.h"

/* one run's result */
struct sim_cell {
	struct blab_sim_result r;
	uint64_t hash;
	struct blab_hist *hist; /* --histogram */
	struct blab_latency *lat; /* --latency */
};

/* --zoneinfo: the file's zone, whose sizes every run of the sweep takes */
struct sim_zone_src {
	struct blab_zoneinfo *zi; /* NULL without --zoneinfo */
	int zone;
	unsigned node_cpus;
};

struct sim_sweep {
	const struct sim_args *a;
	uint32_t cpus[CLI_LIST_MAX], ncpus;
	const char *const *presets;
	uint32_t npresets;
	struct sim_cell *cells;    /* [cpus][preset]: cpus[c] with preset p is c * npresets + p */
	struct sim_zone_src zs;
	uint64_t sockets;          /* of the modelled machine, after sim_args_machine() */
	uint64_t linear1, linear1_milli; /* the first preset's 1-task score (page_fault1 only) */
};

/* the sweep as --json prints it: one object */
void sim_sweep_print_json(const struct sim_sweep *sw);
/* the sweep as text or --csv: the scores' table, then each run's counters, then the
 * high-order, per-node, histogram and hash lines its options ask for */
void sim_sweep_print_text(const struct sim_sweep *sw);

#endif
