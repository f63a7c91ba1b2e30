/*
 * ex_watermarks.c - watermark problems: does __zone_watermark_ok() pass, how many
 * allocations a zone hands out before its low watermark refuses one, and which zone of a
 * node serves a request (the zonelist walk of get_page_from_freelist(), lowmem_reserve).
 *
 * Each zone is laid out by a snapshot of /proc/buddyinfo counts, so its free pages and its
 * free blocks are exactly what the problem prints; the zones have no pcp lists (pcp=none:
 * NR_FREE_PAGES is then every free page, and each allocation is checked on its own). The
 * walk models the fast path only: when no zone passes, the answer is "none" (the kernel
 * then goes to __alloc_pages_slowpath(), docs/exercises.md says what that leaves out).
 *
 *   level 1  one zone: two zone_watermark_ok() questions at the low watermark, one of them
 *            often about the high-order block check
 *   level 2  one zone: the min and the high watermark, and how many of N order-0
 *            allocations succeed
 *   level 3  a node of DMA, DMA32 and Normal: which zone serves a GFP_KERNEL and a
 *            GFP_DMA32 request, and a lowmem_reserve
 */
#include <stdlib.h>
#include <string.h>
#include "exercise.h"

#define TRIES 200u

static const char *const marks[] = {"min", "low", "high"};
static const char *const gfps[] = {"GFP_DMA", "GFP_DMA32", "GFP_KERNEL"};

struct wzone {
	uint32_t pages, start;
	uint32_t nr_free[BLAB_MAX_ORDER_LIMIT + 1];
	struct blab_zone_info info; /* as the core set it up */
};

/* nr_free counts summing to `target` pages, up to order `top`, that a snapshot can lay out
 * in `pages` (each free block beside an allocated buddy); 0 when it does not fit */
static int spread(struct blab_exercise *ex, uint32_t target, unsigned top, uint32_t pages,
		  uint32_t *nr_free)
{
	uint32_t left = target;
	struct blab_snapshot snap;
	uint64_t need;

	memset(nr_free, 0, sizeof(uint32_t) * (BLAB_MAX_ORDER_LIMIT + 1));
	for (int o = (int)top; o > 0 && left; o--) {
		uint32_t most = left >> o;
		uint32_t n = most ? ex_below(ex, most > 3 ? 3 : most + 1) : 0;
		if (o == (int)top && most && !n)
			n = 1; /* the top order is there: the problem says which orders have blocks */
		nr_free[o] = n;
		left -= n << o;
	}
	nr_free[0] = left;
	memset(&snap, 0, sizeof(snap));
	memcpy(snap.nr_free, nr_free, sizeof(snap.nr_free));
	return blab_snapshot_pages(&snap, 0, BLAB_DEFAULT_TOP_ORDER, 1, pages, &need) == 0;
}

/* a preset's strategy without pcp lists, as the op script's pcp=none makes it: the switches of
 * the per-migratetype lists (free_high, the THP lists) go with them */
static void no_pcp(struct blab_strategy *s)
{
	s->pcp = BLAB_PCP_NONE;
	s->free_high = BLAB_FREE_HIGH_NONE;
	s->pcp_thp = BLAB_THP_NONE;
}

static void nr_free_list(char *out, size_t len, const uint32_t *nr_free)
{
	size_t at = 0;
	out[0] = 0;
	for (unsigned o = 0; o <= BLAB_DEFAULT_TOP_ORDER && at < len; o++)
		at += (size_t)snprintf(out + at, len - at, "%s%u", o ? "," : "", nr_free[o]);
}

static int zone_lines(struct blab_exercise *ex, struct ex_run *r, const struct wzone *w)
{
	char nf[128];
	int err;

	if (w->start)
		err = ex_run(ex, r, "zone pages=%u start_pfn=0x%x preset=%s pcp=none watermarks=1",
			     w->pages, w->start, ex->preset);
	else
		err = ex_run(ex, r, "zone pages=%u preset=%s pcp=none watermarks=1", w->pages,
			     ex->preset);
	if (err)
		return err;
	nr_free_list(nf, sizeof(nf), w->nr_free);
	return ex_run(ex, r, "snapshot nr_free=%s", nf);
}

static void check_working(struct ex_question *q, const char *zone, unsigned order,
			  const char *mark, const struct blab_wmark_check *c)
{
	ex_printf(&q->working, "zone_watermark_ok(%s, order=%u, %s): free %u - (2^%u - 1) = %d %s %s %u + lowmem_reserve %u\n",
		  zone, order, mark, c->free_pages, order, (int)c->free_pages - (int)((1u << order) - 1u),
		  c->pages_ok ? ">" : "<=", mark, c->mark, c->reserve);
	if (order)
		ex_printf(&q->working, "a free block of order %u or above on an allocatable list: %s\n",
			  order, c->block_ok ? "yes" : "no");
	ex_printf(&q->working, "so it %s\n", c->ok ? "passes" : "fails");
}

/* a table narrow enough for a phone: a zone a row */
static void print_zones_head(struct ex_buf *t, int reserve)
{
	ex_printf(t, "  zone     managed  free   min   low  high%s\n", reserve ? "  protection" : "");
}

static void print_zone(struct ex_buf *t, const char *name, const struct blab_zone_info *i,
		       int reserve)
{
	ex_printf(t, "  %-7s %8u %5u %5u %5u %5u", name, i->managed_pages, i->free_pages,
		  i->wmark_min, i->wmark_low, i->wmark_high);
	if (reserve)
		ex_printf(t, "  (%u, %u, %u)", i->lowmem_reserve[0], i->lowmem_reserve[1],
			  i->lowmem_reserve[2]);
	ex_puts(t, "\n");
}

static void print_buddyinfo(struct ex_buf *t, const char *name, const struct blab_zone_info *i)
{
	ex_printf(t, "  Node 0, zone %8s ", name);
	for (unsigned o = 0; o <= i->top_order; o++)
		ex_printf(t, "%6u ", i->nr_free[o]);
	ex_puts(t, "\n");
}

static void rule(struct ex_buf *t)
{
	ex_para(t, "__zone_watermark_ok(order, mark) passes when free pages - (2^order - 1) > mark "
		   "+ lowmem_reserve[the request's highest zone] and, above order 0, a free block of "
		   "that order or larger is on a free list. Free pages are NR_FREE_PAGES, the pages "
		   "on the buddy lists (these zones have no pcp lists: pcp=none).");
}

/* one zone: the check questions, and at level 2 the allocations the low watermark allows */
static int one_zone(struct blab_exercise *ex)
{
	static const uint32_t sizes[] = {1024, 2048, 4096};
	struct wzone w = {0};
	struct ex_run r;
	struct blab_zone *z;
	unsigned top, k[2], mk[2] = {BLAB_WMARK_LOW, BLAB_WMARK_LOW};
	uint32_t count = 0, before, n3 = 0;
	int err, delta;

	w.pages = sizes[ex_below(ex, 3)];
	w.start = ex->perturb ? 0x100000 : 0;
	/* the watermarks first, from a zone of that size: where the free pages should sit */
	{
		struct blab_zone_config cfg;
		struct blab_strategy s;
		blab_zone_config_init(&cfg);
		blab_preset(ex->preset, &s);
		cfg.pages = w.pages;
		cfg.strategy = s;
		no_pcp(&cfg.strategy);
		if ((err = blab_zone_create(&cfg, &z)))
			return ex_fail(ex, err, "watermarks: %s", blab_strerror(err));
		blab_zone_info(z, &w.info);
		blab_zone_destroy(z);
	}
	if (ex->level == 2) {
		mk[0] = BLAB_WMARK_MIN;
		mk[1] = BLAB_WMARK_HIGH;
	}
	delta = (int)ex_below(ex, 24) - 8;
	top = 1 + ex_below(ex, 5);
	{
		uint32_t base = w.info.wmark_low + (ex->level == 2 ? (w.info.wmark_high - w.info.wmark_low) / 2 : 0);
		uint32_t target = (uint32_t)((int)base + delta);
		for (unsigned t = 0; t < TRIES && !spread(ex, target, top, w.pages, w.nr_free); t++)
			;
	}
	/* the second question often where the pages pass but no block is big enough */
	k[0] = ex_below(ex, top + 1);
	k[1] = ex_below(ex, 2) ? top + 1 : ex_below(ex, top + 2);
	if ((err = ex_run_open(&r, &ex->ops)))
		return err;
	if ((err = zone_lines(ex, &r, &w)))
		goto out;
	ex->setup_events = ex_events(&r);
	z = ex_zone(&r);
	blab_zone_info(z, &w.info);
	for (unsigned i = 0; i < 2; i++) {
		struct blab_wmark_check c;
		struct ex_question *q;
		if ((err = ex_run(ex, &r, "zone_watermark_ok order=%u mark=%s", k[i], marks[mk[i]])))
			goto out;
		blab_zone_watermark_ok(z, k[i], mk[i], BLAB_ZONE_NORMAL, &c);
		q = ex_question(ex, EX_FORM_YESNO, "Does zone_watermark_ok() pass for an order-%u request at the %s watermark (op %u)?",
				k[i], marks[mk[i]], i + 1);
		ex_puts(&q->answer, c.ok ? "yes" : "no");
		q->ev_from = q->ev_to = ex_events(&r);
		check_working(q, "Normal", k[i], marks[mk[i]], &c);
	}
	if (ex->level == 2) {
		struct ex_question *q;
		uint32_t n = w.info.free_pages > w.info.wmark_low ? w.info.free_pages - w.info.wmark_low : 0;
		n += 2 + ex_below(ex, 6);
		n3 = n;
		before = ex_events(&r);
		if ((err = ex_run(ex, &r, "alloc order=0 count=%u", n)))
			goto out;
		{
			uint32_t nev;
			const struct blab_event *ev = blab_log(z, &nev);
			for (uint32_t i = before; i < nev; i++)
				count += ev[i].type == BLAB_EV_ALLOC;
		}
		q = ex_question(ex, EX_FORM_NUMBER, "Op 3 asks for %u order-0 pages, one at a time, each checked by zone_watermark_ok() at the low watermark: how many does it get?",
				n);
		ex_printf(&q->answer, "%u", count);
		ex_working(q, z, before, ex_events(&r), EX_WORK_PAGES);
		ex_printf(&q->working, "%u allocations pass before free pages reach the low watermark %u\n",
			  count, w.info.wmark_low);
		/* the working's page-by-page lines are too many here: keep the first and the end */
		{
			const char *p = ex_str(&q->working);
			const char *fail = strstr(p, "zone_watermark_ok() refuses");
			if (fail && (size_t)(fail - p) > 400) {
				struct ex_buf keep = {0};
				const char *nl = strchr(p, '\n');
				ex_printf(&keep, "%.*s\n...\n%s", nl ? (int)(nl - p) : 0, p, fail);
				ex_buf_free(&q->working);
				q->working = keep;
			}
		}
	}
	ex_printf(&ex->title, "watermarks, level %u, seed %llu (preset %s)", ex->level,
		  (unsigned long long)ex->seed, ex->preset);
	{
		struct ex_buf *t = &ex->statement;
		ex_para(t, "One zone, Normal, of %u pages; one CPU. Its watermarks and free blocks, as "
			   "/proc/zoneinfo and /proc/buddyinfo show them:", w.pages);
		ex_puts(t, "\n");
		print_zones_head(t, 0);
		print_zone(t, "Normal", &w.info, 0);
		print_buddyinfo(t, "Normal", &w.info);
		ex_puts(t, "\n");
		rule(t);
		ex_puts(t, "\nThese run in order:\n\n");
		for (unsigned i = 0; i < 2; i++)
			ex_printf(t, "  %u. zone_watermark_ok order=%u mark=%s\n", i + 1, k[i], marks[mk[i]]);
		if (ex->level == 2)
			ex_printf(t, "  3. alloc order=0 count=%u   (one page at a time, on CPU 0)\n", n3);
	}
out:
	if (!err)
		ex_seal(ex, &r);
	ex_run_close(&r);
	return err;
}

/* the node's zones at their sizes, as the core sets them up: watermarks, lowmem_reserve */
static int node_sizes(struct blab_exercise *ex, struct wzone *w)
{
	static const uint8_t types[3] = {BLAB_ZONE_DMA, BLAB_ZONE_DMA32, BLAB_ZONE_NORMAL};
	struct blab_zone *z[3] = {0};
	struct blab_strategy s;
	int err = 0;

	blab_preset(ex->preset, &s);
	for (unsigned i = 0; i < 3 && !err; i++) {
		struct blab_zone_config cfg;
		blab_zone_config_init(&cfg);
		cfg.pages = w[i].pages;
		cfg.start_pfn = w[i].start;
		cfg.strategy = s;
		no_pcp(&cfg.strategy);
		cfg.strategy.watermarks = 1;
		err = blab_zone_create(&cfg, &z[i]);
	}
	if (!err)
		err = blab_node_setup(z, types, 3);
	for (unsigned i = 0; i < 3; i++) {
		if (!err)
			blab_zone_info(z[i], &w[i].info);
		blab_zone_destroy(z[i]);
	}
	return err ? ex_fail(ex, err, "watermarks: the node: %s", blab_strerror(err)) : 0;
}

/* which of the node's zones served the allocation logged after `before[]` records */
static int served(struct ex_run *r, const uint32_t *before)
{
	static const char *const names[3] = {"DMA", "DMA32", "Normal"};
	for (int i = 0; i < 3; i++) {
		uint32_t n;
		const struct blab_event *ev = blab_log(blab_script_zone_named(r->s, names[i]), &n);
		for (uint32_t k = before[i]; k < n; k++)
			if (ev[k].type == BLAB_EV_ALLOC)
				return i;
	}
	return -1;
}

static void zone_choice(struct ex_question *q)
{
	static const char *const c[4] = {"Normal", "DMA32", "DMA", "none: no zone passes (the slow path)"};
	for (unsigned i = 0; i < 4; i++)
		ex_puts(&q->choice[i], c[i]);
	q->nchoices = 4;
}

static int node(struct blab_exercise *ex)
{
	static const char *const names[3] = {"DMA", "DMA32", "Normal"};
	struct wzone w[3];
	struct ex_run r;
	unsigned order[2], highest[2] = {BLAB_ZONE_NORMAL, BLAB_ZONE_DMA32};
	uint32_t shift = ex->perturb ? 0x100000 : 0;
	int err;

	memset(w, 0, sizeof(w));
	w[0] = (struct wzone){.pages = 256, .start = shift};
	w[1] = (struct wzone){.pages = 2048u << ex_below(ex, 2), .start = shift + 256};
	w[2] = (struct wzone){.pages = 4096u << ex_below(ex, 2), .start = shift + 256 + w[1].pages};
	if ((err = node_sizes(ex, w)))
		return err;
	/* free pages close to what each zone must keep: low, plus its reserve for the requests */
	for (unsigned i = 0; i < 3; i++) {
		uint32_t keep = w[i].info.wmark_low + w[i].info.lowmem_reserve[i == 0 ? 1 : 2];
		int delta = (int)ex_below(ex, 20) - 8;
		uint32_t target = (uint32_t)((int)keep + delta > 4 ? (int)keep + delta : 4);
		unsigned top = 1 + ex_below(ex, 4);
		unsigned t = 0;
		while (t++ < TRIES && !spread(ex, target, top, w[i].pages, w[i].nr_free))
			;
	}
	order[0] = ex_below(ex, 3);
	order[1] = ex_below(ex, 3);
	if ((err = ex_run_open(&r, &ex->ops)))
		return err;
	if ((err = ex_run(ex, &r, "node zones=DMA,DMA32,Normal")))
		goto out;
	for (unsigned i = 0; i < 3 && !err; i++)
		err = zone_lines(ex, &r, &w[i]);
	if (err)
		goto out;
	ex->setup_events = ex_events(&r);
	for (unsigned i = 0; i < 3; i++)
		blab_zone_info(blab_script_zone_named(r.s, names[i]), &w[i].info);
	for (unsigned k = 0; k < 2; k++) {
		struct ex_question *q;
		struct blab_zonelist_walk walk;
		uint32_t before[3];
		int who;
		struct blab_zone *zs[3];
		for (unsigned i = 0; i < 3; i++) {
			zs[i] = blab_script_zone_named(r.s, names[i]);
			blab_log(zs[i], &before[i]);
		}
		/* what the walk will look at, read before the op changes it */
		memset(&walk, 0, sizeof(walk));
		for (int i = 2; i >= 0; i--)
			if ((unsigned)i <= highest[k]) {
				walk.checked[i] = 1;
				blab_zone_watermark_ok(zs[i], order[k], BLAB_WMARK_LOW, highest[k], &walk.check[i]);
			}
		if ((err = ex_run(ex, &r, "alloc order=%u gfp=%s", order[k], gfps[highest[k]])))
			goto out;
		who = served(&r, before);
		q = ex_question(ex, EX_FORM_CHOICE, "Op %u (alloc order=%u gfp=%s): which zone serves it?",
				k + 1, order[k], gfps[highest[k]]);
		zone_choice(q);
		ex_puts(&q->answer, who < 0 ? "d" : who == 2 ? "a" : who == 1 ? "b" : "c");
		/* the walk stops at the first zone that passes */
		for (int i = 2; i >= 0; i--)
			if (walk.checked[i]) {
				check_working(q, names[i], order[k], "low", &walk.check[i]);
				if (walk.check[i].ok)
					break;
			}
		ex_printf(&q->working, "get_page_from_freelist(): %s\n",
			  who < 0 ? "no zone passes: the fast path fails" : "the first zone that passes serves it");
		q->ev_from = q->ev_to = 0; /* the node's zones log apart: no one replay shows it */
	}
	{
		struct ex_question *q = ex_question(ex, EX_FORM_NUMBER,
			"How many pages does DMA32 keep from a GFP_KERNEL request (its lowmem_reserve[ZONE_NORMAL], /proc/zoneinfo's protection)?");
		ex_printf(&q->answer, "%u", w[1].info.lowmem_reserve[BLAB_ZONE_NORMAL]);
		ex_printf(&q->working, "setup_per_zone_lowmem_reserve(): Normal's %u managed pages / sysctl_lowmem_reserve_ratio[DMA32] 256 = %u\n",
			  w[2].info.managed_pages, w[1].info.lowmem_reserve[BLAB_ZONE_NORMAL]);
	}
	ex_printf(&ex->title, "watermarks, level %u, seed %llu (preset %s)", ex->level,
		  (unsigned long long)ex->seed, ex->preset);
	{
		struct ex_buf *t = &ex->statement;
		ex_para(t, "A node of three zones, one CPU. Their watermarks, each zone's share of the "
			   "node's min_free_kbytes, and their protection (lowmem_reserve[] by the "
			   "request's highest zone: DMA, DMA32, Normal), as /proc/zoneinfo shows them, "
			   "then their free blocks as /proc/buddyinfo shows them:");
		ex_puts(t, "\n");
		print_zones_head(t, 1);
		for (unsigned i = 0; i < 3; i++)
			print_zone(t, names[i], &w[i].info, 1);
		ex_puts(t, "\n");
		for (unsigned i = 0; i < 3; i++)
			print_buddyinfo(t, names[i], &w[i].info);
		ex_puts(t, "\n");
		rule(t);
		ex_para(t, "get_page_from_freelist() tries the zones from the highest the request may "
			   "use (GFP_KERNEL: Normal, GFP_DMA32: DMA32) down to DMA; each is checked at "
			   "its low watermark with its lowmem_reserve for that highest zone, and the first "
			   "that passes serves the request.");
		ex_puts(t, "\nThese run in order on CPU 0:\n\n");
		for (unsigned k = 0; k < 2; k++)
			ex_printf(t, "  %u. alloc order=%u gfp=%s\n", k + 1, order[k], gfps[highest[k]]);
	}
out:
	if (!err)
		ex_seal(ex, &r);
	ex_run_close(&r);
	return err;
}

int ex_watermarks(struct blab_exercise *ex)
{
	struct blab_strategy s;
	int err = ex_preset(ex, "v4.16", &s);

	if (err)
		return err;
	{
		/* 4.4 on (97a16fc82a7c) the check is the one the core makes; the zones have no pcp
		 * lists, which the 6.x presets' lists cannot go without */
		unsigned i = 0;
		while (i < blab_preset_count() && strcmp(blab_preset_name(i), ex->preset))
			i++;
		if (s.pcp != BLAB_PCP_LIFO || s.pcp_lock || s.skip_merge || !s.pcp_per_mt) {
			return ex_fail(ex, BLAB_EPRESET, "preset %s: watermark problems are posed on v4.16 .. v5.18, whose __zone_watermark_ok() is the one since 4.4 and whose zones can go without pcp lists",
				       ex->preset);
		}
	}
	ex->views = "free-areas,buddyinfo,zoneinfo";
	return ex->level == 3 ? node(ex) : one_zone(ex);
}
