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
 *   - LRU: each way carries its rank in the set (0 = most recent). Touching rank a raises the
 *     ranks below a by one; the victim is the highest rank. Exact LRU in O(ways), no counter
 *     that can wrap. Empty ways always rank above used ones, so they fill first.
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

/* LRU ranks are handled eight bytes at a time (touch(), below): little-endian words, and
 * AGE_SLACK bytes after the last set so that a set's last word can be read whole */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "cache.c reads LRU ranks eight at a time, little-endian"
#endif
#define ONES 0x0101010101010101ull
#define HIGHS 0x8080808080808080ull
#define AGE_SLACK 8u

static inline int is_tracked(uint64_t line)
{
	return line && line != FILLER_LINE;
}

static int level_init(struct cache_level *c, uint64_t bytes, uint32_t assoc, int with_ready,
		      int with_sync, int with_masks)
{
	uint64_t nsets = bytes / 64u / assoc;
	if (nsets == 0 || nsets > 0xffffffffu)
		return -1;
	c->nsets = (uint32_t)nsets;
	c->assoc = assoc;
	c->set_mask = (nsets & (nsets - 1)) == 0 ? (uint32_t)nsets - 1 : 0;
	c->line = calloc(nsets * assoc, sizeof(*c->line));
	c->ver = calloc(nsets * assoc, sizeof(*c->ver));
	c->age = calloc(nsets * assoc + AGE_SLACK, sizeof(*c->age));
	c->ready = with_ready ? calloc(nsets * assoc, sizeof(*c->ready)) : NULL;
	c->pfm = with_ready ? calloc(nsets * assoc, sizeof(*c->pfm)) : NULL;
	c->synced = with_sync ? calloc(nsets, sizeof(*c->synced)) : NULL;
	c->tracked = with_masks ? calloc(nsets, sizeof(*c->tracked)) : NULL;
	c->used = with_masks ? calloc(nsets, sizeof(*c->used)) : NULL;
	if (with_masks && (!c->tracked || !c->used))
		return -1;
	c->fillers = 0;
	if (!c->line || !c->ver || !c->age || (with_ready && (!c->ready || !c->pfm)) ||
	    (with_sync && !c->synced))
		return -1;
	for (uint64_t s = 0; s < nsets; s++)
		for (uint32_t w = 0; w < assoc; w++)
			c->age[s * assoc + w] = (uint8_t)w;
	return 0;
}

static void level_free(struct cache_level *c)
{
	free(c->line);
	free(c->ver);
	free(c->pfm);
	free(c->age);
	free(c->ready);
	free(c->synced);
	free(c->tracked);
	free(c->used);
	c->tracked = NULL;
	c->used = NULL;
	c->line = NULL;
	c->ver = NULL;
	c->pfm = NULL;
	c->age = NULL;
	c->ready = NULL;
	c->synced = NULL;
}

static inline uint32_t set_of(const struct cache_level *c, uint64_t line)
{
	if (c->set_mask || c->nsets == 1)
		return (uint32_t)line & c->set_mask;
	uint32_t h = (uint32_t)((line * 0x9E3779B97F4A7C15ull) >> 32);
	return (uint32_t)(((uint64_t)h * c->nsets) >> 32);
}

static inline uint64_t base_of(const struct cache_level *c, uint64_t line)
{
	return (uint64_t)set_of(c, line) * c->assoc;
}

/* Way (0..n-1) of the n tags at w that equals line, or n if none. No early exit: a
 * branch-free scan beats a mispredicted loop exit (a line is in a set at most once). With a
 * constant n the compiler unrolls it. */
static inline __attribute__((always_inline)) uint32_t scan_tags(const uint64_t *w, uint64_t line,
								 const uint32_t n)
{
	uint32_t hit = n;
	for (uint32_t i = 0; i < n; i++)
		hit = w[i] == line ? i : hit;
	return hit;
}

/* scan_tags() for a level's assoc, unrolled for the default machine's 8, 11 and 16 ways */
static inline uint32_t scan_set(const struct cache_level *c, uint64_t base, uint64_t line)
{
	const uint64_t *w = c->line + base;
	switch (c->assoc) {
	case 8:
		return scan_tags(w, line, 8);
	case 11:
		return scan_tags(w, line, 11);
	case 16:
		return scan_tags(w, line, 16);
	default:
		return scan_tags(w, line, c->assoc);
	}
}

/* Index (set * assoc + way) of the way holding `line`, valid or stale; -1 if none. */
static inline int64_t find(const struct cache_level *c, uint64_t base, uint64_t line)
{
	uint32_t i = scan_set(c, base, line);
	return i < c->assoc ? (int64_t)(base + i) : -1;
}

/*
 * The LRU ranks of a set are bytes below 64 (at most 64 ways): the helpers below work on
 * eight of them per 64-bit word, loaded little-endian (x86-64 and WebAssembly are), the
 * last word of a set masked to the set's own bytes (the age array has 8 bytes of slack, so
 * reading past the last set is safe). Each gives exactly what the byte-by-byte loop would.
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

/* Touch way idx (its set starts at base): the ranks below its rank a move down one and it
 * becomes rank 0. Per byte, rank >= a shows as the high bit of (rank | 0x80) - a. */
static inline __attribute__((always_inline)) void touch_ranks(uint8_t *g, uint8_t a,
								 const uint32_t n)
{
	uint64_t aa = ONES * a;
	for (uint32_t k = 0; k < n; k += 8) {
		uint64_t x = load8(g + k);
		uint64_t below = ~((x | HIGHS) - aa) & HIGHS & rank_mask(n, k);
		store8(g + k, x + (below >> 7));
	}
}

static inline void touch(struct cache_level *c, uint64_t base, uint64_t idx)
{
	uint8_t *g = c->age + base;
	uint8_t a = c->age[idx];
	if (a == 0)
		return;
	switch (c->assoc) { /* unrolled for the default machine's ways, as scan_set() */
	case 8:
		touch_ranks(g, a, 8);
		break;
	case 11:
		touch_ranks(g, a, 11);
		break;
	case 16:
		touch_ranks(g, a, 16);
		break;
	default:
		touch_ranks(g, a, c->assoc);
	}
	c->age[idx] = 0;
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

/* The way `line` should go into: its own (stale) way if present, else the LRU way. */
static inline uint64_t victim(const struct cache_level *c, uint64_t base, uint64_t line)
{
	/* ranks are a permutation of 0..assoc-1, so the LRU way is the one ranked assoc-1 */
	uint32_t own = scan_set(c, base, line);
	return base + (own < c->assoc ? own : way_ranked(c->age + base, c->assoc, c->assoc - 1));
}

/*
 * The LLC's share of the clear_page() stream is aggregated (cache_clear_page): the frame
 * lines that reach a socket's LLC are only counted (c->fillers), filler j going to set
 * j % nsets, which is the hash's even spread of a page's lines without its noise. A set
 * catches up on the fillers due to it whenever it is looked at: k insertions at the MRU end
 * of a true-LRU set move every rank down k and turn the ways pushed past the last rank into
 * the inserted lines, so rank' = (rank + k) mod ways and the wrapped ways become anonymous
 * fillers. Exact for that stream, O(ways) per look, nothing per cleared line. An LLC
 * eviction has no side effect (nothing back-invalidates), so applying it late changes
 * nothing another level sees.
 */
static inline void llc_sync(struct cache_level *c, uint32_t set, uint64_t base)
{
	if (!c->fillers)
		return;
	uint64_t num = c->fillers + c->nsets - 1u - set;
	/* a 32-bit division while the count fits: the same quotient, several times faster */
	uint64_t due = num <= 0xffffffffu ? (uint32_t)num / c->nsets : num / c->nsets;
	uint64_t k = due - c->synced[set];
	if (!k)
		return;
	c->synced[set] = due;
	uint64_t *w = c->line + base;
	uint32_t *v = c->ver + base;
	uint8_t *g = c->age + base;
	uint32_t n = c->assoc;
	if (k >= n) {
		/* the stream went through the whole set: every way is a filler now, and the
		 * ranks turned by k mod n (one division, not one per way) */
		uint32_t r = (uint32_t)(k % n);
		for (uint32_t i = 0; i < n; i++) {
			uint32_t a = g[i] + r;
			w[i] = FILLER_LINE;
			v[i] = 0;
			g[i] = (uint8_t)(a >= n ? a - n : a);
		}
		return;
	}
	for (uint32_t i = 0; i < n; i++) {
		uint32_t a = g[i] + (uint32_t)k;
		if (a >= n) {
			w[i] = FILLER_LINE;
			v[i] = 0;
			a -= n;
		}
		g[i] = (uint8_t)a;
	}
}

/* base_of() for an LLC, after bringing the set up to date with the clear_page() stream */
static inline uint64_t llc_base(struct cache_level *c, uint64_t line)
{
	uint32_t set = set_of(c, line);
	uint64_t base = (uint64_t)set * c->assoc;
	llc_sync(c, set, base);
	return base;
}

static inline int valid_in(const struct cache_level *c, uint64_t line, uint32_t ver)
{
	int64_t i = find(c, base_of(c, line), line);
	return i >= 0 && c->ver[i] == ver;
}

/* a line of a frame cache_clear_page() may be asked to clear (cache_set_frames) */
static inline uint32_t is_frame_line(const struct cache_model *m, uint64_t line)
{
	return line && line >= m->frame_lo_line && line < m->frame_hi_line;
}

static inline struct cache_dir_page *dir_get(struct cache_model *m, uint64_t line)
{
	uint64_t i = line - m->dir_base_line;
	if (i < m->dir_npages)
		return &m->dir_pages[i];
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
	}
	return &e->e;
}

/* The current version of a line, without creating or forgetting anything; 0 = unknown. */
static inline uint32_t dir_peek_ver(const struct cache_model *m, uint64_t line)
{
	uint64_t i = line - m->dir_base_line;
	if (i < m->dir_npages)
		return m->dir_pages[i].ver;
	uint32_t h = (uint32_t)((line * 0x9E3779B97F4A7C15ull) >> 32) & m->dir_hash_mask;
	return m->dir_hash[h].line == line ? m->dir_hash[h].e.ver : 0;
}

static inline void account_wasted(struct cache_model *m, const struct cache_pfmark *f)
{
	m->cpu[f->cpu].pf_wasted++;
	m->path[f->path].pf_wasted++;
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

/* Put `line` at version `ver` into way i of a level (its victim(), found by the caller) as
 * most recent. The evicted way's old content is copied to *old when old is not NULL. */
static inline void fill_way(struct cache_level *c, uint64_t base, uint64_t i, uint64_t line,
			    uint32_t ver, struct cache_way *old)
{
	if (old) {
		old->line = c->line[i];
		old->ver = c->ver[i];
		if (c->pfm) {
			old->pf = c->pfm[i].pf;
			old->path = c->pfm[i].path;
			old->cpu = c->pfm[i].cpu;
		} else {
			old->pf = 0;
		}
	}
	if (c->pfm && c->line[i] != line)
		c->pfm[i].pf = 0;
	c->line[i] = line;
	c->ver[i] = ver;
	touch(c, base, i);
}

/* fill_way() into the way victim() picks; returns its index */
static inline uint64_t fill_at(struct cache_level *c, uint64_t base, uint64_t line,
			       uint32_t ver, struct cache_way *old)
{
	uint64_t i = victim(c, base, line);
	fill_way(c, base, i, line, ver, old);
	return i;
}

/* fill_at() of a tracked line into a private level (L1, L2: power-of-two sets, with masks);
 * at: victim() of the line's set when the caller has it already, else -1 */
static inline uint64_t fill(struct cache_level *c, uint64_t line, uint32_t ver,
			    struct cache_way *old, int64_t at)
{
	uint32_t set = set_of(c, line);
	uint64_t base = (uint64_t)set * c->assoc;
	uint64_t i = at >= 0 ? (uint64_t)at : victim(c, base, line);
	fill_way(c, base, i, line, ver, old);
	uint64_t bit = 1ull << (i - base);
	c->tracked[set] |= bit;
	c->used[set] |= bit;
	return i;
}

static inline void fill_llc(struct cache_model *m, uint32_t socket, uint64_t line, uint32_t ver)
{
	struct cache_level *c = &m->llc[socket];
	fill_at(c, llc_base(c, line), line, ver, NULL);
}

static inline void fill_l2(struct cache_model *m, uint32_t core, uint32_t socket, uint64_t line,
			   uint32_t ver, int64_t at)
{
	struct cache_way old;
	fill(&m->l2[core], line, ver, &old, at);
	if (m->p.llc_victim && old.line && old.line != line) {
		/* a victim LLC takes what the L2 evicts, if it is still current (peek: the
		 * caller holds a pointer into the directory that must stay valid); a cleared
		 * frame line joins the LLC's aggregated stream */
		if (old.line == FILLER_LINE)
			m->llc[socket].fillers++;
		else if (dir_peek_ver(m, old.line) == old.ver)
			fill_llc(m, socket, old.line, old.ver);
	}
}

static inline uint64_t fill_l1(struct cache_model *m, uint32_t core, uint64_t line, uint32_t ver)
{
	struct cache_way old;
	uint64_t i = fill(&m->l1[core], line, ver, &old, -1);
	if (old.pf && old.line != line)
		count_wasted_way(m, &old);
	return i;
}

/*
 * The line missed L1 (or was stale there): find it below, fill L2 and L1, and return the
 * L1 index. *outcome and *cycles say where it came from.
 */
static uint64_t fetch_line(struct cache_model *m, uint32_t cpu, uint64_t line,
			   struct cache_dir_page *d, uint32_t *outcome, uint32_t *cycles)
{
	uint32_t core = m->core_of[cpu];
	uint32_t socket = m->socket_of[cpu];
	uint32_t ver = d->ver;
	uint64_t b2 = base_of(&m->l2[core], line);
	{
		/* Host-side only: start loading the LLC set while the L2 set is searched; an L2
		 * miss needs it, and both are likely host cache misses at scale. */
		const struct cache_level *l3 = &m->llc[socket];
		uint32_t s3 = set_of(l3, line);
		uint64_t b3p = (uint64_t)s3 * l3->assoc;
		__builtin_prefetch(&l3->synced[s3]);
		__builtin_prefetch(&l3->age[b3p]);
		__builtin_prefetch(&l3->line[b3p]);
		__builtin_prefetch((const char *)&l3->line[b3p] + 64);
		__builtin_prefetch(&l3->line[b3p + l3->assoc - 1]);
		__builtin_prefetch(&l3->ver[b3p]);
		/* the versions live apart from the tags: start their line with the scan */
		__builtin_prefetch(&m->l2[core].ver[b2]);
	}
	int64_t i2 = find(&m->l2[core], b2, line);

	if (i2 >= 0 && m->l2[core].ver[i2] == ver) {
		touch(&m->l2[core], b2, (uint64_t)i2);
		*outcome = CACHE_L2;
		*cycles = m->p.l2_cycles;
		return fill_l1(m, core, line, ver);
	}
	/* The L2 way the line will go into: nothing below changes this core's L2 before
	 * fill_l2(), so it is found once, here. */
	int64_t v2 = (int64_t)victim(&m->l2[core], b2, line);
	if (m->p.llc_victim) {
		/* Host-side only: the L2 victim that fill_l2() will push into the LLC is known
		 * now; start loading its directory entry and LLC set while this line's own LLC
		 * lookup runs. */
		const struct cache_level *l3 = &m->llc[socket];
		uint64_t old = m->l2[core].line[v2];
		if (is_tracked(old) && old != line) {
			uint64_t di = old - m->dir_base_line;
			uint32_t s3 = set_of(l3, old);
			uint64_t b3p = (uint64_t)s3 * l3->assoc;
			if (di < m->dir_npages)
				__builtin_prefetch(&m->dir_pages[di]);
			__builtin_prefetch(&l3->synced[s3]);
			__builtin_prefetch(&l3->age[b3p]);
			__builtin_prefetch(&l3->line[b3p]);
			__builtin_prefetch((const char *)&l3->line[b3p] + 64);
			__builtin_prefetch(&l3->line[b3p + l3->assoc - 1]);
			__builtin_prefetch(&l3->ver[b3p]);
		}
	}
	uint32_t owner = d->owner;
	if (owner != MODEL_NO_CPU && owner != cpu) {
		uint32_t ocore = m->core_of[owner];
		if (ocore != core && (valid_in(&m->l1[ocore], line, ver) ||
				      valid_in(&m->l2[ocore], line, ver))) {
			int same = m->socket_of[owner] == socket;
			*outcome = CACHE_REMOTE;
			*cycles = same ? m->p.xcore_cycles : m->p.xsocket_cycles;
			d->owner = MODEL_NO_CPU; /* written back, now shared */
			/* Skylake-SP keeps lines shared by several cores in its L3: fill the
			 * reader's LLC in both modes, so a third core there hits it */
			fill_llc(m, socket, line, ver);
			fill_l2(m, core, socket, line, ver, v2);
			return fill_l1(m, core, line, ver);
		}
		d->owner = MODEL_NO_CPU; /* the owner evicted it: written back below */
	}
	uint64_t b3 = llc_base(&m->llc[socket], line);
	int64_t i3 = find(&m->llc[socket], b3, line);
	if (i3 >= 0 && m->llc[socket].ver[i3] == ver) {
		touch(&m->llc[socket], b3, (uint64_t)i3);
		*outcome = CACHE_LLC;
		*cycles = m->p.llc_cycles;
	} else {
		*outcome = CACHE_MEM;
		*cycles = m->p.mem_cycles;
		if (!m->p.llc_victim)
			fill_llc(m, socket, line, ver);
	}
	fill_l2(m, core, socket, line, ver, v2);
	return fill_l1(m, core, line, ver);
}

/*
 * An L1 miss needs one of the CPU's line fill buffers (`fill_buffers`, 0 = unlimited). The
 * buffers are a ring of completion times in issue order: a fill starts when the buffer it
 * reuses is free, so a burst of prefetches lands `fill_buffers` at a time and a demand miss
 * behind them waits too. *cycles grows by that wait.
 * Per CPU, not per core as in hardware: SMT siblings run different steps whose clocks may be
 * far apart, and a sibling must not wait for fills that lie in its future.
 */
static inline uint64_t fetch(struct cache_model *m, uint32_t cpu, uint64_t line,
			     struct cache_dir_page *d, uint64_t now, uint32_t *outcome,
			     uint32_t *cycles)
{
	uint64_t idx = fetch_line(m, cpu, line, d, outcome, cycles);
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

static inline void set_ver(struct cache_level *c, uint64_t line, uint32_t ver)
{
	int64_t i = find(c, base_of(c, line), line);
	if (i >= 0)
		c->ver[i] = ver;
}

struct cache_result cache_access(struct cache_model *m, uint32_t cpu, uint64_t vaddr,
				 int write, uint64_t now, uint8_t path)
{
	uint64_t line = vaddr >> MODEL_LINE_SHIFT;
	uint32_t core = m->core_of[cpu];
	struct cache_level *l1 = &m->l1[core];
	struct cache_dir_page *d = dir_get(m, line);
	struct cache_result r;
	uint64_t idx = m->last_idx[cpu];

	/* Fast path: the line this CPU touched last, still most recent in its L1, current and
	 * not a prefetch. Same answer as the full path (touching the MRU way changes nothing),
	 * without the set scan: allocator code touches one struct page several times running. */
	if (l1->line[idx] == line && l1->age[idx] == 0 && l1->ver[idx] == d->ver &&
	    !l1->pfm[idx].pf) {
		r.outcome = CACHE_L1;
		r.cycles = m->p.l1_cycles;
		goto done;
	}
	uint64_t b1 = base_of(l1, line);
	int64_t i1 = find(l1, b1, line);

	if (i1 >= 0 && l1->ver[i1] == d->ver) {
		struct cache_pfmark *w = &l1->pfm[i1];
		idx = (uint64_t)i1;
		r.outcome = CACHE_L1;
		r.cycles = m->p.l1_cycles;
		if (w->pf) {
			uint64_t ready = l1->ready[idx];
			w->pf = 0;
			if (now >= ready) {
				r.outcome = CACHE_PF_HIT;
			} else {
				uint64_t rest = ready - now;
				r.outcome = CACHE_PF_LATE;
				if (rest > r.cycles)
					r.cycles = rest > 0xffffffffu ? 0xffffffffu : (uint32_t)rest;
			}
		}
		touch(l1, b1, idx);
	} else {
		if (i1 >= 0 && l1->pfm[i1].pf) {
			/* someone wrote it before it was used */
			count_wasted(m, line, &l1->pfm[i1]);
			l1->pfm[i1].pf = 0;
		}
		idx = fetch(m, cpu, line, d, now, &r.outcome, &r.cycles);
	}

	m->last_idx[cpu] = idx;
done:
	if (write && d->owner != cpu) {
		uint32_t socket = m->socket_of[cpu];
		uint32_t ver = ++m->ver_clock;
		d->ver = ver;
		d->owner = (uint16_t)cpu;
		l1->ver[idx] = ver;
		set_ver(&m->l2[core], line, ver);
		struct cache_level *l3 = &m->llc[socket];
		int64_t i3 = find(l3, llc_base(l3, line), line);
		if (i3 >= 0)
			l3->ver[i3] = ver;
	}

	struct cache_counters *c = &m->cpu[cpu], *p = &m->path[path];
	c->access[r.outcome]++;
	p->access[r.outcome]++;
	c->cycles += r.cycles;
	p->cycles += r.cycles;
	if (write) {
		c->writes++;
		p->writes++;
	}
	return r;
}

uint32_t cache_prefetch(struct cache_model *m, uint32_t cpu, uint64_t vaddr, uint64_t now,
			uint8_t path)
{
	uint64_t line = vaddr >> MODEL_LINE_SHIFT;
	uint32_t core = m->core_of[cpu];
	struct cache_level *l1 = &m->l1[core];
	struct cache_dir_page *d = dir_get(m, line);
	int64_t i1 = find(l1, base_of(l1, line), line);

	if (i1 >= 0 && l1->ver[i1] == d->ver) {
		const struct cache_pfmark *w = &l1->pfm[i1];
		m->cpu[cpu].pf_redundant++;
		m->path[path].pf_redundant++;
		if (w->pf && l1->ready[i1] > now) {
			uint64_t rest = l1->ready[i1] - now;
			return rest > 0xffffffffu ? 0xffffffffu : (uint32_t)rest;
		}
		return 0;
	}
	if (i1 >= 0 && l1->pfm[i1].pf) {
		count_wasted(m, line, &l1->pfm[i1]);
		l1->pfm[i1].pf = 0;
	}

	uint32_t outcome, cycles;
	uint64_t idx = fetch(m, cpu, line, d, now, &outcome, &cycles);
	struct cache_pfmark *w = &l1->pfm[idx];
	w->pf = 1;
	w->path = path;
	w->cpu = (uint8_t)cpu;
	l1->ready[idx] = now + cycles;
	m->cpu[cpu].prefetches++;
	m->path[path].prefetches++;
	return cycles;
}

/* Insert an anonymous line as most recent into a set of n ranks: every rank moves down
 * one and the way ranked last takes the new line. Returns that way. Branch-free; with a
 * constant n (below) the compiler unrolls it. */
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

/*
 * rotate_in() for a multiple of 8 ways, eight ranks per 64-bit word: add 1 to every byte,
 * then the one byte equal to n (the way that was ranked last) becomes 0. The zero-byte test
 * (t - 0x01..) & ~t & 0x80.. flags no byte below the real one, and none above it either,
 * since a flagged false positive needs a byte x ^ n == 1, i.e. x == n + 1 > n for even n.
 * Bytes are loaded little-endian, as on x86-64 and in WebAssembly, and the result is the
 * same as rotate_in()'s either way.
 */
static inline uint32_t rotate_in_words(uint8_t *g, uint32_t n)
{
	const uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
	uint32_t v = 0;
	for (uint32_t k = 0; k < n; k += 8) {
		uint64_t x, t, hit;
		memcpy(&x, g + k, 8);
		x += ones;
		t = x ^ (ones * n);
		hit = (t - ones) & ~t & highs;
		if (hit) {
			uint32_t b = (uint32_t)__builtin_ctzll(hit) & ~7u;
			x &= ~(0xffull << b);
			v = k + b / 8u;
		}
		memcpy(g + k, &x, 8);
	}
	return v;
}

/*
 * rotate_in_words() when n is a power of two (8..64): after adding 1 the ranks are 1..n,
 * and only n has the bit n set, so that bit alone finds the way ranked last. Branch-free:
 * word k's hit bit (bit log2(n) of byte j) is moved to bit 8j + k of one word, whose only
 * set bit then says j and k.
 */
static inline uint32_t rotate_in_pow2(uint8_t *g, uint32_t n)
{
	const uint32_t lg = (uint32_t)__builtin_ctz(n);
	uint64_t all = 0;
	for (uint32_t k = 0; k < n / 8u; k++) {
		uint64_t x = load8(g + 8u * k) + ONES;
		uint64_t hit = x & (ONES * n);
		all |= (hit >> lg) << k;
		store8(g + 8u * k, x ^ hit);
	}
	uint32_t pos = (uint32_t)__builtin_ctzll(all);
	return 8u * (pos & 7u) + pos / 8u;
}

/* Way (within the set) that an anonymous filler takes as most recent. */
static inline uint32_t insert_filler(struct cache_level *c, uint32_t set)
{
	uint8_t *g = c->age + (uint64_t)set * c->assoc;
	switch (c->assoc) {
	case 8:
		return rotate_in_pow2(g, 8);
	case 16:
		return rotate_in_pow2(g, 16);
	default:
		return (c->assoc & 7u) ? rotate_in(g, c->assoc) : rotate_in_words(g, c->assoc);
	}
}

/* The filler took way v of set: what was there? Returns 1 when it held a tracked line (then
 * copied to *old and replaced), 0 when it was empty or a filler already; the masks say which
 * without touching the way array, so a filler replacing a filler costs a few bytes of ranks. */
static inline int put_filler(struct cache_level *c, uint32_t set, uint32_t v,
			     struct cache_way *old, int *was_used)
{
	uint64_t bit = 1ull << v;
	uint64_t i = (uint64_t)set * c->assoc + v;
	if (c->tracked[set] & bit) {
		old->line = c->line[i];
		old->ver = c->ver[i];
		old->pf = 0;
		if (c->pfm) {
			old->pf = c->pfm[i].pf;
			old->path = c->pfm[i].path;
			old->cpu = c->pfm[i].cpu;
			c->pfm[i].pf = 0;
		}
		c->tracked[set] &= ~bit;
		c->line[i] = FILLER_LINE;
		c->ver[i] = 0;
		*was_used = 1;
		return 1;
	}
	*was_used = (c->used[set] & bit) != 0;
	if (!*was_used) {
		c->used[set] |= bit;
		c->line[i] = FILLER_LINE;
		c->ver[i] = 0;
	}
	return 0;
}

/*
 * cache_clear_page() when every line of the page has its own L2 set, no frame line is in the
 * directory and the LLC is a victim cache (the usual case): the same result as the loop in
 * cache_clear_page(), in three passes so that the host's cache misses overlap. Pass 1 rotates
 * the L1 and L2 ranks and notes the L2 ways that held a tracked line (starting their loads);
 * pass 2 reads those lines (starting the loads of their directory entries and LLC sets); pass
 * 3 pushes the current ones into the LLC in order, each after exactly the fillers that came
 * before it, as the loop does.
 */
/*
 * Pass 1 of clear_page_batched() for L1 and L2 with power-of-two set counts and n1, n2 ways
 * (powers of two, multiples of 8): rotate_in_pow2() and the mask tests written out, so that
 * with constant n1, n2 (the default 8 and 16) the compiler unrolls the rank words. Returns
 * how many L2 ways held a tracked line (their indexes in idx, the fillers passed down
 * before each in before); *to_llc counts the fillers passed down.
 */
static inline __attribute__((always_inline)) uint32_t
clear_pass1_pow2(struct cache_model *m, struct cache_level *l1, struct cache_level *l2,
		 uint64_t first, uint32_t stride, const uint32_t n1, const uint32_t n2,
		 uint64_t *idx, uint64_t *before, uint64_t *to_llc)
{
	/* locals: the compiler cannot tell that the stores below leave these alone */
	uint8_t *age1 = l1->age, *age2 = l2->age;
	uint64_t *tracked1 = l1->tracked, *used1 = l1->used;
	uint64_t *tracked2 = l2->tracked, *used2 = l2->used;
	const uint32_t mask1 = l1->set_mask, mask2 = l2->set_mask;
	uint64_t down = *to_llc;
	uint32_t n = 0;
	for (uint32_t l = 0; l < 64u; l += stride) {
		uint64_t ln = first + l;
		uint32_t s1 = (uint32_t)ln & mask1, s2 = (uint32_t)ln & mask2;
		uint32_t v = rotate_in_pow2(age1 + (uint64_t)s1 * n1, n1);
		uint64_t bit = 1ull << v;
		if (tracked1[s1] & bit) {
			struct cache_way old;
			int used;
			if (put_filler(l1, s1, v, &old, &used) && old.pf)
				count_wasted_way(m, &old);
		} else if (!(used1[s1] & bit)) {
			uint64_t i = (uint64_t)s1 * n1 + v;
			used1[s1] |= bit;
			l1->line[i] = FILLER_LINE;
			l1->ver[i] = 0;
		}
		v = rotate_in_pow2(age2 + (uint64_t)s2 * n2, n2);
		bit = 1ull << v;
		if (tracked2[s2] & bit) {
			tracked2[s2] &= ~bit;
			idx[n] = (uint64_t)s2 * n2 + v;
			before[n++] = down;
			__builtin_prefetch(&l2->line[idx[n - 1]]);
			__builtin_prefetch(&l2->ver[idx[n - 1]]);
		} else if (used2[s2] & bit) {
			down++; /* a filler goes on down */
		} else {
			uint64_t i = (uint64_t)s2 * n2 + v;
			used2[s2] |= bit;
			l2->line[i] = FILLER_LINE;
			l2->ver[i] = 0;
		}
	}
	*to_llc = down;
	return n;
}

static inline int is_pow2_of_words(uint32_t n)
{
	return n >= 8u && (n & (n - 1)) == 0;
}

static void clear_page_batched(struct cache_model *m, uint32_t core, uint32_t socket,
			       uint64_t first, uint32_t stride)
{
	struct cache_level *l1 = &m->l1[core], *l2 = &m->l2[core], *l3 = &m->llc[socket];
	uint64_t idx[64], before[64], line[64], to_llc = 0, f0 = l3->fillers;
	uint32_t ver[64], n = 0;

	if (l1->set_mask && l2->set_mask && l1->assoc == 8 && l2->assoc == 16)
		n = clear_pass1_pow2(m, l1, l2, first, stride, 8, 16, idx, before, &to_llc);
	else if (l1->set_mask && l2->set_mask && is_pow2_of_words(l1->assoc) &&
		 is_pow2_of_words(l2->assoc))
		n = clear_pass1_pow2(m, l1, l2, first, stride, l1->assoc, l2->assoc, idx, before,
				     &to_llc);
	else
		for (uint32_t l = 0; l < 64u; l += stride) {
			uint64_t ln = first + l;
			uint32_t s1 = set_of(l1, ln), s2 = set_of(l2, ln);
			struct cache_way old;
			int used;

			if (put_filler(l1, s1, insert_filler(l1, s1), &old, &used) && old.pf)
				count_wasted_way(m, &old);
			uint32_t v = insert_filler(l2, s2);
			uint64_t bit = 1ull << v;
			if (l2->tracked[s2] & bit) {
				l2->tracked[s2] &= ~bit;
				idx[n] = (uint64_t)s2 * l2->assoc + v;
				before[n++] = to_llc;
				__builtin_prefetch(&l2->line[idx[n - 1]]);
				__builtin_prefetch(&l2->ver[idx[n - 1]]);
			} else if (l2->used[s2] & bit) {
				to_llc++; /* a filler goes on down */
			} else {
				uint64_t i = (uint64_t)s2 * l2->assoc + v;
				l2->used[s2] |= bit;
				l2->line[i] = FILLER_LINE;
				l2->ver[i] = 0;
			}
		}
	for (uint32_t i = 0; i < n; i++) {
		line[i] = l2->line[idx[i]];
		ver[i] = l2->ver[idx[i]];
		l2->line[idx[i]] = FILLER_LINE;
		l2->ver[idx[i]] = 0;
		uint64_t d = line[i] - m->dir_base_line;
		if (d < m->dir_npages)
			__builtin_prefetch(&m->dir_pages[d]);
		uint32_t s3 = set_of(l3, line[i]);
		uint64_t b3 = (uint64_t)s3 * l3->assoc;
		__builtin_prefetch(&l3->synced[s3]);
		__builtin_prefetch(&l3->age[b3]);
		__builtin_prefetch(&l3->line[b3]);
		__builtin_prefetch((const char *)&l3->line[b3] + 64);
		__builtin_prefetch(&l3->line[b3 + l3->assoc - 1]);
		__builtin_prefetch(&l3->ver[b3]);
	}
	for (uint32_t i = 0; i < n; i++)
		if (dir_peek_ver(m, line[i]) == ver[i]) {
			l3->fillers = f0 + before[i];
			fill_llc(m, socket, line[i], ver[i]);
		}
	l3->fillers = f0 + to_llc;
}

void cache_clear_page(struct cache_model *m, uint32_t cpu, uint64_t vaddr, uint32_t nlines,
		      uint64_t now, uint8_t path)
{
	uint64_t first = vaddr >> MODEL_LINE_SHIFT;
	uint32_t core = m->core_of[cpu], socket = m->socket_of[cpu];
	uint32_t stride = nlines && nlines <= 64u ? 64u / nlines : 64u;
	struct cache_level *l1 = &m->l1[core], *l2 = &m->l2[core];
	uint64_t to_llc = 0; /* fillers the L2 passes down (or, inclusive, every line) */

	m->cpu[cpu].cleared_lines += 64u / stride;
	m->path[path].cleared_lines += 64u / stride;
	if (!m->dir_frame_live && m->p.llc_victim && l2->nsets >= 64u) {
		clear_page_batched(m, core, socket, first, stride);
		return;
	}

	for (uint32_t l = 0; l < 64u; l += stride) {
		uint64_t line = first + l;
		struct cache_way old;

		if (m->dir_frame_live && dir_peek_ver(m, line)) {
			/* someone touched this line through cache_access(): keep its copies
			 * coherent with an ordinary write */
			(void)cache_access(m, cpu, line << MODEL_LINE_SHIFT, 1, now, path);
			continue;
		}
		uint32_t s1 = set_of(l1, line), s2 = set_of(l2, line);
		int used, real;

		real = put_filler(l1, s1, insert_filler(l1, s1), &old, &used);
		if (real && old.pf)
			count_wasted_way(m, &old);
		real = put_filler(l2, s2, insert_filler(l2, s2), &old, &used);
		if (!m->p.llc_victim) {
			to_llc++; /* an inclusive LLC is filled by every miss */
		} else if (!real) {
			to_llc += (uint64_t)used; /* a filler goes on down */
		} else if (dir_peek_ver(m, old.line) == old.ver) {
			m->llc[socket].fillers += to_llc; /* in order: what came before it */
			to_llc = 0;
			fill_llc(m, socket, old.line, old.ver);
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
			if (c->pfm[i].pf) {
				struct cache_wasted w;
				account_wasted(m, &c->pfm[i]);
				c->pfm[i].pf = 0;
				w.vaddr = c->line[i] << MODEL_LINE_SHIFT;
				w.cpu = c->pfm[i].cpu;
				w.path = c->pfm[i].path;
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

void cache_total(const struct cache_model *m, struct cache_counters *out)
{
	memset(out, 0, sizeof(*out));
	for (uint32_t c = 0; c < m->ncpus; c++) {
		const struct cache_counters *s = &m->cpu[c];
		for (int o = 0; o < CACHE_NR_OUTCOMES; o++)
			out->access[o] += s->access[o];
		out->writes += s->writes;
		out->cycles += s->cycles;
		out->prefetches += s->prefetches;
		out->pf_redundant += s->pf_redundant;
		out->pf_wasted += s->pf_wasted;
		out->cleared_lines += s->cleared_lines;
	}
}

void cache_free(struct cache_model *m)
{
	for (uint32_t k = 0; m->l1 && k < m->ncores; k++)
		level_free(&m->l1[k]);
	for (uint32_t k = 0; m->l2 && k < m->ncores; k++)
		level_free(&m->l2[k]);
	for (uint32_t s = 0; m->llc && s < m->nsockets; s++)
		level_free(&m->llc[s]);
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
	uint32_t all_cores = p->sockets * p->cores_per_socket;
	/* CPUs 0..ncpus-1 use cores 0..min(ncpus, all_cores)-1 and the sockets those sit on */
	m->ncores = ncpus < all_cores ? ncpus : all_cores;
	m->nsockets = (m->ncores - 1) / p->cores_per_socket + 1;
	for (uint32_t c = 0; c < ncpus; c++) {
		m->core_of[c] = (uint16_t)model_cpu_core(p, c);
		m->socket_of[c] = (uint8_t)model_cpu_socket(p, c);
	}
	m->l1 = calloc(m->ncores, sizeof(*m->l1));
	m->l2 = calloc(m->ncores, sizeof(*m->l2));
	m->llc = calloc(m->nsockets, sizeof(*m->llc));
	if (!m->l1 || !m->l2 || !m->llc)
		goto fail;
	for (uint32_t k = 0; k < m->ncores; k++)
		if (level_init(&m->l1[k], p->l1_bytes, p->l1_ways, 1, 0, 1) ||
		    level_init(&m->l2[k], p->l2_bytes, p->l2_ways, 0, 0, 1))
			goto fail;
	for (uint32_t s = 0; s < m->nsockets; s++)
		if (level_init(&m->llc[s], (uint64_t)p->llc_bytes_per_core * p->cores_per_socket,
			       p->llc_ways, 0, 1, 0))
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
			m->dir_pages[i].owner = MODEL_NO_CPU;
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

static int level_check(const struct cache_model *m, const struct cache_level *c, int is_l1,
		       const char *name, uint32_t k, char *err, size_t errlen)
{
	for (uint64_t s = 0; s < c->nsets; s++) {
		const uint64_t *w = c->line + s * c->assoc;
		const uint32_t *v = c->ver + s * c->assoc;
		const struct cache_pfmark *f = c->pfm ? c->pfm + s * c->assoc : NULL;
		const uint8_t *g = c->age + s * c->assoc;
		uint64_t seen = 0;
		for (uint32_t i = 0; i < c->assoc; i++) {
			const char *why = NULL;
			if (g[i] >= c->assoc || (seen & (1ull << g[i])))
				why = "LRU ranks are not a permutation";
			seen |= 1ull << (g[i] < 64 ? g[i] : 63);
			for (uint32_t j = 0; j < i && !why; j++)
				if (w[i] && w[i] != FILLER_LINE && w[j] == w[i])
					why = "a line appears twice in a set";
			if (!why && w[i] && v[i] > m->ver_clock)
				why = "a copy is newer than any version handed out";
			if (!why && (is_l1 != (f != NULL) ||
				     (f && f[i].pf && !is_tracked(w[i]))))
				why = "prefetch mark outside L1 or on an empty way";
			if (!why && c->tracked &&
			    (((c->tracked[s] >> i) & 1) != (uint64_t)is_tracked(w[i]) ||
			     ((c->used[s] >> i) & 1) != (w[i] != 0)))
				why = "tracked/used masks disagree with the ways";
			if (why) {
				if (err && errlen)
					snprintf(err, errlen, "%s %u set %llu way %u: %s", name, k,
						 (unsigned long long)s, i, why);
				return -1;
			}
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
		if (level_check(m, &m->llc[s], 0, "LLC", s, err, errlen))
			return -1;
	for (uint64_t i = 0; i < m->dir_npages; i++) {
		const struct cache_dir_page *d = &m->dir_pages[i];
		if (d->ver > m->ver_clock || (d->owner != MODEL_NO_CPU && d->owner >= m->ncpus)) {
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
