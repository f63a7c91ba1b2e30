/*
 * snapshot.c - a zone in the state a /proc/buddyinfo + /proc/zoneinfo snapshot describes.
 *
 * The snapshot gives counts (nr_free per order, pages on each cpu's pcp list), not places,
 * so the places follow one fixed rule (blab.h, docs/import.md "Snapshots"). The rule keeps
 * every count true to the snapshot and the zone a state the kernel could be in: a free block
 * never sits beside a free buddy of its order, which __free_one_page() would have merged.
 *
 * It is zone creation in a given state, so it lives beside zone.c and lays the zone out
 * through zone creation's layout hook (zone_layout_fn) in place of memblock's free. The op
 * scripts' `snapshot` line (script/, and through it the app's /proc import) calls it from
 * the layer above.
 */
#include "mm.h"

static uint64_t align_up(uint64_t x, uint64_t a)
{
	return (x + a - 1) & ~(a - 1);
}

/* the slot a free block of `order` takes: twice its size, its buddy half allocated */
static unsigned slot_order(unsigned order, unsigned top)
{
	return order == top ? order : order + 1;
}

int blab_snapshot_pages(const struct blab_snapshot *snap, uint64_t start_pfn, unsigned top_order,
			unsigned cpus, uint64_t limit, uint64_t *pages)
{
	uint64_t cur = start_pfn, pcp = 0;

	if (!snap || !pages || top_order > BLAB_MAX_ORDER_LIMIT || cpus == 0 ||
	    cpus > BLAB_MAX_CPUS || start_pfn >= BLAB_MAX_START_PFN)
		return BLAB_EINVAL;
	for (unsigned o = top_order + 1; o <= BLAB_MAX_ORDER_LIMIT; o++)
		if (snap->nr_free[o])
			return BLAB_EORDER;
	for (int o = (int)top_order; o >= 0; o--) {
		uint64_t slot = 1ull << slot_order((unsigned)o, top_order);
		if (!snap->nr_free[o])
			continue;
		cur = align_up(cur, slot);
		/* nr_free < 2^32 and slot <= 2^11: no overflow below 2^44 */
		cur += (uint64_t)snap->nr_free[o] * slot;
		if (cur - start_pfn > limit)
			return BLAB_ESNAPSHOT;
	}
	if (snap->pcp_count)
		for (unsigned c = 0; c < cpus; c++)
			pcp += snap->pcp_count[c];
	if (cur - start_pfn + pcp > limit)
		return BLAB_ESNAPSHOT;
	*pages = cur - start_pfn + pcp;
	return 0;
}

static void snapshot_layout(struct blab_zone *z, const void *ctx);

int blab_zone_create_snapshot(const struct blab_zone_config *cfg,
			      const struct blab_snapshot *snap, struct blab_zone **out)
{
	unsigned top, cpus;
	uint64_t need;
	int err;

	if (!cfg || !snap || !out)
		return BLAB_EINVAL;
	*out = NULL;
	if (cfg->machine != BLAB_MACHINE_PLAIN)
		return BLAB_EINVAL; /* the layout writes mem_map without the machine's costs */
	top = cfg->top_order == 0xff ? BLAB_DEFAULT_TOP_ORDER : cfg->top_order;
	cpus = cfg->cpus ? cfg->cpus : 1;
	if (top > BLAB_MAX_ORDER_LIMIT)
		return BLAB_EORDER;
	if (cpus > BLAB_MAX_CPUS)
		return BLAB_ECPU;
	if (cfg->pages == 0)
		return BLAB_EINVAL;
	if (cfg->pages > BLAB_MAX_PAGES || cfg->start_pfn >= BLAB_MAX_START_PFN)
		return BLAB_ELIMIT;
	err = blab_snapshot_pages(snap, cfg->start_pfn, top, cpus, cfg->pages, &need);
	if (err)
		return err;
	if (snap->pcp_count && cfg->strategy.pcp == BLAB_PCP_NONE)
		for (unsigned c = 0; c < cpus; c++)
			if (snap->pcp_count[c])
				return BLAB_ESTRATEGY; /* v2.5.44 had no pcp lists to hold them */
	return _blab_zone_create(cfg, snapshot_layout, snap, out);
}

/* [a, b) allocated, as the largest naturally aligned blocks that fit */
static void allocate_range(struct blab_zone *z, uint64_t a, uint64_t b)
{
	while (a < b) {
		unsigned o = z->top_order;
		while (o && ((a & ((1ull << o) - 1)) || a + (1ull << o) > b))
			o--;
		_blab_mark_allocated(z, pfn_to_idx(z, a), o);
		zone_page(z, pfn_to_idx(z, a))->mt = BLAB_MT_MOVABLE;
		EMIT(z, BLAB_EVC_STATE, BLAB_EV_ALLOC, a, o, BLAB_CPU_NONE, BLAB_MT_MOVABLE,
		     BLAB_PATH_ZONE_INIT, 0, 0, 0);
		a += 1ull << o;
	}
}

/* zone.c's layout hook: lays snap out on the new zone, which has no free memory yet */
static void snapshot_layout(struct blab_zone *z, const void *ctx)
{
	const struct blab_snapshot *snap = ctx;
	uint64_t start = z->start_pfn, end = z->start_pfn + z->pages, cur = start, pcp_start;
	unsigned top = z->top_order;

	/* the free blocks first, so the log shows the snapshot's buddy lists before the rest */
	for (int o = (int)top; o >= 0; o--) {
		uint64_t slot = 1ull << slot_order((unsigned)o, top);
		if (!snap->nr_free[o])
			continue;
		cur = align_up(cur, slot);
		for (uint32_t k = 0; k < snap->nr_free[o]; k++, cur += slot)
			_blab_add_to_free_list(z, pfn_to_idx(z, cur), (unsigned)o,
					       get_pageblock_migratetype(z, cur), 1, BLAB_CPU_NONE,
					       BLAB_PATH_ZONE_INIT);
	}
	/* pcp pages reach their lists as the kernel's do: allocated, then freed by that cpu */
	pcp_start = cur;
	if (snap->pcp_count) {
		for (unsigned c = 0; c < z->cpus; c++)
			for (uint32_t k = 0; k < snap->pcp_count[c]; k++, cur++) {
				EMIT(z, BLAB_EVC_STATE, BLAB_EV_ALLOC, cur, 0, BLAB_CPU_NONE,
				     BLAB_MT_MOVABLE, BLAB_PATH_ZONE_INIT, 0, 0, 0);
				EMIT(z, BLAB_EVC_STATE, BLAB_EV_FREE, cur, 0, c, BLAB_MT_MOVABLE,
				     BLAB_PATH_FREE_FAST, 0, 0, 0);
				_blab_pcp_add(z, c, 0, pfn_to_idx(z, cur), 0, BLAB_MT_MOVABLE, 0,
					      BLAB_PATH_FREE_FAST);
			}
	}
	/* every other page allocated: the gaps alignment left, the buddies, the rest */
	cur = start;
	for (int o = (int)top; o >= 0; o--) {
		uint64_t slot = 1ull << slot_order((unsigned)o, top);
		uint64_t at;
		if (!snap->nr_free[o])
			continue;
		at = align_up(cur, slot);
		allocate_range(z, cur, at);
		for (uint32_t k = 0; k < snap->nr_free[o]; k++, at += slot)
			if ((unsigned)o != top)
				allocate_range(z, at + (1ull << o), at + slot);
		cur = at;
	}
	allocate_range(z, cur, pcp_start);
	allocate_range(z, pcp_start + (z->pcp_pages), end);
}
