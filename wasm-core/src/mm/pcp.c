/*
 * pcp.c - per-cpu page lists (struct per_cpu_pages) in front of the buddy allocator.
 *
 * A cpu allocates order-0 (or, 5.14+, order <= 3) pages from its own list without
 * zone->lock. When the list runs dry, rmqueue_bulk() refills `batch` pages under one
 * zone->lock hold; when a free makes `count` reach `high`, free_pcppages_bulk() gives pages
 * back from the cold end (the tail), round-robin across the lists. Three historical shapes:
 *   BLAB_PCP_HOTCOLD (2.5.45): pcp[0] hot and pcp[1] cold, each {count, low, high, batch};
 *       refill when count <= low, bulk-free before adding when count >= high.
 *   BLAB_PCP_LIFO: one list per migratetype (and order) or, pcp_per_mt = 0 (2.6.24/25), one
 *       list searched for a page of the wanted migratetype.
 *   BLAB_PCP_NONE (2.5.44): no lists at all.
 */
#include "mm.h"
#include "machine/machine.h"

void _blab_pcp_setup(struct blab_zone *z)
{
	struct blab_strategy *s = &z->s;
	uint32_t zb = blab_zone_batchsize(z->managed_pages, s->batch_era);
	uint32_t batch = s->batch ? s->batch : (zb ? zb : 1);
	uint32_t high;

	if (s->pcp == BLAB_PCP_HOTCOLD) {
		high = s->high ? s->high : 6 * batch;
	} else if (s->high) {
		high = s->high;
	} else if (s->high_mode == BLAB_HIGH_ZONE) {
		high = blab_zone_highsize(z->wmark[WMARK_LOW], batch, z->cpus);
	} else {
		/* pageset_set_batch(): high = 6 * zone_batchsize(), which may be 0 */
		high = 6 * (s->batch ? s->batch : zb);
	}
	if (s->pcp == BLAB_PCP_NONE) {
		batch = 0;
		high = 0;
	}
	s->batch = batch;
	s->high = high;

	for (unsigned cpu = 0; cpu < z->cpus; cpu++) {
		struct per_cpu_pageset *ps = &z->pageset[cpu];
		for (int w = 0; w < 2; w++) {
			ps->pcp[w].count = 0;
			for (int i = 0; i < NR_PCP_LISTS; i++)
				blab_list_init(&ps->pcp[w].lists[i]);
		}
		ps->pcp[0].batch = batch;
		ps->pcp[0].high = high;
		ps->pcp[0].low = s->pcp == BLAB_PCP_HOTCOLD ? 2 * batch : 0;
		if (s->pcp == BLAB_PCP_HOTCOLD) {
			ps->pcp[1].batch = batch;
			ps->pcp[1].high = 2 * batch;
			ps->pcp[1].low = 0;
		}
	}
}

int _blab_pcp_list_index(const struct blab_zone *z, unsigned mt, unsigned order)
{
	if (z->s.pcp == BLAB_PCP_HOTCOLD)
		return 0;
	if (z->s.pcp_per_mt)
		return (int)(order * BLAB_MT_PCPTYPES + mt); /* order_to_pindex() */
	return (int)order;
}

unsigned _blab_pcp_nr_lists(const struct blab_zone *z)
{
	if (z->s.pcp == BLAB_PCP_HOTCOLD)
		return 1;
	return (z->s.pcp_max_order + 1u) * (z->s.pcp_per_mt ? BLAB_MT_PCPTYPES : 1u);
}

int blab_pcp_info(const struct blab_zone *z, unsigned cpu, unsigned which,
		  struct blab_pcp_info *out)
{
	const struct per_cpu_pages *pcp;
	if (!z || !out)
		return BLAB_EINVAL;
	if (cpu >= z->cpus)
		return BLAB_ECPU;
	if (which > 1)
		return BLAB_EINVAL;
	out->present = z->s.pcp != BLAB_PCP_NONE && (which == 0 || z->s.pcp == BLAB_PCP_HOTCOLD);
	pcp = &z->pageset[cpu].pcp[which];
	out->count = pcp->count;
	out->low = pcp->low;
	out->high = pcp->high;
	out->batch = pcp->batch;
	return 0;
}

/* put a block on cpu's list; `which` 1 = the cold list of the 2002 pair */
void _blab_pcp_add(struct blab_zone *z, unsigned cpu, unsigned which, uint32_t idx,
		   unsigned order, unsigned mt, int tail, unsigned path)
{
	struct per_cpu_pages *pcp = &z->pageset[cpu].pcp[which];
	struct blab_list *l = &pcp->lists[_blab_pcp_list_index(z, mt, order)];

	pcp_link(z, pcp, l, idx, order, mt, cpu, which, tail);
	EMIT(z, BLAB_EVC_STATE, BLAB_EV_PCP_ADD, idx_to_pfn(z, idx), order, cpu, mt, path,
	     (tail ? BLAB_EVF_TAIL : 0) | (which ? BLAB_EVF_COLD : 0), 0, 0);
}

void _blab_pcp_del(struct blab_zone *z, unsigned cpu, unsigned which, uint32_t idx, unsigned path)
{
	struct per_cpu_pages *pcp = &z->pageset[cpu].pcp[which];
	struct page *p = &z->mem_map[idx];
	unsigned order = p->order, mt = p->mt;

	pcp_unlink(z, pcp, &pcp->lists[_blab_pcp_list_index(z, mt, order)], idx);
	EMIT(z, BLAB_EVC_STATE, BLAB_EV_PCP_DEL, idx_to_pfn(z, idx), order, cpu, mt, path,
	     which ? BLAB_EVF_COLD : 0, 0, 0);
}

/* 2.6.24/25 refill: at the head for the first block, then each after the previous one */
static void pcp_add_after(struct blab_zone *z, unsigned cpu, unsigned which, uint32_t idx,
			  unsigned order, unsigned mt, uint32_t prev)
{
	struct per_cpu_pages *pcp = &z->pageset[cpu].pcp[which];
	struct blab_list *l = &pcp->lists[_blab_pcp_list_index(z, mt, order)];
	struct page *p = &z->mem_map[idx];

	if (prev == NIL) {
		_blab_pcp_add(z, cpu, which, idx, order, mt, 0, BLAB_PATH_RMQUEUE_BULK);
		return;
	}
	p->flags = PG_pcp | (which ? PG_cold : 0);
	p->order = (uint8_t)order;
	p->mt = (uint8_t)mt;
	p->cpu = (uint16_t)cpu;
	page_list_add_after(z, l, prev, idx);
	pcp->count += 1u << order;
	pcp_pages_add(z, (int32_t)(1u << order));
	EMIT(z, BLAB_EVC_STATE, BLAB_EV_PCP_ADD, idx_to_pfn(z, idx), order, cpu, mt,
	     BLAB_PATH_RMQUEUE_BULK, BLAB_EVF_AFTER | (which ? BLAB_EVF_COLD : 0), prev, 0);
}

/*
 * The page an allocation would take from cpu's list, or NIL. Per-migratetype lists: the
 * head (the tail for a cold request, <= 4.14). One shared list (2.6.24/25): the first page
 * of the wanted migratetype, searching from the cold end for a cold request. Every page
 * looked at is touched.
 */
uint32_t _blab_pcp_peek(struct blab_zone *z, unsigned cpu, unsigned which, unsigned order,
			unsigned mt, int cold)
{
	struct per_cpu_pages *pcp = &z->pageset[cpu].pcp[which];
	struct blab_list *l = &pcp->lists[_blab_pcp_list_index(z, mt, order)];
	uint32_t idx;

	if (z->s.pcp == BLAB_PCP_HOTCOLD || z->s.pcp_per_mt)
		return cold ? l->tail : l->head;
	for (idx = cold ? l->tail : l->head; idx != NIL;) {
		struct page *p = &z->mem_map[idx];
		mach_touch_page(&z->machine, cpu, idx_to_pfn(z, idx), 0, BLAB_PATH_ALLOC_FAST);
		if (p->mt == mt)
			return idx;
		idx = cold ? p->prev : p->next;
	}
	return NIL;
}

/*
 * Refill cpu's list with up to `count` blocks of `order` under one zone->lock hold (the
 * caller holds it). The blocks keep the order they were taken in (ascending pfns after a
 * split), the first one nearest the head, so it is handed out first. Per-migratetype and
 * hot/cold lists are empty when refilled, so that is an append; the 2.6.24/25 shared list
 * may hold pages of other types, and the kernel then put the new run in front of them.
 */
uint32_t rmqueue_bulk(struct blab_zone *z, unsigned cpu, unsigned which, unsigned order,
		      uint32_t count, unsigned mt)
{
	int shared = z->s.pcp == BLAB_PCP_LIFO && !z->s.pcp_per_mt;
	uint32_t got = 0, prev = NIL;

	EMIT(z, BLAB_EVC_EXPLAIN, BLAB_EV_RMQUEUE_BULK, 0, order, cpu, mt, BLAB_PATH_RMQUEUE_BULK,
	     0, count, 0);
	for (; got < count; got++) {
		uint32_t idx;
		if (__rmqueue(z, cpu, order, mt, BLAB_PATH_RMQUEUE_BULK, &idx))
			break;
		mach_touch_page(&z->machine, cpu, idx_to_pfn(z, idx), 1, BLAB_PATH_RMQUEUE_BULK);
		if (!shared) {
			_blab_pcp_add(z, cpu, which, idx, order, mt, 1, BLAB_PATH_RMQUEUE_BULK);
		} else {
			pcp_add_after(z, cpu, which, idx, order, mt, prev);
			prev = idx;
		}
	}
	EMIT(z, BLAB_EVC_EXPLAIN, BLAB_EV_RMQUEUE_BULK, 0, order, cpu, mt, BLAB_PATH_RMQUEUE_BULK,
	     BLAB_EVF_END, count, got);
	return got;
}

/*
 * The next block free_pcppages_bulk() takes: from the tail (cold end) of the lists in turn.
 * Up to 5.17, batch_free counts the lists passed over, so fuller lists give more pages and
 * the loop does not spin around empty ones; when only one list has pages it gives all of
 * them. From 5.18 (BLAB_RR_LIST) the list the freed page went to is drained first, and each
 * list is emptied before the next.
 * Returns NIL when op->to_free is spent.
 */
uint32_t _blab_pcp_pick(struct blab_zone *z, struct blab_op *op, unsigned path)
{
	struct per_cpu_pages *pcp = &z->pageset[op->cpu].pcp[op->which];
	unsigned nlists = _blab_pcp_nr_lists(z);
	struct blab_list *l;
	uint32_t idx, nr;

	if (op->to_free == 0 || pcp->count == 0)
		return NIL;
	if (!op->have_list) {
		if (z->s.bulk_rr == BLAB_RR_LIST) {
			/* 5.18: next non-empty list, emptied before moving on */
			do {
				if (++op->pindex >= nlists)
					op->pindex = 0;
			} while (list_empty(&pcp->lists[op->pindex]));
			op->batch_free = op->to_free;
		} else {
			do {
				op->batch_free++;
				if (++op->pindex == nlists)
					op->pindex = 0;
			} while (list_empty(&pcp->lists[op->pindex]));
			if (op->batch_free == nlists)
				op->batch_free = op->to_free; /* the only list with pages: all */
		}
		op->have_list = 1;
	}
	l = &pcp->lists[op->pindex];
	idx = l->tail;
	nr = 1u << z->mem_map[idx].order;
	mach_touch_page(&z->machine, op->cpu, idx_to_pfn(z, idx), 1, path);
	_blab_pcp_del(z, op->cpu, op->which, idx, path);
	op->to_free = op->to_free > nr ? op->to_free - nr : 0;
	if (op->to_free && (--op->batch_free == 0 || list_empty(l)))
		op->have_list = 0;
	return idx;
}
