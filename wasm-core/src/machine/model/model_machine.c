/*
 * The model machine: cache model + lock model + scheduler + per-CPU clocks, set up and torn
 * down together. The per-operation entry points are static inline in model.h.
 */
#include <string.h>

#include "model.h"

int model_machine_init(struct model_machine *mm, const struct model_params *p, uint32_t ncpus,
		       uint64_t npages, uint32_t dir_hash_lines, uint32_t nlocks)
{
	return model_machine_init_at(mm, p, ncpus, 0, npages, dir_hash_lines, nlocks);
}

int model_machine_init_at(struct model_machine *mm, const struct model_params *p,
			  uint32_t ncpus, uint64_t first_pfn, uint64_t npages,
			  uint32_t dir_hash_lines, uint32_t nlocks)
{
	memset(mm, 0, sizeof(*mm));
	mm->p = *p;
	mm->ncpus = ncpus;
	if (cache_init_at(&mm->cache, &mm->p, ncpus, first_pfn, npages, dir_hash_lines))
		return -1;
	if (lock_init(&mm->locks, &mm->p, nlocks, ncpus) || sched_init(&mm->sched, ncpus)) {
		cache_free(&mm->cache);
		return -1;
	}
	return 0;
}

uint64_t model_machine_mem_bytes(const struct model_params *p, uint32_t ncpus, uint64_t npages,
				 uint32_t dir_hash_lines)
{
	return sizeof(struct model_machine) + cache_mem_bytes(p, ncpus, npages, dir_hash_lines);
}

void model_machine_free(struct model_machine *mm)
{
	cache_free(&mm->cache);
}

uint64_t model_machine_cycles(const struct model_machine *mm)
{
	uint64_t sum = 0;
	for (uint32_t c = 0; c < mm->ncpus; c++)
		sum += mm->now[c];
	return sum;
}
