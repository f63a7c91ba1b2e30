/*
 * page_fault1 on the model machine: determinism, the 2002 pcp's batching of zone->lock,
 * 4.17 neutral at one CPU, contention growing with CPUs, argument bounds. Small runs only.
 */
#include <string.h>

#include "blab_sim.h"
#include "common.h"

struct hsink {
	uint64_t h, n;
	uint32_t types[32];
	uint64_t last_time[BLAB_SIM_MAX_CPUS];
	int time_backwards;
};

static void sink(void *ctx, const struct blab_event *e)
{
	struct hsink *s = ctx;
	s->h = fnv1a_event(s->h, e);
	s->n++;
	if (e->type < 32)
		s->types[e->type]++;
	if (e->cpu < BLAB_SIM_MAX_CPUS) {
		/* a CPU's own records never go back in time (wasted prefetches are reported
		 * for the CPU that issued them, from another CPU's step: skip those) */
		if (e->type != BLAB_EV_PREFETCH_WASTED && e->time < s->last_time[e->cpu])
			s->time_backwards = 1;
		if (e->type != BLAB_EV_PREFETCH_WASTED)
			s->last_time[e->cpu] = e->time;
	}
}

/* what blab_sim_config.progress reported */
struct progress_seen {
	uint64_t calls, last_done, total;
	int backwards, over, total_changed;
};

static void progress(void *ctx, uint64_t done, uint64_t total)
{
	struct progress_seen *p = ctx;
	if (p->calls && total != p->total)
		p->total_changed = 1;
	if (done < p->last_done)
		p->backwards = 1;
	if (done > total)
		p->over = 1;
	p->calls++;
	p->last_done = done;
	p->total = total;
}

/* page_fault1, 2 rounds, the preset's strategy, a small and fast run */
static void small_run(struct blab_sim_config *c, const char *preset, uint32_t cpus,
		      uint32_t pages, uint64_t seed)
{
	blab_sim_config_init(c);
	c->cpus = cpus;
	c->pages = pages;
	c->iterations = 2;
	c->seed = seed;
	c->clear_lines = 4; /* fewer frame lines through the cache model: a faster test */
	CHECK_EQ(blab_preset(preset, &c->strategy), 0);
}

static int run(const char *preset, uint32_t cpus, uint32_t pages, uint64_t seed,
	       struct hsink *hs, struct blab_sim_result *r)
{
	struct blab_sim_config c;
	char err[160];
	int ret;

	small_run(&c, preset, cpus, pages, seed);
	if (hs) {
		memset(hs, 0, sizeof(*hs));
		hs->h = FNV1A_OFFSET;
		c.log_mask = BLAB_EVC_ALL;
		c.sink = sink;
		c.sink_ctx = hs;
	}
	ret = blab_sim_run(&c, r, err, sizeof(err));
	if (ret)
		fprintf(stderr, "blab_sim_run %s %u: %s\n", preset, cpus, err);
	return ret;
}

/* the struct page lines __free_one_page() read (the map lines, like struct zone's, are
 * charged but not logged: hooks.c) and the merges it made */
struct mapsink {
	uint32_t page_reads, merges;
};

static void map_sink(void *ctx, const struct blab_event *e)
{
	struct mapsink *s = ctx;
	if (e->type == BLAB_EV_MERGE)
		s->merges++;
	if (e->type == BLAB_EV_ACCESS && e->path == BLAB_PATH_FREE_ONE_PAGE && !(e->flags & 0x8000u))
		s->page_reads++;
}

/* v2.5.44 with and without its buddy bitmap (buddy_map): with it a free tests the map first
 * and reads a buddy's struct page only to merge with it, so fewer struct page reads for the
 * same kind of run */
static void buddy_map(void)
{
	struct mapsink with = {0, 0}, without = {0, 0};
	struct mapsink *sinks[2] = {&with, &without};

	for (int k = 0; k < 2; k++) {
		struct blab_sim_config c;
		struct blab_sim_result r;
		char err[160];

		small_run(&c, "v2.5.44", 4, 256, 1);
		CHECK_EQ(c.strategy.buddy_map, 1);
		c.strategy.buddy_map = (uint8_t)(k == 0);
		c.log_mask = BLAB_EVC_ALL;
		c.sink = map_sink;
		c.sink_ctx = sinks[k];
		CHECK_EQ(blab_sim_run(&c, &r, err, sizeof(err)), 0);
	}
	CHECK(with.merges > 0 && without.merges > 0);
	CHECK(with.page_reads > 0);
	CHECK(with.page_reads < without.page_reads);
}

int main(void)
{
	struct blab_sim_result r1, r2, a, b;
	struct hsink h1, h2;

	/* same arguments and seed: the same event stream, bit for bit */
	CHECK_EQ(run("v4.17", 4, 256, 7, &h1, &r1), 0);
	CHECK_EQ(run("v4.17", 4, 256, 7, &h2, &r2), 0);
	CHECK(h1.n > 1000);
	CHECK_EQ(h1.h == h2.h, 1);
	CHECK_EQ(h1.n, h2.n);
	CHECK_EQ(r1.score, r2.score);
	CHECK_EQ(h1.time_backwards, 0);
	CHECK(h1.types[BLAB_EV_ACCESS] > 0);
	CHECK(h1.types[BLAB_EV_PREFETCH] > 0);
	CHECK(h1.types[BLAB_EV_LOCK_ACQUIRE] == h1.types[BLAB_EV_LOCK_RELEASE]);
	CHECK_EQ(h1.types[BLAB_EV_LOCK_ACQUIRE], r1.zone_acq + r1.lru_acq);
	CHECK_EQ(r1.pages_total, 4 * 256 * 2);
	CHECK_EQ(r1.pages_scored, 4 * 256);
	/* logging does not change the run */
	CHECK_EQ(run("v4.17", 4, 256, 7, NULL, &a), 0);
	CHECK_EQ(a.score, r1.score);
	CHECK_EQ(a.cycles_total, r1.cycles_total);
	/* another seed, other start times */
	CHECK_EQ(run("v4.17", 4, 256, 8, &h2, &r2), 0);
	CHECK(h1.h != h2.h);

	/* 2.5.45's pcp takes zone->lock once per batch where 2.5.44 took it per page */
	CHECK_EQ(run("v2.5.44", 2, 256, 1, NULL, &a), 0);
	CHECK_EQ(run("v2.5.45", 2, 256, 1, NULL, &b), 0);
	CHECK_EQ(a.zone_acq, 2 * a.pages_total); /* one alloc + one free a page */
	CHECK(b.batch >= 8);
	{
		uint64_t ratio_x10 = a.zone_acq * 10 / (b.zone_acq ? b.zone_acq : 1);
		CHECK(ratio_x10 >= (uint64_t)b.batch * 10 / 2);
		CHECK(ratio_x10 <= (uint64_t)b.batch * 10 * 2);
	}

	/* the pcp counters a run's warning reads: 64 pages a task never bring a list to high
	 * (186), 1024 do; 2.5.44 has no lists at all */
	CHECK_EQ(run("v4.16", 4, 64, 1, NULL, &a), 0);
	CHECK_EQ(a.pcp_cpus_used, 4);
	CHECK_EQ(a.pcp_cpus_undrained, 4);
	CHECK_EQ(a.pcp_bulk_frees, 0);
	CHECK(a.pcp_refills >= 4);
	CHECK_EQ(a.pcp_cpus_unrefilled, 0);
	CHECK_EQ(run("v4.16", 4, 1024, 1, NULL, &b), 0);
	CHECK_EQ(b.pcp_cpus_used, 4);
	CHECK_EQ(b.pcp_cpus_undrained, 0);
	CHECK(b.pcp_bulk_frees > 4);
	/* a refill or a drain each takes zone->lock once */
	CHECK_EQ(b.pcp_refills + b.pcp_bulk_frees, b.zone_acq);
	CHECK_EQ(run("v2.5.44", 2, 64, 1, NULL, &a), 0);
	CHECK_EQ(a.pcp_cpus_used + a.pcp_refills + a.pcp_bulk_frees, 0);

	/* 4.17's pick outside + prefetch: about nothing at one CPU (seed 000: ~0) */
	CHECK_EQ(run("v4.16", 1, 512, 1, NULL, &a), 0);
	CHECK_EQ(run("v4.17", 1, 512, 1, NULL, &b), 0);
	CHECK(a.score > 0);
	CHECK(b.score * 100 >= a.score * 98 && b.score * 100 <= a.score * 102);
	CHECK_EQ(a.zone_contention_bp, 0);

	/* contention on zone->lock grows with CPUs */
	{
		uint32_t last = 0;
		const uint32_t ncpu[] = {1, 2, 4, 8};
		for (unsigned i = 0; i < 4; i++) {
			CHECK_EQ(run("v4.16", ncpu[i], 128, 1, NULL, &a), 0);
			if (i)
				CHECK(a.zone_contention_bp > last);
			last = a.zone_contention_bp;
		}
		CHECK(last > 0);
	}

	/* bounds */
	{
		struct blab_sim_config c;
		char err[160];
		blab_sim_config_init(&c);
		c.pages = 64;
		c.cpus = 0;
		CHECK_EQ(blab_sim_run(&c, &a, err, sizeof(err)), BLAB_ECPU);
		c.cpus = 113; /* the default machine has 112 */
		CHECK_EQ(blab_sim_run(&c, &a, err, sizeof(err)), BLAB_ECPU);
		c.cpus = 2;
		c.pages = BLAB_SIM_MAX_PAGES + 1;
		CHECK_EQ(blab_sim_run(&c, &a, err, sizeof(err)), BLAB_ELIMIT);
		c.pages = 64;
		c.iterations = 0;
		CHECK_EQ(blab_sim_run(&c, &a, err, sizeof(err)), BLAB_ELIMIT);
		c.iterations = 1;
		c.clear_lines = 65;
		CHECK_EQ(blab_sim_run(&c, &a, err, sizeof(err)), BLAB_EINVAL);
		c.clear_lines = 64;
		CHECK_EQ(blab_sim_run(&c, &a, err, sizeof(err)), 0);
		CHECK_EQ(a.pages_scored, 2 * 64); /* one iteration: nothing is warm-up */
		CHECK_EQ(blab_sim_run(NULL, &a, err, sizeof(err)), BLAB_EINVAL);
		c.workload = 0;
		CHECK_EQ(blab_sim_run(&c, &a, err, sizeof(err)), BLAB_EINVAL);
		CHECK(strstr(err, "unknown workload") != NULL);
	}

	/* the progress callback: called as the run goes, pages faulted only growing and never
	 * past the run's total; the run is the same with it as without it */
	{
		struct blab_sim_config c;
		struct progress_seen ps = {0};
		char err[160];
		blab_sim_config_init(&c);
		c.cpus = 8;
		c.pages = 4096;
		c.clear_lines = 4;
		CHECK_EQ(blab_preset("v4.17", &c.strategy), 0);
		CHECK_EQ(blab_sim_run(&c, &a, err, sizeof(err)), 0);
		c.progress = progress;
		c.progress_ctx = &ps;
		CHECK_EQ(blab_sim_run(&c, &b, err, sizeof(err)), 0);
		CHECK_EQ(memcmp(&a, &b, sizeof(a)), 0);
		CHECK(ps.calls >= 2);
		CHECK_EQ(ps.total, 8u * 4096u * 2u);
		CHECK(ps.last_done > 0 && ps.last_done <= ps.total);
		CHECK_EQ(ps.backwards, 0);
		CHECK_EQ(ps.over, 0);
		CHECK_EQ(ps.total_changed, 0);
		/* the cancel flag: read only, so a 0 changes nothing; set, the run stops with
		 * BLAB_ECANCELED and frees what it had (ASan's leak check holds it to that) */
		{
			volatile uint32_t flag = 0;
			c.progress = NULL;
			c.cancel = &flag;
			CHECK_EQ(blab_sim_run(&c, &b, err, sizeof(err)), 0);
			CHECK_EQ(memcmp(&a, &b, sizeof(a)), 0);
			flag = 1;
			CHECK_EQ(blab_sim_run(&c, &b, err, sizeof(err)), BLAB_ECANCELED);
			CHECK(strstr(err, "cancelled") != NULL);
		}
	}

	/* the workload table: every listed name maps to an id that maps back, with a unit */
	{
		uint32_t n = blab_sim_workload_count();
		CHECK(n >= 1);
		for (uint32_t i = 0; i < n; i++) {
			const char *name = blab_sim_workload_name(i);
			uint32_t id = blab_sim_workload_id(name);
			CHECK(name != NULL && id != 0);
			CHECK(blab_sim_workload_unit(id) != NULL);
		}
		CHECK(blab_sim_workload_name(n) == NULL);
		CHECK_EQ(blab_sim_workload_id("no_such_workload"), 0);
		CHECK_EQ(blab_sim_workload_id(NULL), 0);
		CHECK(blab_sim_workload_unit(0) == NULL);
		CHECK_EQ(blab_sim_workload_id("page_fault1"), BLAB_WL_PAGE_FAULT1);
	}
	buddy_map();
	return harness_report("test_sim");
}
