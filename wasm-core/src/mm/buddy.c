/*
 * buddy.c - the buddy allocator proper: free_area[order].free_list[migratetype].
 *
 * A free block of 2^order pages starting at pfn is "PageBuddy" with that order, on one free
 * list. Its buddy is the other half of the block one order up: buddy_pfn = pfn ^ (1 << order).
 * Freeing merges a block with its buddy for as long as the buddy is free with the same
 * order (__free_one_page); allocating takes the smallest block that is big enough and
 * splits off the unused halves (expand). Pfns are absolute, so blocks are aligned in the
 * pfn space, as in the kernel, whatever the zone's start: a buddy outside the zone never
 * merges.
 */
#include "mm.h"

/*
 * Where the model machine finds struct zone's free_area[]: laid out as in 4.x..5.x x86-64
 * without CMA (MIGRATE_TYPES = 5 list heads of 16 bytes, then nr_free: 88 bytes each), at the
 * start of the zone's node's pglist_data, which memblock puts in the direct map below the
 * zone's frames (node_pgdat_vaddr, internal.h). Every zone->lock holder reads and writes
 * these lines, so they move from CPU to CPU with the lock.
 */
#define FREE_AREA_BYTES 88u

static uint64_t free_list_vaddr(const struct blab_zone *z, unsigned order, unsigned mt)
{
	return node_pgdat_vaddr(z) + order * FREE_AREA_BYTES + mt * 16u;
}

static uint64_t nr_free_vaddr(const struct blab_zone *z, unsigned order)
{
	return node_pgdat_vaddr(z) + order * FREE_AREA_BYTES + 80u;
}

/* The byte of 2002's free_area[order].map (strategy buddy_map) that holds the bit of pfn's
 * buddy pair (index = page_idx >> (order + 1)): bootmem below the node's pglist_data, 1 MB an
 * order (an order-0 map of 4M pages is 256 KB), 16 MB a node. The model keeps no bitmap, the
 * free lists say the same; it charges the line. */
#define BUDDY_MAP_VADDR (PAGE_OFFSET + 0x70000000ull)
static uint64_t buddy_map_vaddr(const struct blab_zone *z, uint64_t pfn, unsigned order)
{
	return BUDDY_MAP_VADDR + z->node * 0x1000000ull + order * 0x100000ull +
	       (((pfn - z->start_pfn) >> (order + 1)) >> 3);
}

/* the line a list_add/list_del rewrites next to idx: a neighbour's struct page, or the list
 * head in struct zone when idx is (or becomes) the first or last entry */
static void store_neighbour(struct blab_zone *z, unsigned cpu, uint32_t nb, unsigned order,
			    unsigned mt, unsigned path)
{
	if (nb != NIL)
		mach_store_line(&z->machine, cpu, page_vaddr(idx_to_pfn(z, nb)), path);
	else
		mach_store_line(&z->machine, cpu, free_list_vaddr(z, order, mt), path);
}

void _blab_add_to_free_list(struct blab_zone *z, uint32_t idx, unsigned order, unsigned mt,
			    int tail, unsigned cpu, unsigned path)
{
	struct page *page = zone_page(z, idx);
	struct free_area *area = &z->free_area[order];

	/* list_add loads the head (the new entry's pointers depend on it) and rewrites the old
	 * first (last) entry's lru pointer; nr_free++ is a read-modify-write nothing waits
	 * for, so it is buffered like a store */
	mach_touch_line(&z->machine, cpu, free_list_vaddr(z, order, mt), 1, path);
	store_neighbour(z, cpu, tail ? area->free_list[mt].tail : area->free_list[mt].head, order,
			mt, path);
	mach_store_line(&z->machine, cpu, nr_free_vaddr(z, order), path);

	page->flags = PG_buddy;
	page->buddy = (uint8_t)(order + 1);
	page->order = (uint8_t)order;
	page->mt = (uint8_t)mt;
	page->cpu = BLAB_CPU_NONE;
	if (tail)
		page_list_add_tail(z, &area->free_list[mt], idx);
	else
		page_list_add(z, &area->free_list[mt], idx);
	area->nr_free++;
	z->free_pages += 1u << order;
	EMIT(z, BLAB_EVC_STATE, BLAB_EV_BUDDY_ADD, idx_to_pfn(z, idx), order, cpu, mt, path,
	     tail ? BLAB_EVF_TAIL : 0, 0, 0);
}

void _blab_del_from_free_list(struct blab_zone *z, uint32_t idx, unsigned cpu, unsigned path)
{
	struct page *page = zone_page(z, idx);
	unsigned order = page->order, mt = page->mt;
	struct free_area *area = &z->free_area[order];

	/* list_del rewrites both neighbours (or the head in struct zone); nr_free-- */
	store_neighbour(z, cpu, page->prev, order, mt, path);
	store_neighbour(z, cpu, page->next, order, mt, path);
	mach_store_line(&z->machine, cpu, nr_free_vaddr(z, order), path);
	page_list_del(z, &area->free_list[mt], idx);
	if (page->flags & PG_merge_skipped)
		z->merge_skipped--;
	page->flags &= ~(PG_buddy | PG_merge_skipped);
	page->buddy = 0;
	area->nr_free--;
	z->free_pages -= 1u << order;
	EMIT(z, BLAB_EVC_STATE, BLAB_EV_BUDDY_DEL, idx_to_pfn(z, idx), order, cpu, mt, path, 0, 0,
	     0);
}

static int pfn_in_zone(const struct blab_zone *z, uint64_t pfn)
{
	return pfn >= z->start_pfn && pfn - z->start_pfn < z->pages;
}

/* the buddy is free, whole, and of this order (the kernel also checks it is in our zone) */
static int page_is_buddy(const struct blab_zone *z, uint64_t buddy_pfn, unsigned order)
{
	const struct page *b;
	if (!pfn_in_zone(z, buddy_pfn))
		return 0;
	b = zone_page(z, pfn_to_idx(z, buddy_pfn));
	return b->buddy == order + 1; /* PG_buddy with this order; see struct page */
}

/*
 * After merging stopped at `order`: if the block one order up could form soon (its buddy at
 * order + 1 is free), put this block at the list tail so it is not handed out before its
 * buddy comes back. Not done for the two highest orders (they cannot merge further usefully).
 */
static int buddy_merge_likely(struct blab_zone *z, unsigned cpu, uint64_t pfn, unsigned order)
{
	uint64_t combined_pfn, higher_buddy_pfn;

	if (order + 2 > z->top_order)
		return 0;
	combined_pfn = pfn & ~(1ull << order);
	higher_buddy_pfn = combined_pfn ^ (1ull << (order + 1));
	if (!pfn_in_zone(z, higher_buddy_pfn))
		return 0;
	mach_touch_page_ahead(&z->machine, cpu, higher_buddy_pfn, BLAB_PATH_FREE_ONE_PAGE);
	return page_is_buddy(z, higher_buddy_pfn, order + 1);
}

/*
 * Give a block back to the buddy lists, merging it with its buddies as far as they are free.
 * Caller holds zone->lock. mt is the migratetype recorded for the block (pcp) or its
 * pageblock's; with no isolated pageblocks, buddies of different types merge freely.
 */
void __free_one_page(struct blab_zone *z, unsigned cpu, uint64_t pfn, unsigned order,
		     unsigned mt, unsigned path)
{
	int to_tail = 0;

	mach_touch_page(&z->machine, cpu, pfn, 1, BLAB_PATH_FREE_ONE_PAGE);
	if (can_skip_merge(z, order)) {
		/* Lu RFC 2/4: no buddy lookup, no merge (skipmerge.c) */
		_blab_free_skip_merge(z, cpu, pfn, mt, path);
		return;
	}
	while (order < z->top_order) {
		uint64_t buddy_pfn = pfn ^ (1ull << order);

		if (!pfn_in_zone(z, buddy_pfn))
			break; /* the block's other half is not ours: it can never merge */
		/* what says whether the buddy is free: 2002 __free_pages_bulk()'s
		 * __test_and_change_bit() on the order's map, later the buddy's struct page itself
		 * (pfn ^ (1 << order): an address computed, not loaded) */
		if (z->s.buddy_map)
			mach_touch_line(&z->machine, cpu, buddy_map_vaddr(z, pfn, order), 1,
					BLAB_PATH_FREE_ONE_PAGE);
		else
			mach_touch_page_ahead(&z->machine, cpu, buddy_pfn, BLAB_PATH_FREE_ONE_PAGE);
		mach_work(&z->machine, cpu, BLAB_COST_BUDDY_CALC);
		if (!page_is_buddy(z, buddy_pfn, order))
			break;
		if (z->s.buddy_map) /* 2002 reads it only to take it off its list */
			mach_touch_page_ahead(&z->machine, cpu, buddy_pfn, BLAB_PATH_FREE_ONE_PAGE);
		_blab_del_from_free_list(z, pfn_to_idx(z, buddy_pfn), cpu, BLAB_PATH_FREE_ONE_PAGE);
		EMIT(z, BLAB_EVC_EXPLAIN, BLAB_EV_MERGE, pfn, order, cpu, mt, BLAB_PATH_FREE_ONE_PAGE,
		     0, (uint32_t)(buddy_pfn - z->start_pfn), 0);
		pfn &= buddy_pfn;
		order++;
	}
	if (z->s.merge_tail)
		to_tail = buddy_merge_likely(z, cpu, pfn, order);
	(void)path;
	_blab_add_to_free_list(z, pfn_to_idx(z, pfn), order, mt, to_tail, cpu,
			       BLAB_PATH_FREE_ONE_PAGE);
}

/*
 * Split a block of order `high` down to order `low`; returns the index of the piece kept.
 * Each round one half goes on the free list of the order below (at its head) and the other
 * is cut further. Since the 2.6 rewrite that is the upper half, page[size], and the block's
 * first page is handed out. 2.4 and 2.5 listed the lower half and went on with the upper
 * (expand_top): a fresh block is handed out from its last pfn down.
 */
static uint32_t expand(struct blab_zone *z, unsigned cpu, uint32_t idx, unsigned low,
		       unsigned high, unsigned mt)
{
	uint32_t size = 1u << high;
	int top = z->s.expand_top;

	while (high > low) {
		uint32_t listed;
		high--;
		size >>= 1;
		listed = top ? idx : idx + size;
		EMIT(z, BLAB_EVC_EXPLAIN, BLAB_EV_SPLIT, idx_to_pfn(z, idx), high, cpu, mt,
		     BLAB_PATH_EXPAND, top ? BLAB_EVF_SPLIT_TOP : 0, 0, 0);
		/* set_page_order + list_add on the listed half: stores nothing waits for (2002:
		 * MARK_USED(), the pair's bit of the order's map flipped, one more) */
		mach_store_page(&z->machine, cpu, idx_to_pfn(z, listed), BLAB_PATH_EXPAND);
		if (z->s.buddy_map)
			mach_store_line(&z->machine, cpu, buddy_map_vaddr(z, idx_to_pfn(z, listed), high),
					BLAB_PATH_EXPAND);
		_blab_add_to_free_list(z, listed, high, mt, 0, cpu, BLAB_PATH_EXPAND);
		if (top)
			idx += size;
	}
	return idx;
}

/* Take the head of the smallest non-empty free list of this migratetype, order >= order. */
static int __rmqueue_smallest(struct blab_zone *z, unsigned cpu, unsigned order, unsigned mt,
			      unsigned path, uint32_t *out)
{
	for (unsigned o = order; o <= z->top_order; o++) {
		struct blab_list *l = &z->free_area[o].free_list[mt];
		uint32_t idx;

		if (list_empty(l))
			continue;
		idx = l->head;
		mach_touch_page(&z->machine, cpu, idx_to_pfn(z, idx), 1, path);
		_blab_del_from_free_list(z, idx, cpu, path);
		if (z->s.buddy_map && o < z->top_order) /* 2002 __rmqueue(): MARK_USED() */
			mach_store_line(&z->machine, cpu, buddy_map_vaddr(z, idx_to_pfn(z, idx), o), path);
		*out = expand(z, cpu, idx, order, o, mt);
		return 0;
	}
	return BLAB_ENOMEM;
}

/* which types an allocation may steal from, in order of preference (the kernel's fallbacks[]) */
static const uint8_t fallbacks[BLAB_MT_PCPTYPES][2] = {
	[BLAB_MT_UNMOVABLE] = {BLAB_MT_RECLAIMABLE, BLAB_MT_MOVABLE},
	[BLAB_MT_MOVABLE] = {BLAB_MT_RECLAIMABLE, BLAB_MT_UNMOVABLE},
	[BLAB_MT_RECLAIMABLE] = {BLAB_MT_UNMOVABLE, BLAB_MT_MOVABLE},
};

static int find_fallback(const struct blab_zone *z, unsigned order, unsigned start_mt)
{
	for (int i = 0; i < 2; i++)
		if (!list_empty(&z->free_area[order].free_list[fallbacks[start_mt][i]]))
			return fallbacks[start_mt][i];
	return -1;
}

/* can_steal_fallback(): big blocks, and unmovable/reclaimable requests, claim pageblocks */
static int can_steal_fallback(const struct blab_zone *z, unsigned order, unsigned start_mt)
{
	if (order >= z->pageblock_order)
		return 1;
	return order >= z->pageblock_order / 2u || start_mt == BLAB_MT_RECLAIMABLE ||
	       start_mt == BLAB_MT_UNMOVABLE;
}

/* move every free block of the pageblock holding idx to start_mt's lists; pages moved */
static uint32_t move_freepages_block(struct blab_zone *z, unsigned cpu, uint32_t idx,
				     unsigned start_mt)
{
	uint64_t pb_pfn = idx_to_pfn(z, idx) & ~((1ull << z->pageblock_order) - 1);
	uint64_t start = pb_pfn < z->start_pfn ? z->start_pfn : pb_pfn;
	uint64_t end = pb_pfn + (1ull << z->pageblock_order);
	uint32_t moved = 0;

	if (end > z->start_pfn + z->pages)
		end = z->start_pfn + z->pages;
	for (uint32_t i = pfn_to_idx(z, start); i < pfn_to_idx(z, end);) {
		struct page *p = zone_page(z, i);
		if (p->buddy) { /* PageBuddy: under zone->lock, never the owners' flags */
			unsigned o = p->buddy - 1u;
			if (p->mt != start_mt) {
				/* a merge-skipped page stays one (its buddy may be free too) */
				uint32_t skipped = p->flags & PG_merge_skipped;
				_blab_del_from_free_list(z, i, cpu, BLAB_PATH_FALLBACK);
				if (skipped)
					_blab_free_skip_merge(z, cpu, idx_to_pfn(z, i), start_mt,
							      BLAB_PATH_FALLBACK);
				else
					_blab_add_to_free_list(z, i, o, start_mt, 0, cpu,
							       BLAB_PATH_FALLBACK);
			}
			moved += 1u << o;
			i += 1u << o;
		} else {
			i++;
		}
	}
	return moved;
}

/*
 * Simplified __rmqueue_fallback() (4.13..5.x shape): look for the largest free block of a
 * fallback type; if the request may steal, claim it (whole pageblocks for big blocks, else
 * move the pageblock's free pages and take over the pageblock when at least half of it is
 * free), then let __rmqueue_smallest() take it from our own list. If it may not steal (a
 * small movable request), take the smallest fallback block as it is, leaving its type.
 * Simplification: "compatible" allocated pages are not counted towards the half.
 */
static int __rmqueue_fallback(struct blab_zone *z, unsigned cpu, unsigned order, unsigned start_mt,
			      uint32_t *out)
{
	int current_order, fmt = -1;
	uint32_t idx;

	for (current_order = z->top_order; current_order >= (int)order; current_order--) {
		fmt = find_fallback(z, (unsigned)current_order, start_mt);
		if (fmt >= 0)
			break;
	}
	if (fmt < 0)
		return BLAB_ENOMEM;

	if (!can_steal_fallback(z, (unsigned)current_order, start_mt)) {
		/* find_smallest: steal a single block without claiming its pageblock */
		for (current_order = (int)order; current_order <= z->top_order; current_order++) {
			fmt = find_fallback(z, (unsigned)current_order, start_mt);
			if (fmt >= 0)
				break;
		}
		idx = z->free_area[current_order].free_list[fmt].head;
		EMIT(z, BLAB_EVC_EXPLAIN, BLAB_EV_FALLBACK, idx_to_pfn(z, idx), current_order, cpu,
		     fmt, BLAB_PATH_FALLBACK, 0, start_mt, 0);
		mach_touch_page(&z->machine, cpu, idx_to_pfn(z, idx), 1, BLAB_PATH_FALLBACK);
		_blab_del_from_free_list(z, idx, cpu, BLAB_PATH_FALLBACK);
		*out = expand(z, cpu, idx, order, (unsigned)current_order, (unsigned)fmt);
		return 0;
	}

	idx = z->free_area[current_order].free_list[fmt].head;
	EMIT(z, BLAB_EVC_EXPLAIN, BLAB_EV_FALLBACK, idx_to_pfn(z, idx), current_order, cpu, fmt,
	     BLAB_PATH_FALLBACK, 0, start_mt, 0);
	mach_touch_page(&z->machine, cpu, idx_to_pfn(z, idx), 0, BLAB_PATH_FALLBACK);
	if ((unsigned)current_order >= z->pageblock_order) {
		/* the block covers whole pageblocks: they all become ours */
		uint64_t pfn = idx_to_pfn(z, idx);
		for (uint64_t p = pfn; p < pfn + (1ull << current_order);
		     p += 1ull << z->pageblock_order)
			set_pageblock_migratetype(z, p, start_mt, cpu);
		_blab_del_from_free_list(z, idx, cpu, BLAB_PATH_FALLBACK);
		_blab_add_to_free_list(z, idx, (unsigned)current_order, start_mt, 0, cpu,
				       BLAB_PATH_FALLBACK);
	} else {
		uint32_t moved = move_freepages_block(z, cpu, idx, start_mt);
		if (moved >= (1u << (z->pageblock_order - 1)) || z->pageblock_order == 0)
			set_pageblock_migratetype(z, idx_to_pfn(z, idx), start_mt, cpu);
	}
	return __rmqueue_smallest(z, cpu, order, start_mt, BLAB_PATH_FALLBACK, out);
}

int __rmqueue(struct blab_zone *z, unsigned cpu, unsigned order, unsigned mt, unsigned path,
	      uint32_t *idx)
{
	if (__rmqueue_smallest(z, cpu, order, mt, path, idx) == 0)
		return 0;
	return __rmqueue_fallback(z, cpu, order, mt, idx);
}

void _blab_mark_allocated(struct blab_zone *z, uint32_t idx, unsigned order)
{
	struct page *p = zone_page(z, idx);
	p->flags = PG_alloc;
	p->order = (uint8_t)order;
	p->cpu = BLAB_CPU_NONE;
	for (uint32_t i = 1; i < (1u << order); i++)
		zone_page(z, idx + i)->flags = PG_tail;
}

void _blab_clear_allocated(struct blab_zone *z, uint32_t idx, unsigned order)
{
	zone_page(z, idx)->flags = 0;
	for (uint32_t i = 1; i < (1u << order); i++)
		zone_page(z, idx + i)->flags = 0;
}
