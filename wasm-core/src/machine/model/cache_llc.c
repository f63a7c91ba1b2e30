/*
 * cache_llc.c - a socket's LLC made, freed and sized: one block of whole host cache lines a
 * set (a 16-byte head and its slots), so that a look at a set with a few lines reads one.
 */
#include <stdlib.h>
#include <string.h>

#include "cache_llc.h"

/* an LLC set's bytes: its head and assoc lines, rounded up to whole host cache lines */
static uint32_t llc_stride(uint32_t assoc)
{
	return (uint32_t)((sizeof(struct llc_set) + assoc * sizeof(struct llc_line) + 63u) & ~63u);
}

int _cache_llc_init(struct cache_llc *c, uint64_t bytes, uint32_t assoc)
{
	uint64_t nsets = level_sets(bytes, assoc, &c->set_mask);
	if (nsets == 0)
		return -1;
	c->nsets = (uint32_t)nsets;
	c->assoc = assoc;
	c->stride = llc_stride(assoc);
	c->sets = aligned_alloc(64, nsets * c->stride);
	c->fillers = 0;
	c->room = nsets * assoc;
	if (!c->sets)
		return -1;
	memset(c->sets, 0, nsets * c->stride);
	return 0;
}

void _cache_llc_free(struct cache_llc *c)
{
	free(c->sets);
	memset(c, 0, sizeof(*c));
}

uint64_t _cache_llc_bytes(uint64_t bytes, uint32_t assoc)
{
	return bytes / 64u / assoc * llc_stride(assoc) + ARRAY_SLACK;
}
