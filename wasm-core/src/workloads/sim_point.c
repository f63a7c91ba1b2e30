/*
 * sim_point.c - one run as the browser asks for it (struct blab_sim_point, blab_sim.h): its
 * key, its config, and its counters as text. blab_js_sim_ex() (wasm/api.c) and `blab sim
 * --points` (cli/sim_points.c) both go through here, so a point prints the same bytes natively
 * and in WebAssembly; the lessons ship the native text and the page checks it byte for byte.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blab_js.h"
#include "blab_sim.h"

/* the default machine: 2 sockets x 28 cores x 2 threads (model/params.c) */
#define POINT_CPUS_2S 112u

static int fail(char *err, size_t n, const char *fmt, ...)
{
	va_list ap;
	if (err && n) {
		va_start(ap, fmt);
		vsnprintf(err, n, fmt, ap);
		va_end(ap);
	}
	return BLAB_EINVAL;
}

int blab_sim_point_config(const struct blab_sim_point *p, struct blab_sim_config *c, char *err,
			  size_t errlen)
{
	if (!p || !c)
		return fail(err, errlen, "no point or no config");
	blab_sim_config_init(c);
	c->workload = p->workload;
	c->cpus = p->cpus;
	c->pages = p->pages;
	c->iterations = p->iterations;
	c->seed = p->seed;
	if (p->workload == BLAB_WL_HACKBENCH) {
		if (p->iterations > 3)
			return fail(err, errlen, "hackbench flags=%u: only bits 0 (prefetch) and 1 "
				    "(same CPU)", p->iterations);
		c->hackbench.groups = p->cpus;
		c->hackbench.loops = p->pages;
		c->hackbench.slub_prefetch = (uint8_t)(p->iterations & 1u);
		c->hackbench.same_cpu = (uint8_t)((p->iterations >> 1) & 1u);
		c->pages = 1;
		c->iterations = 1;
	}
	if (memchr(p->preset, '\0', sizeof(p->preset)) == NULL || blab_preset(p->preset, &c->strategy))
		return fail(err, errlen, "unknown preset '%.31s' (blab presets lists them)", p->preset);
	if (p->batch)
		c->strategy.batch = p->batch; /* range-checked by the zone (docs/limits.md) */
	if (p->high)
		c->strategy.high = p->high;
	if (p->clear_lines)
		c->clear_lines = p->clear_lines; /* 1..64, checked by blab_sim_run() */
	c->cache_scale = p->cache_scale;    /* 0..64, a power of two, checked by blab_sim_run() */
	/* as blab sim grows the machine when --cpus needs more (docs/sim.md, Topology) */
	if (p->workload != BLAB_WL_HACKBENCH && p->cpus > POINT_CPUS_2S)
		c->sockets = p->cpus > 2 * POINT_CPUS_2S ? 8 : 4;
	return 0;
}

int blab_sim_point_key(const struct blab_sim_point *p, char *buf, size_t n)
{
	const char *w = NULL;
	for (uint32_t i = 0; i < blab_sim_workload_count(); i++)
		if (blab_sim_workload_id(blab_sim_workload_name(i)) == p->workload)
			w = blab_sim_workload_name(i);
	return snprintf(buf, n,
			"workload=%s preset=%.31s cpus=%" PRIu32 " pages=%" PRIu32
			" iterations=%" PRIu32 " seed=%" PRIu64 " batch=%" PRIu32 " high=%" PRIu32
			" clear_lines=%" PRIu32 " cache_scale=%" PRIu32,
			w ? w : "unknown", p->preset, p->cpus, p->pages, p->iterations, p->seed,
			p->batch, p->high, p->clear_lines ? p->clear_lines : 64,
			p->cache_scale ? p->cache_scale : 1);
}

/* "name=" then a decimal number up to max, then a space or the end; *s moves past it */
static int field(const char **s, const char *name, uint64_t max, uint64_t *out, char *err,
		 size_t errlen)
{
	size_t len = strlen(name);
	uint64_t v = 0;
	const char *q;

	if (!**s)
		return fail(err, errlen, "the key ends before %s=", name);
	if (strncmp(*s, name, len) || (*s)[len] != '=')
		return fail(err, errlen, "expected %s= at \"%.24s\"", name, *s);
	q = *s + len + 1;
	if (*q < '0' || *q > '9')
		return fail(err, errlen, "%s: expected a decimal number, not \"%.16s\"", name, q);
	for (; *q >= '0' && *q <= '9'; q++) {
		if (v > (max - (uint64_t)(*q - '0')) / 10)
			return fail(err, errlen, "%s: more than %" PRIu64, name, max);
		v = v * 10 + (uint64_t)(*q - '0');
	}
	if (*q != ' ' && *q != '\0')
		return fail(err, errlen, "%s: unexpected \"%.16s\"", name, q);
	*s = *q ? q + 1 : q;
	*out = v;
	return 0;
}

/* "name=" then a word of [A-Za-z0-9._-] shorter than cap; *s moves past it */
static int word(const char **s, const char *name, char *out, size_t cap, char *err, size_t errlen)
{
	size_t len = strlen(name), k = 0;
	const char *q;

	if (!**s)
		return fail(err, errlen, "the key ends before %s=", name);
	if (strncmp(*s, name, len) || (*s)[len] != '=')
		return fail(err, errlen, "expected %s= at \"%.24s\"", name, *s);
	for (q = *s + len + 1; *q && *q != ' '; q++) {
		int ok = (*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z') ||
			 (*q >= '0' && *q <= '9') || *q == '.' || *q == '_' || *q == '-';
		if (!ok)
			return fail(err, errlen, "%s: character 0x%02x is not allowed", name,
				    (unsigned)(unsigned char)*q);
		if (k + 1 >= cap)
			return fail(err, errlen, "%s: longer than %zu characters", name, cap - 1);
		out[k++] = *q;
	}
	if (!k)
		return fail(err, errlen, "%s: empty", name);
	out[k] = '\0';
	*s = *q ? q + 1 : q;
	return 0;
}

int blab_sim_point_parse(const char *key, struct blab_sim_point *p, char *err, size_t errlen)
{
	char w[32];
	uint64_t v[8];
	static const char *const names[] = {"cpus", "pages", "iterations", "seed", "batch", "high",
					    "clear_lines", "cache_scale"};
	static const uint64_t max[] = {BLAB_SIM_MAX_CPUS, BLAB_SIM_MAX_PAGES, BLAB_SIM_MAX_ITERATIONS,
				       UINT64_MAX, 1u << 16, 1u << 16, 64, 64};
	const char *s = key;
	int rc;

	if (!key || !p)
		return fail(err, errlen, "no key");
	if (strlen(key) >= BLAB_SIM_POINT_KEY_MAX)
		return fail(err, errlen, "longer than %u characters", BLAB_SIM_POINT_KEY_MAX - 1);
	memset(p, 0, sizeof(*p));
	if ((rc = word(&s, "workload", w, sizeof(w), err, errlen)))
		return rc;
	p->workload = blab_sim_workload_id(w);
	if (!p->workload)
		return fail(err, errlen, "unknown workload '%s'", w);
	if ((rc = word(&s, "preset", p->preset, sizeof(p->preset), err, errlen)))
		return rc;
	for (unsigned i = 0; i < 8; i++)
		if ((rc = field(&s, names[i], max[i], &v[i], err, errlen)))
			return rc;
	if (*s)
		return fail(err, errlen, "unexpected \"%.24s\" after cache_scale", s);
	p->cpus = (uint32_t)v[0];
	p->pages = (uint32_t)v[1];
	p->iterations = (uint32_t)v[2];
	p->seed = v[3];
	p->batch = (uint32_t)v[4];
	p->high = (uint32_t)v[5];
	p->clear_lines = (uint32_t)v[6];
	p->cache_scale = (uint32_t)v[7];
	return 0;
}

/* appends to the report; `at` grows by what the whole text needs, whatever fits */
struct text {
	char *buf;
	size_t n, at;
};

static void put(struct text *t, const char *fmt, ...)
{
	va_list ap;
	int k;

	va_start(ap, fmt);
	k = vsnprintf(t->at < t->n ? t->buf + t->at : NULL, t->at < t->n ? t->n - t->at : 0, fmt, ap);
	va_end(ap);
	if (k > 0)
		t->at += (size_t)k;
}

int blab_sim_report(char *buf, size_t n, const struct blab_sim_config *c,
		    const struct blab_sim_result *r, int log_cut)
{
	struct text t = {buf, n, 0};
	const char *cut = log_cut ? " (event log cut at its bound)" : "";
	typedef unsigned long long ull;

	if (buf && n)
		buf[0] = '\0';
	if (c->workload == BLAB_WL_HACKBENCH)
		put(&t, "%llu messages in %llu cycles, %llu messages/s, %llu remote frees, "
		    "%llu freelist prefetches (%llu hit), batch %u, high %u%s\n",
		    (ull)r->messages, (ull)r->elapsed_cycles, (ull)r->score,
		    (ull)r->slab.free_remote, (ull)r->slab.prefetch, (ull)r->slab_pf_hit, r->batch,
		    r->high, cut);
	else if (c->workload == BLAB_WL_STRESS_HIGHALLOC)
		/* its score is the success %, not pages/s: say what it is */
		put(&t, "order-%u blocks: %llu of %llu attempts, %llu cycles per attempt, "
		    "%llu compactions, zone->lock contention %u.%02u %%, batch %u, high %u%s\n",
		    c->hi_order, (ull)r->hi_success, (ull)r->hi_attempts,
		    (ull)(r->hi_attempts ? r->hi_cycles / r->hi_attempts : 0), (ull)r->compact.runs,
		    r->zone_contention_bp / 100, r->zone_contention_bp % 100, r->batch, r->high, cut);
	else if (c->workload == BLAB_WL_MIXED)
		put(&t, "score %llu pages/s (order 0), order-%u blocks: %llu of %llu attempts, "
		    "zone->lock contention %u.%02u %%, batch %u, high %u%s\n",
		    (ull)r->score, c->hi_order, (ull)r->hi_success, (ull)r->hi_attempts,
		    r->zone_contention_bp / 100, r->zone_contention_bp % 100, r->batch, r->high, cut);
	else
		put(&t, "score %llu pages/s, zone->lock contention %u.%02u %%, batch %u, high %u%s\n",
		    (ull)r->score, r->zone_contention_bp / 100, r->zone_contention_bp % 100, r->batch,
		    r->high, cut);
	/* every counter of the stats array (blab_js.h), by the names the app reads them by */
	put(&t, "stats");
#define BLAB_X(js, expr) put(&t, " " #js "=%lld", (long long)(expr));
	BLAB_JS_SIM_STATS(BLAB_X)
#undef BLAB_X
	put(&t, "\n");
	return (int)t.at;
}
