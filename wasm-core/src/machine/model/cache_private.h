/*
 * cache_private.h - what every file of the cache model shares and nothing outside it sees:
 * what a way can hold, the levels' ways as compile-time constants (HOT, struct geom), and
 * the report of a prefetched line that leaves L1 unused (an access's fill, a clear_page()
 * filler and the end of a run all make one).
 *
 * The cache model is one module in several files, one concern each (README.md); its hot
 * helpers are static inline in these private headers, so that the access path (cache.c)
 * and the clear path (cache_clear.c) compile them into themselves as one file did.
 */
#ifndef BLAB_CACHE_PRIVATE_H
#define BLAB_CACHE_PRIVATE_H

#include <stdint.h>

#include "model.h"

#define VMEMMAP_LINE (MODEL_VMEMMAP_START >> MODEL_LINE_SHIFT)
/* A way holding a line of a frame written by clear_page() (cache_clear_page): anonymous,
 * no directory entry, never hit. No kernel line number (vaddr >> 6) has bit 63 set. */
#define FILLER_LINE UINT64_MAX

/* Sets of up to NARROW_WAYS ways keep their LRU order in one 64-bit word, 4 bits a rank. */
#define NARROW_WAYS 16u
#define DUE_SLOTS 32u /* > 16: a deadline lies 1..16 clears ahead of its group's count */

/* What malloc adds to an array: a large one is mapped whole pages (cache_mem_bytes). */
#define ARRAY_SLACK 4096u

/* A function of the hot paths, compiled into each caller with its ways (cache.c, "Host
 * speed"). */
#define HOT static inline __attribute__((always_inline))

/* The ways of L1, L2 and LLC as compile-time constants, or 0: read them from the level. */
struct geom {
	uint32_t n1, n2, n3;
};
#define WAYS(n, c) ((n) ? (n) : (c)->assoc)
static const struct geom DEFAULT_GEOM = {8, 16, 11}; /* model_params_default()'s */
static const struct geom ANY_GEOM = {0, 0, 0};

static inline int is_tracked(uint64_t line)
{
	return line && line != FILLER_LINE;
}

/* the bits of an order word that hold ranks 0..n-1 (the rest stay 0xf nibbles) */
static inline uint64_t order_bits(uint32_t n)
{
	return n >= 16u ? ~0ull : (1ull << (4u * n)) - 1u;
}

/* the bits of filler_ranks that hold ranks 0..n-1 */
static inline uint64_t rank_bits(uint32_t n)
{
	return (1ull << n) - 1u;
}

/* The sets of a level of `bytes` in `assoc` ways (0: none or too many), and its set_mask */
static inline uint64_t level_sets(uint64_t bytes, uint32_t assoc, uint32_t *set_mask)
{
	uint64_t nsets = bytes / 64u / assoc;
	if (nsets > 0xffffffffu)
		return 0;
	*set_mask = (nsets & (nsets - 1)) == 0 ? (uint32_t)nsets - 1 : 0;
	return nsets;
}

/* A prefetched line left L1 unused: counted for the CPU and path that prefetched it */
static inline void account_wasted(struct cache_model *m, const struct cache_pfmark *f)
{
	m->cnt_cpu[f->cpu].pf_wasted++;
	m->cnt_path[f->path].pf_wasted++;
}

/* The prefetched line `line`, marked by f, leaves L1 unused. The caller clears the mark. */
static inline void count_wasted(struct cache_model *m, uint64_t line,
				const struct cache_pfmark *f)
{
	account_wasted(m, f);
	if (m->nwasted < MODEL_WASTED_MAX) {
		struct cache_wasted *e = &m->wasted[m->nwasted++];
		e->vaddr = line << MODEL_LINE_SHIFT;
		e->cpu = f->cpu;
		e->path = f->path;
	} else {
		m->wasted_lost++;
	}
}

/* count_wasted() for a way's content copied out of L1 (its mark already cleared there) */
static inline void count_wasted_way(struct cache_model *m, const struct cache_way *old)
{
	struct cache_pfmark f = {old->pf, old->path, old->cpu, 0};
	count_wasted(m, old->line, &f);
}

#endif
