/*
 * cache_lru.c - an L1 or L2 level's arrays, made, freed and sized: its ways (line, version,
 * prefetch mark), its sets (LRU order, hashes, masks; cache_lru.h), the ranks of sets wider
 * than 16 ways, and for lazy clear_page()s the counts per group of 64 sets and the
 * deadline masks (cache_clear.h). What _cache_level_init() allocates, _cache_level_bytes()
 * counts, side by side, so that the host memory bound and the cache cannot drift apart.
 */
#include <stdlib.h>
#include <string.h>

#include "cache_lru.h"

/* L2: file set s under its deadline (cache_clear.h, "clear_page() in bulk"); afterwards
 * order_changed() refiles it when its deadline moves */
static void file_due(struct cache_level *c, uint32_t s)
{
	refile_due(c, s, due_at(&c->sets[s], c->assoc));
}

int _cache_level_init(struct cache_level *c, uint64_t bytes, uint32_t assoc, int with_ready,
		     int lazy)
{
	uint64_t nsets = level_sets(bytes, assoc, &c->set_mask);
	if (nsets == 0)
		return -1;
	c->nsets = (uint32_t)nsets;
	c->assoc = assoc;
	/* whole host cache lines: an 8-way set's slots are two, a 16-way set's four
	 * (aligned_alloc wants a multiple of the alignment) */
	uint64_t way_bytes = (nsets * assoc * sizeof(*c->way) + 63u) & ~(uint64_t)63u;
	c->way = aligned_alloc(64, way_bytes);
	if (c->way)
		memset(c->way, 0, way_bytes);
	/* one host cache line a set (struct cache_set is 64 bytes) */
	c->sets = aligned_alloc(64, nsets * sizeof(*c->sets));
	if (c->sets)
		memset(c->sets, 0, nsets * sizeof(*c->sets));
	if (assoc > NARROW_WAYS)
		c->age = calloc(nsets * assoc + AGE_SLACK, sizeof(*c->age));
	c->ready = with_ready ? calloc(nsets * assoc, sizeof(*c->ready)) : NULL;
	if (lazy && (nsets < 64u || assoc > NARROW_WAYS))
		lazy = 0;
	c->lazy = lazy != 0;
	c->clears = calloc(lazy ? nsets / 64u : nsets / 64u + 1u, sizeof(*c->clears));
	c->due = lazy == 2 ? calloc(nsets / 64u * DUE_SLOTS, sizeof(*c->due)) : NULL;
	if (!c->way || !c->sets || (assoc > NARROW_WAYS && !c->age) ||
	    (with_ready && !c->ready) || !c->clears ||
	    (lazy == 2 && !c->due))
		return -1;
	/* way w ranked w: the word 0x..fedcba9876543210 cut to assoc nibbles, 0xf above */
	uint64_t first = 0;
	for (uint32_t w = 0; w < 16u; w++)
		first |= (uint64_t)(w < assoc ? w : 0xfu) << (4u * w);
	for (uint64_t s = 0; s < nsets; s++)
		if (assoc <= NARROW_WAYS)
			c->sets[s].order = first;
		else
			for (uint32_t w = 0; w < assoc; w++)
				c->age[s * assoc + w] = (uint8_t)w;
	/* every way is empty: the first lazy clear's filler evicts something else */
	for (uint64_t s = 0; c->due && s < nsets; s++)
		file_due(c, (uint32_t)s);
	return 0;
}

void _cache_level_free(struct cache_level *c)
{
	free(c->way);
	free(c->sets);
	free(c->age);
	free(c->ready);
	free(c->clears);
	free(c->due);
	memset(c, 0, sizeof(*c));
}

uint64_t _cache_level_bytes(uint64_t bytes, uint32_t assoc, int with_ready, int lazy)
{
	uint64_t nsets = bytes / 64u / assoc, nways = nsets * assoc;
	uint64_t n = sizeof(struct cache_level) + nways * sizeof(struct cache_slot) +
		     nsets * sizeof(struct cache_set) + 2 * ARRAY_SLACK;

	if (assoc > NARROW_WAYS)
		n += nways + AGE_SLACK + ARRAY_SLACK;
	if (with_ready)
		n += nways * sizeof(uint64_t) + ARRAY_SLACK;
	if (lazy && (nsets < 64u || assoc > NARROW_WAYS))
		lazy = 0;
	n += (lazy ? nsets / 64u : nsets / 64u + 1u) * sizeof(uint64_t) + ARRAY_SLACK;
	if (lazy == 2)
		n += nsets / 64u * DUE_SLOTS * sizeof(uint64_t) + ARRAY_SLACK;
	return n;
}
