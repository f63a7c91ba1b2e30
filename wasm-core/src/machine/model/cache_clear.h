/*
 * cache_clear.h - clear_page()'s fillers applied lazily: the part every look at an L1 or L2
 * set runs (lazy_sync(), priv_set(), look_set()), inline here; cache_clear.c writes a page
 * into the caches (cache_clear_page()).
 */
#ifndef BLAB_CACHE_CLEAR_H
#define BLAB_CACHE_CLEAR_H

#include "cache_lru.h"

/*
 * clear_page() in bulk. An L1 or L2 of at least 64 sets of up to 16 ways takes a page's 64
 * lines one per set of a group of 64 consecutive sets (the page's own group: its lines are
 * consecutive and its first line is a multiple of 64). Such a clear is only counted (the
 * group's `clears`) and each set takes in the fillers due to it when it is next looked at,
 * exactly as llc_live() (cache_llc.h) does for the LLC's stream; that is exact as long as
 * nothing but the set itself sees what a filler evicts:
 *   - L1: an evicted line leaves no trace, unless it carries a prefetch mark (a wasted
 *     prefetch, recorded in order): a clear while any L1 way of the core holds a mark is
 *     applied at once.
 *   - L2: an evicted tracked line goes on into the LLC, in order with the fillers, and an
 *     empty way that takes a filler passes nothing down. So only a filler that evicts a
 *     filler may wait. A set's deadline is the group's clear count at which its next
 *     filler would evict something else (filler_ranks says how many fillers sit at the LRU
 *     end); the group's `due` masks file the sets by deadline, and each clear applies its
 *     filler at once to the sets whose deadline it reaches, in line order, and counts the
 *     rest as fillers passed down, as the loop does.
 * Everything that looks at a set of such a level calls lazy_sync() first.
 */

/* take_fillers() for the ways that held a tracked line or nothing (gone, a mask of ways):
 * they hold a filler now; fillers stay fillers */
static inline void fill_gone(struct cache_level *c, uint32_t s, uint64_t gone)
{
	struct cache_set *t = &c->sets[s];
	uint64_t base = (uint64_t)s * c->assoc;
	for (uint64_t x = gone & ~(t->used & ~t->tracked); x; x &= x - 1u) {
		uint32_t i = (uint32_t)__builtin_ctzll(x);
		set_tag(c, s, i, FILLER_LINE, c->assoc);
		c->way[base + i].ver = 0;
	}
	t->tracked &= ~gone;
	t->used |= gone;
}

/* Set s (of up to 16 ways: only those clear lazily) takes in k fillers as most recent: the
 * order turns by k (mod n) and the ways ranked past the end, all of them when k >= n,
 * become fillers. A prefetch mark is never on such a way (see above). */
HOT void take_fillers(struct cache_level *c, uint32_t s, uint64_t k, const uint32_t n)
{
	struct cache_set *t = &c->sets[s];
	uint32_t r = k >= n ? (uint32_t)(k % n) : (uint32_t)k;
	uint32_t gone = k >= n ? n : (uint32_t)k;
	uint64_t o = t->order, bits = order_bits(n);
	uint64_t f = t->filler_ranks, all = (1ull << gone) - 1u;
	if (r)
		t->order = (o & ~bits) | (((o << (4u * r)) | ((o & bits) >> (4u * (n - r)))) & bits);
	t->filler_ranks = gone == n ? rank_bits(n) : ((f << gone) | all) & rank_bits(n);
	/* the ranks pushed out (n-gone..n-1) whose ways held a tracked line or nothing: only
	 * those change (fillers stay fillers), so only those are looked up, usually few */
	uint64_t held = ~(f >> (n - gone)) & all;
	if (held) {
		uint64_t gone_ways = 0;
		for (; held; held &= held - 1u) {
			uint32_t rank = n - gone + (uint32_t)__builtin_ctzll(held);
			gone_ways |= 1ull << ((o >> (4u * rank)) & 0xfu);
		}
		fill_gone(c, s, gone_ways);
	}
}

/* Bring set s of an L1 or L2 up to date with its group's lazy clears. */
HOT void lazy_sync(struct cache_level *c, uint32_t s, const uint32_t n)
{
	{ /* all zero, as every set's synced, unless the level is lazy */
		uint64_t g = c->clears[s >> 6], k = g - c->sets[s].synced;
		if (__builtin_expect(k != 0, 0)) {
			c->sets[s].synced = g;
			take_fillers(c, s, k, n); /* the deadline stays: the fillers were due */
		}
	}
}

/* The set of `line` in an L1 or L2 (power-of-two sets), brought up to date. */
HOT uint32_t priv_set(struct cache_level *c, uint64_t line, const uint32_t n)
{
	uint32_t s = (uint32_t)line & c->set_mask;
	lazy_sync(c, s, n);
	return s;
}

/* priv_set() for a lookup of `line` in the set. Host-side only: the lookup reads the set's
 * hashes, then the slot of a candidate, two dependent loads that are both likely host cache
 * misses at scale; loading the set's slots now, beside its head, overlaps them. */
HOT uint32_t look_set(struct cache_level *c, uint64_t line, const uint32_t n)
{
	uint32_t s = (uint32_t)line & c->set_mask;
	const char *slots = (const char *)&c->way[(uint64_t)s * n];
	const uint32_t bytes = n * (uint32_t)sizeof(struct cache_slot);
	/* written out (up to 16 ways, four host lines): a loop here cost as much as the
	 * lookup's hash test */
	__builtin_prefetch(slots);
	if (bytes > 64u)
		__builtin_prefetch(slots + 64);
	if (bytes > 128u)
		__builtin_prefetch(slots + 128);
	if (bytes > 192u)
		__builtin_prefetch(slots + 192);
	lazy_sync(c, s, n);
	return s;
}

#endif
