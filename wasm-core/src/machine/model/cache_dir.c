/*
 * cache_dir.c - the directory made and sized, and the range of frames clear_page() may
 * write (cache_set_frames()).
 */
#include <stdlib.h>

#include "cache_dir.h"

/* the hashed part's slots for dir_hash_lines: a power of two, 65536 for 0 */
static uint32_t dir_hash_slots(uint32_t dir_hash_lines)
{
	uint32_t cap = 1;
	if (dir_hash_lines == 0)
		dir_hash_lines = 65536;
	while (cap < dir_hash_lines && cap < (1u << 30))
		cap <<= 1;
	return cap;
}

void cache_set_frames(struct cache_model *m, uint64_t first_pfn, uint64_t npfns)
{
	uint64_t live = 0;
	m->frame_lo_line = (MODEL_PAGE_OFFSET >> MODEL_LINE_SHIFT) + first_pfn * 64u;
	m->frame_hi_line = m->frame_lo_line + npfns * 64u;
	for (uint64_t h = 0; h <= m->dir_hash_mask; h++)
		live += is_frame_line(m, m->dir_hash[h].line);
	m->dir_frame_live = live;
}

int _cache_dir_init(struct cache_model *m, uint64_t first_pfn, uint64_t npages,
		    uint32_t dir_hash_lines)
{
	if (first_pfn > (1ull << 40))
		return -1;
	m->dir_base_line = VMEMMAP_LINE + first_pfn;
	m->dir_npages = npages;
	if (npages) {
		m->dir_pages = calloc(npages, sizeof(*m->dir_pages));
		if (!m->dir_pages)
			return -1;
		for (uint64_t i = 0; i < npages; i++)
			m->dir_pages[i].owner = m->dir_pages[i].own_core = MODEL_NO_CPU;
	}
	uint32_t cap = dir_hash_slots(dir_hash_lines);
	m->dir_hash = calloc(cap, sizeof(*m->dir_hash));
	if (!m->dir_hash)
		return -1;
	m->dir_hash_mask = cap - 1;
	/* until told which frames get cleared, every hashed line might be one of them */
	m->frame_lo_line = 0;
	m->frame_hi_line = UINT64_MAX;
	return 0;
}

uint64_t _cache_dir_bytes(uint64_t npages, uint32_t dir_hash_lines)
{
	return npages * sizeof(struct cache_dir_page) +
	       (uint64_t)dir_hash_slots(dir_hash_lines) * sizeof(struct cache_dir_entry);
}
