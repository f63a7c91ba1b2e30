/*
 * cache_clear.c - clear_page() into the caches (cache_clear_page()). The 4 KB of stores
 * matter to the allocator only as capacity pressure: each written line becomes an
 * anonymous filler, inserted as most recent into its L1 and L2 set; what that evicts goes
 * on as a fill's victim would (a prefetched line in L1 is wasted, a current tracked line
 * leaving L2 enters a victim LLC, a filler leaving L2 joins the LLC's stream,
 * llc_add_fillers()). Fillers never hit, take no fill buffer and no directory entry, and
 * cost the CPU nothing here: it pays clear_page_cycles. The usual case is done in bulk, and
 * lazily where it can be (cache_clear.h, "clear_page() in bulk").
 */
#include "cache_clear.h"
#include "cache_dir.h"
#include "cache_llc.h"
#include "memctl.h"

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
 * that came before it, as the loop does, with host prefetches started a pass ahead. Returns
 * the dirty lines the fillers pushed out of the LLC (llc_add_fillers()).
 */
HOT uint64_t clear_page_batched(struct cache_model *m, uint32_t core, uint32_t socket,
			    uint64_t first, uint32_t stride, const struct geom g)
{
	struct cache_level *l1 = &m->l1[core], *l2 = &m->l2[core];
	struct cache_llc *l3 = &m->llc[socket];
	const uint32_t n1 = WAYS(g.n1, l1), n2 = WAYS(g.n2, l2), n3 = WAYS(g.n3, l3);
	uint64_t idx[64], before[64], line[64], to_llc = 0, f0 = l3->fillers, wb = 0;
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
		if (d) { /* after the fillers passed down before it */
			wb += llc_add_fillers(l3, f0 + before[i] - l3->fillers);
			fill_llc(m, socket, line[i], d->ver, g);
		}
	}
	return wb + llc_add_fillers(l3, f0 + to_llc - l3->fillers);
}

/* The usual case's clear, for each kind of machine */
static uint64_t clear_page_any(struct cache_model *m, uint32_t core, uint32_t socket,
			       uint64_t first, uint32_t stride)
{
	return clear_page_batched(m, core, socket, first, stride, ANY_GEOM);
}

static uint64_t clear_page_default(struct cache_model *m, uint32_t core, uint32_t socket,
				   uint64_t first, uint32_t stride)
{
	return clear_page_batched(m, core, socket, first, stride, DEFAULT_GEOM);
}

/*
 * The clear's write-backs (wb fillers, each standing for `stride` frame lines) booked at the
 * socket's memory controller at `now`: the cycles the clear waits beyond clear_page_cycles
 * for the controller to carry them. The stores stream at clear_page_cycles while the
 * controller keeps up; when it does not, the core's store and fill buffers fill and the
 * clear waits (counted in stall_cycles).
 */
static uint32_t clear_wait(struct cache_model *m, uint32_t socket, uint64_t wb, uint64_t now)
{
	struct mem_ctl *mc = &m->mc[socket];
	uint64_t done = memctl_writeback(mc, now, wb * m->clear_stride);
	uint64_t end = now + m->p.clear_page_cycles;
	if (done <= end)
		return 0;
	mc->c.stall_cycles += done - end;
	return done - end > 0xffffffffu ? 0xffffffffu : (uint32_t)(done - end);
}

uint32_t cache_clear_page(struct cache_model *m, uint32_t cpu, uint64_t vaddr, uint32_t nlines,
			  uint64_t now, uint8_t path)
{
	uint64_t first = vaddr >> MODEL_LINE_SHIFT;
	uint32_t core = m->core_of[cpu], socket = m->socket_of[cpu];
	uint32_t stride = nlines && nlines <= 64u ? 64u / nlines : 64u;
	struct cache_level *l1 = &m->l1[core], *l2 = &m->l2[core];
	uint64_t to_llc = 0; /* fillers the L2 passes down (or, inclusive, every line) */
	uint64_t wb = 0;     /* dirty lines those push out of the LLC */

	m->cnt_cpu[cpu].cleared_lines += 64u / stride;
	m->cnt_path[path].cleared_lines += 64u / stride;
	m->clear_stride = stride;
	if (!m->dir_frame_live && m->p.llc_victim && l2->nsets >= 64u) {
		wb = (m->default_geom ? clear_page_default : clear_page_any)(m, core, socket, first,
									     stride);
		return clear_wait(m, socket, wb, now);
	}

	for (uint32_t l = 0; l < 64u; l += stride) {
		uint64_t line = first + l;
		struct cache_way old;

		const struct cache_dir_page *od;
		if (m->dir_frame_live && cache_dir_find(m, line)) {
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
			/* in order: what came before it */
			wb += llc_add_fillers(&m->llc[socket], to_llc);
			to_llc = 0;
			fill_llc(m, socket, old.line, od->ver, ANY_GEOM);
		}
	}
	wb += llc_add_fillers(&m->llc[socket], to_llc);
	return clear_wait(m, socket, wb, now);
}
