/*
 * test_latency.c - the latency recorder (blab_latency.h) against a brute-force sort, its
 * log2 histograms against a slot-by-slot count, its BCC-style text, its arguments; and on the
 * model machine: a run with the recorder gives the same result and event records as without
 * it, and its counts agree with the run's own counters; the longest call of each log2 slot is
 * the slot's longest, and on the model machine each one's record is in the run's log.
 */
#include <stdlib.h>
#include <string.h>

#include "blab_latency.h"
#include "blab_model.h"
#include "blab_sim.h"
#include "common.h"

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t next(void)
{
	/* xorshift64*: the test's own values, the same on every run */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dull;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* a value of one of the shapes a run makes: small, heavy-tailed, one value, past 2^48 */
static uint64_t value_of(unsigned shape)
{
	switch (shape) {
	case 0:
		return next() % 8192u;
	case 1:
		return (next() % 1000u) << (next() % 30u);
	case 2:
		return 123456u;
	case 3:
		return next() % 2 ? 9000u : 70000000u;
	default:
		return (1ull << 48) + next() % 1000u;
	}
}

/* every percentile the recorder gives holds the sorted array's */
static void check_pct(const struct blab_latency *l, uint32_t mask, const uint64_t *sorted,
		      uint64_t n)
{
	static const uint32_t ppm[] = {1, 123456, 500000, 990000, 999000, 999999, 1000000};
	struct blab_lat_summary sm;

	CHECK_EQ(blab_latency_summary(l, mask, BLAB_LAT_TOTAL, &sm), 0);
	CHECK_EQ(sm.count, n);
	if (!n)
		return;
	CHECK_EQ(sm.min, sorted[0]);
	CHECK_EQ(sm.max, sorted[n - 1]);
	for (unsigned i = 0; i < sizeof(ppm) / sizeof(ppm[0]); i++) {
		struct blab_lat_pct p;
		uint64_t rank = (n * ppm[i] + 999999u) / 1000000u, e;
		rank = rank ? rank : 1;
		e = sorted[rank - 1];
		CHECK_EQ(blab_latency_percentile(l, mask, BLAB_LAT_TOTAL, ppm[i], &p), 0);
		CHECK(p.lo <= e && e <= p.hi);
		if (e < (1u << BLAB_LAT_EXACT_BITS) || p.lo == p.hi)
			CHECK(p.lo == e && p.hi == e);
		if (p.lo < (1ull << BLAB_LAT_TOP_BITS))
			CHECK(p.hi - p.lo <= p.hi >> BLAB_LAT_SUB_BITS);
		if (ppm[i] == 500000u)
			CHECK(sm.p50.lo == p.lo && sm.p50.hi == p.hi);
		if (ppm[i] == 990000u)
			CHECK(sm.p99.lo == p.lo && sm.p99.hi == p.hi);
		if (ppm[i] == 999000u)
			CHECK(sm.p99_9.lo == p.lo && sm.p99_9.hi == p.hi);
	}
	/* the first and last ranks are the extremes, exactly */
	{
		struct blab_lat_pct p;
		blab_latency_percentile(l, mask, BLAB_LAT_TOTAL, 1000000u, &p);
		CHECK(p.lo == sorted[n - 1] && p.hi == sorted[n - 1]);
	}
}

/* n values of one shape, spread over the three allocation series and 3 CPUs */
static void brute_force(unsigned shape, uint64_t n)
{
	struct blab_latency *l = blab_latency_new(3, 2500);
	uint64_t *all = malloc(n * sizeof(*all)), *one = malloc(n * sizeof(*one));
	uint64_t none = 0, slots[3][BLAB_LAT_LOG2_SLOTS] = {{0}}, got[BLAB_LAT_LOG2_SLOTS];
	uint8_t *series = malloc(n);

	CHECK(l && all && one && series);
	if (!l || !all || !one || !series)
		goto out;
	for (uint64_t i = 0; i < n; i++) {
		unsigned cpu = (unsigned)(next() % 3);
		all[i] = value_of(shape);
		series[i] = (uint8_t)(next() % 3);
		CHECK_EQ(blab_latency_record(l, cpu, series[i], all[i], all[i] / 3, all[i] / 2), 0);
		/* nanoseconds at 2.5 GHz: 0.4 ns a cycle */
		slots[cpu][blab_log2_slot((uint64_t)((unsigned __int128)all[i] * 1000u / 2500u))]++;
	}
	for (unsigned s = 0; s < 3; s++) {
		uint64_t k = 0;
		for (uint64_t i = 0; i < n; i++)
			if (series[i] == s)
				one[k++] = all[i];
		qsort(one, k, sizeof(*one), cmp_u64);
		check_pct(l, BLAB_LAT_MASK(s), one, k);
	}
	qsort(all, n, sizeof(*all), cmp_u64);
	check_pct(l, BLAB_LAT_MASK_ALLOC, all, n);
	check_pct(l, BLAB_LAT_MASK_FREE, &none, 0);
	for (unsigned cpu = 0; cpu < 3; cpu++) {
		CHECK_EQ(blab_latency_log2(l, BLAB_LAT_MASK_ALLOC, BLAB_LAT_TOTAL, cpu, got), 0);
		CHECK(!memcmp(got, slots[cpu], sizeof(got)));
	}
out:
	blab_latency_free(l);
	free(all);
	free(one);
	free(series);
}

static void recorder(void)
{
	static const uint64_t sizes[] = {1, 2, 7, 100, 1000, 20000};

	for (unsigned shape = 0; shape < 5; shape++)
		for (unsigned k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++)
			brute_force(shape, sizes[k]);
}

static void arguments(void)
{
	struct blab_latency *l = blab_latency_new(2, 2500);
	struct blab_lat_summary sm;
	struct blab_lat_pct p;
	uint64_t h[BLAB_LAT_LOG2_SLOTS];

	CHECK(blab_latency_new(0, 2500) == NULL);
	CHECK(blab_latency_new(BLAB_LAT_MAX_CPUS + 1, 2500) == NULL);
	CHECK(blab_latency_new(2, 0) == NULL);
	CHECK_EQ(blab_latency_mem_bytes(0), 0);
	CHECK(blab_latency_mem_bytes(2) > 0);
	CHECK_EQ(blab_latency_record(NULL, 0, 0, 1, 0, 0), BLAB_EINVAL);
	CHECK_EQ(blab_latency_record(l, 2, 0, 1, 0, 0), BLAB_EINVAL);
	CHECK_EQ(blab_latency_record(l, 0, BLAB_LAT_RMQUEUE_BULK, 1, 0, 0), BLAB_EINVAL);
	CHECK_EQ(blab_latency_record(l, 0, 0, 1, 2, 0), BLAB_EINVAL); /* a part past the whole */
	CHECK_EQ(blab_latency_record(l, 0, 0, 1, 0, 2), BLAB_EINVAL);
	CHECK_EQ(blab_latency_record_call(l, 0, BLAB_LAT_ALLOC_PCP, 1), BLAB_EINVAL);
	CHECK_EQ(blab_latency_record_call(l, 0, BLAB_LAT_NSERIES, 1), BLAB_EINVAL);
	CHECK_EQ(blab_latency_record_call(l, 0, BLAB_LAT_RMQUEUE_BULK, 5), 0);
	CHECK_EQ(blab_latency_summary(l, 0, BLAB_LAT_TOTAL, &sm), BLAB_EINVAL);
	CHECK_EQ(blab_latency_summary(l, 1u << BLAB_LAT_NSERIES, BLAB_LAT_TOTAL, &sm), BLAB_EINVAL);
	CHECK_EQ(blab_latency_summary(l, BLAB_LAT_MASK(BLAB_LAT_RMQUEUE_BULK), BLAB_LAT_BULK, &sm),
		 BLAB_EINVAL);
	CHECK_EQ(blab_latency_summary(l, BLAB_LAT_MASK(BLAB_LAT_RMQUEUE_BULK), BLAB_LAT_TOTAL, &sm),
		 0);
	CHECK_EQ(sm.count, 1);
	CHECK(sm.p99.lo == 5 && sm.p99.hi == 5);
	CHECK_EQ(blab_latency_percentile(l, BLAB_LAT_MASK_ALLOC, BLAB_LAT_TOTAL, 0, &p), BLAB_EINVAL);
	CHECK_EQ(blab_latency_percentile(l, BLAB_LAT_MASK_ALLOC, BLAB_LAT_TOTAL, 1000001, &p),
		 BLAB_EINVAL);
	CHECK_EQ(blab_latency_percentile(l, BLAB_LAT_MASK_ALLOC, BLAB_LAT_TOTAL, 990000, &p), 0);
	CHECK(p.lo == 0 && p.hi == 0); /* nothing counted */
	CHECK_EQ(blab_latency_log2(l, BLAB_LAT_MASK_ALLOC, BLAB_LAT_LOCK_WAIT, 0, h), BLAB_EINVAL);
	CHECK_EQ(blab_latency_log2(l, BLAB_LAT_MASK_ALLOC, BLAB_LAT_TOTAL, 2, h), BLAB_EINVAL);
	CHECK_EQ(blab_latency_log2(NULL, BLAB_LAT_MASK_ALLOC, BLAB_LAT_TOTAL, 0, h), BLAB_EINVAL);
	CHECK(blab_latency_series_name(BLAB_LAT_NSERIES) == NULL);
	CHECK(!strcmp(blab_latency_series_name(BLAB_LAT_FREE_PCPPAGES_BULK), "free_pcppages_bulk"));
	CHECK_EQ(blab_log2_slot(0), 1);
	CHECK_EQ(blab_log2_slot(1), 1);
	CHECK_EQ(blab_log2_slot(2), 2);
	CHECK_EQ(blab_log2_slot(7), 3);
	CHECK_EQ(blab_log2_slot(UINT64_MAX), 64);
	blab_latency_free(l);
	blab_latency_free(NULL);
}

/*
 * Each log2 slot's longest call, against a brute-force scan: recorded with where it ran (the
 * plain record functions keep none), ties kept at the first, a mask's longest the longest of
 * its series.
 */
static void longest(void)
{
	struct blab_latency *l = blab_latency_new(3, 1000); /* 1 cycle = 1 ns */
	static struct blab_lat_call best[BLAB_LAT_NSERIES][BLAB_LAT_LOG2_SLOTS];
	struct blab_lat_call c;

	memset(best, 0, sizeof(best));
	CHECK_EQ(blab_latency_longest(l, BLAB_LAT_MASK_ALLOC, 0, &c), BLAB_EINVAL);
	CHECK_EQ(blab_latency_longest(l, BLAB_LAT_MASK_ALLOC, BLAB_LAT_LOG2_SLOTS, &c), BLAB_EINVAL);
	CHECK_EQ(blab_latency_longest(l, 0, 3, &c), BLAB_EINVAL);
	CHECK_EQ(blab_latency_longest(NULL, 1, 3, &c), BLAB_EINVAL);
	CHECK_EQ(blab_latency_record_at(l, 3, 0, 0, 1, 0, 0, 0), BLAB_EINVAL);
	CHECK_EQ(blab_latency_record_call_at(l, 0, BLAB_LAT_ALLOC_PCP, 0, 1), BLAB_EINVAL);
	CHECK_EQ(blab_latency_record(l, 0, BLAB_LAT_ALLOC_PCP, 1u << 20, 0, 0), 0); /* no where */
	for (unsigned i = 0; i < 5000; i++) {
		unsigned s = (unsigned)(next() % BLAB_LAT_NSERIES), cpu = (unsigned)(next() % 3);
		uint64_t v = next() % 3 ? next() % 5000 : next() % 50000000u, start = next() >> 20;
		uint64_t pfn = s < BLAB_LAT_OPS ? next() >> 30 : 0;
		struct blab_lat_call *b = &best[s][blab_log2_slot(v)];
		if (s < BLAB_LAT_OPS)
			CHECK_EQ(blab_latency_record_at(l, cpu, s, start, v, 0, 0, pfn), 0);
		else
			CHECK_EQ(blab_latency_record_call_at(l, cpu, s, start, v), 0);
		if (v && v > b->cycles)
			*b = (struct blab_lat_call){start, v, pfn, cpu, s};
	}
	for (unsigned slot = 1; slot < BLAB_LAT_LOG2_SLOTS; slot++) {
		struct blab_lat_call want = {0};
		for (unsigned s = 0; s < BLAB_LAT_NSERIES; s++) {
			CHECK_EQ(blab_latency_longest(l, BLAB_LAT_MASK(s), slot, &c), 0);
			CHECK(!memcmp(&c, &best[s][slot], sizeof(c)));
			if (s < BLAB_LAT_OPS && best[s][slot].cycles > want.cycles)
				want = best[s][slot];
		}
		CHECK_EQ(blab_latency_longest(l, BLAB_LAT_MASK_ALLOC | BLAB_LAT_MASK_FREE, slot, &c), 0);
		CHECK(!memcmp(&c, &want, sizeof(c)));
	}
	/* the call recorded without where it ran is counted but is no slot's longest */
	CHECK_EQ(blab_latency_longest(l, BLAB_LAT_MASK(BLAB_LAT_ALLOC_PCP), 21, &c), 0);
	CHECK(c.cycles != 1u << 20);
	blab_latency_free(l);
}

/* the text BCC's print_log2_hist() prints for these slots (tools/funclatency) */
static void bcc_text(void)
{
	uint64_t s[BLAB_LAT_LOG2_SLOTS] = {0};
	char buf[8192];
	size_t need;
	const char *want =
		"     nsecs               : count     distribution\n"
		"         0 -> 1          : 0        |                                        |\n"
		"         2 -> 3          : 3        |***                                     |\n"
		"         4 -> 7          : 40       |****************************************|\n"
		"         8 -> 15         : 39       |*************************************** |\n"
		"        16 -> 31         : 1        |*                                       |\n";

	s[2] = 3;
	s[3] = 40;
	s[4] = 39;
	s[5] = 1;
	need = blab_log2_text(s, BLAB_LAT_LOG2_SLOTS, "nsecs", buf, sizeof(buf));
	CHECK_EQ(need, strlen(want));
	CHECK(!strcmp(buf, want));
	CHECK_EQ(blab_log2_text(s, BLAB_LAT_LOG2_SLOTS, "nsecs", buf, 10), need); /* cut, counted */
	CHECK_EQ(strlen(buf), 9);
	memset(s, 0, sizeof(s));
	CHECK_EQ(blab_log2_text(s, BLAB_LAT_LOG2_SLOTS, "nsecs", buf, sizeof(buf)), 0);
	/* past slot 32 the columns widen and the bar halves, as BCC's */
	s[40] = 2;
	need = blab_log2_text(s, BLAB_LAT_LOG2_SLOTS, "usecs", buf, sizeof(buf));
	CHECK(need > 0 && strstr(buf, "               usecs                         : count") == buf);
	CHECK(strstr(buf, "  549755813888 -> 1099511627775        : 2        |********************|\n"));
}

/* ---- on the model machine ---- */

struct hsink {
	uint64_t h, n;
	/* with keep: every ALLOC, FREE and RMQUEUE_BULK / PCP_DRAIN record, for longest_found() */
	int keep;
	struct blab_event *ev;
	size_t nev, cap;
};

static void sink(void *ctx, const struct blab_event *e)
{
	struct hsink *s = ctx;
	s->h = fnv1a_event(s->h, e);
	s->n++;
	if (s->keep && (e->type == BLAB_EV_ALLOC || e->type == BLAB_EV_FREE ||
			e->type == BLAB_EV_RMQUEUE_BULK || e->type == BLAB_EV_PCP_DRAIN)) {
		if (s->nev == s->cap) {
			s->cap = s->cap ? 2 * s->cap : 4096;
			s->ev = realloc(s->ev, s->cap * sizeof(*s->ev));
			if (!s->ev)
				abort();
		}
		s->ev[s->nev++] = *e;
	}
}

/* the record of a slot's longest call: an allocation's ALLOC or a free's FREE of its block on
 * its CPU, a call's RMQUEUE_BULK / PCP_DRAIN (the begin) on its CPU, inside the call's time */
static int found(const struct hsink *hs, const struct blab_lat_call *c)
{
	for (size_t i = 0; i < hs->nev; i++) {
		const struct blab_event *e = &hs->ev[i];
		unsigned want = c->series == BLAB_LAT_RMQUEUE_BULK	 ? BLAB_EV_RMQUEUE_BULK
				: c->series == BLAB_LAT_FREE_PCPPAGES_BULK ? BLAB_EV_PCP_DRAIN
				: c->series < BLAB_LAT_FREE_PCP		 ? BLAB_EV_ALLOC
									 : BLAB_EV_FREE;
		if (e->type == want && e->cpu == c->cpu && e->time >= c->start &&
		    e->time <= c->start + c->cycles && (c->pfn ? e->pfn == c->pfn : !(e->flags & 1)))
			return 1;
	}
	return 0;
}

static void one_run(const char *preset, unsigned workload, uint32_t cpus, uint32_t pages,
		    const struct model_params *mp, struct blab_latency *lat,
		    struct blab_sim_result *r, struct hsink *hs)
{
	struct blab_sim_config c;
	char err[200] = "";

	blab_sim_config_init(&c);
	c.workload = workload;
	c.cpus = cpus;
	c.pages = pages;
	c.iterations = 2;
	c.clear_lines = 4;
	c.model = mp;
	c.latency = lat;
	hs->h = FNV1A_OFFSET;
	hs->n = 0;
	c.log_mask = BLAB_EVC_ALL;
	c.sink = sink;
	c.sink_ctx = hs;
	CHECK_EQ(blab_preset(preset, &c.strategy), 0);
	CHECK_EQ(blab_sim_run(&c, r, err, sizeof(err)), 0);
	if (err[0])
		fprintf(stderr, "%s: %s\n", preset, err);
}

/* the result's latency figures are the recorder's summaries */
static void lat_figures(const struct blab_latency *lat, const struct blab_sim_result *r)
{
	const struct blab_sim_lat *got[4] = {&r->latency.alloc, &r->latency.free,
					     &r->latency.rmqueue_bulk, &r->latency.free_pcppages_bulk};
	static const uint32_t masks[4] = {BLAB_LAT_MASK_ALLOC, BLAB_LAT_MASK_FREE,
					  BLAB_LAT_MASK(BLAB_LAT_RMQUEUE_BULK),
					  BLAB_LAT_MASK(BLAB_LAT_FREE_PCPPAGES_BULK)};

	for (unsigned i = 0; i < 4; i++) {
		struct blab_lat_summary sm;
		CHECK_EQ(blab_latency_summary(lat, masks[i], BLAB_LAT_TOTAL, &sm), 0);
		CHECK(got[i]->count == sm.count && got[i]->max == sm.max &&
		      got[i]->p50 == sm.p50.hi && got[i]->p99 == sm.p99.hi &&
		      got[i]->p99_9 == sm.p99_9.hi);
	}
}

/* every series' longest call of every slot is in the run's log where it says */
static void longest_found(const struct blab_latency *lat, const struct hsink *hs)
{
	for (unsigned s = 0; s < BLAB_LAT_NSERIES; s++)
		for (unsigned slot = 1; slot < BLAB_LAT_LOG2_SLOTS; slot++) {
			struct blab_lat_call c;
			CHECK_EQ(blab_latency_longest(lat, BLAB_LAT_MASK(s), slot, &c), 0);
			if (c.cycles && !found(hs, &c)) {
				fprintf(stderr, "series %u slot %u: no record for cpu %u pfn %llu at %llu + %llu\n",
					s, slot, c.cpu, (unsigned long long)c.pfn,
					(unsigned long long)c.start, (unsigned long long)c.cycles);
				CHECK(0);
			}
		}
}

/*
 * The recorder only reads the clocks: with it the run's result and every event record are
 * the same. Its counts are the run's: each page allocated and freed once (page_fault1 and
 * parallel_free map pages_total pages), a refill per rmqueue_bulk() call.
 */
static void unchanged(void)
{
	static const char *const presets[] = {"v2.5.44", "v2.5.45", "v4.16", "v4.17", "v5.18",
					      "v6.0", "v6.7", "v6.19"};
	static const unsigned workloads[] = {BLAB_WL_PAGE_FAULT1, BLAB_WL_PARALLEL_FREE,
					     BLAB_WL_TRUNC};
	struct model_params mp;

	model_params_default(&mp);
	mp.cpu_mhz = 20; /* a short second: the 6.7+ decay runs, and its drains count too */
	for (unsigned p = 0; p < sizeof(presets) / sizeof(presets[0]); p++)
		for (unsigned w = 0; w < 3; w++) {
			struct blab_latency *lat = blab_latency_new(4, mp.cpu_mhz);
			struct blab_sim_result a, b;
			struct blab_lat_summary al, fr, rb;
			struct hsink ha = {0}, hb = {.keep = 1};
			one_run(presets[p], workloads[w], 4, 512, &mp, NULL, &a, &ha);
			one_run(presets[p], workloads[w], 4, 512, &mp, lat, &b, &hb);
			/* every counter as without the recorder; its own figures only with it */
			CHECK_EQ(a.latency.cpu_mhz, 0);
			CHECK_EQ(a.latency.alloc.count, 0);
			CHECK_EQ(b.latency.cpu_mhz, mp.cpu_mhz);
			lat_figures(lat, &b);
			memset(&b.latency, 0, sizeof(b.latency));
			CHECK(!memcmp(&a, &b, sizeof(a)));
			CHECK(ha.h == hb.h && ha.n == hb.n);
			longest_found(lat, &hb);
			free(hb.ev);
			CHECK_EQ(blab_latency_summary(lat, BLAB_LAT_MASK_ALLOC, BLAB_LAT_TOTAL, &al), 0);
			CHECK_EQ(blab_latency_summary(lat, BLAB_LAT_MASK_FREE, BLAB_LAT_TOTAL, &fr), 0);
			CHECK_EQ(blab_latency_summary(lat, BLAB_LAT_MASK(BLAB_LAT_RMQUEUE_BULK),
						      BLAB_LAT_TOTAL, &rb), 0);
			if (workloads[w] != BLAB_WL_TRUNC) {
				CHECK_EQ(al.count, b.pages_total);
				CHECK_EQ(fr.count, b.pages_total);
			}
			CHECK_EQ(rb.count, b.pcp_refills);
			CHECK(al.max >= al.p99_9.hi && al.p99_9.hi >= al.p99.lo);
			blab_latency_free(lat);
		}
}

/* a run refuses a recorder for fewer CPUs or another clock */
static void mismatched(void)
{
	struct blab_sim_config c;
	struct blab_sim_result r;
	struct blab_latency *small = blab_latency_new(1, 2500), *slow = blab_latency_new(4, 1000);
	char err[200];

	blab_sim_config_init(&c);
	c.cpus = 2;
	c.pages = 64;
	c.iterations = 1;
	CHECK_EQ(blab_preset("v4.16", &c.strategy), 0);
	c.latency = small;
	CHECK_EQ(blab_sim_run(&c, &r, err, sizeof(err)), BLAB_EINVAL);
	CHECK(strstr(err, "latency: the recorder is for 1 CPUs at 2500 MHz") != NULL);
	c.latency = slow;
	CHECK_EQ(blab_sim_run(&c, &r, err, sizeof(err)), BLAB_EINVAL);
	blab_latency_free(small);
	blab_latency_free(slow);
}

int main(void)
{
	recorder();
	arguments();
	bcc_text();
	longest();
	unchanged();
	mismatched();
	return harness_report("test_latency");
}
