/*
 * layout.c - a zone laid out block by block: blab_zone_create_layout(), the op script's
 * `layout` line.
 *
 * A snapshot (trace/snapshot.c) gives counts and places blocks by a rule; a layout gives the
 * places: which blocks are free, in which order each free list holds them, and which are
 * handed out with which order. That is all the buddy allocator reads when it allocates or
 * frees, so a problem that prints a layout states everything its answers depend on
 * (docs/exercises.md). The zone comes from zone creation's layout hook, as a snapshot's does,
 * so its event log starts with the same set-up records a replay draws.
 */
#include <stdlib.h>
#include "mm/mm.h"

struct layout_ctx {
	const struct blab_layout_block *b;         /* as given: each free list's order */
	const struct blab_layout_block **sorted;   /* the same blocks by pfn */
	uint32_t n;
};

static uint32_t top_of(const struct blab_zone_config *cfg)
{
	return cfg->top_order == 0xff ? BLAB_DEFAULT_TOP_ORDER : cfg->top_order;
}

/* 1 when [a, a + 2^ao) and [b, b + 2^bo) share a page */
static int overlap(uint64_t a, unsigned ao, uint64_t b, unsigned bo)
{
	return a < b + (1ull << bo) && b < a + (1ull << ao);
}

/* the first broken rule of block i against the zone and blocks[0..i) */
static int check_block(const struct blab_zone_config *cfg, const struct blab_layout_block *b,
		       uint32_t i)
{
	const struct blab_layout_block *x = &b[i];
	uint64_t end = cfg->start_pfn + cfg->pages;

	if (x->order > top_of(cfg) || x->free > 1)
		return x->free > 1 ? BLAB_EINVAL : BLAB_EORDER;
	if (x->pfn & ((1ull << x->order) - 1))
		return BLAB_EALIGN;
	if (x->pfn < cfg->start_pfn || x->pfn >= end || (1ull << x->order) > end - x->pfn)
		return BLAB_EPFN;
	for (uint32_t j = 0; j < i; j++) {
		if (overlap(x->pfn, x->order, b[j].pfn, b[j].order))
			return BLAB_ESNAPSHOT;
		if (x->free && b[j].free && x->order == b[j].order &&
		    (x->pfn ^ (1ull << x->order)) == b[j].pfn && x->order < top_of(cfg))
			return BLAB_EDOUBLEFREE;
	}
	return 0;
}

int blab_layout_check(const struct blab_zone_config *cfg, const struct blab_layout_block *blocks,
		      uint32_t n, uint32_t *bad)
{
	if (!cfg || !bad || (n && !blocks))
		return BLAB_EINVAL;
	if (cfg->pages == 0 || cfg->pages > BLAB_MAX_PAGES || n > cfg->pages)
		return BLAB_ELIMIT;
	for (uint32_t i = 0; i < n; i++) {
		int err = check_block(cfg, blocks, i);
		if (err) {
			*bad = i;
			return err;
		}
	}
	*bad = n;
	return 0;
}

static int by_pfn(const void *a, const void *b)
{
	uint64_t x = (*(const struct blab_layout_block *const *)a)->pfn;
	uint64_t y = (*(const struct blab_layout_block *const *)b)->pfn;
	return x < y ? -1 : x > y;
}

static void hand_out(struct blab_zone *z, uint64_t pfn, unsigned order)
{
	_blab_mark_allocated(z, pfn_to_idx(z, pfn), order);
	zone_page(z, pfn_to_idx(z, pfn))->mt = BLAB_MT_MOVABLE;
	EMIT(z, BLAB_EVC_STATE, BLAB_EV_ALLOC, pfn, order, BLAB_CPU_NONE, BLAB_MT_MOVABLE,
	     BLAB_PATH_ZONE_INIT, 0, 0, 0);
}

/* [a, b) handed out as the largest naturally aligned blocks that fit */
static void hand_out_range(struct blab_zone *z, uint64_t a, uint64_t b)
{
	while (a < b) {
		unsigned o = z->top_order;
		while (o && ((a & ((1ull << o) - 1)) || a + (1ull << o) > b))
			o--;
		hand_out(z, a, o);
		a += 1ull << o;
	}
}

/* zone.c's layout hook: the free blocks in their list order, then everything else handed
 * out, the named blocks with their order and the gaps between them as the largest blocks */
static void layout_zone(struct blab_zone *z, const void *arg)
{
	const struct layout_ctx *c = arg;
	uint64_t cur = z->start_pfn;

	for (uint32_t i = 0; i < c->n; i++)
		if (c->b[i].free)
			_blab_add_to_free_list(z, pfn_to_idx(z, c->b[i].pfn), c->b[i].order,
					       BLAB_MT_MOVABLE, 1, BLAB_CPU_NONE, BLAB_PATH_ZONE_INIT);
	for (uint32_t i = 0; i < c->n; i++) {
		hand_out_range(z, cur, c->sorted[i]->pfn);
		if (!c->sorted[i]->free)
			hand_out(z, c->sorted[i]->pfn, c->sorted[i]->order);
		cur = c->sorted[i]->pfn + (1ull << c->sorted[i]->order);
	}
	hand_out_range(z, cur, z->start_pfn + z->pages);
}

int blab_zone_create_layout(const struct blab_zone_config *cfg,
			    const struct blab_layout_block *blocks, uint32_t n,
			    struct blab_zone **out)
{
	struct layout_ctx c = {blocks, NULL, n};
	uint32_t bad;
	int err;

	if (!cfg || !out)
		return BLAB_EINVAL;
	*out = NULL;
	if (cfg->machine != BLAB_MACHINE_PLAIN)
		return BLAB_EINVAL; /* the layout writes mem_map without the machine's costs */
	err = blab_layout_check(cfg, blocks, n, &bad);
	if (err)
		return err;
	if (n && !(c.sorted = malloc(n * sizeof(*c.sorted))))
		return BLAB_ENOMEMHOST;
	for (uint32_t i = 0; i < n; i++)
		c.sorted[i] = &blocks[i];
	if (n)
		qsort(c.sorted, n, sizeof(*c.sorted), by_pfn);
	err = _blab_zone_create(cfg, layout_zone, &c, out);
	free(c.sorted);
	return err;
}
