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
 * variant really touches. This file holds the free side (2/4, and what keeping clusters up
 * costs a free: 3/4, 4/4); the cluster cut is rmqueue_bulk()'s (pcp.c), the merging back
 * compaction's (compaction.c). docs/skipmerge.md has the details.
 */
#include "mm.h"

/*
 * add_to_cluster(): the new head page joins the cluster of the page it is put in front of,
 * which means reading that neighbour's struct page (its cluster) - a line the merge-skipping
 * free would otherwise never touch. Patch 4/4 does this once per free_pcppages_bulk().
 */
static void cluster_free_cost(struct blab_zone *z, unsigned cpu, unsigned mt, unsigned path)
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
	struct page *page = zone_page(z, idx);
	struct free_area *area = &z->free_area[0];

	cluster_free_cost(z, cpu, mt, path);
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

int blab_merge_skipped(const struct blab_zone *z, uint32_t *out)
{
	if (!z || !out)
		return BLAB_EINVAL;
	*out = z->merge_skipped;
	return 0;
}
