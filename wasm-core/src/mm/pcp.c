/*
 * pcp.c - per-cpu page lists (struct per_cpu_pages) in front of the buddy allocator: every
 * pcp function of mm/page_alloc.c that the tool teaches, by its kernel name.
 *
 * A cpu allocates order-0 (or, 5.14+, order <= 3) pages from its own list without
 * zone->lock (rmqueue_pcplist). When the list runs dry, rmqueue_bulk() refills `batch` pages
 * under one zone->lock hold; when a free makes `count` reach `high`
 * (free_unref_page_commit), free_pcppages_bulk() gives pages back from the cold end (the
 * tail), round-robin across the lists; drain_pages() gives them all back. Three historical
 * shapes:
 *   BLAB_PCP_HOTCOLD (2.5.45): pcp[0] hot and pcp[1] cold, each {count, low, high, batch};
 *       refill when count <= low, bulk-free before adding when count >= high.
 *   BLAB_PCP_LIFO: one list per migratetype (and order) or, pcp_per_mt = 0 (2.6.24/25), one
 *       list searched for a page of the wanted migratetype.
 *   BLAB_PCP_NONE (2.5.44): no lists at all.
 *
 * The functions that can take zone->lock are steps of a resumable op (op.c explains why): they
 * stop just before the lock (the op's state says where) and go on once the op's next step
 * holds it. The pcp hit itself is inline in pcp.h, shared with blab_alloc()/blab_free().
 */
#include "mm.h"
#include "pcp.h"

/* setup_zone_pageset(): every cpu's lists empty, with the zone's batch and high (resolved
 * into z->s from the strategy: a preset's 0 means the kernel's formula, pcp_tune.c) */
void setup_zone_pageset(struct blab_zone *z)
{
	struct blab_strategy *s = &z->s;
	struct blab_pcp_sizes sz;

	blab_pcp_sizes(s, z->managed_pages, z->wmark[WMARK_LOW], z->cpus, &sz);
	s->batch = sz.batch;
	s->high = sz.high;
	s->high_max = sz.high_max;

	for (unsigned cpu = 0; cpu < z->cpus; cpu++) {
		struct per_cpu_pageset *ps = &z->pageset[cpu];
		for (int w = 0; w < 2; w++) {
			ps->pcp[w].count = 0;
			for (int i = 0; i < NR_PCP_LISTS; i++)
				blab_list_init(&ps->pcp[w].lists[i]);
		}
		ps->pcp[0].batch = sz.batch;
		ps->pcp[0].high = sz.high;
		/* 6.7: high starts at high_min; without auto-tuning the range is just high */
		ps->pcp[0].high_min = sz.high;
		ps->pcp[0].high_max = sz.high_max ? sz.high_max : sz.high;
		ps->pcp[0].low = s->pcp == BLAB_PCP_HOTCOLD ? 2 * sz.batch : 0;
		if (s->pcp == BLAB_PCP_HOTCOLD) {
			ps->pcp[1].batch = sz.batch;
			ps->pcp[1].high = 2 * sz.batch;
			ps->pcp[1].low = 0;
		}
	}
}

/* 6.7+ moves a CPU's high (nr_pcp_alloc() on a refill, nr_pcp_high() on a free,
 * decay_pcp_high() once a second): a PCP_HIGH record with the new value and the old, so that
 * a replay can draw each list against its own high. Earlier kernels never move it. */
void pcp_high_moved(struct blab_zone *z, unsigned cpu, uint32_t old, unsigned path)
{
	uint32_t high = z->pageset[cpu].pcp[0].high;

	if (high != old)
		EMIT(z, BLAB_EVC_STATE, BLAB_EV_PCP_HIGH, 0, 0, cpu, 0, path, 0, high, old);
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
	out->high_min = pcp->high_min;
	out->high_max = pcp->high_max;
	out->alloc_factor = pcp->alloc_factor;
	out->free_count = pcp->free_count;
	return 0;
}

/* ---- a block onto and off a list, the list found from the block's (mt, order) ---- */

/* put a block on cpu's list; `which` 1 = the cold list of the 2002 pair */
void _blab_pcp_add(struct blab_zone *z, unsigned cpu, unsigned which, uint32_t idx,
		   unsigned order, unsigned mt, int tail, unsigned path)
{
	struct per_cpu_pages *pcp = &z->pageset[cpu].pcp[which];

	pcp_list_add(z, cpu, which, pcp, &pcp->lists[order_to_pindex(z, mt, order)], idx, order,
		     mt, tail, path, 0);
}

void _blab_pcp_del(struct blab_zone *z, unsigned cpu, unsigned which, uint32_t idx, unsigned path)
{
	struct per_cpu_pages *pcp = &z->pageset[cpu].pcp[which];
	const struct page *p = zone_page(z, idx);

	pcp_list_del(z, cpu, which, pcp, &pcp->lists[order_to_pindex(z, p->mt, p->order)], idx,
		     path, 0);
}

/* 2.6.24/25 refill: at the head for the first block, then each after the previous one */
static void pcp_add_after(struct blab_zone *z, unsigned cpu, unsigned which, uint32_t idx,
			  unsigned order, unsigned mt, uint32_t prev)
{
	struct per_cpu_pages *pcp = &z->pageset[cpu].pcp[which];
	struct blab_list *l = &pcp->lists[order_to_pindex(z, mt, order)];
	struct page *p = zone_page(z, idx);

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

/* ---- allocation: rmqueue_pcplist(), rmqueue_bulk() ---- */

/*
 * __rmqueue_pcplist(): take the block an allocation gets from cpu's list, or NIL.
 * Per-migratetype lists: the head (the tail for a cold request, <= 4.14). One shared list
 * (2.6.24/25): the first page of the wanted migratetype, searching from the cold end for a
 * cold request. Every page looked at is touched.
 */
static uint32_t __rmqueue_pcplist(struct blab_zone *z, unsigned cpu, unsigned which,
				  unsigned order, unsigned mt, int cold)
{
	struct per_cpu_pages *pcp = &z->pageset[cpu].pcp[which];
	struct blab_list *l = &pcp->lists[order_to_pindex(z, mt, order)];
	uint32_t idx;

	if (z->s.pcp == BLAB_PCP_HOTCOLD || z->s.pcp_per_mt) {
		idx = cold ? l->tail : l->head;
	} else {
		for (idx = cold ? l->tail : l->head; idx != NIL;) {
			struct page *p = zone_page(z, idx);
			mach_touch_page(&z->machine, cpu, idx_to_pfn(z, idx), 0, BLAB_PATH_ALLOC_FAST);
			if (p->mt == mt)
				break;
			idx = cold ? p->prev : p->next;
		}
	}
	if (idx == NIL)
		return NIL;
	mach_touch_page(&z->machine, cpu, idx_to_pfn(z, idx), 1, BLAB_PATH_ALLOC_FAST);
	pcp_list_del(z, cpu, which, pcp, l, idx, BLAB_PATH_ALLOC_FAST, 0);
	return idx;
}

static uint32_t rmqueue_bulk_clusters(struct blab_zone *z, unsigned cpu, unsigned which,
				      uint32_t count, unsigned mt);

/* Lu RFC 3/4: order-0 refills of per-migratetype lists cut clusters (docs/skipmerge.md) */
static int cluster_refill(const struct blab_zone *z, unsigned order)
{
	return z->s.clusters != BLAB_CLUSTERS_NONE && order == 0 && z->s.pcp == BLAB_PCP_LIFO &&
	       z->s.pcp_per_mt;
}

/*
 * rmqueue_bulk(): refill cpu's list with up to `count` blocks of `order` under one
 * zone->lock hold. The caller holds the lock (the op's step that resumed took it); it is
 * dropped here. The blocks keep the order they were taken in (ascending pfns after a
 * split; descending on the 2002 presets, whose expand() hands out a block's top first),
 * the first one nearest the head, so it is handed out first. Per-migratetype and
 * hot/cold lists are empty when refilled, so that is an append; the 2.6.24/25 shared list
 * may hold pages of other types, and the kernel then put the new run in front of them.
 */
static uint32_t rmqueue_bulk(struct blab_zone *z, unsigned cpu, unsigned which, unsigned order,
			     uint32_t count, unsigned mt)
{
	int shared = z->s.pcp == BLAB_PCP_LIFO && !z->s.pcp_per_mt;
	uint32_t got = 0, prev = NIL;

	z->pageset[cpu].refills++;
	if (cluster_refill(z, order))
		return rmqueue_bulk_clusters(z, cpu, which, count, mt);
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
	mach_unlock(&z->machine, cpu, BLAB_LOCK_ZONE);
	if (z->hist)
		blab_hist_add(z->hist, BLAB_HIST_REFILL, cpu, got);
	return got;
}

/*
 * rmqueue_bulk() with clusters (Lu RFC 3/4). Under the lock: cut up to `count` pages off
 * the head of the order-0 list in one list_cut_position() (the lines written: the first
 * page, the last page cut, the page after it), fix nr_free; if the list had fewer pages,
 * take the rest the old way (__rmqueue, touching each). After unlocking: clear PageBuddy on
 * each cut page and put it on the pcp list, touching each struct page outside the lock.
 * The cluster bookkeeping itself (struct cluster {tail, nr}) is not stored: walking our
 * index-linked list to the cut point stands for reading cluster->tail, and is charged as
 * list work, not as page touches. Returns the pages put on the list.
 */
static uint32_t rmqueue_bulk_clusters(struct blab_zone *z, unsigned cpu, unsigned which,
				      uint32_t count, unsigned mt)
{
	struct blab_list *l = &z->free_area[0].free_list[mt];
	uint32_t first = l->head, last = NIL, n = 0, idx, after;
	uint32_t rest_head = NIL, rest_tail = NIL, got, skipped = 0;

	EMIT(z, BLAB_EVC_EXPLAIN, BLAB_EV_RMQUEUE_BULK, 0, 0, cpu, mt, BLAB_PATH_RMQUEUE_BULK, 0,
	     count, 0);
	/* Host bookkeeping, not a modelled touch: the cut pages stop being PageBuddy for
	 * page_is_buddy() now, under the lock (the real machine's threads read that byte under
	 * zone->lock only); their flags are cleared after unlock as the RFC does. The
	 * merge-skipped count is zone state that __free_one_page() and compaction change under
	 * zone->lock too, so it is settled here, before the unlock: decremented after it, two
	 * real threads would race on it. */
	for (idx = first; idx != NIL && n < count; idx = zone_page(z, idx)->next) {
		zone_page(z, idx)->buddy = 0;
		skipped += (zone_page(z, idx)->flags & PG_merge_skipped) != 0;
		last = idx;
		n++;
	}
	if (n) {
		after = zone_page(z, last)->next;
		mach_touch_page(&z->machine, cpu, idx_to_pfn(z, first), 1, BLAB_PATH_RMQUEUE_BULK);
		mach_touch_page(&z->machine, cpu, idx_to_pfn(z, last), 1, BLAB_PATH_RMQUEUE_BULK);
		if (after != NIL) {
			mach_touch_page(&z->machine, cpu, idx_to_pfn(z, after), 1,
					BLAB_PATH_RMQUEUE_BULK);
			zone_page(z, after)->prev = NIL;
			l->head = after;
		} else {
			l->head = l->tail = NIL;
		}
		zone_page(z, last)->next = NIL;
		mach_work(&z->machine, cpu, BLAB_COST_LIST_OP);
		z->free_area[0].nr_free -= n;
		z->free_pages -= n;
		z->merge_skipped -= skipped;
		EMIT(z, BLAB_EVC_EXPLAIN, BLAB_EV_RMQUEUE_CLUSTER, idx_to_pfn(z, first), 0, cpu, mt,
		     BLAB_PATH_RMQUEUE_BULK, 0, n, 0);
	}
	/* the list ran short: split higher orders as rmqueue_bulk() always did */
	for (got = n; got < count; got++) {
		if (__rmqueue(z, cpu, 0, mt, BLAB_PATH_RMQUEUE_BULK, &idx))
			break;
		mach_touch_page(&z->machine, cpu, idx_to_pfn(z, idx), 1, BLAB_PATH_RMQUEUE_BULK);
		zone_page(z, idx)->flags = PG_picked; /* held on a local list until unlock */
		zone_page(z, idx)->next = NIL;
		zone_page(z, idx)->prev = rest_tail;
		if (rest_tail != NIL)
			zone_page(z, rest_tail)->next = idx;
		else
			rest_head = idx;
		rest_tail = idx;
	}
	mach_unlock(&z->machine, cpu, BLAB_LOCK_ZONE);

	/* outside the lock: each cut page leaves the buddy allocator and joins the pcp list */
	for (idx = n ? first : NIL; idx != NIL;) {
		struct page *p = zone_page(z, idx);
		uint32_t next = p->next;
		mach_touch_page(&z->machine, cpu, idx_to_pfn(z, idx), 1, BLAB_PATH_RMQUEUE_BULK);
		p->flags = 0;
		EMIT(z, BLAB_EVC_STATE, BLAB_EV_BUDDY_DEL, idx_to_pfn(z, idx), 0, cpu, p->mt,
		     BLAB_PATH_RMQUEUE_BULK, 0, 0, 0);
		_blab_pcp_add(z, cpu, which, idx, 0, mt, 1, BLAB_PATH_RMQUEUE_BULK);
		idx = next;
	}
	for (idx = rest_head; idx != NIL;) {
		uint32_t next = zone_page(z, idx)->next;
		zone_page(z, idx)->flags = 0;
		_blab_pcp_add(z, cpu, which, idx, 0, mt, 1, BLAB_PATH_RMQUEUE_BULK);
		idx = next;
	}
	EMIT(z, BLAB_EVC_EXPLAIN, BLAB_EV_RMQUEUE_BULK, 0, 0, cpu, mt, BLAB_PATH_RMQUEUE_BULK,
	     BLAB_EVF_END, count, got);
	if (z->hist)
		blab_hist_add(z->hist, BLAB_HIST_REFILL, cpu, got);
	return got;
}

/* ---- pcp->lock (6.0+, 4b23a68f9536): held by an op from its trylock to its end ---- */

/* spin_trylock() of the target's pcp->lock (a CPU's own, but for remote drains): 1 held */
int pcp_trylock(struct blab_zone *z, struct blab_op *op)
{
	if (!mach_trylock(&z->machine, op->cpu, MACH_LOCK_PCP + op->target))
		return 0;
	op->pcp_locked = 1;
	return 1;
}

void pcp_unlock(struct blab_zone *z, struct blab_op *op)
{
	if (!op->pcp_locked)
		return;
	op->pcp_locked = 0;
	mach_unlock(&z->machine, op->cpu, MACH_LOCK_PCP + op->target);
}

/*
 * rmqueue_pcplist(): an allocation of op->order from op->cpu's pcp list; the block taken off
 * it, or NIL. First step (op->state S_START): the list's block if it has one; an empty list
 * (or, 2002, one at `low`) sets op->state to S_REFILL, which the op stops before, since a
 * refill takes zone->lock. Second step (S_REFILL, the lock held): rmqueue_bulk() refills
 * nr_pcp_alloc() blocks (dropping the lock) and the block comes off the fuller list.
 * 6.0+: the list is used only if pcp->lock could be taken (a trylock, held to the op's
 * end); if not, the op goes to the buddy for this one block (S_RMQUEUE, rmqueue_buddy()).
 */
uint32_t rmqueue_pcplist(struct blab_zone *z, struct blab_op *op)
{
	int cold = (op->gfp & BLAB_GFP_COLD) != 0;
	unsigned which = z->s.pcp == BLAB_PCP_HOTCOLD && cold ? 1 : 0;
	struct per_cpu_pages *pcp = &z->pageset[op->cpu].pcp[which];
	int cold_end = z->s.pcp == BLAB_PCP_LIFO && cold;
	uint32_t idx;

	if (op->state == S_REFILL) {
		uint32_t high = pcp->high, count = nr_pcp_alloc(z, pcp, op->order);
		pcp_high_moved(z, op->cpu, high, BLAB_PATH_RMQUEUE_BULK);
		rmqueue_bulk(z, op->cpu, which, op->order, count, op->mt);
		lat_call_end(z, op, BLAB_LAT_RMQUEUE_BULK);
		return __rmqueue_pcplist(z, op->cpu, which, op->order, op->mt, cold_end);
	}
	if (z->s.pcp_lock && !pcp_trylock(z, op)) {
		op->state = S_RMQUEUE;
		return NIL;
	}
	if (z->s.pcp == BLAB_PCP_HOTCOLD) {
		if (pcp->count > pcp->low) {
			idx = __rmqueue_pcplist(z, op->cpu, which, op->order, op->mt, cold_end);
			if (idx != NIL)
				return idx;
		}
	} else {
		/* an allocation: free less next time */
		if (z->s.free_factor == BLAB_FREE_COUNT)
			pcp->free_count >>= 1;
		else
			pcp->free_factor >>= 1;
		idx = __rmqueue_pcplist(z, op->cpu, which, op->order, op->mt, cold_end);
		if (idx != NIL)
			return idx;
	}
	op->state = S_REFILL;
	return NIL;
}

/* ---- freeing: free_unref_page_commit(), free_pcppages_bulk(), drain_pages() ---- */

static void free_pcppages_bulk_start(struct blab_zone *z, struct blab_op *op, unsigned which,
				     uint32_t count, unsigned first_list, unsigned path);

/* the freed block goes on op->cpu's list: the head (hot), or the tail for a cold LIFO free */
static void free_to_pcp(struct blab_zone *z, const struct blab_op *op)
{
	int cold = (op->gfp & BLAB_GFP_COLD) != 0;
	unsigned which = z->s.pcp == BLAB_PCP_HOTCOLD && cold ? 1 : 0;

	_blab_pcp_add(z, op->cpu, which, pfn_to_idx(z, op->pfn), op->order, op->mt,
		      z->s.pcp == BLAB_PCP_LIFO && cold, BLAB_PATH_FREE_FAST);
}

/*
 * free_unref_page_commit(): op's block (prepared by free_pages_prepare) goes on op->cpu's
 * list; 1 when that makes a bulk free due (started: free_pcppages_bulk() goes on with the
 * op), 0 when the free is done. 2.5.45 made room first: a full list is bulk-freed before
 * the block goes on it (after the bulk free, op->add_after). 5.14+ asks pcp_tune.c how
 * high the list may go and how much to drain; 6.7 first halves alloc_factor (a free: the
 * next refill smaller) and counts the page in free_count.
 */
int free_unref_page_commit(struct blab_zone *z, struct blab_op *op)
{
	struct per_cpu_pages *pcp;
	uint32_t high, old_high;
	int free_high;

	if (z->s.pcp == BLAB_PCP_HOTCOLD) {
		unsigned which = (op->gfp & BLAB_GFP_COLD) ? 1 : 0;
		uint32_t idx = pfn_to_idx(z, op->pfn);
		pcp = &z->pageset[op->cpu].pcp[which];
		if (pcp->count >= pcp->high && pcp->count) {
			zone_page(z, idx)->flags = PG_picked; /* in flight until there is room */
			zone_page(z, idx)->order = op->order;
			op->add_after = 1;
			free_pcppages_bulk_start(z, op, which, pcp->batch, 0, BLAB_PATH_FREE_FAST);
			return 1;
		}
		free_to_pcp(z, op);
		return 0;
	}
	pcp = &z->pageset[op->cpu].pcp[0];
	pcp->alloc_factor >>= 1;
	free_to_pcp(z, op);
	free_high = pcp_free_high(z, pcp, op->order);
	if (z->s.free_factor == BLAB_FREE_COUNT &&
	    pcp->free_count < pcp->batch << z->s.pcp_batch_scale_max)
		pcp->free_count += 1u << op->order;
	old_high = pcp->high;
	high = nr_pcp_high(z, pcp, free_high);
	pcp_high_moved(z, op->cpu, old_high, BLAB_PATH_FREE_FAST);
	if (pcp->count >= high) {
		op->free_high = (uint8_t)free_high;
		free_pcppages_bulk_start(z, op, 0, nr_pcp_free(z, pcp, high, free_high),
					 order_to_pindex(z, op->mt, op->order), BLAB_PATH_FREE_FAST);
		return 1;
	}
	return 0;
}

/* 6.19 (fc4b909c368f): a free's drain goes in chunks of at most batch pages per zone->lock */
static int bulk_chunked(const struct blab_zone *z, const struct blab_op *op)
{
	return z->s.bulk_chunk && op->kind == BLAB_OP_FREE;
}

/* A bulk free of `count` pages of op->target's list set `which` starts (op->state
 * S_BULK_BEGIN); first_list: the list to drain first (5.18); the batch_free round-robin
 * starts after 0 */
static void free_pcppages_bulk_start(struct blab_zone *z, struct blab_op *op, unsigned which,
				     uint32_t count, unsigned first_list, unsigned path)
{
	struct per_cpu_pages *pcp = &z->pageset[op->target].pcp[which];
	unsigned nlists = pcp_nr_lists(z);

	op->which = (uint8_t)which;
	op->to_free = count < pcp->count ? count : pcp->count;
	if (z->s.bulk_rr == BLAB_RR_LIST)
		op->pindex = (uint8_t)((first_list + nlists - 1) % nlists);
	else
		op->pindex = 0;
	op->batch_free = 0;
	op->have_list = 0;
	op->prefetch_nr = 0;
	op->picked_head = NIL;
	op->picked_tail = NIL;
	op->bulk_asked = op->to_free;
	op->chunk_left = UINT32_MAX;
	if (bulk_chunked(z, op))
		op->chunk_left = op->to_free < pcp->batch ? op->to_free : pcp->batch;
	op->state = S_BULK_BEGIN;
	lat_call_begin(z, op);
	if (path != BLAB_PATH_DRAIN)
		z->pageset[op->target].bulk_frees++;
	EMIT(z, BLAB_EVC_EXPLAIN, BLAB_EV_PCP_DRAIN, 0, 0, op->target, 0, path, 0, op->to_free,
	     pcp->count);
}

/*
 * The next block free_pcppages_bulk() takes: from the tail (cold end) of the lists in turn.
 * Up to 5.17, batch_free counts the lists passed over, so fuller lists give more pages and
 * the loop does not spin around empty ones; when only one list has pages it gives all of
 * them. From 5.18 (BLAB_RR_LIST) the list the freed page went to is drained first, and each
 * list is emptied before the next. Returns NIL when op->to_free is spent.
 */
static uint32_t bulk_next(struct blab_zone *z, struct blab_op *op, unsigned path)
{
	struct per_cpu_pages *pcp = &z->pageset[op->target].pcp[op->which];
	unsigned nlists = pcp_nr_lists(z);
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
	nr = 1u << zone_page(z, idx)->order;
	mach_touch_page(&z->machine, op->cpu, idx_to_pfn(z, idx), 1, path);
	pcp_list_del(z, op->target, op->which, pcp, l, idx, path, 0);
	op->to_free = op->to_free > nr ? op->to_free - nr : 0;
	op->chunk_left = op->chunk_left > nr ? op->chunk_left - nr : 0;
	if (op->to_free && (--op->batch_free == 0 || list_empty(l)))
		op->have_list = 0;
	return idx;
}

static void prefetch_buddy(struct blab_zone *z, struct blab_op *op, uint32_t idx, unsigned path)
{
	uint64_t pfn = idx_to_pfn(z, idx);
	uint64_t buddy_pfn = pfn ^ (1ull << zone_page(z, idx)->order);

	if (can_skip_merge(z, 0))
		return; /* Lu RFC 2/4: no merge to come, so no buddy to prefetch */
	if (op->prefetch_nr++ >= z->pageset[op->target].pcp[op->which].batch)
		return; /* 97334162e4d7: at most batch prefetches, bounding the work */
	if (buddy_pfn >= z->start_pfn && buddy_pfn - z->start_pfn < z->pages)
		mach_prefetch(&z->machine, op->cpu, page_vaddr(buddy_pfn), path);
}

/*
 * free_pcppages_bulk(): give the pages free_pcppages_bulk_start() counted back to the buddy
 * lists, in the kernel's shapes of the years:
 *   <= 4.16, and 2002    one pass under zone->lock: pick a page, merge it, next
 *   4.17 (0a5f4e5b4562)  two passes: pick onto a local list without the lock (prefetching
 *                        each buddy, 97334162e4d7), then merge them all under it
 *   5.18 (8b10b465d0e1)  one pass again, the lock taken first (prefetching under it, until
 *                        2a791f4412cb took the prefetch out)
 * Each call is one step of the op: at S_BULK_BEGIN it picks (two-pass) and returns
 * BLAB_STEP_LOCK; called again with zone->lock held it merges, drops the lock, and returns
 * BLAB_STEP_DONE with op->state S_AFTER_BULK. Picked pages wait on the op's own list,
 * flagged PG_picked, exactly as 4.17 keeps them on a local list between the two passes.
 */
int free_pcppages_bulk(struct blab_zone *z, struct blab_op *op)
{
	unsigned mode = z->s.pcp == BLAB_PCP_HOTCOLD ? BLAB_BULK_ONE_PASS : z->s.bulk_free;
	uint32_t idx;

	switch (op->state) {
	case S_BULK_BEGIN:
		if (mode == BLAB_BULK_TWO_PASS || mode == BLAB_BULK_TWO_PASS_PREFETCH) {
			while ((idx = bulk_next(z, op, BLAB_PATH_BULK_PICK)) != NIL) {
				struct page *p = zone_page(z, idx);
				p->flags = PG_picked;
				p->next = NIL;
				p->prev = op->picked_tail;
				if (op->picked_tail != NIL)
					zone_page(z, op->picked_tail)->next = idx;
				else
					op->picked_head = idx;
				op->picked_tail = idx;
				/* list_add_tail() onto the local list: the list work the single
				 * pass of 8b10b465d0e1 saves ("the list manipulations have cost") */
				mach_work(&z->machine, op->cpu, BLAB_COST_LIST_OP);
				if (mode == BLAB_BULK_TWO_PASS_PREFETCH)
					prefetch_buddy(z, op, idx, BLAB_PATH_BULK_PICK);
			}
			op->state = S_BULK_MERGE;
		} else {
			op->state = S_BULK_LOCKED;
		}
		op->lock = BLAB_LOCK_ZONE;
		return BLAB_STEP_LOCK;
	case S_BULK_LOCKED:
		/* select and merge in one pass, zone->lock held throughout (6.19: a chunk) */
		while (op->chunk_left && (idx = bulk_next(z, op, BLAB_PATH_BULK_MERGE)) != NIL) {
			struct page *p = zone_page(z, idx);
			unsigned order = p->order, mt = p->mt;
			if (mode == BLAB_BULK_SINGLE_PASS_PREFETCH)
				prefetch_buddy(z, op, idx, BLAB_PATH_BULK_MERGE);
			p->flags = 0;
			__free_one_page(z, op->cpu, idx_to_pfn(z, idx), order, mt,
					BLAB_PATH_BULK_MERGE);
		}
		if (bulk_chunked(z, op) && op->to_free && z->pageset[op->target].pcp[0].count) {
			/* 6.19: zone->lock and pcp->lock dropped, pcp->lock tried again; if it is
			 * busy the rest stays on the list */
			mach_unlock(&z->machine, op->cpu, BLAB_LOCK_ZONE);
			lat_call_end(z, op, BLAB_LAT_FREE_PCPPAGES_BULK);
			pcp_unlock(z, op);
			if (!pcp_trylock(z, op))
				goto unlocked;
			lat_call_begin(z, op); /* the next chunk is the next call */
			op->chunk_left = op->to_free < z->pageset[op->target].pcp[0].batch
						 ? op->to_free
						 : z->pageset[op->target].pcp[0].batch;
			op->lock = BLAB_LOCK_ZONE;
			return BLAB_STEP_LOCK;
		}
		break;
	case S_BULK_MERGE:
		/* the second pass: merge the picked pages under zone->lock */
		for (idx = op->picked_head; idx != NIL;) {
			struct page *p = zone_page(z, idx);
			uint32_t next = p->next;
			unsigned order = p->order, mt = p->mt;
			p->flags = 0;
			p->next = NIL;
			p->prev = NIL;
			__free_one_page(z, op->cpu, idx_to_pfn(z, idx), order, mt,
					BLAB_PATH_BULK_MERGE);
			idx = next;
		}
		op->picked_head = op->picked_tail = NIL;
		break;
	default:
		return BLAB_EINVAL;
	}
	z->cluster_bulk_paid = 0; /* Lu RFC 4/4: the next bulk free keeps clusters up again */
	mach_unlock(&z->machine, op->cpu, BLAB_LOCK_ZONE);
	lat_call_end(z, op, BLAB_LAT_FREE_PCPPAGES_BULK);
unlocked:
	EMIT(z, BLAB_EVC_EXPLAIN, BLAB_EV_PCP_DRAIN, 0, 0, op->target, 0, BLAB_PATH_BULK_MERGE,
	     BLAB_EVF_END, op->bulk_asked, z->pageset[op->target].pcp[op->which].count);
	if (z->hist)
		blab_hist_add(z->hist, BLAB_HIST_DRAIN, op->target, op->bulk_asked - op->to_free);
	op->state = S_AFTER_BULK;
	if (op->add_after) {
		/* 2.5.45: there is room now; the freed block goes on the list */
		op->add_after = 0;
		zone_page(z, pfn_to_idx(z, op->pfn))->flags = 0;
		free_to_pcp(z, op);
	}
	return BLAB_STEP_DONE;
}

/* drain_pages(): op->target's lists (its own CPU's, or another's for a remote drain), one
 * set after the other. 1 when a bulk free of the next set that holds pages started; 0 when
 * none is left. 6.0+: the op holds the target's pcp->lock (op.c took it). A set goes back
 * whole in one free_pcppages_bulk(), until 6.10's drain_pages_zone() (55f77df7d715, "mm:
 * page_alloc: control latency caused by zone PCP draining") bounded each call to
 * batch << CONFIG_PCP_BATCH_SCALE_MAX pages (2,016 with batch 63 and the Kconfig's default 5:
 * z->s.pcp_batch_scale_max), pcp->lock dropped and
 * taken again between calls (op.c's after_bulk()); a set stays current until it is empty. */
int drain_pages(struct blab_zone *z, struct blab_op *op)
{
	unsigned nsets = z->s.pcp == BLAB_PCP_HOTCOLD ? 2 : 1;

	if (z->s.pcp == BLAB_PCP_NONE)
		return 0;
	for (; op->drain_next < nsets; op->drain_next++) {
		unsigned which = op->drain_next;
		struct per_cpu_pages *pcp = &z->pageset[op->target].pcp[which];
		uint32_t count = pcp->count, chunk = pcp->batch << z->s.pcp_batch_scale_max;
		if (!count)
			continue;
		if (z->s.drain_chunk && count > chunk)
			count = chunk;
		free_pcppages_bulk_start(z, op, which, count, 0, BLAB_PATH_DRAIN);
		return 1;
	}
	return 0;
}

/* decay_pcp_high()'s drain: what the vmstat worker gives back of op->cpu's list above its
 * new high (`pages`, decided by pcp_tune.c before the pcp->lock was taken). 1 when a bulk
 * free started; 0 when nothing is left to give. */
int decay_pages(struct blab_zone *z, struct blab_op *op, uint32_t pages)
{
	if (!pages || !z->pageset[op->target].pcp[0].count)
		return 0;
	free_pcppages_bulk_start(z, op, 0, pages, 0, BLAB_PATH_DECAY);
	return 1;
}
