/*
 * sim_point.c - one run as the browser asks for it (struct blab_sim_point, blab_sim.h): its
 * key, its config, and its counters as a record. blab_js_sim_run() (wasm/api.c) and `blab sim
 * --points` (cli/sim/sim_points.c) both go through here, so a point runs the same machine natively
 * and in WebAssembly; the lessons ship the native records and the page checks every counter.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blab_js.h"
#include "blab_sim.h"
#include "blab_model.h"

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
	c->seed = p->seed;
	if (p->workload == BLAB_WL_HACKBENCH) {
		if (p->slub_prefetch > 1 || p->same_cpu > 1)
			return fail(err, errlen, "hackbench slub_prefetch=%u same_cpu=%u: each is 0 or 1",
				    p->slub_prefetch, p->same_cpu);
		c->cpus = p->groups; /* one CPU per group: blab_sim_run() checks they agree */
		c->hackbench.groups = p->groups;
		c->hackbench.loops = p->loops;
		c->hackbench.slub_prefetch = (uint8_t)p->slub_prefetch;
		c->hackbench.same_cpu = (uint8_t)p->same_cpu;
		c->pages = 1;
		c->iterations = 1;
	} else {
		c->cpus = p->cpus;
		c->pages = p->pages;
		c->iterations = p->iterations;
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
	if (p->pcp_batch_scale_max) {
		if (p->pcp_batch_scale_max > BLAB_PCP_BATCH_SCALE_MAX_LIMIT + 1)
			return fail(err, errlen, "pcp_batch_scale_max: %u is past the Kconfig's 0..%u",
				    p->pcp_batch_scale_max - 1, BLAB_PCP_BATCH_SCALE_MAX_LIMIT);
		if (!blab_strategy_has_batch_scale(&c->strategy))
			return fail(err, errlen, "pcp_batch_scale_max: preset %.31s has no "
				    "CONFIG_PCP_BATCH_SCALE_MAX (it came with 6.7, 52166607ecc9)",
				    p->preset);
		c->strategy.pcp_batch_scale_max = (uint8_t)(p->pcp_batch_scale_max - 1);
	}
	if (p->node_zones > 1 || p->out_of_step > 1)
		return fail(err, errlen, "node_zones=%u out_of_step=%u: each 0 or 1", p->node_zones,
			    p->out_of_step);
	c->node_zones = (uint8_t)p->node_zones;   /* the workloads it applies to: blab_sim_run() */
	c->out_of_step = (uint8_t)p->out_of_step; /* iterations >= 3: blab_sim_run() */
	/* as blab sim grows the machine when --cpus needs more (docs/sim.md, Topology) */
	if (p->workload != BLAB_WL_HACKBENCH && p->cpus > POINT_CPUS_2S)
		c->sockets = p->cpus > 2 * POINT_CPUS_2S ? 8 : 4;
	return 0;
}

int blab_sim_point_latency(const struct blab_sim_point *p, const struct blab_sim_config *c,
			   struct blab_latency **out)
{
	struct model_params def;

	*out = NULL;
	if (!p->latency)
		return 0;
	if (!c->model)
		model_params_default(&def); /* a point runs on the default machine's clock */
	*out = blab_latency_new(c->cpus, c->model ? c->model->cpu_mhz : def.cpu_mhz);
	return *out ? 0 : BLAB_ENOMEMHOST;
}

int blab_sim_point_key(const struct blab_sim_point *p, char *buf, size_t n)
{
	const char *w = NULL;
	char own[80], scale[32] = "";

	for (uint32_t i = 0; i < blab_sim_workload_count(); i++)
		if (blab_sim_workload_id(blab_sim_workload_name(i)) == p->workload)
			w = blab_sim_workload_name(i);
	/* the workload's own fields: hackbench's are not page_fault1's under other names */
	if (p->workload == BLAB_WL_HACKBENCH)
		snprintf(own, sizeof(own), "groups=%" PRIu32 " loops=%" PRIu32 " slub_prefetch=%" PRIu32
			 " same_cpu=%" PRIu32, p->groups, p->loops, p->slub_prefetch, p->same_cpu);
	else
		snprintf(own, sizeof(own), "cpus=%" PRIu32 " pages=%" PRIu32 " iterations=%" PRIu32,
			 p->cpus, p->pages, p->iterations);
	/* only when set, so every key made before the options existed keeps its spelling */
	if (p->pcp_batch_scale_max)
		snprintf(scale, sizeof(scale), " pcp_batch_scale_max=%" PRIu32,
			 p->pcp_batch_scale_max - 1);
	return snprintf(buf, n,
			"workload=%s preset=%.31s %s seed=%" PRIu64 " batch=%" PRIu32 " high=%" PRIu32
			" clear_lines=%" PRIu32 " cache_scale=%" PRIu32 "%s%s%s%s",
			w ? w : "unknown", p->preset, own, p->seed, p->batch, p->high,
			p->clear_lines ? p->clear_lines : 64, p->cache_scale ? p->cache_scale : 1,
			scale, p->latency ? " latency=1" : "", p->node_zones ? " node_zones=1" : "",
			p->out_of_step ? " out_of_step=1" : "");
}

/* "name=" then a decimal number from min to max, then a space or the end; *s moves past it */
static int field(const char **s, const char *name, uint64_t min, uint64_t max, uint64_t *out,
		 char *err, size_t errlen, const char *whose)
{
	size_t len = strlen(name);
	uint64_t v = 0;
	const char *q;

	if (!**s)
		return fail(err, errlen, "the key ends before %s=", name);
	if (strncmp(*s, name, len) || (*s)[len] != '=')
		return fail(err, errlen, "expected %s= at \"%.24s\" (%s)", name, *s, whose);
	q = *s + len + 1;
	if (*q < '0' || *q > '9')
		return fail(err, errlen, "%s: expected a decimal number, not \"%.16s\"", name, q);
	for (; *q >= '0' && *q <= '9'; q++) {
		uint64_t d = (uint64_t)(*q - '0');
		if (d > max || v > (max - d) / 10)
			return fail(err, errlen, "%s: more than %" PRIu64, name, max);
		v = v * 10 + d;
	}
	if (*q != ' ' && *q != '\0')
		return fail(err, errlen, "%s: unexpected \"%.16s\"", name, q);
	if (v < min)
		return fail(err, errlen, "%s: less than %" PRIu64, name, min);
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

/* an optional "name=1" at *s: *out = 1 and *s past it; absent, nothing moves; any other value
 * is refused (the key names it only when set, so name=0 would be a second spelling) */
static int flag(const char **s, const char *name, uint32_t *out, char *err, size_t errlen,
		const char *whose)
{
	size_t len = strlen(name);
	uint64_t v = 0;
	int rc;

	if (strncmp(*s, name, len) || (*s)[len] != '=')
		return 0;
	if ((rc = field(s, name, 1, 1, &v, err, errlen, whose)))
		return rc;
	*out = 1;
	return 0;
}

/* a key's numbers after its preset, in order: the workload's own, then every workload's.
 * clear_lines and cache_scale start at 1: a key spells out their defaults (64 and 1), so a 0
 * would be a second spelling of the same point, under another cache file. */
struct key_field {
	const char *name;
	uint64_t min, max;
	size_t off; /* in struct blab_sim_point; a uint32_t but seed's */
};
#define KF(f, lo, hi) {#f, lo, hi, offsetof(struct blab_sim_point, f)}
static const struct key_field order0_fields[] = {
	KF(cpus, 0, BLAB_SIM_MAX_CPUS), KF(pages, 0, BLAB_SIM_MAX_PAGES),
	KF(iterations, 0, BLAB_SIM_MAX_ITERATIONS),
};
static const struct key_field hackbench_fields[] = {
	KF(groups, 0, BLAB_HACKBENCH_MAX_GROUPS), KF(loops, 0, BLAB_HACKBENCH_MAX_LOOPS),
	KF(slub_prefetch, 0, 1), KF(same_cpu, 0, 1),
};
static const struct key_field common_fields[] = {
	KF(seed, 0, UINT64_MAX), KF(batch, 0, 1u << 16), KF(high, 0, 1u << 16),
	KF(clear_lines, 1, 64), KF(cache_scale, 1, 64),
};
#undef KF

static int fields(const char **s, const struct key_field *f, size_t n, struct blab_sim_point *p,
		  const char *whose, char *err, size_t errlen)
{
	for (size_t i = 0; i < n; i++) {
		uint64_t v = 0;
		int rc = field(s, f[i].name, f[i].min, f[i].max, &v, err, errlen, whose);
		if (rc)
			return rc;
		if (f[i].off == offsetof(struct blab_sim_point, seed))
			p->seed = v;
		else
			*(uint32_t *)((char *)p + f[i].off) = (uint32_t)v;
	}
	return 0;
}

int blab_sim_point_parse(const char *key, struct blab_sim_point *p, char *err, size_t errlen)
{
	char w[32];
	const char *s = key, *whose;
	int hb, rc;

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
	hb = p->workload == BLAB_WL_HACKBENCH;
	whose = hb ? "hackbench's key: groups loops slub_prefetch same_cpu seed batch high "
		     "clear_lines cache_scale"
		   : "the key: cpus pages iterations seed batch high clear_lines cache_scale";
	if ((rc = hb ? fields(&s, hackbench_fields, 4, p, whose, err, errlen)
		     : fields(&s, order0_fields, 3, p, whose, err, errlen)) ||
	    (rc = fields(&s, common_fields, 5, p, whose, err, errlen)))
		return rc;
	/* the optional fields, last and in this order (blab_sim_point_key writes each only when
	 * set, so latency=0 would be a second spelling of the same point) */
	if (!strncmp(s, "pcp_batch_scale_max=", 20)) {
		uint64_t v = 0;
		if ((rc = field(&s, "pcp_batch_scale_max", 0, BLAB_PCP_BATCH_SCALE_MAX_LIMIT, &v, err,
				errlen, whose)))
			return rc;
		p->pcp_batch_scale_max = (uint32_t)v + 1;
	}
	if ((rc = flag(&s, "latency", &p->latency, err, errlen, whose)) ||
	    (rc = flag(&s, "node_zones", &p->node_zones, err, errlen, whose)) ||
	    (rc = flag(&s, "out_of_step", &p->out_of_step, err, errlen, whose)))
		return rc;
	if (*s)
		return fail(err, errlen, "unexpected \"%.24s\" after cache_scale", s);
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
	return (int)t.at;
}

int blab_sim_point_record(char *buf, size_t n, const char *key, const struct blab_sim_result *r)
{
	struct text t = {buf, n, 0};
	const char *sep = "";

	if (buf && n)
		buf[0] = '\0';
	put(&t, "{\"key\":\"%s\",\"stats\":{", key);
	/* every counter of the stats array (blab_js.h), by the names the app reads them by */
#define BLAB_X(js, expr)                                                   \
	put(&t, "%s\"" #js "\":%lld", sep, (long long)(expr));             \
	sep = ",";
	BLAB_JS_SIM_STATS(BLAB_X)
#undef BLAB_X
	put(&t, "}}\n");
	return (int)t.at;
}

/* *s starts with lit: move past it */
static int skip(const char **s, const char *end, const char *lit)
{
	size_t len = strlen(lit);
	if ((size_t)(end - *s) < len || memcmp(*s, lit, len))
		return 0;
	*s += len;
	return 1;
}

/* d[0..n) (after a '-' when neg) is an int64 exactly as "%lld" prints it: digits, no leading
 * zero, no "-0", within INT64_MIN..INT64_MAX (a larger number is no counter, and a JSON
 * reader would round it) */
static int int64_as_printed(const char *d, size_t n, int neg)
{
	const char *limit = neg ? "9223372036854775808" : "9223372036854775807";

	if (n < 1 || n > 19 || (d[0] == '0' && (n > 1 || neg)))
		return 0;
	return n < 19 || memcmp(d, limit, 19) <= 0;
}

int blab_sim_point_record_ok(const char *rec, size_t len, const char *key)
{
	static const char *const names[] = {
#define BLAB_X(js, expr) #js,
		BLAB_JS_SIM_STATS(BLAB_X)
#undef BLAB_X
	};
	const char *s = rec, *end = rec + len;

	if (!rec || !key || !skip(&s, end, "{\"key\":\"") || !skip(&s, end, key) ||
	    !skip(&s, end, "\",\"stats\":{"))
		return 0;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const char *digits;
		int neg;
		if ((i && !skip(&s, end, ",")) || !skip(&s, end, "\"") || !skip(&s, end, names[i]) ||
		    !skip(&s, end, "\":"))
			return 0;
		neg = skip(&s, end, "-");
		for (digits = s; s < end && *s >= '0' && *s <= '9'; s++)
			;
		if (!int64_as_printed(digits, (size_t)(s - digits), neg))
			return 0;
	}
	return skip(&s, end, "}}\n") && s == end;
}
