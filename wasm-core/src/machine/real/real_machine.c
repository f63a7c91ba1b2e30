/*
 * real_machine.c - set-up and tear-down of the real machine's locks and per-CPU counters.
 * The hooks themselves are static inline in real.h.
 */
#include <stdlib.h>
#include <string.h>

#include "real.h"

int real_machine_init(struct real_machine *rm, uint32_t ncpus, int time_locks)
{
	uintptr_t p;

	memset(rm, 0, sizeof(*rm));
	if (!ncpus)
		return -1;
	/* 64-byte aligned per-CPU blocks; aligned_alloc would do, but its size rule differs
	 * between C libraries, so align by hand */
	rm->cpu_mem = calloc(1, (size_t)ncpus * sizeof(struct real_cpu) + 64);
	if (!rm->cpu_mem)
		return -1;
	p = ((uintptr_t)rm->cpu_mem + 63u) & ~(uintptr_t)63u;
	rm->cpu = (struct real_cpu *)p;
	rm->ncpus = ncpus;
	rm->time_locks = time_locks ? 1 : 0;
	for (unsigned i = 0; i < REAL_NLOCKS; i++)
		real_spin_init(&rm->lock[i]);
	for (uint32_t c = 0; c < ncpus; c++) {
		for (unsigned i = 0; i < REAL_NLOCKS; i++) {
			atomic_init(&rm->cpu[c].lock[i].acquisitions, 0);
			atomic_init(&rm->cpu[c].lock[i].contended, 0);
			atomic_init(&rm->cpu[c].lock[i].spin_ns, 0);
			atomic_init(&rm->cpu[c].lock[i].hold_ns, 0);
		}
		atomic_init(&rm->cpu[c].pages, 0);
	}
	return 0;
}

void real_machine_free(struct real_machine *rm)
{
	free(rm->cpu_mem);
	memset(rm, 0, sizeof(*rm));
}
