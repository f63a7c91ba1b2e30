/*
 * op.c - resumable operations: alloc, free and drain as small state machines, and the
 * public entry points blab_alloc() / blab_free() / blab_drain() over them.
 *
 * blab_op_step() runs an op until just before it would take a lock and returns
 * BLAB_STEP_LOCK; the next call takes that lock first thing. A scheduler of virtual cpus
 * (the model machine) can so grant zone->lock in arrival order; the plain machine simply
 * loops (_blab_step_to_done). The steps themselves are the kernel's functions: the pcp ones
 * (rmqueue_pcplist, free_unref_page_commit, free_pcppages_bulk, drain_pages) in pcp.c, the
 * buddy ones (__rmqueue, __free_one_page) in buddy.c; this file decides which runs next.
 */
#include <string.h>
#include "mm.h"
#include "pcp.h"

static int needs_lock(unsigned state)
{
	return state == S_REFILL || state == S_RMQUEUE || state == S_FREE_DIRECT ||
	       state == S_BULK_LOCKED || state == S_BULK_MERGE || state == S_PCP_LOCK;
}

/* the lock a resumed op takes first: zone->lock, or (S_PCP_LOCK) the target's pcp->lock */
static unsigned resume_lock(const struct blab_op *op)
{
	return op->state == S_PCP_LOCK ? MACH_LOCK_PCP + op->target : BLAB_LOCK_ZONE;
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
	op->target = op->cpu;
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

int blab_op_drain_remote(struct blab_op *op, unsigned cpu, unsigned target)
{
	if (!op)
		return BLAB_EINVAL;
	op_init(op, BLAB_OP_DRAIN, cpu, 0, 0);
	op->target = (uint16_t)(target > 0xffff ? 0xffff : target);
	return 0;
}

int blab_op_decay(struct blab_op *op, unsigned cpu)
{
	if (!op)
		return BLAB_EINVAL;
	op_init(op, BLAB_OP_DECAY, cpu, 0, 0);
	return 0;
}

static int finish(struct blab_zone *z, struct blab_op *op, int ret)
{
	pcp_unlock(z, op);
	z->pageset[op->cpu].busy = 0;
	op->state = S_DONE;
	op->err = ret;
	return ret;
}

static int alloc_fail(struct blab_zone *z, struct blab_op *op, int err)
{
	EMIT(z, BLAB_EVC_EXPLAIN, BLAB_EV_ALLOC_FAIL, 0, op->order, op->cpu, op->mt,
	     pcp_allowed_order(z, op->order) ? BLAB_PATH_ALLOC_FAST : BLAB_PATH_RMQUEUE, 0,
	     (uint32_t)-err, 0);
	return finish(z, op, err);
}

static int hand_out(struct blab_zone *z, struct blab_op *op, uint32_t idx, unsigned path)
{
	prep_new_page(z, op->cpu, idx, op->order, op->mt, op->gfp, path, 0);
	op->pfn = idx_to_pfn(z, idx);
	return finish(z, op, BLAB_STEP_DONE);
}

static int alloc_start(struct blab_zone *z, struct blab_op *op)
{
	uint32_t idx;

	if (op->order > z->top_order)
		return BLAB_EORDER;
	if (op->mt >= BLAB_MT_PCPTYPES)
		return BLAB_EMT;
	z->pageset[op->cpu].busy = 1;
	if (zone_falls_below_high(z, op->order))
		z->below_high = 1; /* stays until a free's drain lifts the zone (after_bulk) */
	if (z->s.watermarks && !zone_watermark_ok(z, op->order, WMARK_LOW))
		return alloc_fail(z, op, BLAB_EWMARK);
	if (!pcp_allowed_order(z, op->order)) {
		op->state = S_RMQUEUE;
		return BLAB_STEP_LOCK;
	}
	idx = rmqueue_pcplist(z, op);
	if (idx != NIL)
		return hand_out(z, op, idx, BLAB_PATH_ALLOC_FAST);
	return BLAB_STEP_LOCK; /* a refill under zone->lock (op->state S_REFILL) */
}

static int alloc_refill(struct blab_zone *z, struct blab_op *op)
{
	uint32_t idx = rmqueue_pcplist(z, op);

	if (idx != NIL)
		return hand_out(z, op, idx, BLAB_PATH_ALLOC_FAST);
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
	p = zone_page(z, idx);
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

static int free_start(struct blab_zone *z, struct blab_op *op)
{
	int err = free_validate(z, op), to_pcp;
	uint32_t idx;

	if (err)
		return err;
	z->pageset[op->cpu].busy = 1;
	idx = pfn_to_idx(z, op->pfn);
	op->mt = (uint8_t)get_pageblock_migratetype(z, op->pfn);
	/* 6.0+: only with pcp->lock (the kernel tries it after free_pages_prepare(); taken
	 * first here so that the FREE record names the path the page takes), unless the list
	 * free this page is part of holds it already (BLAB_GFP_PCP_HELD) */
	to_pcp = pcp_allowed_order(z, op->order) &&
		 (!z->s.pcp_lock || (op->gfp & BLAB_GFP_PCP_HELD) || pcp_trylock(z, op));
	free_pages_prepare(z, op->cpu, op->pfn, op->order, op->mt, op->gfp,
			   to_pcp ? BLAB_PATH_FREE_FAST : BLAB_PATH_FREE_DIRECT, 0);
	if (!to_pcp) {
		/* free_one_page() (6.0+: also when pcp->lock is busy): in flight until
		 * zone->lock is ours */
		zone_page(z, idx)->flags = PG_picked;
		zone_page(z, idx)->order = op->order;
		op->state = S_FREE_DIRECT;
		op->lock = BLAB_LOCK_ZONE;
		return BLAB_STEP_LOCK;
	}
	if (free_unref_page_commit(z, op))
		return free_pcppages_bulk(z, op);
	return finish(z, op, BLAB_STEP_DONE);
}

static int free_direct(struct blab_zone *z, struct blab_op *op)
{
	uint32_t idx = pfn_to_idx(z, op->pfn);
	zone_page(z, idx)->flags = 0;
	__free_one_page(z, op->cpu, op->pfn, op->order, op->mt, BLAB_PATH_FREE_DIRECT);
	mach_unlock(&z->machine, op->cpu, BLAB_LOCK_ZONE);
	return finish(z, op, BLAB_STEP_DONE);
}

/* ---- drain and decay ---- */

static int drain_next(struct blab_zone *z, struct blab_op *op)
{
	if (drain_pages(z, op))
		return free_pcppages_bulk(z, op);
	return finish(z, op, BLAB_STEP_DONE);
}

/* decay_pcp_high()'s drain: all it found above the new high in one free_pcppages_bulk(), or
 * in 6.19 (fc4b909c368f) batch pages per call, pcp->lock taken again for each (after_bulk(),
 * the same path as 6.10's chunked drain_pages_zone()) */
static int decay_next(struct blab_zone *z, struct blab_op *op)
{
	uint32_t pages = op->decay_left, batch = z->pageset[op->target].pcp[0].batch;

	if (z->s.bulk_chunk && pages > batch)
		pages = batch;
	op->decay_left -= pages;
	if (decay_pages(z, op, pages))
		return free_pcppages_bulk(z, op);
	return finish(z, op, BLAB_STEP_DONE);
}

/* 6.0+: a drain takes the target's pcp->lock first (a remote one may have to wait) */
static int stop_before_pcp_lock(struct blab_op *op)
{
	op->state = S_PCP_LOCK;
	op->lock = (uint16_t)(MACH_LOCK_PCP + op->target);
	return BLAB_STEP_LOCK;
}

static int drain_start(struct blab_zone *z, struct blab_op *op)
{
	if (op->target != op->cpu && !z->s.pcp_lock)
		return BLAB_ESTRATEGY; /* before 6.0 another CPU's lists were drained by it */
	z->pageset[op->cpu].busy = 1;
	if (z->s.pcp_lock && z->s.pcp != BLAB_PCP_NONE)
		return stop_before_pcp_lock(op);
	return drain_next(z, op);
}

static int decay_start(struct blab_zone *z, struct blab_op *op)
{
	uint32_t high = z->pageset[op->cpu].pcp[0].high;

	z->pageset[op->cpu].busy = 1;
	op->decay_left = decay_pcp_high(z, &z->pageset[op->cpu].pcp[0]);
	pcp_high_moved(z, op->cpu, high, BLAB_PATH_DECAY);
	if (!op->decay_left)
		return finish(z, op, BLAB_STEP_DONE);
	if (z->s.pcp_lock)
		return stop_before_pcp_lock(op);
	return decay_next(z, op);
}

/* the next free_pcppages_bulk() of a drain or decay (the first, or the next chunk) */
static int bulk_again(struct blab_zone *z, struct blab_op *op)
{
	return op->kind == BLAB_OP_DECAY ? decay_next(z, op) : drain_next(z, op);
}

static int after_pcp_lock(struct blab_zone *z, struct blab_op *op)
{
	op->pcp_locked = 1;
	return bulk_again(z, op);
}

/*
 * Is a chunk of the list still to go once this free_pcppages_bulk() is done? A decay has
 * its pages counted before it took the lock (6.19, fc4b909c368f); a 6.10+ drain
 * (55f77df7d715) goes on while the set it drains holds pages, read again under the lock,
 * as drain_pages_zone() reads pcp->count (since its race fix) each time round.
 */
static int chunk_left(const struct blab_zone *z, const struct blab_op *op)
{
	uint32_t count = z->pageset[op->target].pcp[op->which].count;

	if (op->kind == BLAB_OP_DECAY)
		return op->decay_left && count;
	return op->kind == BLAB_OP_DRAIN && z->s.drain_chunk && count;
}

static int after_bulk(struct blab_zone *z, struct blab_op *op)
{
	if (chunk_left(z, op)) {
		/* the next chunk, under pcp->lock taken again (a blocking lock here) */
		if (!z->s.pcp_lock)
			return bulk_again(z, op);
		pcp_unlock(z, op);
		return stop_before_pcp_lock(op);
	}
	if (op->kind == BLAB_OP_DRAIN)
		return drain_next(z, op);
	/* free_unref_page_commit(): only a free's own drain clears ZONE_BELOW_HIGH, once the
	 * zone is above its high watermark again (zone_watermark_ok() at order 0) */
	if (op->kind == BLAB_OP_FREE && z->below_high && zone_watermark_ok(z, 0, WMARK_HIGH))
		z->below_high = 0;
	return finish(z, op, BLAB_STEP_DONE);
}

/*
 * ---- latency (blab_latency.h), while the zone has a recorder ----
 * An allocation or free counts from its first step to its last, on its CPU's clock, in the
 * series of the path its first step chose; a drain or decay counts only in
 * free_pcppages_bulk()'s series (pcp.c). Nothing here changes what the op does.
 */
static void lat_begin(struct blab_zone *z, struct blab_op *op)
{
	op->lat_t0 = mach_now(&z->machine, op->cpu);
	op->lat_lock = op->lat_bulk = 0;
	op->lat_in_call = 0;
	op->lat_series = op->kind == BLAB_OP_ALLOC  ? BLAB_LAT_ALLOC_PCP
			 : op->kind == BLAB_OP_FREE ? BLAB_LAT_FREE_PCP
						    : 0xff;
}

/* the first step stopped before a lock: which path the call took */
static void lat_classify(struct blab_op *op)
{
	switch (op->state) {
	case S_REFILL:
		op->lat_series = BLAB_LAT_ALLOC_REFILL;
		break;
	case S_RMQUEUE:
		op->lat_series = BLAB_LAT_ALLOC_DIRECT;
		break;
	case S_FREE_DIRECT:
		op->lat_series = BLAB_LAT_FREE_DIRECT;
		break;
	case S_BULK_BEGIN:
	case S_BULK_LOCKED:
	case S_BULK_MERGE:
		if (op->kind == BLAB_OP_FREE)
			op->lat_series = BLAB_LAT_FREE_DRAIN;
		break;
	default:
		break;
	}
}

/* a step returned: when it finished an allocation or free that succeeded, count it */
static int lat_step(struct blab_zone *z, struct blab_op *op, int ret)
{
	if (op->state == S_DONE && ret == BLAB_STEP_DONE && op->lat_series < BLAB_LAT_OPS)
		blab_latency_record_at(z->lat, op->cpu, op->lat_series, op->lat_t0,
				       mach_now(&z->machine, op->cpu) - op->lat_t0, op->lat_lock,
				       op->lat_bulk, op->pfn);
	return ret;
}

/* the resumed step: the lock it stopped before, then what the op does under it */
static int op_resume(struct blab_zone *z, struct blab_op *op)
{
	int ret;

	if (needs_lock(op->state)) {
		unsigned lock = resume_lock(op);
		uint64_t t = z->lat ? mach_now(&z->machine, op->cpu) : 0;
		if (op->state == S_REFILL)
			lat_call_begin(z, op); /* rmqueue_bulk() takes zone->lock itself */
		if (step_take_lock(z, op->cpu, lock))
			return BLAB_ELOCKED;
		if (z->lat && lock == BLAB_LOCK_ZONE)
			op->lat_lock += mach_now(&z->machine, op->cpu) - t;
	}
	switch (op->state) {
	case S_PCP_LOCK:
		return after_pcp_lock(z, op);
	case S_REFILL:
		return alloc_refill(z, op);
	case S_RMQUEUE:
		return alloc_rmqueue(z, op);
	case S_FREE_DIRECT:
		return free_direct(z, op);
	case S_BULK_BEGIN:
	case S_BULK_LOCKED:
	case S_BULK_MERGE:
		ret = free_pcppages_bulk(z, op);
		return ret == BLAB_STEP_DONE ? after_bulk(z, op) : ret;
	case S_AFTER_BULK:
		return after_bulk(z, op);
	default:
		return BLAB_EINVAL;
	}
}

/* the first step: the op starts */
static int op_start(struct blab_zone *z, struct blab_op *op)
{
	int ret;

	if (z->pageset[op->cpu].busy)
		return BLAB_EBUSY;
	mach_op_begin(&z->machine);
	if (z->lat)
		lat_begin(z, op);
	switch (op->kind) {
	case BLAB_OP_ALLOC:
		ret = alloc_start(z, op);
		break;
	case BLAB_OP_FREE:
		ret = free_start(z, op);
		break;
	case BLAB_OP_DECAY:
		ret = decay_start(z, op);
		break;
	default:
		ret = drain_start(z, op);
		break;
	}
	if (ret < 0 && op->state == S_START) {
		/* rejected before anything changed */
		pcp_unlock(z, op);
		z->pageset[op->cpu].busy = 0;
		op->state = S_DONE;
		op->err = ret;
	}
	if (ret == BLAB_STEP_LOCK && op->state != S_PCP_LOCK)
		op->lock = BLAB_LOCK_ZONE;
	if (ret == BLAB_STEP_LOCK && z->lat)
		lat_classify(op);
	return ret;
}

int blab_op_step(struct blab_zone *z, struct blab_op *op)
{
	int ret;

	if (!z || !op)
		return BLAB_EINVAL;
	if (op->state == S_DONE)
		return BLAB_EINVAL;
	if (op->cpu >= z->cpus || op->target >= z->cpus)
		return BLAB_ECPU;
	if (op->kind < BLAB_OP_ALLOC || op->kind > BLAB_OP_DECAY || op->state > S_DONE ||
	    (op->target != op->cpu && op->kind != BLAB_OP_DRAIN))
		return BLAB_EINVAL;

	if (op->state == S_START) {
		ret = op_start(z, op);
		return z->lat ? lat_step(z, op, ret) : ret;
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

	ret = op_resume(z, op);
	return z->lat ? lat_step(z, op, ret) : ret;
}

/*
 * ---- synchronous wrappers ----
 * blab_alloc_gfp / blab_free_gfp try the pcp hit first (pcp.h): it either does exactly what
 * the op would do, or nothing, and the op runs.
 */

int _blab_step_to_done(struct blab_zone *z, op_step_fn step, void *op, const char *what)
{
	int ret;

	do {
		ret = step(z, op);
		if (ret == BLAB_STEP_LOCK && what)
			_blab_debug_check(z, what); /* in-flight states must be valid too */
	} while (ret == BLAB_STEP_LOCK);
	return ret;
}

static int page_op_step(struct blab_zone *z, void *op)
{
	return blab_op_step(z, op);
}

static int page_op_to_done(struct blab_zone *z, struct blab_op *op)
{
	return _blab_step_to_done(z, page_op_step, op, "a step");
}

/* A public call's op, built and checked by the caller: run to done, then (debug builds) the
 * zone's invariants, labelled by what ran */
static int page_op_run(struct blab_zone *z, struct blab_op *op, const char *what)
{
	int ret = page_op_to_done(z, op);
	_blab_debug_check(z, what);
	return ret;
}

/* the pcp hit with its events and touches (a logged zone, the model): its own frame */
static __attribute__((noinline)) int alloc_hit_noisy(struct blab_zone *z, unsigned cpu,
						     unsigned order, unsigned mt, unsigned gfp,
						     uint64_t *pfn)
{
	return rmqueue_pcplist_hit(z, cpu, order, mt, gfp, pfn, 0);
}

static __attribute__((noinline)) int free_hit_noisy(struct blab_zone *z, unsigned cpu,
						    uint64_t pfn, unsigned order, unsigned gfp)
{
	return free_unref_page_hit(z, cpu, pfn, order, gfp, 0);
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

	if (!pcp_hit_quiet(z) && alloc_hit_noisy(z, cpu, order, mt, (uint8_t)gfp, pfn)) {
		_blab_debug_check(z, "alloc");
		return 0;
	}
	blab_op_alloc(&op, cpu, order, mt, gfp);
	ret = page_op_run(z, &op, "alloc");
	if (ret == 0)
		*pfn = op.pfn;
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
	if (pcp_hit_quiet(z) && rmqueue_pcplist_hit(z, cpu, order, mt, (uint8_t)gfp, pfn, 1)) {
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

	if (!pcp_hit_quiet(z) && free_hit_noisy(z, cpu, pfn, order, (uint8_t)gfp)) {
		_blab_debug_check(z, "free");
		return 0;
	}
	blab_op_free(&op, cpu, pfn, order, gfp);
	return page_op_run(z, &op, "free");
}

/* as alloc_entry() */
static inline __attribute__((always_inline)) int
free_entry(struct blab_zone *z, unsigned cpu, uint64_t pfn, unsigned order, unsigned gfp)
{
	if (!z)
		return BLAB_EINVAL;
	if (cpu >= z->cpus)
		return BLAB_ECPU;
	if (pcp_hit_quiet(z) && free_unref_page_hit(z, cpu, pfn, order, (uint8_t)gfp, 1)) {
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

	if (!z)
		return BLAB_EINVAL;
	if (cpu >= z->cpus)
		return BLAB_ECPU;
	blab_op_drain(&op, cpu);
	return page_op_run(z, &op, "drain");
}

int blab_drain_remote(struct blab_zone *z, unsigned cpu, unsigned target)
{
	struct blab_op op;

	if (!z)
		return BLAB_EINVAL;
	if (cpu >= z->cpus || target >= z->cpus)
		return BLAB_ECPU;
	blab_op_drain_remote(&op, cpu, target);
	return page_op_run(z, &op, "drain");
}

int blab_decay(struct blab_zone *z, unsigned cpu)
{
	struct blab_op op;

	if (!z)
		return BLAB_EINVAL;
	if (cpu >= z->cpus)
		return BLAB_ECPU;
	blab_op_decay(&op, cpu);
	return page_op_run(z, &op, "decay");
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
