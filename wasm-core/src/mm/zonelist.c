/*
 * zonelist.c - the watermark check and the zonelist walk of get_page_from_freelist().
 *
 * An allocation may use its highest zone (gfp_zone(): Normal for GFP_KERNEL, DMA32 for
 * GFP_DMA32, DMA for GFP_DMA) and every zone below it, and tries them highest first. A zone
 * serves it only when __zone_watermark_ok() passes: the zone keeps more than its low
 * watermark free, plus lowmem_reserve[highest_zoneidx], the pages a lower zone holds back
 * from requests that could have been served higher up (so DMA memory is not used up by
 * allocations that never needed it). The check itself is mm.h's, the allocator's own.
 */
#include <string.h>
#include "mm.h"

int blab_zone_watermark_ok(const struct blab_zone *z, unsigned order, unsigned mark,
			   unsigned highest_zoneidx, struct blab_wmark_check *out)
{
	uint32_t pages;

	if (!z || !out || mark > BLAB_WMARK_HIGH || highest_zoneidx >= BLAB_NR_ZONE_TYPES)
		return BLAB_EINVAL;
	if (order > z->top_order)
		return BLAB_EORDER;
	pages = z->wmark[mark];
	memset(out, 0, sizeof(*out));
	out->free_pages = z->free_pages;
	out->mark = pages;
	out->reserve = z->lowmem_reserve[highest_zoneidx];
	out->pages_ok = (uint8_t)wmark_pages_ok(z, order, pages, highest_zoneidx);
	out->block_ok = (uint8_t)(order == 0 || wmark_block_ok(z, order));
	out->ok = (uint8_t)__zone_watermark_ok(z, order, pages, highest_zoneidx);
	return 0;
}

int blab_zonelist_alloc(struct blab_zone *const *zones, unsigned n, unsigned highest_zoneidx,
			unsigned cpu, unsigned order, unsigned mt, struct blab_zonelist_walk *walk)
{
	if (!zones || !walk || n == 0 || n > BLAB_NR_ZONE_TYPES ||
	    highest_zoneidx >= BLAB_NR_ZONE_TYPES)
		return BLAB_EINVAL;
	memset(walk, 0, sizeof(*walk));
	walk->served = -1;
	for (unsigned i = 0; i < n; i++) {
		if (!zones[i] || (i && zones[i]->zone_idx <= zones[i - 1]->zone_idx))
			return BLAB_EINVAL; /* not a node blab_node_setup() made */
		if (cpu >= zones[i]->cpus)
			return BLAB_ECPU;
		if (order > zones[i]->top_order)
			return BLAB_EORDER;
	}
	if (mt >= BLAB_MT_PCPTYPES)
		return BLAB_EMT;
	for (int i = (int)n - 1; i >= 0; i--) {
		struct blab_zone *z = zones[i];
		uint64_t pfn;
		int err;

		if (z->zone_idx > highest_zoneidx)
			continue; /* above what the request may use */
		walk->checked[i] = 1;
		blab_zone_watermark_ok(z, order, BLAB_WMARK_LOW, highest_zoneidx, &walk->check[i]);
		if (!walk->check[i].ok)
			continue;
		err = blab_alloc(z, cpu, order, mt, &pfn); /* rmqueue() from this zone */
		if (err == BLAB_ENOMEM || err == BLAB_EWMARK)
			continue;
		if (err)
			return err;
		walk->served = i;
		walk->pfn = pfn;
		return 0;
	}
	return BLAB_ENOMEM;
}
