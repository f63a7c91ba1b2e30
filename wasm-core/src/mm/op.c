/*
 * op.c - resumable operations: alloc, free and drain as small state machines.
 *
 * blab_op_step() runs an op until just before it would take a lock and returns
 * BLAB_STEP_LOCK; the next call takes that lock first thing. A scheduler of virtual cpus
 * (the model machine) can so grant zone->lock in arrival order; the plain machine simply
 * loops (blab_alloc, blab_free, blab_drain). Pages between two steps of a bulk free sit on
 * the op's own list, flagged PG_picked, exactly as the 4.17 kernel keeps them on a local
 * list between picking (outside the lock) and merging (under it).
 */
#include <string.h>
#include "mm.h"
#include "machine/machine.h"
#include "fastpath.h"

enum op_state {
	S_START = 0,
	S_REFILL,      /* alloc: lock taken, rmqueue_bulk() */
	S_RMQUEUE,     /* alloc without pcp: lock taken, __rmqueue() */
	S_FREE_DIRECT, /* free without pcp: lock taken, __free_one_page() */
	S_BULK_BEGIN,  /* free_pcppages_bulk() starts */
	S_BULK_LOCKED, /* one pass / single pass: lock taken, pick and merge */
	S_BULK_MERGE,  /* two pass: pages picked, lock taken, merge */
	S_AFTER_BULK,  /* bulk free done: what the op does next */
	S_DONE,
};

static int needs_lock(unsigned state)
{
	return state == S_REFILL || state == S_RMQUEUE || state == S_FREE_DIRECT ||
	       state == S_BULK_LOCKED || state == S_BULK_MERGE;
}

/*
 * The fields every op starts with. Out-of-range values are clamped, not rejected, so that
 * blab_op_step() reports them with the same errors as the synchronous calls.
 */
static void op_init(struct blab_op *op, unsigned kind, unsigned cpu, unsigned order,
		    unsigned gfp)
{
	memset(op, 0, sizeof(*op));
	op->kind = (uint8_t)kind;
	op->picked_head = op->picked_tail = NIL;
	op->cpu = (uint16_t)(cpu > 0xffff ? 0xffff : cpu);
	op->order = (uint8_t)(order > 0xff ? 0xff : order);
	op->gfp = (uint8_t)gfp;
}

int blab_op_alloc(struct blab_op *op, unsigned cpu, unsigned order, unsigned mt, unsigned gfp)
{
	if (!op)
		return BLAB_EINVAL;
	op_init(op, BLAB_OP_ALLOC, cpu, order, gfp);
	op->mt = (uint8_t)(mt > 0xff ? 0xff : mt);
	return 0;
}

int blab_op_free(struct blab_op *op, unsigned cpu, uint64_t pfn, unsigned order, unsigned gfp)
{
	if (!op)
		return BLAB_EINVAL;
	op_init(op, BLAB_OP_FREE, cpu, order, gfp);
	op->pfn = pfn;
	return 0;
}

int blab_op_drain(struct blab_op *op, unsigned cpu)
{
	if (!op)
		return BLAB_EINVAL;
	op_init(op, BLAB_OP_DRAIN, cpu, 0, 0);
	return 0;
}

static int pcp_handles(const struct blab_zone *z, unsigned order)
{
	return z->s.pcp != BLAB_PCP_NONE && order <= z->s.pcp_max_order;
}

static int finish(struct blab_zone *z, struct blab_op *op, int ret)
{
	z->pageset[op->cpu].busy = 0;
	op->state = S_DONE;
	op->err = ret;
	return ret;
}

static int alloc_fail(struct blab_zone *z, struct blab_op *op, int err)
{
	EMIT(z, BLAB_EVC_EXPLAIN, BLAB_EV_ALLOC_FAIL, 0, op->order, op->cpu, op->mt,
	     pcp_handles(z, op->order) ? BLAB_PATH_ALLOC_FAST : BLAB_PATH_RMQUEUE, 0,
	     (uint32_t)-err, 0);
	return finish(z, op, err);
}

static int hand_out(struct blab_zone *z, struct blab_op *op, uint32_t idx, unsigned path)
{
	_blab_mark_allocated(z, idx, op->order);
	z->mem_map[idx].mt = op->mt; /* the request's type: compaction moves MOVABLE blocks only */
	op->pfn = idx_to_pfn(z, idx);
	EMIT(z, BLAB_EVC_STATE, BLAB_EV_ALLOC, op->pfn, op->order, op->cpu, op->mt, path, 0,
	     op->gfp, 0);
	return finish(z, op, BLAB_STEP_DONE);
}

/* take a block off cpu's pcp list for this alloc; 0 when there is none */
static int take_from_pcp(struct blab_zone *z, struct blab_op *op)
{
	int cold = (op->gfp & BLAB_GFP_COLD) != 0;
	unsigned which = z->s.pcp == BLAB_PCP_HOTCOLD && cold ? 1 : 0;
	uint32_t idx = _blab_pcp_peek(z, op->cpu, which, op->order, op->mt,
				      z->s.pcp == BLAB_PCP_LIFO && cold);
	if (idx == NIL)
		return 0;
	mach_touch_page(&z->machine, op->cpu, idx_to_pfn(z, idx), 1, BLAB_PATH_ALLOC_FAST);
	_blab_pcp_del(z, op->cpu, which, idx, BLAB_PATH_ALLOC_FAST);
	hand_out(z, op, idx, BLAB_PATH_ALLOC_FAST);
	return 1;
}

static int alloc_start(struct blab_zone *z, struct blab_op *op)
{
	if (op->order > z->top_order)
		return BLAB_EORDER;
	if (op->mt >= BLAB_MT_PCPTYPES)
		return BLAB_EMT;
	z->pageset[op->cpu].busy = 1;
	if (z->s.watermarks &&
	    z->free_pages < z->wmark[WMARK_LOW] + (1u << op->order))
		return alloc_fail(z, op, BLAB_EWMARK);
	if (!pcp_handles(z, op->order)) {
		op->state = S_RMQUEUE;
		return BLAB_STEP_LOCK;
	}
	if (z->s.pcp == BLAB_PCP_HOTCOLD) {
		unsigned which = (op->gfp & BLAB_GFP_COLD) ? 1 : 0;
		struct per_cpu_pages *pcp = &z->pageset[op->cpu].pcp[which];
		if (pcp->count > pcp->low && take_from_pcp(z, op))
			return BLAB_STEP_DONE;
	} else {
		z->pageset[op->cpu].pcp[0].free_factor >>= 1; /* an allocation: free less next time */
		if (take_from_pcp(z, op))
			return BLAB_STEP_DONE;
	}
	op->state = S_REFILL;
	return BLAB_STEP_LOCK;
}

static int alloc_refill(struct blab_zone *z, struct blab_op *op)
{
	unsigned which = z->s.pcp == BLAB_PCP_HOTCOLD && (op->gfp & BLAB_GFP_COLD) ? 1 : 0;
	struct per_cpu_pages *pcp = &z->pageset[op->cpu].pcp[which];
	uint32_t count = pcp->batch;

	/* 5.14+ high-order lists: scale the batch by order, at least 2 (unless batch is 1) */
	if (op->order && count > 1)
		count = (count >> op->order) > 2 ? count >> op->order : 2;
	if (_blab_cluster_refill(z, op->order)) {
		_blab_rmqueue_cluster(z, op->cpu, which, count, op->mt); /* drops zone->lock */
	} else {
		rmqueue_bulk(z, op->cpu, which, op->order, count, op->mt);
		mach_unlock(&z->machine, op->cpu, BLAB_LOCK_ZONE);
	}
	if (take_from_pcp(z, op))
		return BLAB_STEP_DONE;
	return alloc_fail(z, op, BLAB_ENOMEM);
}

static int alloc_rmqueue(struct blab_zone *z, struct blab_op *op)
{
	uint32_t idx;
	int err = __rmqueue(z, op->cpu, op->order, op->mt, BLAB_PATH_RMQUEUE, &idx);

	mach_unlock(&z->machine, op->cpu, BLAB_LOCK_ZONE);
	if (err)
		return alloc_fail(z, op, err);
	return hand_out(z, op, idx, BLAB_PATH_RMQUEUE);
}

/* ---- free_pcppages_bulk() ---- */

/* first_list: the list to drain first (5.18); the batch_free round-robin starts after 0 */
static void bulk_setup(struct blab_zone *z, struct blab_op *op, unsigned which, uint32_t count,
		       unsigned first_list, unsigned path)
{
	struct per_cpu_pages *pcp = &z->pageset[op->cpu].pcp[which];
	unsigned nlists = _blab_pcp_nr_lists(z);

	op->which = (uint8_t)which;
	op->to_free = count < pcp->count ? count : pcp->count;
	if (z->s.bulk_rr == BLAB_RR_LIST)
		op->pindex = (uint8_t)((first_list + nlists - 1) % nlists);
	else
		op->pindex = 0;
	op->batch_free = 0;
	op->have_list = 0;
	op->prefetch_nr = 0;
	op->picked_head = NIL;
	op->picked_tail = NIL;
	op->bulk_asked = op->to_free;
	op->state = S_BULK_BEGIN;
	EMIT(z, BLAB_EVC_EXPLAIN, BLAB_EV_PCP_DRAIN, 0, 0, op->cpu, 0, path, 0, op->to_free,
	     pcp->count);
}

static void prefetch_buddy(struct blab_zone *z, struct blab_op *op, uint32_t idx, unsigned path)
{
	uint64_t pfn = idx_to_pfn(z, idx);
	uint64_t buddy_pfn = pfn ^ (1ull << z->mem_map[idx].order);

	if (op->prefetch_nr++ >= z->pageset[op->cpu].pcp[op->which].batch)
		return; /* 97334162e4d7: at most batch prefetches, bounding the work */
	if (buddy_pfn >= z->start_pfn && buddy_pfn - z->start_pfn < z->pages)
		mach_prefetch(&z->machine, op->cpu, page_vaddr(buddy_pfn), path);
}

static int bulk_begin(struct blab_zone *z, struct blab_op *op)
{
	unsigned mode = z->s.bulk_free;

	if (z->s.pcp == BLAB_PCP_HOTCOLD)
		mode = BLAB_BULK_ONE_PASS;
	if (mode == BLAB_BULK_TWO_PASS || mode == BLAB_BULK_TWO_PASS_PREFETCH) {
		/* 4.17: pick the pages onto a local list without zone->lock */
		uint32_t idx;
		while ((idx = _blab_pcp_pick(z, op, BLAB_PATH_BULK_PICK)) != NIL) {
			struct page *p = &z->mem_map[idx];
			p->flags = PG_picked;
			p->next = NIL;
			p->prev = op->picked_tail;
			if (op->picked_tail != NIL)
				z->mem_map[op->picked_tail].next = idx;
			else
				op->picked_head = idx;
			op->picked_tail = idx;
			/* list_add_tail() onto the local list: the list work the single pass
			 * of 8b10b465d0e1 saves ("the list manipulations have cost") */
			mach_work(&z->machine, op->cpu, BLAB_COST_LIST_OP);
			if (mode == BLAB_BULK_TWO_PASS_PREFETCH)
				prefetch_buddy(z, op, idx, BLAB_PATH_BULK_PICK);
		}
		op->state = S_BULK_MERGE;
	} else {
		op->state = S_BULK_LOCKED;
	}
	op->lock = BLAB_LOCK_ZONE;
	return BLAB_STEP_LOCK;
}

static void bulk_end(struct blab_zone *z, struct blab_op *op)
{
	z->cluster_bulk_paid = 0; /* Lu RFC 4/4: the next bulk free keeps clusters up again */
	mach_unlock(&z->machine, op->cpu, BLAB_LOCK_ZONE);
	EMIT(z, BLAB_EVC_EXPLAIN, BLAB_EV_PCP_DRAIN, 0, 0, op->cpu, 0, BLAB_PATH_BULK_MERGE,
	     BLAB_EVF_END, op->bulk_asked, z->pageset[op->cpu].pcp[op->which].count);
	op->state = S_AFTER_BULK;
}

/* <= 4.16 and 5.18: select and merge in one pass, zone->lock held throughout */
static void bulk_locked(struct blab_zone *z, struct blab_op *op)
{
	int prefetch = z->s.pcp != BLAB_PCP_HOTCOLD &&
		       z->s.bulk_free == BLAB_BULK_SINGLE_PASS_PREFETCH;
	uint32_t idx;

	while ((idx = _blab_pcp_pick(z, op, BLAB_PATH_BULK_MERGE)) != NIL) {
		struct page *p = &z->mem_map[idx];
		unsigned order = p->order, mt = p->mt;
		if (prefetch)
			prefetch_buddy(z, op, idx, BLAB_PATH_BULK_MERGE);
		p->flags = 0;
		__free_one_page(z, op->cpu, idx_to_pfn(z, idx), order, mt, BLAB_PATH_BULK_MERGE);
	}
	bulk_end(z, op);
}

/* 4.17 second pass: merge the picked pages under zone->lock */
static void bulk_merge(struct blab_zone *z, struct blab_op *op)
{
	uint32_t idx = op->picked_head;

	while (idx != NIL) {
		struct page *p = &z->mem_map[idx];
		uint32_t next = p->next;
		unsigned order = p->order, mt = p->mt;
		p->flags = 0;
		p->next = NIL;
		p->prev = NIL;
		__free_one_page(z, op->cpu, idx_to_pfn(z, idx), order, mt, BLAB_PATH_BULK_MERGE);
		idx = next;
	}
	op->picked_head = op->picked_tail = NIL;
	bulk_end(z, op);
}

/* ---- free ---- */

static int free_validate(struct blab_zone *z, struct blab_op *op)
{
	const struct page *p;
	uint32_t idx;

	if (op->order > z->top_order)
		return BLAB_EORDER;
	if (op->pfn < z->start_pfn || op->pfn - z->start_pfn >= z->pages)
		return BLAB_EPFN;
	if (op->pfn & ((1ull << op->order) - 1))
		return BLAB_EALIGN;
	idx = pfn_to_idx(z, op->pfn);
	p = &z->mem_map[idx];
	if (p->flags & PG_picked)
		return BLAB_EBUSY;
	if (p->flags & PG_buddy)
		return BLAB_EDOUBLEFREE;
	if (p->flags & PG_pcp)
		return BLAB_EONPCP;
	if (p->flags & PG_tail)
		return BLAB_ETAIL;
	if (!(p->flags & PG_alloc))
		return BLAB_ENOTALLOC;
	if (p->order != op->order)
		return BLAB_EWRONGORDER;
	return 0;
}

/*
 * How many pages a free that reached `high` gives back. Up to 5.13: batch. 5.14+
 * (nr_pcp_free): batch << free_factor, the factor growing while frees follow frees and
 * halved by each allocation, clamped to [batch, high - batch] so batch pages stay; 1 when
 * high < batch.
 */
static uint32_t nr_pcp_free(struct blab_zone *z, struct per_cpu_pages *pcp)
{
	uint32_t batch = pcp->batch, high = pcp->high, max_nr_free;
	uint64_t nr;

	if (!z->s.free_factor)
		return batch;
	if (high < batch)
		return 1;
	max_nr_free = high - batch;
	nr = (uint64_t)batch << pcp->free_factor;
	if (nr < max_nr_free)
		pcp->free_factor++;
	if (nr > max_nr_free)
		nr = max_nr_free;
	if (nr < batch)
		nr = batch;
	return (uint32_t)nr;
}

/* the page goes on the list: head (hot), or tail for a cold free in LIFO mode */
static void free_to_pcp(struct blab_zone *z, struct blab_op *op)
{
	uint32_t idx = pfn_to_idx(z, op->pfn);
	int cold = (op->gfp & BLAB_GFP_COLD) != 0;
	unsigned which = z->s.pcp == BLAB_PCP_HOTCOLD && cold ? 1 : 0;

	_blab_pcp_add(z, op->cpu, which, idx, op->order, op->mt,
		      z->s.pcp == BLAB_PCP_LIFO && cold, BLAB_PATH_FREE_FAST);
}

static int free_start(struct blab_zone *z, struct blab_op *op)
{
	int err = free_validate(z, op);
	uint32_t idx;

	if (err)
		return err;
	z->pageset[op->cpu].busy = 1;
	idx = pfn_to_idx(z, op->pfn);
	op->mt = (uint8_t)_blab_pageblock_mt(z, op->pfn);
	EMIT(z, BLAB_EVC_STATE, BLAB_EV_FREE, op->pfn, op->order, op->cpu, op->mt,
	     pcp_handles(z, op->order) ? BLAB_PATH_FREE_FAST : BLAB_PATH_FREE_DIRECT, 0, op->gfp,
	     0);
	_blab_clear_allocated(z, idx, op->order);
	mach_touch_page(&z->machine, op->cpu, op->pfn, 1, BLAB_PATH_FREE_FAST);

	if (!pcp_handles(z, op->order)) {
		/* in flight until zone->lock is ours */
		z->mem_map[idx].flags = PG_picked;
		z->mem_map[idx].order = op->order;
		op->state = S_FREE_DIRECT;
		op->lock = BLAB_LOCK_ZONE;
		return BLAB_STEP_LOCK;
	}
	if (z->s.pcp == BLAB_PCP_HOTCOLD) {
		/* 2.5.45: make room first, then add */
		unsigned which = (op->gfp & BLAB_GFP_COLD) ? 1 : 0;
		struct per_cpu_pages *pcp = &z->pageset[op->cpu].pcp[which];
		if (pcp->count >= pcp->high && pcp->count) {
			z->mem_map[idx].flags = PG_picked;
			z->mem_map[idx].order = op->order;
			op->add_after = 1;
			bulk_setup(z, op, which, pcp->batch, 0, BLAB_PATH_FREE_FAST);
			return bulk_begin(z, op);
		}
		free_to_pcp(z, op);
		return finish(z, op, BLAB_STEP_DONE);
	}
	free_to_pcp(z, op);
	{
		struct per_cpu_pages *pcp = &z->pageset[op->cpu].pcp[0];
		if (pcp->count >= pcp->high) {
			bulk_setup(z, op, 0, nr_pcp_free(z, pcp),
				   (unsigned)_blab_pcp_list_index(z, op->mt, op->order),
				   BLAB_PATH_FREE_FAST);
			return bulk_begin(z, op);
		}
	}
	return finish(z, op, BLAB_STEP_DONE);
}

static int free_direct(struct blab_zone *z, struct blab_op *op)
{
	uint32_t idx = pfn_to_idx(z, op->pfn);
	z->mem_map[idx].flags = 0;
	__free_one_page(z, op->cpu, op->pfn, op->order, op->mt, BLAB_PATH_FREE_DIRECT);
	mach_unlock(&z->machine, op->cpu, BLAB_LOCK_ZONE);
	return finish(z, op, BLAB_STEP_DONE);
}

/* ---- drain ---- */

static int drain_next(struct blab_zone *z, struct blab_op *op)
{
	unsigned nsets = z->s.pcp == BLAB_PCP_HOTCOLD ? 2 : 1;

	if (z->s.pcp == BLAB_PCP_NONE)
		return finish(z, op, BLAB_STEP_DONE);
	while (op->drain_next < nsets) {
		unsigned which = op->drain_next++;
		struct per_cpu_pages *pcp = &z->pageset[op->cpu].pcp[which];
		if (pcp->count) {
			bulk_setup(z, op, which, pcp->count, 0, BLAB_PATH_DRAIN);
			return bulk_begin(z, op);
		}
	}
	return finish(z, op, BLAB_STEP_DONE);
}

static int after_bulk(struct blab_zone *z, struct blab_op *op)
{
	if (op->kind == BLAB_OP_DRAIN)
		return drain_next(z, op);
	if (op->add_after) {
		op->add_after = 0;
		z->mem_map[pfn_to_idx(z, op->pfn)].flags = 0;
		free_to_pcp(z, op);
	}
	return finish(z, op, BLAB_STEP_DONE);
}

int blab_op_step(struct blab_zone *z, struct blab_op *op)
{
	int ret;

	if (!z || !op)
		return BLAB_EINVAL;
	if (op->state == S_DONE)
		return BLAB_EINVAL;
	if (op->cpu >= z->cpus)
		return BLAB_ECPU;
	if (op->kind < BLAB_OP_ALLOC || op->kind > BLAB_OP_DRAIN || op->state > S_DONE)
		return BLAB_EINVAL;

	if (op->state == S_START) {
		if (z->pageset[op->cpu].busy)
			return BLAB_EBUSY;
		mach_op_begin(&z->machine);
		switch (op->kind) {
		case BLAB_OP_ALLOC:
			ret = alloc_start(z, op);
			break;
		case BLAB_OP_FREE:
			ret = free_start(z, op);
			break;
		default:
			z->pageset[op->cpu].busy = 1;
			ret = drain_next(z, op);
			break;
		}
		if (ret < 0 && op->state == S_START) {
			/* rejected before anything changed */
			z->pageset[op->cpu].busy = 0;
			op->state = S_DONE;
			op->err = ret;
		}
		if (ret == BLAB_STEP_LOCK)
			op->lock = BLAB_LOCK_ZONE;
		return ret;
	}

	/*
	 * Resuming: the op is caller memory, so make sure it is one this zone started (its cpu
	 * has an op in flight) and that the indices it carries are ours.
	 */
	if (!z->pageset[op->cpu].busy)
		return BLAB_EINVAL;
	if ((op->picked_head != NIL && op->picked_head >= z->pages) ||
	    (op->picked_tail != NIL && op->picked_tail >= z->pages) || op->which > 1 ||
	    op->order > z->top_order ||
	    (op->kind == BLAB_OP_FREE &&
	     (op->pfn < z->start_pfn || op->pfn - z->start_pfn >= z->pages)))
		return BLAB_EINVAL;

	if (needs_lock(op->state)) {
		if (mach_lock_busy(&z->machine, op->cpu, BLAB_LOCK_ZONE))
			return BLAB_ELOCKED;
		mach_lock(&z->machine, op->cpu, BLAB_LOCK_ZONE);
	}
	switch (op->state) {
	case S_REFILL:
		return alloc_refill(z, op);
	case S_RMQUEUE:
		return alloc_rmqueue(z, op);
	case S_FREE_DIRECT:
		return free_direct(z, op);
	case S_BULK_BEGIN:
		return bulk_begin(z, op);
	case S_BULK_LOCKED:
		bulk_locked(z, op);
		return after_bulk(z, op);
	case S_BULK_MERGE:
		bulk_merge(z, op);
		return after_bulk(z, op);
	case S_AFTER_BULK:
		return after_bulk(z, op);
	default:
		return BLAB_EINVAL;
	}
}

/*
 * ---- synchronous wrappers ----
 * blab_alloc_gfp / blab_free_gfp try the pcp hit first (fastpath.h): it either does exactly
 * what the op would do, or nothing, and the op runs.
 */

int _blab_sync(struct blab_zone *z, struct blab_op *op)
{
	int ret;
	do {
		ret = blab_op_step(z, op);
		if (ret == BLAB_STEP_LOCK)
			_blab_debug_check(z, "a step"); /* in-flight states must be valid too */
	} while (ret == BLAB_STEP_LOCK);
	return ret;
}

void _blab_fast_setup(struct blab_zone *z)
{
	fast_setup(z);
}

/* the pcp hit with its events and touches (a logged zone, the model): its own frame */
static __attribute__((noinline)) int alloc_fast_noisy(struct blab_zone *z, unsigned cpu,
						      unsigned order, unsigned mt, unsigned gfp,
						      uint64_t *pfn)
{
	return alloc_fast(z, cpu, order, mt, gfp, pfn, 0);
}

static __attribute__((noinline)) int free_fast_noisy(struct blab_zone *z, unsigned cpu,
						     uint64_t pfn, unsigned order, unsigned gfp)
{
	return free_fast(z, cpu, pfn, order, gfp, 0);
}

/*
 * Everything but the quiet pcp hit: the recorded pcp hit, or the op. Out of line, so that
 * the quiet hit in the callers needs no stack frame. z, pfn and cpu are checked already.
 */
static __attribute__((noinline)) int alloc_slow(struct blab_zone *z, unsigned cpu,
						unsigned order, unsigned mt, unsigned gfp,
						uint64_t *pfn)
{
	struct blab_op op;
	int ret;

	if (!fast_quiet(z) && alloc_fast_noisy(z, cpu, order, mt, (uint8_t)gfp, pfn)) {
		_blab_debug_check(z, "alloc");
		return 0;
	}
	blab_op_alloc(&op, cpu, order, mt, gfp);
	ret = _blab_sync(z, &op);
	if (ret == 0)
		*pfn = op.pfn;
	_blab_debug_check(z, "alloc");
	return ret;
}

/*
 * The public entry: arguments every caller must get right checked here, the quiet pcp hit
 * inline, anything else (a bad order or mt included) in alloc_slow(). Built into both
 * blab_alloc_gfp and blab_alloc, where gfp 0 lets the compiler drop the cold-list branches.
 */
static inline __attribute__((always_inline)) int
alloc_entry(struct blab_zone *z, unsigned cpu, unsigned order, unsigned mt, unsigned gfp,
	    uint64_t *pfn)
{
	if (!z || !pfn)
		return BLAB_EINVAL;
	if (cpu >= z->cpus)
		return BLAB_ECPU;
	if (fast_quiet(z) && alloc_fast(z, cpu, order, mt, (uint8_t)gfp, pfn, 1)) {
		_blab_debug_check(z, "alloc");
		return 0;
	}
	return alloc_slow(z, cpu, order, mt, gfp, pfn);
}

int blab_alloc_gfp(struct blab_zone *z, unsigned cpu, unsigned order, unsigned mt, unsigned gfp,
		   uint64_t *pfn)
{
	return alloc_entry(z, cpu, order, mt, gfp, pfn);
}

int blab_alloc(struct blab_zone *z, unsigned cpu, unsigned order, unsigned mt, uint64_t *pfn)
{
	return alloc_entry(z, cpu, order, mt, 0, pfn);
}

/* as alloc_slow(): z and cpu are checked already */
static __attribute__((noinline)) int free_slow(struct blab_zone *z, unsigned cpu, uint64_t pfn,
					       unsigned order, unsigned gfp)
{
	struct blab_op op;
	int ret;

	if (!fast_quiet(z) && free_fast_noisy(z, cpu, pfn, order, (uint8_t)gfp)) {
		_blab_debug_check(z, "free");
		return 0;
	}
	blab_op_free(&op, cpu, pfn, order, gfp);
	ret = _blab_sync(z, &op);
	_blab_debug_check(z, "free");
	return ret;
}

/* as alloc_entry() */
static inline __attribute__((always_inline)) int
free_entry(struct blab_zone *z, unsigned cpu, uint64_t pfn, unsigned order, unsigned gfp)
{
	if (!z)
		return BLAB_EINVAL;
	if (cpu >= z->cpus)
		return BLAB_ECPU;
	if (fast_quiet(z) && free_fast(z, cpu, pfn, order, (uint8_t)gfp, 1)) {
		_blab_debug_check(z, "free");
		return 0;
	}
	return free_slow(z, cpu, pfn, order, gfp);
}

int blab_free_gfp(struct blab_zone *z, unsigned cpu, uint64_t pfn, unsigned order, unsigned gfp)
{
	return free_entry(z, cpu, pfn, order, gfp);
}

int blab_free(struct blab_zone *z, unsigned cpu, uint64_t pfn, unsigned order)
{
	return free_entry(z, cpu, pfn, order, 0);
}

int blab_drain(struct blab_zone *z, unsigned cpu)
{
	struct blab_op op;
	int ret;

	if (!z)
		return BLAB_EINVAL;
	if (cpu >= z->cpus)
		return BLAB_ECPU;
	blab_op_drain(&op, cpu);
	ret = _blab_sync(z, &op);
	_blab_debug_check(z, "drain");
	return ret;
}

int blab_drain_all(struct blab_zone *z)
{
	if (!z)
		return BLAB_EINVAL;
	for (unsigned cpu = 0; cpu < z->cpus; cpu++) {
		int ret = blab_drain(z, cpu);
		if (ret)
			return ret;
	}
	return 0;
}
