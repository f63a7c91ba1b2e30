/*
 * pcp.h - a block onto and off a CPU's per_cpu_pages, inline: the one body of the pcp hit.
 *
 * An order-0 (or pcp-order) allocation that finds a block on this CPU's list, and a free that
 * puts one back without reaching `high`, are most of what a page allocator does. Their steps
 * are written here once, and two callers use them:
 *   - the resumable ops (op.c, pcp.c: rmqueue_pcplist's and free_unref_page's first step),
 *     which also handle everything around the hit (refills, bulk frees, errors);
 *   - the synchronous entries blab_alloc*() / blab_free*() (op.c), which try
 *     rmqueue_pcplist_hit() / free_unref_page_hit() below before building an op at all.
 * The hit functions first decide, without changing anything, whether the request is the
 * plain pcp hit; if not (an argument the full path must refuse with its error, a busy CPU, an
 * empty list, a free that would reach `high`, a shared 2.6.25 list that is searched, a
 * watermark), they return 0 and the caller runs the op, which then sees exactly the zone it
 * would have seen. tests/test_fastpath.c holds the two paths to the same records, record
 * for record, on the plain and model machines; bench/fastpath_invariants.sh digests sim
 * hashes and golden replays before and after a change here.
 *
 * `quiet` is a constant at every call: a zone with nothing to record (no event can be kept,
 * and not the model machine, whose touches charge the cache model) gets a copy with no event
 * or touch code at all. The real machine always is quiet (a real zone keeps no log).
 */
#ifndef BLAB_MM_PCP_H
#define BLAB_MM_PCP_H

#include "mm.h"

/*
 * z->pcp_pages is a zone-wide sum that every CPU's pcp list changes without zone->lock: the
 * single-threaded machines keep it as they go; real threads would race on it, so on the real
 * machine blab_zone_info() counts the lists instead (call it when the threads have stopped).
 */
static inline void pcp_pages_add(struct blab_zone *z, int32_t pages)
{
	if (z->machine.kind != BLAB_MACHINE_REAL)
		z->pcp_pages += (uint32_t)pages;
}

/* A block onto cpu's list l (in pcp, its set `which`: 1 = the 2002 cold list): the page's pcp
 * fields, the list, the counts, and PCP_ADD. */
static inline __attribute__((always_inline)) void
pcp_list_add(struct blab_zone *z, unsigned cpu, unsigned which, struct per_cpu_pages *pcp,
	     struct blab_list *l, uint32_t idx, unsigned order, unsigned mt, int tail,
	     unsigned path, const int quiet)
{
	struct page *p = zone_page(z, idx);

	p->flags = PG_pcp | (which ? PG_cold : 0);
	p->order = (uint8_t)order;
	p->mt = (uint8_t)mt;
	p->cpu = (uint16_t)cpu;
	if (tail)
		page_list_add_tail(z, l, idx);
	else
		page_list_add(z, l, idx);
	pcp->count += 1u << order;
	pcp_pages_add(z, (int32_t)(1u << order));
	if (!quiet)
		EMIT(z, BLAB_EVC_STATE, BLAB_EV_PCP_ADD, idx_to_pfn(z, idx), order, cpu, mt, path,
		     (tail ? BLAB_EVF_TAIL : 0) | (which ? BLAB_EVF_COLD : 0), 0, 0);
}

/* A block off cpu's list l, counted by its own order, and PCP_DEL. */
static inline __attribute__((always_inline)) void
pcp_list_del(struct blab_zone *z, unsigned cpu, unsigned which, struct per_cpu_pages *pcp,
	     struct blab_list *l, uint32_t idx, unsigned path, const int quiet)
{
	struct page *p = zone_page(z, idx);
	unsigned order = p->order, mt = p->mt;

	page_list_del(z, l, idx);
	p->flags &= ~(PG_pcp | PG_cold);
	p->cpu = BLAB_CPU_NONE;
	pcp->count -= 1u << order;
	pcp_pages_add(z, -(int32_t)(1u << order));
	if (!quiet)
		EMIT(z, BLAB_EVC_STATE, BLAB_EV_PCP_DEL, idx_to_pfn(z, idx), order, cpu, mt, path,
		     which ? BLAB_EVF_COLD : 0, 0, 0);
}

/* prep_new_page(): the block at idx (off a list, cpu field already none) is the caller's: an
 * allocated head of `order` with the request's migratetype (compaction moves MOVABLE blocks
 * only), its tail pages marked, and ALLOC. */
static inline __attribute__((always_inline)) void
prep_new_page(struct blab_zone *z, unsigned cpu, uint32_t idx, unsigned order, unsigned mt,
	      unsigned gfp, unsigned path, const int quiet)
{
	struct page *p = zone_page(z, idx);

	p->flags = PG_alloc;
	p->order = (uint8_t)order;
	p->mt = (uint8_t)mt;
	if (order)
		for (uint32_t i = 1; i < (1u << order); i++)
			zone_page(z, idx + i)->flags = PG_tail;
	if (!quiet)
		EMIT(z, BLAB_EVC_STATE, BLAB_EV_ALLOC, idx_to_pfn(z, idx), order, cpu, mt, path, 0,
		     gfp, 0);
}

/* free_pages_prepare(): FREE (on `path`), the block's pages no longer allocated, and the
 * write of its struct page that the free's own bookkeeping makes. */
static inline __attribute__((always_inline)) void
free_pages_prepare(struct blab_zone *z, unsigned cpu, uint64_t pfn, unsigned order, unsigned mt,
		   unsigned gfp, unsigned path, const int quiet)
{
	uint32_t idx = pfn_to_idx(z, pfn);

	if (!quiet) /* arg0: the gfp flags (BLAB_GFP_PCP_HELD is the caller's lock, not one) */
		EMIT(z, BLAB_EVC_STATE, BLAB_EV_FREE, pfn, order, cpu, mt, path, 0,
		     gfp & BLAB_GFP_COLD, 0);
	zone_page(z, idx)->flags = 0;
	if (order)
		for (uint32_t i = 1; i < (1u << order); i++)
			zone_page(z, idx + i)->flags = 0;
	if (!quiet)
		mach_touch_page(&z->machine, cpu, pfn, 1, BLAB_PATH_FREE_FAST);
}

/* ---- the synchronous entries' pcp hit ---- */

enum { FAST_NONE = 0, FAST_PER_MT = 1, FAST_HOTCOLD = 2 };

/*
 * Which pcp hits can be taken inline, from the zone's strategy: per-migratetype LIFO lists
 * (v2.6.24 on) and the 2.5.45 hot/cold pair; not the 2.6.25 shared list, which is searched
 * (and every page looked at touched) by migratetype, and not zones without pcp lists.
 * One compare of order against fast_orders then stands for pcp != NONE, order <=
 * pcp_max_order and order <= top_order.
 */
static inline void pcp_hit_setup(struct blab_zone *z)
{
	unsigned top = z->s.pcp_max_order < z->top_order ? z->s.pcp_max_order : z->top_order;

	/* 5.18's free_high (BLAB_FREE_HIGH_ALL) looks at high-order frees only, and keeps no
	 * state: free_unref_page_hit() leaves those to the op */
	if (z->s.pcp_lock || z->s.alloc_factor ||
	    (z->s.free_high && z->s.free_high != BLAB_FREE_HIGH_ALL) || z->s.bulk_chunk ||
	    z->s.high_mode == BLAB_HIGH_AUTO || z->s.free_factor == BLAB_FREE_COUNT)
		z->fast_mode = FAST_NONE; /* 6.0+: pcp->lock and the tuning run in the op */
	else if (z->s.pcp == BLAB_PCP_LIFO && z->s.pcp_per_mt)
		z->fast_mode = FAST_PER_MT;
	else if (z->s.pcp == BLAB_PCP_HOTCOLD)
		z->fast_mode = FAST_HOTCOLD;
	else
		z->fast_mode = FAST_NONE;
	z->fast_orders = z->fast_mode == FAST_NONE ? 0 : (uint8_t)(top + 1);
}

/* Nothing to record: not the model machine, and no event can be kept. Nothing an op does
 * can make a quiet zone noisy (a full log stays full until cleared). */
static inline int pcp_hit_quiet(const struct blab_zone *z)
{
	return z->machine.kind != BLAB_MACHINE_MODEL && log_quiet(&z->machine.log);
}

/*
 * rmqueue_pcplist() when the list has a block: 1, allocated, *pfn set; 0: nothing done.
 * The caller has checked z, pfn and cpu < z->cpus.
 */
static inline __attribute__((always_inline)) int
rmqueue_pcplist_hit(struct blab_zone *z, unsigned cpu, unsigned order, unsigned mt,
		    unsigned gfp, uint64_t *pfn, const int quiet)
{
	struct per_cpu_pageset *ps = &z->pageset[cpu];
	unsigned cold = gfp & BLAB_GFP_COLD, which;
	struct per_cpu_pages *pcp;
	struct blab_list *l;
	uint32_t idx;

	if (order >= z->fast_orders || mt >= BLAB_MT_PCPTYPES || ps->busy)
		return 0;
	if (z->s.watermarks && (!zone_watermark_ok(z, order, WMARK_LOW) ||
				zone_falls_below_high(z, order)))
		return 0; /* refused, or the op sets ZONE_BELOW_HIGH first */
	if (z->fast_mode == FAST_PER_MT) {
		/* one list per (order, migratetype): its head, or its tail for a cold request */
		which = 0;
		pcp = &ps->pcp[0];
		l = &pcp->lists[order * BLAB_MT_PCPTYPES + mt];
		idx = cold ? l->tail : l->head;
	} else {
		/* 2.5.45: the hot or the cold list's head, unless at low (it refills first) */
		which = cold;
		pcp = &ps->pcp[which];
		if (pcp->count <= pcp->low)
			return 0;
		l = &pcp->lists[0];
		idx = l->head;
	}
	if (idx == NIL)
		return 0;

	/* the hit: blab_op_step()'s start, then the op's rmqueue_pcplist() */
	mach_op_begin(&z->machine);
	if (z->fast_mode == FAST_PER_MT)
		pcp->free_factor >>= 1; /* an allocation: free less next time */
	if (!quiet)
		mach_touch_page(&z->machine, cpu, idx_to_pfn(z, idx), 1, BLAB_PATH_ALLOC_FAST);
	pcp_list_del(z, cpu, which, pcp, l, idx, BLAB_PATH_ALLOC_FAST, quiet);
	prep_new_page(z, cpu, idx, order, mt, gfp, BLAB_PATH_ALLOC_FAST, quiet);
	*pfn = idx_to_pfn(z, idx);
	return 1;
}

/*
 * free_unref_page() when the block is a valid allocated one and goes on the pcp list without
 * a bulk free. 1: freed; 0: nothing done. The caller has checked z and cpu < z->cpus.
 */
static inline __attribute__((always_inline)) int
free_unref_page_hit(struct blab_zone *z, unsigned cpu, uint64_t pfn, unsigned order,
		    unsigned gfp, const int quiet)
{
	struct per_cpu_pageset *ps = &z->pageset[cpu];
	unsigned cold = gfp & BLAB_GFP_COLD, which, mt, tail;
	uint64_t off = pfn - z->start_pfn; /* wraps above pages when pfn < start_pfn */
	struct per_cpu_pages *pcp;
	struct blab_list *l;
	struct page *p;

	/* the op's free_validate() passes: in the zone, aligned, an allocated head of order */
	if (order >= z->fast_orders || off >= z->pages || (pfn & ((1ull << order) - 1)) ||
	    ps->busy || (order && z->s.free_high))
		return 0;
	p = zone_page(z, off);
	if ((p->flags & (PG_picked | PG_buddy | PG_pcp | PG_tail | PG_alloc)) != PG_alloc ||
	    p->order != order)
		return 0;
	mt = get_pageblock_migratetype(z, pfn);
	if (mt >= BLAB_MT_PCPTYPES)
		return 0;
	if (z->fast_mode == FAST_PER_MT) {
		/* added first, then free_pcppages_bulk() if count reached high */
		which = 0;
		tail = cold;
		pcp = &ps->pcp[0];
		if (pcp->count + (1u << order) >= pcp->high)
			return 0;
		l = &pcp->lists[order * BLAB_MT_PCPTYPES + mt];
	} else {
		/* 2.5.45: a bulk free first if count is at high, then the add to the head */
		which = cold;
		tail = 0;
		pcp = &ps->pcp[which];
		if (pcp->count >= pcp->high && pcp->count)
			return 0;
		l = &pcp->lists[0];
	}

	/* blab_op_step()'s start, then the op's free_unref_page() */
	mach_op_begin(&z->machine);
	free_pages_prepare(z, cpu, pfn, order, mt, gfp, BLAB_PATH_FREE_FAST, quiet);
	pcp_list_add(z, cpu, which, pcp, l, (uint32_t)off, order, mt, tail, BLAB_PATH_FREE_FAST,
		     quiet);
	return 1;
}

#endif
