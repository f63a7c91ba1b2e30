/*
 * slab.h - the slab layer's own types, shared by slab.c (the allocator) and slab_check.c
 * (its invariant checker). The public API is include/blab_slab.h.
 */
#ifndef BLAB_SLAB_INTERNAL_H
#define BLAB_SLAB_INTERNAL_H

#include "blab_slab.h"
#include "mm.h"

#define FP_END 0xffffu        /* end of a freelist (NULL) */
#define NO_SLAB 0xffffffffu
#define TID_STEP 256u         /* roundup_pow_of_two(BLAB_MAX_CPUS): tid % TID_STEP = cpu */
#define MIN_PARTIAL 5u        /* the kernel's MIN_PARTIAL / MAX_PARTIAL */
#define MAX_PARTIAL 10u
/* kmem_cache_cpu lines: in the vmalloc area, where alloc_percpu() chunks live */
#define KMEM_CACHE_CPU_BASE 0xffffc90000000000ull

enum obj_state { OBJ_SLAB_FREE = 0, OBJ_CPU_FREE = 1, OBJ_ALLOC = 2 };

struct slab {
	uint32_t cache;     /* cache id; NO_SLAB = this entry is unused */
	uint32_t idx;       /* zone index of the slab's first page */
	uint16_t freelist;  /* slab->freelist: first object freed to the slab itself */
	uint16_t inuse;     /* objects not on slab->freelist (those on c->freelist count) */
	uint16_t objects;
	uint16_t cpu;       /* the CPU whose cpu slab it is, or was last */
	uint8_t frozen;     /* a cpu slab */
	uint8_t on_partial;
	uint8_t dying;      /* empty, taken off every list, pages about to be freed */
	uint32_t next, prev; /* partial list (or an op's discard list, or the free ids) */
	uint16_t *fp;       /* the free pointer each free object holds: the next one's index */
	uint8_t *state;     /* enum obj_state of each object */
};

struct kmem_cache_cpu {
	uint64_t tid;
	uint32_t slab;      /* slab id or NO_SLAB */
	uint16_t freelist;  /* object index in the cpu slab, or FP_END */
	uint16_t nr_free;
};

struct kmem_cache {
	uint8_t used;
	uint8_t order;
	uint8_t flags;
	char name[BLAB_SLAB_NAME_MAX + 1];
	uint32_t size, offset, objects, min_partial;
	uint32_t nr_slabs, nr_partial, inuse;
	uint32_t partial_head, partial_tail;
	struct kmem_cache_cpu *cpu_slab; /* z->cpus entries */
	struct blab_slab_stats st;
};

struct slab_state {
	struct kmem_cache caches[BLAB_SLAB_MAX_CACHES];
	struct slab *slabs;
	uint32_t nslabs, cap, free_ids; /* free_ids: unused entries chained by next */
	uint32_t *page_slab;            /* per zone page: the slab it belongs to, or NO_SLAB */
	uint8_t *busy;                  /* per CPU: a slab op is in flight */
};

/* slab_check.c: the invariants of every cache of z (z->slab set); 0 or BLAB_ECHECK */
int _blab_slab_check(const struct blab_zone *z, char *msg, unsigned msglen);

static inline uint64_t slab_pfn(const struct blab_zone *z, const struct slab *s)
{
	return idx_to_pfn(z, s->idx);
}

#endif
