/*
 * blab_events.h - the event log record (32 bytes) and the list of event types.
 *
 * docs/events.md describes the same table for humans and for the TypeScript decoder;
 * change both together.  Records are written in host byte order, which is little-endian on
 * every target we build for (x86-64, arm64, wasm32).
 */
#ifndef BLAB_EVENTS_H
#define BLAB_EVENTS_H

#include <stdint.h>

struct blab_event {
	uint64_t time;   /* op number (plain), virtual cycles (model), ns (real) */
	uint64_t pfn;    /* absolute pfn of the block, or a kernel virtual address */
	uint8_t type;    /* enum blab_event_type */
	uint8_t order;
	uint16_t cpu;    /* BLAB_CPU_NONE for zone set-up */
	uint8_t mt;      /* migratetype; lock id for lock events */
	uint8_t path;    /* enum blab_path */
	uint16_t flags;
	uint32_t arg0;
	uint32_t arg1;
};

#define BLAB_CPU_NONE 0xffffu

/* One record from its fields, the narrowing casts in one place (the struct has no padding). */
static inline struct blab_event blab_event_make(uint64_t time, uint64_t pfn, unsigned type,
						unsigned order, unsigned cpu, unsigned mt,
						unsigned path, unsigned flags, uint32_t arg0,
						uint32_t arg1)
{
	struct blab_event e = {
		.time = time, .pfn = pfn, .type = (uint8_t)type, .order = (uint8_t)order,
		.cpu = (uint16_t)cpu, .mt = (uint8_t)mt, .path = (uint8_t)path,
		.flags = (uint16_t)flags, .arg0 = arg0, .arg1 = arg1,
	};
	return e;
}

/* X(name, number, class) -- the single source of truth for type numbers. */
#define BLAB_EVENT_TYPES(X)          \
	X(ZONE_INIT, 1, STATE)       \
	X(PAGEBLOCK_MT, 2, STATE)    \
	X(BUDDY_ADD, 3, STATE)       \
	X(BUDDY_DEL, 4, STATE)       \
	X(PCP_ADD, 5, STATE)         \
	X(PCP_DEL, 6, STATE)         \
	X(ALLOC, 7, STATE)           \
	X(FREE, 8, STATE)            \
	X(SPLIT, 9, EXPLAIN)         \
	X(MERGE, 10, EXPLAIN)        \
	X(RMQUEUE_BULK, 11, EXPLAIN) \
	X(PCP_DRAIN, 12, EXPLAIN)    \
	X(LOCK_ACQUIRE, 13, LOCK)    \
	X(LOCK_RELEASE, 14, LOCK)    \
	X(ACCESS, 15, CACHE)         \
	X(PREFETCH, 16, CACHE)       \
	X(PREFETCH_WASTED, 17, CACHE) \
	X(FALLBACK, 18, EXPLAIN)     \
	X(ALLOC_FAIL, 19, EXPLAIN)   \
	X(MARK, 20, EXPLAIN)         \
	X(LOG_FULL, 21, EXPLAIN)     \
	X(PCP_HIGH, 22, STATE)       \
	/* slab layer (docs/events.md "Slab"), 30..39 */ \
	X(SLAB_CACHE_CREATE, 30, STATE) \
	X(SLAB_ALLOC, 31, STATE)     \
	X(SLAB_FREE, 32, STATE)      \
	X(SLAB_REMOTE_FREE, 33, STATE) \
	X(SLAB_FREELIST_PREFETCH, 34, CACHE) \
	X(SLAB_NEW, 35, STATE)       \
	X(SLAB_DISCARD, 36, STATE)   \
	X(SLAB_CPU_SLAB, 37, STATE)  \
	X(SLAB_PARTIAL, 38, STATE)   \
	/* skip-merge and compaction (docs/skipmerge.md), 40..49 */ \
	X(COMPACT_BEGIN, 40, EXPLAIN) \
	X(COMPACT_SCAN, 41, EXPLAIN) \
	X(COMPACT_MIGRATE, 42, EXPLAIN) \
	X(COMPACT_END, 43, EXPLAIN)  \
	X(RMQUEUE_CLUSTER, 44, EXPLAIN)

enum blab_event_type {
#define BLAB_X(name, num, cls) BLAB_EV_##name = num,
	BLAB_EVENT_TYPES(BLAB_X)
#undef BLAB_X
	BLAB_EV_MAX_CORE = 63
};

/*
 * Imported traces (80..95): records that only blab_trace_replay() writes (blab_trace.h).
 * Kept out of BLAB_EVENT_TYPES (the core's table stops at BLAB_EV_MAX_CORE); docs/events.md
 * "Imported traces" has the fields.
 */
#define BLAB_TRACE_EVENT_TYPES(X)        \
	X(TRACE_ZONE, 80, STATE)         \
	X(TRACE_UNKNOWN, 81, STATE)      \
	X(TRACE_FREE_BATCHED, 82, EXPLAIN) \
	X(TRACE_EXTFRAG, 83, EXPLAIN)

enum blab_trace_event_type {
#define BLAB_X(name, num, cls) BLAB_EV_##name = num,
	BLAB_TRACE_EVENT_TYPES(BLAB_X)
#undef BLAB_X
};

/* Event classes: the log mask is an OR of these bits. */
enum blab_event_class {
	BLAB_EVC_STATE = 1u << 0,
	BLAB_EVC_EXPLAIN = 1u << 1,
	BLAB_EVC_LOCK = 1u << 2,
	BLAB_EVC_CACHE = 1u << 3,
	BLAB_EVC_ALL = 0xfu,
};

/* flags bits */
#define BLAB_EVF_TAIL 0x1u        /* BUDDY_ADD / PCP_ADD: added at the list tail */
#define BLAB_EVF_MERGE_SKIPPED 0x2u /* BUDDY_ADD: an order-0 page whose merge was skipped */
#define BLAB_EVF_COLD 0x2u        /* PCP_ADD / PCP_DEL: the 2002 cold list */
#define BLAB_EVF_AFTER 0x4u       /* PCP_ADD: inserted right after the block at arg0 (pfn - start) */
#define BLAB_EVF_SPLIT_TOP 0x1u   /* SPLIT: the lower half goes on the free list, the upper one
				   * is kept (2.4/2.5 expand(), strategy expand_top) */
#define BLAB_EVF_END 0x1u         /* RMQUEUE_BULK / PCP_DRAIN end record */
#define BLAB_EVF_WRITE 0x10u      /* ACCESS: a write */
#define BLAB_EVF_SLAB 0x8000u     /* ACCESS / PREFETCH / PREFETCH_WASTED: pfn holds a kernel
				   * virtual address minus PAGE_OFFSET (a slab object, a frame,
				   * a per-CPU line), not a pfn */
#define BLAB_PAGE_OFFSET 0xffff888000000000ull /* what slab and address records subtract */
#define BLAB_EVF_SLAB_SLOW 0x1u   /* SLAB_ALLOC: through the slow path */
#define BLAB_EVF_SLAB_TO_PARTIAL 0x1u /* SLAB_REMOTE_FREE: the full slab went on the partial list */
#define BLAB_EVF_SLAB_EMPTY 0x2u  /* SLAB_REMOTE_FREE: the slab is now empty */
#define BLAB_EVF_PARTIAL_DEL 0x1u /* SLAB_PARTIAL: taken off (else put on) the partial list */
/* SLAB_CPU_SLAB flags: how the cpu slab changed */
enum blab_cpu_slab_how {
	BLAB_CPU_SLAB_NEW = 0,     /* a new slab from the page allocator */
	BLAB_CPU_SLAB_PARTIAL = 1, /* a slab off the node's partial list */
	BLAB_CPU_SLAB_REFILL = 2,  /* the cpu slab's own freelist (remote frees) moved to c->freelist */
	BLAB_CPU_SLAB_DEACTIVATE = 3, /* the cpu slab was given up (c->slab = NULL) */
};

/* ACCESS outcome, flags bits 0..3 */
enum blab_access_outcome {
	BLAB_ACC_L1 = 0,
	BLAB_ACC_L2 = 1,
	BLAB_ACC_LLC = 2,
	BLAB_ACC_REMOTE = 3,
	BLAB_ACC_MEMORY = 4,
	BLAB_ACC_PREFETCH_HIT = 5,
	BLAB_ACC_PREFETCH_LATE = 6,
	BLAB_ACC_PLAIN = 7, /* plain machine: no cache model, outcome not known */
};

/* Code path ids (the path field): where in the allocator an event happened. */
#define BLAB_PATHS(X)                                                              \
	X(NONE, 0, "none")                                                         \
	X(ZONE_INIT, 1, "zone set-up (memblock freeing)")                          \
	X(ALLOC_FAST, 2, "pcp alloc fast path (__rmqueue_pcplist)")                \
	X(RMQUEUE_BULK, 3, "rmqueue_bulk")                                         \
	X(FREE_FAST, 4, "pcp free fast path (free_unref_page_commit)")             \
	X(BULK_PICK, 5, "free_pcppages_bulk: pick pages")                          \
	X(BULK_MERGE, 6, "free_pcppages_bulk: merge under zone->lock")             \
	X(FREE_ONE_PAGE, 7, "__free_one_page")                                     \
	X(EXPAND, 8, "expand")                                                     \
	X(RMQUEUE, 9, "rmqueue without pcp (__rmqueue under zone->lock)")          \
	X(FALLBACK, 10, "__rmqueue_fallback")                                      \
	X(FREE_DIRECT, 11, "free_one_page without pcp")                            \
	X(DRAIN, 12, "drain_pages")                                                \
	X(COMPACT, 13, "compaction (merge skipped pages, migrate)")              \
	X(DECAY, 14, "decay_pcp_high (the vmstat worker, about once a second)")   \
	/* slab layer: 30..39 */                                                   \
	X(SLAB_ALLOC_FAST, 30, "slab_alloc fast path (c->freelist)")               \
	X(SLAB_ALLOC_SLOW, 31, "___slab_alloc slow path")                          \
	X(SLAB_FREE_FAST, 32, "slab_free fast path (c->freelist)")                 \
	X(SLAB_FREE_SLOW, 33, "__slab_free to the slab's own freelist")            \
	X(SLAB_NEW, 34, "new_slab: build the freelist of a fresh slab")            \
	X(SLAB_DEACTIVATE, 35, "deactivate_slab / flush / discard_slab")

enum blab_path {
#define BLAB_X(name, num, desc) BLAB_PATH_##name = num,
	BLAB_PATHS(BLAB_X)
#undef BLAB_X
	BLAB_PATH_COUNT
};

/* Lock ids (the mt field of lock events). */
enum blab_lock_id {
	BLAB_LOCK_ZONE = 0,
	BLAB_LOCK_LRU = 1,
	BLAB_LOCK_SLAB_LIST = 2,
};

#endif
