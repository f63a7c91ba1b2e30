/*
 * ex_buddy.c - buddy problems: a small zone's free lists, and alloc(order) / free(pfn, order)
 * on it.
 *
 * The state comes from a random history of allocations and frees on the core; the problem
 * states it block by block (every free list head first, every allocated block), and its op
 * script lays the zone out exactly so (`layout`), so nothing the answers depend on is left
 * unsaid. The zone has no pcp lists (pcp=none), so every page goes through the buddy
 * allocator, whatever the preset; the preset still decides expand() (2.5 keeps the upper
 * half) and where a freed block goes on its list (buddy_merge_likely(), 4.13 on).
 *
 *   level 1  one alloc (its pfn, the buddyinfo line after) or one free (its buddy, the
 *            order it ends at)
 *   level 2  alloc, free, alloc: the first pfn, the free's final order, buddyinfo after
 *   level 3  the same and a twist: an allocation that may not find a block; a free that
 *            goes to the tail of its list (buddy_merge_likely()); 2.5's expand() handing
 *            out the top half
 */
#include <stdlib.h>
#include <string.h>
#include "exercise.h"

#define MAX_BLOCKS 256u
#define MAX_OPS 5u
#define TRIES 400u

struct bop {
	uint8_t free;  /* 1: free pfn=.. order=..; 0: alloc order=.. */
	uint8_t order;
	uint64_t pfn;
};

/* the state a history left: what the problem prints and `layout` lays out again */
struct bstate {
	struct blab_layout_block b[MAX_BLOCKS];
	uint32_t n;
	uint32_t pages;
	unsigned max_free; /* the largest order with a free block */
};

enum twist { TW_NONE, TW_FAIL, TW_TAIL, TW_TOP };

struct buddy {
	struct blab_exercise *ex;
	struct blab_strategy s;
	char zone_line[200];
	struct ex_buf history; /* the op lines that made the state (perturbed problems replay it) */
	struct bstate st;
	struct bop op[MAX_OPS];
	unsigned nops;
	enum twist twist;
	uint8_t merging[MAX_OPS]; /* op k is a free drawn to merge (its buddy was free) */
	uint8_t relax;            /* half the tries failed: a free need not merge */
	unsigned scan;            /* TW_TAIL: the allocated blocks tried as the tail free so far */
	struct ex_buf state;   /* the zone before the ops, as the problem prints it */
};

/* the pfn the first ALLOC record of z's log in [from, to) handed out, or ~0 */
static uint64_t first_alloc(struct blab_zone *z, uint32_t from, uint32_t to)
{
	uint32_t n;
	const struct blab_event *ev = blab_log(z, &n);
	for (uint32_t i = from; i < to && i < n; i++)
		if (ev[i].type == BLAB_EV_ALLOC)
			return ev[i].pfn;
	return ~0ull;
}

/* a fragmented zone: allocations of small orders and frees of some of them, at random */
static int make_history(struct buddy *b)
{
	struct blab_exercise *ex = b->ex;
	struct bop held[MAX_BLOCKS];
	unsigned nheld = 0, steps = b->st.pages / 2 + ex_below(ex, 8);
	struct ex_run r;
	int err;

	if ((err = ex_run_open(&r, &b->history)))
		return err;
	if ((err = ex_run(ex, &r, "%s", b->zone_line)))
		goto out;
	/* at least three blocks stay allocated: a free needs one */
	for (unsigned i = 0; i < steps || nheld < 3; i++) {
		struct blab_zone_info info;
		blab_zone_info(ex_zone(&r), &info);
		if (i >= steps + 64)
			break;
		if (nheld && i < steps && (ex_below(ex, 100) < 35 || nheld == MAX_BLOCKS ||
					   info.free_pages < b->st.pages / 4)) {
			unsigned k = ex_below(ex, nheld);
			if ((err = ex_run(ex, &r, "free pfn=0x%llx order=%u",
					  (unsigned long long)held[k].pfn, held[k].order)))
				goto out;
			held[k] = held[--nheld];
		} else {
			unsigned order = ex_below(ex, 4) ? ex_below(ex, 3) : ex_below(ex, 4);
			uint32_t before = ex_events(&r);
			uint64_t pfn;
			if ((err = ex_run(ex, &r, "alloc order=%u", order)))
				goto out;
			pfn = first_alloc(ex_zone(&r), before, ex_events(&r));
			if (pfn != ~0ull) {
				held[nheld].pfn = pfn;
				held[nheld].order = (uint8_t)order;
				nheld++;
			}
		}
	}
	/* and something stays free: a zone with no free block poses no buddy problem */
	{
		struct blab_zone_info info;
		blab_zone_info(ex_zone(&r), &info);
		if (info.free_pages == 0 && nheld) {
			unsigned k = ex_below(ex, nheld);
			if ((err = ex_run(ex, &r, "free pfn=0x%llx order=%u",
					  (unsigned long long)held[k].pfn, held[k].order)))
				goto out;
			held[k] = held[--nheld];
		}
	}
	/* the state, read back from the core */
	{
		struct blab_zone *z = ex_zone(&r);
		struct blab_block blocks[MAX_BLOCKS * 2];
		uint32_t nb = 0;
		struct blab_zone_info info;

		blab_zone_info(z, &info);
		b->st.n = 0;
		b->st.max_free = 0;
		for (unsigned o = 0; o <= info.top_order; o++) {
			uint64_t pfns[MAX_BLOCKS];
			uint32_t k = 0;
			blab_free_list(z, o, BLAB_MT_MOVABLE, pfns, MAX_BLOCKS, &k);
			for (uint32_t i = 0; i < k && b->st.n < MAX_BLOCKS; i++) {
				b->st.b[b->st.n++] = (struct blab_layout_block){pfns[i], (uint8_t)o, 1};
				b->st.max_free = o;
			}
		}
		if (blab_zone_blocks(z, blocks, MAX_BLOCKS * 2, &nb)) {
			err = ex_fail(ex, BLAB_ECHECK, "buddy: the history's zone cannot be read back");
			goto out;
		}
		for (uint32_t i = 0; i < nb && b->st.n < MAX_BLOCKS; i++)
			if (blocks[i].what == BLAB_BLOCK_ALLOC)
				b->st.b[b->st.n++] =
					(struct blab_layout_block){blocks[i].pfn, blocks[i].order, 0};
		if (b->st.n == MAX_BLOCKS)
			err = ex_fail(ex, BLAB_ELIMIT, "buddy: the state has too many blocks");
	}
out:
	ex_run_close(&r);
	return err;
}

/* is [pfn, order) the buddy of an allocated block of the state, free at that order? */
static int merges(const struct bstate *st, const struct blab_layout_block *a)
{
	uint64_t buddy = a->pfn ^ (1ull << a->order);
	for (uint32_t i = 0; i < st->n; i++)
		if (st->b[i].free && st->b[i].pfn == buddy && st->b[i].order == a->order)
			return 1;
	return 0;
}

/* an allocated block of the state not yet freed by the ops, preferring one that merges */
static int pick_free(struct buddy *b, int want_merge, struct bop *op)
{
	uint32_t cand[MAX_BLOCKS], nc = 0;
	for (uint32_t i = 0; i < b->st.n; i++) {
		const struct blab_layout_block *x = &b->st.b[i];
		int used = 0;
		if (x->free || (want_merge && !merges(&b->st, x)))
			continue;
		for (unsigned k = 0; k < b->nops; k++)
			if (b->op[k].free && b->op[k].pfn == x->pfn)
				used = 1;
		if (!used)
			cand[nc++] = i;
	}
	if (!nc)
		return 0;
	{
		const struct blab_layout_block *x = &b->st.b[cand[ex_below(b->ex, nc)]];
		*op = (struct bop){1, x->order, x->pfn};
	}
	return 1;
}

static void add_alloc(struct buddy *b)
{
	b->op[b->nops++] = (struct bop){0, (uint8_t)ex_below(b->ex, b->st.max_free + 1u), 0};
}

static int add_free(struct buddy *b, int want_merge)
{
	struct bop op;
	int merging = want_merge && !b->relax && pick_free(b, 1, &op);
	if (!merging && !pick_free(b, 0, &op))
		return 0;
	b->merging[b->nops] = (uint8_t)merging;
	b->op[b->nops++] = op;
	return 1;
}

/* the problem's ops for this try */
static int draw_ops(struct buddy *b)
{
	b->nops = 0;
	if (b->ex->level == 1) {
		struct bop op;
		if (ex_below(b->ex, 2) || !pick_free(b, 1, &op))
			add_alloc(b);
		else if (!add_free(b, 1))
			return 0;
		return 1;
	}
	add_alloc(b);
	if (!add_free(b, 1))
		return 0;
	add_alloc(b);
	if (b->twist == TW_TAIL) {
		/* a second free, each allocated block in turn: the try is kept only if it goes to
		 * the tail of its list and the alloc after it takes another block */
		uint32_t cand[MAX_BLOCKS], nc = 0;
		b->nops--;
		for (uint32_t i = 0; i < b->st.n; i++)
			if (!b->st.b[i].free && b->st.b[i].pfn != b->op[1].pfn)
				cand[nc++] = i;
		if (!nc)
			return 0;
		{
			const struct blab_layout_block *x = &b->st.b[cand[b->scan++ % nc]];
			b->op[b->nops++] = (struct bop){1, x->order, x->pfn};
		}
		b->op[b->nops++] = (struct bop){0, 0, 0}; /* its order: the free's end order, set later */
	}
	if (b->twist == TW_FAIL)
		b->op[b->nops++] = (struct bop){0, 0, 0}; /* set from a scratch run */
	if (b->twist == TW_TOP)
		b->op[b->nops++] = (struct bop){0, 0, 0};
	return 1;
}

static int run_op_line(struct blab_exercise *ex, struct ex_run *r, const struct bop *op)
{
	if (op->free)
		return ex_run(ex, r, "free pfn=0x%llx order=%u", (unsigned long long)op->pfn, op->order);
	return ex_run(ex, r, "alloc order=%u", op->order);
}

/* the zone of the problem, before its ops: laid out from the state (or, perturbed, made by
 * the history again: the same printed state, reached another way) */
static int run_setup(struct buddy *b, struct ex_run *r)
{
	struct blab_exercise *ex = b->ex;
	int err;

	if (ex->perturb) {
		const char *p = ex_str(&b->history);
		while (*p) {
			const char *nl = strchr(p, '\n');
			size_t len = nl ? (size_t)(nl - p) : strlen(p);
			char line[BLAB_SCRIPT_MAX_LINE + 1];
			memcpy(line, p, len);
			line[len] = 0;
			if ((err = ex_run(ex, r, "%s", line)))
				return err;
			p += len + (nl ? 1 : 0);
		}
		return 0;
	}
	if ((err = ex_run(ex, r, "%s", b->zone_line)))
		return err;
	for (uint32_t i = 0; i < b->st.n;) {
		char line[BLAB_SCRIPT_MAX_LINE];
		size_t len;
		int any_free = 0, any_alloc = 0;
		char fr[BLAB_SCRIPT_MAX_LINE] = "", al[BLAB_SCRIPT_MAX_LINE] = "";
		/* at most 40 blocks a line: comfortably inside BLAB_SCRIPT_MAX_LINE */
		for (uint32_t k = 0; k < 40 && i < b->st.n; k++, i++) {
			char *dst = b->st.b[i].free ? fr : al;
			snprintf(dst + strlen(dst), BLAB_SCRIPT_MAX_LINE - strlen(dst), "%s0x%llx:%u",
				 *dst ? "," : "", (unsigned long long)b->st.b[i].pfn, b->st.b[i].order);
			any_free |= b->st.b[i].free;
			any_alloc |= !b->st.b[i].free;
		}
		len = (size_t)snprintf(line, sizeof(line), "layout%s%s%s%s", any_free ? " free=" : "", fr,
				       any_alloc ? " alloc=" : "", al);
		if (len >= sizeof(line))
			return ex_fail(ex, BLAB_ELIMIT, "buddy: a layout line is too long");
		if ((err = ex_run(ex, r, "%s", line)))
			return err;
	}
	return 0;
}

/* the largest order with a free block in z */
static unsigned max_free_order(struct blab_zone *z)
{
	struct blab_zone_info info;
	unsigned m = 0;
	blab_zone_info(z, &info);
	for (unsigned o = 0; o <= info.top_order; o++)
		if (info.nr_free[o])
			m = o + 1;
	return m; /* 0: nothing free; else the order + 1 */
}

/* the final BUDDY_ADD of records [from, to): the block a free ended as */
static const struct blab_event *final_add(struct blab_zone *z, uint32_t from, uint32_t to)
{
	uint32_t n;
	const struct blab_event *ev = blab_log(z, &n);
	for (uint32_t i = to; i > from; i--)
		if (ev[i - 1].type == BLAB_EV_BUDDY_ADD)
			return &ev[i - 1];
	return NULL;
}

static int count_type(struct blab_zone *z, uint32_t from, uint32_t to, unsigned type,
		      unsigned flag)
{
	uint32_t n;
	int c = 0;
	const struct blab_event *ev = blab_log(z, &n);
	for (uint32_t i = from; i < to && i < n; i++)
		if (ev[i].type == type && (!flag || (ev[i].flags & flag)))
			c++;
	return c;
}

/* records [from[k], from[k + 1]) are op k's */
struct ranges {
	uint32_t from[MAX_OPS + 1];
};

/* the order op k (a placeholder) asks, from the zone as it is when op k runs */
static int fix_order(struct buddy *b, unsigned k, struct blab_zone *z, uint32_t prev_from,
		     uint32_t prev_to)
{
	struct blab_zone_info info;
	unsigned m = max_free_order(z);

	blab_zone_info(z, &info);
	if (b->twist == TW_FAIL) {
		/* the largest free block's order, or one above it: the student must see which */
		if (!m)
			return 0;
		b->op[k].order = (uint8_t)(m - 1 + ex_below(b->ex, 2));
		return b->op[k].order <= info.top_order;
	}
	if (b->twist == TW_TAIL) {
		const struct blab_event *e = final_add(z, prev_from, prev_to);
		if (!e || !(e->flags & 1u))
			return 0; /* the free did not go to the tail: another try */
		b->op[k].order = e->order;
		return 1;
	}
	/* TW_TOP: an order whose list is empty while the next one up has a block: it splits */
	for (unsigned j = 1; j <= info.top_order; j++)
		if (info.nr_free[j] && !info.nr_free[j - 1]) {
			b->op[k].order = (uint8_t)(j - 1 - (j >= 2 && !info.nr_free[j - 2] ? ex_below(b->ex, 2) : 0));
			return 1;
		}
	return 0;
}

/* one try: the run of the problem's ops; 1 when it has what its level asks for */
static int try_once(struct buddy *b, struct ex_run *r, struct ranges *rg)
{
	struct blab_exercise *ex = b->ex;
	struct blab_zone *z;
	int err;

	if ((err = run_setup(b, r)))
		return err;
	ex->setup_events = ex_events(r);
	ex_buf_free(&b->state);
	ex_state_buddy(&b->state, ex_zone(r));
	for (unsigned k = 0; k < b->nops; k++) {
		rg->from[k] = ex_events(r);
		if (ex->level == 3 && k == b->nops - 1 &&
		    !fix_order(b, k, ex_zone(r), k ? rg->from[k - 1] : 0, rg->from[k]))
			return 1 + 1; /* not this time */
		if ((err = run_op_line(ex, r, &b->op[k])))
			return err;
	}
	rg->from[b->nops] = ex_events(r);
	z = ex_zone(r);
	/* what the level promises, checked on what the core did */
	for (unsigned k = 0; k < b->nops; k++) {
		int last = k == b->nops - 1;
		if (count_type(z, rg->from[k], rg->from[k + 1], BLAB_EV_ALLOC_FAIL, 0) &&
		    !(b->twist == TW_FAIL && last))
			return 2;
		if (b->op[k].free && k < 2 && b->merging[k] &&
		    !count_type(z, rg->from[k], rg->from[k + 1], BLAB_EV_MERGE, 0))
			return 2;
	}
	if (b->twist == TW_TAIL) {
		/* the alloc after the tail free must take another block: the list's head */
		const struct blab_event *e = final_add(z, rg->from[2], rg->from[3]);
		if (!e || first_alloc(z, rg->from[3], rg->from[4]) == e->pfn)
			return 2;
	}
	if (b->twist == TW_TOP &&
	    !count_type(z, rg->from[b->nops - 1], rg->from[b->nops], BLAB_EV_SPLIT, 0))
		return 2;
	return 0;
}

static void describe_preset(struct buddy *b, struct ex_buf *t)
{
	ex_para(t, "Preset %s: %s %s", b->ex->preset,
		b->s.expand_top ? "expand() as in 2.4/2.5: each split puts the lower half on its free "
				  "list and goes on in the upper half, so a block is handed out from "
				  "its top."
				: "expand() puts the upper half of each split on its free list and goes "
				  "on in the lower half.",
		b->s.merge_tail ? "A freed block goes to the tail of its free list when "
				  "buddy_merge_likely() finds its buddy one order up free, else to the "
				  "head."
				: "A freed block always goes to the head of its free list.");
}

static void statement(struct buddy *b)
{
	struct ex_buf *t = &b->ex->statement;

	ex_para(t, "A zone of %u pages, pfn 0x0 to 0x%x, with MAX_PAGE_ORDER 10 (so /proc/buddyinfo "
		"has 11 counts, orders 0 to 10), one CPU and no per-cpu lists (pcp=none): every "
		"allocation and free goes to the buddy allocator under zone->lock. Every block is "
		"MOVABLE.",
		b->st.pages, b->st.pages - 1);
	describe_preset(b, t);
	ex_puts(t, "\n");
	ex_puts(t, ex_str(&b->state));
	ex_puts(t, "\nThese run in order on CPU 0:\n\n");
	for (unsigned k = 0; k < b->nops; k++) {
		if (b->op[k].free)
			ex_printf(t, "  %u. free pfn=0x%llx order=%u\n", k + 1,
				  (unsigned long long)b->op[k].pfn, b->op[k].order);
		else
			ex_printf(t, "  %u. alloc order=%u\n", k + 1, b->op[k].order);
	}
}

static void q_pfn(struct buddy *b, struct blab_zone *z, const struct ranges *rg, unsigned k)
{
	struct ex_question *q = ex_question(b->ex, EX_FORM_PFN, "Which pfn does op %u return?", k + 1);
	ex_printf(&q->answer, "0x%llx", (unsigned long long)first_alloc(z, rg->from[k], rg->from[k + 1]));
	ex_working(q, z, rg->from[k], rg->from[k + 1], EX_WORK_PAGES);
}

static void q_end_order(struct buddy *b, struct blab_zone *z, const struct ranges *rg, unsigned k)
{
	struct ex_question *q = ex_question(b->ex, EX_FORM_NUMBER,
					    "Op %u frees 0x%llx (order %u): at which order does the block end up on a free list?",
					    k + 1, (unsigned long long)b->op[k].pfn, b->op[k].order);
	ex_printf(&q->answer, "%u", final_add(z, rg->from[k], rg->from[k + 1])->order);
	ex_working(q, z, rg->from[k], rg->from[k + 1], EX_WORK_PAGES);
}

static void q_buddy(struct buddy *b, struct blab_zone *z, const struct ranges *rg, unsigned k)
{
	struct ex_question *q = ex_question(b->ex, EX_FORM_PFN,
					    "Op %u frees 0x%llx (order %u): what is the pfn of its buddy, the block it merges with first?",
					    k + 1, (unsigned long long)b->op[k].pfn, b->op[k].order);
	uint32_t n;
	const struct blab_event *ev = blab_log(z, &n);
	struct blab_zone_info info;
	blab_zone_info(z, &info);
	for (uint32_t i = rg->from[k]; i < rg->from[k + 1]; i++)
		if (ev[i].type == BLAB_EV_MERGE) {
			ex_printf(&q->answer, "0x%llx", (unsigned long long)(info.start_pfn + ev[i].arg0));
			break;
		}
	ex_working(q, z, rg->from[k], rg->from[k + 1], EX_WORK_PAGES);
}

static void q_buddyinfo(struct buddy *b, struct blab_zone *z, const struct ranges *rg)
{
	struct ex_question *q = ex_question(b->ex, EX_FORM_BUDDYINFO,
					    "What does /proc/buddyinfo show after op %u (11 counts, order 0 first)?",
					    b->nops);
	q->width = 11;
	ex_buddyinfo(&q->answer, z);
	ex_working(q, z, rg->from[0], rg->from[b->nops], EX_WORK_PAGES);
	ex_printf(&q->working, "nr_free by order after op %u: %s\n", b->nops, ex_str(&q->answer));
}

static void q_succeeds(struct buddy *b, struct blab_zone *z, const struct ranges *rg, unsigned k)
{
	struct ex_question *q = ex_question(b->ex, EX_FORM_YESNO, "Does op %u find a block?", k + 1);
	int failed = count_type(z, rg->from[k], rg->from[k + 1], BLAB_EV_ALLOC_FAIL, 0);
	ex_puts(&q->answer, failed ? "no" : "yes");
	ex_working(q, z, rg->from[k], rg->from[k + 1], EX_WORK_PAGES);
}

static void questions(struct buddy *b, struct blab_zone *z, const struct ranges *rg)
{
	if (b->ex->level == 1) {
		if (b->op[0].free) {
			q_buddy(b, z, rg, 0);
			q_end_order(b, z, rg, 0);
		} else {
			q_pfn(b, z, rg, 0);
			q_buddyinfo(b, z, rg);
		}
		return;
	}
	q_pfn(b, z, rg, 0);
	q_end_order(b, z, rg, 1);
	if (b->twist == TW_FAIL)
		q_succeeds(b, z, rg, b->nops - 1);
	else if (b->twist != TW_NONE)
		q_pfn(b, z, rg, b->nops - 1);
	q_buddyinfo(b, z, rg);
}

static void reset(struct blab_exercise *ex)
{
	ex_buf_free(&ex->ops);
	for (unsigned i = 0; i < ex->nq; i++) {
		ex_buf_free(&ex->q[i].text);
		ex_buf_free(&ex->q[i].answer);
		ex_buf_free(&ex->q[i].working);
	}
	ex->nq = 0;
}

int ex_buddy(struct blab_exercise *ex)
{
	static const unsigned pages_lo[] = {16, 32, 64}, pages_span[] = {49, 97, 193};
	struct buddy *b = calloc(1, sizeof(*b));
	struct ranges rg;
	int err;

	if (!b)
		return BLAB_ENOMEMHOST;
	b->ex = ex;
	if ((err = ex_preset(ex, BLAB_DEFAULT_PRESET, &b->s)))
		goto out;
	if (b->s.skip_merge) {
		err = ex_fail(ex, BLAB_EPRESET, "preset %s skips merging order-0 frees (Lu's RFC): buddy problems need a preset that merges",
			      ex->preset);
		goto out;
	}
	{
		/* the zone has no pcp lists: a preset whose pcp->lock and auto-tuning need them
		 * has 5.18's buddy allocator, which is the one to pose these problems on */
		struct blab_zone_config cfg;
		struct blab_zone *z;
		blab_zone_config_init(&cfg);
		cfg.pages = 16;
		cfg.strategy = b->s;
		cfg.strategy.pcp = BLAB_PCP_NONE;
		cfg.strategy.free_high = BLAB_FREE_HIGH_NONE;
		cfg.strategy.pcp_thp = BLAB_THP_NONE;
		if (blab_zone_create(&cfg, &z)) {
			err = ex_fail(ex, BLAB_EPRESET, "preset %s: buddy problems turn the pcp lists off (pcp=none), and this preset's pcp->lock and auto-tuned lists need them; its buddy allocator is v5.18's, so pick v2.5.44 .. v5.18",
				      ex->preset);
			goto out;
		}
		blab_zone_destroy(z);
	}
	ex->views = "free-areas,buddy-tree,buddyinfo";
	b->st.pages = pages_lo[ex->level - 1] + ex_below(ex, pages_span[ex->level - 1]);
	snprintf(b->zone_line, sizeof(b->zone_line), "zone pages=%u preset=%s pcp=none", b->st.pages,
		 ex->preset);
	if ((err = make_history(b)))
		goto out;

	if (ex->level == 3) {
		enum twist tw[3];
		unsigned n = 0;
		tw[n++] = TW_FAIL;
		if (b->s.merge_tail)
			tw[n++] = TW_TAIL;
		if (b->s.expand_top)
			tw[n++] = TW_TOP;
		b->twist = tw[ex_below(ex, n)];
	}
	err = 2;
	for (unsigned t = 0; t < TRIES && err == 2; t++) {
		struct ex_run r;
		reset(ex);
		if (t == TRIES / 4 && b->twist == TW_TAIL)
			b->twist = TW_FAIL; /* no free of this state goes to the tail: the other twist */
		if (t == TRIES / 2)
			b->relax = 1; /* each free's buddy is taken by op 1 first: merging or not */
		if (!draw_ops(b))
			continue;
		if ((err = ex_run_open(&r, &ex->ops)))
			goto out;
		err = try_once(b, &r, &rg);
		if (!err) {
			questions(b, ex_zone(&r), &rg);
			ex_seal(ex, &r);
		}
		ex_run_close(&r);
	}
	if ((err = ex_found(ex, "buddy", err)))
		goto out;
	statement(b);
out:
	ex_buf_free(&b->history);
	ex_buf_free(&b->state);
	free(b);
	return err;
}
