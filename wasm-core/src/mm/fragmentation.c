/*
 * fragmentation.c - the two fragmentation measures of mm/vmstat.c, from nr_free alone.
 *
 * For a request of `order`, with F free pages in B free blocks of which S blocks of size
 * 2^order could be carved from the blocks of order >= `order`:
 *
 *   unusable free space index = (F - S * 2^order) / F      (/sys/kernel/debug/extfrag/unusable_index)
 *       the share of free memory too fragmented to serve the request; 1 when nothing is free.
 *   fragmentation index       = 1 - (1 + F / 2^order) / B  (/sys/kernel/debug/extfrag/extfrag_index)
 *       only meaningful when the request would fail (S = 0): near 0 the failure is for lack of
 *       memory, near 1 for lack of contiguity; -1 when a suitable block exists.
 *
 * Both are integers in thousandths with the kernel's rounding (integer division), so the
 * figures match what a kernel would print for the same nr_free.
 */
#include "mm.h"

int blab_frag_index(const uint32_t *nr_free, unsigned top_order, unsigned order,
		    int32_t *unusable, int32_t *extfrag)
{
	uint64_t free_pages = 0, blocks_total = 0, blocks_suitable = 0;

	if (!nr_free || !unusable || !extfrag)
		return BLAB_EINVAL;
	if (top_order > BLAB_MAX_ORDER_LIMIT || order > top_order)
		return BLAB_EORDER;
	for (unsigned o = 0; o <= top_order; o++) {
		uint64_t n = nr_free[o];
		blocks_total += n;
		free_pages += n << o;
		if (o >= order)
			blocks_suitable += n << (o - order);
	}
	/* unusable_free_index() */
	if (free_pages == 0)
		*unusable = 1000;
	else
		*unusable = (int32_t)((free_pages - (blocks_suitable << order)) * 1000u / free_pages);
	/* __fragmentation_index() */
	if (blocks_total == 0)
		*extfrag = 0;
	else if (blocks_suitable)
		*extfrag = -1000;
	else
		*extfrag = (int32_t)(1000 - (1000 + free_pages * 1000u / (1ull << order)) /
					    blocks_total);
	return 0;
}

int blab_zone_frag_index(const struct blab_zone *z, unsigned order, int32_t *unusable,
			 int32_t *extfrag)
{
	uint32_t nr_free[BLAB_MAX_ORDER_LIMIT + 1];

	if (!z)
		return BLAB_EINVAL;
	for (unsigned o = 0; o <= z->top_order; o++)
		nr_free[o] = z->free_area[o].nr_free;
	return blab_frag_index(nr_free, z->top_order, order, unusable, extfrag);
}
