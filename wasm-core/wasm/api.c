/*
 * api.c - the entry points JavaScript calls (the engine worker, and Vitest in Node).
 *
 * JavaScript cannot hand the core a FILE, and should not parse text the core already
 * parses, so an op script is run here as a whole and its results are kept in one
 * struct blab_js_run: what `blab replay` would have printed on stdout and stderr, the exit
 * status it would have returned, and a copy of the zone's event log. The caller reads the
 * pieces through the accessors below and frees the run.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blab.h"

struct blab_js_run {
	int32_t status;   /* 0: every line ran; 1: a line failed ("line N: why" in err) */
	uint32_t nevents;
	char *out, *err;  /* NUL-terminated, from open_memstream */
	size_t out_len, err_len;
	struct blab_event *events;
};

/* Op scripts from the browser are bounded like files given to the CLI (docs/limits.md). */
#define BLAB_JS_MAX_SCRIPT (1u << 20)

static int run_lines(struct blab_script *s, const char *text, uint32_t len)
{
	unsigned lineno = 0;
	uint32_t pos = 0;

	while (pos < len) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		uint32_t end = nl ? (uint32_t)(nl - text) : len;

		if (blab_script_bytes(s, text + pos, end - pos, ++lineno))
			return 1;
		pos = end + 1;
	}
	return 0;
}

struct blab_js_run *blab_js_replay(const char *text, uint32_t len)
{
	struct blab_js_run *r = calloc(1, sizeof(*r));
	FILE *out, *err;
	struct blab_script *s;

	if (!r)
		return NULL;
	out = open_memstream(&r->out, &r->out_len);
	err = open_memstream(&r->err, &r->err_len);
	s = (out && err) ? blab_script_new(out, err) : NULL;
	if (!s) {
		r->status = 2;
		goto done;
	}
	if (!text && len) {
		fprintf(err, "blab: no script text\n");
		r->status = 2;
	} else if (len > BLAB_JS_MAX_SCRIPT) {
		fprintf(err, "blab: the script is %u bytes; the limit is %u\n", len, BLAB_JS_MAX_SCRIPT);
		r->status = 2;
	} else {
		r->status = run_lines(s, text, len);
	}
	if (blab_script_zone(s)) {
		uint32_t count = 0;
		const struct blab_event *log = blab_log(blab_script_zone(s), &count);

		r->events = count ? malloc((size_t)count * sizeof(*log)) : NULL;
		if (r->events) {
			memcpy(r->events, log, (size_t)count * sizeof(*log));
			r->nevents = count;
		}
	}
	blab_script_free(s);
done:
	if (out)
		fclose(out); /* the buffers stay, owned by r */
	if (err)
		fclose(err);
	return r;
}

int32_t blab_js_status(const struct blab_js_run *r) { return r ? r->status : 2; }
const char *blab_js_out(const struct blab_js_run *r) { return r && r->out ? r->out : ""; }
const char *blab_js_err(const struct blab_js_run *r) { return r && r->err ? r->err : ""; }
const struct blab_event *blab_js_events(const struct blab_js_run *r) { return r ? r->events : NULL; }
uint32_t blab_js_event_count(const struct blab_js_run *r) { return r ? r->nevents : 0; }

void blab_js_run_free(struct blab_js_run *r)
{
	if (!r)
		return;
	free(r->out);
	free(r->err);
	free(r->events);
	free(r);
}

/* The record size JavaScript must decode with; a test compares it with docs/events.md. */
uint32_t blab_js_event_size(void) { return (uint32_t)sizeof(struct blab_event); }

/* ---- blab sim for the browser: one run of a workload on the model machine ---- */

#include "blab_sim.h"

struct js_sink {
	struct blab_event *ev;
	uint32_t n, cap, max;
	int full, nomem;
};

/* Keeps records up to the bound; past it the run goes on and the log ends with LOG_FULL.
 * The buffer grows first (never past the bound), so the LOG_FULL slot always exists. */
static void js_sink(void *ctx, const struct blab_event *e)
{
	struct js_sink *s = ctx;

	if (s->full || s->nomem)
		return;
	if (s->n == s->cap) {
		uint32_t ncap = s->cap ? (s->cap > s->max / 2 ? s->max : s->cap * 2) : 4096;
		struct blab_event *n;

		if (ncap > s->max)
			ncap = s->max;
		n = realloc(s->ev, (size_t)ncap * sizeof(*n));
		if (!n) {
			s->nomem = 1;
			return;
		}
		s->ev = n;
		s->cap = ncap;
	}
	if (s->n + 1 == s->max) {
		s->ev[s->n++] = blab_event_make(e->time, e->pfn, BLAB_EV_LOG_FULL, 0, e->cpu, 0, 0, 0, 0, 0);
		s->full = 1;
		return;
	}
	s->ev[s->n++] = *e;
}

struct blab_js_run *blab_js_sim_ex(uint32_t workload, uint32_t cpus, uint32_t pages,
				   uint32_t iterations, uint32_t seed, const char *preset,
				   uint32_t max_events, uint32_t batch, uint32_t high,
				   uint32_t clear_lines);

/*
 * Runs `workload` (1 = page_fault1) on `cpus` model CPUs, each task mapping `pages` pages, with
 * the strategy of `preset`; keeps at most `max_events` records (>= 2). The run's text result
 * (score, contention, the error if any) is in out/err like a replay's, the log in events.
 * hackbench (4, docs/slab.md): `cpus` = groups, `pages` = loops, `iterations` = flags (bit 0:
 * SLUB freelist prefetch, bit 1: same-CPU control), 256-byte objects.
 */
struct blab_js_run *blab_js_sim(uint32_t workload, uint32_t cpus, uint32_t pages,
				uint32_t iterations, uint32_t seed, const char *preset,
				uint32_t max_events)
{
	return blab_js_sim_ex(workload, cpus, pages, iterations, seed, preset, max_events, 0, 0, 0);
}

/*
 * blab_js_sim() with the knobs the lessons and the compare view turn: pcp `batch` and `high`
 * (0: the preset's), the frame lines clear_page() writes through the cache model (0: the
 * default), and max_events 0 for no log at all (table sweeps need only the counters). A
 * second stdout line, "stats key=value ...", carries every counter of struct blab_sim_result.
 */
/* The config blab_js_sim_ex() runs: 0, or 2 with "blab sim: why" in err. */
static int js_sim_config(struct blab_sim_config *cfg, uint32_t workload, uint32_t cpus,
			 uint32_t pages, uint32_t iterations, uint32_t seed, const char *preset,
			 uint32_t max_events, uint32_t batch, uint32_t high, uint32_t clear_lines,
			 char *err, size_t errlen)
{
	blab_sim_config_init(cfg);
	cfg->workload = workload;
	cfg->cpus = cpus;
	cfg->pages = pages;
	cfg->iterations = iterations;
	cfg->seed = seed;
	if (workload == BLAB_WL_HACKBENCH) {
		if (iterations > 3) {
			snprintf(err, errlen, "blab sim: hackbench flags=%u: only bits 0 (prefetch) and 1 (same CPU)",
				 iterations);
			return 2;
		}
		cfg->hackbench.groups = cpus;
		cfg->hackbench.loops = pages;
		cfg->hackbench.slub_prefetch = (uint8_t)(iterations & 1u);
		cfg->hackbench.same_cpu = (uint8_t)((iterations >> 1) & 1u);
		cfg->pages = 1;
		cfg->iterations = 1;
	}
	if (max_events == 1 || max_events > BLAB_MAX_LOG_EVENTS) {
		snprintf(err, errlen, "blab sim: max_events=%u must be 2..%u, or 0 for no log", max_events, BLAB_MAX_LOG_EVENTS);
		return 2;
	}
	if (!preset || blab_preset(preset, &cfg->strategy)) {
		snprintf(err, errlen, "blab sim: unknown preset '%.64s' (blab presets lists them)", preset ? preset : "");
		return 2;
	}
	if (batch)
		cfg->strategy.batch = batch; /* range-checked by the zone (docs/limits.md) */
	if (high)
		cfg->strategy.high = high;
	if (clear_lines)
		cfg->clear_lines = clear_lines; /* 1..64, checked by blab_sim_run() */
	return 0;
}

/* The event log's buffer at its largest: it doubles as it fills (js_sink), so the old and the
 * new one live side by side for a moment */
static uint64_t js_log_bytes(uint32_t max_events)
{
	return (uint64_t)max_events * sizeof(struct blab_event) * 3 / 2;
}

/*
 * The host bytes blab_js_sim_ex() with these arguments would take (the run's zone, model
 * machine and workload state, and its event log at the bound), as a JavaScript number; a
 * negative BLAB_E* code when the run would be refused anyway. With blab_js_mem_limit(), the
 * browser can refuse a scenario before it asks for it.
 */
double blab_js_sim_mem_bytes(uint32_t workload, uint32_t cpus, uint32_t pages,
			     uint32_t iterations, const char *preset, uint32_t max_events,
			     uint32_t batch, uint32_t high, uint32_t clear_lines)
{
	struct blab_sim_config cfg;
	struct blab_sim_mem m;
	char why[160];
	int rc = js_sim_config(&cfg, workload, cpus, pages, iterations, 1, preset, max_events,
			       batch, high, clear_lines, why, sizeof(why));
	if (rc)
		return BLAB_EINVAL;
	rc = blab_sim_mem_bytes(&cfg, &m, NULL, 0);
	return rc ? rc : (double)(m.total + js_log_bytes(max_events));
}

/*
 * The pages of the zone blab_js_sim_ex() with these arguments would create (with node zones,
 * all of them), or a negative BLAB_E* code: the page refuses up front a run whose log the
 * player could not show (its zone past the player's bound), rather than after the run.
 */
double blab_js_sim_zone_pages(uint32_t workload, uint32_t cpus, uint32_t pages,
			      uint32_t iterations, const char *preset, uint32_t batch, uint32_t high)
{
	struct blab_sim_config cfg;
	struct blab_sim_mem m;
	char why[160];
	int rc = js_sim_config(&cfg, workload, cpus, pages, iterations, 1, preset, 0, batch,
			       high, 0, why, sizeof(why));
	if (rc)
		return BLAB_EINVAL;
	rc = blab_sim_mem_bytes(&cfg, &m, NULL, 0);
	return rc ? rc : (double)m.zone_pages;
}

/* The memory a run may take here: what is left of the WebAssembly heap (it does not grow) */
double blab_js_mem_limit(void)
{
	return (double)blab_mem_limit_default();
}

struct blab_js_run *blab_js_sim_ex(uint32_t workload, uint32_t cpus, uint32_t pages,
				   uint32_t iterations, uint32_t seed, const char *preset,
				   uint32_t max_events, uint32_t batch, uint32_t high,
				   uint32_t clear_lines)
{
	struct blab_js_run *r = calloc(1, sizeof(*r));
	struct js_sink sink = {0};
	struct blab_sim_config cfg;
	struct blab_sim_result res;
	struct blab_sim_mem need;
	char why[256] = "";
	FILE *out, *err;
	int rc;

	if (!r)
		return NULL;
	out = open_memstream(&r->out, &r->out_len);
	err = open_memstream(&r->err, &r->err_len);
	if (!out || !err) {
		r->status = 2;
		goto done;
	}
	if ((r->status = js_sim_config(&cfg, workload, cpus, pages, iterations, seed, preset,
				       max_events, batch, high, clear_lines, why, sizeof(why))) != 0) {
		fprintf(err, "%s\n", why);
		goto done;
	}
	/* the run and its event log together must fit what is left of the heap */
	if (blab_sim_mem_bytes(&cfg, &need, NULL, 0) == 0 &&
	    need.total + js_log_bytes(max_events) > blab_mem_limit_default()) {
		char n[32], l[32], h[32];
		fprintf(err, "blab sim: the run needs %s of memory and its event log up to %s; the "
			"WebAssembly heap has %s left\n", blab_mem_text(n, sizeof(n), need.total),
			blab_mem_text(l, sizeof(l), js_log_bytes(max_events)),
			blab_mem_text(h, sizeof(h), blab_mem_limit_default()));
		r->status = 2;
		goto done;
	}
	sink.max = max_events;
	cfg.log_mask = BLAB_EVC_ALL;
	cfg.sink = max_events ? js_sink : NULL;
	cfg.sink_ctx = &sink;
	rc = blab_sim_run(&cfg, &res, why, sizeof(why));
	if (rc) {
		fprintf(err, "blab sim: %s\n", why[0] ? why : blab_strerror(rc));
		r->status = 2;
		goto done;
	}
	if (sink.nomem) {
		fprintf(err, "blab sim: out of memory keeping the event log (%u records kept)\n", sink.n);
		r->status = 2;
		goto done;
	}
	if (workload == BLAB_WL_HACKBENCH)
		fprintf(out, "%llu messages in %llu cycles, %llu messages/s, %llu remote frees, "
			"%llu freelist prefetches (%llu hit), batch %u, high %u%s\n",
			(unsigned long long)res.messages, (unsigned long long)res.elapsed_cycles,
			(unsigned long long)res.score, (unsigned long long)res.slab.free_remote,
			(unsigned long long)res.slab.prefetch, (unsigned long long)res.slab_pf_hit,
			res.batch, res.high, sink.full ? " (event log cut at its bound)" : "");
	else if (workload == BLAB_WL_STRESS_HIGHALLOC)
		/* its score is the success %, not pages/s: say what it is */
		fprintf(out, "order-%u blocks: %llu of %llu attempts, %llu cycles per attempt, "
			"%llu compactions, zone->lock contention %u.%02u %%, batch %u, high %u%s\n",
			cfg.hi_order, (unsigned long long)res.hi_success,
			(unsigned long long)res.hi_attempts,
			(unsigned long long)(res.hi_attempts ? res.hi_cycles / res.hi_attempts : 0),
			(unsigned long long)res.compact.runs, res.zone_contention_bp / 100,
			res.zone_contention_bp % 100, res.batch, res.high,
			sink.full ? " (event log cut at its bound)" : "");
	else if (workload == BLAB_WL_MIXED)
		fprintf(out, "score %llu pages/s (order 0), order-%u blocks: %llu of %llu attempts, "
			"zone->lock contention %u.%02u %%, batch %u, high %u%s\n",
			(unsigned long long)res.score, cfg.hi_order, (unsigned long long)res.hi_success,
			(unsigned long long)res.hi_attempts, res.zone_contention_bp / 100,
			res.zone_contention_bp % 100, res.batch, res.high,
			sink.full ? " (event log cut at its bound)" : "");
	else
		fprintf(out, "score %llu pages/s, zone->lock contention %u.%02u %%, batch %u, high %u%s\n",
			(unsigned long long)res.score, res.zone_contention_bp / 100, res.zone_contention_bp % 100,
			res.batch, res.high, sink.full ? " (event log cut at its bound)" : "");
	/* every counter, for the lessons' tables and the compare view's diff table */
	fprintf(out, "stats score=%llu pages_scored=%llu pages_total=%llu cycles_max=%llu cycles_total=%llu "
		"zone_acq=%llu zone_contended=%llu zone_spin=%llu zone_hold=%llu "
		"lru_acq=%llu lru_spin=%llu zone_bp=%u lru_bp=%u misses_locked=%llu "
		"prefetches=%llu pf_hit=%llu pf_late=%llu pf_wasted=%llu batch=%u high=%u",
		(unsigned long long)res.score, (unsigned long long)res.pages_scored,
		(unsigned long long)res.pages_total,
		(unsigned long long)res.cycles_max, (unsigned long long)res.cycles_total,
		(unsigned long long)res.zone_acq, (unsigned long long)res.zone_contended,
		(unsigned long long)res.zone_spin, (unsigned long long)res.zone_hold,
		(unsigned long long)res.lru_acq, (unsigned long long)res.lru_spin,
		res.zone_contention_bp, res.lru_contention_bp,
		(unsigned long long)res.misses_zone_locked, (unsigned long long)res.prefetches,
		(unsigned long long)res.pf_hit, (unsigned long long)res.pf_late,
		(unsigned long long)res.pf_wasted, res.batch, res.high);
	if (workload == BLAB_WL_HACKBENCH) {
		/* the message cache's SLUB counters and its freelist prefetches, for the compare
		 * view's hackbench rows */
		fprintf(out, " messages=%llu elapsed_cycles=%llu", (unsigned long long)res.messages,
			(unsigned long long)res.elapsed_cycles);
		fprintf(out, " slab_alloc_fast=%llu slab_alloc_slow=%llu slab_free_fast=%llu "
			"slab_free_slow=%llu slab_free_remote=%llu slab_prefetch=%llu "
			"slab_pf_hit=%llu slab_pf_late=%llu slab_pf_wasted=%llu",
			(unsigned long long)res.slab.alloc_fastpath,
			(unsigned long long)res.slab.alloc_slowpath,
			(unsigned long long)res.slab.free_fastpath,
			(unsigned long long)res.slab.free_slowpath,
			(unsigned long long)res.slab.free_remote, (unsigned long long)res.slab.prefetch,
			(unsigned long long)res.slab_pf_hit, (unsigned long long)res.slab_pf_late,
			(unsigned long long)res.slab_pf_wasted);
	}
	if (workload == BLAB_WL_STRESS_HIGHALLOC || workload == BLAB_WL_MIXED)
		/* hi_unusable: the unusable free space index for hi_order, in thousandths, when the
		 * attempts began (before any compaction); hi_merged: merge-skipped pages compaction
		 * merged back */
		fprintf(out, " hi_attempts=%llu hi_success=%llu hi_cycles=%llu hi_compactions=%llu "
			"hi_merged=%llu hi_unusable=%d",
			(unsigned long long)res.hi_attempts, (unsigned long long)res.hi_success,
			(unsigned long long)res.hi_cycles, (unsigned long long)res.compact.runs,
			(unsigned long long)res.compact.merged, res.unusable_index);
	fprintf(out, "\n");
	r->events = sink.ev;
	r->nevents = sink.n;
	sink.ev = NULL;
done:
	free(sink.ev);
	if (out)
		fclose(out);
	if (err)
		fclose(err);
	return r;
}
