/*
 * The cache model: does touching a 64-byte line at a kernel virtual address hit, miss, meet
 * another core's modified copy, or meet a prefetch that is still in flight?
 *
 * Structure
 *   - Per core (shared by its SMT threads): L1d and L2, set-associative, true LRU.
 *   - Per socket: the LLC, set-associative, true LRU, indexed by a hash of the line (real
 *     Skylake-SP hashes lines over LLC slices; the set count is not a power of two).
 *   - LLC fill policy: `llc_victim` = 1 fills the LLC with lines the L2 evicts (Skylake-SP's
 *     non-inclusive victim L3) and with lines another core supplied (shared lines stay in
 *     L3); 0 fills it on every miss (Broadwell's inclusive L3, though LLC evictions do not
 *     back-invalidate here).
 *   - Coherence by versions: the directory holds, per line, a version and the CPU that holds
 *     it Modified. A write by a CPU that is not the owner gives the line a new version (from
 *     one global counter), which makes every other copy stale: a stale copy is a miss. A read
 *     of a line Modified in another core's private cache is a remote hit and leaves the line
 *     shared (owner cleared).
 *   - LRU: each set keeps its ways in recency order (rank 0 = most recent). Touching a way
 *     moves it to rank 0 and the ways ranked above it down one; the victim is the way ranked
 *     last. Exact LRU, no counter that can wrap. Empty ways start ranked above used ones, in
 *     way order, so they fill first.
 *
 * Host speed (docs/performance.md, "Model machine speed"): the paths every access takes are
 * written once, as always-inline functions of the levels' ways, and compiled twice: with the
 * default machine's 8, 16 and 11 ways as constants (every scan unrolled, every mask folded)
 * and with the ways read from the levels, for any other machine. Both give the same results.
 *
 * Nothing here allocates after cache_init().
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"

#define VMEMMAP_LINE (MODEL_VMEMMAP_START >> MODEL_LINE_SHIFT)
/* A way holding a line of a frame written by clear_page() (cache_clear_page): anonymous,
 * no directory entry, never hit. No kernel line number (vaddr >> 6) has bit 63 set. */
#define FILLER_LINE UINT64_MAX

/* Sets of up to NARROW_WAYS ways keep their LRU order in one 64-bit word, 4 bits a rank. */
#define NARROW_WAYS 16u
#define NIB_ONES 0x1111111111111111ull
#define NIB_HIGHS 0x8888888888888888ull
#define DUE_SLOTS 32u /* > 16: a deadline lies 1..16 clears ahead of its group's count */

/* Wider sets' LRU ranks are handled eight bytes at a time (touch_ranks(), below):
 * little-endian words, and AGE_SLACK bytes after the last set so that a set's last word can
 * be read whole */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "cache.c reads LRU ranks eight at a time, little-endian"
#endif
#define ONES 0x0101010101010101ull
#define HIGHS 0x8080808080808080ull
#define AGE_SLACK 8u

/* A function of the hot paths, compiled into each caller with its ways (see the top). */
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

static void file_due(struct cache_level *c, uint32_t s);
static void refile_due(struct cache_level *c, uint32_t s, uint64_t want);

/* L2 with lazy clears: the group's clear count at which set t (n ways) would take a filler
 * that evicts something other than a filler, 0 for never: the fillers ranked above the
 * highest non-filler can go first */
HOT uint64_t due_at(const struct cache_set *t, const uint32_t n)
{
	uint64_t others = ~t->filler_ranks & rank_bits(n);
	return others ? t->synced + n - (63u - (uint32_t)__builtin_clzll(others)) : 0;
}

/* The sets of a level of `bytes` in `assoc` ways (0: none or too many), and its set_mask */
static uint64_t level_sets(uint64_t bytes, uint32_t assoc, uint32_t *set_mask)
{
	uint64_t nsets = bytes / 64u / assoc;
	if (nsets > 0xffffffffu)
		return 0;
	*set_mask = (nsets & (nsets - 1)) == 0 ? (uint32_t)nsets - 1 : 0;
	return nsets;
}

/* lazy: 1 to count clear_page()s per group of 64 sets, 2 to file the sets by deadline too
 * (see "clear_page() in bulk"; only for levels of at least 64 sets of up to 16 ways) */
static int level_init(struct cache_level *c, uint64_t bytes, uint32_t assoc, int with_ready,
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

/* an LLC set's bytes: its head and assoc lines, rounded up to whole host cache lines */
static uint32_t llc_stride(uint32_t assoc)
{
	return (uint32_t)((sizeof(struct llc_set) + assoc * sizeof(struct llc_line) + 63u) & ~63u);
}

static int llc_init(struct cache_llc *c, uint64_t bytes, uint32_t assoc)
{
	uint64_t nsets = level_sets(bytes, assoc, &c->set_mask);
	if (nsets == 0)
		return -1;
	c->nsets = (uint32_t)nsets;
	c->assoc = assoc;
	c->stride = llc_stride(assoc);
	c->sets = aligned_alloc(64, nsets * c->stride);
	c->fillers = 0;
	if (!c->sets)
		return -1;
	memset(c->sets, 0, nsets * c->stride);
	return 0;
}

static void llc_free(struct cache_llc *c)
{
	free(c->sets);
	memset(c, 0, sizeof(*c));
}

static void level_free(struct cache_level *c)
{
	free(c->way);
	free(c->sets);
	free(c->age);
	free(c->ready);
	free(c->clears);
	free(c->due);
	memset(c, 0, sizeof(*c));
}

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
static void touch_ranks(uint8_t *g, uint8_t a, uint32_t n)
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
static uint32_t way_ranked(const uint8_t *g, uint32_t n, uint32_t r)
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
static uint32_t rotate_in(uint8_t *g, uint32_t n)
{
	uint32_t v = 0;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t a = g[i] + 1u;
		v = a == n ? i : v;
		g[i] = (uint8_t)(a == n ? 0 : a);
	}
	return v;
}

static uint32_t rotate_in_words(uint8_t *g, uint32_t n)
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

/*
 * clear_page() in bulk. An L1 or L2 of at least 64 sets of up to 16 ways takes a page's 64
 * lines one per set of a group of 64 consecutive sets (the page's own group: its lines are
 * consecutive and its first line is a multiple of 64). Such a clear is only counted (the
 * group's `clears`) and each set takes in the fillers due to it when it is next looked at,
 * exactly as llc_live() does for the LLC's stream; that is exact as long as nothing but
 * the set itself sees what a filler evicts:
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
static void fill_gone(struct cache_level *c, uint32_t s, uint64_t gone)
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

/* L2: file set s under its deadline (see "clear_page() in bulk"). Most touches and fills
 * leave the deadline where it was (it moves only with the highest non-filler rank). */
static void file_due(struct cache_level *c, uint32_t s)
{
	refile_due(c, s, due_at(&c->sets[s], c->assoc));
}

/* set s's deadline is `want` from now on (out of line: it rarely moves) */
static void refile_due(struct cache_level *c, uint32_t s, uint64_t want)
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

/*
 * The LLC. Its evictions have no side effect (nothing back-invalidates, nothing is written
 * back anywhere the model looks), and most of what it takes in is the clear_page() stream:
 * the frame lines that reach a socket's LLC are only counted (c->fillers), filler j going
 * to set j % nsets, which is the hash's even spread of a page's lines without its noise.
 * So a set keeps only its tracked lines, most recent first, each with the number of
 * fillers the set had taken in when it was last used (used_at). In a true-LRU set the line
 * in slot i then ranks (fillers taken in since its use) + i: every filler and every line
 * used after it is more recent, and nothing else is. Ranks grow along the slots, so the
 * lines still in the set (rank < ways) are a prefix: a look at the set drops the slots past
 * it, a use moves a line to slot 0, a fill puts a new line there. Exact for that stream,
 * nothing per cleared line, and a set that fillers have washed through costs nothing to
 * look at. (Empty ways need no slot: a line leaves only when `ways` others are more recent.)
 */

/* The set of `line` in an LLC: the low bits for power-of-two set counts, else a hash spread
 * over the sets (real Skylake-SP hashes lines over its LLC slices; the set count is not a
 * power of two). L1 and L2 always have power-of-two sets (priv_set). */
static inline uint32_t llc_set_of(const struct cache_llc *c, uint64_t line)
{
	if (c->set_mask || c->nsets == 1)
		return (uint32_t)line & c->set_mask;
	uint32_t h = (uint32_t)((line * 0x9E3779B97F4A7C15ull) >> 32);
	return (uint32_t)(((uint64_t)h * c->nsets) >> 32);
}

/* fillers set s has taken in: the j < c->fillers with j % nsets == s */
static inline uint64_t llc_taken(const struct cache_llc *c, uint32_t s)
{
	uint64_t num = c->fillers + c->nsets - 1u - s;
	/* a 32-bit division while the count fits: the same quotient, several times faster */
	return num <= 0xffffffffu ? (uint32_t)num / c->nsets : num / c->nsets;
}

static inline struct llc_set *llc_set_at(const struct cache_llc *c, uint32_t s)
{
	return (struct llc_set *)((char *)c->sets + (uint64_t)s * c->stride);
}

/*
 * Set s (n ways) brought up to date: the lines the fillers pushed out dropped; returns how
 * many it still holds (slots 0..k-1), *taken gets llc_taken(). A line's used_at keeps the
 * count's low 32 bits: every line kept at the last look had used_at within n of `synced`,
 * so unless n fillers came since (then every line is gone) the difference is exact.
 */
HOT uint32_t llc_live(struct cache_llc *c, uint32_t s, uint64_t *taken, const uint32_t n)
{
	struct llc_set *t = llc_set_at(c, s);
	uint64_t f = llc_taken(c, s);
	uint32_t k = t->nlines;
	if (f - t->synced >= n)
		k = 0;
	else
		while (k && (uint32_t)f - t->line[k - 1u].used_at + (k - 1u) >= n)
			k--;
	t->nlines = k;
	t->synced = f;
	*taken = f;
	return k;
}

/* slot of `line` among the k lines of set s, or k */
HOT uint32_t llc_find(const struct cache_llc *c, uint32_t s, uint32_t k, uint64_t line)
{
	const struct llc_line *l = llc_set_at(c, s)->line;
	uint32_t i = 0;
	while (i < k && l[i].line != line)
		i++;
	return i;
}

/* the line in slot i of set s is used now, when the set has taken in `taken` fillers: it
 * moves to slot 0, the lines before it down one (none leaves: each still ranks below the
 * used line's old rank) */
HOT void llc_use(struct cache_llc *c, uint32_t s, uint32_t i, uint64_t taken)
{
	struct llc_line *l = llc_set_at(c, s)->line;
	struct llc_line x = l[i];
	for (; i; i--)
		l[i] = l[i - 1u];
	x.used_at = (uint32_t)taken;
	l[0] = x;
}

/* a line of a frame cache_clear_page() may be asked to clear (cache_set_frames) */
static inline uint32_t is_frame_line(const struct cache_model *m, uint64_t line)
{
	return line && line >= m->frame_lo_line && line < m->frame_hi_line;
}

/* dir_get() of a line outside the dense struct page range: its hashed slot, taken over
 * (forgetting the line that had it) when another line has it */
static struct cache_dir_page *dir_get_hashed(struct cache_model *m, uint64_t line)
{
	uint32_t h = (uint32_t)((line * 0x9E3779B97F4A7C15ull) >> 32) & m->dir_hash_mask;
	struct cache_dir_entry *e = &m->dir_hash[h];
	if (e->line != line) {
		if (e->line)
			m->dir_forgotten++;
		else
			m->dir_hash_live++;
		m->dir_frame_live -= is_frame_line(m, e->line);
		m->dir_frame_live += is_frame_line(m, line);
		e->line = line;
		e->e.ver = ++m->ver_clock;
		e->e.owner = MODEL_NO_CPU;
		e->e.own_core = MODEL_NO_CPU;
	}
	return &e->e;
}

HOT struct cache_dir_page *dir_get(struct cache_model *m, uint64_t line)
{
	uint64_t i = line - m->dir_base_line;
	if (i < m->dir_npages)
		return &m->dir_pages[i];
	uint32_t h = (uint32_t)((line * 0x9E3779B97F4A7C15ull) >> 32) & m->dir_hash_mask;
	if (m->dir_hash[h].line == line)
		return &m->dir_hash[h].e;
	return dir_get_hashed(m, line);
}

/* The directory entry of a line, without creating or forgetting anything; NULL = unknown. */
static inline const struct cache_dir_page *dir_peek(const struct cache_model *m, uint64_t line)
{
	uint64_t i = line - m->dir_base_line;
	if (i < m->dir_npages)
		return &m->dir_pages[i];
	uint32_t h = (uint32_t)((line * 0x9E3779B97F4A7C15ull) >> 32) & m->dir_hash_mask;
	return m->dir_hash[h].line == line ? &m->dir_hash[h].e : NULL;
}

/*
 * Is a copy filled at version ver current? In an L1 only when ver is the line's version
 * (an ownership change updates the writer's L1 copy at once). In an L2 or LLC also when
 * the line's last ownership change was by this core, or by a core of this socket: such a
 * change makes every copy the writer's core and socket hold current, which is recorded
 * once in the directory (own_core) instead of in each copy (take_ownership).
 */
static inline int l2_current(const struct cache_dir_page *d, uint32_t core, uint32_t ver)
{
	return ver == d->ver || d->own_core == core;
}

static inline int llc_current(const struct cache_model *m, const struct cache_dir_page *d,
			      uint32_t socket, uint32_t ver)
{
	return ver == d->ver ||
	       (d->own_core != MODEL_NO_CPU && m->core_socket[d->own_core] == socket);
}

/* The L2 of `core` evicted a copy of line at version ver: its directory entry when that
 * copy was current (a victim LLC takes it then), else NULL */
static inline const struct cache_dir_page *l2_victim_current(const struct cache_model *m,
							      uint64_t line, uint32_t core,
							      uint32_t ver)
{
	const struct cache_dir_page *d = dir_peek(m, line);
	return d && l2_current(d, core, ver) ? d : NULL;
}

static inline void account_wasted(struct cache_model *m, const struct cache_pfmark *f)
{
	m->cnt_cpu[f->cpu].pf_wasted++;
	m->cnt_path[f->path].pf_wasted++;
}

/* The prefetched line `line`, marked by f, leaves L1 unused. The caller clears the mark. */
static void count_wasted(struct cache_model *m, uint64_t line, const struct cache_pfmark *f)
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

/* L1 way i loses its prefetch mark unused (written, or evicted): a wasted prefetch */
static inline void waste_mark(struct cache_model *m, struct cache_level *l1, uint64_t i,
			      uint64_t line)
{
	count_wasted(m, line, &l1->way[i].pfm);
	l1->way[i].pfm.pf = 0;
	l1->pf_marks--;
}

uint32_t cache_take_wasted(struct cache_model *m, struct cache_wasted *out, uint32_t max)
{
	uint32_t n = m->nwasted < max ? m->nwasted : max;
	for (uint32_t i = 0; i < n; i++)
		out[i] = m->wasted[i];
	for (uint32_t i = n; i < m->nwasted; i++)
		m->wasted[i - n] = m->wasted[i];
	m->nwasted -= n;
	return n;
}

/* Put `line` at version `ver` into way w of set s (its stale way or the LRU way, found by
 * the caller) as most recent. The evicted way's old content is copied to *old when old is
 * not NULL. */
HOT void fill_way(struct cache_level *c, uint32_t s, uint32_t w, uint64_t line, uint32_t ver,
		  struct cache_way *old, const uint32_t n)
{
	struct cache_slot *x = &c->way[(uint64_t)s * n + w];
	if (old) { /* an L2 way's mark is all zero */
		old->line = x->line;
		old->ver = x->ver;
		old->pf = x->pfm.pf;
		old->path = x->pfm.path;
		old->cpu = x->pfm.cpu;
	}
	if (x->pfm.pf && x->line != line) {
		x->pfm.pf = 0;
		c->pf_marks--;
	}
	set_tag(c, s, w, line, n);
	x->ver = ver;
	c->sets[s].tracked |= 1ull << w;
	c->sets[s].used |= 1ull << w;
	lru_touch(c, s, w, n);
}

/* `line` at version ver into the LLC of `socket` (a victim LLC: what the L2 evicted, or a
 * line another core supplied; an inclusive one: every miss): into its own slot if the set
 * holds a copy, current or stale, else into a new slot 0, every line moving down one and
 * the least recent leaving when it then ranks past the last way */
HOT void fill_llc(struct cache_model *m, uint32_t socket, uint64_t line, uint32_t ver,
		  const struct geom g)
{
	struct cache_llc *c = &m->llc[socket];
	const uint32_t n = WAYS(g.n3, c);
	uint32_t s = llc_set_of(c, line);
	struct llc_set *t = llc_set_at(c, s);
	uint64_t taken;
	uint32_t k = llc_live(c, s, &taken, n), i = llc_find(c, s, k, line);
	if (i < k) {
		llc_use(c, s, i, taken);
		t->line[0].ver = ver;
		return;
	}
	if (k && (uint32_t)taken - t->line[k - 1u].used_at + k >= n)
		k--;
	for (i = k; i; i--)
		t->line[i] = t->line[i - 1u];
	t->line[0].line = line;
	t->line[0].used_at = (uint32_t)taken;
	t->line[0].ver = ver;
	t->nlines = k + 1u;
}

/* `line` into way w of L2 set s (found by the caller); what it evicts goes on down */
HOT void fill_l2(struct cache_model *m, uint32_t core, uint32_t socket, uint32_t s, uint32_t w,
		 uint64_t line, uint32_t ver, const struct geom g)
{
	struct cache_level *l2 = &m->l2[core];
	struct cache_way old;
	fill_way(l2, s, w, line, ver, &old, WAYS(g.n2, l2));
	if (m->p.llc_victim && old.line && old.line != line) {
		/* a victim LLC takes what the L2 evicts, if it is still current (peek: the
		 * caller holds a pointer into the directory that must stay valid); a cleared
		 * frame line joins the LLC's aggregated stream */
		const struct cache_dir_page *od;
		if (old.line == FILLER_LINE)
			m->llc[socket].fillers++;
		else if ((od = l2_victim_current(m, old.line, core, old.ver)))
			fill_llc(m, socket, old.line, od->ver, g);
	}
}

/* `line` into L1 set s: way own if the set holds a stale copy (own < ways), else the LRU
 * way. Returns the way's index. */
HOT uint64_t fill_l1(struct cache_model *m, uint32_t core, uint32_t s, uint32_t own,
		     uint64_t line, uint32_t ver, const struct geom g)
{
	struct cache_level *l1 = &m->l1[core];
	const uint32_t n = WAYS(g.n1, l1);
	uint32_t w = own < n ? own : lru_way(l1, s, n - 1u, n);
	struct cache_way old;
	fill_way(l1, s, w, line, ver, &old, n);
	if (old.pf && old.line != line)
		count_wasted_way(m, &old);
	return (uint64_t)s * n + w;
}

/* the L1 or L2 of core holds a current copy of `line` (directory entry d) */
HOT int valid_in(struct cache_level *c, uint64_t line, const struct cache_dir_page *d,
		 uint32_t core, const uint32_t n)
{
	uint32_t s = look_set(c, line, n);
	uint32_t w = scan_set(c, s, line, n);
	return w < n && l2_current(d, core, c->way[(uint64_t)s * n + w].ver);
}

/* Host-side only: start loading LLC set s of c (n ways); the lookup that needs it comes a
 * little later. */
HOT void prefetch_llc_set(const struct cache_llc *c, uint32_t s, const uint32_t n)
{
	__builtin_prefetch(llc_set_at(c, s));
}

/*
 * The line missed L1 (or was stale there; own1 is its L1 way then, else the ways): find it
 * below, fill L2 and L1, and return the L1 index. *outcome and *cycles say where it came
 * from.
 */
HOT uint64_t fetch_line(struct cache_model *m, uint32_t cpu, uint64_t line,
			struct cache_dir_page *d, uint32_t s1, uint32_t own1, uint32_t *outcome,
			uint32_t *cycles, const struct geom g)
{
	uint32_t core = m->core_of[cpu];
	uint32_t socket = m->socket_of[cpu];
	uint32_t ver = d->ver;
	struct cache_level *l2 = &m->l2[core];
	struct cache_llc *l3 = &m->llc[socket];
	const uint32_t n2 = WAYS(g.n2, l2), n3 = WAYS(g.n3, l3);
	uint32_t s2 = look_set(l2, line, n2);
	uint64_t b2 = (uint64_t)s2 * n2;
	uint32_t s3 = llc_set_of(l3, line);
	/* an L2 miss needs the LLC set, a likely host cache miss at scale */
	prefetch_llc_set(l3, s3, n3);
	uint32_t w2 = scan_set(l2, s2, line, n2);

	if (w2 < n2 && l2_current(d, core, l2->way[b2 + w2].ver)) {
		lru_touch(l2, s2, w2, n2);
		*outcome = CACHE_L2;
		*cycles = m->p.l2_cycles;
		return fill_l1(m, core, s1, own1, line, ver, g);
	}
	/* The L2 way the line will go into: its stale copy's, or the LRU way. Nothing below
	 * changes this core's L2 before fill_l2(). */
	uint32_t v2 = w2 < n2 ? w2 : lru_way(l2, s2, n2 - 1u, n2);
	if (m->p.llc_victim) {
		/* Host-side only: the L2 victim that fill_l2() will push into the LLC is known
		 * now; start loading its directory entry and LLC set while this line's own LLC
		 * lookup runs. */
		uint64_t old = l2->way[b2 + v2].line;
		if (is_tracked(old) && old != line) {
			uint64_t di = old - m->dir_base_line;
			if (di < m->dir_npages)
				__builtin_prefetch(&m->dir_pages[di]);
			prefetch_llc_set(l3, llc_set_of(l3, old), n3);
		}
	}
	uint32_t owner = d->owner;
	if (owner != MODEL_NO_CPU && owner != cpu) {
		uint32_t ocore = m->core_of[owner];
		if (ocore != core && (valid_in(&m->l1[ocore], line, d, ocore, WAYS(g.n1, &m->l1[ocore])) ||
				      valid_in(&m->l2[ocore], line, d, ocore, n2))) {
			int same = m->socket_of[owner] == socket;
			*outcome = CACHE_REMOTE;
			*cycles = same ? m->p.xcore_cycles : m->p.xsocket_cycles;
			d->owner = MODEL_NO_CPU; /* written back, now shared */
			/* Skylake-SP keeps lines shared by several cores in its L3: fill the
			 * reader's LLC in both modes, so a third core there hits it */
			fill_llc(m, socket, line, ver, g);
			fill_l2(m, core, socket, s2, v2, line, ver, g);
			return fill_l1(m, core, s1, own1, line, ver, g);
		}
		d->owner = MODEL_NO_CPU; /* the owner evicted it: written back below */
	}
	uint64_t taken;
	uint32_t k3 = llc_live(l3, s3, &taken, n3), w3 = llc_find(l3, s3, k3, line);
	if (w3 < k3 && llc_current(m, d, socket, llc_set_at(l3, s3)->line[w3].ver)) {
		llc_use(l3, s3, w3, taken);
		*outcome = CACHE_LLC;
		*cycles = m->p.llc_cycles;
	} else {
		*outcome = CACHE_MEM;
		*cycles = m->p.mem_cycles;
		if (!m->p.llc_victim)
			fill_llc(m, socket, line, ver, g);
	}
	fill_l2(m, core, socket, s2, v2, line, ver, g);
	return fill_l1(m, core, s1, own1, line, ver, g);
}

/*
 * An L1 miss needs one of the CPU's line fill buffers (`fill_buffers`, 0 = unlimited). The
 * buffers are a ring of completion times in issue order: a fill starts when the buffer it
 * reuses is free, so a burst of prefetches lands `fill_buffers` at a time and a demand miss
 * behind them waits too. *cycles grows by that wait.
 * Per CPU, not per core as in hardware: SMT siblings run different steps whose clocks may be
 * far apart, and a sibling must not wait for fills that lie in its future.
 */
HOT uint64_t fetch(struct cache_model *m, uint32_t cpu, uint64_t line, struct cache_dir_page *d,
		   uint32_t s1, uint32_t own1, uint64_t now, uint32_t *outcome, uint32_t *cycles,
		   const struct geom g)
{
	uint64_t idx = fetch_line(m, cpu, line, d, s1, own1, outcome, cycles, g);
	uint32_t n = m->p.fill_buffers;
	if (n) {
		uint64_t *slot = &m->fb[(uint64_t)cpu * n + m->fb_head[cpu]];
		uint64_t start = *slot > now ? *slot : now;
		uint64_t total = start - now + *cycles;
		*cycles = total > 0xffffffffu ? 0xffffffffu : (uint32_t)total;
		*slot = now + *cycles;
		uint32_t next = m->fb_head[cpu] + 1u;
		m->fb_head[cpu] = (uint8_t)(next == n ? 0 : next);
	}
	return idx;
}

/* The miss half of access(): out of line, so that the L1 hit stays short. */
static uint64_t fetch_any(struct cache_model *m, uint32_t cpu, uint64_t line,
			  struct cache_dir_page *d, uint32_t s1, uint32_t own1, uint64_t now,
			  uint32_t *outcome, uint32_t *cycles)
{
	return fetch(m, cpu, line, d, s1, own1, now, outcome, cycles, ANY_GEOM);
}

static uint64_t fetch_default(struct cache_model *m, uint32_t cpu, uint64_t line,
			      struct cache_dir_page *d, uint32_t s1, uint32_t own1, uint64_t now,
			      uint32_t *outcome, uint32_t *cycles)
{
	return fetch(m, cpu, line, d, s1, own1, now, outcome, cycles, DEFAULT_GEOM);
}

/* A write by a CPU that does not own the line: a new version, which makes every other
 * core's copy stale. The writer's own copies keep up: its L1 copy (at idx1) at once, its L2
 * copy and its socket's LLC copy through the directory's own_core (l2_current,
 * llc_current), so nothing is searched. */
static inline void take_ownership(struct cache_model *m, uint32_t cpu, struct cache_dir_page *d,
				  uint64_t idx1)
{
	uint32_t core = m->core_of[cpu];
	uint32_t ver = ++m->ver_clock;
	d->ver = ver;
	d->owner = (uint16_t)cpu;
	d->own_core = (uint16_t)core;
	m->l1[core].way[idx1].ver = ver;
}

/* The counters of an access's CPU and code path */
HOT void count_access(struct cache_model *m, uint32_t cpu, uint8_t path, struct cache_result r,
		      int write)
{
	struct cache_counters *c = &m->cnt_cpu[cpu], *p = &m->cnt_path[path];
	c->access[r.outcome]++;
	p->access[r.outcome]++;
	c->cycles += r.cycles;
	p->cycles += r.cycles;
	c->writes += (uint64_t)(write != 0);
	p->writes += (uint64_t)(write != 0);
}

HOT struct cache_result access(struct cache_model *m, uint32_t cpu, uint64_t vaddr, int write,
			       uint64_t now, uint8_t path, const struct geom g)
{
	uint64_t line = vaddr >> MODEL_LINE_SHIFT;
	struct cache_level *l1 = &m->l1[m->core_of[cpu]];
	const uint32_t n1 = WAYS(g.n1, l1);
	struct cache_dir_page *d = dir_get(m, line);
	struct cache_result r = {CACHE_L1, m->p.l1_cycles};
	uint32_t s1 = look_set(l1, line, n1);
	uint64_t b1 = (uint64_t)s1 * n1, idx = b1 + lru_way(l1, s1, 0, n1);

	/* Fast path: the line is the most recent of its L1 set, current and not a prefetch.
	 * Same answer as the full path (touching the MRU way changes nothing), without the set
	 * scan: allocator code touches one struct page several times running. */
	if (__builtin_expect(l1->way[idx].line != line || l1->way[idx].ver != d->ver || l1->way[idx].pfm.pf,
			     0)) {
		uint32_t w1 = scan_set(l1, s1, line, n1);
		idx = b1 + w1;
		if (w1 < n1 && l1->way[idx].ver == d->ver) {
			struct cache_pfmark *w = &l1->way[idx].pfm;
			if (w->pf) {
				uint64_t ready = l1->ready[idx];
				w->pf = 0;
				l1->pf_marks--;
				if (now >= ready) {
					r.outcome = CACHE_PF_HIT;
				} else {
					uint64_t rest = ready - now;
					r.outcome = CACHE_PF_LATE;
					if (rest > r.cycles)
						r.cycles = rest > 0xffffffffu ? 0xffffffffu
									      : (uint32_t)rest;
				}
			}
			lru_touch(l1, s1, w1, n1);
		} else {
			if (w1 < n1 && l1->way[idx].pfm.pf)
				waste_mark(m, l1, idx, line); /* written before it was used */
			idx = (g.n1 ? fetch_default : fetch_any)(m, cpu, line, d, s1, w1, now,
								 &r.outcome, &r.cycles);
		}
	}
	if (write && d->owner != cpu)
		take_ownership(m, cpu, d, idx);

	count_access(m, cpu, path, r, write);
	return r;
}

static struct cache_result access_any(struct cache_model *m, uint32_t cpu, uint64_t vaddr,
				      int write, uint64_t now, uint8_t path)
{
	return access(m, cpu, vaddr, write, now, path, ANY_GEOM);
}

static struct cache_result access_default(struct cache_model *m, uint32_t cpu, uint64_t vaddr,
					  int write, uint64_t now, uint8_t path)
{
	return access(m, cpu, vaddr, write, now, path, DEFAULT_GEOM);
}

struct cache_result cache_access_slow(struct cache_model *m, uint32_t cpu, uint64_t vaddr,
				      int write, uint64_t now, uint8_t path)
{
	return (m->default_geom ? access_default : access_any)(m, cpu, vaddr, write, now, path);
}

struct cache_result cache_access(struct cache_model *m, uint32_t cpu, uint64_t vaddr,
				 int write, uint64_t now, uint8_t path)
{
	if (cache_access_mru(m, cpu, vaddr >> MODEL_LINE_SHIFT, write, path)) {
		struct cache_result r = {CACHE_L1, m->p.l1_cycles};
		return r;
	}
	return cache_access_slow(m, cpu, vaddr, write, now, path);
}

HOT uint32_t prefetch(struct cache_model *m, uint32_t cpu, uint64_t vaddr, uint64_t now,
		      uint8_t path, const struct geom g)
{
	uint64_t line = vaddr >> MODEL_LINE_SHIFT;
	struct cache_level *l1 = &m->l1[m->core_of[cpu]];
	const uint32_t n1 = WAYS(g.n1, l1);
	struct cache_dir_page *d = dir_get(m, line);
	uint32_t s1 = look_set(l1, line, n1);
	uint32_t w1 = scan_set(l1, s1, line, n1);
	uint64_t i1 = (uint64_t)s1 * n1 + w1;

	if (w1 < n1 && l1->way[i1].ver == d->ver) {
		const struct cache_pfmark *w = &l1->way[i1].pfm;
		m->cnt_cpu[cpu].pf_redundant++;
		m->cnt_path[path].pf_redundant++;
		if (w->pf && l1->ready[i1] > now) {
			uint64_t rest = l1->ready[i1] - now;
			return rest > 0xffffffffu ? 0xffffffffu : (uint32_t)rest;
		}
		return 0;
	}
	if (w1 < n1 && l1->way[i1].pfm.pf)
		waste_mark(m, l1, i1, line);

	uint32_t outcome, cycles;
	uint64_t idx = fetch(m, cpu, line, d, s1, w1, now, &outcome, &cycles, g);
	struct cache_pfmark *w = &l1->way[idx].pfm;
	w->pf = 1;
	w->path = path;
	w->cpu = (uint8_t)cpu;
	l1->pf_marks++;
	l1->ready[idx] = now + cycles;
	m->cnt_cpu[cpu].prefetches++;
	m->cnt_path[path].prefetches++;
	return cycles;
}

uint32_t cache_prefetch(struct cache_model *m, uint32_t cpu, uint64_t vaddr, uint64_t now,
			uint8_t path)
{
	if (m->default_geom)
		return prefetch(m, cpu, vaddr, now, path, DEFAULT_GEOM);
	return prefetch(m, cpu, vaddr, now, path, ANY_GEOM);
}

/* The filler took way v of set: what was there? Returns 1 when it held a tracked line (then
 * copied to *old and replaced), 0 when it was empty or a filler already; the masks say which
 * without touching the way array, so a filler replacing a filler costs a few bytes of ranks. */
HOT int put_filler(struct cache_level *c, uint32_t set, uint32_t v, struct cache_way *old,
		   int *was_used, const uint32_t n)
{
	uint64_t bit = 1ull << v;
	uint64_t i = (uint64_t)set * n + v;
	if (c->sets[set].tracked & bit) {
		old->line = c->way[i].line;
		old->ver = c->way[i].ver;
		old->pf = c->way[i].pfm.pf; /* an L2 way's mark is all zero */
		old->path = c->way[i].pfm.path;
		old->cpu = c->way[i].pfm.cpu;
		c->pf_marks -= c->way[i].pfm.pf;
		c->way[i].pfm.pf = 0;
		c->sets[set].tracked &= ~bit;
		set_tag(c, set, v, FILLER_LINE, n);
		c->way[i].ver = 0;
		*was_used = 1;
		return 1;
	}
	*was_used = (c->sets[set].used & bit) != 0;
	if (!*was_used) {
		c->sets[set].used |= bit;
		set_tag(c, set, v, FILLER_LINE, n);
		c->way[i].ver = 0;
	}
	return 0;
}

/* A filler into L1 set s at once: a prefetched line it evicts was wasted. */
HOT void l1_filler(struct cache_model *m, struct cache_level *l1, uint32_t s, const uint32_t n)
{
	struct cache_way old;
	int used;
	if (put_filler(l1, s, lru_insert(l1, s, n), &old, &used, n) && old.pf)
		count_wasted_way(m, &old);
}

/* Does way v of set t hold a filler (used, not tracked)? Then a filler that replaces it
 * changes nothing but the LRU order. */
static inline uint64_t holds_filler(const struct cache_set *t, uint32_t v)
{
	return ((t->used & ~t->tracked) >> v) & 1u;
}

/* A filler took way v of L2 set s and it held no filler: note a tracked line (its index in
 * idx[*n], the fillers passed down before it in before[*n]), or mark an empty way used. */
HOT void l2_filler_took(struct cache_level *l2, uint32_t s, uint32_t v, uint64_t down,
			uint64_t *idx, uint64_t *before, uint32_t *n, const uint32_t n2)
{
	struct cache_set *t = &l2->sets[s];
	uint64_t i = (uint64_t)s * n2 + v;
	if ((t->tracked >> v) & 1u) {
		t->tracked &= ~(1ull << v);
		idx[*n] = i;
		before[(*n)++] = down;
	} else { /* an empty way: it passes nothing down */
		t->used |= 1ull << v;
		set_tag(l2, s, v, FILLER_LINE, n2);
		l2->way[i].ver = 0;
	}
}

/*
 * The L2 half of clear_page_batched(), one filler at a time into each line's set: notes
 * the L2 ways that held a tracked line (l2_filler_took; returns how many) and counts the
 * fillers passed down in *down.
 */
HOT uint32_t clear_l2_now(struct cache_level *l2, uint64_t first, uint32_t stride,
			  uint64_t *idx, uint64_t *before, uint64_t *down, const uint32_t n2)
{
	uint32_t n = 0;
	for (uint32_t l = 0; l < 64u; l += stride) {
		uint32_t s = priv_set(l2, first + l, n2), v = lru_insert(l2, s, n2);
		if (holds_filler(&l2->sets[s], v))
			++*down; /* a filler goes on down */
		else
			l2_filler_took(l2, s, v, *down, idx, before, &n, n2);
	}
	return n;
}

/*
 * clear_l2_now() for a page-aligned clear of all 64 lines into an L2 with lazy clears (see
 * "clear_page() in bulk"): the group's count moves on, and only the sets whose deadline
 * that reaches take their filler now, in line order; every other set's filler evicts a
 * filler later, which passes one down now.
 */
HOT uint32_t clear_l2_lazy(struct cache_level *l2, uint64_t first, uint64_t *idx,
			   uint64_t *before, uint64_t *down, const uint32_t n2)
{
	uint32_t g0 = (uint32_t)first & l2->set_mask; /* the group's first set */
	uint64_t *count = &l2->clears[g0 >> 6], now = *count + 1u;
	uint64_t due = l2->due[(uint64_t)(g0 >> 6) * DUE_SLOTS + now % DUE_SLOTS];
	uint32_t n = 0, at_once = 0;
	for (; due; due &= due - 1u, at_once++) {
		uint32_t off = (uint32_t)__builtin_ctzll(due), s = g0 + off;
		struct cache_set *t = &l2->sets[s];
		uint64_t k = now - 1u - t->synced; /* the fillers before the deadline's */
		if (k)
			take_fillers(l2, s, k, n2);
		t->synced = now;
		uint32_t v = lru_insert(l2, s, n2); /* refiled under its next deadline */
		l2_filler_took(l2, s, v, *down + off - at_once, idx, before, &n, n2);
	}
	*count = now;
	*down += 64u - at_once;
	return n;
}

/*
 * cache_clear_page() when every line of the page has its own L2 set, no frame line is in
 * the directory and the LLC is a victim cache (the usual case): the same result as the
 * loop in cache_clear_page(). The L1 half and the L2 half see nothing of each other, so
 * they run one after the other, each lazily when it can ("clear_page() in bulk"); then the
 * tracked lines the L2 evicted go into the LLC in order, each after exactly the fillers
 * that came before it, as the loop does, with host prefetches started a pass ahead.
 */
HOT void clear_page_batched(struct cache_model *m, uint32_t core, uint32_t socket,
			    uint64_t first, uint32_t stride, const struct geom g)
{
	struct cache_level *l1 = &m->l1[core], *l2 = &m->l2[core];
	struct cache_llc *l3 = &m->llc[socket];
	const uint32_t n1 = WAYS(g.n1, l1), n2 = WAYS(g.n2, l2), n3 = WAYS(g.n3, l3);
	uint64_t idx[64], before[64], line[64], to_llc = 0, f0 = l3->fillers;
	uint32_t ver[64], n;
	int whole = stride == 1u && !(first & 63u);

	if (l1->lazy && whole && !l1->pf_marks)
		l1->clears[((uint32_t)first & l1->set_mask) >> 6]++;
	else
		for (uint32_t l = 0; l < 64u; l += stride)
			l1_filler(m, l1, priv_set(l1, first + l, n1), n1);
	if (l2->lazy && whole)
		n = clear_l2_lazy(l2, first, idx, before, &to_llc, n2);
	else
		n = clear_l2_now(l2, first, stride, idx, before, &to_llc, n2);
	for (uint32_t i = 0; i < n; i++) {
		line[i] = l2->way[idx[i]].line;
		ver[i] = l2->way[idx[i]].ver;
		set_tag(l2, (uint32_t)(idx[i] / n2), (uint32_t)(idx[i] % n2), FILLER_LINE, n2);
		l2->way[idx[i]].ver = 0;
		uint64_t d = line[i] - m->dir_base_line;
		if (d < m->dir_npages)
			__builtin_prefetch(&m->dir_pages[d]);
		prefetch_llc_set(l3, llc_set_of(l3, line[i]), n3);
	}
	for (uint32_t i = 0; i < n; i++) {
		const struct cache_dir_page *d = l2_victim_current(m, line[i], core, ver[i]);
		if (d) {
			l3->fillers = f0 + before[i];
			fill_llc(m, socket, line[i], d->ver, g);
		}
	}
	l3->fillers = f0 + to_llc;
}

/* The usual case's clear, for each kind of machine */
static void clear_page_any(struct cache_model *m, uint32_t core, uint32_t socket,
			   uint64_t first, uint32_t stride)
{
	clear_page_batched(m, core, socket, first, stride, ANY_GEOM);
}

static void clear_page_default(struct cache_model *m, uint32_t core, uint32_t socket,
			       uint64_t first, uint32_t stride)
{
	clear_page_batched(m, core, socket, first, stride, DEFAULT_GEOM);
}

void cache_clear_page(struct cache_model *m, uint32_t cpu, uint64_t vaddr, uint32_t nlines,
		      uint64_t now, uint8_t path)
{
	uint64_t first = vaddr >> MODEL_LINE_SHIFT;
	uint32_t core = m->core_of[cpu], socket = m->socket_of[cpu];
	uint32_t stride = nlines && nlines <= 64u ? 64u / nlines : 64u;
	struct cache_level *l1 = &m->l1[core], *l2 = &m->l2[core];
	uint64_t to_llc = 0; /* fillers the L2 passes down (or, inclusive, every line) */

	m->cnt_cpu[cpu].cleared_lines += 64u / stride;
	m->cnt_path[path].cleared_lines += 64u / stride;
	if (!m->dir_frame_live && m->p.llc_victim && l2->nsets >= 64u) {
		(m->default_geom ? clear_page_default : clear_page_any)(m, core, socket, first,
									stride);
		return;
	}

	for (uint32_t l = 0; l < 64u; l += stride) {
		uint64_t line = first + l;
		struct cache_way old;

		const struct cache_dir_page *od;
		if (m->dir_frame_live && dir_peek(m, line)) {
			/* someone touched this line through cache_access(): keep its copies
			 * coherent with an ordinary write */
			(void)cache_access(m, cpu, line << MODEL_LINE_SHIFT, 1, now, path);
			continue;
		}
		uint32_t s2 = priv_set(l2, line, l2->assoc);
		int used, real;

		l1_filler(m, l1, priv_set(l1, line, l1->assoc), l1->assoc);
		real = put_filler(l2, s2, lru_insert(l2, s2, l2->assoc), &old, &used, l2->assoc);
		if (!m->p.llc_victim) {
			to_llc++; /* an inclusive LLC is filled by every miss */
		} else if (!real) {
			to_llc += (uint64_t)used; /* a filler goes on down */
		} else if ((od = l2_victim_current(m, old.line, core, old.ver))) {
			m->llc[socket].fillers += to_llc; /* in order: what came before it */
			to_llc = 0;
			fill_llc(m, socket, old.line, od->ver, ANY_GEOM);
		}
	}
	m->llc[socket].fillers += to_llc;
}

uint64_t cache_finish_each(struct cache_model *m,
			   void (*fn)(void *ctx, const struct cache_wasted *w), void *ctx)
{
	uint64_t n = 0;
	for (uint32_t k = 0; k < m->ncores; k++) {
		struct cache_level *c = &m->l1[k];
		for (uint64_t i = 0; i < (uint64_t)c->nsets * c->assoc; i++)
			if (c->way[i].pfm.pf) {
				struct cache_wasted w;
				account_wasted(m, &c->way[i].pfm);
				c->way[i].pfm.pf = 0;
				c->pf_marks--;
				w.vaddr = c->way[i].line << MODEL_LINE_SHIFT;
				w.cpu = c->way[i].pfm.cpu;
				w.path = c->way[i].pfm.path;
				if (fn)
					fn(ctx, &w);
				n++;
			}
	}
	return n;
}

uint64_t cache_finish(struct cache_model *m)
{
	return cache_finish_each(m, NULL, NULL);
}

/* counters c plus `mru` L1 hits by reads and writes (cache_access_mru counts only those) */
static struct cache_counters with_mru(const struct cache_model *m, struct cache_counters c,
				      const uint64_t mru[2])
{
	c.access[CACHE_L1] += mru[0] + mru[1];
	c.writes += mru[1];
	c.cycles += (mru[0] + mru[1]) * m->p.l1_cycles;
	return c;
}

struct cache_counters cache_cpu_counters(const struct cache_model *m, uint32_t cpu)
{
	return with_mru(m, m->cnt_cpu[cpu], m->mru_cpu[cpu]);
}

struct cache_counters cache_path_counters(const struct cache_model *m, uint32_t path)
{
	return with_mru(m, m->cnt_path[path & 0xffu], m->mru_path[path & 0xffu]);
}

void cache_total(const struct cache_model *m, struct cache_counters *out)
{
	memset(out, 0, sizeof(*out));
	for (uint32_t c = 0; c < m->ncpus; c++) {
		const struct cache_counters s = cache_cpu_counters(m, c);
		for (int o = 0; o < CACHE_NR_OUTCOMES; o++)
			out->access[o] += s.access[o];
		out->writes += s.writes;
		out->cycles += s.cycles;
		out->prefetches += s.prefetches;
		out->pf_redundant += s.pf_redundant;
		out->pf_wasted += s.pf_wasted;
		out->cleared_lines += s.cleared_lines;
	}
}

void cache_free(struct cache_model *m)
{
	for (uint32_t k = 0; m->l1 && k < m->ncores; k++)
		level_free(&m->l1[k]);
	for (uint32_t k = 0; m->l2 && k < m->ncores; k++)
		level_free(&m->l2[k]);
	for (uint32_t s = 0; m->llc && s < m->nsockets; s++)
		llc_free(&m->llc[s]);
	free(m->l1);
	free(m->l2);
	free(m->llc);
	free(m->dir_pages);
	free(m->dir_hash);
	free(m->fb);
	memset(m, 0, sizeof(*m));
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
	if (!m->l1 || !m->l2 || !m->llc)
		goto fail;
	/* clear_page()s are applied lazily only where clear_page_batched() runs (a victim
	 * LLC, an L2 of at least 64 sets) */
	int lazy = p->llc_victim && p->l2_bytes / 64u / p->l2_ways >= 64u;
	for (uint32_t k = 0; k < m->ncores; k++)
		if (level_init(&m->l1[k], p->l1_bytes, p->l1_ways, 1, lazy) ||
		    level_init(&m->l2[k], p->l2_bytes, p->l2_ways, 0, 2 * lazy))
			goto fail;
	for (uint32_t c = 0; c < ncpus; c++)
		m->l1_of[c] = &m->l1[m->core_of[c]];
	for (uint32_t s = 0; s < m->nsockets; s++)
		if (llc_init(&m->llc[s], (uint64_t)p->llc_bytes_per_core * p->cores_per_socket,
			     p->llc_ways))
			goto fail;
	if (p->fill_buffers) {
		m->fb = calloc((uint64_t)ncpus * p->fill_buffers, sizeof(*m->fb));
		if (!m->fb)
			goto fail;
	}
	if (first_pfn > (1ull << 40))
		goto fail;
	m->dir_base_line = VMEMMAP_LINE + first_pfn;
	m->dir_npages = npages;
	if (npages) {
		m->dir_pages = calloc(npages, sizeof(*m->dir_pages));
		if (!m->dir_pages)
			goto fail;
		for (uint64_t i = 0; i < npages; i++)
			m->dir_pages[i].owner = m->dir_pages[i].own_core = MODEL_NO_CPU;
	}
	uint32_t cap = 1;
	if (dir_hash_lines == 0)
		dir_hash_lines = 65536;
	while (cap < dir_hash_lines && cap < (1u << 30))
		cap <<= 1;
	m->dir_hash = calloc(cap, sizeof(*m->dir_hash));
	if (!m->dir_hash)
		goto fail;
	m->dir_hash_mask = cap - 1;
	/* until told which frames get cleared, every hashed line might be one of them */
	m->frame_lo_line = 0;
	m->frame_hi_line = UINT64_MAX;
	return 0;
fail:
	cache_free(m);
	return -1;
}

/* Set s of a level: its LRU order a permutation (the nibbles past the last rank 0xf), its
 * filler_ranks, and for lazy clears its place against its group's count and deadline. Why
 * not, or NULL. rank[w] gets each way's rank. */
static const char *set_check(const struct cache_level *c, uint64_t s, uint8_t *rank)
{
	const struct cache_set *t = &c->sets[s];
	const struct cache_slot *w = c->way + s * c->assoc;
	uint64_t seen = 0, fillers = 0;
	if (c->assoc > NARROW_WAYS) {
		for (uint32_t i = 0; i < c->assoc; i++) {
			rank[i] = c->age[s * c->assoc + i];
			if (rank[i] >= c->assoc || (seen & (1ull << rank[i])))
				return "LRU ranks are not a permutation";
			seen |= 1ull << rank[i];
		}
		return NULL;
	}
	for (uint32_t r = 0; r < NARROW_WAYS; r++) {
		uint32_t way = (uint32_t)(t->order >> (4u * r)) & 0xfu;
		if (r >= c->assoc) {
			if (way != 0xfu)
				return "LRU ranks are not a permutation";
		} else if (way >= c->assoc || (seen & (1ull << way))) {
			return "LRU ranks are not a permutation";
		} else {
			seen |= 1ull << way;
			rank[way] = (uint8_t)r;
			fillers |= (uint64_t)(w[way].line == FILLER_LINE) << r;
		}
	}
	if (fillers != t->filler_ranks)
		return "filler_ranks disagrees with the ways";
	if (t->synced > c->clears[s >> 6])
		return "a set is ahead of its group's clears";
	if (c->due) {
		/* the deadline: the first lazy clear whose filler would evict something other
		 * than a filler, filed in exactly one slot, and one a lazy clear can reach */
		uint64_t others = ~t->filler_ranks & rank_bits(c->assoc);
		uint64_t want = others ? t->synced + c->assoc -
						 (63u - (uint32_t)__builtin_clzll(others))
				       : 0;
		uint64_t now = c->clears[s >> 6];
		const uint64_t *due = c->due + (s >> 6) * DUE_SLOTS;
		for (uint32_t j = 0; j < DUE_SLOTS; j++)
			if (((due[j] >> (s & 63u)) & 1u) != (want && j == want % DUE_SLOTS))
				return "the due masks disagree with the deadline";
		if (t->deadline != want || (want && (want <= now || want > now + 16u)))
			return "a deadline that a lazy clear passed or cannot reach";
	}
	return NULL;
}

/* What malloc adds to an array: a large one is mapped whole pages. */
#define ARRAY_SLACK 4096u

/* the host bytes level_init() takes (lazy as it decides it), its arrays' slack included */
static uint64_t level_bytes(uint64_t bytes, uint32_t assoc, int with_ready, int lazy)
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

/* the host bytes llc_init() takes */
static uint64_t llc_bytes(uint64_t bytes, uint32_t assoc)
{
	return bytes / 64u / assoc * llc_stride(assoc) + ARRAY_SLACK;
}

uint64_t cache_mem_bytes(const struct model_params *p, uint32_t ncpus, uint64_t npages,
			 uint32_t dir_hash_lines)
{
	uint32_t all_cores = p->sockets * p->cores_per_socket;
	uint32_t cores = ncpus < all_cores ? ncpus : all_cores;
	uint32_t sockets = cores ? (cores - 1) / p->cores_per_socket + 1 : 0;
	int lazy = p->llc_victim && p->l2_bytes / 64u / p->l2_ways >= 64u;
	uint64_t cap = 1, n = 6 * ARRAY_SLACK;

	n += cores * (level_bytes(p->l1_bytes, p->l1_ways, 1, lazy) +
		      level_bytes(p->l2_bytes, p->l2_ways, 0, 2 * lazy));
	n += sockets * llc_bytes((uint64_t)p->llc_bytes_per_core * p->cores_per_socket,
				 p->llc_ways);
	n += (uint64_t)ncpus * p->fill_buffers * sizeof(uint64_t);
	n += npages * sizeof(struct cache_dir_page);
	while (cap < (dir_hash_lines ? dir_hash_lines : 65536u) && cap < (1u << 30))
		cap <<= 1;
	return n + cap * sizeof(struct cache_dir_entry);
}

static int level_check(const struct cache_model *m, const struct cache_level *c, int is_l1,
		       const char *name, uint32_t k, char *err, size_t errlen)
{
	uint64_t marks = 0;
	for (uint64_t s = 0; s < c->nsets; s++) {
		const struct cache_set *t = &c->sets[s];
		const struct cache_slot *x = c->way + s * c->assoc;
		uint8_t rank[64];
		const char *why = set_check(c, s, rank);
		if (why) {
			if (err && errlen)
				snprintf(err, errlen, "%s %u set %llu: %s", name, k,
					 (unsigned long long)s, why);
			return -1;
		}
		for (uint32_t i = 0; i < c->assoc; i++) {
			const struct cache_pfmark *f = &x[i].pfm;
			for (uint32_t j = 0; j < i && !why; j++)
				if (is_tracked(x[i].line) && x[j].line == x[i].line)
					why = "a line appears twice in a set";
			if (!why && x[i].line && x[i].ver > m->ver_clock)
				why = "a copy is newer than any version handed out";
			if (!why && ((!is_l1 && (f->pf || f->path || f->cpu)) ||
				     (f->pf && !is_tracked(x[i].line))))
				why = "prefetch mark outside L1 or on an empty way";
			if (!why && (((t->tracked >> i) & 1) != (uint64_t)is_tracked(x[i].line) ||
				     ((t->used >> i) & 1) != (x[i].line != 0)))
				why = "tracked/used masks disagree with the ways";
			if (why) {
				if (err && errlen)
					snprintf(err, errlen, "%s %u set %llu way %u: %s", name, k,
						 (unsigned long long)s, i, why);
				return -1;
			}
			marks += f->pf;
		}
		for (uint32_t i = 0; c->assoc <= NARROW_WAYS && i < c->assoc; i++)
			if (t->fp[i] != way_fp(x[i].line)) {
				if (err && errlen)
					snprintf(err, errlen, "%s %u set %llu way %u: %s", name, k,
						 (unsigned long long)s, i,
						 "its line's hash (fp) disagrees with the line");
				return -1;
			}
	}
	if (is_l1 && marks != c->pf_marks) {
		if (err && errlen)
			snprintf(err, errlen, "%s %u: %llu prefetch marks, %u counted", name, k,
				 (unsigned long long)marks, c->pf_marks);
		return -1;
	}
	return 0;
}

/* An LLC: in each set's slots distinct tracked lines, no newer than any version handed out,
 * most recent first (used_at never grows along the slots, nor passes what the set has
 * taken in). */
static int llc_check(const struct cache_model *m, const struct cache_llc *c, uint32_t k,
		     char *err, size_t errlen)
{
	for (uint32_t s = 0; s < c->nsets; s++) {
		const struct llc_set *t = llc_set_at(c, s);
		const struct llc_line *l = t->line;
		const char *why = t->nlines > c->assoc ? "more lines than ways"
				  : t->synced > llc_taken(c, s) ? "a set ahead of the stream"
								: NULL;
		for (uint32_t i = 0; i < t->nlines && !why; i++) {
			for (uint32_t j = 0; j < i && !why; j++)
				if (l[j].line == l[i].line)
					why = "a line appears twice in a set";
			if (why)
				break;
			if (!is_tracked(l[i].line))
				why = "an empty or filler slot";
			else if (l[i].ver > m->ver_clock)
				why = "a copy is newer than any version handed out";
			else if ((uint32_t)t->synced - l[i].used_at >= 0x80000000u ||
				 (i && l[i - 1u].used_at - l[i].used_at >= 0x80000000u))
				why = "slots out of recency order";
		}
		if (why) {
			if (err && errlen)
				snprintf(err, errlen, "LLC %u set %u: %s", k, s, why);
			return -1;
		}
	}
	return 0;
}

int cache_check(const struct cache_model *m, char *err, size_t errlen)
{
	for (uint32_t k = 0; k < m->ncores; k++)
		if (level_check(m, &m->l1[k], 1, "L1", k, err, errlen) ||
		    level_check(m, &m->l2[k], 0, "L2", k, err, errlen))
			return -1;
	for (uint32_t s = 0; s < m->nsockets; s++)
		if (llc_check(m, &m->llc[s], s, err, errlen))
			return -1;
	for (uint64_t i = 0; i < m->dir_npages; i++) {
		const struct cache_dir_page *d = &m->dir_pages[i];
		if (d->ver > m->ver_clock || (d->owner != MODEL_NO_CPU && d->owner >= m->ncpus) ||
		    (d->own_core != MODEL_NO_CPU && d->own_core >= m->ncores)) {
			if (err && errlen)
				snprintf(err, errlen, "directory pfn %llu: bad version or owner",
					 (unsigned long long)(m->dir_base_line - VMEMMAP_LINE + i));
			return -1;
		}
	}
	if (m->nwasted > MODEL_WASTED_MAX) {
		if (err && errlen)
			snprintf(err, errlen, "wasted list overflows");
		return -1;
	}
	return 0;
}
