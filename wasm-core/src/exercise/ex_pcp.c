/*
 * ex_pcp.c - pcp problems: one CPU's per-cpu list (count, high, batch, and the tuning state
 * of 5.14+ and 6.7+), allocations and frees of order-0 pages, and when rmqueue_bulk()
 * refills and free_pcppages_bulk() drains.
 *
 * The zone is laid out by a snapshot (count pages on the list) with plenty of free pages, so
 * a refill always gets what it asks for; batch and high are set small on the zone line, so
 * the numbers stay readable (a kernel computes them from the zone's size). The statement
 * prints every field of the list the pcp code reads, and the rules of the preset's era; the
 * zone's size and layout are what it leaves out, and tests make the same problem on other
 * ones (ex->perturb) to show the answers never depend on them.
 *
 *   level 1  one allocation (does it refill, how much; count after) or one free (does it
 *            drain, how much; count after); half of them, by the seed, do refill or drain,
 *            and a history of allocations and frees before them leaves the list's tuning
 *            state (free_factor; alloc_factor, free_count and high on 6.7) where it matters
 *   level 2  N allocations, then M frees: pages refilled, pages drained, count after
 *   level 3  the era's twist: 5.14's growing drains (each drain, free_factor after), 6.7's
 *            growing refills and moving high, or before 5.14 a list that takes freed pages
 *            back before it refills (each refill and drain)
 */
#include <stdlib.h>
#include <string.h>
#include "exercise.h"

#define TRIES 200u
#define MAX_EACH 64u /* refills or drains one op line counts */

enum era { ERA_BATCH, ERA_FACTOR, ERA_AUTO };

struct pcpop {
	uint8_t free;  /* free last=n, else alloc order=0 count=n */
	uint32_t n;
};

/* what one op line did, read off the records it logged */
struct pcpdid {
	uint32_t refill[MAX_EACH], nrefill, drain[MAX_EACH], ndrain;
	struct blab_pcp_info after;
};

struct pcp {
	struct blab_exercise *ex;
	struct blab_strategy s;
	enum era era;
	uint32_t batch, high, high_max, count0;
	uint32_t history, held;  /* level 1: allocations before the problem, and pages still held */
	uint8_t want;            /* level 1: the op is to refill (alloc) or drain (free) */
	struct pcpop op[3];
	unsigned nops;
	struct pcpdid did[3];
	struct blab_pcp_info before;
	uint32_t ev[4]; /* records before each op, and at the end */
};

static int era_of(const struct blab_strategy *s)
{
	if (s->free_factor == BLAB_FREE_COUNT)
		return ERA_AUTO;
	return s->free_factor == BLAB_FREE_FACTOR ? ERA_FACTOR : ERA_BATCH;
}

/* each refill's and drain's pages in records [from, to) */
static void did_of(struct blab_zone *z, uint32_t from, uint32_t to, struct pcpdid *d)
{
	uint32_t n, before = 0;
	const struct blab_event *ev = blab_log(z, &n);

	memset(d, 0, sizeof(*d));
	for (uint32_t i = from; i < to && i < n; i++) {
		const struct blab_event *e = &ev[i];
		if (e->type == BLAB_EV_RMQUEUE_BULK && (e->flags & BLAB_EVF_END) && d->nrefill < MAX_EACH)
			d->refill[d->nrefill++] = e->arg1;
		if (e->type == BLAB_EV_PCP_DRAIN && !(e->flags & BLAB_EVF_END))
			before = e->arg1;
		if (e->type == BLAB_EV_PCP_DRAIN && (e->flags & BLAB_EVF_END) && d->ndrain < MAX_EACH)
			d->drain[d->ndrain++] = before - e->arg1;
	}
	blab_pcp_info(z, 0, 0, &d->after);
}

static uint32_t sum(const uint32_t *v, uint32_t n)
{
	uint32_t t = 0;
	for (uint32_t i = 0; i < n; i++)
		t += v[i];
	return t;
}

static void list_answer(struct ex_buf *b, const uint32_t *v, uint32_t n)
{
	if (!n)
		ex_puts(b, "none");
	for (uint32_t i = 0; i < n; i++)
		ex_printf(b, "%s%u", i ? "," : "", v[i]);
}

/* the sizes and ops of one try */
static void draw(struct pcp *p)
{
	struct blab_exercise *ex = p->ex;
	unsigned lv = ex->level;

	p->batch = 3 + ex_below(ex, 6);
	if (p->era == ERA_AUTO) {
		p->high = p->batch * (4 + ex_below(ex, 3));
		p->high_max = p->high * (2 + ex_below(ex, 3));
	} else {
		p->high = p->batch * (3 + ex_below(ex, 4));
		p->high_max = 0;
	}
	p->count0 = ex_below(ex, 3) == 0 ? 0 : ex_below(ex, p->high);
	p->history = 0;
	p->held = 0;
	p->nops = 0;
	if (lv == 1) {
		p->want = (uint8_t)ex_below(ex, 2);
		/* 6.7's refills grow with alloc_factor, which only a history of refills raises;
		 * a free's history holds more pages than the list can take before high */
		if (ex_below(ex, 2)) {
			int hist = p->era == ERA_AUTO || ex_below(ex, 2);
			p->history = hist ? 1 + ex_below(ex, 3 * p->high) : 0;
			p->op[p->nops++] = (struct pcpop){0, 1};
		} else {
			p->history = (p->high_max ? p->high_max : p->high) + 1 + ex_below(ex, 2 * p->high);
			p->op[p->nops++] = (struct pcpop){1, 1};
		}
		return;
	}
	p->op[p->nops++] = (struct pcpop){0, p->count0 + 1 + ex_below(ex, 3 * p->high)};
	p->op[p->nops++] = (struct pcpop){1, 0};
	/* enough frees to reach high (more for several drains at level 3) */
	p->op[1].n = p->op[0].n < p->high ? p->op[0].n : p->high + ex_below(ex, p->op[0].n - p->high + 1);
	if (lv == 3) {
		p->op[1].n = p->op[0].n;
		if (p->era == ERA_BATCH)
			p->op[p->nops++] = (struct pcpop){0, 1 + ex_below(ex, 2 * p->high)};
	}
}

/*
 * Level 1: bring the list to where its one op does (p->want) or does not refill or drain,
 * reading the core's list after the history. An allocation refills only an empty list, so
 * the rest is allocated first; a free drains when count reaches high, so frees of the
 * history's newest pages bring count to one below high (or short of it). The core's own run
 * then says whether the op did (fits()).
 */
static int lead_up(struct pcp *p, struct ex_run *r)
{
	struct blab_exercise *ex = p->ex;
	struct blab_pcp_info i;
	uint32_t frees, room;

	blab_pcp_info(ex_zone(r), 0, 0, &i);
	if (!p->op[0].free) {
		if (p->want && i.count)
			return ex_run(ex, r, "alloc order=0 count=%u", i.count);
		return 0;
	}
	room = i.count + 1 < i.high ? i.high - i.count - 1 : 0; /* frees that stay below high */
	if (p->want)
		frees = room;
	else
		frees = room ? ex_below(ex, room) : 0;
	if (frees >= p->history)
		frees = p->history - 1;
	p->held = p->history - frees;
	return frees ? ex_run(ex, r, "free last=%u", frees) : 0;
}

/* the zone and the list before the problem's ops; perturbed: another zone size and layout */
static int setup(struct pcp *p, struct ex_run *r)
{
	struct blab_exercise *ex = p->ex;
	uint32_t pages = ex->perturb ? 8192 : 4096;
	int err;

	if (p->era == ERA_AUTO)
		err = ex_run(ex, r, "zone pages=%u%s cpus=1 preset=%s batch=%u high=%u high_max=%u", pages,
			     ex->perturb ? " start_pfn=0x3000" : "", ex->preset, p->batch, p->high,
			     p->high_max);
	else
		err = ex_run(ex, r, "zone pages=%u%s cpus=1 preset=%s batch=%u high=%u", pages,
			     ex->perturb ? " start_pfn=0x3000" : "", ex->preset, p->batch, p->high);
	if (!err)
		err = ex_run(ex, r, "snapshot nr_free=%s pcp=0:%u",
			     ex->perturb ? "3,1,0,2,0,0,0,0,1,0,2" : "0,0,0,0,0,0,0,0,0,0,2", p->count0);
	if (!err && p->history)
		err = ex_run(ex, r, "alloc order=0 count=%u", p->history);
	if (!err && ex->level == 1)
		err = lead_up(p, r);
	return err;
}

static int run_ops(struct pcp *p, struct ex_run *r)
{
	int err;
	for (unsigned k = 0; k < p->nops; k++) {
		p->ev[k] = ex_events(r);
		if (p->op[k].free)
			err = ex_run(p->ex, r, "free last=%u", p->op[k].n);
		else if (p->op[k].n == 1)
			err = ex_run(p->ex, r, "alloc order=0");
		else
			err = ex_run(p->ex, r, "alloc order=0 count=%u", p->op[k].n);
		if (err)
			return err;
		did_of(ex_zone(r), p->ev[k], ex_events(r), &p->did[k]);
	}
	p->ev[p->nops] = ex_events(r);
	return 0;
}

/* does the try show what the level asks about? */
static int fits(const struct pcp *p)
{
	if (p->ex->level == 1)
		return p->want == (p->op[0].free ? p->did[0].ndrain > 0 : p->did[0].nrefill > 0);
	if (!p->did[0].nrefill || !p->did[1].ndrain)
		return 0;
	if (p->ex->level == 3 && p->era == ERA_FACTOR && p->did[1].ndrain < 3)
		return 0;
	if (p->ex->level == 3 && p->era == ERA_AUTO && p->did[0].nrefill < 2)
		return 0;
	return 1;
}

static void rules(struct pcp *p, struct ex_buf *t)
{
	const char *ps = p->ex->preset;

	if (p->era == ERA_BATCH) {
		ex_para(t, "The rules of %s: an allocation takes the head of the list; an empty list is "
			   "first refilled by rmqueue_bulk() with batch pages from the buddy lists. A free "
			   "puts the page at the head, and when count then reaches high, "
			   "free_pcppages_bulk() gives batch pages back (the oldest, from the tail).",
			ps);
	} else if (p->era == ERA_FACTOR) {
		ex_para(t, "The rules of %s (5.14 on): an allocation halves free_factor (rounding down) "
			   "and takes the head of the list; an empty list is first refilled by "
			   "rmqueue_bulk() with batch pages from the buddy lists. A free puts the page at "
			   "the head, and when count then reaches high, free_pcppages_bulk() gives back "
			   "batch << free_factor pages, but at least batch and at most high - batch; if "
			   "batch << free_factor was below high - batch, free_factor grows by one.",
			ps);
	} else {
		ex_para(t, "The rules of %s (6.7 on, high auto-tuned between high_min and high_max): "
			   "an allocation halves free_count (rounding down) and takes the head of the "
			   "list. An empty list is first refilled: with b = batch << alloc_factor, high "
			   "grows by b (to at most high_max), then rmqueue_bulk() brings min(b, m) pages, "
			   "m = max(high - count - batch, batch), and alloc_factor grows by one (to at "
			   "most 5) if b <= m.",
			ps);
		ex_para(t, "A free halves alloc_factor, puts the page at the head and adds one to "
			   "free_count (while it is below batch << 5). If count is then at least high, "
			   "high is raised to free_count + batch when that is more (to at most high_max), "
			   "and free_pcppages_bulk() gives back free_count pages, but at least batch and "
			   "at most (high as it was before this free) - batch.");
	}
}

static void state(struct pcp *p, struct ex_buf *t)
{
	const struct blab_pcp_info *i = &p->before;

	ex_printf(t, "\nCPU 0's list now, as /proc/zoneinfo's pagesets show it:\n\n"
		     "  count:    %u\n  high:     %u\n  batch:    %u\n",
		  i->count, i->high, i->batch);
	if (p->era == ERA_FACTOR)
		ex_printf(t, "  free_factor: %u\n", i->free_factor);
	if (p->era == ERA_AUTO)
		ex_printf(t, "  high_min: %u\n  high_max: %u\n  alloc_factor: %u\n  free_count: %u\n",
			  i->high_min, i->high_max, i->alloc_factor, i->free_count);
	ex_puts(t, "\n");
}

static void statement(struct pcp *p)
{
	struct ex_buf *t = &p->ex->statement;

	ex_para(t, "One CPU, one zone with plenty of free pages (every refill gets all it asks "
		   "for), order-0 MOVABLE pages only. batch and high are set small for the exercise "
		   "(a kernel computes them from the zone's size: zone_batchsize(), zone_highsize()).");
	rules(p, t);
	state(p, t);
	if (p->held)
		ex_para(t, "CPU 0 holds %u pages it allocated before; \"free last=N\" gives back the "
			   "N it allocated most recently, newest first.",
			p->held);
	ex_puts(t, p->held ? "\nThese run in order on CPU 0:\n\n" : "These run in order on CPU 0:\n\n");
	for (unsigned k = 0; k < p->nops; k++) {
		if (p->op[k].free && p->op[k].n == 1)
			ex_printf(t, "  %u. free last=1   (one free, of the newest page)\n", k + 1);
		else if (p->op[k].free)
			ex_printf(t, "  %u. free last=%u   (%u frees, newest page first)\n", k + 1,
				  p->op[k].n, p->op[k].n);
		else if (p->op[k].n == 1)
			ex_printf(t, "  %u. alloc order=0\n", k + 1);
		else
			ex_printf(t, "  %u. alloc order=0 count=%u   (%u allocations)\n", k + 1,
				  p->op[k].n, p->op[k].n);
	}
}

static struct ex_question *ask(struct pcp *p, struct blab_zone *z, unsigned k, unsigned form,
			       const char *text)
{
	struct ex_question *q = ex_question(p->ex, form, "%s", text);
	ex_working(q, z, p->ev[k], p->ev[k + 1], EX_WORK_PCP);
	return q;
}

static void questions(struct pcp *p, struct blab_zone *z)
{
	const struct pcpdid *d = p->did;
	char text[300];
	unsigned last = p->nops - 1;
	struct ex_question *q;

	for (unsigned k = 0; k < p->nops; k++) {
		int lists = p->ex->level == 3;
		if (p->ex->level == 3 && p->era == ERA_AUTO && p->op[k].free)
			lists = 1;
		if (!p->op[k].free) {
			if (lists) {
				snprintf(text, sizeof(text), "During op %u, how many pages does each rmqueue_bulk() bring, in order? (none if it never runs)", k + 1);
				q = ask(p, z, k, EX_FORM_LIST, text);
				list_answer(&q->answer, d[k].refill, d[k].nrefill);
			} else {
				snprintf(text, sizeof(text), "During op %u, how many pages does rmqueue_bulk() bring to the list in all? (0 if it never runs)", k + 1);
				q = ask(p, z, k, EX_FORM_NUMBER, text);
				ex_printf(&q->answer, "%u", sum(d[k].refill, d[k].nrefill));
			}
		} else if (lists) {
			snprintf(text, sizeof(text), "During op %u, how many pages does each free_pcppages_bulk() give back, in order? (none if it never runs)", k + 1);
			q = ask(p, z, k, EX_FORM_LIST, text);
			list_answer(&q->answer, d[k].drain, d[k].ndrain);
		} else {
			snprintf(text, sizeof(text), "During op %u, how many pages does free_pcppages_bulk() give back in all? (0 if it never runs)", k + 1);
			q = ask(p, z, k, EX_FORM_NUMBER, text);
			ex_printf(&q->answer, "%u", sum(d[k].drain, d[k].ndrain));
		}
	}
	if (p->ex->level == 3 && p->era == ERA_FACTOR) {
		snprintf(text, sizeof(text), "What is free_factor after op %u?", last + 1);
		q = ex_question(p->ex, EX_FORM_NUMBER, "%s", text);
		ex_printf(&q->answer, "%u", d[last].after.free_factor);
		ex_working(q, z, p->ev[0], p->ev[p->nops], EX_WORK_PCP);
	}
	if (p->era == ERA_AUTO) {
		snprintf(text, sizeof(text), "What is high after op %u?", last + 1);
		q = ex_question(p->ex, EX_FORM_NUMBER, "%s", text);
		ex_printf(&q->answer, "%u", d[last].after.high);
		ex_working(q, z, p->ev[0], p->ev[p->nops], EX_WORK_PCP);
	}
	if (p->ex->nq < BLAB_EXERCISE_MAX_QUESTIONS) {
		snprintf(text, sizeof(text), "What is count after op %u?", last + 1);
		q = ex_question(p->ex, EX_FORM_NUMBER, "%s", text);
		ex_printf(&q->answer, "%u", d[last].after.count);
		ex_working(q, z, p->ev[0], p->ev[p->nops], EX_WORK_PCP);
		ex_printf(&q->working, "count after op %u: %u\n", last + 1, d[last].after.count);
	}
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

int ex_pcp(struct blab_exercise *ex)
{
	static const char *const l3[] = {"v5.14", "v6.7"};
	struct pcp *p = calloc(1, sizeof(*p));
	int err = 2;

	if (!p)
		return BLAB_ENOMEMHOST;
	p->ex = ex;
	if ((err = ex_preset(ex, ex->level == 3 ? l3[ex_below(ex, 2)] : "v4.16", &p->s)))
		goto out;
	if (p->s.pcp != BLAB_PCP_LIFO || p->s.skip_merge || p->s.clusters) {
		err = ex_fail(ex, BLAB_EPRESET, "preset %s: pcp problems are posed on one LIFO list per CPU (v2.6.25 on); %s",
			      ex->preset, p->s.pcp == BLAB_PCP_NONE ? "v2.5.44 has no pcp lists"
				    : p->s.pcp == BLAB_PCP_HOTCOLD ? "2.5.45's hot and cold lists have other rules"
				    : "the Lu RFC presets cut refills into clusters the problem cannot state");
		goto out;
	}
	p->era = (enum era)era_of(&p->s);
	ex->views = "pcp,zoneinfo";
	err = 2;
	for (unsigned t = 0; t < TRIES && err == 2; t++) {
		struct ex_run r;
		reset(ex);
		draw(p);
		if ((err = ex_run_open(&r, &ex->ops)))
			goto out;
		err = setup(p, &r);
		if (!err) {
			ex->setup_events = ex_events(&r);
			blab_pcp_info(ex_zone(&r), 0, 0, &p->before);
			err = run_ops(p, &r);
		}
		if (!err && !fits(p))
			err = 2;
		if (!err) {
			questions(p, ex_zone(&r));
			ex_seal(ex, &r);
		}
		ex_run_close(&r);
	}
	if ((err = ex_found(ex, "pcp", err)))
		goto out;
	statement(p);
out:
	free(p);
	return err;
}
