/*
 * mm.h - the allocator's own types (struct page, free_area, per_cpu_pages, struct blab_zone),
 * the small inline helpers every allocator file uses, and what the files of src/mm/ call in
 * each other. Layers above (workloads, script, trace) may include it; layers below (base,
 * machine) never do.
 * Prefixes: blab_ public (include/blab.h), _blab_ shared between core files, static local;
 * kernel functions keep the kernel's names. A "__" prefix on an allocator function means,
 * as in mm/page_alloc.c, "caller holds zone->lock".
 */
#ifndef BLAB_MM_H
#define BLAB_MM_H

#include <stdint.h>
#include "blab.h"
#include "blab_hist.h"
#include "blab_latency.h"
#include "base/list.h"
#include "machine/machine.h"

/* page->flags */
#define PG_buddy 0x01u        /* head of a free block on free_area[order] (PageBuddy) */
#define PG_pcp 0x02u          /* head of a block on a per-cpu list */
#define PG_alloc 0x04u        /* head of a block handed to a caller */
#define PG_tail 0x08u         /* tail page of an allocated block */
#define PG_picked 0x10u       /* taken off a pcp list, on a bulk-free op's local list */
#define PG_merge_skipped 0x20u /* with PG_buddy: an order-0 free page whose merge was skipped
				* (skipmerge.c) */
#define PG_cold 0x40u         /* on the cold list of the 2002 hot/cold pcp */

/*
 * One per pfn. Links are zone-relative page indices, never pointers. The allocator's own
 * fields fit in 16 bytes; where each entry sits in host memory is the zone's page_stride
 * (zone_page()): 64 bytes, a host cache line, on the real machine, whose threads must meet
 * on a struct page line as the kernel's CPUs do and never on a neighbour's; 16 elsewhere.
 * The model machine's cache sees the kernel's 64-byte struct page through its own
 * addresses (page_vaddr()), whatever the host stride, so a compact mem_map changes no
 * result and keeps the host's caches for the model's own tables.
 */
struct page {
	uint16_t flags;
	uint8_t order;      /* buddy_order / allocation order / pcp order */
	uint8_t mt;         /* migratetype of the list the block sits on */
	uint16_t cpu;       /* owning cpu while on a pcp list */
	/* PageBuddy: order + 1 while the block is on a free_area list, else 0. Like the
	 * kernel's page_type it is written only under zone->lock, apart from flags (which the
	 * page's owner writes without the lock), so __free_one_page() can test a buddy another
	 * CPU owns without a data race on the real machine. */
	uint8_t buddy;
	uint8_t unused;
	union { /* list links (page indices): free_area, pcp or a local list */
		struct blab_links lru;
		struct { uint32_t next, prev; };
	};
};
_Static_assert(sizeof(struct page) == 16, "struct page packs into 16 bytes");
/* the real machine's stride: one host cache line per struct page, as in the kernel */
#define PAGE_STRIDE_REAL 64u

struct free_area {
	struct blab_list free_list[BLAB_MT_TYPES];
	uint32_t nr_free;
};

/* lists: order_to_pindex(mt, order) = order * 3 + mt when pcp_per_mt, else order; then up
 * to one THP-sized list per migratetype (pcp_thp) */
#define BLAB_PCP_MAX_ORDER 3
#define NR_PCP_LISTS ((BLAB_PCP_MAX_ORDER + 1) * BLAB_MT_PCPTYPES + BLAB_MT_PCPTYPES)

struct per_cpu_pages {
	uint32_t count; /* pages (not blocks) on all lists */
	uint32_t low;   /* hot/cold only: refill when count <= low */
	uint32_t high;  /* 6.7+: moves between high_min and high_max (pcp_tune.c) */
	uint32_t batch;
	uint32_t free_factor; /* 5.14 .. 6.6: doubles the bulk free on consecutive frees */
	/* 6.7+ (BLAB_HIGH_AUTO, free_count, alloc_factor) */
	uint32_t high_min, high_max;
	uint32_t free_count;  /* pages freed since allocations last halved it, at most
			       * batch << CONFIG_PCP_BATCH_SCALE_MAX (z->s.pcp_batch_scale_max) */
	uint8_t alloc_factor; /* refills of batch << alloc_factor, at most the same */
	uint8_t flags;        /* PCPF_PREV_FREE_HIGH_ORDER */
	struct blab_list lists[NR_PCP_LISTS];
};
#define PCPF_PREV_FREE_HIGH_ORDER 0x1u /* the last free was of order 1..3 (free_high) */

/* per_cpu_pageset: pcp[0] = the list set (LIFO) or hot list, pcp[1] = cold (2002). */
struct per_cpu_pageset {
	struct per_cpu_pages pcp[2];
	uint8_t busy; /* an op of this cpu is in flight */
	/* counted for the run's report (not kernel state): rmqueue_bulk() refills, and
	 * free_pcppages_bulk() runs because a list reached high (drain_pages() not counted), so a
	 * run can say which lists never took the paths the presets differ in */
	uint64_t refills, bulk_frees;
};

struct blab_zone {
	uint64_t start_pfn;
	uint32_t pages;
	uint16_t cpus;
	uint8_t node;                /* NUMA node: where its pglist_data lines are (node_pgdat_vaddr) */
	uint8_t top_order;
	uint8_t pageblock_order;
	uint8_t thp_order;           /* pcp_thp's block order (pageblock_order), 0: no such block */
	struct blab_strategy s;      /* batch and high resolved */

	struct page *mem_map;        /* pages entries, page_stride bytes apart (zone_page()) */
	uint32_t page_stride;
	uint8_t *pageblock_mt;       /* one per pageblock touched by the zone */
	uint32_t nr_pageblocks;
	uint64_t first_pageblock;    /* start_pfn >> pageblock_order */

	struct free_area free_area[BLAB_MAX_ORDER_LIMIT + 1];
	uint32_t free_pages;         /* sum of nr_free[o] << o */
	uint32_t pcp_pages;          /* sum of pcp counts */
	struct per_cpu_pageset *pageset;

	uint32_t managed_pages;
	uint32_t min_free_kbytes;
	uint32_t wmark[3];           /* WMARK_MIN, WMARK_LOW, WMARK_HIGH */
	/* ZONE_BELOW_HIGH (6.7, Huang Ying's "decrease PCP high if free pages < high
	 * watermark"): set by an allocation that finds the zone under its high watermark,
	 * cleared only by a free whose drain brought it back above; watermarks on only */
	uint8_t below_high;

	struct blab_machine machine; /* its kind, clock, locks and event log (machine/machine.h) */
	struct slab_state *slab;     /* slab.c: kmem_caches and their slabs; NULL until one exists */
	const struct zone_layer_ops *slab_ops; /* what the zone does for the slab layer */

	/* skip-merge and compaction (skipmerge.c, compaction.c) */
	uint8_t compact_failed;      /* the last compaction missed its order: order-0 frees merge */
	uint8_t compacting;          /* compaction is merging: __free_one_page may not skip */
	uint32_t merge_skipped;      /* order-0 free pages flagged PG_merge_skipped */
	uint8_t cluster_bulk_paid;   /* clusters 4/4: this bulk free already kept them up */
	struct blab_compact_stats cstats;
	struct blab_hist *hist;      /* refill and drain sizes per CPU, or NULL (the run's owner's) */
	struct blab_latency *lat;    /* each op's latency (op.c, pcp.c), or NULL (the run's owner's) */

	/* the inline pcp hit (pcp.h), from s and top_order by pcp_hit_setup() */
	uint8_t fast_mode;           /* FAST_PER_MT, FAST_HOTCOLD, or FAST_NONE */
	uint8_t fast_orders;         /* orders below this may be pcp hits; 0 when none may */
};

enum { WMARK_MIN, WMARK_LOW, WMARK_HIGH };

static inline uint32_t pfn_to_idx(const struct blab_zone *z, uint64_t pfn)
{
	return (uint32_t)(pfn - z->start_pfn);
}
static inline uint64_t idx_to_pfn(const struct blab_zone *z, uint32_t idx)
{
	return z->start_pfn + idx;
}

/*
 * Node 0's pglist_data (its struct zone's free_area, then its lruvec: buddy.c,
 * workload_common.c) sits in the direct map at PAGE_OFFSET + 0x7ffc0000, below the zone's
 * frames; node n's is NODE_PGDAT_STRIDE x n above it, so every node's zone->lock and
 * lru_lock guard lines of their own. 8 nodes end at + 0x7ffe0000, still below 4 GB.
 */
#define NODE_PGDAT_VADDR (PAGE_OFFSET + 0x7ffc0000ull)
#define NODE_PGDAT_STRIDE 0x4000ull
static inline uint64_t node_pgdat_vaddr(const struct blab_zone *z)
{
	return NODE_PGDAT_VADDR + z->node * NODE_PGDAT_STRIDE;
}

/* the struct page of zone-relative index idx */
static inline struct page *zone_page(const struct blab_zone *z, uint32_t idx)
{
	return (struct page *)((char *)z->mem_map + (size_t)idx * z->page_stride);
}

/* the page lists: list.h's lists over mem_map (the links are struct page's lru) */
static inline void page_list_add(struct blab_zone *z, struct blab_list *l, uint32_t idx)
{
	blab_list_add(&z->mem_map->lru, z->page_stride, l, idx);
}
static inline void page_list_add_tail(struct blab_zone *z, struct blab_list *l, uint32_t idx)
{
	blab_list_add_tail(&z->mem_map->lru, z->page_stride, l, idx);
}
static inline void page_list_del(struct blab_zone *z, struct blab_list *l, uint32_t idx)
{
	blab_list_del(&z->mem_map->lru, z->page_stride, l, idx);
}
/* insert idx right after `after` (a page already on l) */
static inline void page_list_add_after(struct blab_zone *z, struct blab_list *l, uint32_t after,
				       uint32_t idx)
{
	blab_list_add_after(&z->mem_map->lru, z->page_stride, l, after, idx);
}

/* an event record, stamped with the machine's clock (machine.h, MACH_EMIT) */
#define EMIT(z, cls, type, pfn, order, cpu, mt, path, flags, a0, a1) \
	MACH_EMIT(&(z)->machine, cls, type, pfn, order, cpu, mt, path, flags, a0, a1)

/* ---- pageblocks: the migratetype each pageblock_order block was last given ---- */

static inline unsigned get_pageblock_migratetype(const struct blab_zone *z, uint64_t pfn)
{
	return z->pageblock_mt[(pfn >> z->pageblock_order) - z->first_pageblock];
}

/* the pageblock holding pfn becomes mt's (__rmqueue_fallback claiming it) */
static inline void set_pageblock_migratetype(struct blab_zone *z, uint64_t pfn, unsigned mt,
					     unsigned cpu)
{
	uint64_t pb = pfn >> z->pageblock_order;

	z->pageblock_mt[pb - z->first_pageblock] = (uint8_t)mt;
	EMIT(z, BLAB_EVC_STATE, BLAB_EV_PAGEBLOCK_MT, pb << z->pageblock_order, z->pageblock_order,
	     cpu, mt, BLAB_PATH_FALLBACK, 0, 0, 0);
}

/* ---- pcp lists: which list of a per_cpu_pages a block of (mt, order) sits on ---- */

/* the THP lists a per_cpu_pages has after its order 0..pcp_max_order lists (pcp_thp) */
static inline unsigned pcp_thp_lists(const struct blab_zone *z)
{
	static const uint8_t n[] = {0, BLAB_MT_PCPTYPES, 1, 2};
	return n[z->s.pcp_thp];
}

/* order_to_pindex(): order * MIGRATE_PCPTYPES + mt with a list per migratetype (2.6.24 on),
 * the order alone on the one shared list of 2.6.25 (searched by migratetype), 0 in 2002. A
 * THP-sized block goes after the low orders' lists: its migratetype's (44042b449872), the
 * one list (5.18), or movable / the rest (6.10). */
static inline unsigned order_to_pindex(const struct blab_zone *z, unsigned mt, unsigned order)
{
	if (z->s.pcp == BLAB_PCP_HOTCOLD)
		return 0;
	if (z->s.pcp_per_mt) {
		unsigned low = (z->s.pcp_max_order + 1u) * BLAB_MT_PCPTYPES;
		if (order <= z->s.pcp_max_order)
			return order * BLAB_MT_PCPTYPES + mt;
		if (z->s.pcp_thp == BLAB_THP_PER_MT)
			return low + mt;
		return low + (z->s.pcp_thp == BLAB_THP_MOVABLE && mt == BLAB_MT_MOVABLE);
	}
	return order;
}

/* the lists a per_cpu_pages uses: free_pcppages_bulk() goes round these (the THP lists
 * too, empty or not, as the kernel's NR_PCP_LISTS counts them) */
static inline unsigned pcp_nr_lists(const struct blab_zone *z)
{
	if (z->s.pcp == BLAB_PCP_HOTCOLD)
		return 1;
	if (!z->s.pcp_per_mt)
		return z->s.pcp_max_order + 1u;
	return (z->s.pcp_max_order + 1u) * BLAB_MT_PCPTYPES + pcp_thp_lists(z);
}

/* does this order go through the pcp lists at all? (pcp_allowed_order(): up to
 * PAGE_ALLOC_COSTLY_ORDER, and since 44042b449872 the THP order) */
static inline int pcp_allowed_order(const struct blab_zone *z, unsigned order)
{
	return z->s.pcp != BLAB_PCP_NONE &&
	       (order <= z->s.pcp_max_order || (z->thp_order && order == z->thp_order));
}

/* ---- resumable ops (op.c): the states an op stops in ---- */

enum op_state {
	S_START = 0,
	S_REFILL,      /* alloc: lock taken, rmqueue_bulk() */
	S_RMQUEUE,     /* alloc without pcp: lock taken, __rmqueue() */
	S_FREE_DIRECT, /* free without pcp: lock taken, __free_one_page() */
	S_BULK_BEGIN,  /* free_pcppages_bulk() starts */
	S_BULK_LOCKED, /* one pass / single pass: lock taken, pick and merge */
	S_BULK_MERGE,  /* two pass: pages picked, lock taken, merge */
	S_AFTER_BULK,  /* bulk free done: what the op does next */
	S_PCP_LOCK,    /* drain, decay (6.0+): pcp->lock of the target taken, then the drain */
	S_DONE,
};

/*
 * Resuming a step that stopped just before taking `lockid` (BLAB_STEP_LOCK): take it, or
 * BLAB_ELOCKED when another CPU holds it across steps (nothing done: call again). Every
 * resumable op (op.c, slab.c, compaction.c) begins its resumed steps here.
 */
static inline int step_take_lock(struct blab_zone *z, unsigned cpu, unsigned lockid)
{
	if (mach_lock_busy(&z->machine, cpu, lockid))
		return BLAB_ELOCKED;
	mach_lock(&z->machine, cpu, lockid);
	return 0;
}

/*
 * ---- latency (blab_latency.h), while the zone has a recorder (z->lat) ----
 * A call of rmqueue_bulk() or free_pcppages_bulk() begins and ends: the cycles between go to
 * the function's series and to the op's bulk part. The op decides where a call begins (op.c
 * for a refill, whose zone->lock wait the kernel's rmqueue_bulk() includes), pcp.c where it
 * ends. Only reads the clock: nothing the run does depends on it.
 */
static inline void lat_call_begin(struct blab_zone *z, struct blab_op *op)
{
	if (z->lat) {
		op->lat_call = mach_now(&z->machine, op->cpu);
		op->lat_in_call = 1;
	}
}

static inline void lat_call_end(struct blab_zone *z, struct blab_op *op, unsigned series)
{
	if (z->lat && op->lat_in_call) {
		uint64_t cycles = mach_now(&z->machine, op->cpu) - op->lat_call;
		op->lat_in_call = 0;
		op->lat_bulk += cycles;
		blab_latency_record_call_at(z->lat, op->cpu, series, op->lat_call, cycles);
	}
}

/* ---- what a layer built on the zone registers with it (the slab layer: slab.c) ---- */

struct zone_layer_ops {
	void (*destroy)(struct blab_zone *z); /* free the layer's state with the zone */
	/* its invariants, checked by blab_check() after the zone's own: 0 or BLAB_ECHECK */
	int (*check)(const struct blab_zone *z, char *msg, unsigned msglen);
};

/* zone.c */
/* lays out a new zone's memory in place of memblock's free (snapshots: snapshot.c) */
typedef void (*zone_layout_fn)(struct blab_zone *z, const void *ctx);
int _blab_zone_create(const struct blab_zone_config *cfg, zone_layout_fn layout,
		      const void *layout_ctx, struct blab_zone **out);
/* A model-machine zone of NUMA node `node` on the model machine mm that another zone (or the
 * caller) owns: one cache model, scheduler, CPU clocks and lock table for several zones.
 * cfg->machine must be BLAB_MACHINE_MODEL; cfg->model is ignored (mm's parameters count);
 * cfg->cpus must be mm's CPUs; node's locks must exist in mm (mach_check_shared); and the
 * zone's pfns must lie in mm's dense struct page directory (the caller also gives mm's cache
 * the frames of all the zones: cache_set_frames). The zone never frees mm: the caller does,
 * after destroying the zones. 0 or a BLAB_E* code. */
int _blab_zone_create_on(const struct blab_zone_config *cfg, struct model_machine *mm,
			 unsigned node, struct blab_zone **out);

/* buddy.c (caller holds zone->lock for the __ ones) */
void _blab_add_to_free_list(struct blab_zone *z, uint32_t idx, unsigned order, unsigned mt,
			    int tail, unsigned cpu, unsigned path);
void _blab_del_from_free_list(struct blab_zone *z, uint32_t idx, unsigned cpu, unsigned path);
void __free_one_page(struct blab_zone *z, unsigned cpu, uint64_t pfn, unsigned order,
		     unsigned mt, unsigned path);
int __rmqueue(struct blab_zone *z, unsigned cpu, unsigned order, unsigned mt, unsigned path,
	      uint32_t *idx);
void _blab_mark_allocated(struct blab_zone *z, uint32_t idx, unsigned order);
void _blab_clear_allocated(struct blab_zone *z, uint32_t idx, unsigned order);

/* skipmerge.c (caller holds zone->lock): Lu RFC 2/4, an order-0 free skips merging unless
 * the last compaction failed (then frees merge again, so high orders can recover) */
static inline int can_skip_merge(const struct blab_zone *z, unsigned order)
{
	return z->s.skip_merge && order == 0 && !z->compact_failed && !z->compacting;
}
void _blab_free_skip_merge(struct blab_zone *z, unsigned cpu, uint64_t pfn, unsigned mt,
			   unsigned path);

/* pcp_tune.c: how big a refill or drain is and where high goes, by the strategy's era (pure
 * decisions on one per_cpu_pages; pcp.c does the moving) */
uint32_t nr_pcp_alloc(const struct blab_zone *z, struct per_cpu_pages *pcp, unsigned order);
/* a PCP_HIGH record when cpu's pcp->high is no longer `old` (pcp.c) */
void pcp_high_moved(struct blab_zone *z, unsigned cpu, uint32_t old, unsigned path);
uint32_t nr_pcp_high(const struct blab_zone *z, struct per_cpu_pages *pcp, int free_high);
uint32_t nr_pcp_free(const struct blab_zone *z, struct per_cpu_pages *pcp, uint32_t high,
		     int free_high);
int pcp_free_high(const struct blab_zone *z, struct per_cpu_pages *pcp, unsigned order);
uint32_t decay_pcp_high(const struct blab_zone *z, struct per_cpu_pages *pcp);
/* zone_watermark_ok(): would the zone keep more than watermark `mark` (WMARK_*) free after
 * handing out a block of `order`? (No lowmem_reserve: one zone.) */
static inline int zone_watermark_ok(const struct blab_zone *z, unsigned order, unsigned mark)
{
	return z->free_pages >= z->wmark[mark] + (1u << order);
}

/* ZONE_BELOW_HIGH, as the last allocation or drain left it (z->below_high) */
static inline int zone_below_high(const struct blab_zone *z)
{
	return z->below_high;
}

/* get_page_from_freelist()'s first test: would an allocation of `order` find the zone
 * under its high watermark with the flag still clear? (It then sets the flag.) */
static inline int zone_falls_below_high(const struct blab_zone *z, unsigned order)
{
	return z->s.watermarks && !z->below_high && !zone_watermark_ok(z, order, WMARK_HIGH);
}

/* pcp.c (and pcp.h, the pcp hit inline) */
void setup_zone_pageset(struct blab_zone *z);
void _blab_pcp_add(struct blab_zone *z, unsigned cpu, unsigned which, uint32_t idx,
		   unsigned order, unsigned mt, int tail, unsigned path);
void _blab_pcp_del(struct blab_zone *z, unsigned cpu, unsigned which, uint32_t idx, unsigned path);
uint32_t rmqueue_pcplist(struct blab_zone *z, struct blab_op *op);
int free_unref_page_commit(struct blab_zone *z, struct blab_op *op);
int free_pcppages_bulk(struct blab_zone *z, struct blab_op *op);
int drain_pages(struct blab_zone *z, struct blab_op *op);
int decay_pages(struct blab_zone *z, struct blab_op *op, uint32_t pages);
/* 6.0+ pcp->lock of op->target, held by op from pcp_trylock() (1: taken) to pcp_unlock() */
int pcp_trylock(struct blab_zone *z, struct blab_op *op);
void pcp_unlock(struct blab_zone *z, struct blab_op *op);

/* check.c: in the debug build (BLAB_DEBUG_CHECK) the synchronous wrappers of op.c and slab.c
 * run the invariant checker after every step and abort, naming `what`, at the first
 * violation; in other builds this is nothing. */
#ifdef BLAB_DEBUG_CHECK
void _blab_debug_check(const struct blab_zone *z, const char *what);
#else
#define _blab_debug_check(z, what) ((void)0)
#endif

/* op.c: step a resumable op (op.c's, slab.c's or compaction.c's) until it is done, on a
 * machine where nothing else runs between steps (plain, real); `what` names it for the
 * debug build's check after every step that stopped at a lock (NULL: no check, for an op
 * whose stops are not whole states of the zone). */
typedef int (*op_step_fn)(struct blab_zone *z, void *op);
int _blab_step_to_done(struct blab_zone *z, op_step_fn step, void *op, const char *what);

#endif
