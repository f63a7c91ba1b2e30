/*
 * sim.h - what the simulation loop (sim.c) and its workloads share.
 *
 * A workload is a table of callbacks (struct sim_workload) listed in sim_workloads.c; the
 * loop owns the zone, the model machine and the scheduler, and asks the workload for one
 * step of the task on the CPU whose clock is lowest. Adding a workload: a new
 * workload_NAME.c defining its struct sim_workload, one line in sim_workloads.c, one value
 * in enum blab_workload (blab_sim.h).
 */
#ifndef BLAB_SIM_INTERNAL_H
#define BLAB_SIM_INTERNAL_H

#include "blab_sim.h"
#include "machine/model/model.h"
#include "mm/mm.h"

enum { SIM_STEP = 0, SIM_FINISHED = 1 };

/* One run: set up by the loop before the workload's setup(), read-only for workloads
 * except priv. */
struct sim_run {
	const struct blab_sim_config *c;
	const struct model_params *mp;
	struct blab_zone *z;   /* the zone; with node_zones node 0's (CPU 0's) */
	struct model_machine *mm;
	/* node_zones: the zone of each node (NULL for a node without CPUs) and each CPU's node;
	 * nodes 0 without node_zones (sim_cpu_zone) */
	uint32_t nodes;
	struct blab_zone *node_zone[BLAB_SIM_MAX_NODES];
	uint8_t cpu_node[BLAB_SIM_MAX_CPUS];
	struct blab_rng rng;  /* the run's PRNG, already used for the start jitter */
	void *priv;           /* the workload's state: setup() allocates, teardown() frees */
};

struct sim_workload {
	const char *name;       /* as --workload spells it */
	uint32_t id;            /* enum blab_workload */
	const char *score_unit; /* what blab_sim_result.score counts */
	/* 1: runs with node_zones, stepping each CPU on sim_cpu_zone(); 0: refused, with this
	 * workload's one-zone reason (one_zone_why) in the message */
	uint8_t node_zones;
	const char *one_zone_why;
	/* Checks the config beyond the loop's common bounds (cpus, pages, iterations):
	 * 0, or a negative BLAB_E* code with the reason in err. May be NULL. */
	int (*check)(const struct blab_sim_config *c, char *err, size_t errlen);
	/* Pages the tasks need in the zone; the loop adds room for the pcp lists. */
	uint64_t (*zone_pages)(const struct blab_sim_config *c);
	/* After the zone exists: 0, or a negative BLAB_E* code with the reason in err. */
	int (*setup)(struct sim_run *run, char *err, size_t errlen);
	/* One step of cpu's task, ending just before it takes a lock: SIM_STEP, SIM_FINISHED
	 * or a negative BLAB_E* code. */
	int (*step)(struct sim_run *run, unsigned cpu);
	/* After every task finished: the workload's part of the result (score, pages). */
	void (*finish)(const struct sim_run *run, struct blab_sim_result *r);
	/* Frees priv; also called when setup() or a step failed. May be NULL. */
	void (*teardown)(struct sim_run *run);
	/* Pages handled so far and in all, for blab_sim_config.progress; reads only. May be
	 * NULL (the progress callback then gets 0 of 0). */
	void (*progress)(const struct sim_run *run, uint64_t *done, uint64_t *total);
};

/* The run's nodes: with node_zones one per socket, else the one zone counts as node 0. */
static inline uint32_t sim_nodes(const struct sim_run *run)
{
	return run->nodes ? run->nodes : 1u;
}

/* The node CPU cpu belongs to (0 without node_zones). */
static inline uint32_t sim_cpu_node(const struct sim_run *run, unsigned cpu)
{
	return run->nodes ? run->cpu_node[cpu] : 0u;
}

/* The zone CPU cpu allocates from: its node's with node_zones, else the run's one zone. */
static inline struct blab_zone *sim_cpu_zone(const struct sim_run *run, unsigned cpu)
{
	return run->nodes ? run->node_zone[run->cpu_node[cpu]] : run->z;
}

/* "out of host memory" in err; returns BLAB_ENOMEMHOST (the loop's and the workloads' set-up) */
int sim_out_of_host_memory(char *err, size_t errlen);

/* The workload with this id, or NULL. */
const struct sim_workload *sim_workload_get(uint32_t id);

/* sim_vmstat.c: the vmstat worker's decay_pcp_high() about once a second of each CPU's
 * clock (6.7+ zones; *vm stays NULL for others). sim_vmstat_step: 1 when it took cpu's step,
 * 0 when the workload steps, or a negative BLAB_E* code. */
struct sim_vmstat;
int sim_vmstat_init(struct sim_vmstat **vm, const struct sim_run *run);
int sim_vmstat_step(struct sim_vmstat *vm, struct sim_run *run, unsigned cpu);
void sim_vmstat_free(struct sim_vmstat *vm);

/* batch and high left 0 in s become those of a 96 GB node with 56 CPUs (sim.c); the real
 * machine (real/run.c) sizes its pcp lists the same way */
void sim_node_pcp_sizes(struct blab_strategy *s);

#endif
