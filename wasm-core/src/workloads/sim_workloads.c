/*
 * sim_workloads.c - the table of workloads the model machine can run (sim.h says how to
 * add one). Order is the order `blab sim --help` and the app list them in.
 */
#include <string.h>

#include "sim.h"

extern const struct sim_workload sim_workload_page_fault1;
extern const struct sim_workload sim_workload_parallel_free;
extern const struct sim_workload sim_workload_trunc;
extern const struct sim_workload sim_workload_hackbench;
extern const struct sim_workload sim_workload_stress_highalloc;
extern const struct sim_workload sim_workload_mixed;

static const struct sim_workload *const workloads[] = {
	&sim_workload_page_fault1,
	&sim_workload_parallel_free,
	&sim_workload_trunc,
	&sim_workload_hackbench,
	&sim_workload_stress_highalloc,
	&sim_workload_mixed,
};

#define NWORKLOADS (sizeof(workloads) / sizeof(workloads[0]))

const struct sim_workload *sim_workload_get(uint32_t id)
{
	for (size_t i = 0; i < NWORKLOADS; i++)
		if (workloads[i]->id == id)
			return workloads[i];
	return NULL;
}

uint32_t blab_sim_workload_count(void)
{
	return (uint32_t)NWORKLOADS;
}

const char *blab_sim_workload_name(uint32_t index)
{
	return index < NWORKLOADS ? workloads[index]->name : NULL;
}

uint32_t blab_sim_workload_id(const char *name)
{
	if (!name)
		return 0;
	for (size_t i = 0; i < NWORKLOADS; i++)
		if (!strcmp(workloads[i]->name, name))
			return workloads[i]->id;
	return 0;
}

const char *blab_sim_workload_unit(uint32_t id)
{
	const struct sim_workload *w = sim_workload_get(id);
	return w ? w->score_unit : NULL;
}
