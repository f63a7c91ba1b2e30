/*
 * sim_vmstat.c - the vmstat worker of the model machine: about once a second each CPU runs
 * decay_pcp_high() on its pcp list (6.7+, mm/vmstat.c's refresh_cpu_vm_stats()), which
 * lowers high towards high_min and drains what sits above it.
 *
 * "A second" is the model clock's: cpu_mhz x 10^6 cycles of the CPU's own virtual clock
 * (the same conversion that turns cycles into pages per second for the scores), counted from
 * when the CPU's task started; sysctl vm.stat_interval is 1 s by default. The work runs
 * between the task's operations, as the kernel's worker runs between the task's system calls:
 * when it is due while the task has an op in flight, it waits until that op is done. It is
 * an op of its own (blab_op_decay), so its zone->lock is taken in arrival order like any other.
 * Zones without auto-tuned high (every preset before 6.7) have no such worker: nothing here
 * runs, and their runs are what they were.
 */
#include <stdlib.h>

#include "machine/machine.h"
#include "sim.h"
#include "workload_common.h"

struct sim_vmstat {
	uint64_t period;                     /* cycles per second of the model clock */
	uint64_t next_at[BLAB_SIM_MAX_CPUS]; /* when each CPU's next decay is due */
	uint8_t active[BLAB_SIM_MAX_CPUS];   /* its decay op is under way */
	struct blab_op op[BLAB_SIM_MAX_CPUS];
};

int sim_vmstat_init(struct sim_vmstat **out, const struct sim_run *run)
{
	struct sim_vmstat *vm;

	*out = NULL;
	if (run->z->s.high_mode != BLAB_HIGH_AUTO)
		return 0;
	vm = calloc(1, sizeof(*vm));
	if (!vm)
		return BLAB_ENOMEMHOST;
	vm->period = (uint64_t)run->mp->cpu_mhz * 1000000u;
	for (uint32_t cpu = 0; cpu < run->c->cpus; cpu++)
		vm->next_at[cpu] = run->mm->now[cpu] + vm->period;
	*out = vm;
	return 0;
}

void sim_vmstat_free(struct sim_vmstat *vm)
{
	free(vm);
}

int sim_vmstat_step(struct sim_vmstat *vm, struct sim_run *run, unsigned cpu)
{
	struct blab_zone *z = sim_cpu_zone(run, cpu);
	int ret;

	if (!vm->active[cpu]) {
		if (run->mm->now[cpu] < vm->next_at[cpu] || z->pageset[cpu].busy)
			return 0;
		vm->next_at[cpu] = run->mm->now[cpu] + vm->period; /* rescheduled after it ran */
		blab_op_decay(&vm->op[cpu], cpu);
		vm->active[cpu] = 1;
	}
	ret = sim_op_step(z, &vm->op[cpu], &vm->active[cpu]);
	return ret < 0 ? ret : 1;
}
