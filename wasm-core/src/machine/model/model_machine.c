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

/* what malloc adds to an array: a large one is mapped whole pages */
#define ARRAY_SLACK 4096u

/* one cache level's arrays as cache.c's level_init() takes them: per way the tag, version
 * and LRU rank (L1: also the prefetch landing time and mark), per set the L1/L2 way masks
 * or the LLC's clear_page() count, and eight bytes of rank slack */
static uint64_t level_bytes(uint64_t bytes, uint32_t ways, int l1, int llc)
{
	uint64_t sets = bytes / 64u / ways, nways = sets * ways;
	uint64_t per_way = sizeof(uint64_t) + sizeof(uint32_t) + sizeof(uint8_t);
	uint64_t per_set = llc ? sizeof(uint64_t) : 2 * sizeof(uint64_t);
	unsigned arrays = l1 ? 7 : 5;

	if (l1)
		per_way += sizeof(uint64_t) + sizeof(struct cache_pfmark);
	return sizeof(struct cache_level) + nways * per_way + sets * per_set + 8u +
	       arrays * ARRAY_SLACK;
}

uint64_t model_machine_mem_bytes(const struct model_params *p, uint32_t ncpus, uint64_t npages,
				 uint32_t dir_hash_lines)
{
	uint32_t all_cores = p->sockets * p->cores_per_socket;
	uint32_t cores = ncpus < all_cores ? ncpus : all_cores;
	uint32_t sockets = cores ? (cores - 1) / p->cores_per_socket + 1 : 0;
	uint64_t cap = 1, n = sizeof(struct model_machine) + 6 * ARRAY_SLACK;

	n += cores * (level_bytes(p->l1_bytes, p->l1_ways, 1, 0) +
		      level_bytes(p->l2_bytes, p->l2_ways, 0, 0));
	n += sockets * level_bytes((uint64_t)p->llc_bytes_per_core * p->cores_per_socket,
				   p->llc_ways, 0, 1);
	n += (uint64_t)ncpus * p->fill_buffers * sizeof(uint64_t);
	n += npages * sizeof(struct cache_dir_page);
	while (cap < (dir_hash_lines ? dir_hash_lines : 65536u) && cap < (1u << 30))
		cap <<= 1;
	return n + cap * sizeof(struct cache_dir_entry);
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
