/*
 * check.c - the invariant checker. It rebuilds, from the lists alone, where every page is
 * and compares with the counters and page flags:
 *   nr_free[order] and pcp->count match their lists; list links are consistent;
 *   free blocks are PageBuddy with the right order, aligned, inside the zone, and two free
 *   buddies of equal order are never left unmerged;
 *   every page is in exactly one place: a free block, a pcp block, an allocated block, or a
 *   block an op holds in flight (PG_picked);
 *   skip-merge: only order-0 free pages carry PG_merge_skipped, and the zone's count of them
 *   is right (their free buddies may stay unmerged: that is the point).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include "mm.h"

#define COVERED 1u
#define LISTED 2u /* the head was reached through a list */

struct ctx {
	const struct blab_zone *z;
	uint8_t *seen;
	uint32_t merge_skipped;
	char *msg;
	unsigned msglen;
};

static int fail(struct ctx *c, const char *fmt, ...)
{
	if (c->msg && c->msglen) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(c->msg, c->msglen, fmt, ap);
		va_end(ap);
	}
	return BLAB_ECHECK;
}

static int cover_fail(struct ctx *c, uint32_t idx, unsigned order, const char *where)
{
	const struct blab_zone *z = c->z;
	uint64_t pfn = idx_to_pfn(z, idx);

	if (pfn & ((1ull << order) - 1))
		return fail(c, "%s block pfn=0x%llx not aligned to order %u", where,
			    (unsigned long long)pfn, order);
	if ((uint64_t)idx + (1u << order) > z->pages)
		return fail(c, "%s block pfn=0x%llx order %u runs past the zone end", where,
			    (unsigned long long)pfn, order);
	for (uint32_t i = idx; i < idx + (1u << order); i++)
		if (c->seen[i] & COVERED)
			return fail(c, "pfn=0x%llx is in two places (second: %s block pfn=0x%llx order %u)",
				    (unsigned long long)idx_to_pfn(z, i), where,
				    (unsigned long long)pfn, order);
	return fail(c, "%s block pfn=0x%llx: bad block", where, (unsigned long long)pfn);
}

/* mark the pages of a block as placed; each page may be placed once */
static inline int cover(struct ctx *c, uint32_t idx, unsigned order, const char *where)
{
	const struct blab_zone *z = c->z;
	uint32_t n = 1u << order;
	uint8_t acc = 0;

	if (((z->start_pfn + idx) & (n - 1)) || (uint64_t)idx + n > z->pages)
		return cover_fail(c, idx, order, where);
	for (uint32_t i = idx; i < idx + n; i++) {
		acc |= c->seen[i];
		c->seen[i] |= COVERED;
	}
	if (acc & COVERED)
		return cover_fail(c, idx, order, where);
	return 0;
}

/* walk one list; calls back per page; counts entries; catches cycles and bad links */
static int walk(struct ctx *c, const struct blab_list *l, const char *what, uint32_t *n,
		int (*each)(struct ctx *, uint32_t, void *), void *arg)
{
	const struct blab_zone *z = c->z;
	uint32_t prev = NIL, idx = l->head, count = 0;

	while (idx != NIL) {
		int err;
		if (idx >= z->pages)
			return fail(c, "%s: link to page index %u outside the zone", what, idx);
		if (zone_page(z, idx)->prev != prev)
			return fail(c, "%s: broken prev link at pfn=0x%llx", what,
				    (unsigned long long)idx_to_pfn(z, idx));
		if (++count > z->pages)
			return fail(c, "%s: cycle", what);
		err = each(c, idx, arg);
		if (err)
			return err;
		prev = idx;
		idx = zone_page(z, idx)->next;
	}
	if (l->tail != prev)
		return fail(c, "%s: tail does not match the last entry", what);
	*n = count;
	return 0;
}

struct free_arg {
	unsigned order, mt;
	uint32_t pages;
};

static int each_free(struct ctx *c, uint32_t idx, void *arg)
{
	const struct blab_zone *z = c->z;
	struct free_arg *a = arg;
	const struct page *p = zone_page(z, idx);
	uint64_t pfn = idx_to_pfn(z, idx);
	int err;

	if (p->flags == (PG_buddy | PG_merge_skipped)) {
		if (a->order != 0)
			return fail(c, "free_area[%u] %s: pfn=0x%llx is merge-skipped above order 0",
				    a->order, blab_mt_name(a->mt), (unsigned long long)pfn);
		c->merge_skipped++;
	} else if (p->flags != PG_buddy) {
		return fail(c, "free_area[%u] %s: pfn=0x%llx is not PageBuddy (flags 0x%x)", a->order,
			    blab_mt_name(a->mt), (unsigned long long)pfn, p->flags);
	}
	if (p->order != a->order || p->mt != a->mt)
		return fail(c, "free_area[%u] %s: pfn=0x%llx says order %u %s", a->order,
			    blab_mt_name(a->mt), (unsigned long long)pfn, p->order,
			    blab_mt_name(p->mt));
	err = cover(c, idx, a->order, "free");
	if (err)
		return err;
	c->seen[idx] |= LISTED;
	a->pages += 1u << a->order;
	if (a->order < z->top_order) {
		uint64_t buddy = pfn ^ (1ull << a->order);
		if (buddy >= z->start_pfn && buddy - z->start_pfn < z->pages) {
			const struct page *b = zone_page(z, pfn_to_idx(z, buddy));
			if ((b->flags & PG_buddy) && b->order == a->order &&
			    !(p->flags & PG_merge_skipped) && !(b->flags & PG_merge_skipped))
				return fail(c, "free buddies pfn=0x%llx and pfn=0x%llx of order %u are not merged",
					    (unsigned long long)pfn, (unsigned long long)buddy,
					    a->order);
		}
	}
	return 0;
}

struct pcp_arg {
	unsigned cpu, which, li;
	uint32_t pages;
};

static int each_pcp(struct ctx *c, uint32_t idx, void *arg)
{
	const struct blab_zone *z = c->z;
	struct pcp_arg *a = arg;
	const struct page *p = zone_page(z, idx);
	uint64_t pfn = idx_to_pfn(z, idx);
	unsigned want = PG_pcp | (a->which ? PG_cold : 0);
	int err;

	if (p->flags != want)
		return fail(c, "cpu %u pcp list %u: pfn=0x%llx has flags 0x%x", a->cpu, a->li,
			    (unsigned long long)pfn, p->flags);
	if (p->cpu != a->cpu)
		return fail(c, "cpu %u pcp list: pfn=0x%llx says cpu %u", a->cpu,
			    (unsigned long long)pfn, p->cpu);
	if (!pcp_allowed_order(z, p->order) || p->mt >= BLAB_MT_PCPTYPES ||
	    order_to_pindex(z, p->mt, p->order) != a->li)
		return fail(c, "cpu %u pcp list %u: pfn=0x%llx order %u mt %u is on the wrong list",
			    a->cpu, a->li, (unsigned long long)pfn, p->order, p->mt);
	err = cover(c, idx, p->order, "pcp");
	if (err)
		return err;
	c->seen[idx] |= LISTED;
	a->pages += 1u << p->order;
	return 0;
}

static int check(struct ctx *c)
{
	const struct blab_zone *z = c->z;
	uint32_t free_pages = 0, pcp_pages = 0;
	int err;

	for (unsigned o = 0; o <= z->top_order; o++) {
		uint32_t blocks = 0;
		for (unsigned mt = 0; mt < BLAB_MT_TYPES; mt++) {
			struct free_arg a = {o, mt, 0};
			uint32_t n = 0;
			err = walk(c, &z->free_area[o].free_list[mt], "free list", &n, each_free, &a);
			if (err)
				return err;
			blocks += n;
			free_pages += a.pages;
		}
		if (blocks != z->free_area[o].nr_free)
			return fail(c, "free_area[%u].nr_free is %u but the lists hold %u blocks", o,
				    z->free_area[o].nr_free, blocks);
	}
	if (free_pages != z->free_pages)
		return fail(c, "free page counter %u, lists hold %u", z->free_pages, free_pages);
	if (c->merge_skipped != z->merge_skipped)
		return fail(c, "merge-skipped counter %u, the order-0 lists hold %u", z->merge_skipped,
			    c->merge_skipped);
	if (z->compacting || (z->s.skip_merge == 0 && z->merge_skipped))
		return fail(c, "merge-skipped pages without skip_merge, or compaction left half done");

	for (unsigned cpu = 0; cpu < z->cpus; cpu++) {
		for (unsigned w = 0; w < 2; w++) {
			const struct per_cpu_pages *pcp = &z->pageset[cpu].pcp[w];
			unsigned nl = z->s.pcp == BLAB_PCP_NONE ? 0 :
				      (w == 1 && z->s.pcp != BLAB_PCP_HOTCOLD) ? 0 :
				      pcp_nr_lists(z);
			uint32_t pages = 0;
			for (unsigned li = 0; li < NR_PCP_LISTS; li++) {
				struct pcp_arg a = {cpu, w, li, 0};
				uint32_t n = 0;
				if (li >= nl) {
					if (!list_empty(&pcp->lists[li]))
						return fail(c, "cpu %u: unused pcp list %u is not empty",
							    cpu, li);
					continue;
				}
				err = walk(c, &pcp->lists[li], "pcp list", &n, each_pcp, &a);
				if (err)
					return err;
				pages += a.pages;
			}
			if (pages != pcp->count)
				return fail(c, "cpu %u pcp%s count is %u but its lists hold %u pages", cpu,
					    w ? " (cold)" : "", pcp->count, pages);
			pcp_pages += pages;
		}
	}
	if (z->machine.kind != BLAB_MACHINE_REAL && pcp_pages != z->pcp_pages) /* see pcp_pages_add */
		return fail(c, "pcp page counter %u, lists hold %u", z->pcp_pages, pcp_pages);

	for (uint32_t i = 0; i < z->pages; i++) {
		const struct page *p = zone_page(z, i);
		if (p->flags & (PG_alloc | PG_picked)) {
			uint32_t n = 1u << p->order;
			if (p->order > z->top_order)
				return fail(c, "pfn=0x%llx has order %u", (unsigned long long)idx_to_pfn(z, i),
					    p->order);
			err = cover(c, i, p->order, p->flags & PG_alloc ? "allocated" : "in-flight");
			if (err)
				return err;
			for (uint32_t t = i + 1; t < i + n; t++)
				if ((p->flags & PG_alloc) ? zone_page(z, t)->flags != PG_tail :
							    zone_page(z, t)->flags != 0)
					return fail(c, "pfn=0x%llx inside block pfn=0x%llx has flags 0x%x",
						    (unsigned long long)idx_to_pfn(z, t),
						    (unsigned long long)idx_to_pfn(z, i),
						    zone_page(z, t)->flags);
			i += n - 1;
			continue;
		}
		if (p->buddy != ((p->flags & PG_buddy) ? p->order + 1u : 0u))
			return fail(c, "pfn=0x%llx: PageBuddy order+1 is %u, flags 0x%x order %u",
				    (unsigned long long)idx_to_pfn(z, i), p->buddy, p->flags,
				    p->order);
		if ((p->flags & (PG_buddy | PG_pcp)) && !(c->seen[i] & LISTED))
			return fail(c, "pfn=0x%llx is flagged free (0x%x) but on no list",
				    (unsigned long long)idx_to_pfn(z, i), p->flags);
		if (!(c->seen[i] & COVERED))
			return fail(c, "pfn=0x%llx is in no place (flags 0x%x)",
				    (unsigned long long)idx_to_pfn(z, i), p->flags);
	}
	for (uint32_t b = 0; b < z->nr_pageblocks; b++)
		if (z->pageblock_mt[b] >= BLAB_MT_TYPES)
			return fail(c, "pageblock %u has migratetype %u", b, z->pageblock_mt[b]);
	return 0;
}

#ifdef BLAB_DEBUG_CHECK
void _blab_debug_check(const struct blab_zone *z, const char *what)
{
	char msg[256];
	if (blab_check(z, msg, sizeof(msg))) {
		fprintf(stderr, "blab: invariant violated after %s: %s\n", what, msg);
		abort();
	}
}
#endif

int blab_check(const struct blab_zone *z, char *msg, unsigned msglen)
{
	struct ctx c;
	int err;

	if (msg && msglen)
		msg[0] = 0;
	if (!z)
		return BLAB_EINVAL;
	c.z = z;
	c.merge_skipped = 0;
	c.msg = msg;
	c.msglen = msglen;
	c.seen = calloc(z->pages, 1);
	if (!c.seen)
		return BLAB_ENOMEMHOST;
	err = check(&c);
	free(c.seen);
	if (!err && z->slab_ops)
		err = z->slab_ops->check(z, msg, msglen);
	return err;
}
