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
 * written once, as always-inline functions of the levels' ways (HOT, in the private
 * headers), and compiled twice: with the default machine's 8, 16 and 11 ways as constants
 * (every scan unrolled, every mask folded) and with the ways read from the levels, for any
 * other machine. Both give the same results.
 *
 * This file is the access path: a touch (cache_access()) and a prefetch (cache_prefetch()),
 * the fetch of a missed line from L2, another core, the LLC or memory (mem_read()), and the
 * fills of L1 and L2. The rest, one concern a file: a set's lookup and true LRU
 * (cache_lru.h, .c), the LLC (cache_llc.h, .c), the directory (cache_dir.h, .c),
 * clear_page()'s fillers (cache_clear.h, .c), the model made and freed (cache_init.c), its
 * counters read out (cache_counters.c) and its invariant checker (cache_check.c);
 * cache_private.h is what they share.
 *
 * Nothing here allocates after cache_init().
 */
#include "cache_clear.h"
#include "cache_dir.h"
#include "cache_llc.h"
#include "memctl.h"

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

/* `line` into way w of L2 set s (found by the caller) at cycle now; what it evicts goes on
 * down (a cleared frame line into the LLC's stream, whose write-back, if it pushes one out,
 * the socket's memory controller carries while the CPU goes on) */
HOT void fill_l2(struct cache_model *m, uint32_t core, uint32_t socket, uint32_t s, uint32_t w,
		 uint64_t line, uint32_t ver, uint64_t now, const struct geom g)
{
	struct cache_level *l2 = &m->l2[core];
	struct cache_way old;
	fill_way(l2, s, w, line, ver, &old, WAYS(g.n2, l2));
	if (m->p.llc_victim && old.line && old.line != line) {
		/* a victim LLC takes what the L2 evicts, if it is still current (peek: the
		 * caller holds a pointer into the directory that must stay valid); a cleared
		 * frame line joins the LLC's aggregated stream */
		const struct cache_dir_page *od;
		if (old.line == FILLER_LINE) {
			if (llc_add_fillers(&m->llc[socket], 1))
				(void)memctl_writeback(&m->mc[socket], now, m->clear_stride);
		}
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

/* L1 way i loses its prefetch mark unused (written, or evicted): a wasted prefetch */
static inline void waste_mark(struct cache_model *m, struct cache_level *l1, uint64_t i,
			      uint64_t line)
{
	count_wasted(m, line, &l1->way[i].pfm);
	l1->way[i].pfm.pf = 0;
	l1->pf_marks--;
}

/*
 * The line comes from memory: the one place the model decides that an access goes to DRAM
 * (a demand miss or a prefetch, through fetch_line(); clear_page()'s stores are booked by
 * cache_clear_page()), at the CPU's clock `now`. It costs mem_cycles, the idle latency,
 * plus what it waits at its socket's memory controller (memctl_read(): more as the
 * controller fills, and until there is room when it is full). The CPU's own socket's
 * controller serves it: the model has no NUMA home (docs/model.md, "Memory bandwidth").
 */
HOT uint32_t mem_read(struct cache_model *m, uint32_t cpu, uint64_t line, uint64_t now)
{
	uint64_t c = (uint64_t)m->p.mem_cycles + memctl_read(&m->mc[m->socket_of[cpu]], now);
	(void)line;
	return c > 0xffffffffu ? 0xffffffffu : (uint32_t)c;
}

/*
 * The line missed L1 (or was stale there; own1 is its L1 way then, else the ways): find it
 * below, fill L2 and L1, and return the L1 index. *outcome and *cycles say where it came
 * from; `now` is the CPU's clock when it asked (fetch() adds the wait for a fill buffer).
 */
HOT uint64_t fetch_line(struct cache_model *m, uint32_t cpu, uint64_t line,
			struct cache_dir_page *d, uint32_t s1, uint32_t own1, uint64_t now,
			uint32_t *outcome, uint32_t *cycles, const struct geom g)
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
			fill_l2(m, core, socket, s2, v2, line, ver, now, g);
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
		*cycles = mem_read(m, cpu, line, now);
		if (!m->p.llc_victim)
			fill_llc(m, socket, line, ver, g);
	}
	fill_l2(m, core, socket, s2, v2, line, ver, now, g);
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
	uint64_t idx = fetch_line(m, cpu, line, d, s1, own1, now, outcome, cycles, g);
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
