/*
 * fastpath.h - the pcp hit, inline: an order-0 (or pcp-order) allocation that finds a block
 * at the head of this CPU's list, and a free that puts one back without reaching `high`.
 *
 * The synchronous entries (blab_alloc_gfp, blab_free_gfp in op.c) try these first; the
 * resumable op state machine (blab_op_step) stays the one full implementation and handles
 * everything else. Each function first decides, without changing anything, whether the
 * request is the plain pcp hit; if not (an argument the full path must refuse with its
 * error, a busy CPU, an empty list, a free that would reach `high`, a shared 2.6.25 list
 * that is searched, a watermark), it returns 0 and the caller runs the op machinery, which
 * then sees exactly the zone it would have seen. When it is the pcp hit, it makes the same
 * changes, machine calls and event records, in the same order, as alloc_start /
 * take_from_pcp / hand_out and free_start / free_to_pcp do (tests/test_fastpath.c compares
 * the two record for record on the plain and model machines).
 *
 * Why it is cheaper: no op struct to fill and resume, arguments checked once, no calls into
 * pcp.c / zone.c for a handful of loads and stores (list.h is inline), and the machine
 * hooks inlined.
 */
#ifndef BLAB_FASTPATH_H
#define BLAB_FASTPATH_H

#include "mm.h"
#include "machine/machine.h"

enum { FAST_NONE = 0, FAST_PER_MT = 1, FAST_HOTCOLD = 2 };

/*
 * Which pcp hits can be taken inline, from the zone's strategy: per-migratetype LIFO lists
 * (v2.6.24 on) and the 2.5.45 hot/cold pair; not the 2.6.25 shared list, which is searched
 * (and every page looked at touched) by migratetype, and not zones without pcp lists.
 * One compare of order against fast_orders then stands for pcp != NONE, order <=
 * pcp_max_order and order <= top_order.
 */
static inline void fast_setup(struct blab_zone *z)
{
	unsigned top = z->s.pcp_max_order < z->top_order ? z->s.pcp_max_order : z->top_order;

	if (z->s.pcp == BLAB_PCP_LIFO && z->s.pcp_per_mt)
		z->fast_mode = FAST_PER_MT;
	else if (z->s.pcp == BLAB_PCP_HOTCOLD)
		z->fast_mode = FAST_HOTCOLD;
	else
		z->fast_mode = FAST_NONE;
	z->fast_orders = z->fast_mode == FAST_NONE ? 0 : (uint8_t)(top + 1);
}

/*
 * Nothing to record: no event can be emitted (no class on, or nowhere to put it) and the
 * machine is not the model, whose touches charge the cache model. The real machine always
 * is (a real zone keeps no log); so is a plain zone without a log. The fast paths are
 * built twice, with quiet a constant, so the quiet copy has no event or touch code at all.
 * Nothing an op does can make a quiet zone noisy (a full log stays full until cleared).
 */
static inline int fast_quiet(const struct blab_zone *z)
{
	return z->machine.kind != BLAB_MACHINE_MODEL && log_quiet(&z->machine.log);
}

/*
 * alloc_start() when take_from_pcp() finds a page. 1: allocated, *pfn set; 0: nothing done.
 * The caller has checked z, pfn and cpu < z->cpus.
 */
static inline __attribute__((always_inline)) int
alloc_fast(struct blab_zone *z, unsigned cpu, unsigned order, unsigned mt, unsigned gfp,
	   uint64_t *pfn, const int quiet)
{
	struct per_cpu_pageset *ps = &z->pageset[cpu];
	unsigned cold = gfp & BLAB_GFP_COLD, which, porder, pmt;
	struct per_cpu_pages *pcp;
	struct blab_list *l;
	struct page *p;
	uint32_t idx;
	uint64_t at;

	if (order >= z->fast_orders || mt >= BLAB_MT_PCPTYPES || ps->busy)
		return 0;
	if (z->s.watermarks && z->free_pages < z->wmark[WMARK_LOW] + (1u << order))
		return 0;
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

	/* the hit: blab_op_step()'s start, then take_from_pcp() */
	mach_op_begin(&z->machine);
	if (z->fast_mode == FAST_PER_MT)
		pcp->free_factor >>= 1; /* an allocation: free less next time */
	at = idx_to_pfn(z, idx);
	if (!quiet)
		mach_touch_page(&z->machine, cpu, at, 1, BLAB_PATH_ALLOC_FAST);

	/* _blab_pcp_del(): off the list, counted by the block's own order */
	p = &z->mem_map[idx];
	porder = p->order;
	pmt = p->mt;
	pcp_unlink(z, pcp, l, idx);
	if (!quiet)
		EMIT(z, BLAB_EVC_STATE, BLAB_EV_PCP_DEL, at, porder, cpu, pmt, BLAB_PATH_ALLOC_FAST,
		     which ? BLAB_EVF_COLD : 0, 0, 0);

	/* hand_out(): _blab_mark_allocated() and the request's migratetype */
	p->flags = PG_alloc;
	p->order = (uint8_t)order;
	p->mt = (uint8_t)mt;
	if (order)
		for (uint32_t i = 1; i < (1u << order); i++)
			z->mem_map[idx + i].flags = PG_tail;
	if (!quiet)
		EMIT(z, BLAB_EVC_STATE, BLAB_EV_ALLOC, at, order, cpu, mt, BLAB_PATH_ALLOC_FAST, 0,
		     gfp, 0);
	*pfn = at;
	return 1;
}

/*
 * free_start() when the block is a valid allocated one and goes on the pcp list without a
 * bulk free. 1: freed; 0: nothing done. The caller has checked z and cpu < z->cpus.
 */
static inline __attribute__((always_inline)) int
free_fast(struct blab_zone *z, unsigned cpu, uint64_t pfn, unsigned order, unsigned gfp,
	  const int quiet)
{
	struct per_cpu_pageset *ps = &z->pageset[cpu];
	unsigned cold = gfp & BLAB_GFP_COLD, which, mt, tail;
	uint64_t off = pfn - z->start_pfn; /* wraps above pages when pfn < start_pfn */
	struct per_cpu_pages *pcp;
	struct blab_list *l;
	struct page *p;
	uint32_t idx;

	/* free_validate() passes: in the zone, aligned, an allocated head of this order */
	if (order >= z->fast_orders || off >= z->pages || (pfn & ((1ull << order) - 1)) ||
	    ps->busy)
		return 0;
	idx = (uint32_t)off;
	p = &z->mem_map[idx];
	if ((p->flags & (PG_picked | PG_buddy | PG_pcp | PG_tail | PG_alloc)) != PG_alloc ||
	    p->order != order)
		return 0;
	mt = z->pageblock_mt[(pfn >> z->pageblock_order) - z->first_pageblock];
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

	/* blab_op_step()'s start, then free_start() */
	mach_op_begin(&z->machine);
	if (!quiet)
		EMIT(z, BLAB_EVC_STATE, BLAB_EV_FREE, pfn, order, cpu, mt, BLAB_PATH_FREE_FAST, 0,
		     gfp, 0);
	p->flags = 0; /* _blab_clear_allocated() */
	if (order)
		for (uint32_t i = 1; i < (1u << order); i++)
			z->mem_map[idx + i].flags = 0;
	if (!quiet)
		mach_touch_page(&z->machine, cpu, pfn, 1, BLAB_PATH_FREE_FAST);

	/* free_to_pcp() -> _blab_pcp_add(): the head (hot), or the tail for a cold LIFO free */
	pcp_link(z, pcp, l, idx, order, mt, cpu, which, tail);
	if (!quiet)
		EMIT(z, BLAB_EVC_STATE, BLAB_EV_PCP_ADD, pfn, order, cpu, mt, BLAB_PATH_FREE_FAST,
		     (tail ? BLAB_EVF_TAIL : 0) | (which ? BLAB_EVF_COLD : 0), 0, 0);
	return 1;
}

#endif
