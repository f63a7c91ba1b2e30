/*
 * cache_init.c - the cache model made and freed: the CPU -> core -> socket maps, each
 * core's L1 and L2 (cache_lru.c), each socket's LLC (cache_llc.c), the fill buffers and the
 * directory (cache_dir.c), each socket's memory controller (memctl.c), all taken here, none later; and cache_mem_bytes(), which counts
 * what cache_init() takes from each part's own count, for the host memory bound.
 */
#include <stdlib.h>
#include <string.h>

#include "cache_dir.h"
#include "cache_llc.h"
#include "cache_lru.h"
#include "memctl.h"

void cache_free(struct cache_model *m)
{
	for (uint32_t k = 0; m->l1 && k < m->ncores; k++)
		_cache_level_free(&m->l1[k]);
	for (uint32_t k = 0; m->l2 && k < m->ncores; k++)
		_cache_level_free(&m->l2[k]);
	for (uint32_t s = 0; m->llc && s < m->nsockets; s++)
		_cache_llc_free(&m->llc[s]);
	free(m->l1);
	free(m->l2);
	free(m->llc);
	free(m->mc);
	free(m->dir_pages);
	free(m->dir_hash);
	free(m->fb);
	memset(m, 0, sizeof(*m));
}

int cache_init(struct cache_model *m, const struct model_params *p, uint32_t ncpus,
	       uint64_t npages, uint32_t dir_hash_lines)
{
	return cache_init_at(m, p, ncpus, 0, npages, dir_hash_lines);
}

int cache_init_at(struct cache_model *m, const struct model_params *p, uint32_t ncpus,
		  uint64_t first_pfn, uint64_t npages, uint32_t dir_hash_lines)
{
	memset(m, 0, sizeof(*m));
	if (model_params_check(p, NULL, 0) || ncpus == 0 || ncpus > model_cpus_max(p) ||
	    npages > (1ull << 40))
		return -1;
	m->p = *p;
	m->ncpus = ncpus;
	m->default_geom = p->l1_ways == DEFAULT_GEOM.n1 && p->l2_ways == DEFAULT_GEOM.n2 &&
			  p->llc_ways == DEFAULT_GEOM.n3;
	uint32_t all_cores = p->sockets * p->cores_per_socket;
	/* CPUs 0..ncpus-1 use cores 0..min(ncpus, all_cores)-1 and the sockets those sit on */
	m->ncores = ncpus < all_cores ? ncpus : all_cores;
	m->nsockets = (m->ncores - 1) / p->cores_per_socket + 1;
	for (uint32_t c = 0; c < ncpus; c++) {
		m->core_of[c] = (uint16_t)model_cpu_core(p, c);
		m->socket_of[c] = (uint8_t)model_cpu_socket(p, c);
		m->core_socket[m->core_of[c]] = m->socket_of[c];
	}
	m->l1_narrow = p->l1_ways <= NARROW_WAYS;
	m->l1 = calloc(m->ncores, sizeof(*m->l1));
	m->l2 = calloc(m->ncores, sizeof(*m->l2));
	m->llc = calloc(m->nsockets, sizeof(*m->llc));
	m->mc = calloc(m->nsockets, sizeof(*m->mc));
	if (!m->l1 || !m->l2 || !m->llc || !m->mc)
		goto fail;
	for (uint32_t s = 0; s < m->nsockets; s++)
		memctl_init(&m->mc[s], p);
	m->clear_stride = 1;
	/* clear_page()s are applied lazily only where clear_page_batched() runs (a victim
	 * LLC, an L2 of at least 64 sets; cache_clear.c) */
	int lazy = p->llc_victim && p->l2_bytes / 64u / p->l2_ways >= 64u;
	for (uint32_t k = 0; k < m->ncores; k++)
		if (_cache_level_init(&m->l1[k], p->l1_bytes, p->l1_ways, 1, lazy) ||
		    _cache_level_init(&m->l2[k], p->l2_bytes, p->l2_ways, 0, 2 * lazy))
			goto fail;
	for (uint32_t c = 0; c < ncpus; c++)
		m->l1_of[c] = &m->l1[m->core_of[c]];
	for (uint32_t s = 0; s < m->nsockets; s++)
		if (_cache_llc_init(&m->llc[s],
				    (uint64_t)p->llc_bytes_per_core * p->cores_per_socket,
				    p->llc_ways))
			goto fail;
	if (p->fill_buffers) {
		m->fb = calloc((uint64_t)ncpus * p->fill_buffers, sizeof(*m->fb));
		if (!m->fb)
			goto fail;
	}
	if (_cache_dir_init(m, first_pfn, npages, dir_hash_lines))
		goto fail;
	return 0;
fail:
	cache_free(m);
	return -1;
}

uint64_t cache_mem_bytes(const struct model_params *p, uint32_t ncpus, uint64_t npages,
			 uint32_t dir_hash_lines)
{
	uint32_t all_cores = p->sockets * p->cores_per_socket;
	uint32_t cores = ncpus < all_cores ? ncpus : all_cores;
	uint32_t sockets = cores ? (cores - 1) / p->cores_per_socket + 1 : 0;
	int lazy = p->llc_victim && p->l2_bytes / 64u / p->l2_ways >= 64u;
	uint64_t n = 7 * ARRAY_SLACK + sockets * sizeof(struct mem_ctl);

	n += cores * (_cache_level_bytes(p->l1_bytes, p->l1_ways, 1, lazy) +
		      _cache_level_bytes(p->l2_bytes, p->l2_ways, 0, 2 * lazy));
	n += sockets * _cache_llc_bytes((uint64_t)p->llc_bytes_per_core * p->cores_per_socket,
					p->llc_ways);
	n += (uint64_t)ncpus * p->fill_buffers * sizeof(uint64_t);
	return n + _cache_dir_bytes(npages, dir_hash_lines);
}
