/*
 * ex_result.c - reading a result: a compare of two configurations run on the model machine,
 * as the compare view (?compare=) runs it: the same points (blab_sim_point: preset, tasks,
 * pages, clear_page() through 64 lines, the caches scaled as will-it-scale's ratio asks,
 * seeds 1, 2 and 3, each row the mean of the three), and its diff table's rows by the names
 * that table gives them (web/compare/diff.ts; a Vitest test holds the two to each other).
 *
 * The configurations are a short menu, so that a sheet of many problems runs each point
 * once: the points' results are kept for the process (the browser's engine worker keeps its
 * module, so a second problem on the same configuration is immediate).
 *
 *   level 1  which is faster, and by how much (a band)
 *   level 2  which is faster, and which row moved by the largest factor: what explains it
 *   level 3  the same at the full task count, and what happens with one task (or two
 *            hackbench groups), where the change has nothing to work on
 */
#include <stdlib.h>
#include <string.h>
#include "exercise.h"
#include "blab_sim.h"

#define SEEDS 3u
#define MAX_ROWS 10u

struct config {
	const char *workload;     /* a compare workload */
	const char *a, *b;        /* presets; hackbench: b with prefetch on, a off */
	uint32_t tasks, few;      /* the compare's tasks (hackbench: groups), and level 3's other */
	uint32_t size;            /* pages per task (hackbench: messages per sender) */
	const char *about;        /* what the two stand for, one line */
};

static const struct config menu[] = {
	{"page_fault1", "v2.5.44", "v2.5.45", 8, 1, 256,
	 "2002: every page takes zone->lock (2.5.44) against per-cpu lists refilled by rmqueue_bulk() (2.5.45)"},
	{"page_fault1", "v4.16", "v4.17", 112, 1, 256,
	 "2018: free_pcppages_bulk() picks pages outside zone->lock and prefetches each buddy (4.17)"},
	{"page_fault1", "v4.16", "lu-rfc-p4", 112, 1, 256,
	 "2018: Aaron Lu's RFC, order-0 frees skip merging and rmqueue_bulk() cuts clusters"},
	{"hackbench", "v5.18:prefetch=off", "v5.18", 8, 2, 200,
	 "2011: SLUB prefetches the next free object's pointer (prefetch_freepointer()) or not"},
};
#define NMENU (sizeof(menu) / sizeof(menu[0]))

/* ---- the runs, once per process ---- */

struct cached {
	char key[BLAB_SIM_POINT_KEY_MAX];
	struct blab_sim_result r;
};
static struct cached cache[64];
static unsigned ncache;

static int point_of(const struct config *c, int which_b, uint32_t tasks, uint32_t seed,
		    struct blab_sim_point *p)
{
	const char *preset = which_b ? c->b : c->a;
	size_t n = strcspn(preset, ":");

	memset(p, 0, sizeof(*p));
	p->workload = blab_sim_workload_id(c->workload);
	p->seed = seed;
	p->clear_lines = 64;
	memcpy(p->preset, preset, n);
	p->preset[n] = 0;
	if (p->workload == BLAB_WL_HACKBENCH) {
		p->groups = tasks;
		p->loops = c->size;
		p->slub_prefetch = strstr(preset, ":prefetch=off") ? 0 : 1;
		p->cache_scale = 1;
	} else {
		uint32_t scale = 1;
		while (scale < 64 && c->size * scale * 2 <= 32768)
			scale *= 2; /* will-it-scale's 128 MB footprint to cache (web/engine/point.ts) */
		p->cpus = tasks;
		p->pages = c->size;
		p->iterations = 2;
		p->cache_scale = scale;
	}
	return p->workload ? 0 : BLAB_EINVAL;
}

static int run_point(struct blab_exercise *ex, const struct blab_sim_point *p,
		     const struct blab_sim_result **out)
{
	struct blab_sim_config cfg;
	char key[BLAB_SIM_POINT_KEY_MAX], why[200];
	int err;

	blab_sim_point_key(p, key, sizeof(key));
	for (unsigned i = 0; i < ncache; i++)
		if (!strcmp(cache[i].key, key)) {
			*out = &cache[i].r;
			return 0;
		}
	if (ncache == sizeof(cache) / sizeof(cache[0]))
		return ex_fail(ex, BLAB_ELIMIT, "result: too many runs kept");
	if (blab_sim_point_config(p, &cfg, why, sizeof(why)))
		return ex_fail(ex, BLAB_EINVAL, "result: %s", why);
	err = blab_sim_run(&cfg, &cache[ncache].r, why, sizeof(why));
	if (err)
		return ex_fail(ex, err, "result: %s", why[0] ? why : blab_strerror(err));
	snprintf(cache[ncache].key, sizeof(cache[ncache].key), "%s", key);
	*out = &cache[ncache++].r;
	return 0;
}

/* ---- the diff table's rows (names as web/compare/diff.ts gives them) ---- */

struct row {
	const char *name;
	double (*value)(const struct blab_sim_result *r);
	int digits;
	int better; /* 1 higher is better, -1 lower, 0 neither (a count of what happened) */
};

static double score(const struct blab_sim_result *r) { return (double)r->score; }
static double scored_zone(const struct blab_sim_result *r) { return r->scored_zone_contention_bp / 100.0; }
static double scored_lru(const struct blab_sim_result *r) { return r->scored_lru_contention_bp / 100.0; }
static double zone_bp(const struct blab_sim_result *r) { return r->zone_contention_bp / 100.0; }
static double acq_page(const struct blab_sim_result *r) { return r->pages_total ? (double)r->zone_acq / (double)r->pages_total : 0; }
static double hold_acq(const struct blab_sim_result *r) { return r->zone_acq ? (double)r->zone_hold / (double)r->zone_acq : 0; }
static double misses(const struct blab_sim_result *r) { return (double)r->misses_zone_locked; }
static double pf_hit(const struct blab_sim_result *r) { return (double)r->pf_hit; }
static double elapsed(const struct blab_sim_result *r) { return (double)r->elapsed_cycles; }
static double a_fast(const struct blab_sim_result *r) { return (double)r->slab.alloc_fastpath; }
static double a_slow(const struct blab_sim_result *r) { return (double)r->slab.alloc_slowpath; }
static double f_fast(const struct blab_sim_result *r) { return (double)r->slab.free_fastpath; }
static double f_slow(const struct blab_sim_result *r) { return (double)r->slab.free_slowpath; }
static double remote(const struct blab_sim_result *r) { return (double)r->slab.free_remote; }
static double sprefetch(const struct blab_sim_result *r) { return (double)r->slab.prefetch; }
static double s_hit(const struct blab_sim_result *r) { return (double)r->slab_pf_hit; }
static double s_late(const struct blab_sim_result *r) { return (double)r->slab_pf_late; }
static double s_wasted(const struct blab_sim_result *r) { return (double)r->slab_pf_wasted; }

static const struct row pf1_rows[] = {
	{"zone->lock contention in the scored rounds (% of their time spinning)", scored_zone, 2, -1},
	{"lru_lock contention in the scored rounds (% of their time spinning)", scored_lru, 2, -1},
	{"zone->lock contention over the whole run with its warm-up (% of time spinning)", zone_bp, 2, -1},
	{"zone->lock acquisitions per page over the whole run", acq_page, 3, -1},
	{"zone->lock hold (cycles per acquisition) over the whole run", hold_acq, 0, -1},
	{"cache misses under zone->lock over the whole run", misses, 0, -1},
	{"buddy prefetch hits over the whole run", pf_hit, 0, 0},
};
static const struct row hb_rows[] = {
	{"time until the last message is read (cycles, hackbench's Time:)", elapsed, 0, -1},
	{"slab allocations, fast path (ALLOC_FASTPATH)", a_fast, 0, 0},
	{"slab allocations, slow path (ALLOC_SLOWPATH)", a_slow, 0, -1},
	{"slab frees, fast path (FREE_FASTPATH)", f_fast, 0, 0},
	{"slab frees, slow path (FREE_SLOWPATH)", f_slow, 0, -1},
	{"remote frees", remote, 0, 0},
	{"freelist prefetches (prefetch_freepointer)", sprefetch, 0, 0},
	{"prefetch hits (line there in time)", s_hit, 0, 1},
	{"prefetch late (still in flight)", s_late, 0, -1},
	{"prefetch wasted (never used)", s_wasted, 0, -1},
};

/* a row's mean over the seeds, for configuration a (0) or b (1) at `tasks` */
static int mean(struct blab_exercise *ex, const struct config *c, int b, uint32_t tasks,
		double (*value)(const struct blab_sim_result *), double *out)
{
	double sum = 0;
	for (uint32_t s = 1; s <= SEEDS; s++) {
		struct blab_sim_point p;
		const struct blab_sim_result *r;
		int err = point_of(c, b, tasks, s, &p);
		if (!err)
			err = run_point(ex, &p, &r);
		if (err)
			return err ? err : BLAB_EINVAL;
		sum += value(r);
	}
	*out = sum / SEEDS;
	return 0;
}

/* the factor a row moved by: the larger mean over the smaller (a zero against a count: huge) */
static double factor(double a, double b)
{
	double hi = a > b ? a : b, lo = a > b ? b : a;
	if (hi == 0)
		return 1;
	return lo == 0 ? 1e12 : hi / lo;
}

/* "+12.3 %" of b against a */
static void change_text(char *out, size_t len, double a, double b)
{
	if (a == 0)
		snprintf(out, len, b == 0 ? "no change" : "from zero");
	else
		snprintf(out, len, "%+.1f %%", (b - a) / a * 100.0);
}

static const char *score_name(const struct config *c)
{
	return strcmp(c->workload, "hackbench") ? "throughput (pages faulted / s)"
						: "throughput (messages / s)";
}

/* the compare view's link for this configuration */
static void compare_link(struct ex_buf *b, const struct config *c, int both)
{
	int hb = !strcmp(c->workload, "hackbench");
	ex_printf(b, "?compare=%s,%s%s&cpus=%u&%s=%u&seed=1&tasks=", c->a, c->b,
		  hb ? "&workload=hackbench" : "", c->tasks, hb ? "messages" : "pages", c->size);
	if (both)
		ex_printf(b, "%u,%u", c->few, c->tasks);
	else
		ex_printf(b, "%u", c->tasks);
}

/* the blab sim command that runs the configuration's first seed natively */
static void sim_command(struct ex_buf *b, const struct config *c, uint32_t tasks)
{
	if (!strcmp(c->workload, "hackbench"))
		ex_printf(b, "blab sim --workload hackbench --groups %u --loops %u --preset v5.18 --seed 1 --clear-lines 64",
			  tasks, c->size);
	else
		ex_printf(b, "blab sim --workload page_fault1 --cpus %u --preset %s,%s --pages %u --cache-scale 64 --clear-lines 64 --seed 1",
			  tasks, c->a, c->b, c->size);
}

struct pair {
	double a, b;
};

static int score_pair(struct blab_exercise *ex, const struct config *c, uint32_t tasks,
		      struct pair *s)
{
	int err = mean(ex, c, 0, tasks, score, &s->a);
	return err ? err : mean(ex, c, 1, tasks, score, &s->b);
}

static void q_faster(struct blab_exercise *ex, const struct config *c, uint32_t tasks,
		     const struct pair *s)
{
	char ch[40];
	struct ex_question *q = ex_question(ex, EX_FORM_CHOICE, "At %u %s, which is faster (the higher %s)?",
					    tasks, strcmp(c->workload, "hackbench") ? "tasks" : "groups",
					    score_name(c));
	int swap = (int)ex_below(ex, 2); /* the configurations in a drawn order */
	ex_puts(&q->choice[swap], c->a);
	ex_puts(&q->choice[1 - swap], c->b);
	q->nchoices = 2;
	ex_puts(&q->answer, (s->b > s->a) != swap ? "b" : "a");
	change_text(ch, sizeof(ch), s->a, s->b);
	ex_printf(&q->working, "%s, mean of seeds 1..3: %s %.0f, %s %.0f (%s)\n", score_name(c), c->a,
		  s->a, c->b, s->b, ch);
}

/* the band b's change against a falls in; a problem is only posed away from the edges */
static const int bands[] = {2, 10, 50};

static int band_of(double pct)
{
	double m = pct < 0 ? -pct : pct;
	int i = 0;
	while (i < 3 && m >= bands[i])
		i++;
	return i;
}

static int near_edge(double pct)
{
	double m = pct < 0 ? -pct : pct;
	for (int i = 0; i < 3; i++)
		if (m > bands[i] - 0.5 && m < bands[i] + 0.5)
			return 1;
	return 0;
}

static void q_band(struct blab_exercise *ex, const struct config *c, const struct pair *s)
{
	double pct = (s->b - s->a) / s->a * 100.0;
	struct ex_question *q = ex_question(ex, EX_FORM_CHOICE, "By how much does %s's %s differ from %s's?",
					    c->b, score_name(c), c->a);
	ex_puts(&q->choice[0], "less than 2 %");
	ex_puts(&q->choice[1], "2 to 10 %");
	ex_puts(&q->choice[2], "10 to 50 %");
	ex_puts(&q->choice[3], "more than 50 %");
	q->nchoices = 4;
	ex_printf(&q->answer, "%c", 'a' + band_of(pct));
	ex_printf(&q->working, "(%.0f - %.0f) / %.0f = %+.1f %%\n", s->b, s->a, s->a, pct);
}

/* does a row's change point the way the score's does (better where b is faster, worse where
 * it is slower; a count that is neither, any way it moved)? */
static int b_way(const struct row *r, const struct pair *v, int b_faster)
{
	if (v->a == v->b)
		return 0;
	if (!r->better)
		return 1;
	return ((v->b > v->a) == (r->better > 0)) == b_faster;
}

/* the row that explains the difference: of those that moved b's way, the one that moved by
 * the largest factor; the other choices clearly behind it, or moved the other way */
static int q_explain(struct blab_exercise *ex, const struct config *c, const struct pair *score_v)
{
	int hb = !strcmp(c->workload, "hackbench"), b_faster = score_v->b > score_v->a;
	const struct row *rows = hb ? hb_rows : pf1_rows;
	unsigned nrows = hb ? sizeof(hb_rows) / sizeof(hb_rows[0]) : sizeof(pf1_rows) / sizeof(pf1_rows[0]);
	struct pair v[MAX_ROWS];
	double f[MAX_ROWS];
	int best = -1;
	unsigned pick[4], npick = 1, order[MAX_ROWS];
	struct ex_question *q;
	int err;

	for (unsigned i = 0; i < nrows; i++) {
		if ((err = mean(ex, c, 0, c->tasks, rows[i].value, &v[i].a)) ||
		    (err = mean(ex, c, 1, c->tasks, rows[i].value, &v[i].b)))
			return err;
		f[i] = factor(v[i].a, v[i].b);
		if (b_way(&rows[i], &v[i], b_faster) && (best < 0 || f[i] > f[best]))
			best = (int)i;
	}
	if (best < 0)
		return ex_fail(ex, BLAB_ECHECK, "result: no row moved %s's way", c->b);
	for (unsigned i = 0; i < nrows; i++)
		order[i] = i;
	for (unsigned i = nrows; i > 1; i--) {
		unsigned j = ex_below(ex, i), t = order[i - 1];
		order[i - 1] = order[j];
		order[j] = t;
	}
	pick[0] = (unsigned)best;
	for (unsigned i = 0; i < nrows && npick < 4; i++) {
		unsigned k = order[i];
		if (k != (unsigned)best &&
		    (!b_way(&rows[k], &v[k], b_faster) || f[k] * 1.5 < f[best]))
			pick[npick++] = k;
	}
	if (npick < 3)
		return ex_fail(ex, BLAB_ECHECK, "result: no row stands out for %s against %s", c->a, c->b);
	{
		unsigned at = ex_below(ex, npick), t = pick[0];
		pick[0] = pick[at];
		pick[at] = t;
	}
	q = ex_question(ex, EX_FORM_CHOICE,
			"%s is %s than %s at %u %s. Which row of the compare view's diff table explains it: of the rows that moved %s's way (better if it is faster, worse if slower; a plain count either way), the one that changed by the largest factor?",
			c->b, b_faster ? "faster" : "slower", c->a, c->tasks, hb ? "groups" : "tasks", c->b);
	for (unsigned i = 0; i < npick; i++) {
		char ch[40];
		unsigned k = pick[i];
		ex_puts(&q->choice[i], rows[k].name);
		if (k == (unsigned)best)
			ex_printf(&q->answer, "%c", 'a' + i);
		change_text(ch, sizeof(ch), v[k].a, v[k].b);
		ex_printf(&q->working, "%s: %.*f -> %.*f (%s; %s)\n", rows[k].name, rows[k].digits, v[k].a,
			  rows[k].digits, v[k].b, ch,
			  k == (unsigned)best ? "the largest factor of the rows that moved its way"
			  : b_way(&rows[k], &v[k], b_faster) ? "its way, by a smaller factor"
							       : "the other way, or not at all");
	}
	q->nchoices = (uint8_t)npick;
	return 0;
}

static void q_few(struct blab_exercise *ex, const struct config *c, const struct pair *s)
{
	double pct = (s->b - s->a) / s->a * 100.0;
	struct ex_question *q = ex_question(ex, EX_FORM_CHOICE, "And at %u %s: how does %s's %s compare with %s's?",
					    c->few, strcmp(c->workload, "hackbench") ? "task" : "groups",
					    c->b, score_name(c), c->a);
	ex_printf(&q->choice[0], "higher by 2 %% or more");
	ex_printf(&q->choice[1], "within 2 %%");
	ex_printf(&q->choice[2], "lower by 2 %% or more");
	q->nchoices = 3;
	ex_puts(&q->answer, pct >= 2 ? "a" : pct <= -2 ? "c" : "b");
	ex_printf(&q->working, "%s at %u: %s %.0f, %s %.0f (%+.1f %%)\n", score_name(c), c->few, c->a,
		  s->a, c->b, s->b, pct);
}

int ex_result(struct blab_exercise *ex)
{
	const struct config *c = NULL;
	struct pair main_s, few_s;
	int err;

	if (ex->preset[0])
		return ex_fail(ex, BLAB_EPRESET, "result problems compare two presets of their own: --preset does not apply");
	/* a configuration whose difference at its task count is clear of the bands' edges */
	for (unsigned t = 0; t < 2 * NMENU && !c; t++) {
		const struct config *m = &menu[ex_below(ex, NMENU)];
		double pct;
		if ((err = score_pair(ex, m, m->tasks, &main_s)))
			return err;
		pct = (main_s.b - main_s.a) / main_s.a * 100.0;
		if ((pct < 0 ? -pct : pct) >= 2 && !near_edge(pct))
			c = m;
	}
	if (!c)
		return ex_fail(ex, BLAB_ECHECK, "result: no configuration of the menu fits seed %llu",
			      (unsigned long long)ex->seed);
	snprintf(ex->preset, sizeof(ex->preset), "%s", c->b);
	q_faster(ex, c, c->tasks, &main_s);
	if (ex->level == 1)
		q_band(ex, c, &main_s);
	if (ex->level >= 2 && (err = q_explain(ex, c, &main_s)))
		return err;
	if (ex->level == 3) {
		if ((err = score_pair(ex, c, c->few, &few_s)))
			return err;
		q_few(ex, c, &few_s);
	}
	ex->views = "";
	ex_printf(&ex->title, "result, level %u, seed %llu (%s against %s)", ex->level,
		  (unsigned long long)ex->seed, c->b, c->a);
	{
		struct ex_buf *t = &ex->statement, link = {0}, cmd = {0};
		compare_link(&link, c, ex->level == 3);
		sim_command(&cmd, c, c->tasks);
		ex_para(t, "The compare view ran %s on the model machine for two configurations: %s "
			   "and %s (%s), at %u %s%s, %u %s, three seeds (1, 2, 3), each figure the mean "
			   "of the three. Open it: %s",
			c->workload, c->a, c->b, c->about, c->tasks,
			strcmp(c->workload, "hackbench") ? "tasks" : "groups",
			ex->level == 3 ? " (and fewer)" : "", c->size,
			strcmp(c->workload, "hackbench") ? "pages per task" : "messages per sender",
			ex_str(&link));
		ex_para(t, "Answer from what the runs would show; the questions say which figure "
			   "they mean. The same runs natively: %s (and seeds 2, 3).", ex_str(&cmd));
		ex_puts(&ex->json, "\"compare\":");
		{
			/* JSON members: the link and the command, escaped by hand (no quotes in either) */
			ex_printf(&ex->json, "\"%s\",\"sim\":\"%s\"", ex_str(&link), ex_str(&cmd));
		}
		ex_buf_free(&link);
		ex_buf_free(&cmd);
	}
	return 0;
}
