/*
 * ex_working.c - an answer's working: the records the core logged while it ran the
 * problem's ops, said in sentences that name the kernel function that wrote each, and the
 * state a problem prints, read from the zone.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "exercise.h"
#include "machine/prim.h" /* PAGE_OFFSET: a slab object's address from its record */

static void line(struct ex_question *q, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void line(struct ex_question *q, const char *fmt, ...)
{
	char text[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	ex_puts(&q->working, text);
	ex_puts(&q->working, "\n");
}

/* why __free_one_page() stopped where e put the block */
static void merge_stop(struct ex_question *q, const struct blab_event *e,
		       const struct blab_zone_info *z)
{
	uint64_t buddy = e->pfn ^ (1ull << e->order);
	if (e->order >= z->top_order)
		line(q, "(order %u is MAX_PAGE_ORDER: nothing merges above it)", e->order);
	else if (buddy < z->start_pfn || buddy >= z->start_pfn + z->pages)
		line(q, "(its buddy 0x%llx lies outside the zone: the merging stops)",
		     (unsigned long long)buddy);
	else
		line(q, "(its buddy 0x%llx is not a free block of order %u: the merging stops)",
		     (unsigned long long)buddy, e->order);
}

static void page_records(struct ex_question *q, const struct blab_event *e,
			 const struct blab_zone_info *z)
{
	uint64_t start = z->start_pfn;
	unsigned long long pfn = (unsigned long long)e->pfn;

	switch (e->type) {
	case BLAB_EV_BUDDY_DEL:
		if (e->path == BLAB_PATH_RMQUEUE || e->path == BLAB_PATH_RMQUEUE_BULK)
			line(q, "__rmqueue_smallest(): takes 0x%llx (order %u) off the head of free_area[%u]",
			     pfn, e->order, e->order);
		break;
	case BLAB_EV_SPLIT:
		line(q, "expand(): 0x%llx (order %u) halves; the %s half goes on free_area[%u]", pfn,
		     e->order + 1u, e->flags & 1u ? "lower" : "upper", e->order);
		break;
	case BLAB_EV_MERGE:
		line(q, "__free_one_page(): 0x%llx (order %u) and its buddy 0x%llx are both free: merged into order %u",
		     pfn, e->order, (unsigned long long)(start + e->arg0), e->order + 1u);
		break;
	case BLAB_EV_BUDDY_ADD:
		if (e->path == BLAB_PATH_FREE_ONE_PAGE || e->path == BLAB_PATH_BULK_MERGE ||
		    e->path == BLAB_PATH_DRAIN)
		{
			line(q, "__free_one_page(): 0x%llx goes on free_area[%u] at the %s", pfn, e->order,
			     e->flags & 1u ? "tail (buddy_merge_likely(): its buddy one order up is free)"
					   : "head");
			merge_stop(q, e, z);
		}
		break;
	case BLAB_EV_ALLOC:
		line(q, "hands out 0x%llx (order %u)", pfn, e->order);
		break;
	case BLAB_EV_ALLOC_FAIL:
		if (e->arg0 == (uint32_t)-BLAB_EWMARK)
			line(q, "zone_watermark_ok() refuses order %u: the zone would not keep more than its low watermark free",
			     e->order);
		else
			line(q, "no free block of order %u or above: the allocation fails", e->order);
		break;
	default:
		break;
	}
}

static void pcp_records(struct ex_question *q, const struct blab_event *e)
{
	switch (e->type) {
	case BLAB_EV_RMQUEUE_BULK:
		if (e->flags & 1u)
			line(q, "rmqueue_bulk(): CPU %u's list was empty: %u pages come from the buddy lists under zone->lock",
			     e->cpu, e->arg1);
		break;
	case BLAB_EV_PCP_DRAIN:
		if (e->flags & 1u)
			line(q, "free_pcppages_bulk(): gives %u pages back to the buddy lists; count is now %u",
			     e->arg0, e->arg1);
		else
			line(q, "free_unref_page_commit(): count %u reached high: free_pcppages_bulk() of %u pages",
			     e->arg1, e->arg0);
		break;
	case BLAB_EV_PCP_HIGH:
		line(q, "%s: CPU %u's high %u -> %u",
		     e->path == BLAB_PATH_RMQUEUE_BULK ? "nr_pcp_alloc()" :
		     e->path == BLAB_PATH_DECAY ? "decay_pcp_high()" : "nr_pcp_high()",
		     e->cpu, e->arg1, e->arg0);
		break;
	default:
		break;
	}
}

static void slab_records(struct ex_question *q, const struct blab_event *e)
{
	switch (e->type) {
	case BLAB_EV_SLAB_NEW:
		line(q, "new_slab(): a slab of %u objects from the page allocator (pfn 0x%llx)", e->arg1,
		     (unsigned long long)e->pfn);
		break;
	case BLAB_EV_SLAB_CPU_SLAB: {
		static const char *const how[] = {"takes the new slab as its cpu slab",
						  "takes a slab off the partial list (get_partial())",
						  "takes its cpu slab's own freelist (get_freelist(): what remote frees gave back)",
						  "gives its cpu slab up (deactivate_slab())"};
		line(q, "___slab_alloc(): CPU %u %s, slab pfn 0x%llx, %u objects", e->cpu,
		     how[e->flags & 3u], (unsigned long long)e->pfn, e->arg1);
		break;
	}
	case BLAB_EV_SLAB_ALLOC:
		line(q, "%s on CPU %u hands out 0x%llx", e->flags & 1u ? "___slab_alloc()" : "slab_alloc() fast path",
		     e->cpu, (unsigned long long)(e->pfn + PAGE_OFFSET));
		break;
	case BLAB_EV_SLAB_FREE:
		line(q, "slab_free() fast path: 0x%llx goes on CPU %u's c->freelist (its cpu slab)",
		     (unsigned long long)(e->pfn + PAGE_OFFSET), e->cpu);
		break;
	case BLAB_EV_SLAB_REMOTE_FREE:
		line(q, "__slab_free(): 0x%llx is not in CPU %u's cpu slab: it goes on its slab's own freelist%s",
		     (unsigned long long)(e->pfn + PAGE_OFFSET), e->cpu,
		     e->flags & 1u ? " (the full slab goes on the partial list)" : "");
		break;
	case BLAB_EV_SLAB_DISCARD:
		line(q, "discard_slab(): the empty slab at pfn 0x%llx goes back to the page allocator",
		     (unsigned long long)e->pfn);
		break;
	default:
		break;
	}
}

void ex_working(struct ex_question *q, const struct blab_zone *z, uint32_t from, uint32_t to,
		unsigned what)
{
	struct blab_zone_info info;
	uint32_t n;
	const struct blab_event *ev = blab_log(z, &n);

	blab_zone_info(z, &info);
	if (to > n)
		to = n;
	q->ev_from = from;
	q->ev_to = to;
	for (uint32_t i = from; i < to; i++) {
		if (what & EX_WORK_PAGES)
			page_records(q, &ev[i], &info);
		if (what & EX_WORK_PCP)
			pcp_records(q, &ev[i]);
		if (what & EX_WORK_SLAB)
			slab_records(q, &ev[i]);
	}
}

void ex_buddyinfo(struct ex_buf *b, const struct blab_zone *z)
{
	struct blab_zone_info info;
	blab_zone_info(z, &info);
	for (unsigned o = 0; o <= info.top_order; o++)
		ex_printf(b, "%s%u", o ? " " : "", info.nr_free[o]);
}

void ex_state_buddy(struct ex_buf *b, const struct blab_zone *z)
{
	struct blab_zone_info info;
	struct blab_block *blocks;
	uint32_t n = 0, shown = 0;

	blab_zone_info(z, &info);
	ex_puts(b, "The free lists, free_area[order].free_list[MOVABLE], head first:\n\n");
	for (unsigned o = 0; o <= info.top_order; o++) {
		uint64_t pfns[256];
		uint32_t k = 0;
		if (blab_free_list(z, o, BLAB_MT_MOVABLE, pfns, 256, &k) || !k)
			continue;
		ex_printf(b, "  order %2u:", o);
		for (uint32_t i = 0; i < k; i++)
			ex_printf(b, " 0x%llx", (unsigned long long)pfns[i]);
		ex_puts(b, "\n");
		shown++;
	}
	if (!shown)
		ex_puts(b, "  (every list is empty)\n");
	else
		ex_puts(b, "  (the other orders' lists are empty)\n");
	blab_zone_blocks(z, NULL, 0, &n);
	blocks = n ? malloc(n * sizeof(*blocks)) : NULL;
	if (!blocks || blab_zone_blocks(z, blocks, n, &n)) {
		free(blocks);
		b->nomem = 1;
		return;
	}
	ex_puts(b, "\nThe allocated blocks (pfn/order):\n\n");
	shown = 0;
	for (uint32_t i = 0; i < n; i++)
		if (blocks[i].what == BLAB_BLOCK_ALLOC) {
			ex_printf(b, "%s0x%llx/%u", shown % 8 == 0 ? (shown ? "\n  " : "  ") : " ",
				  (unsigned long long)blocks[i].pfn, blocks[i].order);
			shown++;
		}
	ex_puts(b, shown ? "\n" : "  none\n");
	free(blocks);
}
