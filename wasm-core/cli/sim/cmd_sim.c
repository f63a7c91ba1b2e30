/*
 * cmd_sim.c - `blab sim`: a workload on the deterministic model machine (docs/sim.md). The
 * arguments are parsed once and go to one front end: hackbench and --points have their own
 * files; the page allocator workloads' sweep over CPU counts and presets runs here, its runs
 * spread over --jobs threads, and is printed by sim_sweep_print.c in will-it-scale's CSV
 * spirit.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "blab.h"
#include "blab_hist.h"
#include "blab_sim.h"
#include "blab_zoneinfo.h"
#include "blab_model.h"
#include "../cli.h"
#include "../cli_io.h"
#include "../options.h"
#include "cmd_sim.h"
#include "sim_args.h"
#include "sim_common.h"
#include "sim_jobs.h"
#include "sim_progress.h"
#include "sim_sweep.h"

#define PARAMS_FILE_MAX MODEL_PARAMS_FILE_MAX

static int sim_help(FILE *f, const struct sim_args *a)
{
	sim_args_usage(f, a);
	fprintf(f,
"\n"
"Runs a benchmark on the model machine: virtual CPUs with cycle clocks, a cache model\n"
"(L1/L2 per core, LLC per socket, 2 sockets x 28 cores x 2 threads) and queued spinlocks.\n"
"The CPU with the lowest clock always runs next, so the same arguments give the same\n"
"numbers on every computer, natively and in the browser.\n"
"\n"
"page_fault1 (will-it-scale): each task maps --pages pages (default 32768 = 128 MB),\n"
"writes one byte to each (a page fault: an order-0 page from the per-cpu list, cleared),\n"
"adds them to the LRU under lru_lock 15 at a time, unmaps and frees them; --iterations\n"
"rounds (default 2; the first is a warm-up and not scored). --json adds the scored\n"
"rounds' own lock contention (scored_zone_lock_contention_bp, scored_lru_lock_...).\n"
"parallel_free (seed 004's parallel free): every task faults in --pages pages, onto the\n"
"LRU list 15 at a time (set-up), waits for all the others, then all unmap at once:\n"
"release_pages() takes 32 pages a time off the LRU under lru_lock, then frees them\n"
"through the per-cpu lists; score: pages freed per second. --json adds the free half's\n"
"own lock contention (free_zone_lock_contention_bp, free_lru_lock_contention_bp).\n"
"trunc (mmtests): each task reads --pages pages into the page cache, then truncates the\n"
"file (page-cache work, lru_lock per 15 pages, free through the per-cpu lists); score:\n"
"pages truncated per second. Seed 002 runs one task: --cpus 1.\n"
"Workload scores are summed over tasks, scored rounds only.\n"
"\n"
"stress_highalloc (mmtests): the zone (--pages pages) is filled with order-0 pages and\n"
"freed again except every 16th page in 3 pageblocks of 4; then cpu 0 makes --iterations\n"
"attempts at an order --hi-order block (default 9), --delay-us virtual microseconds apart\n"
"(default 1000), while the other CPUs fault and free order-0 pages. A failed attempt\n"
"compacts (--compact: none, merge = merge the merge-skipped pages only, full = merge and\n"
"migrate movable pages; default full) and tries once more. Reports success %%, cycles per\n"
"attempt, compaction work, and the unusable free space / fragmentation index of the\n"
"order when the attempts began.\n"
"\n"
"mixed (Lu RFC THP test): the zone is broken into order-0 pages first; half the CPUs run\n"
"page_fault1 (--pages, --iterations), the others allocate, clear and free order\n"
"--hi-order blocks for as long as those run, compacting per --compact (deferred after a\n"
"failure). Score: order-0 pages/s; also huge-page attempts, successes and cycles.\n"
"\n"
"Output, one row per CPU count:\n"
"  tasks       CPUs, one task each\n"
"  <preset>    score in the workload's unit (the header names it; page_fault1: pages\n"
"              faulted per second of virtual time), summed over tasks; a score below 1\n"
"              has three decimals\n"
"  linear      the 1-task score of the first preset times tasks (perfect scaling)\n"
"and per preset:\n"
"  zlock%%      time spent spinning on zone->lock, %% of all CPUs' time\n"
"  acq/page    zone->lock acquisitions per page faulted / freed / truncated\n"
"  hold/acq    cycles zone->lock is held per acquisition\n"
"  miss_locked cache misses (L2 or worse) while holding zone->lock\n"
"  pf_hit, pf_late, pf_wasted   buddy prefetches that landed in time, were still in\n"
"              flight when used, or were never used\n"
"  lru%%        time spent spinning on lru_lock\n"
"and in a second table, the memory controllers (one per socket):\n"
"  memGB/s     DRAM traffic of all sockets: line fills, clear_page()'s write-backs and\n"
"              reads for ownership, over the run's virtual time\n"
"  mem%%        the busiest socket's traffic, %% of what its controller can carry\n"
"  memwait%%    time spent waiting for memory beyond its idle latency, %% of all CPUs' time\n"
"  limit GB/s  what one socket's controller carries (channels x MT/s x 8 bytes x the\n"
"              sustained fraction: --params keys mem_channels, mem_mts, mem_sustained_pct)\n"
"  binds       the limit that binds: zone->lock, lru_lock or memory, whichever the CPUs\n"
"              waited on longest if that was 10 %% of their time or more, else none\n"
"On a terminal, stderr shows each run's progress (pages faulted, seconds, time to go).\n"
"\n"
"Options:\n");
	sim_args_options(f, a);
	fprintf(f,
"\n"
"Limits: cpus 1..256 (112 on the default 2 sockets), pages 1..%u, iterations 1..%u,\n"
"cpus x pages <= %u, cpus x pages x iterations <= %llu, and the run's host memory\n"
"(--mem-limit).\n"
"\n"
"example:\n"
"  blab sim --workload page_fault1 --cpus 1,2,4 --preset v4.16,v4.17 --pages 1024\n"
"\n"
"hackbench (slab objects allocated on one CPU, freed on another) has its own options:\n"
"  blab sim --workload hackbench --help\n",
		BLAB_SIM_MAX_PAGES, BLAB_SIM_MAX_ITERATIONS, BLAB_SIM_MAX_MAPPED,
		(unsigned long long)BLAB_SIM_MAX_WORK);
	return 0;
}

/* --params FILE: read at most PARAMS_FILE_MAX bytes and parse them strictly into *mp
 * (starting from the defaults). Errors name the file and the line. Returns 0 or -1. */
static int load_params(const char *path, struct model_params *mp)
{
	static char text[PARAMS_FILE_MAX];
	char err[200];
	size_t n;

	if (cli_read_file("blab sim: --params", path, text, sizeof(text), &n))
		return -1;
	if (model_params_parse(mp, text, n, err, sizeof(err))) {
		fprintf(stderr, "blab sim: --params: %s: %s\n", path, err);
		return -1;
	}
	return 0;
}

static int bad(const char *fmt, const char *arg)
{
	return sim_usage_error("blab sim --help", fmt, arg);
}

static int load_zoneinfo(const char *file, const char *name, int node, unsigned node_cpus,
			 struct sim_zone_src *zs)
{
	char why[200], *text;
	size_t len;
	int err;

	if (!(text = cli_read_zoneinfo("blab sim: --zoneinfo", file, &len)))
		return -1;
	err = blab_zoneinfo_parse(text, len, &zs->zi, why, sizeof(why));
	free(text);
	if (err) {
		fprintf(stderr, "blab sim: --zoneinfo %s: %s\n", file, why);
		return -1;
	}
	zs->zone = blab_zoneinfo_find(zs->zi, node, name);
	if (zs->zone < 0 || !zs->zi->zone[zs->zone].ncpus) {
		fprintf(stderr, "blab sim: --zoneinfo %s: %s zone '%s'%s; its zones:", file,
			zs->zone < 0 ? "no" : "an empty", name, node >= 0 ? " on that node" : "");
		for (uint32_t i = 0; i < zs->zi->nzones; i++)
			if (zs->zi->zone[i].ncpus)
				fprintf(stderr, " %s (node %u)", zs->zi->zone[i].name,
					zs->zi->zone[i].node);
		fprintf(stderr, "\n");
		blab_zoneinfo_free(zs->zi);
		zs->zi = NULL;
		return -1;
	}
	zs->node_cpus = blab_zoneinfo_node_cpus(zs->zi, node_cpus);
	return 0;
}

static void sweep_free(struct sim_sweep *sw)
{
	uint32_t n = sw->ncpus * sw->npresets;

	for (uint32_t k = 0; sw->cells && k < n; k++) {
		blab_hist_free(sw->cells[k].hist);
		blab_latency_free(sw->cells[k].lat);
	}
	free(sw->cells);
	sw->cells = NULL;
	blab_zoneinfo_free(sw->zs.zi);
	sw->zs.zi = NULL;
}

/* The sweep's machine (--params, --sockets), its CPU counts and presets, --zoneinfo's zone
 * and a cell per run. 0, or the exit status after saying why on stderr. */
static int sweep_init(struct sim_sweep *sw, struct sim_args *a, struct model_params *mp)
{
	uint32_t ncells = a->cpus.n * a->presets.n;
	char err[400];
	int oom = 0;

	sw->a = a;
	model_params_default(mp);
	if (a->params && load_params(a->params, mp))
		return 2;
	if (sim_args_machine(a, mp, a->params != NULL, err, sizeof(err)))
		return bad("%s", err);
	sw->sockets = a->sockets;
	sw->ncpus = a->cpus.n;
	for (uint32_t c = 0; c < sw->ncpus; c++)
		sw->cpus[c] = (uint32_t)a->cpus.v[c];
	sw->presets = a->presets.name;
	sw->npresets = a->presets.n;
	if (a->zoneinfo && load_zoneinfo(a->zoneinfo, a->zone,
					 a->zone_node_given ? (int)a->zone_node : -1,
					 (unsigned)a->zone_cpus, &sw->zs))
		return 2;
	sw->cells = calloc(ncells, sizeof(*sw->cells));
	for (uint32_t k = 0; sw->cells && a->histogram && k < ncells; k++)
		if (!(sw->cells[k].hist = blab_hist_new()))
			oom = 1;
	for (uint32_t k = 0; sw->cells && a->latency && k < ncells; k++)
		if (!(sw->cells[k].lat = blab_latency_new(sw->cpus[k / sw->npresets], mp->cpu_mhz)))
			oom = 1;
	if (!sw->cells || oom) {
		fprintf(stderr, "blab sim: out of memory\n");
		sweep_free(sw);
		return 1;
	}
	return 0;
}

/* what every run of the sweep shares; each cell sets its CPUs and preset */
static void sweep_config(struct blab_sim_config *base, const struct sim_args *a,
			 const struct model_params *mp)
{
	blab_sim_config_init(base);
	base->workload = a->workload_id;
	base->pages = (uint32_t)a->pages;
	base->iterations = (uint32_t)a->iterations;
	base->seed = a->seed;
	base->clear_lines = (uint32_t)a->clear_lines;
	base->cache_scale = (uint32_t)a->cache_scale;
	base->model = mp;
	base->hi_order = (uint32_t)a->hi_order;
	base->delay_us = (uint32_t)a->delay_us;
	base->compact = (uint32_t)a->compact;
	base->node_zones = (uint8_t)a->node_zones;
	base->out_of_step = (uint8_t)a->out_of_step;
	base->mem_limit = a->mem_limit;
}

/* the sweep's runs, each cell's in its own slot (--jobs runs several at once) */
struct sweep_run {
	const struct sim_sweep *sw;
	const struct blab_sim_config *base;
	FILE *ef;      /* --events (one run only) */
	size_t *order; /* the cells, in the order they start */
	struct sweep_err {
		int failed;
		char why[400];
	} *err;
};

/* run->order: the cells with the most tasks first (a run takes time in proportion to its
 * tasks, and the last to start should be the shortest), the table's order among equals */
static void order_by_tasks(struct sweep_run *run, size_t n)
{
	const struct sim_sweep *sw = run->sw;

	for (size_t k = 0; k < n; k++) {
		size_t j = k;
		uint32_t ck = sw->cpus[k / sw->npresets];
		for (; j > 0 && sw->cpus[run->order[j - 1] / sw->npresets] < ck; j--)
			run->order[j] = run->order[j - 1];
		run->order[j] = k;
	}
}

/* the run of one cell; a run has a whole model machine of its own, so cells on other
 * threads change nothing in it */
static void sweep_cell(size_t i, void *ctx)
{
	const struct sweep_run *run = ctx;
	const struct sim_sweep *sw = run->sw;
	const struct sim_args *a = sw->a;
	size_t k = run->order[i];
	const char *preset = sw->presets[k % sw->npresets];
	uint32_t cpus = sw->cpus[k / sw->npresets];
	struct blab_sim_config cfg = *run->base;
	struct sim_sink ss = {0};
	struct sim_progress sp = {0};

	cfg.cpus = cpus;
	blab_preset(preset, &cfg.strategy);
	if (sw->zs.zi)
		blab_zoneinfo_strategy(sw->zs.zi, (unsigned)sw->zs.zone, sw->zs.node_cpus,
				       &cfg.strategy);
	if (a->batch)
		cfg.strategy.batch = (uint32_t)a->batch;
	if (a->high)
		cfg.strategy.high = (uint32_t)a->high;
	if (a->pcp_batch_scale_given)
		cfg.strategy.pcp_batch_scale_max = (uint8_t)a->pcp_batch_scale_max;
	cfg.hist = sw->cells[k].hist;
	cfg.latency = sw->cells[k].lat;
	if (a->hash || run->ef)
		sim_sink_attach(&cfg, &ss, run->ef);
	/* one terminal line: only the runs of one thread show their progress */
	if (a->jobs <= 1)
		sim_progress_attach(&cfg, &sp, preset, cpus);
	if (blab_sim_run(&cfg, &sw->cells[k].r, run->err[k].why, sizeof(run->err[k].why)))
		run->err[k].failed = 1;
	if (a->jobs <= 1)
		sim_progress_done(&sp);
	sw->cells[k].hash = ss.hash;
	sim_sink_report(&ss);
}

/* every cell's run, on --jobs threads; 0, or 1 when one failed (each failure said) */
static int sweep_run_all(const struct sim_sweep *sw, const struct blab_sim_config *base,
			 FILE *ef)
{
	struct sweep_run run = {.sw = sw, .base = base, .ef = ef};
	size_t n = (size_t)sw->ncpus * sw->npresets;
	unsigned jobs = sw->a->jobs > 1 ? (unsigned)sw->a->jobs : 1;
	int ret = 0;

	run.order = malloc(n * sizeof(*run.order));
	run.err = calloc(n, sizeof(*run.err));
	if (!run.order || !run.err) {
		fprintf(stderr, "blab sim: out of memory\n");
		ret = 1;
	} else {
		order_by_tasks(&run, n);
		if (sim_jobs_run(n, jobs, sweep_cell, &run))
			fprintf(stderr, "blab sim: warning: not every --jobs thread started; the "
					"others ran their runs\n");
		for (size_t k = 0; k < n; k++)
			if (run.err[k].failed) {
				fprintf(stderr, "blab sim: %s, %u cpus: %s\n",
					sw->presets[k % sw->npresets], sw->cpus[k / sw->npresets],
					run.err[k].why);
				ret = 1;
			}
	}
	free(run.order);
	free(run.err);
	return ret;
}

/* linear: the first preset's 1-task score, run once more when the sweep has no 1-task row;
 * returns the page operations of that extra run (for --bench) */
static uint64_t sweep_linear(struct sim_sweep *sw, const struct blab_sim_config *base)
{
	for (uint32_t c = 0; c < sw->ncpus; c++)
		if (sw->cpus[c] == 1) {
			sw->linear1 = sw->cells[c * sw->npresets].r.score;
			sw->linear1_milli = sw->cells[c * sw->npresets].r.score_milli;
		}
	if (sw->a->workload_id != BLAB_WL_PAGE_FAULT1) {
		/* perfect scaling means nothing for a success rate */
		sw->linear1 = sw->linear1_milli = 0;
	} else if (!sw->linear1_milli) {
		struct blab_sim_config cfg = *base;
		struct blab_sim_result r1;
		char err[400];

		cfg.cpus = 1;
		blab_preset(sw->presets[0], &cfg.strategy);
		if (sw->a->pcp_batch_scale_given)
			cfg.strategy.pcp_batch_scale_max = (uint8_t)sw->a->pcp_batch_scale_max;
		if (blab_sim_run(&cfg, &r1, err, sizeof(err)) == 0) {
			sw->linear1 = r1.score;
			sw->linear1_milli = r1.score_milli;
			return 2 * r1.pages_total;
		}
	}
	return 0;
}

/* --bench: host time, not virtual time: on stderr so stdout stays deterministic */
static void sweep_bench(const struct sim_sweep *sw, const struct timespec *t0,
			const struct timespec *t1, uint64_t extra_ops)
{
	uint64_t ops = extra_ops;
	double s = (double)(t1->tv_sec - t0->tv_sec) + (double)(t1->tv_nsec - t0->tv_nsec) / 1e9;

	for (uint32_t k = 0; k < sw->ncpus * sw->npresets; k++)
		ops += 2 * sw->cells[k].r.pages_total;
	fprintf(stderr, "bench: %llu simulated page operations in %.3f s = %.0f page ops/s\n",
		(unsigned long long)ops, s, s > 0 ? (double)ops / s : 0.0);
}

/* page_fault1, parallel_free, trunc, stress_highalloc, mixed: a row per CPU count, a column
 * per preset */
static int sim_page_allocator(struct sim_args *a)
{
	struct sim_sweep sw = {0};
	struct model_params mp;
	struct blab_sim_config base;
	struct timespec t0, t1;
	uint64_t extra_ops;
	FILE *ef = NULL;
	int ret = sweep_init(&sw, a, &mp);

	if (ret)
		return ret;
	if (a->events && !(ef = sim_events_open(a->events))) {
		sweep_free(&sw);
		return 1;
	}
	sweep_config(&base, a, &mp);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	ret = sweep_run_all(&sw, &base, ef);
	if (ef && sim_events_close(ef, a->events))
		ret = 1;
	if (ret) {
		sweep_free(&sw);
		return ret;
	}
	extra_ops = sweep_linear(&sw, &base);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (a->bench)
		sweep_bench(&sw, &t0, &t1, extra_ops);
	if (a->json)
		sim_sweep_print_json(&sw);
	else
		sim_sweep_print_text(&sw);
	sweep_free(&sw);
	return 0;
}

int cmd_sim(int argc, char **argv)
{
	struct sim_args a;
	char err[400];
	int r = sim_args_parse(&a, argc, argv, err, sizeof(err));

	if (r == 1)
		return a.workload_id == BLAB_WL_HACKBENCH ? sim_hackbench_help(stdout, &a)
							  : sim_help(stdout, &a);
	if (r || cli_mem_limit(&a.mem_limit, err, sizeof(err)))
		return sim_usage_error(sim_args_help_ref(&a), "%s", err);
	if (a.points)
		return cmd_sim_points(&a);
	if (a.workload_id == BLAB_WL_HACKBENCH)
		return cmd_sim_hackbench(&a);
	return sim_page_allocator(&a);
}
