/*
 * sim_shard.h - `--shard I/N`: a share of a study's runs, for fanning it out over processes or
 * machines (GNU parallel, a Slurm job array: docs/sim.md, "Fan-out"). Shard I of N runs the
 * runs whose index i has i % N == I - 1, and prints them with their indices after a first line
 * naming the study; `blab merge` (cmd_merge.c) checks the shards belong together and cover
 * every index once, and prints what one process would have printed, byte for byte.
 */
#ifndef BLAB_CLI_SIM_SHARD_H
#define BLAB_CLI_SIM_SHARD_H

#include <stddef.h>

#define SIM_SHARD_MAGIC "blab-shard"
#define SIM_SHARD_MAX 100000u

struct sim_shard {
	unsigned i, n; /* n = 0: not sharded, every run is this process's */
};

/* "I/N" with 1 <= I <= N <= SIM_SHARD_MAX: 0, or -1 */
int sim_shard_parse(const char *s, struct sim_shard *out);

/* 1 when run `index` is this shard's */
static inline int sim_shard_mine(const struct sim_shard *s, size_t index)
{
	return !s->n || index % s->n == s->i - 1;
}

#endif
