/*
 * cache_lru.h - one set of an L1 or L2: which way holds a line (a one-byte hash per way)
 * and the ways' true LRU order (rank 0 = most recent), kept in one 64-bit word for sets of
 * up to 16 ways and as a byte per way for wider ones. Every access runs these, so they are
 * static inline here; cache_lru.c makes, frees and sizes a level's arrays.
 *
 * An L2 whose clear_page()s are applied lazily also files each set under the clear count
 * at which its next filler would evict a tracked line (its deadline, cache_clear.h): a
 * change of a set's order refiles it (order_changed()).
 */
#ifndef BLAB_CACHE_LRU_H
#define BLAB_CACHE_LRU_H

#include <string.h>

#include "cache_private.h"

#define NIB_ONES 0x1111111111111111ull
#define NIB_HIGHS 0x8888888888888888ull

/* Wider sets' LRU ranks are handled eight bytes at a time (touch_ranks(), below):
 * little-endian words, and AGE_SLACK bytes after the last set so that a set's last word can
 * be read whole */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "cache_lru.h reads LRU ranks eight at a time, little-endian"
#endif
#define ONES 0x0101010101010101ull
#define HIGHS 0x8080808080808080ull
#define AGE_SLACK 8u

/* Way (0..n-1) of the n slots at w whose line is `line`, or n if none. No early exit: a
 * branch-free scan beats a mispredicted loop exit (a line is in a set at most once). */
HOT uint32_t scan_tags(const struct cache_slot *w, uint64_t line, const uint32_t n)
{
	uint32_t hit = n;
	for (uint32_t i = 0; i < n; i++)
		hit = w[i].line == line ? i : hit;
	return hit;
}

/*
 * LRU order, sets of up to 16 ways: the order word of a set lists its ways from the most
 * to the least recently used, one nibble each (bits 4r..4r+3: the way ranked r); nibbles
 * past the last rank hold 0xf, which no way number of a narrower set equals. A touch
 * shifts the ranks below the way up by one nibble and puts the way in nibble 0; a fill of
 * the LRU way (a miss, a clear_page() filler) rotates the word by one nibble. Beside it,
 * filler_ranks has bit r set when the way ranked r holds a clear_page() filler: it moves
 * with the order (a touch is always of a tracked line, an insertion of a filler), and
 * says how many fillers the set can take before one evicts something else.
 */

/* Rank of way w in the order word o: the lowest nibble of o ^ (w in every nibble) that is
 * zero. (t - 0x11..) & ~t & 0x88.. flags the lowest zero nibble exactly (a borrow only
 * flags nibbles above it), and exactly one nibble holds w. */
static inline uint32_t nib_rank(uint64_t o, uint32_t w)
{
	uint64_t t = o ^ (NIB_ONES * w);
	return (uint32_t)__builtin_ctzll((t - NIB_ONES) & ~t & NIB_HIGHS) / 4u;
}

/* o with way w, ranked r, moved to rank 0 (r = 0 leaves o as it is) */
static inline uint64_t nib_touch(uint64_t o, uint32_t w, uint32_t r)
{
	uint64_t below = (1ull << (4u * r)) - 1u;
	uint64_t above = ~(below | (0xfull << (4u * r)));
	return (o & above) | ((o & below) << 4) | w;
}

/* filler_ranks after the way ranked r moved to rank 0 and holds a tracked line */
static inline uint64_t ranks_touch(uint64_t f, uint32_t r)
{
	uint64_t below = (1ull << r) - 1u;
	return (f & ~(below | (1ull << r))) | ((f & below) << 1);
}

/*
 * LRU order, wider sets: each way's rank is a byte (0 = most recent), the ranks of a set a
 * permutation of 0..n-1. The helpers below work on eight of them per 64-bit word, loaded
 * little-endian (x86-64 and WebAssembly are), the last word of a set masked to the set's
 * own bytes (the age array has 8 bytes of slack, so reading past the last set is safe).
 * Each gives exactly what the byte-by-byte loop would.
 */

static inline uint64_t load8(const uint8_t *p)
{
	uint64_t x;
	memcpy(&x, p, 8);
	return x;
}

static inline void store8(uint8_t *p, uint64_t x)
{
	memcpy(p, &x, 8);
}

/* the bytes of word k (k = 0, 8, ..) that belong to a set of n ranks */
static inline uint64_t rank_mask(uint32_t n, uint32_t k)
{
	return n - k >= 8u ? ~0ull : (1ull << (8u * (n - k))) - 1u;
}

/* The ranks below a move down one (way ranked a then becomes rank 0). Per byte, rank >= a
 * shows as the high bit of (rank | 0x80) - a. */
static inline void touch_ranks(uint8_t *g, uint8_t a, uint32_t n)
{
	uint64_t aa = ONES * a;
	for (uint32_t k = 0; k < n; k += 8) {
		uint64_t x = load8(g + k);
		uint64_t below = ~((x | HIGHS) - aa) & HIGHS & rank_mask(n, k);
		store8(g + k, x + (below >> 7));
	}
}

/* Way (in the set) ranked r: the byte equal to r. The zero-byte test flags the lowest zero
 * byte exactly (a borrow only flags bytes above it); bytes outside the set are made
 * non-zero. Ranks are a permutation, so exactly one byte matches. */
static inline uint32_t way_ranked(const uint8_t *g, uint32_t n, uint32_t r)
{
	uint64_t rr = ONES * r;
	for (uint32_t k = 0; k < n; k += 8) {
		uint64_t t = (load8(g + k) ^ rr) | ~rank_mask(n, k);
		uint64_t hit = (t - ONES) & ~t & HIGHS;
		if (hit)
			return k + (uint32_t)__builtin_ctzll(hit) / 8u;
	}
	return 0; /* not reached: the ranks are a permutation */
}

/* Insert an anonymous line as most recent into a set of n ranks: every rank moves down
 * one and the way ranked last takes the new line. Returns that way. rotate_in_words() does
 * the same for a multiple of 8 ways, eight ranks per 64-bit word: add 1 to every byte,
 * then the one byte equal to n (the way that was ranked last) becomes 0. The zero-byte test
 * (t - 0x01..) & ~t & 0x80.. flags no byte below the real one, and none above it either,
 * since a flagged false positive needs a byte x ^ n == 1, i.e. x == n + 1 > n for even n. */
static inline uint32_t rotate_in(uint8_t *g, uint32_t n)
{
	uint32_t v = 0;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t a = g[i] + 1u;
		v = a == n ? i : v;
		g[i] = (uint8_t)(a == n ? 0 : a);
	}
	return v;
}

static inline uint32_t rotate_in_words(uint8_t *g, uint32_t n)
{
	uint32_t v = 0;
	for (uint32_t k = 0; k < n; k += 8) {
		uint64_t x = load8(g + k) + ONES, t, hit;
		t = x ^ (ONES * n);
		hit = (t - ONES) & ~t & HIGHS;
		if (hit) {
			uint32_t b = (uint32_t)__builtin_ctzll(hit) & ~7u;
			x &= ~(0xffull << b);
			v = k + b / 8u;
		}
		store8(g + k, x);
	}
	return v;
}

/*
 * Set lookups. A set of up to 16 ways keeps beside its LRU order a one-byte hash of each
 * way's line (fp: an empty way's is way_fp(0), a filler's way_fp(FILLER_LINE)). A lookup
 * compares the wanted line's hash with eight ways per 64-bit word and reads the tag of
 * each way whose hash matches; only a tag equal to the line is a hit, so a hash shared by
 * two lines costs a tag read, never a wrong answer. Why: a miss, the commonest lookup
 * below L1, then reads no tag at all, and a hit one, instead of comparing every way (16
 * compares, two host cache lines of tags, for an L2 set).
 */
static inline uint8_t way_fp(uint64_t line)
{
	return (uint8_t)((line * 0x9E3779B97F4A7C15ull) >> 56);
}

/* the ways (0..n-1) of set s whose line hashes as line does: the high bit of byte w */
HOT uint64_t fp_candidates(const struct cache_set *t, uint64_t line, uint32_t k,
			   const uint32_t n)
{
	uint64_t x = load8(t->fp + k) ^ (ONES * way_fp(line));
	/* the high bit of each byte of x that is zero: (b & 0x7f) + 0x7f carries into the high
	 * bit unless those bits are 0, and no byte carries into the next */
	return ~(((x & ~HIGHS) + ~HIGHS) | x) & HIGHS & rank_mask(n, k);
}

/* Way of `line` in set s of n ways, or n if none. The first candidate is tested without a
 * branch (a lookup's hit or miss is as unpredictable to the host as it is to the model);
 * only when its tag is another line's, a hash shared by two lines, are all tags compared. */
HOT uint32_t scan_set(const struct cache_level *c, uint32_t s, uint64_t line, const uint32_t n)
{
	const struct cache_slot *tags = c->way + (uint64_t)s * n;
	if (n > NARROW_WAYS)
		return scan_tags(tags, line, n);
	const struct cache_set *t = &c->sets[s];
	uint64_t z0 = fp_candidates(t, line, 0, n);
	uint64_t z1 = n > 8u ? fp_candidates(t, line, 8, n) : 0;
	uint32_t w0 = z0 ? (uint32_t)__builtin_ctzll(z0) / 8u : n;
	uint32_t w1 = z1 ? 8u + (uint32_t)__builtin_ctzll(z1) / 8u : n;
	uint32_t w = z0 ? w0 : w1;
	/* tags[n] is not this set's: read way 0 instead, and never take it as a hit */
	uint64_t tag = tags[w < n ? w : 0].line;
	if (__builtin_expect(w < n && tag != line, 0))
		return scan_tags(tags, line, n);
	return w;
}

/* way w of set s (of a level of n ways) holds `line` from now on */
HOT void set_tag(struct cache_level *c, uint32_t s, uint32_t w, uint64_t line, const uint32_t n)
{
	c->way[(uint64_t)s * n + w].line = line;
	if (n <= NARROW_WAYS)
		c->sets[s].fp[w] = way_fp(line);
}

/* L2 with lazy clears (cache_clear.h, "clear_page() in bulk"): the group's clear count at
 * which set t (n ways) would take a filler that evicts something other than a filler, 0 for
 * never: the fillers ranked above the highest non-filler can go first. The group's `due`
 * masks file the sets by it, so that a clear applies its filler at once only to the sets
 * it reaches. */
HOT uint64_t due_at(const struct cache_set *t, const uint32_t n)
{
	uint64_t others = ~t->filler_ranks & rank_bits(n);
	return others ? t->synced + n - (63u - (uint32_t)__builtin_clzll(others)) : 0;
}

/* set s's deadline is `want` from now on (not HOT: it rarely moves) */
static inline void refile_due(struct cache_level *c, uint32_t s, uint64_t want)
{
	struct cache_set *t = &c->sets[s];
	if (want == t->deadline)
		return;
	uint64_t *due = c->due + (uint64_t)(s >> 6) * DUE_SLOTS;
	uint64_t bit = 1ull << (s & 63u);
	if (t->deadline)
		due[t->deadline % DUE_SLOTS] &= ~bit;
	t->deadline = want;
	if (want)
		due[want % DUE_SLOTS] |= bit;
}

/* The LRU interface the rest of the model uses, by set and way (0..n-1) of a level of n
 * ways, on sets already brought up to date (lazy_sync). */

/* the way ranked r in set s */
HOT uint32_t lru_way(const struct cache_level *c, uint32_t s, uint32_t r, const uint32_t n)
{
	if (n <= NARROW_WAYS)
		return (uint32_t)(c->sets[s].order >> (4u * r)) & 0xfu;
	return way_ranked(c->age + (uint64_t)s * n, n, r);
}

/* The set's order changed (a touch, a fill, a filler inserted at once): an L2 with lazy
 * clears refiles it under its new deadline. */
HOT void order_changed(struct cache_level *c, uint32_t s, const uint32_t n)
{
	/* most touches and fills leave the deadline where it was: tested here, without a call */
	if (c->due) {
		uint64_t want = due_at(&c->sets[s], n);
		if (want != c->sets[s].deadline)
			refile_due(c, s, want);
	}
}

/* way w of set s, holding a tracked line, becomes the most recently used */
HOT void lru_touch(struct cache_level *c, uint32_t s, uint32_t w, const uint32_t n)
{
	if (n <= NARROW_WAYS) {
		struct cache_set *t = &c->sets[s];
		uint32_t r = nib_rank(t->order, w);
		t->order = nib_touch(t->order, w, r);
		t->filler_ranks = ranks_touch(t->filler_ranks, r);
		order_changed(c, s, n);
		return;
	}
	uint8_t *g = c->age + (uint64_t)s * n;
	if (g[w]) {
		touch_ranks(g, g[w], n);
		g[w] = 0;
	}
}

/* the LRU way of set s becomes the most recently used, for a filler; returns it */
HOT uint32_t lru_insert(struct cache_level *c, uint32_t s, const uint32_t n)
{
	if (n <= NARROW_WAYS) {
		struct cache_set *t = &c->sets[s];
		uint64_t x = t->order, bits = order_bits(n);
		uint32_t v = (uint32_t)(x >> (4u * (n - 1u))) & 0xfu;
		t->order = (x & ~bits) | ((x << 4) & bits) | v;
		t->filler_ranks = ((t->filler_ranks << 1) | 1u) & rank_bits(n);
		order_changed(c, s, n);
		return v;
	}
	uint8_t *g = c->age + (uint64_t)s * n;
	return (n & 7u) ? rotate_in(g, n) : rotate_in_words(g, n);
}

/* An L1 or L2 level's arrays (cache_lru.c). lazy: 1 to count clear_page()s per group of 64
 * sets, 2 to file the sets by deadline too (cache_clear.h, "clear_page() in bulk"; only for
 * levels of at least 64 sets of up to 16 ways). */
int _cache_level_init(struct cache_level *c, uint64_t bytes, uint32_t assoc, int with_ready,
		     int lazy);
void _cache_level_free(struct cache_level *c);
/* the host bytes _cache_level_init() takes (lazy as it decides it), its arrays' slack
 * included */
uint64_t _cache_level_bytes(uint64_t bytes, uint32_t assoc, int with_ready, int lazy);

#endif
