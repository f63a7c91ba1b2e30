/*
 * cache_llc.h - a socket's last-level cache: its sets of tracked lines, most recent first,
 * and the clear_page() stream it takes in, counted rather than stored (below). Every miss
 * below L2 looks here, so this is static inline; cache_llc.c makes, frees and sizes it.
 */
#ifndef BLAB_CACHE_LLC_H
#define BLAB_CACHE_LLC_H

#include "cache_private.h"

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
 * power of two). L1 and L2 always have power-of-two sets (priv_set, cache_clear.h). */
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

/* Host-side only: start loading LLC set s of c (n ways); the lookup that needs it comes a
 * little later. */
HOT void prefetch_llc_set(const struct cache_llc *c, uint32_t s, const uint32_t n)
{
	__builtin_prefetch(llc_set_at(c, s));
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

/*
 * k lines of the clear_page() stream pass into this LLC: fillers the L2 evicted (a victim
 * LLC), or every cleared line (an inclusive one). The one place the stream enters an LLC,
 * and so the model's write traffic to memory: every filler is a line clear_page() wrote, and
 * once the LLC's ways are full each one pushes a line out, in a run's steady state another
 * filler, a dirty line written back. Returns how many of the k do (those past the ways no
 * filler had taken: the LLC's own lines it also holds are left out of that count, a few
 * thousandths of its ways). Tracked lines carry no dirty bit; they leave silently, in
 * llc_live() and fill_llc(). The caller books the write-backs at its socket's memory
 * controller (memctl_writeback()).
 */
HOT uint64_t llc_add_fillers(struct cache_llc *c, uint64_t k)
{
	c->fillers += k;
	if (c->room >= k) {
		c->room -= k;
		return 0;
	}
	k -= c->room;
	c->room = 0;
	return k;
}

/* A socket's LLC of `bytes` in `assoc` ways, empty (cache_llc.c): 0 or -1 */
int _cache_llc_init(struct cache_llc *c, uint64_t bytes, uint32_t assoc);
void _cache_llc_free(struct cache_llc *c);
/* the host bytes _cache_llc_init() takes */
uint64_t _cache_llc_bytes(uint64_t bytes, uint32_t assoc);

#endif
