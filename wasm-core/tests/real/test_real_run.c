/*
 * blab run's core: page_fault1 on real threads for every pcp shape (none, hot/cold, LIFO,
 * two-pass, 5.18), checked for structure, never for speed: every thread faults pages, the
 * lock counters add up, and after stop every page is back and the zone passes blab_check().
 * Also the argument checks of blab_run_start(), the real zone's refusals, and the thread
 * list parser.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "blab_real.h"
#include "harness.h"

static void nap_ms(unsigned ms)
{
	struct timespec ts = {(time_t)(ms / 1000), (long)(ms % 1000) * 1000000L};
	nanosleep(&ts, NULL);
}

static void run_preset(const char *preset, unsigned threads)
{
	struct blab_run_config c;
	struct blab_run *r = NULL;
	struct blab_run_thread t[4];
	char err[200];
	unsigned waited = 0, busy;
	uint64_t acq_zone = 0;

	blab_run_config_init(&c);
	CHECK_EQ(blab_preset(preset, &c.strategy), 0);
	c.threads = threads;
	c.pages = 2048;
	c.pin = 0;
	CHECK_EQ(blab_run_start(&c, &r, err, sizeof(err)), 0);
	if (!r) {
		fprintf(stderr, "%s: %s\n", preset, err);
		return;
	}
	CHECK(blab_run_pinned(r, 0, err, sizeof(err)) < 0); /* pin = 0 */
	CHECK(strlen(err) > 0);
	/* until every thread has faulted a page (bounded: 60 s, a sanitizer build on a busy
	 * machine is slow, but a thread that never runs is a failure) */
	do {
		nap_ms(10);
		waited += 10;
		blab_run_sample(r, t, threads);
		busy = 0;
		for (unsigned i = 0; i < threads; i++)
			busy += t[i].pages > 0;
	} while (busy < threads && waited < 60000);
	CHECK_EQ(busy, threads);
	CHECK_EQ(blab_run_started(r), threads);
	CHECK(blab_run_sample(r, NULL, 0) > 0);
	blab_run_stop(r);
	CHECK_EQ(blab_run_finish(r, err, sizeof(err)), 0);
	if (err[0])
		fprintf(stderr, "%s: %s\n", preset, err);
	CHECK_EQ(blab_run_finished(r), threads);
	blab_run_sample(r, t, threads);
	for (unsigned i = 0; i < threads; i++) {
		/* page_fault1 takes lru_lock once per 15 pages faulted and once per 15 unmapped */
		CHECK(t[i].lock[1].acquisitions > 0);
		CHECK(t[i].lock[0].contended <= t[i].lock[0].acquisitions);
		acq_zone += t[i].lock[0].acquisitions;
	}
	CHECK(acq_zone > 0); /* refills at least; every page without pcp lists */
	blab_run_free(r);
}

static void test_runs(void)
{
	run_preset("v2.5.44", 2); /* no pcp: zone->lock for every page */
	run_preset("v2.5.45", 2); /* hot/cold lists */
	run_preset("v4.16", 3);
	run_preset("v4.17", 2);   /* two-pass free with prefetch_buddy() */
	run_preset("v5.18", 1);
}

/* blab_run_stop() ends a run within a step: a thread faults at most a pagevec more (two
 * when an op was in flight), unmaps what its round faulted and ends. Before, each thread
 * finished its round first: 64 threads of 32768 pages on 2 cores ran 30 s past --seconds 1. */
static void test_stop_cuts_the_round(void)
{
	enum { THREADS = 2 };
	struct blab_run_config c;
	struct blab_run *r = NULL;
	struct blab_run_thread a[THREADS], b[THREADS];
	char err[200];
	unsigned waited = 0, busy;

	blab_run_config_init(&c);
	c.threads = THREADS;
	c.pages = BLAB_RUN_MAX_PAGES; /* a round of 262,144 faults: far from done at the stop */
	c.pin = 0;
	CHECK_EQ(blab_run_start(&c, &r, err, sizeof(err)), 0);
	if (!r)
		return;
	do {
		nap_ms(1);
		waited++;
		blab_run_sample(r, a, THREADS);
		busy = 0;
		for (unsigned i = 0; i < THREADS; i++)
			busy += a[i].pages > 0;
	} while (busy < THREADS && waited < 60000);
	blab_run_stop(r);
	blab_run_sample(r, a, THREADS); /* after the stop: what a thread did before noticing */
	CHECK_EQ(blab_run_finish(r, err, sizeof(err)), 0);
	blab_run_sample(r, b, THREADS);
	for (unsigned i = 0; i < THREADS; i++) {
		CHECK(b[i].pages - a[i].pages <= 2 * 15);
		CHECK(b[i].pages < BLAB_RUN_MAX_PAGES); /* the round was cut, and unmapped */
	}
	blab_run_free(r);
}

static void test_config_checks(void)
{
	struct blab_run_config c;
	struct blab_run *r = (struct blab_run *)&c;
	char err[200];

	CHECK_EQ(blab_run_start(NULL, &r, err, sizeof(err)), BLAB_EINVAL);
	blab_run_config_init(&c);
	c.threads = 0;
	CHECK_EQ(blab_run_start(&c, &r, err, sizeof(err)), BLAB_ECPU);
	CHECK(r == NULL);
	CHECK(strstr(err, "threads must be 1..") != NULL);
	c.threads = BLAB_RUN_MAX_THREADS + 1;
	CHECK_EQ(blab_run_start(&c, &r, err, sizeof(err)), BLAB_ECPU);
	blab_run_config_init(&c);
	c.pages = 0;
	CHECK_EQ(blab_run_start(&c, &r, err, sizeof(err)), BLAB_ELIMIT);
	c.pages = BLAB_RUN_MAX_PAGES;
	c.threads = 32;
	CHECK_EQ(blab_run_start(&c, &r, err, sizeof(err)), BLAB_ELIMIT);
	CHECK(strstr(err, "threads x pages") != NULL);
	blab_run_config_init(&c);
	c.workload = 7;
	CHECK_EQ(blab_run_start(&c, &r, err, sizeof(err)), BLAB_EINVAL);
	blab_run_config_init(&c);
	c.strategy.watermarks = 1;
	CHECK_EQ(blab_run_start(&c, &r, err, sizeof(err)), BLAB_ESTRATEGY);
	/* NULL run handles are harmless */
	CHECK_EQ(blab_run_finish(NULL, err, sizeof(err)), BLAB_EINVAL);
	CHECK_EQ(blab_run_sample(NULL, NULL, 0), 0);
	CHECK_EQ(blab_run_started(NULL), 0);
	CHECK_EQ(blab_run_pinned(NULL, 0, err, sizeof(err)), -1);
	blab_run_stop(NULL);
	blab_run_free(NULL);
}

/* a real zone shares nothing racy: no log, no sink, no watermarks */
static void test_real_zone_refusals(void)
{
	struct blab_zone_config cfg;
	struct blab_zone *z = NULL;
	uint64_t pfn;

	blab_zone_config_init(&cfg);
	cfg.pages = 4096;
	cfg.cpus = 2;
	cfg.machine = BLAB_MACHINE_REAL;
	CHECK_EQ(blab_zone_create(&cfg, &z), BLAB_EINVAL); /* the default config logs */
	cfg.log_mask = 0;
	cfg.log_capacity = 0;
	cfg.strategy.watermarks = 1;
	CHECK_EQ(blab_zone_create(&cfg, &z), BLAB_EINVAL);
	cfg.strategy.watermarks = 0;
	CHECK_EQ(blab_zone_create(&cfg, &z), 0);
	/* one thread may use it like any zone */
	CHECK_EQ(blab_alloc(z, 1, 0, BLAB_MT_MOVABLE, &pfn), 0);
	CHECK_EQ(blab_free(z, 1, pfn, 0), 0);
	CHECK_EQ(blab_alloc(z, 2, 0, BLAB_MT_MOVABLE, &pfn), BLAB_ECPU);
	CHECK_EQ(blab_check(z, NULL, 0), 0);
	blab_zone_destroy(z);
}

static void test_parse_threads(void)
{
	unsigned v[64];
	char err[160];

	CHECK_EQ(blab_run_parse_threads("4", 64, v, 64, err, sizeof(err)), 1);
	CHECK_EQ(v[0], 4);
	CHECK_EQ(blab_run_parse_threads("1..4", 64, v, 64, err, sizeof(err)), 4);
	CHECK_EQ(v[3], 4);
	CHECK_EQ(blab_run_parse_threads("1,2,8", 64, v, 64, err, sizeof(err)), 3);
	CHECK_EQ(v[2], 8);
	CHECK_EQ(blab_run_parse_threads("1..2,8..9", 64, v, 64, err, sizeof(err)), 4);
	CHECK_EQ(v[2], 8);
	CHECK_EQ(blab_run_parse_threads("", 64, v, 64, err, sizeof(err)), -1);
	CHECK_EQ(blab_run_parse_threads("0", 64, v, 64, err, sizeof(err)), -1);
	CHECK(strstr(err, "start at 1") != NULL);
	CHECK_EQ(blab_run_parse_threads("65", 64, v, 64, err, sizeof(err)), -1);
	CHECK(strstr(err, "over the limit") != NULL);
	CHECK_EQ(blab_run_parse_threads("99999999999999999999", 64, v, 64, err, sizeof(err)), -1);
	CHECK_EQ(blab_run_parse_threads("4..2", 64, v, 64, err, sizeof(err)), -1);
	CHECK(strstr(err, "backwards") != NULL);
	CHECK_EQ(blab_run_parse_threads("2,1", 64, v, 64, err, sizeof(err)), -1);
	CHECK(strstr(err, "must rise") != NULL);
	CHECK_EQ(blab_run_parse_threads("2,2", 64, v, 64, err, sizeof(err)), -1);
	CHECK_EQ(blab_run_parse_threads("1,", 64, v, 64, err, sizeof(err)), -1);
	CHECK_EQ(blab_run_parse_threads("1;2", 64, v, 64, err, sizeof(err)), -1);
	CHECK(strstr(err, "unexpected ';'") != NULL);
	CHECK_EQ(blab_run_parse_threads("1...3", 64, v, 64, err, sizeof(err)), -1);
	CHECK_EQ(blab_run_parse_threads("-1", 64, v, 64, err, sizeof(err)), -1);
	CHECK_EQ(blab_run_parse_threads("1..8", 64, v, 4, err, sizeof(err)), -1); /* cap */
	CHECK_EQ(blab_run_parse_threads(NULL, 64, v, 64, err, sizeof(err)), -1);
}

int main(void)
{
	test_parse_threads();
	test_config_checks();
	test_real_zone_refusals();
	test_runs();
	test_stop_cuts_the_round();
	return harness_report("test_real_run");
}
