/*
 * zone.c - creating a zone: the struct page array, pageblocks and their migratetypes, the
 * initial free memory (as memblock hands it to the buddy allocator at boot: the largest
 * aligned blocks that fit), the watermarks, the per-cpu pagesets and the machine; and what a
 * caller reads of a zone (blab_zone_info, its event log).
 */
#include <stdlib.h>
#include <string.h>
#include "mm.h"
#include "pcp.h"

void blab_zone_config_init(struct blab_zone_config *cfg)
{
	if (!cfg)
		return;
	memset(cfg, 0, sizeof(*cfg));
	cfg->cpus = 1;
	cfg->top_order = 0xff;
	cfg->pageblock_order = 0xff;
	cfg->machine = BLAB_MACHINE_PLAIN;
	cfg->log_mask = BLAB_EVC_STATE | BLAB_EVC_EXPLAIN | BLAB_EVC_LOCK;
	blab_preset(BLAB_DEFAULT_PRESET, &cfg->strategy);
}

/* ---- kernel formulas ---- */

static uint64_t int_sqrt(uint64_t x)
{
	uint64_t r = 0, bit = 1ull << 62;
	while (bit > x)
		bit >>= 2;
	while (bit) {
		if (x >= r + bit) {
			x -= r + bit;
			r = (r >> 1) + bit;
		} else {
			r >>= 1;
		}
		bit >>= 2;
	}
	return r;
}

uint32_t blab_min_free_kbytes(uint64_t managed_pages)
{
	uint64_t lowmem_kbytes = managed_pages * 4;
	uint64_t k = int_sqrt(lowmem_kbytes * 16);
	if (k < 128)
		k = 128;
	if (k > 262144)
		k = 262144;
	return (uint32_t)k;
}

static void setup_watermarks(struct blab_zone *z)
{
	/* one zone gets all of min_free_kbytes; PAGE_SIZE 4 KB: pages = kbytes / 4 */
	uint32_t min = z->min_free_kbytes >> (PAGE_SHIFT - 10);
	uint32_t gap = min / 4;
	uint32_t scaled = (uint32_t)(((uint64_t)z->managed_pages * 10) / 10000);
	if (scaled > gap)
		gap = scaled; /* watermark_scale_factor = 10 */
	z->wmark[WMARK_MIN] = min;
	z->wmark[WMARK_LOW] = min + gap;
	z->wmark[WMARK_HIGH] = min + 2 * gap;
}

/* ---- creation ---- */

int blab_strategy_has_batch_scale(const struct blab_strategy *s)
{
	return s && (s->alloc_factor || s->free_factor == BLAB_FREE_COUNT ||
		     s->high_mode == BLAB_HIGH_AUTO || s->drain_chunk);
}

static int check_strategy(const struct blab_strategy *s)
{
	if (s->pcp > BLAB_PCP_LIFO || s->bulk_free > BLAB_BULK_SINGLE_PASS ||
	    s->high_mode > BLAB_HIGH_AUTO || s->batch_era > 2 || s->pcp_per_mt > 1 ||
	    s->merge_tail > 1 || s->watermarks > 1 || s->bulk_rr > BLAB_RR_LIST ||
	    s->free_factor > BLAB_FREE_COUNT || s->skip_merge > 1 ||
	    s->clusters > BLAB_CLUSTERS_PER_BULK || s->pcp_lock > 1 || s->alloc_factor > 1 ||
	    s->free_high > BLAB_FREE_HIGH_HALF_MIN || s->bulk_chunk > 1 || s->buddy_map > 1 ||
	    s->expand_top > 1 || s->drain_chunk > 1 || s->pcp_thp > BLAB_THP_MOVABLE ||
	    s->pcp_batch_scale_max > BLAB_PCP_BATCH_SCALE_MAX_LIMIT)
		return BLAB_ESTRATEGY;
	/* CONFIG_PCP_BATCH_SCALE_MAX came with 6.7 (52166607ecc9): a strategy without its
	 * switches has no such option to set */
	if (s->pcp_batch_scale_max && !blab_strategy_has_batch_scale(s))
		return BLAB_ESTRATEGY;
	/* THP-sized blocks came to the per-migratetype pcp lists with 44042b449872 */
	if (s->pcp_thp && (s->pcp != BLAB_PCP_LIFO || !s->pcp_per_mt))
		return BLAB_ESTRATEGY;
	/* the 6.x switches belong to the per-migratetype LIFO lists; 6.19's chunks are of the
	 * single pass (two passes pick the whole drain before taking zone->lock) */
	if ((s->pcp_lock || s->alloc_factor || s->free_high || s->bulk_chunk || s->drain_chunk ||
	     s->high_mode == BLAB_HIGH_AUTO || s->free_factor == BLAB_FREE_COUNT) &&
	    (s->pcp != BLAB_PCP_LIFO || !s->pcp_per_mt))
		return BLAB_ESTRATEGY;
	if (s->bulk_chunk && s->bulk_free != BLAB_BULK_SINGLE_PASS &&
	    s->bulk_free != BLAB_BULK_SINGLE_PASS_PREFETCH)
		return BLAB_ESTRATEGY;
	if (s->pcp_max_order > BLAB_PCP_MAX_ORDER)
		return BLAB_ESTRATEGY;
	if (s->pcp == BLAB_PCP_HOTCOLD && s->pcp_max_order != 0)
		return BLAB_ESTRATEGY; /* the 2002 lists held order-0 pages only */
	if (s->batch > 1u << 20 || s->high > 1u << 24 || s->high_max > 1u << 24)
		return BLAB_ELIMIT;
	return 0;
}

int blab_zone_create(const struct blab_zone_config *cfg, struct blab_zone **out)
{
	return _blab_zone_create(cfg, NULL, NULL, out);
}

/* mem_map's host stride for a zone of this machine (mm.h, struct page) */
static uint32_t page_stride(const struct blab_zone_config *cfg)
{
	return cfg->machine == BLAB_MACHINE_REAL ? PAGE_STRIDE_REAL : (uint32_t)sizeof(struct page);
}

/* the zone's own arrays (and what malloc adds to each: a large one is mapped whole pages);
 * the machine's are added by the caller (a shared one is its owner's) */
static uint64_t zone_mem_bytes(const struct blab_zone_config *cfg, unsigned cpus, unsigned pbo)
{
	uint64_t first = cfg->start_pfn >> pbo, last = (cfg->start_pfn + cfg->pages - 1) >> pbo;
	return sizeof(struct blab_zone) + 5 * 4096u + (uint64_t)cfg->pages * page_stride(cfg) +
	       (last - first + 1) + (uint64_t)cpus * sizeof(struct per_cpu_pageset) +
	       (uint64_t)cfg->log_capacity * sizeof(struct blab_event);
}

uint64_t blab_zone_mem_bytes(const struct blab_zone_config *cfg)
{
	unsigned cpus, top, pbo;
	if (!cfg || !cfg->pages)
		return 0;
	cpus = cfg->cpus ? cfg->cpus : 1;
	top = cfg->top_order == 0xff ? BLAB_DEFAULT_TOP_ORDER : cfg->top_order;
	pbo = cfg->pageblock_order;
	if (pbo == 0xff)
		pbo = top < BLAB_DEFAULT_PAGEBLOCK_ORDER ? top : BLAB_DEFAULT_PAGEBLOCK_ORDER;
	if (pbo > 63 || mach_check(cfg->machine, cfg->model, cpus) == BLAB_EINVAL)
		return 0; /* refused by blab_zone_create() before it would count */
	return zone_mem_bytes(cfg, cpus, pbo) +
	       mach_mem_bytes(cfg->machine, cfg->model, cpus, cfg->pages);
}

static int zone_create(const struct blab_zone_config *cfg, zone_layout_fn layout,
		       const void *layout_ctx, struct model_machine *shared, unsigned node,
		       struct blab_zone **out);

/* layout == NULL: memblock frees the whole zone; else layout(z, layout_ctx) lays out its
 * memory (a snapshot's state: snapshot.c, which validated it against cfg first) */
int _blab_zone_create(const struct blab_zone_config *cfg, zone_layout_fn layout,
		      const void *layout_ctx, struct blab_zone **out)
{
	return zone_create(cfg, layout, layout_ctx, NULL, 0, out);
}

int _blab_zone_create_on(const struct blab_zone_config *cfg, struct model_machine *mm,
			 unsigned node, struct blab_zone **out)
{
	int err;

	if (!cfg || !out)
		return BLAB_EINVAL;
	*out = NULL;
	if (!mm || cfg->machine != BLAB_MACHINE_MODEL)
		return BLAB_EINVAL;
	err = mach_check_shared(mm, node, cfg->cpus ? cfg->cpus : 1u, cfg->start_pfn, cfg->pages);
	if (err)
		return err;
	return zone_create(cfg, NULL, NULL, mm, node, out);
}

static int zone_create(const struct blab_zone_config *cfg, zone_layout_fn layout,
		       const void *layout_ctx, struct model_machine *shared, unsigned node,
		       struct blab_zone **out)
{
	struct blab_zone *z;
	unsigned top, pbo, cpus;
	int err;

	if (!cfg || !out)
		return BLAB_EINVAL;
	*out = NULL;
	if (cfg->pages == 0)
		return BLAB_EINVAL;
	if (cfg->pages > BLAB_MAX_PAGES || cfg->start_pfn >= BLAB_MAX_START_PFN ||
	    cfg->start_pfn + cfg->pages > BLAB_MAX_START_PFN)
		return BLAB_ELIMIT;
	cpus = cfg->cpus ? cfg->cpus : 1;
	if (cpus > BLAB_MAX_CPUS)
		return BLAB_ECPU;
	top = cfg->top_order == 0xff ? BLAB_DEFAULT_TOP_ORDER : cfg->top_order;
	if (top > BLAB_MAX_ORDER_LIMIT)
		return BLAB_EORDER;
	pbo = cfg->pageblock_order;
	if (pbo == 0xff)
		pbo = top < BLAB_DEFAULT_PAGEBLOCK_ORDER ? top : BLAB_DEFAULT_PAGEBLOCK_ORDER;
	if (pbo > top)
		return BLAB_EORDER;
	if (cfg->machine != BLAB_MACHINE_PLAIN && cfg->machine != BLAB_MACHINE_MODEL &&
	    cfg->machine != BLAB_MACHINE_REAL)
		return BLAB_EINVAL;
	if (cfg->machine == BLAB_MACHINE_REAL &&
	    (cfg->log_mask || cfg->log_capacity || cfg->sink || cfg->strategy.watermarks))
		return BLAB_EINVAL; /* shared by every thread: see machine/real/real.h */
	if (!shared) {
		err = mach_check(cfg->machine, cfg->model, cpus);
		if (err)
			return err;
	}
	if (cfg->log_capacity > BLAB_MAX_LOG_EVENTS)
		return BLAB_ELIMIT;
	if (cfg->log_capacity == 1)
		return BLAB_EINVAL; /* no room for anything but LOG_FULL */
	err = check_strategy(&cfg->strategy);
	if (err)
		return err;
	/* nothing is allocated before the memory it all takes is known to fit */
	if (zone_mem_bytes(cfg, cpus, pbo) +
		    (shared ? 0 : mach_mem_bytes(cfg->machine, cfg->model, cpus, cfg->pages)) >
	    blab_mem_limit(cfg->mem_limit))
		return BLAB_EHOSTMEM;

	z = calloc(1, sizeof(*z));
	if (!z)
		return BLAB_ENOMEMHOST;
	z->start_pfn = cfg->start_pfn;
	z->pages = cfg->pages;
	z->cpus = (uint16_t)cpus;
	z->node = (uint8_t)node;
	z->top_order = (uint8_t)top;
	z->pageblock_order = (uint8_t)pbo;
	z->s = cfg->strategy;
	/* the THP order is pageblock_order (HPAGE_PMD_ORDER on x86-64, 9); a zone whose
	 * pageblocks are no larger than the low orders' lists has none */
	z->thp_order = (uint8_t)(z->s.pcp_thp && pbo > z->s.pcp_max_order ? pbo : 0);
	z->first_pageblock = z->start_pfn >> pbo;
	z->nr_pageblocks =
		(uint32_t)(((z->start_pfn + z->pages - 1) >> pbo) - z->first_pageblock + 1);
	z->page_stride = page_stride(cfg);
	z->mem_map = calloc(z->pages, z->page_stride);
	z->pageblock_mt = calloc(z->nr_pageblocks, 1);
	z->pageset = calloc(cpus, sizeof(struct per_cpu_pageset));

	if (cfg->log_capacity)
		z->machine.log.ev = calloc(cfg->log_capacity, sizeof(struct blab_event));
	if (!z->mem_map || !z->pageblock_mt || !z->pageset ||
	    (cfg->log_capacity && !z->machine.log.ev)) {
		blab_zone_destroy(z);
		return BLAB_ENOMEMHOST;
	}
	z->machine.log.cap = cfg->log_capacity;
	z->machine.log.mask = cfg->log_mask;
	z->machine.log.sink = cfg->sink;
	z->machine.log.sink_ctx = cfg->sink ? cfg->sink_ctx : NULL;
	/* a plain machine while the zone is laid out; its own machine starts after that */
	mach_init(&z->machine, BLAB_MACHINE_PLAIN, NULL, cpus, z->start_pfn, z->pages, 0);
	z->machine.host_pages = z->mem_map;
	z->machine.host_first_pfn = z->start_pfn;
	z->machine.host_npages = z->pages;
	z->machine.host_page_stride = z->page_stride;
	for (uint32_t i = 0; i < z->pages; i++) {
		zone_page(z, i)->next = NIL;
		zone_page(z, i)->prev = NIL;
		zone_page(z, i)->cpu = BLAB_CPU_NONE;
	}
	for (unsigned o = 0; o <= top; o++)
		for (unsigned mt = 0; mt < BLAB_MT_TYPES; mt++)
			blab_list_init(&z->free_area[o].free_list[mt]);

	z->managed_pages = z->pages;
	z->min_free_kbytes = blab_min_free_kbytes(z->managed_pages);
	setup_watermarks(z);
	setup_zone_pageset(z);

	EMIT(z, BLAB_EVC_STATE, BLAB_EV_ZONE_INIT, z->start_pfn, top, BLAB_CPU_NONE, 0,
	     BLAB_PATH_ZONE_INIT, pbo, z->pages, cpus);

	/* the kernel marks every pageblock MOVABLE at boot (memmap_init) */
	for (uint32_t b = 0; b < z->nr_pageblocks; b++) {
		z->pageblock_mt[b] = BLAB_MT_MOVABLE;
		EMIT(z, BLAB_EVC_STATE, BLAB_EV_PAGEBLOCK_MT, (z->first_pageblock + b) << pbo, pbo,
		     BLAB_CPU_NONE, BLAB_MT_MOVABLE, BLAB_PATH_ZONE_INIT, 0, 0, 0);
	}

	/* memblock frees [start, end) as the largest naturally aligned blocks that fit */
	uint64_t pfn = z->start_pfn, end = z->start_pfn + z->pages;
	if (layout) {
		layout(z, layout_ctx);
		pfn = end;
	}
	while (pfn < end) {
		unsigned order = top;
		while (order && (pfn & ((1ull << order) - 1)))
			order--;
		while (pfn + (1ull << order) > end)
			order--;
		_blab_add_to_free_list(z, pfn_to_idx(z, pfn), order, get_pageblock_migratetype(z, pfn), 1,
				       BLAB_CPU_NONE, BLAB_PATH_ZONE_INIT);
		pfn += 1ull << order;
	}
	/* 6.7+: each list's high starts at high_min and moves (PCP_HIGH); say where it starts */
	if (z->s.high_mode == BLAB_HIGH_AUTO)
		for (unsigned cpu = 0; cpu < cpus; cpu++)
			pcp_high_moved(z, cpu, 0, BLAB_PATH_ZONE_INIT);
	if (shared) {
		mach_init_shared(&z->machine, shared, node);
	} else {
		err = mach_init(&z->machine, cfg->machine, cfg->model, cpus, z->start_pfn, z->pages,
				!cfg->real_untimed);
		if (err) {
			blab_zone_destroy(z);
			return err;
		}
	}
	pcp_hit_setup(z);
	*out = z;
	return 0;
}

void blab_zone_destroy(struct blab_zone *z)
{
	if (!z)
		return;
	if (z->slab_ops)
		z->slab_ops->destroy(z);
	free(z->mem_map);
	free(z->pageblock_mt);
	free(z->pageset);
	mach_free(&z->machine);
	free(z->machine.log.ev);
	free(z);
}

int blab_zone_info(const struct blab_zone *z, struct blab_zone_info *out)
{
	if (!z || !out)
		return BLAB_EINVAL;
	memset(out, 0, sizeof(*out));
	out->start_pfn = z->start_pfn;
	out->pages = z->pages;
	out->managed_pages = z->managed_pages;
	out->free_pages = z->free_pages;
	out->pcp_pages = z->pcp_pages;
	if (z->machine.kind == BLAB_MACHINE_REAL) {
		/* not kept while threads run (pcp_pages_add): count the lists' pages now */
		out->pcp_pages = 0;
		for (unsigned cpu = 0; cpu < z->cpus; cpu++)
			out->pcp_pages += z->pageset[cpu].pcp[0].count + z->pageset[cpu].pcp[1].count;
	}
	out->cpus = z->cpus;
	out->top_order = z->top_order;
	out->pageblock_order = z->pageblock_order;
	out->nr_pageblocks = z->nr_pageblocks;
	out->min_free_kbytes = z->min_free_kbytes;
	out->wmark_min = z->wmark[WMARK_MIN];
	out->wmark_low = z->wmark[WMARK_LOW];
	out->wmark_high = z->wmark[WMARK_HIGH];
	out->below_high = z->below_high;
	for (unsigned o = 0; o <= z->top_order; o++)
		out->nr_free[o] = z->free_area[o].nr_free;
	out->strategy = z->s;
	return 0;
}

const char *blab_mt_name(unsigned mt)
{
	static const char *const names[BLAB_MT_TYPES] = {"Unmovable", "Movable", "Reclaimable",
							 "HighAtomic", "CMA", "Isolate"};
	return mt < BLAB_MT_TYPES ? names[mt] : "?";
}

/* ---- the zone's event log (base/events.h) ---- */

const struct blab_event *blab_log(const struct blab_zone *z, uint32_t *count)
{
	if (!z) {
		if (count)
			*count = 0;
		return NULL;
	}
	if (count)
		*count = z->machine.log.len;
	return z->machine.log.ev;
}

int blab_log_full(const struct blab_zone *z)
{
	return z ? z->machine.log.full : 0;
}

void blab_log_clear(struct blab_zone *z)
{
	if (!z)
		return;
	z->machine.log.len = 0;
	z->machine.log.full = 0;
}

void blab_mark(struct blab_zone *z, unsigned cpu, uint32_t id, uint32_t value)
{
	if (!z)
		return;
	EMIT(z, BLAB_EVC_EXPLAIN, BLAB_EV_MARK, 0, 0, cpu, 0, 0, 0, id, value);
}
