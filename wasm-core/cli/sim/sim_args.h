/*
 * sim_args.h - the options of `blab sim`, one table for every workload (sim_args.c): what
 * each option is, which workloads use it, its bounds and default, its --help line and its
 * key in the --json echo. Parsing and checking are pure (no files, no output), so that
 * tests/fuzz/fuzz_cli_args.c can drive them; cmd_sim.c and cmd_sim_hackbench.c run what
 * they return.
 */
#ifndef BLAB_CLI_SIM_ARGS_H
#define BLAB_CLI_SIM_ARGS_H

#include <stdint.h>
#include <stdio.h>

#include "blab_sim.h"
#include "blab_model.h"
#include "blab_zoneinfo.h"
#include "../options.h"
#include "sim_shard.h"

struct sim_args {
	const char *workload;
	uint32_t workload_id; /* 0 until sim_args_parse() checked --workload */
	struct cli_list cpus, presets, groups, slub_prefetch, hb_preset;
	uint64_t pages, iterations, loops, object_size, data_size, seed, sockets, cache_scale;
	uint64_t clear_lines, hi_order, delay_us, compact, mem_limit, batch, high;
	/* --pcp-batch-scale-max: CONFIG_PCP_BATCH_SCALE_MAX for every (6.7+) preset, when given */
	uint64_t pcp_batch_scale_max;
	int pcp_batch_scale_given;
	int same_cpu, node_zones, out_of_step, csv, json, hash, bench, histogram, latency;
	const char *events, *params;
	/* --points FILE: the browser's runs, one key a line (sim_points.c); each point says its
	 * own settings, so only --jobs, --cache, --shard and --mem-limit go with it */
	const char *points, *cache, *shard_arg;
	struct sim_shard shard; /* from --shard I/N; n = 0 without it */
	uint64_t jobs;          /* --jobs: runs at once, on threads (sim_jobs.h) */
	/* --zoneinfo FILE: the pcp sizes of its zone --zone (on node --zone-node when
	 * zone_node_given, else the first of that name; --zone-cpus CPUs, 0: the file's) */
	const char *zoneinfo, *zone;
	uint64_t zone_node, zone_cpus;
	int zone_node_given;
	struct cli_parse p; /* the table, as this command line's workload sees it */
};

/*
 * Parses argv (argv[0] is "sim") into a. 0, 1 (--help asked for: a->p and a->workload_id
 * say whose), or -1 with the reason in err. Checks everything that needs no file: the
 * workload, each value, lists without repeats, options the workload has no use for,
 * --csv with --json, --events with lists, hackbench's groups.
 */
int sim_args_parse(struct sim_args *a, int argc, char **argv, char *err, size_t errlen);

/*
 * The checks that need the modelled machine: *mp is the machine (defaults, or the --params
 * file's: have_params), grown here to 4 or 8 sockets when --cpus needs more and neither
 * --params nor --sockets was given; a->sockets becomes the machine's. 0, or -1 with the
 * reason in err.
 */
int sim_args_machine(struct sim_args *a, struct model_params *mp, int have_params, char *err,
		     size_t errlen);

/* where the usage errors point: "blab sim --help" or its hackbench twin */
const char *sim_args_help_ref(const struct sim_args *a);

/* the synopsis, and the option list, for a's workload (hackbench, or the page allocator's) */
void sim_args_usage(FILE *f, const struct sim_args *a);
void sim_args_options(FILE *f, const struct sim_args *a);

#endif
