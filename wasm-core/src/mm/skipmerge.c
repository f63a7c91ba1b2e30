/*
 * skipmerge.c - Aaron Lu's zone->lock RFC (v2, 2018-03-20; not merged upstream).
 *
 * Under page_fault1 on a 112-CPU Skylake most of the time under zone->lock went to cache
 * misses on struct page: merging reads every buddy's struct page, and rmqueue_bulk() writes
 * every page it takes. The RFC removes both:
 *
 *   2/4  an order-0 free does not look for its buddy at all: the page goes on the order-0
 *        free list flagged merge-skipped (PG_merge_skipped), unless the last compaction
 *        failed (then frees merge again, so high orders can recover). Compaction merges the
 *        skipped pages back (compaction.c).
 *   3/4  the order-0 free list is kept in clusters, so rmqueue_bulk() cuts a whole run of
 *        pages off the list in one list operation and clears PageBuddy on each page only
 *        after dropping zone->lock. Keeping clusters up costs a little on every free.
 *   4/4  free_pcppages_bulk() keeps the clusters up once per bulk free instead of per page.
 *
 * The model keeps the list order of the kernel and charges the struct page lines that each
 * variant really touches; the cluster bookkeeping itself (struct cluster {tail, nr}) is not
 * stored: walking our index-linked list to the cut point stands for reading cluster->tail,
 * and is charged as list work, not as page touches. docs/skipmerge.md has the details.
 */
#include "mm.h"
#include "machine/machine.h"

int _blab_skip_merge(const struct blab_zone *z, unsigned order)
{
	return z->s.skip_merge && order == 0 && !z->compact_failed && !z->compacting;
}

/*
 * add_to_cluster(): the new head page joins the cluster of the page it is put in front of,
 * which means reading that neighbour's struct page (its cluster) - a line the merge-skipping
 * free would otherwise never touch. Patch 4/4 does this once per free_pcppages_bulk().
 */
void _blab_cluster_free_cost(struct blab_zone *z, unsigned cpu, unsigned mt, unsigned path)
{
	const struct blab_list *l = &z->free_area[0].free_list[mt];

	if (z->s.clusters == BLAB_CLUSTERS_NONE)
		return;
	if (z->s.clusters == BLAB_CLUSTERS_PER_BULK && path == BLAB_PATH_BULK_MERGE &&
	    z->cluster_bulk_paid)
		return;
	if (path == BLAB_PATH_BULK_MERGE)
		z->cluster_bulk_paid = 1;
	if (l->head != NIL)
		mach_touch_page(&z->machine, cpu, idx_to_pfn(z, l->head), 0, BLAB_PATH_FREE_ONE_PAGE);
	mach_work(&z->machine, cpu, BLAB_COST_LIST_OP);
	mach_work(&z->machine, cpu, BLAB_COST_LIST_OP);
}

/*
 * The merge-skipping half of __free_one_page() (caller holds zone->lock and has touched the
 * page): no buddy is read, the page goes to the head of the order-0 list, flagged.
 */
void _blab_free_skip_merge(struct blab_zone *z, unsigned cpu, uint64_t pfn, unsigned mt,
			   unsigned path)
{
	uint32_t idx = pfn_to_idx(z, pfn);
	struct page *page = &z->mem_map[idx];
	struct free_area *area = &z->free_area[0];

	_blab_cluster_free_cost(z, cpu, mt, path);
	page->flags = PG_buddy | PG_merge_skipped;
	page->buddy = 1; /* order 0 + 1: see struct page */
	page->order = 0;
	page->mt = (uint8_t)mt;
	page->cpu = BLAB_CPU_NONE;
	page_list_add(z, &area->free_list[mt], idx);
	area->nr_free++;
	z->free_pages++;
	z->merge_skipped++;
	EMIT(z, BLAB_EVC_STATE, BLAB_EV_BUDDY_ADD, pfn, 0, cpu, mt, BLAB_PATH_FREE_ONE_PAGE,
	     BLAB_EVF_MERGE_SKIPPED, 0, 0);
}

int _blab_cluster_refill(const struct blab_zone *z, unsigned order)
{
	return z->s.clusters != BLAB_CLUSTERS_NONE && order == 0 && z->s.pcp == BLAB_PCP_LIFO &&
	       z->s.pcp_per_mt;
}

/*
 * rmqueue_bulk() with clusters (3/4). Called with zone->lock held; returns with it dropped.
 * Under the lock: cut up to `count` pages off the head of the order-0 list in one
 * list_cut_position() (the lines written: the first page, the last page cut, the page after
 * it), fix nr_free; if the list had fewer pages, take the rest the old way (__rmqueue,
 * touching each). After unlocking: clear PageBuddy on each cut page and put it on the pcp
 * list, touching each struct page outside the lock. Returns the pages put on the list.
 */
uint32_t _blab_rmqueue_cluster(struct blab_zone *z, unsigned cpu, unsigned which, uint32_t count,
			       unsigned mt)
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
	for (idx = first; idx != NIL && n < count; idx = z->mem_map[idx].next) {
		z->mem_map[idx].buddy = 0;
		skipped += (z->mem_map[idx].flags & PG_merge_skipped) != 0;
		last = idx;
		n++;
	}
	if (n) {
		after = z->mem_map[last].next;
		mach_touch_page(&z->machine, cpu, idx_to_pfn(z, first), 1, BLAB_PATH_RMQUEUE_BULK);
		mach_touch_page(&z->machine, cpu, idx_to_pfn(z, last), 1, BLAB_PATH_RMQUEUE_BULK);
		if (after != NIL) {
			mach_touch_page(&z->machine, cpu, idx_to_pfn(z, after), 1, BLAB_PATH_RMQUEUE_BULK);
			z->mem_map[after].prev = NIL;
			l->head = after;
		} else {
			l->head = l->tail = NIL;
		}
		z->mem_map[last].next = NIL;
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
		z->mem_map[idx].flags = PG_picked; /* held on a local list until unlock */
		z->mem_map[idx].next = NIL;
		z->mem_map[idx].prev = rest_tail;
		if (rest_tail != NIL)
			z->mem_map[rest_tail].next = idx;
		else
			rest_head = idx;
		rest_tail = idx;
	}
	mach_unlock(&z->machine, cpu, BLAB_LOCK_ZONE);

	/* outside the lock: each cut page leaves the buddy allocator and joins the pcp list */
	for (idx = n ? first : NIL; idx != NIL;) {
		struct page *p = &z->mem_map[idx];
		uint32_t next = p->next;
		mach_touch_page(&z->machine, cpu, idx_to_pfn(z, idx), 1, BLAB_PATH_RMQUEUE_BULK);
		p->flags = 0;
		EMIT(z, BLAB_EVC_STATE, BLAB_EV_BUDDY_DEL, idx_to_pfn(z, idx), 0, cpu, p->mt,
		     BLAB_PATH_RMQUEUE_BULK, 0, 0, 0);
		_blab_pcp_add(z, cpu, which, idx, 0, mt, 1, BLAB_PATH_RMQUEUE_BULK);
		idx = next;
	}
	for (idx = rest_head; idx != NIL;) {
		uint32_t next = z->mem_map[idx].next;
		z->mem_map[idx].flags = 0;
		_blab_pcp_add(z, cpu, which, idx, 0, mt, 1, BLAB_PATH_RMQUEUE_BULK);
		idx = next;
	}
	EMIT(z, BLAB_EVC_EXPLAIN, BLAB_EV_RMQUEUE_BULK, 0, 0, cpu, mt, BLAB_PATH_RMQUEUE_BULK,
	     BLAB_EVF_END, count, got);
	return got;
}

int blab_merge_skipped(const struct blab_zone *z, uint32_t *out)
{
	if (!z || !out)
		return BLAB_EINVAL;
	*out = z->merge_skipped;
	return 0;
}
