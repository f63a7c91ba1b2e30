/*
 * blab_slab.h - a SLUB-like slab layer over the zone's page allocator (docs/slab.md).
 *
 * A cache (kmem_cache) hands out objects of one size carved from slabs: blocks of
 * 2^order pages taken from the page allocator (order-0 through the pcp lists). Each CPU has
 * a kmem_cache_cpu {freelist, tid, slab}; a free object holds the address of the next free
 * object at s->offset inside itself, so following a freelist touches the objects' own cache
 * lines (get_freepointer()). Objects live at the kernel's direct-map addresses
 * (PAGE_OFFSET + pfn * 4096 + index * size): on the model machine the cache model sees who
 * wrote each free pointer last.
 *
 * Caches are named by a small integer id, checked on every call, so a bad id is an error
 * and never undefined behaviour. Operations are resumable like the page allocator's
 * (blab_op_step): blab_slab_op_step() stops just before it takes the node's list_lock or,
 * through the page op it runs, zone->lock. The plain machine uses the synchronous wrappers.
 */
#ifndef BLAB_SLAB_H
#define BLAB_SLAB_H

#include <stdint.h>
#include "blab.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- limits (docs/limits.md) ---- */
#define BLAB_SLAB_MAX_CACHES 16u
#define BLAB_SLAB_MIN_SIZE 8u         /* the free pointer must fit */
#define BLAB_SLAB_MAX_ORDER 3u        /* PAGE_ALLOC_COSTLY_ORDER, as slub_max_order */
#define BLAB_SLAB_MAX_SIZE 32768u     /* one object per order-3 slab */
#define BLAB_SLAB_NAME_MAX 31u        /* bytes of a cache name */
#define BLAB_SLAB_ORDER_AUTO 0xffu    /* calculate_order() picks it */

/* kmem_cache flags */
#define BLAB_SLAB_PREFETCH 0x1u  /* 2011: prefetch_freepointer() of the next object after a
				  * fast-path allocation (the switch this project teaches) */
#define BLAB_SLAB_FP_MIDDLE 0x2u /* free pointer in the middle of the object (5.7+); else 0 */
#define BLAB_SLAB_FLAGS_ALL 0x3u

/*
 * Counters, named after the kernel's enum stat_item (CONFIG_SLUB_STATS) where one exists.
 * cmpxchg_fail stays 0 on our machines: a step is never interrupted and a CPU runs one op at
 * a time, so the tid check in the fast path always passes (the kernel needs it against
 * preemption and interrupts).
 */
struct blab_slab_stats {
	uint64_t alloc_fastpath;     /* ALLOC_FASTPATH: popped c->freelist */
	uint64_t alloc_slowpath;     /* ALLOC_SLOWPATH: c->freelist was empty */
	uint64_t alloc_refill;       /* ALLOC_REFILL: took the cpu slab's own freelist (remote frees) */
	uint64_t alloc_from_partial; /* ALLOC_FROM_PARTIAL: a slab off the node's partial list */
	uint64_t alloc_slab;         /* ALLOC_SLAB: a new slab from the page allocator */
	uint64_t free_fastpath;      /* FREE_FASTPATH: pushed on this CPU's c->freelist */
	uint64_t free_slowpath;      /* FREE_SLOWPATH: to the slab's own freelist (__slab_free) */
	uint64_t free_remote;        /* of those: freed on a CPU other than the slab's last owner */
	uint64_t free_frozen;        /* FREE_FROZEN: the slab is another CPU's cpu slab */
	uint64_t free_add_partial;   /* FREE_ADD_PARTIAL: a full slab got a free object */
	uint64_t free_remove_partial;/* FREE_REMOVE_PARTIAL: an empty slab left the list */
	uint64_t free_slab;          /* FREE_SLAB: slabs given back to the page allocator */
	uint64_t deactivate;         /* cpu slabs given up (full, or flushed by a shrink) */
	uint64_t prefetch;           /* prefetch_freepointer() calls */
	uint64_t cmpxchg_fail;       /* CMPXCHG_DOUBLE_CPU_FAIL: tid or freelist changed */
};

struct blab_kmem_cache_info {
	char name[BLAB_SLAB_NAME_MAX + 1];
	uint32_t size;        /* object size (s->size) */
	uint32_t offset;      /* s->offset: where the free pointer sits in a free object */
	uint32_t objects;     /* objects per slab (oo_objects) */
	uint32_t min_partial; /* empty slabs kept on the partial list (s->min_partial) */
	uint8_t order;        /* slab order (oo_order) */
	uint8_t flags;        /* BLAB_SLAB_* */
	uint32_t nr_slabs;    /* slabs that exist (cpu, partial and full) */
	uint32_t nr_partial;  /* on the node's partial list */
	uint32_t inuse;       /* objects handed out and not yet freed */
	struct blab_slab_stats stats;
};

/* Per-CPU view (the kmem_cache_cpu). */
struct blab_kmem_cache_cpu_info {
	uint64_t freelist;    /* address of the first object on c->freelist, 0 = empty */
	uint64_t tid;         /* transaction id: starts at cpu, advances by TID_STEP per op */
	uint64_t slab;        /* first pfn of the cpu slab, 0 = none */
	uint32_t nr_free;     /* objects on c->freelist */
};

/*
 * Creates a cache on zone z: object size BLAB_SLAB_MIN_SIZE..BLAB_SLAB_MAX_SIZE (rounded up
 * to 8), slab order 0..BLAB_SLAB_MAX_ORDER or BLAB_SLAB_ORDER_AUTO (calculate_order(): the
 * smallest order holding 4 * (fls(cpus) + 1) objects), flags BLAB_SLAB_*. The name is for
 * people (1..BLAB_SLAB_NAME_MAX bytes, blab_name_ok(): nothing hidden or reversed in it).
 * *id receives the cache's id.
 */
int blab_kmem_cache_create(struct blab_zone *z, const char *name, uint32_t size, unsigned order,
			   unsigned flags, uint32_t *id);
/* Frees the cache and every slab it holds; BLAB_EBUSY while objects are in use or an op is
 * in flight. The slabs' pages go back through cpu 0's pcp (synchronously). */
int blab_kmem_cache_destroy(struct blab_zone *z, uint32_t id);
int blab_kmem_cache_info(const struct blab_zone *z, uint32_t id, struct blab_kmem_cache_info *out);
int blab_kmem_cache_cpu_info(const struct blab_zone *z, uint32_t id, unsigned cpu,
			     struct blab_kmem_cache_cpu_info *out);
/* Changes the cache's flags (e.g. turn BLAB_SLAB_PREFETCH on or off between runs). */
int blab_kmem_cache_set_flags(struct blab_zone *z, uint32_t id, unsigned flags);

/* ---- resumable slab ops ---- */
enum blab_slab_op_kind {
	BLAB_SLAB_OP_ALLOC = 1,  /* kmem_cache_alloc() */
	BLAB_SLAB_OP_FREE = 2,   /* kmem_cache_free() */
	BLAB_SLAB_OP_SHRINK = 3, /* flush this CPU's cpu slab, give every empty slab back */
};

/* Caller-owned; fields below the line are private to the core. */
struct blab_slab_op {
	uint8_t kind;   /* enum blab_slab_op_kind */
	uint16_t cpu;
	uint16_t lock;  /* the lock the next step takes when BLAB_STEP_LOCK was returned */
	uint32_t cache;
	uint64_t addr;  /* FREE: the object; ALLOC: the result once done */
	/* ---- private ---- */
	uint8_t state;
	uint8_t discard_order;
	uint32_t discard_head;  /* SHRINK: slabs taken off the partial list, to give back */
	uint64_t discard_pfn;   /* the slab whose pages the page op is freeing */
	struct blab_op page;    /* the page allocator op in flight */
	int32_t err;
};
int blab_slab_op_alloc(struct blab_slab_op *op, uint32_t cache, unsigned cpu);
int blab_slab_op_free(struct blab_slab_op *op, uint32_t cache, unsigned cpu, uint64_t addr);
int blab_slab_op_shrink(struct blab_slab_op *op, uint32_t cache, unsigned cpu);
/* BLAB_STEP_DONE, BLAB_STEP_LOCK (op->lock says which), BLAB_ELOCKED, or an error. */
int blab_slab_op_step(struct blab_zone *z, struct blab_slab_op *op);

/* Synchronous wrappers (plain machine; on the model they run without the scheduler). */
int blab_kmem_cache_alloc(struct blab_zone *z, uint32_t cache, unsigned cpu, uint64_t *addr);
int blab_kmem_cache_free(struct blab_zone *z, uint32_t cache, unsigned cpu, uint64_t addr);
int blab_kmem_cache_shrink(struct blab_zone *z, uint32_t cache, unsigned cpu);

/* ---- reading a cache back (slab_read.c) ---- */
/* virt_to_cache(): the cache whose slab holds the object at addr (what kfree() looks up
 * first); BLAB_ESLABOBJ when no slab holds that address. */
int blab_kmem_cache_of(const struct blab_zone *z, uint64_t addr, uint32_t *id);
/* One slab of a cache. */
struct blab_slab_info {
	uint64_t pfn;         /* its first page */
	uint64_t base;        /* the address of object 0; object i is at base + i * size */
	uint32_t objects;     /* objects it holds */
	uint32_t inuse;       /* objects not on its own freelist (a cpu slab's are all in use) */
	uint16_t cpu;         /* the CPU whose cpu slab it is (frozen), else BLAB_CPU_NONE */
	uint8_t on_partial;   /* on the node's partial list */
	uint32_t partial_pos; /* its place there, the head 0 (on_partial only) */
	uint32_t nr_free;     /* objects on its own freelist (slab->freelist) */
};
/* The cache's slabs by pfn into out[0..max); *n how many (BLAB_ELIMIT when more than max). */
int blab_kmem_cache_slabs(const struct blab_zone *z, uint32_t id, struct blab_slab_info *out,
			  uint32_t max, uint32_t *n);
/* A freelist as object indices, the head first: cpu's c->freelist (cpu < the zone's CPUs;
 * slab_pfn ignored; empty when the CPU has no cpu slab), or with cpu = BLAB_CPU_NONE the own
 * freelist of the slab at slab_pfn (what remote frees pushed: slab->freelist). */
int blab_kmem_freelist(const struct blab_zone *z, uint32_t id, unsigned cpu, uint64_t slab_pfn,
		       uint16_t *objs, uint32_t max, uint32_t *n);

/* The slab layer's invariant checker: 0, or BLAB_ECHECK with a reason (blab_check() runs it
 * too). */
int blab_slab_check(const struct blab_zone *z, char *msg, unsigned msglen);

#ifdef __cplusplus
}
#endif
#endif
