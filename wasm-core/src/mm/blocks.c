/*
 * blocks.c - a zone's memory read back block by block, and a free list in its order.
 *
 * What a problem posed on a zone must state for its answers to follow (src/exercise/), and
 * what a test compares after replaying an op script: which blocks are free and on which
 * list, in which order __rmqueue_smallest() would take them (the head first), which are
 * handed out and with which order, which sit on a CPU's pcp list. Readers only: nothing
 * here changes the zone.
 */
#include "mm.h"

int blab_zone_blocks(const struct blab_zone *z, struct blab_block *out, uint32_t max, uint32_t *n)
{
	uint32_t count = 0, i = 0;

	if (!z || !n || (max && !out))
		return BLAB_EINVAL;
	if (z->machine.kind == BLAB_MACHINE_REAL)
		return BLAB_EINVAL; /* its threads move pages without the lock (docs/real.md) */
	while (i < z->pages) {
		const struct page *p = zone_page(z, i);
		struct blab_block b = {idx_to_pfn(z, i), p->order, 0, p->mt, BLAB_CPU_NONE};

		if (p->buddy) {
			b.what = BLAB_BLOCK_FREE;
			b.order = (uint8_t)(p->buddy - 1);
		} else if (p->flags & PG_pcp) {
			b.what = BLAB_BLOCK_PCP;
			b.cpu = p->cpu;
		} else if (p->flags & PG_alloc) {
			b.what = BLAB_BLOCK_ALLOC;
		} else {
			/* a page an op holds in flight: not a state a reader is asked about */
			return BLAB_EBUSY;
		}
		if (count < max)
			out[count] = b;
		count++;
		i += 1u << b.order;
	}
	*n = count;
	return count > max ? BLAB_ELIMIT : 0;
}

int blab_free_list(const struct blab_zone *z, unsigned order, unsigned mt, uint64_t *pfns,
		   uint32_t max, uint32_t *n)
{
	uint32_t count = 0;

	if (!z || !n || (max && !pfns))
		return BLAB_EINVAL;
	if (order > z->top_order)
		return BLAB_EORDER;
	if (mt >= BLAB_MT_TYPES)
		return BLAB_EMT;
	if (z->machine.kind == BLAB_MACHINE_REAL)
		return BLAB_EINVAL;
	for (uint32_t idx = z->free_area[order].free_list[mt].head; idx != NIL;
	     idx = zone_page(z, idx)->next) {
		if (count < max)
			pfns[count] = idx_to_pfn(z, idx);
		if (++count > z->pages)
			return BLAB_ECHECK; /* a cycle: blab_check() says where */
	}
	*n = count;
	return count > max ? BLAB_ELIMIT : 0;
}
