/*
 * compaction.c - making a free block of a high order out of scattered free pages.
 *
 * Two passes, as a resumable op (struct blab_compact_op) so the model machine grants
 * zone->lock in arrival order, exactly like the alloc/free ops of op.c:
 *
 *   merge    (the Lu RFC's hook in isolate_migratepages): the scanner walks the zone one
 *            pageblock at a time, reading every struct page without zone->lock; a pageblock
 *            holding merge-skipped pages is then locked and each of them goes through
 *            __free_one_page() again, this time merging (try_to_merge_page()). Stops as
 *            soon as a free block of the wanted order exists (compact_finished()).
 *   migrate  (BLAB_COMPACT_MIGRATE; what mm/compaction.c does for every kernel): pick the
 *            aligned block of the wanted order that holds the fewest allocated pages, all of
 *            them MOVABLE; under zone->lock take its free blocks off the lists (isolate),
 *            allocate a new home for each allocated block elsewhere, and free the emptied
 *            block in one piece. The copies are charged after the lock is dropped, as
 *            migrate_pages() copies without zone->lock. The owner of each moved block
 *            learns its new pfn through the blab_migrate_fn callback (the kernel's rmap walk).
 *
 * Simplifications (docs/skipmerge.md): the target block is chosen by looking at the whole
 * mem_map at no cost instead of the kernel's two scanners meeting in the middle; only blocks
 * whose allocated pages are all MOVABLE move; pages on the per-cpu lists of CPUs with no op
 * in flight are taken off those lists (the kernel drains every CPU's lists after a failed
 * direct compaction; we drain only the target block).
 *
 * After a run that could not make the block, order-0 frees merge again (compact_failed):
 * the RFC's "skip merge unless compaction failed".
 */
#include <string.h>
#include "mm.h"

enum {
	C_START = 0,
	C_SCAN,    /* no lock: read struct pages of the next pageblocks */
	C_MERGE,   /* lock taken: merge the pageblock's merge-skipped pages */
	C_MIGRATE, /* lock taken: isolate the target block and move its pages out */
	C_DONE,
};

int blab_compact_op_init(struct blab_compact_op *op, unsigned cpu, unsigned order, unsigned mode,
			 blab_migrate_fn migrate, void *ctx)
{
	if (!op)
		return BLAB_EINVAL;
	memset(op, 0, sizeof(*op));
	op->cpu = (uint16_t)(cpu > 0xffff ? 0xffff : cpu);
	op->order = (uint8_t)(order > 0xff ? 0xff : order);
	op->mode = (uint8_t)(mode > 0xff ? 0xff : mode);
	op->migrate = migrate;
	op->ctx = ctx;
	return 0;
}

static int have_block(const struct blab_zone *z, unsigned order)
{
	for (unsigned o = order; o <= z->top_order; o++)
		if (z->free_area[o].nr_free)
			return 1;
	return 0;
}

/* zone-relative [first, end) of pageblock k */
static void pageblock_range(const struct blab_zone *z, uint32_t k, uint32_t *first, uint32_t *end)
{
	uint64_t start = (z->first_pageblock + k) << z->pageblock_order;
	uint64_t stop = start + (1ull << z->pageblock_order);

	if (start < z->start_pfn)
		start = z->start_pfn;
	if (stop > z->start_pfn + z->pages)
		stop = z->start_pfn + z->pages;
	*first = pfn_to_idx(z, start);
	*end = pfn_to_idx(z, stop);
}

static int finish(struct blab_zone *z, struct blab_compact_op *op)
{
	op->success = (uint8_t)have_block(z, op->order);
	z->compact_failed = !op->success;
	z->cstats.runs++;
	z->cstats.successes += op->success;
	z->cstats.merged += op->merged;
	z->cstats.migrated += op->migrated;
	EMIT(z, BLAB_EVC_EXPLAIN, BLAB_EV_COMPACT_END, 0, op->order, op->cpu, 0, BLAB_PATH_COMPACT,
	     0, op->success, op->migrated);
	z->pageset[op->cpu].busy = 0;
	op->state = C_DONE;
	return BLAB_STEP_DONE;
}

/*
 * Scanner, without zone->lock: reads each struct page of pageblocks op->pb.. and stops at
 * the first pageblock holding merge-skipped pages (BLAB_STEP_LOCK) or at the zone's end.
 */
static int scan(struct blab_zone *z, struct blab_compact_op *op)
{
	for (; op->pb < z->nr_pageblocks; op->pb++) {
		uint32_t first, end, skipped = 0;
		pageblock_range(z, op->pb, &first, &end);
		for (uint32_t i = first; i < end; i++) {
			mach_touch_page(&z->machine, op->cpu, idx_to_pfn(z, i), 0, BLAB_PATH_COMPACT);
			skipped += (zone_page(z, i)->flags & PG_merge_skipped) != 0;
		}
		z->cstats.scanned += end - first;
		if (skipped) {
			op->state = C_MERGE;
			op->lock = BLAB_LOCK_ZONE;
			return BLAB_STEP_LOCK;
		}
		EMIT(z, BLAB_EVC_EXPLAIN, BLAB_EV_COMPACT_SCAN, idx_to_pfn(z, first), 0, op->cpu, 0,
		     BLAB_PATH_COMPACT, 0, 0, end - first);
	}
	return -1; /* the whole zone scanned */
}

/* zone->lock held: try_to_merge_page() on every merge-skipped page of pageblock op->pb */
static void merge_pageblock(struct blab_zone *z, struct blab_compact_op *op)
{
	uint32_t first, end, merged = 0;

	pageblock_range(z, op->pb, &first, &end);
	z->compacting = 1;
	for (uint32_t i = first; i < end; i++) {
		struct page *p = zone_page(z, i);
		unsigned mt;
		if (!(p->flags & PG_merge_skipped))
			continue;
		mt = p->mt;
		_blab_del_from_free_list(z, i, op->cpu, BLAB_PATH_COMPACT);
		__free_one_page(z, op->cpu, idx_to_pfn(z, i), 0, mt, BLAB_PATH_COMPACT);
		merged++;
	}
	z->compacting = 0;
	op->merged += merged;
	mach_unlock(&z->machine, op->cpu, BLAB_LOCK_ZONE);
	EMIT(z, BLAB_EVC_EXPLAIN, BLAB_EV_COMPACT_SCAN, idx_to_pfn(z, first), 0, op->cpu, 0,
	     BLAB_PATH_COMPACT, 0, merged, end - first);
	op->pb++;
}

/*
 * How many allocated pages the aligned block at idx holds, or -1 when compaction may not
 * empty it (an unmovable or too large allocation, a pcp page, a page in flight).
 */
static int64_t block_cost(const struct blab_zone *z, uint32_t idx, unsigned order)
{
	uint32_t n = 1u << order, cost = 0;

	for (uint32_t i = idx; i < idx + n;) {
		const struct page *p = zone_page(z, i);
		if (p->flags & PG_buddy) {
			i += 1u << p->order;
		} else if (p->flags & PG_alloc) {
			if (p->mt != BLAB_MT_MOVABLE || p->order >= order)
				return -1;
			cost += 1u << p->order;
			i += 1u << p->order;
		} else if ((p->flags & PG_pcp) && !z->pageset[p->cpu].busy) {
			i += 1u << p->order; /* drain_all_pages() gives it back */
		} else {
			return -1; /* in flight, or a tail page of a block starting before */
		}
	}
	return cost;
}

/* the aligned block of `order` with the fewest allocated pages (lowest pfn on ties), or NIL */
static uint32_t pick_target(const struct blab_zone *z, unsigned order)
{
	uint32_t n = 1u << order, best = NIL;
	uint64_t first = (z->start_pfn + n - 1) & ~((uint64_t)n - 1);
	int64_t best_cost = -1;

	for (uint64_t pfn = first; pfn + n <= z->start_pfn + z->pages; pfn += n) {
		uint32_t idx = pfn_to_idx(z, pfn);
		int64_t cost = block_cost(z, idx, order);
		uint32_t free_inside = n - (uint32_t)(cost < 0 ? n : cost);
		if (cost <= 0)
			continue;
		if (z->free_pages - free_inside < cost)
			continue; /* nowhere to put its pages */
		if (best_cost < 0 || cost < best_cost) {
			best = idx;
			best_cost = cost;
		}
	}
	return best;
}

/* zone->lock held: empty the target block and give it back in one piece */
static void migrate_block(struct blab_zone *z, struct blab_compact_op *op)
{
	unsigned order = op->order, cpu = op->cpu;
	uint32_t idx = pfn_to_idx(z, op->target), n = 1u << order, moved = 0;
	int ok = 1;

	if (block_cost(z, idx, order) < 0)
		ok = 0; /* changed since it was picked */
	if (ok) {
		/* isolate: the block's free pages leave the lists, so nothing lands in it; pages
		 * on a per-cpu list leave it (drain_all_pages(), only for this block) */
		for (uint32_t i = idx; i < idx + n;) {
			struct page *p = zone_page(z, i);
			unsigned o = p->order;
			if (p->flags & PG_buddy) {
				_blab_del_from_free_list(z, i, cpu, BLAB_PATH_COMPACT);
				p->flags = 0;
			} else if (p->flags & PG_pcp) {
				_blab_pcp_del(z, p->cpu, (p->flags & PG_cold) ? 1 : 0, i,
					      BLAB_PATH_COMPACT);
				p->flags = 0;
			}
			i += 1u << o;
		}
		for (uint32_t i = idx; i < idx + n;) {
			struct page *p = zone_page(z, i);
			unsigned o = p->order;
			uint32_t dst;
			uint64_t src_pfn = idx_to_pfn(z, i);
			if (!(p->flags & PG_alloc)) {
				i++;
				continue;
			}
			if (__rmqueue(z, cpu, o, BLAB_MT_MOVABLE, BLAB_PATH_COMPACT, &dst)) {
				ok = 0;
				break;
			}
			mach_touch_page(&z->machine, cpu, src_pfn, 1, BLAB_PATH_COMPACT);
			mach_touch_page(&z->machine, cpu, idx_to_pfn(z, dst), 1, BLAB_PATH_COMPACT);
			_blab_mark_allocated(z, dst, o);
			zone_page(z, dst)->mt = BLAB_MT_MOVABLE;
			EMIT(z, BLAB_EVC_EXPLAIN, BLAB_EV_COMPACT_MIGRATE, src_pfn, o, cpu,
			     BLAB_MT_MOVABLE, BLAB_PATH_COMPACT, 0, dst, 0);
			EMIT(z, BLAB_EVC_STATE, BLAB_EV_ALLOC, idx_to_pfn(z, dst), o, cpu,
			     BLAB_MT_MOVABLE, BLAB_PATH_COMPACT, 0, 0, 0);
			EMIT(z, BLAB_EVC_STATE, BLAB_EV_FREE, src_pfn, o, cpu,
			     get_pageblock_migratetype(z, src_pfn), BLAB_PATH_COMPACT, 0, 0, 0);
			_blab_clear_allocated(z, i, o);
			if (op->migrate)
				op->migrate(op->ctx, src_pfn, idx_to_pfn(z, dst), o);
			moved += 1u << o;
			i += 1u << o;
		}
		/* the emptied pages go back merged: one block, or page by page if it failed */
		z->compacting = 1;
		if (ok) {
			__free_one_page(z, cpu, op->target, order, get_pageblock_migratetype(z, op->target),
					BLAB_PATH_COMPACT);
		} else {
			for (uint32_t i = idx; i < idx + n; i++)
				if (zone_page(z, i)->flags == 0)
					__free_one_page(z, cpu, idx_to_pfn(z, i), 0,
							get_pageblock_migratetype(z, idx_to_pfn(z, i)),
							BLAB_PATH_COMPACT);
		}
		z->compacting = 0;
	}
	mach_unlock(&z->machine, cpu, BLAB_LOCK_ZONE);
	/* migrate_pages(): each page is copied (read 4 KB, write 4 KB) outside zone->lock */
	for (uint32_t k = 0; k < moved; k++) {
		mach_work(&z->machine, cpu, BLAB_COST_CLEAR_PAGE);
		mach_work(&z->machine, cpu, BLAB_COST_CLEAR_PAGE);
	}
	op->migrated += moved;
}

static int after_scan(struct blab_zone *z, struct blab_compact_op *op)
{
	uint32_t target;

	if (have_block(z, op->order) || op->mode != BLAB_COMPACT_MIGRATE)
		return finish(z, op);
	target = pick_target(z, op->order);
	if (target == NIL)
		return finish(z, op);
	/* the migrate scanner reads the target's struct pages */
	for (uint32_t i = target; i < target + (1u << op->order); i++)
		mach_touch_page(&z->machine, op->cpu, idx_to_pfn(z, i), 0, BLAB_PATH_COMPACT);
	z->cstats.scanned += 1u << op->order;
	op->target = idx_to_pfn(z, target);
	op->state = C_MIGRATE;
	op->lock = BLAB_LOCK_ZONE;
	return BLAB_STEP_LOCK;
}

/* scan on from op->pb; the merge pass ends in after_scan() */
static int run_scan(struct blab_zone *z, struct blab_compact_op *op)
{
	if (have_block(z, op->order))
		return finish(z, op);
	op->state = C_SCAN;
	if (scan(z, op) == BLAB_STEP_LOCK)
		return BLAB_STEP_LOCK;
	return after_scan(z, op);
}

int blab_compact_step(struct blab_zone *z, struct blab_compact_op *op)
{
	if (!z || !op)
		return BLAB_EINVAL;
	if (op->state >= C_DONE)
		return BLAB_EINVAL;
	if (op->cpu >= z->cpus)
		return BLAB_ECPU;
	if (op->state == C_START) {
		if (op->order == 0 || op->order > z->top_order)
			return BLAB_EORDER;
		if (op->mode > BLAB_COMPACT_MIGRATE)
			return BLAB_EINVAL;
		if (z->pageset[op->cpu].busy)
			return BLAB_EBUSY;
		z->pageset[op->cpu].busy = 1;
		mach_op_begin(&z->machine);
		op->pb = 0;
		EMIT(z, BLAB_EVC_EXPLAIN, BLAB_EV_COMPACT_BEGIN, 0, op->order, op->cpu, 0,
		     BLAB_PATH_COMPACT, 0, op->mode, z->merge_skipped);
		return run_scan(z, op);
	}
	/* resuming: caller memory, so check it is an op this zone started */
	if (!z->pageset[op->cpu].busy || op->pb > z->nr_pageblocks ||
	    (op->state == C_MERGE && op->pb >= z->nr_pageblocks) ||
	    op->order == 0 || op->order > z->top_order ||
	    (op->state == C_MIGRATE &&
	     (op->target < z->start_pfn || op->target - z->start_pfn >= z->pages ||
	      (op->target & ((1ull << op->order) - 1)) ||
	      op->target - z->start_pfn + (1ull << op->order) > z->pages)))
		return BLAB_EINVAL;
	if ((op->state == C_MERGE || op->state == C_MIGRATE) &&
	    step_take_lock(z, op->cpu, BLAB_LOCK_ZONE))
		return BLAB_ELOCKED;
	switch (op->state) {
	case C_MERGE:
		merge_pageblock(z, op);
		return run_scan(z, op);
	case C_MIGRATE:
		migrate_block(z, op);
		return finish(z, op);
	case C_SCAN:
		return run_scan(z, op);
	default:
		return BLAB_EINVAL;
	}
}

static int compact_op_step(struct blab_zone *z, void *op)
{
	return blab_compact_step(z, op);
}

int blab_compact(struct blab_zone *z, unsigned cpu, unsigned order, unsigned mode,
		 blab_migrate_fn migrate, void *ctx, int *success)
{
	struct blab_compact_op op;
	int ret;

	if (!z)
		return BLAB_EINVAL;
	if (cpu >= z->cpus)
		return BLAB_ECPU;
	blab_compact_op_init(&op, cpu, order, mode, migrate, ctx);
	/* no check between steps: a step may stop with compaction's merge half done */
	ret = _blab_step_to_done(z, compact_op_step, &op, NULL);
	if (ret == 0 && success)
		*success = op.success;
	return ret;
}

int blab_alloc_compact(struct blab_zone *z, unsigned cpu, unsigned order, unsigned mt,
		       unsigned mode, blab_migrate_fn migrate, void *ctx, uint64_t *pfn)
{
	int ret, ok = 0;

	if (!z || !pfn)
		return BLAB_EINVAL;
	if (mode > BLAB_COMPACT_MIGRATE)
		return BLAB_EINVAL;
	ret = blab_alloc(z, cpu, order, mt, pfn);
	if (ret != BLAB_ENOMEM || order == 0)
		return ret;
	ret = blab_compact(z, cpu, order, mode, migrate, ctx, &ok);
	if (ret)
		return ret;
	return blab_alloc(z, cpu, order, mt, pfn);
}

int blab_compact_stats(const struct blab_zone *z, struct blab_compact_stats *out)
{
	if (!z || !out)
		return BLAB_EINVAL;
	*out = z->cstats;
	return 0;
}
