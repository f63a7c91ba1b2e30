/*
 * slab.c - a SLUB-like slab layer over the page allocator (docs/slab.md).
 *
 * The shapes follow mm/slub.c around 3.3, the kernel of Eric Dumazet's 2011 change:
 *
 *   kmem_cache_alloc()  fast path: object = c->freelist; next = get_freepointer(object);
 *                       this_cpu_cmpxchg_double(freelist, tid) -> (next, next_tid);
 *                       with BLAB_SLAB_PREFETCH, prefetch_freepointer(next).
 *                       slow path (___slab_alloc): take the cpu slab's own freelist (what
 *                       remote frees gave back), else give up the full cpu slab, take a slab
 *                       off the node's partial list (under list_lock), else new_slab() from
 *                       the page allocator (order-0 through the pcp lists).
 *   kmem_cache_free()   object of this CPU's cpu slab: push on c->freelist (fast path).
 *                       Otherwise __slab_free(): push on the slab's own freelist; a full slab
 *                       goes on the partial list, an empty one is given back (discard_slab)
 *                       once the node holds min_partial partial slabs (both under list_lock).
 *
 * The free pointer really lives "inside" the object as far as the machine is concerned:
 * reading it is a touch of the object's line at s->offset, and the value is kept host-side
 * in the slab's fp[] array (an object index). Slab metadata that the kernel keeps in struct
 * page (struct slab) is kept here beside it, and the slab's struct page line is touched
 * where the kernel updates it. No cpu partial lists (3.2's per-cpu partial slabs) and one
 * node: the node's partial list and list_lock are the cache's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "machine/machine.h"
#include "slab.h"

enum slab_op_state {
	SS_START = 0,
	SS_ALLOC_PARTIAL, /* list_lock taken: get_partial() */
	SS_ALLOC_NEW,     /* the page op for new_slab() is in flight */
	SS_FREE_LOCKED,   /* list_lock taken: __slab_free() with a list change */
	SS_SHRINK_LOCKED, /* list_lock taken: flush the cpu slab, collect empty slabs */
	SS_DISCARD,       /* giving the op's empty slabs back, one page op at a time */
	SS_DONE,
};

/* ---- helpers ---- */

static struct kmem_cache *cache_of(const struct blab_zone *z, uint32_t id)
{
	if (!z || !z->slab || id >= BLAB_SLAB_MAX_CACHES || !z->slab->caches[id].used)
		return NULL;
	return &z->slab->caches[id];
}

static uint64_t obj_addr(const struct blab_zone *z, const struct kmem_cache *c,
			 const struct slab *s, uint32_t i)
{
	return frame_vaddr(slab_pfn(z, s)) + (uint64_t)i * c->size;
}

static uint64_t cpu_slab_vaddr(uint32_t id, unsigned cpu)
{
	return KMEM_CACHE_CPU_BASE + (uint64_t)cpu * 0x10000u + (uint64_t)id * 64u;
}

static uint64_t next_tid(uint64_t tid)
{
	return tid + TID_STEP;
}

static unsigned fls32(uint32_t x)
{
	unsigned n = 0;
	while (x) {
		n++;
		x >>= 1;
	}
	return n;
}

static unsigned ilog2_32(uint32_t x)
{
	return x ? fls32(x) - 1 : 0;
}

static const struct zone_layer_ops slab_layer;

static int slab_state_get(struct blab_zone *z)
{
	struct slab_state *ss;

	if (z->slab)
		return 0;
	ss = calloc(1, sizeof(*ss));
	if (!ss)
		return BLAB_ENOMEMHOST;
	ss->page_slab = malloc((size_t)z->pages * sizeof(*ss->page_slab));
	ss->busy = calloc(z->cpus, 1);
	if (!ss->page_slab || !ss->busy) {
		free(ss->page_slab);
		free(ss->busy);
		free(ss);
		return BLAB_ENOMEMHOST;
	}
	for (uint32_t i = 0; i < z->pages; i++)
		ss->page_slab[i] = NO_SLAB;
	ss->free_ids = NO_SLAB;
	z->slab = ss;
	z->slab_ops = &slab_layer; /* freed and checked with the zone from now on */
	return 0;
}

/* A slab entry with its object arrays, not yet holding pages; NO_SLAB on host OOM. */
static uint32_t slab_get_id(struct slab_state *ss, uint32_t cache, uint32_t objects)
{
	uint32_t id;
	struct slab *s;

	if (ss->free_ids != NO_SLAB) {
		id = ss->free_ids;
		ss->free_ids = ss->slabs[id].next;
	} else {
		if (ss->nslabs == ss->cap) {
			uint32_t ncap = ss->cap ? ss->cap * 2 : 64;
			struct slab *n = realloc(ss->slabs, (size_t)ncap * sizeof(*n));
			if (!n)
				return NO_SLAB;
			ss->slabs = n;
			ss->cap = ncap;
		}
		id = ss->nslabs++;
	}
	s = &ss->slabs[id];
	memset(s, 0, sizeof(*s));
	s->fp = malloc(objects * sizeof(*s->fp));
	s->state = malloc(objects);
	if (!s->fp || !s->state) {
		free(s->fp);
		free(s->state);
		s->cache = NO_SLAB;
		s->next = ss->free_ids;
		ss->free_ids = id;
		return NO_SLAB;
	}
	s->cache = cache;
	s->objects = (uint16_t)objects;
	s->freelist = FP_END;
	s->next = s->prev = NO_SLAB;
	s->idx = NO_SLAB;
	return id;
}

static void slab_put_id(struct slab_state *ss, uint32_t id)
{
	struct slab *s = &ss->slabs[id];
	free(s->fp);
	free(s->state);
	s->fp = NULL;
	s->state = NULL;
	s->cache = NO_SLAB;
	s->next = ss->free_ids;
	ss->free_ids = id;
}

/* ---- the node's partial list (caller holds list_lock) ---- */

static void add_partial(struct blab_zone *z, struct kmem_cache *c, uint32_t sid, unsigned cpu)
{
	struct slab *s = &z->slab->slabs[sid];
	s->on_partial = 1;
	s->next = NO_SLAB;
	s->prev = c->partial_tail;
	if (c->partial_tail != NO_SLAB)
		z->slab->slabs[c->partial_tail].next = sid;
	else
		c->partial_head = sid;
	c->partial_tail = sid;
	c->nr_partial++;
	EMIT(z, BLAB_EVC_STATE, BLAB_EV_SLAB_PARTIAL, slab_pfn(z, s), c->order, cpu, 0,
	     BLAB_PATH_SLAB_FREE_SLOW, 0, (uint32_t)(c - z->slab->caches), s->inuse);
}

static void remove_partial(struct blab_zone *z, struct kmem_cache *c, uint32_t sid, unsigned cpu,
			   unsigned path)
{
	struct slab *s = &z->slab->slabs[sid];
	if (s->prev != NO_SLAB)
		z->slab->slabs[s->prev].next = s->next;
	else
		c->partial_head = s->next;
	if (s->next != NO_SLAB)
		z->slab->slabs[s->next].prev = s->prev;
	else
		c->partial_tail = s->prev;
	s->next = s->prev = NO_SLAB;
	s->on_partial = 0;
	c->nr_partial--;
	EMIT(z, BLAB_EVC_STATE, BLAB_EV_SLAB_PARTIAL, slab_pfn(z, s), c->order, cpu, 0, path,
	     BLAB_EVF_PARTIAL_DEL, (uint32_t)(c - z->slab->caches), s->inuse);
}

/* ---- the machine's view of the free pointer ---- */

/* get_freepointer(): read the free pointer stored in a free object */
static uint16_t get_freepointer(struct blab_zone *z, const struct kmem_cache *c,
				const struct slab *s, uint16_t obj, unsigned cpu, unsigned path)
{
	mach_touch(&z->machine, cpu, obj_addr(z, c, s, obj) + c->offset, 0, path);
	return s->fp[obj];
}

/* set_freepointer(): write it (the freeing CPU now holds the line Modified) */
static void set_freepointer(struct blab_zone *z, const struct kmem_cache *c, struct slab *s,
			    uint16_t obj, uint16_t next, unsigned cpu, unsigned path)
{
	mach_touch(&z->machine, cpu, obj_addr(z, c, s, obj) + c->offset, 1, path);
	s->fp[obj] = next;
}

/* ---- op plumbing ---- */

static int op_finish(struct blab_zone *z, struct blab_slab_op *op, int ret)
{
	z->slab->busy[op->cpu] = 0;
	op->state = SS_DONE;
	op->err = ret;
	return ret;
}

/* the op's common fields; the cache and cpu are checked by the first step */
static void slab_op_init(struct blab_slab_op *op, unsigned kind, uint32_t cache, unsigned cpu)
{
	memset(op, 0, sizeof(*op));
	op->kind = (uint8_t)kind;
	op->cache = cache;
	op->cpu = (uint16_t)(cpu > 0xffff ? 0xffff : cpu);
	op->discard_head = NO_SLAB;
}

int blab_slab_op_alloc(struct blab_slab_op *op, uint32_t cache, unsigned cpu)
{
	if (!op)
		return BLAB_EINVAL;
	slab_op_init(op, BLAB_SLAB_OP_ALLOC, cache, cpu);
	return 0;
}

int blab_slab_op_free(struct blab_slab_op *op, uint32_t cache, unsigned cpu, uint64_t addr)
{
	if (!op)
		return BLAB_EINVAL;
	slab_op_init(op, BLAB_SLAB_OP_FREE, cache, cpu);
	op->addr = addr;
	return 0;
}

int blab_slab_op_shrink(struct blab_slab_op *op, uint32_t cache, unsigned cpu)
{
	if (!op)
		return BLAB_EINVAL;
	slab_op_init(op, BLAB_SLAB_OP_SHRINK, cache, cpu);
	return 0;
}

/* ---- allocation ---- */

/* Pop c->freelist after the slow path loaded it (no prefetch there, as in 3.3). */
static int load_freelist(struct blab_zone *z, struct blab_slab_op *op, struct kmem_cache *c)
{
	struct kmem_cache_cpu *cc = &c->cpu_slab[op->cpu];
	struct slab *s = &z->slab->slabs[cc->slab];
	uint16_t obj = cc->freelist;

	cc->freelist = get_freepointer(z, c, s, obj, op->cpu, BLAB_PATH_SLAB_ALLOC_SLOW);
	cc->nr_free--;
	cc->tid = next_tid(cc->tid);
	s->state[obj] = OBJ_ALLOC;
	c->inuse++;
	op->addr = obj_addr(z, c, s, obj);
	EMIT(z, BLAB_EVC_STATE, BLAB_EV_SLAB_ALLOC, op->addr - PAGE_OFFSET, c->order, op->cpu, 0,
	     BLAB_PATH_SLAB_ALLOC_SLOW, BLAB_EVF_SLAB_SLOW, op->cache, (uint32_t)cc->tid);
	return op_finish(z, op, BLAB_STEP_DONE);
}

/* Move the slab's own freelist to c->freelist; the slab becomes (stays) this CPU's. */
static void freeze_freelist(struct blab_zone *z, struct kmem_cache *c, uint32_t sid,
			    unsigned cpu, unsigned how, unsigned path)
{
	struct kmem_cache_cpu *cc = &c->cpu_slab[cpu];
	struct slab *s = &z->slab->slabs[sid];
	uint16_t n = 0;

	for (uint16_t o = s->freelist; o != FP_END; o = s->fp[o]) {
		s->state[o] = OBJ_CPU_FREE;
		n++;
	}
	/* cmpxchg_double_slab() on the slab's freelist and counters: its struct page line */
	mach_touch_page(&z->machine, cpu, slab_pfn(z, s), 1, path);
	mach_work(&z->machine, cpu, BLAB_COST_LIST_OP);
	cc->freelist = s->freelist;
	cc->nr_free = n;
	cc->slab = sid;
	s->freelist = FP_END;
	s->inuse = s->objects;
	s->frozen = 1;
	s->cpu = (uint16_t)cpu;
	EMIT(z, BLAB_EVC_STATE, BLAB_EV_SLAB_CPU_SLAB, slab_pfn(z, s), c->order, cpu, 0, path, how,
	     (uint32_t)(c - z->slab->caches), n);
}

static int new_slab(struct blab_zone *z, struct blab_slab_op *op, struct kmem_cache *c);

static int ___slab_alloc(struct blab_zone *z, struct blab_slab_op *op, struct kmem_cache *c)
{
	struct kmem_cache_cpu *cc = &c->cpu_slab[op->cpu];

	c->st.alloc_slowpath++;
	if (cc->slab != NO_SLAB) {
		struct slab *s = &z->slab->slabs[cc->slab];
		if (s->freelist != FP_END) {
			/* get_freelist(): what other CPUs freed into our cpu slab */
			c->st.alloc_refill++;
			freeze_freelist(z, c, cc->slab, op->cpu, BLAB_CPU_SLAB_REFILL,
					BLAB_PATH_SLAB_ALLOC_SLOW);
			return load_freelist(z, op, c);
		}
		/* the cpu slab is full: unfreeze it; full slabs sit on no list */
		mach_touch_page(&z->machine, op->cpu, slab_pfn(z, s), 1, BLAB_PATH_SLAB_ALLOC_SLOW);
		s->frozen = 0;
		cc->slab = NO_SLAB;
		c->st.deactivate++;
		EMIT(z, BLAB_EVC_STATE, BLAB_EV_SLAB_CPU_SLAB, slab_pfn(z, s), c->order, op->cpu, 0,
		     BLAB_PATH_SLAB_ALLOC_SLOW, BLAB_CPU_SLAB_DEACTIVATE, op->cache, 0);
	}
	if (c->nr_partial) { /* get_partial_node() looks without the lock first */
		op->state = SS_ALLOC_PARTIAL;
		op->lock = BLAB_LOCK_SLAB_LIST;
		return BLAB_STEP_LOCK;
	}
	return new_slab(z, op, c);
}

static int slab_alloc(struct blab_zone *z, struct blab_slab_op *op, struct kmem_cache *c)
{
	struct kmem_cache_cpu *cc = &c->cpu_slab[op->cpu];
	uint64_t tid;
	uint16_t obj, next;
	struct slab *s;

	z->slab->busy[op->cpu] = 1;
	mach_touch(&z->machine, op->cpu, cpu_slab_vaddr(op->cache, op->cpu), 0, BLAB_PATH_SLAB_ALLOC_FAST);
	for (;;) { /* redo: */
		tid = cc->tid;
		obj = cc->freelist;
		if (obj == FP_END)
			return ___slab_alloc(z, op, c);
		s = &z->slab->slabs[cc->slab];
		next = get_freepointer(z, c, s, obj, op->cpu, BLAB_PATH_SLAB_ALLOC_FAST);
		/* this_cpu_cmpxchg_double(freelist, tid): nothing can run between the reads and
		 * here on our machines, so it always succeeds; the kernel retries on preemption */
		if (cc->freelist == obj && cc->tid == tid)
			break;
		c->st.cmpxchg_fail++;
	}
	mach_work(&z->machine, op->cpu, BLAB_COST_LIST_OP);
	mach_touch(&z->machine, op->cpu, cpu_slab_vaddr(op->cache, op->cpu), 1, BLAB_PATH_SLAB_ALLOC_FAST);
	cc->freelist = next;
	cc->tid = next_tid(tid);
	cc->nr_free--;
	s->state[obj] = OBJ_ALLOC;
	c->inuse++;
	c->st.alloc_fastpath++;
	op->addr = obj_addr(z, c, s, obj);
	EMIT(z, BLAB_EVC_STATE, BLAB_EV_SLAB_ALLOC, op->addr - PAGE_OFFSET, c->order, op->cpu, 0,
	     BLAB_PATH_SLAB_ALLOC_FAST, 0, op->cache, (uint32_t)cc->tid);
	if ((c->flags & BLAB_SLAB_PREFETCH) && next != FP_END) {
		/* prefetch_freepointer(s, next_object): the line the next allocation reads */
		uint64_t a = obj_addr(z, c, s, next) + c->offset;
		uint64_t t0 = mach_now(&z->machine, op->cpu);
		mach_prefetch(&z->machine, op->cpu, a, BLAB_PATH_SLAB_ALLOC_FAST);
		c->st.prefetch++;
		EMIT(z, BLAB_EVC_CACHE, BLAB_EV_SLAB_FREELIST_PREFETCH, a - c->offset - PAGE_OFFSET, c->order,
		     op->cpu, 0, BLAB_PATH_SLAB_ALLOC_FAST, 0, op->cache,
		     (uint32_t)(mach_now(&z->machine, op->cpu) - t0));
	}
	return op_finish(z, op, BLAB_STEP_DONE);
}

static int get_partial(struct blab_zone *z, struct blab_slab_op *op, struct kmem_cache *c)
{
	uint32_t sid = c->partial_head;

	if (sid == NO_SLAB) { /* another CPU took it while we waited for list_lock */
		mach_unlock(&z->machine, op->cpu, BLAB_LOCK_SLAB_LIST);
		return new_slab(z, op, c);
	}
	remove_partial(z, c, sid, op->cpu, BLAB_PATH_SLAB_ALLOC_SLOW);
	c->st.alloc_from_partial++;
	freeze_freelist(z, c, sid, op->cpu, BLAB_CPU_SLAB_PARTIAL, BLAB_PATH_SLAB_ALLOC_SLOW);
	mach_unlock(&z->machine, op->cpu, BLAB_LOCK_SLAB_LIST);
	return load_freelist(z, op, c);
}

/* new_slab(): the slab entry first (so a host OOM leaks no page), then the page op. */
static int new_slab(struct blab_zone *z, struct blab_slab_op *op, struct kmem_cache *c)
{
	uint32_t sid = slab_get_id(z->slab, op->cache, c->objects);

	if (sid == NO_SLAB)
		return op_finish(z, op, BLAB_ENOMEMHOST);
	op->discard_head = sid; /* the entry waiting for its pages */
	blab_op_alloc(&op->page, op->cpu, c->order, BLAB_MT_UNMOVABLE, 0);
	op->state = SS_ALLOC_NEW;
	return BLAB_STEP_DONE + 2; /* "go on": the caller steps the page op now */
}

static int allocate_slab(struct blab_zone *z, struct blab_slab_op *op, struct kmem_cache *c)
{
	int ret = blab_op_step(z, &op->page);
	uint32_t sid = op->discard_head;
	struct slab *s;
	uint64_t pfn;

	if (ret == BLAB_STEP_LOCK) {
		op->lock = op->page.lock;
		return BLAB_STEP_LOCK;
	}
	if (ret == BLAB_ELOCKED)
		return ret; /* zone->lock is another CPU's for now: call again */
	if (ret != BLAB_STEP_DONE) {
		slab_put_id(z->slab, sid);
		op->discard_head = NO_SLAB;
		return op_finish(z, op, ret < 0 ? ret : BLAB_EINVAL);
	}
	op->discard_head = NO_SLAB;
	pfn = op->page.pfn;
	s = &z->slab->slabs[sid];
	s->idx = pfn_to_idx(z, pfn);
	for (uint32_t i = 0; i < (1u << c->order); i++)
		z->slab->page_slab[s->idx + i] = sid;
	c->nr_slabs++;
	c->st.alloc_slab++;
	EMIT(z, BLAB_EVC_STATE, BLAB_EV_SLAB_NEW, pfn, c->order, op->cpu, 0, BLAB_PATH_SLAB_NEW, 0,
	     op->cache, c->objects);
	/* the fresh slab's freelist runs through every object in address order */
	for (uint16_t i = 0; i < s->objects; i++) {
		s->state[i] = OBJ_SLAB_FREE;
		set_freepointer(z, c, s, i, (uint16_t)(i + 1u < s->objects ? i + 1u : FP_END),
				op->cpu, BLAB_PATH_SLAB_NEW);
	}
	s->freelist = 0;
	s->inuse = 0;
	freeze_freelist(z, c, sid, op->cpu, BLAB_CPU_SLAB_NEW, BLAB_PATH_SLAB_NEW);
	return load_freelist(z, op, c);
}

/* ---- freeing ---- */

/* The slab and object index of addr in cache c, or an error. */
static int lookup_object(const struct blab_zone *z, const struct kmem_cache *c, uint32_t id,
			 uint64_t addr, uint32_t *sid, uint16_t *obj)
{
	uint64_t pfn, off;
	uint32_t s_id;
	const struct slab *s;

	if (addr < PAGE_OFFSET || addr >= VMEMMAP_START)
		return BLAB_ESLABOBJ;
	pfn = (addr - PAGE_OFFSET) >> PAGE_SHIFT;
	if (pfn < z->start_pfn || pfn - z->start_pfn >= z->pages)
		return BLAB_ESLABOBJ;
	s_id = z->slab->page_slab[pfn_to_idx(z, pfn)];
	if (s_id == NO_SLAB)
		return BLAB_ESLABOBJ;
	s = &z->slab->slabs[s_id];
	if (s->cache != id || s->dying)
		return BLAB_ESLABOBJ;
	off = addr - frame_vaddr(slab_pfn(z, s));
	if (off % c->size || off / c->size >= s->objects)
		return BLAB_ESLABOBJ;
	*sid = s_id;
	*obj = (uint16_t)(off / c->size);
	if (s->state[*obj] != OBJ_ALLOC)
		return BLAB_EDOUBLEFREE;
	return 0;
}

/* __slab_free()'s list change is needed: the lock must be taken before the cmpxchg */
static int free_needs_lock(const struct slab *s)
{
	return !s->frozen && (s->inuse == 1 || s->freelist == FP_END);
}

/* Push obj on the slab's own freelist (the cmpxchg_double_slab part of __slab_free). */
static void slab_push(struct blab_zone *z, struct blab_slab_op *op, struct kmem_cache *c,
		      uint32_t sid, uint16_t obj, unsigned flags)
{
	struct slab *s = &z->slab->slabs[sid];

	set_freepointer(z, c, s, obj, s->freelist, op->cpu, BLAB_PATH_SLAB_FREE_SLOW);
	mach_touch_page(&z->machine, op->cpu, slab_pfn(z, s), 1, BLAB_PATH_SLAB_FREE_SLOW);
	mach_work(&z->machine, op->cpu, BLAB_COST_LIST_OP);
	s->freelist = obj;
	s->inuse--;
	s->state[obj] = OBJ_SLAB_FREE;
	c->inuse--;
	c->st.free_slowpath++;
	if (s->cpu != op->cpu)
		c->st.free_remote++;
	if (s->frozen)
		c->st.free_frozen++;
	if (!s->inuse)
		flags |= BLAB_EVF_SLAB_EMPTY;
	EMIT(z, BLAB_EVC_STATE, BLAB_EV_SLAB_REMOTE_FREE, op->addr - PAGE_OFFSET, c->order, op->cpu, 0,
	     BLAB_PATH_SLAB_FREE_SLOW, flags, op->cache, s->frozen ? s->cpu : BLAB_CPU_NONE);
}

/* An empty slab leaves every list; its pages go back in SS_DISCARD. */
static void queue_discard(struct blab_zone *z, struct blab_slab_op *op, uint32_t sid)
{
	struct slab *s = &z->slab->slabs[sid];
	s->dying = 1;
	s->next = op->discard_head;
	op->discard_head = sid;
}

static int discard_slab(struct blab_zone *z, struct blab_slab_op *op, struct kmem_cache *c);
static int __slab_free(struct blab_zone *z, struct blab_slab_op *op, struct kmem_cache *c);

static int slab_free(struct blab_zone *z, struct blab_slab_op *op, struct kmem_cache *c)
{
	struct kmem_cache_cpu *cc = &c->cpu_slab[op->cpu];
	uint32_t sid;
	uint16_t obj;
	struct slab *s;
	int err = lookup_object(z, c, op->cache, op->addr, &sid, &obj);

	if (err)
		return op_finish(z, op, err);
	z->slab->busy[op->cpu] = 1;
	s = &z->slab->slabs[sid];
	mach_touch(&z->machine, op->cpu, cpu_slab_vaddr(op->cache, op->cpu), 0, BLAB_PATH_SLAB_FREE_FAST);
	if (cc->slab == sid) {
		/* do_slab_free() fast path: onto this CPU's freelist */
		set_freepointer(z, c, s, obj, cc->freelist, op->cpu, BLAB_PATH_SLAB_FREE_FAST);
		mach_work(&z->machine, op->cpu, BLAB_COST_LIST_OP);
		mach_touch(&z->machine, op->cpu, cpu_slab_vaddr(op->cache, op->cpu), 1,
			   BLAB_PATH_SLAB_FREE_FAST);
		cc->freelist = obj;
		cc->nr_free++;
		cc->tid = next_tid(cc->tid);
		s->state[obj] = OBJ_CPU_FREE;
		c->inuse--;
		c->st.free_fastpath++;
		EMIT(z, BLAB_EVC_STATE, BLAB_EV_SLAB_FREE, op->addr - PAGE_OFFSET, c->order, op->cpu, 0,
		     BLAB_PATH_SLAB_FREE_FAST, 0, op->cache, (uint32_t)cc->tid);
		return op_finish(z, op, BLAB_STEP_DONE);
	}
	return __slab_free(z, op, c);
}

/*
 * __slab_free(): an object that is not in this CPU's cpu slab goes back on its slab's own
 * freelist. Without a list change that is the lockless cmpxchg_double_slab() push; a full
 * slab going partial, or a slab going empty, changes the node's lists, so the op first
 * stops before list_lock (SS_FREE_LOCKED) and the push happens, with the list change, in
 * the step that holds it.
 */
static int __slab_free(struct blab_zone *z, struct blab_slab_op *op, struct kmem_cache *c)
{
	uint32_t sid;
	uint16_t obj;
	struct slab *s;
	int was_full, err = lookup_object(z, c, op->cache, op->addr, &sid, &obj);

	if (err) {
		/* the first step's object was looked up by slab_free() already; resumed, it was
		 * freed by another CPU while this one waited for list_lock: a double free */
		if (op->state != SS_START)
			mach_unlock(&z->machine, op->cpu, BLAB_LOCK_SLAB_LIST);
		return op_finish(z, op, err);
	}
	s = &z->slab->slabs[sid];
	if (op->state == SS_START) {
		if (free_needs_lock(s)) {
			op->state = SS_FREE_LOCKED;
			op->lock = BLAB_LOCK_SLAB_LIST;
			return BLAB_STEP_LOCK;
		}
		slab_push(z, op, c, sid, obj, 0);
		return op_finish(z, op, BLAB_STEP_DONE);
	}
	was_full = s->freelist == FP_END;
	if (s->frozen) { /* became a cpu slab meanwhile: a plain push */
		slab_push(z, op, c, sid, obj, 0);
		mach_unlock(&z->machine, op->cpu, BLAB_LOCK_SLAB_LIST);
		return op_finish(z, op, BLAB_STEP_DONE);
	}
	if (s->inuse == 1 && c->nr_partial >= c->min_partial) {
		/* slab_empty: give it back to the page allocator */
		slab_push(z, op, c, sid, obj, 0);
		if (s->on_partial) {
			remove_partial(z, c, sid, op->cpu, BLAB_PATH_SLAB_FREE_SLOW);
			c->st.free_remove_partial++;
		}
		queue_discard(z, op, sid);
		mach_unlock(&z->machine, op->cpu, BLAB_LOCK_SLAB_LIST);
		op->state = SS_DISCARD;
		return discard_slab(z, op, c);
	}
	slab_push(z, op, c, sid, obj, was_full ? BLAB_EVF_SLAB_TO_PARTIAL : 0);
	if (was_full) {
		add_partial(z, c, sid, op->cpu);
		c->st.free_add_partial++;
	}
	mach_unlock(&z->machine, op->cpu, BLAB_LOCK_SLAB_LIST);
	return op_finish(z, op, BLAB_STEP_DONE);
}

/* discard_slab(): one slab of the op's list at a time, each through a page free op */
static int discard_slab(struct blab_zone *z, struct blab_slab_op *op, struct kmem_cache *c)
{
	for (;;) {
		int ret;
		if (op->discard_pfn) {
			ret = blab_op_step(z, &op->page);
			if (ret == BLAB_STEP_LOCK) {
				op->lock = op->page.lock;
				return BLAB_STEP_LOCK;
			}
			if (ret == BLAB_ELOCKED)
				return ret; /* zone->lock is another CPU's for now: call again */
			if (ret != BLAB_STEP_DONE)
				return op_finish(z, op, ret < 0 ? ret : BLAB_EINVAL);
			op->discard_pfn = 0;
		}
		if (op->discard_head == NO_SLAB)
			return op_finish(z, op, BLAB_STEP_DONE);
		{
			uint32_t sid = op->discard_head;
			struct slab *s = &z->slab->slabs[sid];
			uint64_t pfn = slab_pfn(z, s);
			op->discard_head = s->next;
			for (uint32_t i = 0; i < (1u << c->order); i++)
				z->slab->page_slab[s->idx + i] = NO_SLAB;
			mach_touch_page(&z->machine, op->cpu, pfn, 1, BLAB_PATH_SLAB_DEACTIVATE);
			slab_put_id(z->slab, sid);
			c->nr_slabs--;
			c->st.free_slab++;
			EMIT(z, BLAB_EVC_STATE, BLAB_EV_SLAB_DISCARD, pfn, c->order, op->cpu, 0,
			     BLAB_PATH_SLAB_DEACTIVATE, 0, op->cache, 0);
			op->discard_pfn = pfn;
			op->discard_order = c->order;
			blab_op_free(&op->page, op->cpu, pfn, c->order, 0);
		}
	}
}

/* ---- shrink: flush this CPU's cpu slab, give every empty slab back ---- */

static int shrink_locked(struct blab_zone *z, struct blab_slab_op *op, struct kmem_cache *c)
{
	struct kmem_cache_cpu *cc = &c->cpu_slab[op->cpu];

	if (cc->slab != NO_SLAB) {
		/* deactivate_slab(): c->freelist goes back onto the slab's freelist */
		uint32_t sid = cc->slab;
		struct slab *s = &z->slab->slabs[sid];
		uint16_t n = 0;
		while (cc->freelist != FP_END) {
			uint16_t o = cc->freelist;
			cc->freelist = get_freepointer(z, c, s, o, op->cpu, BLAB_PATH_SLAB_DEACTIVATE);
			set_freepointer(z, c, s, o, s->freelist, op->cpu, BLAB_PATH_SLAB_DEACTIVATE);
			s->freelist = o;
			s->state[o] = OBJ_SLAB_FREE;
			s->inuse--;
			n++;
		}
		mach_touch_page(&z->machine, op->cpu, slab_pfn(z, s), 1, BLAB_PATH_SLAB_DEACTIVATE);
		s->frozen = 0;
		cc->slab = NO_SLAB;
		cc->nr_free = 0;
		cc->tid = next_tid(cc->tid);
		c->st.deactivate++;
		EMIT(z, BLAB_EVC_STATE, BLAB_EV_SLAB_CPU_SLAB, slab_pfn(z, s), c->order, op->cpu, 0,
		     BLAB_PATH_SLAB_DEACTIVATE, BLAB_CPU_SLAB_DEACTIVATE, op->cache, n);
		if (!s->inuse)
			queue_discard(z, op, sid);
		else if (s->freelist != FP_END)
			add_partial(z, c, sid, op->cpu);
	}
	/* every empty slab on the partial list */
	for (uint32_t sid = c->partial_head; sid != NO_SLAB;) {
		uint32_t next = z->slab->slabs[sid].next;
		if (!z->slab->slabs[sid].inuse) {
			remove_partial(z, c, sid, op->cpu, BLAB_PATH_SLAB_DEACTIVATE);
			c->st.free_remove_partial++;
			queue_discard(z, op, sid);
		}
		sid = next;
	}
	mach_unlock(&z->machine, op->cpu, BLAB_LOCK_SLAB_LIST);
	op->state = SS_DISCARD;
	return discard_slab(z, op, c);
}

/* ---- the step ---- */

static int needs_list_lock(unsigned state)
{
	return state == SS_ALLOC_PARTIAL || state == SS_FREE_LOCKED || state == SS_SHRINK_LOCKED;
}

int blab_slab_op_step(struct blab_zone *z, struct blab_slab_op *op)
{
	struct kmem_cache *c;
	int ret;

	if (!z || !op)
		return BLAB_EINVAL;
	c = cache_of(z, op->cache);
	if (!c)
		return BLAB_ESLABCACHE;
	if (op->cpu >= z->cpus)
		return BLAB_ECPU;
	if (op->state == SS_START) {
		if (op->kind != BLAB_SLAB_OP_ALLOC && op->kind != BLAB_SLAB_OP_FREE &&
		    op->kind != BLAB_SLAB_OP_SHRINK)
			return BLAB_EINVAL;
		if (z->slab->busy[op->cpu])
			return BLAB_EBUSY;
		op->discard_head = NO_SLAB;
		op->discard_pfn = 0;
		switch (op->kind) {
		case BLAB_SLAB_OP_ALLOC:
			ret = slab_alloc(z, op, c);
			break;
		case BLAB_SLAB_OP_FREE:
			ret = slab_free(z, op, c);
			break;
		default:
			z->slab->busy[op->cpu] = 1;
			op->state = SS_SHRINK_LOCKED;
			op->lock = BLAB_LOCK_SLAB_LIST;
			return BLAB_STEP_LOCK;
		}
		if (ret != BLAB_STEP_DONE + 2)
			return ret;
		/* new_slab(): the page op runs in this same step until it needs zone->lock */
		return allocate_slab(z, op, c);
	}
	/* resuming: an op this zone started, in a state it can be in */
	if (!z->slab->busy[op->cpu] || op->state >= SS_DONE)
		return BLAB_EINVAL;
	if ((op->state == SS_ALLOC_NEW && op->discard_head >= z->slab->nslabs) ||
	    (op->state == SS_DISCARD && op->discard_head != NO_SLAB &&
	     op->discard_head >= z->slab->nslabs))
		return BLAB_EINVAL;
	if (needs_list_lock(op->state) && step_take_lock(z, op->cpu, BLAB_LOCK_SLAB_LIST))
		return BLAB_ELOCKED;
	switch (op->state) {
	case SS_ALLOC_PARTIAL:
		ret = get_partial(z, op, c);
		if (ret != BLAB_STEP_DONE + 2)
			return ret;
		return allocate_slab(z, op, c);
	case SS_ALLOC_NEW:
		return allocate_slab(z, op, c);
	case SS_FREE_LOCKED:
		return __slab_free(z, op, c);
	case SS_SHRINK_LOCKED:
		return shrink_locked(z, op, c);
	case SS_DISCARD:
		return discard_slab(z, op, c);
	default:
		return BLAB_EINVAL;
	}
}

/* ---- synchronous wrappers ---- */

static int slab_op_step(struct blab_zone *z, void *op)
{
	return blab_slab_op_step(z, op);
}

static int slab_sync(struct blab_zone *z, struct blab_slab_op *op)
{
	int ret;
	if (!z)
		return BLAB_EINVAL;
	if (op->cpu >= z->cpus)
		return BLAB_ECPU;
	ret = _blab_step_to_done(z, slab_op_step, op, "a slab step");
	_blab_debug_check(z, "a slab op");
	return ret;
}

int blab_kmem_cache_alloc(struct blab_zone *z, uint32_t cache, unsigned cpu, uint64_t *addr)
{
	struct blab_slab_op op;
	int ret;

	if (!addr)
		return BLAB_EINVAL;
	blab_slab_op_alloc(&op, cache, cpu);
	ret = slab_sync(z, &op);
	if (ret == 0)
		*addr = op.addr;
	return ret;
}

int blab_kmem_cache_free(struct blab_zone *z, uint32_t cache, unsigned cpu, uint64_t addr)
{
	struct blab_slab_op op;
	blab_slab_op_free(&op, cache, cpu, addr);
	return slab_sync(z, &op);
}

int blab_kmem_cache_shrink(struct blab_zone *z, uint32_t cache, unsigned cpu)
{
	struct blab_slab_op op;
	blab_slab_op_shrink(&op, cache, cpu);
	return slab_sync(z, &op);
}

/* ---- caches ---- */

/* calculate_order(): the smallest order that holds min_objects, else slub_max_order */
static unsigned calculate_order(uint32_t size, unsigned cpus)
{
	uint32_t min_objects = 4u * (fls32(cpus) + 1u);
	for (unsigned order = 0; order <= BLAB_SLAB_MAX_ORDER; order++)
		if (((4096u << order) / size) >= min_objects)
			return order;
	return BLAB_SLAB_MAX_ORDER; /* the most objects slub_max_order allows */
}

int blab_kmem_cache_create(struct blab_zone *z, const char *name, uint32_t size, unsigned order,
			   unsigned flags, uint32_t *id)
{
	struct kmem_cache *c = NULL;
	uint32_t i;
	size_t len;
	int ret;

	if (!z || !name || !id)
		return BLAB_EINVAL;
	len = strlen(name);
	if (!len || len > BLAB_SLAB_NAME_MAX || (flags & ~BLAB_SLAB_FLAGS_ALL) ||
	    !blab_name_ok(name)) /* it is shown to people as it is: nothing may hide in it */
		return BLAB_EINVAL;
	if (size < BLAB_SLAB_MIN_SIZE || size > BLAB_SLAB_MAX_SIZE)
		return BLAB_ELIMIT;
	size = (size + 7u) & ~7u; /* word-aligned, as the free pointer needs */
	if (order == BLAB_SLAB_ORDER_AUTO)
		order = calculate_order(size, z->cpus);
	if (order > BLAB_SLAB_MAX_ORDER || order > z->top_order)
		return BLAB_EORDER;
	if ((4096u << order) < size)
		return BLAB_EORDER; /* not even one object fits */
	if ((ret = slab_state_get(z)) != 0)
		return ret;
	for (i = 0; i < BLAB_SLAB_MAX_CACHES; i++)
		if (!z->slab->caches[i].used) {
			c = &z->slab->caches[i];
			break;
		}
	if (!c)
		return BLAB_ELIMIT;
	memset(c, 0, sizeof(*c));
	c->cpu_slab = calloc(z->cpus, sizeof(*c->cpu_slab));
	if (!c->cpu_slab)
		return BLAB_ENOMEMHOST;
	c->used = 1;
	memcpy(c->name, name, len + 1);
	c->size = size;
	c->flags = (uint8_t)flags;
	c->offset = (flags & BLAB_SLAB_FP_MIDDLE) ? (size / 2u) & ~7u : 0;
	c->order = (uint8_t)order;
	c->objects = (4096u << order) / size;
	/* set_min_partial(): ilog2(size) / 2, clamped to [MIN_PARTIAL, MAX_PARTIAL] */
	c->min_partial = ilog2_32(size) / 2u;
	if (c->min_partial < MIN_PARTIAL)
		c->min_partial = MIN_PARTIAL;
	if (c->min_partial > MAX_PARTIAL)
		c->min_partial = MAX_PARTIAL;
	c->partial_head = c->partial_tail = NO_SLAB;
	for (unsigned cpu = 0; cpu < z->cpus; cpu++) {
		c->cpu_slab[cpu].tid = cpu; /* init_tid() */
		c->cpu_slab[cpu].slab = NO_SLAB;
		c->cpu_slab[cpu].freelist = FP_END;
	}
	*id = i;
	EMIT(z, BLAB_EVC_STATE, BLAB_EV_SLAB_CACHE_CREATE, c->objects, c->order, BLAB_CPU_NONE, 0,
	     BLAB_PATH_NONE, c->flags, i, c->size);
	return 0;
}

int blab_kmem_cache_set_flags(struct blab_zone *z, uint32_t id, unsigned flags)
{
	struct kmem_cache *c = cache_of(z, id);
	if (!c)
		return z ? BLAB_ESLABCACHE : BLAB_EINVAL;
	if ((flags & ~BLAB_SLAB_FLAGS_ALL) ||
	    ((flags ^ c->flags) & BLAB_SLAB_FP_MIDDLE && c->nr_slabs))
		return BLAB_EINVAL; /* the free pointer cannot move under live slabs */
	c->flags = (uint8_t)flags;
	c->offset = (flags & BLAB_SLAB_FP_MIDDLE) ? (c->size / 2u) & ~7u : 0;
	return 0;
}

int blab_kmem_cache_destroy(struct blab_zone *z, uint32_t id)
{
	struct kmem_cache *c = cache_of(z, id);
	int ret;

	if (!c)
		return z ? BLAB_ESLABCACHE : BLAB_EINVAL;
	if (c->inuse)
		return BLAB_EBUSY;
	for (unsigned cpu = 0; cpu < z->cpus; cpu++)
		if (z->slab->busy[cpu])
			return BLAB_EBUSY;
	/* flush every cpu slab and give every empty slab back, through each CPU's own pcp */
	for (unsigned cpu = 0; cpu < z->cpus; cpu++)
		if ((ret = blab_kmem_cache_shrink(z, id, cpu)) != 0)
			return ret;
	if (c->nr_slabs)
		return BLAB_ECHECK; /* cannot happen: no object in use means every slab was empty */
	free(c->cpu_slab);
	memset(c, 0, sizeof(*c));
	return 0;
}

int blab_kmem_cache_info(const struct blab_zone *z, uint32_t id, struct blab_kmem_cache_info *out)
{
	const struct kmem_cache *c = cache_of(z, id);
	if (!out)
		return BLAB_EINVAL;
	if (!c)
		return z ? BLAB_ESLABCACHE : BLAB_EINVAL;
	memset(out, 0, sizeof(*out));
	memcpy(out->name, c->name, sizeof(out->name));
	out->size = c->size;
	out->offset = c->offset;
	out->objects = c->objects;
	out->min_partial = c->min_partial;
	out->order = c->order;
	out->flags = c->flags;
	out->nr_slabs = c->nr_slabs;
	out->nr_partial = c->nr_partial;
	out->inuse = c->inuse;
	out->stats = c->st;
	return 0;
}

int blab_kmem_cache_cpu_info(const struct blab_zone *z, uint32_t id, unsigned cpu,
			     struct blab_kmem_cache_cpu_info *out)
{
	const struct kmem_cache *c = cache_of(z, id);
	const struct kmem_cache_cpu *cc;
	if (!out)
		return BLAB_EINVAL;
	if (!c)
		return z ? BLAB_ESLABCACHE : BLAB_EINVAL;
	if (cpu >= z->cpus)
		return BLAB_ECPU;
	cc = &c->cpu_slab[cpu];
	memset(out, 0, sizeof(*out));
	out->tid = cc->tid;
	out->nr_free = cc->nr_free;
	if (cc->slab != NO_SLAB) {
		const struct slab *s = &z->slab->slabs[cc->slab];
		out->slab = slab_pfn(z, s);
		if (cc->freelist != FP_END)
			out->freelist = obj_addr(z, c, s, cc->freelist);
	}
	return 0;
}

static void slab_destroy_all(struct blab_zone *z)
{
	struct slab_state *ss = z->slab;
	if (!ss)
		return;
	for (uint32_t i = 0; i < ss->nslabs; i++)
		if (ss->slabs[i].cache != NO_SLAB) {
			free(ss->slabs[i].fp);
			free(ss->slabs[i].state);
		}
	for (uint32_t i = 0; i < BLAB_SLAB_MAX_CACHES; i++)
		free(ss->caches[i].cpu_slab);
	free(ss->slabs);
	free(ss->page_slab);
	free(ss->busy);
	free(ss);
	z->slab = NULL;
	z->slab_ops = NULL;
}

static const struct zone_layer_ops slab_layer = {
	.destroy = slab_destroy_all,
	.check = _blab_slab_check,
};
