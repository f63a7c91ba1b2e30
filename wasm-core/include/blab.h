/*
 * blab.h - the public API of the buddylab allocator core.
 *
 * A zone (struct blab_zone) owns everything: its struct page array, free_area[], the
 * per-CPU page lists, the event log and the machine state.  There is no global mutable
 * state, so zones with different strategies live side by side in one process.
 *
 * Every entry point validates its arguments and returns 0 or a negative BLAB_E* code;
 * blab_strerror() names it.  Nothing reachable from input asserts or invokes UB.
 */
#ifndef BLAB_H
#define BLAB_H

#include <stddef.h>
#include <stdint.h>
#include "blab_events.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- limits (docs/limits.md) ---- */
#define BLAB_MAX_PAGES (1u << 24)        /* pages per zone */
#define BLAB_MAX_CPUS 256u
#define BLAB_MAX_ORDER_LIMIT 10u         /* highest top order (MAX_PAGE_ORDER) */
#define BLAB_DEFAULT_TOP_ORDER 10u
#define BLAB_DEFAULT_PAGEBLOCK_ORDER 9u
#define BLAB_MAX_START_PFN (1ull << 40)  /* start_pfn + pages must stay below this */
#define BLAB_MAX_LOG_EVENTS (1u << 26)   /* event records per run */

/* ---- errors ---- */
enum blab_error {
	BLAB_OK = 0,
	BLAB_EINVAL = -1,      /* NULL pointer or malformed argument */
	BLAB_ECPU = -2,        /* cpu out of range */
	BLAB_EPFN = -3,        /* pfn outside the zone */
	BLAB_EORDER = -4,      /* order out of range */
	BLAB_EALIGN = -5,      /* pfn not aligned to 1 << order */
	BLAB_EDOUBLEFREE = -6, /* the block is already free (on a buddy list) */
	BLAB_EWRONGORDER = -7, /* freeing an allocated block with another order */
	BLAB_ETAIL = -8,       /* pfn is a tail page of an allocated block */
	BLAB_EONPCP = -9,      /* pfn sits on a per-CPU list (it is free already) */
	BLAB_ENOTALLOC = -10,  /* pfn lies inside a free block, never handed out */
	BLAB_ENOMEM = -11,     /* no free block of that order */
	BLAB_EWMARK = -12,     /* the allocation would go below the low watermark */
	BLAB_EMT = -13,        /* migratetype not allocatable */
	BLAB_ELIMIT = -14,     /* a hard limit (docs/limits.md) */
	BLAB_EPRESET = -15,    /* unknown preset name */
	BLAB_ESTRATEGY = -16,  /* inconsistent strategy switches */
	BLAB_ECHECK = -17,     /* the invariant checker found a violation */
	BLAB_EBUSY = -18,      /* this cpu has an op in flight, or the page is being freed */
	BLAB_ELOCKED = -19,    /* the lock is held by another cpu: call again later */
	BLAB_ENOMEMHOST = -20, /* the host could not allocate memory for the zone */
	BLAB_ELOGFULL = -21,   /* the event log reached its bound (for run drivers: sim, lessons) */
	BLAB_ESNAPSHOT = -22,  /* a snapshot's free blocks and pcp pages do not fit its zone */
	BLAB_EHOSTMEM = -23,   /* the config needs more host memory than its limit (mem_limit) */
	BLAB_ECANCELED = -24,  /* the run was cancelled (blab_sim_config.cancel) */
	/* slab layer (blab_slab.h): -30..-39 */
	BLAB_ESLABCACHE = -30, /* no such kmem_cache id on this zone */
	BLAB_ESLABOBJ = -31,   /* the address is not an object of this cache */
};
const char *blab_strerror(int err);

/* ---- migratetypes (values as in the kernel's enum migratetype) ---- */
enum blab_migratetype {
	BLAB_MT_UNMOVABLE = 0,
	BLAB_MT_MOVABLE = 1,
	BLAB_MT_RECLAIMABLE = 2,
	BLAB_MT_PCPTYPES = 3, /* also the number of allocatable types */
	BLAB_MT_HIGHATOMIC = 3,
	BLAB_MT_CMA = 4,
	BLAB_MT_ISOLATE = 5,
	BLAB_MT_TYPES = 6,
};
const char *blab_mt_name(unsigned mt);

/* gfp-like flags for alloc/free */
#define BLAB_GFP_COLD 0x1u /* __GFP_COLD (<= 4.14): the cold list / the cold end */
/* not a gfp flag: a free that continues a list free (6.0+ free_unref_page_list(), 6.10+
 * free_unref_folios()) whose pcp->lock is held across SWAP_CLUSTER_MAX pages, so it takes
 * no pcp->lock of its own; other presets ignore it */
#define BLAB_GFP_PCP_HELD 0x2u

/* ---- strategy: the kernel's history as switches ---- */
enum blab_pcp_mode {
	BLAB_PCP_NONE = 0,    /* v2.5.44: every page takes zone->lock */
	BLAB_PCP_HOTCOLD = 1, /* v2.5.45: a hot and a cold list per cpu, low/high marks */
	BLAB_PCP_LIFO = 2,    /* v2.6.25+: one LIFO list (or one per migratetype / order) */
};
enum blab_bulk_free {
	BLAB_BULK_ONE_PASS = 0,             /* <= 4.16: pick and merge under zone->lock */
	BLAB_BULK_TWO_PASS = 1,             /* 4.17 0a5f4e5b4562: pick outside the lock */
	BLAB_BULK_TWO_PASS_PREFETCH = 2,    /* 4.17 97334162e4d7: + prefetch_buddy(), <= batch */
	BLAB_BULK_SINGLE_PASS_PREFETCH = 3, /* 5.18 8b10b465d0e1: lock first, prefetch under it */
	BLAB_BULK_SINGLE_PASS = 4,          /* 5.18 2a791f4412cb: no prefetch */
};
enum blab_bulk_rr {
	BLAB_RR_BATCH_FREE = 0, /* 2.6.31..5.17: round-robin, batch_free pages per list visit */
	BLAB_RR_LIST = 1,       /* 5.18: the freed page's list first, each list emptied in turn */
};
enum blab_high_mode {
	BLAB_HIGH_6BATCH = 0,   /* high = 6 * batch (<= 5.13) */
	BLAB_HIGH_ZONE = 1,     /* zone_highsize() (5.14+, b92ca18e8ca5) */
	BLAB_HIGH_AUTO = 2,     /* 6.7+ (90b41691b988, 51a755c56dc0): high moves between high_min
				 * and high_max; refills raise it, decay_pcp_high() lowers it */
};
/* nr_pcp_free(): how many pages a free that reached `high` gives back (field free_factor) */
enum blab_nr_pcp_free {
	BLAB_FREE_BATCH = 0,  /* <= 5.13: batch */
	BLAB_FREE_FACTOR = 1, /* 5.14 3b12e7e97938: batch << free_factor, grown by each such free */
	BLAB_FREE_COUNT = 2,  /* 6.7: free_count, the pages freed since the last allocation */
};
/* pcp_thp: THP-sized blocks (pageblock_order) on the pcp lists, after the order 0..3 lists */
enum blab_pcp_thp {
	BLAB_THP_NONE = 0,    /* before it: a pageblock-sized block always takes zone->lock */
	BLAB_THP_PER_MT = 1,  /* 44042b449872 (v5.14 here): one per migratetype (15 lists) */
	BLAB_THP_ONE = 2,     /* 5.18 5d0a661d808f: one list for every migratetype (13) */
	BLAB_THP_MOVABLE = 3, /* 6.10 bf14ed81f571: movable, and the rest (14) */
};
/* free_high: a CPU freeing high-order pages without allocating drains its lists hard */
enum blab_free_high {
	BLAB_FREE_HIGH_NONE = 0,
	BLAB_FREE_HIGH_ALL = 1,      /* 5.18 f26b3fa04611: free_factor set and order 1..3 */
	BLAB_FREE_HIGH_BATCH = 2,    /* 6.7: free_count >= batch after a high-order free */
	BLAB_FREE_HIGH_HALF_MIN = 3, /* 6.16 c544a952ba61: free_count >= batch + high_min / 2 */
};
struct blab_strategy {
	uint8_t pcp;           /* enum blab_pcp_mode */
	uint8_t pcp_per_mt;    /* 1: one pcp list per migratetype; 0: one list searched by mt */
	uint8_t pcp_max_order; /* highest order kept on pcp lists: 0, or 3 (5.14+) */
	uint8_t bulk_free;     /* enum blab_bulk_free */
	uint8_t merge_tail;    /* buddy_merge_likely(): add to the tail when a merge is likely */
	uint8_t high_mode;     /* enum blab_high_mode, used when high == 0 */
	uint8_t batch_era;     /* 0: 2002 (256 KB cap, no 2^n-1), 1: 512 KB cap, 2: 1 MB cap (4.18+) */
	uint8_t watermarks;    /* 1: refuse allocations below the low watermark (default 0) */
	uint8_t bulk_rr;       /* free_pcppages_bulk list order: enum blab_bulk_rr */
	uint8_t free_factor;   /* enum blab_nr_pcp_free: what nr_pcp_free() gives back */
	uint32_t batch;        /* 0: zone_batchsize() */
	uint32_t high;         /* 0: computed by high_mode (BLAB_HIGH_AUTO: high_min) */
	/* Aaron Lu's zone->lock RFC (2018, not merged; docs/skipmerge.md) */
	uint8_t skip_merge;    /* 2/4: order-0 frees skip merging; compaction merges them later */
	uint8_t clusters;      /* enum blab_clusters */
	/* 6.0 .. 6.19 (docs/modern-pcp.md) */
	uint8_t pcp_lock;      /* 6.0 4b23a68f9536: pcp->lock, taken by trylock; when it fails an
				* allocation takes one block under zone->lock and a free goes to
				* free_one_page(); remote drains take it (443c2accd1b6) */
	uint8_t alloc_factor;  /* 6.7 nr_pcp_alloc(): refills of batch << alloc_factor, the factor
				* growing to 5 (52166607ecc9) while refills follow refills */
	uint8_t free_high;     /* enum blab_free_high */
	uint8_t buddy_map;     /* 2002: free_area[order].map, a bit per buddy pair, tested before a
				* free reads its buddy's struct page and toggled on every split and
				* take (gone by 2.6.25, whose buddies are told by struct page alone) */
	uint8_t expand_top;    /* 2.4/2.5 expand(): each split puts the lower half on the free list
				* and goes on with the upper one, so a block is handed out from its
				* last pfn down; 0: the upper half page[size] is listed and the lower
				* kept, as every kernel since the 2.6 rewrite */
	uint8_t bulk_chunk;    /* 6.19 fc4b909c368f: a drain frees at most batch pages per
				* zone->lock hold, re-taking pcp->lock between */
	uint8_t drain_chunk;   /* 6.10 55f77df7d715: drain_pages_zone() gives a list back
				* batch << CONFIG_PCP_BATCH_SCALE_MAX pages per free_pcppages_bulk(),
				* dropping pcp->lock and taking it again between */
	uint8_t pcp_thp;       /* enum blab_pcp_thp (per-migratetype LIFO lists only) */
	/* CONFIG_PCP_BATCH_SCALE_MAX (6.7, 52166607ecc9; Kconfig range 0..6, default 5): the
	 * most alloc_factor grows to, so a refill is at most batch << it; also free_count's cap,
	 * a free_high drain's, decay_pcp_high()'s step and (6.10, 55f77df7d715) the chunk of
	 * drain_pages_zone(). Read only by the 6.7 switches (alloc_factor, free_factor
	 * BLAB_FREE_COUNT, high_mode BLAB_HIGH_AUTO, drain_chunk); 0 with none of them, since
	 * the option did not exist before 6.7 */
	uint8_t pcp_batch_scale_max;
	uint32_t high_max;     /* BLAB_HIGH_AUTO: 0 = zone_highsize() of managed pages / 8 */
};
#define BLAB_PCP_BATCH_SCALE_MAX_DEFAULT 5u /* the Kconfig's default */
#define BLAB_PCP_BATCH_SCALE_MAX_LIMIT 6u   /* the Kconfig's range is 0..6 */
/* 1 when s has a switch that reads pcp_batch_scale_max (a 6.7+ strategy) */
int blab_strategy_has_batch_scale(const struct blab_strategy *s);
/* X(field, jsName): every switch of struct blab_strategy, for the tables the app is generated
 * from (wasm-core/tools/blab_schema.c) */
#define BLAB_STRATEGY_FIELDS(X)                                                            \
	X(pcp, pcp) X(pcp_per_mt, pcpPerMt) X(pcp_max_order, pcpMaxOrder) X(bulk_free, bulkFree) \
	X(merge_tail, mergeTail) X(high_mode, highMode) X(batch_era, batchEra)                  \
	X(watermarks, watermarks) X(bulk_rr, bulkRr) X(free_factor, freeFactor) X(batch, batch) \
	X(high, high) X(skip_merge, skipMerge) X(clusters, clusters) X(pcp_lock, pcpLock)          \
	X(alloc_factor, allocFactor) X(free_high, freeHigh) X(bulk_chunk, bulkChunk)             \
	X(buddy_map, buddyMap) X(expand_top, expandTop) X(drain_chunk, drainChunk)                \
	X(pcp_thp, pcpThp) X(pcp_batch_scale_max, pcpBatchScaleMax) X(high_max, highMax)
enum blab_clusters {
	BLAB_CLUSTERS_NONE = 0,
	BLAB_CLUSTERS_PER_FREE = 1,  /* 3/4: rmqueue_bulk() cuts clusters; each free keeps them up */
	BLAB_CLUSTERS_PER_BULK = 2,  /* 4/4: free_pcppages_bulk() keeps them up once per bulk free */
};

/* Presets named after kernels; see blab_preset_describe(). */
int blab_preset(const char *name, struct blab_strategy *out);
unsigned blab_preset_count(void);                /* at most BLAB_PRESETS_MAX */
#define BLAB_PRESETS_MAX 64u /* a set of presets fits a 64-bit mask */
const char *blab_preset_name(unsigned i);        /* NULL past the end */
const char *blab_preset_describe(unsigned i);    /* one line, cites the commit */
const char *blab_preset_commit(unsigned i);      /* its upstream commits, space-separated; "" if none */
const char *blab_preset_title(unsigned i);       /* a few words, for a menu */
#define BLAB_DEFAULT_PRESET "v5.18"

/* ---- machines ---- */
enum blab_machine_kind {
	BLAB_MACHINE_PLAIN = 0, /* single-threaded, no costs, the clock counts ops */
	BLAB_MACHINE_MODEL = 1, /* deterministic virtual CPUs (model/) */
	BLAB_MACHINE_REAL = 2,  /* real threads, a real spinlock and clock (real/, blab_real.h) */
};

/* ---- zone ---- */
struct blab_zone;
struct model_params; /* the model machine's parameters: blab_model.h */

/* Receives each event record as it is made (blab_zone_config.sink). */
typedef void (*blab_event_sink)(void *ctx, const struct blab_event *e);

struct blab_zone_config {
	uint64_t start_pfn;
	uint32_t pages;           /* 1 .. BLAB_MAX_PAGES, any count */
	uint16_t cpus;            /* 1 .. BLAB_MAX_CPUS (0 = 1) */
	uint8_t top_order;        /* MAX_PAGE_ORDER, 0 .. 10 (0xff = default 10) */
	uint8_t pageblock_order;  /* <= top_order (0xff = default min(9, top_order)) */
	uint8_t machine;          /* enum blab_machine_kind. REAL: no log, no sink, no watermarks
	                           * (one thread per cpu would race on them; docs/real.md) */
	uint8_t log_mask;         /* OR of enum blab_event_class */
	uint32_t log_capacity;    /* records; 0 = no log */
	struct blab_strategy strategy;
	/* MODEL only: the machine's parameters (copied; NULL = model_params_default()) and the
	 * virtual CPUs it runs (must be <= the parameters' CPUs; 0 = cpus) */
	const struct model_params *model;
	/* Where records go from the first one on (ZONE_INIT and the set-up included), instead
	 * of the log; NULL = the log. */
	blab_event_sink sink;
	void *sink_ctx;
	/* REAL only: 1 = count lock acquisitions but do not time spins and holds (the timing
	 * costs two clock reads per hold) */
	uint8_t real_untimed;
	/* host bytes the zone may take (blab_zone_mem_bytes()), checked before anything is
	 * allocated: BLAB_EHOSTMEM past it. 0 = blab_mem_limit_default() */
	uint64_t mem_limit;
};
/* A config with defaults: 0 pages, start 0, 1 cpu, orders 10/9, preset v5.18, no log. */
void blab_zone_config_init(struct blab_zone_config *cfg);

int blab_zone_create(const struct blab_zone_config *cfg, struct blab_zone **out);

/* ---- names and echoed input (text.c) ---- */
/* 1 when name is UTF-8 with nothing that hides or turns text around: no control character,
 * no bidirectional formatting (U+202A..U+202E, U+2066..U+2069, LRM, RLM, ALM), no zero-width
 * character or byte order mark. Names the core keeps (a slab cache's) must pass it. */
int blab_name_ok(const char *name);
/* src into dst (at most cap bytes with the NUL) with those characters, and bytes that are
 * not UTF-8, spelled out: \x1b, \u{202E}; what a message echoes of its input. Returns the
 * escaped length (dst is cut short, whole characters only, when it does not fit). */
size_t blab_text_escape(char *dst, size_t cap, const char *src);

/* ---- host memory (docs/limits.md, "Host memory") ---- */
/* The host bytes blab_zone_create() takes for cfg: the zone, its mem_map (64 bytes a page),
 * pageblock types, per-CPU pagesets, the event log (32 bytes a record) and, for a MODEL
 * zone, the model machine (each core's L1 and L2, each socket's LLC, the directory). 0 for
 * a NULL cfg; the other checks of blab_zone_create() are not made here. */
uint64_t blab_zone_mem_bytes(const struct blab_zone_config *cfg);
/* The limit when a config says 0: natively half of the physical memory; in WebAssembly the
 * heap that malloc can still hand out (its memory does not grow). */
uint64_t blab_mem_limit_default(void);
/* configured, or the default when it is 0 */
uint64_t blab_mem_limit(uint64_t configured);
/* bytes as "1234.5 MB" (10^6 bytes) into buf; returns buf (for messages) */
char *blab_mem_text(char *buf, size_t len, uint64_t bytes);
void blab_zone_destroy(struct blab_zone *z);

struct blab_zone_info {
	uint64_t start_pfn;
	uint32_t pages, managed_pages, free_pages, pcp_pages;
	uint16_t cpus;
	uint8_t top_order, pageblock_order;
	uint32_t nr_pageblocks;
	uint32_t min_free_kbytes;
	uint32_t wmark_min, wmark_low, wmark_high;
	/* ZONE_BELOW_HIGH (watermarks on): set by an allocation that found free_pages at or
	 * under wmark_high, cleared by a free whose drain left them above it; 6.7+ presets
	 * shrink pcp->high while it is set */
	uint8_t below_high;
	uint32_t nr_free[BLAB_MAX_ORDER_LIMIT + 1];
	struct blab_strategy strategy; /* with batch and high resolved */
};
int blab_zone_info(const struct blab_zone *z, struct blab_zone_info *out);

/*
 * A zone in the state /proc/buddyinfo and /proc/zoneinfo describe (src/mm/snapshot.c,
 * docs/import.md "Snapshots"). A snapshot gives counts, not places, so the blocks are laid out
 * by one rule: from start_pfn up, largest order first, each free block below the top order in
 * a slot twice its size whose upper half (its buddy) is allocated, so no two free buddies
 * touch; then each cpu's pcp pages (order 0, MOVABLE); every other page allocated, in the
 * largest aligned blocks that fit. Errors: BLAB_EORDER (a free block above top_order),
 * BLAB_ESTRATEGY (pcp pages with pcp=none), BLAB_ESNAPSHOT (it does not fit the zone), and
 * whatever blab_zone_create() returns for cfg. A plain machine only (BLAB_EINVAL otherwise).
 */
struct blab_snapshot {
	uint32_t nr_free[BLAB_MAX_ORDER_LIMIT + 1]; /* free blocks per order */
	const uint32_t *pcp_count; /* NULL, or cfg->cpus entries: pages on each cpu's pcp list */
};
int blab_zone_create_snapshot(const struct blab_zone_config *cfg,
			      const struct blab_snapshot *snap, struct blab_zone **out);
/* The pages from start_pfn to the end of the layout (free blocks, their buddies, pcp pages):
 * the smallest zone that holds snap; BLAB_EORDER or BLAB_ESNAPSHOT (past `limit` pages). */
int blab_snapshot_pages(const struct blab_snapshot *snap, uint64_t start_pfn, unsigned top_order,
			unsigned cpus, uint64_t limit, uint64_t *pages);

/* per_cpu_pages of one cpu; which = 0 (the list set in LIFO mode, or hot), 1 (cold) */
struct blab_pcp_info {
	uint32_t count, low, high, batch;
	uint8_t present; /* 0 when this cpu/which has no such list set */
	/* BLAB_HIGH_AUTO (6.7+): the range high moves in, and the tuning state */
	uint32_t high_min, high_max;
	uint8_t alloc_factor;
	uint32_t free_count;
};
int blab_pcp_info(const struct blab_zone *z, unsigned cpu, unsigned which,
		  struct blab_pcp_info *out);

/* Pure functions of the kernel formulas, also used by zone creation. */
uint32_t blab_zone_batchsize(uint64_t managed_pages, unsigned batch_era);
uint32_t blab_min_free_kbytes(uint64_t managed_pages);
/* zone_highsize(): `total` pages (the low watermark, or managed / 8 for 6.7's high_max)
 * split over the node's cpus, at least 4 * batch */
uint32_t blab_zone_highsize(uint64_t total, uint32_t batch, unsigned cpus);
/*
 * The pcp sizes a kernel of s's era gives a zone of `managed` pages whose low watermark is
 * `low`, on a node of `cpus` CPUs (docs/modern-pcp.md "Sizes"): batch (zone_batchsize(), at
 * least 1 from 5.14), high (6 * batch before 5.14, zone_highsize() after), and from 6.7
 * high_min (= high) and high_max (0 before). A non-zero s->batch, s->high or s->high_max
 * is taken as given. BLAB_PCP_NONE: all 0. 0, or BLAB_EINVAL / BLAB_ESTRATEGY.
 */
struct blab_pcp_sizes {
	uint32_t batch, high, high_min, high_max;
};
int blab_pcp_sizes(const struct blab_strategy *s, uint64_t managed, uint64_t low, unsigned cpus,
		   struct blab_pcp_sizes *out);

/* ---- resumable ops ---- */
enum blab_step {
	BLAB_STEP_DONE = 0,
	BLAB_STEP_LOCK = 1, /* stopped just before taking a lock; the next step takes it */
};
enum blab_op_kind {
	BLAB_OP_ALLOC = 1,
	BLAB_OP_FREE = 2,
	BLAB_OP_DRAIN = 3,
	BLAB_OP_DECAY = 4, /* decay_pcp_high(): what the vmstat worker does about once a second */
};

/* Caller-owned; fields below the line are private to the core. */
struct blab_op {
	uint8_t kind;        /* enum blab_op_kind */
	uint8_t order;
	uint8_t mt;
	uint8_t gfp;
	uint16_t cpu;
	uint16_t lock;       /* the lock the next step takes (BLAB_LOCK_*) when LOCK was returned */
	uint64_t pfn;        /* FREE: input; ALLOC: the result once DONE */
	/* ---- private ---- */
	uint8_t state;
	uint8_t which;       /* pcp set (hot 0 / cold 1) being drained */
	uint8_t drain_next;  /* DRAIN: next pcp set to look at */
	uint8_t pindex;      /* free_pcppages_bulk round-robin cursor */
	uint8_t have_list;   /* free_pcppages_bulk: the current list is still being emptied */
	uint8_t add_after;   /* 2002 hot/cold free: add the page after the bulk free */
	uint8_t pcp_locked;  /* 6.0+: the op holds pcp->lock of `target` */
	uint16_t target;     /* whose pcp lists: cpu, or for a remote drain the drained cpu */
	uint8_t free_high;   /* 6.0+: this free drains hard (free_high) */
	uint32_t batch_free; /* free_pcppages_bulk: pages still to take from this list */
	uint32_t to_free;    /* free_pcppages_bulk pages left */
	uint32_t prefetch_nr;
	uint32_t picked_head, picked_tail; /* two-pass: the local list of picked pages */
	uint32_t bulk_asked;
	uint32_t chunk_left; /* 6.19 chunked drain: pages this zone->lock hold may still free */
	uint32_t decay_left; /* DECAY: pages above the lowered high not yet given back */
	int32_t err;
	/* latency (blab_latency.h), kept only while the zone has a recorder (blab_zone_latency) */
	uint8_t lat_series;  /* enum blab_lat_series the op counts in; 0xff: none */
	uint8_t lat_in_call; /* a rmqueue_bulk() / free_pcppages_bulk() call is under way */
	uint64_t lat_t0;     /* the CPU's clock when the op began */
	uint64_t lat_lock;   /* cycles waiting for zone->lock */
	uint64_t lat_bulk;   /* cycles inside rmqueue_bulk() / free_pcppages_bulk() */
	uint64_t lat_call;   /* the clock when the call under way began */
};
int blab_op_alloc(struct blab_op *op, unsigned cpu, unsigned order, unsigned mt, unsigned gfp);
int blab_op_free(struct blab_op *op, unsigned cpu, uint64_t pfn, unsigned order, unsigned gfp);
int blab_op_drain(struct blab_op *op, unsigned cpu);
/* cpu drains target's lists (drain_pages_zone() from another CPU, 6.0 443c2accd1b6), taking
 * target's pcp->lock: presets with pcp_lock only (BLAB_ESTRATEGY from the first step
 * otherwise); BLAB_ELOCKED while target's own op holds that lock */
int blab_op_drain_remote(struct blab_op *op, unsigned cpu, unsigned target);
/* decay_pcp_high() on cpu (BLAB_HIGH_AUTO; nothing for other presets) */
int blab_op_decay(struct blab_op *op, unsigned cpu);
/* Returns BLAB_STEP_DONE, BLAB_STEP_LOCK, BLAB_ELOCKED (nothing done, retry) or an error. */
int blab_op_step(struct blab_zone *z, struct blab_op *op);

/* Synchronous wrappers: loop blab_op_step() until done (plain and real machines). */
int blab_alloc(struct blab_zone *z, unsigned cpu, unsigned order, unsigned mt, uint64_t *pfn);
int blab_alloc_gfp(struct blab_zone *z, unsigned cpu, unsigned order, unsigned mt,
		   unsigned gfp, uint64_t *pfn);
int blab_free(struct blab_zone *z, unsigned cpu, uint64_t pfn, unsigned order);
int blab_free_gfp(struct blab_zone *z, unsigned cpu, uint64_t pfn, unsigned order, unsigned gfp);
int blab_drain(struct blab_zone *z, unsigned cpu);
int blab_drain_all(struct blab_zone *z);
int blab_drain_remote(struct blab_zone *z, unsigned cpu, unsigned target);
int blab_decay(struct blab_zone *z, unsigned cpu);

/* ---- compaction (compaction.c; docs/skipmerge.md) ---- */
enum blab_compact_mode {
	BLAB_COMPACT_MERGE = 0,   /* merge merge-skipped pages back (the RFC's compaction hook) */
	BLAB_COMPACT_MIGRATE = 1, /* and then migrate movable pages out of one block of `order` */
};
/* Called for each block compaction moved: the owner's record of old_pfn is now new_pfn. */
typedef void (*blab_migrate_fn)(void *ctx, uint64_t old_pfn, uint64_t new_pfn, unsigned order);
struct blab_compact_stats {
	uint64_t runs, successes;   /* compactions, and those that left a free block of their order */
	uint64_t scanned;           /* struct pages the scanner read */
	uint64_t merged;            /* merge-skipped pages merged back */
	uint64_t migrated;          /* pages migrated */
};
/* Caller-owned, like struct blab_op; fields below the line are private. */
struct blab_compact_op {
	uint16_t cpu;
	uint8_t order, mode;
	uint16_t lock;       /* the lock the next step takes when BLAB_STEP_LOCK was returned */
	uint8_t success;     /* once DONE: a free block of order >= order exists */
	blab_migrate_fn migrate;
	void *ctx;
	/* ---- private ---- */
	uint8_t state;
	uint32_t pb;         /* next pageblock of the merge scan */
	uint64_t target;     /* migrate: the block being emptied */
	uint32_t migrated;   /* pages migrated by this run */
	uint32_t merged;     /* pages merged by this run */
};
int blab_compact_op_init(struct blab_compact_op *op, unsigned cpu, unsigned order, unsigned mode,
			 blab_migrate_fn migrate, void *ctx);
/* Returns BLAB_STEP_DONE, BLAB_STEP_LOCK, BLAB_ELOCKED (nothing done, retry) or an error. */
int blab_compact_step(struct blab_zone *z, struct blab_compact_op *op);
/* Synchronous: compact until a free block of `order` exists or nothing more can be done;
 * *success (may be NULL) says which. */
int blab_compact(struct blab_zone *z, unsigned cpu, unsigned order, unsigned mode,
		 blab_migrate_fn migrate, void *ctx, int *success);
/* An allocation that compacts once and retries when the buddy lists have no such block
 * (__alloc_pages_direct_compact); 0 or the allocation's error. */
int blab_alloc_compact(struct blab_zone *z, unsigned cpu, unsigned order, unsigned mt,
		       unsigned mode, blab_migrate_fn migrate, void *ctx, uint64_t *pfn);
int blab_compact_stats(const struct blab_zone *z, struct blab_compact_stats *out);
/* order-0 free pages whose merge was skipped */
int blab_merge_skipped(const struct blab_zone *z, uint32_t *out);

/* ---- fragmentation indices (mm/vmstat.c; fragmentation.c) ---- */
/* From nr_free[0..top_order], for a request of `order`, in thousandths:
 * unusable: the unusable free space index, 0..1000 (1000 with no free pages);
 * extfrag: the kernel's fragmentation index, 0..1000, or -1000 when a block of that order
 * is free (the failure would not be for lack of a block). */
int blab_frag_index(const uint32_t *nr_free, unsigned top_order, unsigned order,
		    int32_t *unusable, int32_t *extfrag);
int blab_zone_frag_index(const struct blab_zone *z, unsigned order, int32_t *unusable,
			 int32_t *extfrag);

/* ---- invariant checker ---- */
/* 0, or BLAB_ECHECK with a human message in msg (may be NULL). */
int blab_check(const struct blab_zone *z, char *msg, unsigned msglen);

/* ---- event log ---- */
const struct blab_event *blab_log(const struct blab_zone *z, uint32_t *count);
int blab_log_full(const struct blab_zone *z);
void blab_log_clear(struct blab_zone *z);
const char *blab_event_name(unsigned type);   /* NULL for an unknown type */
unsigned blab_event_class(unsigned type);     /* 0 for an unknown type */
const char *blab_path_name(unsigned path);    /* "ALLOC_FAST", ...; NULL past the end */
/* A workload marker (MARK event). */
void blab_mark(struct blab_zone *z, unsigned cpu, uint32_t id, uint32_t value);

/* ---- seeded PRNG (xoshiro256**, seeded by splitmix64) ---- */
struct blab_rng { uint64_t s[4]; };
void blab_rng_seed(struct blab_rng *r, uint64_t seed);
uint64_t blab_rng_next(struct blab_rng *r);
uint32_t blab_rng_below(struct blab_rng *r, uint32_t n); /* uniform in [0, n), n > 0 */

/* ---- op scripts (blab replay) ---- */
struct blab_script;
/* out/err are FILE * (void * keeps stdio out of this header). */
struct blab_script *blab_script_new(void *out, void *err);
void blab_script_free(struct blab_script *s);
/* Host bytes each `zone` line's zone may take (blab_zone_config.mem_limit; 0: the default). */
void blab_script_set_mem_limit(struct blab_script *s, uint64_t bytes);
/* Runs one line (no newline). 0 ok; otherwise nonzero and "line N: why" was written to err. */
int blab_script_line(struct blab_script *s, const char *line, unsigned lineno);
/* The same for a line given as raw bytes (no newline): a NUL byte is an error, not an end. */
int blab_script_bytes(struct blab_script *s, const char *bytes, size_t len, unsigned lineno);
struct blab_zone *blab_script_zone(struct blab_script *s);
#define BLAB_SCRIPT_MAX_LINE 1024u

#ifdef __cplusplus
}
#endif
#endif
