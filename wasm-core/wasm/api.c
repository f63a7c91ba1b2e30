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
#include "blab_exercise.h"
#include "blab_hist.h"
#include "blab_js.h"
#include "blab_latency.h"
#include "blab_model.h"

struct blab_js_run {
	int32_t status;   /* 0: every line ran; 1: a line failed ("line N: why" in err) */
	uint32_t nevents;
	char *out, *err;  /* NUL-terminated, from open_memstream */
	size_t out_len, err_len;
	struct blab_event *events;
	int64_t stats[BLAB_JS_NSTATS]; /* a model-machine run's counters (blab_js.h); else 0 */
	char *hist;       /* the run's refill and drain sizes as JSON (request.histogram), or NULL */
	char *latency;    /* its latencies as JSON (request.latency, blab_latency_json()), or NULL */
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

/* `blab exercise ARGS` for the browser (web/exercise/): the arguments as one text, each one
 * ended by a NUL, len bytes in all; what the CLI would print goes to out and err, its exit
 * status to status, so the page reads the very bytes `blab exercise` prints natively. */
#define BLAB_JS_MAX_ARGS 64u

struct blab_js_run *blab_js_exercise(const char *args, uint32_t len)
{
	struct blab_js_run *r = calloc(1, sizeof(*r));
	char *copy = NULL, *argv[BLAB_JS_MAX_ARGS + 2];
	FILE *out, *err;
	int argc = 1;

	if (!r)
		return NULL;
	out = open_memstream(&r->out, &r->out_len);
	err = open_memstream(&r->err, &r->err_len);
	if (!out || !err) {
		r->status = 2;
		goto done;
	}
	argv[0] = "exercise";
	if ((!args && len) || len > 4096 || (len && args[len - 1] != 0)) {
		fprintf(err, "blab exercise: the arguments must be NUL-ended strings, 4096 bytes at most\n");
		r->status = 2;
		goto done;
	}
	copy = len ? malloc(len) : NULL;
	if (len && !copy) {
		r->status = 2;
		goto done;
	}
	if (len)
		memcpy(copy, args, len);
	for (uint32_t at = 0; at < len; at += (uint32_t)strlen(copy + at) + 1) {
		if (argc == (int)BLAB_JS_MAX_ARGS + 1) {
			fprintf(err, "blab exercise: more than %u arguments\n", BLAB_JS_MAX_ARGS);
			r->status = 2;
			goto done;
		}
		argv[argc++] = copy + at;
	}
	argv[argc] = NULL;
	r->status = blab_exercise_main(argc, argv, out, err);
done:
	free(copy);
	if (out)
		fclose(out);
	if (err)
		fclose(err);
	return r;
}

int32_t blab_js_status(const struct blab_js_run *r) { return r ? r->status : 2; }
const char *blab_js_out(const struct blab_js_run *r) { return r && r->out ? r->out : ""; }
const char *blab_js_err(const struct blab_js_run *r) { return r && r->err ? r->err : ""; }
const struct blab_event *blab_js_events(const struct blab_js_run *r) { return r ? r->events : NULL; }
uint32_t blab_js_event_count(const struct blab_js_run *r) { return r ? r->nevents : 0; }
/* BLAB_JS_NSTATS counters in the order of BLAB_JS_SIM_STATS (blab_js.h) */
const int64_t *blab_js_stats(const struct blab_js_run *r) { return r ? r->stats : NULL; }

void blab_js_run_free(struct blab_js_run *r)
{
	if (!r)
		return;
	free(r->out);
	free(r->err);
	free(r->events);
	free(r->hist);
	free(r->latency);
	free(r);
}

/* blab_hist_json() of a run asked with histogram = 1 (docs/modern-pcp.md), else "" */
const char *blab_js_hist(const struct blab_js_run *r) { return r && r->hist ? r->hist : ""; }

/* blab_latency_json() of a run asked with latency = 1 (docs/model.md, "Latency"), else "" */
const char *blab_js_latency(const struct blab_js_run *r)
{
	return r && r->latency ? r->latency : "";
}

/* The record size JavaScript must decode with; a test compares it with docs/events.md. */
uint32_t blab_js_event_size(void) { return (uint32_t)sizeof(struct blab_event); }

/* ---- blab sim for the browser: one run of a workload on the model machine ---- */

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

/* the run's counters into stats[], in the order of BLAB_JS_SIM_STATS (blab_js.h) */
static void fill_stats(int64_t *stats, const struct blab_sim_result *r)
{
#define BLAB_X(js, expr) stats[BLAB_JS_STAT_##js] = (int64_t)(expr);
	BLAB_JS_SIM_STATS(BLAB_X)
#undef BLAB_X
}

/*
 * The config req asks for: 0, or 2 with "blab sim: why" in err. The request goes through a point
 * (blab_sim.h), as `blab sim --points` runs it natively: the same blab_sim_point_config(), so
 * both run the same machine and count the same counters.
 */
static int js_sim_config(const struct blab_js_sim_request *req, struct blab_sim_config *cfg,
			 char *err, size_t errlen)
{
	struct blab_sim_point pt = {0};
	char why[200];

	pt.workload = req->workload;
	pt.cpus = req->cpus;
	pt.pages = req->pages;
	pt.iterations = req->iterations;
	pt.groups = req->groups;
	pt.loops = req->loops;
	pt.slub_prefetch = req->slub_prefetch;
	pt.same_cpu = req->same_cpu;
	pt.seed = req->seed;
	pt.batch = req->batch;
	pt.high = req->high;
	pt.clear_lines = req->clear_lines;
	pt.cache_scale = req->cache_scale;
	pt.pcp_batch_scale_max = req->pcp_batch_scale_max; /* checked by the point's config */
	pt.latency = req->latency == 1;
	pt.node_zones = req->node_zones; /* 0 or 1: checked by the point's config */
	pt.out_of_step = req->out_of_step;
	memcpy(pt.preset, req->preset, sizeof(pt.preset));
	pt.preset[sizeof(pt.preset) - 1] = 0; /* caller memory: bounded whatever it holds */
	if (req->max_events == 1 || req->max_events > BLAB_MAX_LOG_EVENTS) {
		snprintf(err, errlen, "blab sim: max_events=%u must be 2..%u, or 0 for no log",
			 req->max_events, BLAB_MAX_LOG_EVENTS);
		return 2;
	}
	if (blab_sim_point_config(&pt, cfg, why, sizeof(why))) {
		snprintf(err, errlen, "blab sim: %s", why);
		return 2;
	}
	/* 6.7+: the point carries batch and high; high_max (a zone's, from the zoneinfo panel) too */
	if (req->high_max)
		cfg->strategy.high_max = req->high_max;
	if (req->histogram > 1 || req->latency > 1) {
		snprintf(err, errlen, "blab sim: histogram=%u latency=%u: each 0 or 1", req->histogram,
			 req->latency);
		return 2;
	}
	return 0;
}

/* The event log's buffer at its largest: it doubles as it fills (js_sink), so the old and the
 * new one live side by side for a moment */
static uint64_t js_log_bytes(uint32_t max_events)
{
	return (uint64_t)max_events * sizeof(struct blab_event) * 3 / 2;
}

/* What blab_sim_mem_bytes() says of the run req asks for: 0, or a negative BLAB_E* code when
 * the run would be refused anyway (BLAB_EINVAL for a request blab_js_sim_run() refuses). */
static int js_sim_mem(const struct blab_js_sim_request *req, struct blab_sim_mem *m)
{
	struct blab_sim_config cfg;
	char why[160];

	if (!req || js_sim_config(req, &cfg, why, sizeof(why)))
		return BLAB_EINVAL;
	return blab_sim_mem_bytes(&cfg, m, NULL, 0);
}

/*
 * The host bytes blab_js_sim_run(req) would take (the run's zone, model machine and workload
 * state, and its event log at the bound), as a JavaScript number; a negative BLAB_E* code when
 * the run would be refused anyway. With blab_js_mem_limit(), the browser can refuse a
 * scenario before it asks for it.
 */
double blab_js_sim_mem_bytes(const struct blab_js_sim_request *req)
{
	struct blab_sim_mem m;
	int rc = js_sim_mem(req, &m);

	return rc ? rc : (double)(m.total + js_log_bytes(req->max_events));
}

/*
 * The pages of the zone blab_js_sim_run(req) would create (with node zones, all of them), or
 * a negative BLAB_E* code: the page refuses up front a run whose log the player could not
 * show (its zone past the player's bound), rather than after the run.
 */
double blab_js_sim_zone_pages(const struct blab_js_sim_request *req)
{
	struct blab_sim_mem m;
	int rc = js_sim_mem(req, &m);

	return rc ? rc : (double)m.zone_pages;
}

/* The memory a run may take here: what is left of the WebAssembly heap (it does not grow) */
double blab_js_mem_limit(void)
{
	return (double)blab_mem_limit_default();
}

/*
 * The flag a run reads to stop early (blab_sim_config.cancel): the page writes 1 into it with
 * Atomics.store() through the module's shared memory (web/engine/engine-client.ts, Cancel), and
 * the engine worker sets it back to 0 before the next run.
 */
static volatile uint32_t js_cancel;

uint32_t *blab_js_cancel_flag(void)
{
	return (uint32_t *)&js_cancel;
}

/*
 * Runs one workload on the model machine as `req` asks (blab_js.h: every field by name, the
 * hackbench ones apart), keeping at most req->max_events records (>= 2; 0: no log). What the
 * run prints (its score line, or why it could not run) is in out/err like a replay's, the log
 * in events, and every counter in the stats array (blab_js_stats).
 */
struct blab_js_run *blab_js_sim_run(const struct blab_js_sim_request *req)
{
	struct blab_js_run *r = calloc(1, sizeof(*r));
	struct js_sink sink = {0};
	struct blab_sim_config cfg;
	struct blab_sim_result res;
	struct blab_hist *hist = NULL;
	struct blab_latency *lat = NULL;
	struct blab_sim_mem need;
	char why[256] = "", *text;
	uint32_t max_events;
	FILE *out, *err;
	int rc, len;

	if (!r)
		return NULL;
	out = open_memstream(&r->out, &r->out_len);
	err = open_memstream(&r->err, &r->err_len);
	if (!out || !err) {
		r->status = 2;
		goto done;
	}
	if (!req) {
		fprintf(err, "blab sim: no request\n");
		r->status = 2;
		goto done;
	}
	max_events = req->max_events;
	if ((r->status = js_sim_config(req, &cfg, why, sizeof(why))) != 0) {
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
	if (req->histogram && !(cfg.hist = hist = blab_hist_new())) {
		fprintf(err, "blab sim: out of memory for the histogram\n");
		r->status = 2;
		goto done;
	}
	if (req->latency) {
		struct blab_sim_point pt = {.latency = 1};
		if (blab_sim_point_latency(&pt, &cfg, &lat) || !(cfg.latency = lat)) {
			fprintf(err, "blab sim: out of memory for the latency recorder\n");
			r->status = 2;
			goto done;
		}
	}
	sink.max = max_events;
	cfg.log_mask = BLAB_EVC_ALL;
	cfg.sink = max_events ? js_sink : NULL;
	cfg.sink_ctx = &sink;
	cfg.cancel = &js_cancel;
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
	/* its score line, for the workbench's results card; the counters go in the stats array */
	len = blab_sim_report(NULL, 0, &cfg, &res, sink.full);
	text = malloc((size_t)len + 1);
	if (!text) {
		fprintf(err, "blab sim: out of memory for the report\n");
		r->status = 2;
		goto done;
	}
	blab_sim_report(text, (size_t)len + 1, &cfg, &res, sink.full);
	fputs(text, out);
	free(text);
	/* every counter, for the lessons' tables and the compare view's diff table */
	fill_stats(r->stats, &res);
	r->events = sink.ev;
	r->nevents = sink.n;
	sink.ev = NULL;
	if (hist) {
		size_t hlen = blab_hist_json(hist, NULL, 0);
		if ((r->hist = malloc(hlen + 1)))
			blab_hist_json(hist, r->hist, hlen + 1);
	}
	if (lat) {
		size_t llen = blab_latency_json(lat, NULL, 0);
		if ((r->latency = malloc(llen + 1)))
			blab_latency_json(lat, r->latency, llen + 1);
	}
done:
	blab_hist_free(hist);
	blab_latency_free(lat);
	free(sink.ev);
	if (out)
		fclose(out);
	if (err)
		fclose(err);
	return r;
}
