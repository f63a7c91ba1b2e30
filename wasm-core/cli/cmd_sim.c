/*
 * cmd_sim.c - `blab sim`: a workload on the deterministic model machine, swept over CPU
 * counts and presets, printed in will-it-scale's CSV spirit (docs/sim.md).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "blab.h"
#include "blab_hist.h"
#include "blab_sim.h"
#include "blab_zoneinfo.h"
#include "cli.h"
#include "blab_model.h"
#include "cli_io.h"
#include "options.h"
#include "sim_args.h"
#include "sim_common.h"
#include "sim_jobs.h"
#include "sim_progress.h"

#define PARAMS_FILE_MAX MODEL_PARAMS_FILE_MAX

static int sim_page_allocator(struct sim_args *a);

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

/* a.bc from a value in hundredths */
static void fix2(char *buf, size_t n, uint64_t hundredths)
{
	snprintf(buf, n, "%llu.%02llu", (unsigned long long)(hundredths / 100),
		 (unsigned long long)(hundredths % 100));
}

static void fix3(char *buf, size_t n, uint64_t num, uint64_t den)
{
	uint64_t t = den ? num * 1000 / den : 0;
	snprintf(buf, n, "%llu.%03llu", (unsigned long long)(t / 1000),
		 (unsigned long long)(t % 1000));
}

/* a score times k: whole when the score is 1 or more (as it always printed), else from its
 * thousandths with three decimals, so that 0.4 pages/s does not print as 0 */
static const char *score_text(char *buf, size_t n, uint64_t score, uint64_t milli, uint64_t k)
{
	if (score || !milli)
		snprintf(buf, n, "%llu", (unsigned long long)(score * k));
	else
		snprintf(buf, n, "%llu.%03llu", (unsigned long long)(milli * k / 1000),
			 (unsigned long long)(milli * k % 1000));
	return buf;
}

struct cell {
	struct blab_sim_result r;
	uint64_t hash;
	struct blab_hist *hist; /* --histogram */
};

/* --zoneinfo: the file's zone, whose sizes every run of the sweep takes */
struct zone_src {
	struct blab_zoneinfo *zi;
	int zone;
	unsigned node_cpus;
};

static int load_zoneinfo(const char *file, const char *name, int node, unsigned node_cpus,
			 struct zone_src *zs)
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

static void free_cells(struct cell *cells, uint32_t n)
{
	for (uint32_t k = 0; cells && k < n; k++)
		blab_hist_free(cells[k].hist);
	free(cells);
}

static void print_hist_text(const struct cell *x, const char *preset, uint32_t cpus)
{
	size_t need = blab_hist_text(x->hist, "  ", NULL, 0);
	char *buf = malloc(need + 1);

	printf("\nhistogram %s, %u tasks (pages per refill / drain, x how many)\n", preset, cpus);
	if (buf) {
		blab_hist_text(x->hist, "  ", buf, need + 1);
		fputs(buf, stdout);
		free(buf);
	}
}

static void print_hist_json(const struct cell *x)
{
	size_t need = blab_hist_json(x->hist, NULL, 0);
	char *buf = malloc(need + 1);

	if (buf && blab_hist_json(x->hist, buf, need + 1) == need)
		printf(",\"histogram\":%s", buf);
	free(buf);
}

/* an index in thousandths as the kernel prints it: 0.123, -1.000 */
static void index3(char *buf, size_t n, int32_t v)
{
	snprintf(buf, n, "%s%d.%03d", v < 0 ? "-" : "", (v < 0 ? -v : v) / 1000,
		 (v < 0 ? -v : v) % 1000);
}

/* the memory controllers: traffic, the busiest socket's share of its limit, the CPUs' wait on
 * memory, and which limit binds (docs/model.md, "Memory bandwidth") */
static void print_memory(const struct cell *cells, const uint32_t *cpus, uint32_t ncpus,
			 const char *const *presets, uint32_t npresets)
{
	printf("\n%-15s %5s %8s %6s %8s %11s  %s\n", "preset", "tasks", "memGB/s", "mem%",
	       "memwait%", "limit GB/s", "binds");
	for (uint32_t p = 0; p < npresets; p++)
		for (uint32_t c = 0; c < ncpus; c++) {
			const struct blab_sim_result *r = &cells[c * npresets + p].r;
			char gbs[32], mu[32], mw[32], lim[32];
			fix2(gbs, sizeof(gbs), r->mem_mbs / 10u);
			fix2(mu, sizeof(mu), r->mem_util_bp);
			fix2(mw, sizeof(mw), r->mem_wait_bp);
			if (r->mem_limit_mbs)
				fix2(lim, sizeof(lim), r->mem_limit_mbs / 10u);
			else
				snprintf(lim, sizeof(lim), "none");
			printf("%-15s %5u %8s %6s %8s %11s  %s\n", presets[p], cpus[c], gbs, mu, mw,
			       lim, blab_sim_limit_name(r->binds));
		}
}

/* the high-order side of stress_highalloc and mixed (docs/skipmerge.md) */
static void print_highalloc(const struct cell *cells, const uint32_t *cpus, uint32_t ncpus,
			    const char *const *presets, uint32_t npresets, unsigned order, int csv)
{
	if (csv)
		printf("\npreset,tasks,order,attempts,success,success_pct,cycles_per_attempt,"
		       "compactions,merged,migrated,scanned,merge_skipped,unusable_index,"
		       "extfrag_index\n");
	else
		printf("\n%-15s %5s %8s %7s %8s %12s %8s %8s %8s %9s %9s %8s %8s\n", "preset",
		       "tasks", "attempts", "success", "success%", "cycles/alloc", "compact",
		       "merged", "migrated", "scanned", "skipped", "unusable", "extfrag");
	for (uint32_t p = 0; p < npresets; p++)
		for (uint32_t c = 0; c < ncpus; c++) {
			const struct blab_sim_result *r = &cells[c * npresets + p].r;
			char pct[32], un[16], ex[16];
			fix2(pct, sizeof(pct),
			     r->hi_attempts ? r->hi_success * 10000 / r->hi_attempts : 0);
			index3(un, sizeof(un), r->unusable_index);
			index3(ex, sizeof(ex), r->extfrag_index);
			unsigned long long att = r->hi_attempts, ok = r->hi_success;
			unsigned long long per = att ? r->hi_cycles / att : 0;
			unsigned long long cr = r->compact.runs, cm = r->compact.merged;
			unsigned long long cmig = r->compact.migrated, cs = r->compact.scanned;
			if (csv)
				printf("%s,%u,%u,%llu,%llu,%s,%llu,%llu,%llu,%llu,%llu,%u,%s,%s\n",
				       presets[p], cpus[c], order, att, ok, pct, per, cr, cm, cmig, cs,
				       r->merge_skipped, un, ex);
			else
				printf("%-15s %5u %8llu %7llu %8s %12llu %8llu %8llu %8llu %9llu %9u "
				       "%8s %8s\n",
				       presets[p], cpus[c], att, ok, pct, per, cr, cm, cmig, cs,
				       r->merge_skipped, un, ex);
		}
	if (!csv)
		printf("(order %u; cycles/alloc includes compaction; skipped = merge-skipped pages "
		       "and unusable / extfrag = the indices when the attempts began)\n",
		       order);
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

/* one sweep's runs, each cell's in its own slot (--jobs runs several at once) */
struct sweep {
	const struct sim_args *a;
	const struct blab_sim_config *base; /* what every run shares */
	struct cell *cells;                 /* [cpus][preset] */
	const uint32_t *cpus;
	uint32_t npresets;
	FILE *ef;      /* --events (one run only) */
	const struct zone_src *zs; /* --zoneinfo: the pcp sizes of a real zone; zi NULL without */
	size_t *order; /* the cells, in the order they start */
	struct sweep_err {
		int failed;
		char why[400];
	} *err;
};

/* sw->order: the cells with the most tasks first (a run takes time in proportion to its
 * tasks, and the last to start should be the shortest), the table's order among equals */
static void order_by_tasks(struct sweep *sw, size_t n)
{
	for (size_t k = 0; k < n; k++) {
		size_t j = k;
		uint32_t ck = sw->cpus[k / sw->npresets];
		for (; j > 0 && sw->cpus[sw->order[j - 1] / sw->npresets] < ck; j--)
			sw->order[j] = sw->order[j - 1];
		sw->order[j] = k;
	}
}

/* the run of one cell; a run has a whole model machine of its own, so cells on other
 * threads change nothing in it */
static void sweep_cell(size_t i, void *ctx)
{
	const struct sweep *sw = ctx;
	size_t k = sw->order[i];
	const char *preset = sw->a->presets.name[k % sw->npresets];
	uint32_t cpus = sw->cpus[k / sw->npresets];
	struct blab_sim_config cfg = *sw->base;
	struct sim_sink ss = {0};
	struct sim_progress sp = {0};

	cfg.cpus = cpus;
	blab_preset(preset, &cfg.strategy);
	if (sw->zs->zi)
		blab_zoneinfo_strategy(sw->zs->zi, (unsigned)sw->zs->zone, sw->zs->node_cpus,
				       &cfg.strategy);
	if (sw->a->batch)
		cfg.strategy.batch = (uint32_t)sw->a->batch;
	if (sw->a->high)
		cfg.strategy.high = (uint32_t)sw->a->high;
	cfg.hist = sw->cells[k].hist;
	if (sw->a->hash || sw->ef)
		sim_sink_attach(&cfg, &ss, sw->ef);
	/* one terminal line: only the runs of one thread show their progress */
	if (sw->a->jobs <= 1)
		sim_progress_attach(&cfg, &sp, preset, cpus);
	if (blab_sim_run(&cfg, &sw->cells[k].r, sw->err[k].why, sizeof(sw->err[k].why)))
		sw->err[k].failed = 1;
	if (sw->a->jobs <= 1)
		sim_progress_done(&sp);
	sw->cells[k].hash = ss.hash;
	sim_sink_report(&ss);
}

/* what the output of a sweep is made from */
struct sim_report {
	const struct sim_args *a;
	const struct cell *cells; /* [cpus][preset] */
	const struct zone_src *zs;
	const uint32_t *cpus;
	uint32_t ncpus, npresets;
	uint64_t linear1, linear1_milli, sockets;
};

/* --json: the sweep as one JSON document */
static void print_json(const struct sim_report *o)
{
	const struct sim_args *a = o->a;
	const struct cell *cells = o->cells;
	const struct zone_src zs = *o->zs;
	const uint32_t *cpus = o->cpus;
	uint32_t ncpus = o->ncpus, npresets = o->npresets, workload_id = a->workload_id;
	const char *const *presets = a->presets.name;
	const char *workload = a->workload;
	uint64_t linear1 = o->linear1, linear1_milli = o->linear1_milli, sockets = o->sockets;
	int hash = a->hash, histogram = a->histogram, node_zones = a->node_zones;
	char sc[32], ln[32];
	printf("{\"workload\":\"%s\",\"score_unit\":\"%s\",", workload,
	       blab_sim_workload_unit(workload_id));
	cli_json(stdout, &a->p, a); /* the run's settings, from the option table */
	if (zs.zi) {
		const struct blab_zoneinfo_zone *z = &zs.zi->zone[zs.zone];
		printf("\"zoneinfo\":{\"zone\":\"%s\",\"node\":%u,\"managed\":%llu,"
		       "\"low\":%llu,\"node_cpus\":%u},",
		       z->name, z->node, (unsigned long long)z->managed,
		       (unsigned long long)z->wmark_low, zs.node_cpus);
	}
	printf("\"rows\":[");
	for (uint32_t c = 0; c < ncpus; c++) {
		printf("%s{\"tasks\":%u,\"linear\":%s,\"presets\":{", c ? "," : "", cpus[c],
		       score_text(ln, sizeof(ln), linear1, linear1_milli, cpus[c]));
		for (uint32_t p = 0; p < npresets; p++) {
			const struct cell *x = &cells[c * npresets + p];
			const struct blab_sim_result *r = &x->r;
			printf("%s\"%s\":{\"score\":%s,\"zone_lock_contention_bp\":%u,"
			       "\"zone_acquisitions\":%llu,\"pages\":%llu,"
			       "\"zone_hold_cycles\":%llu,\"misses_under_zone_lock\":%llu,"
			       "\"prefetch_hit\":%llu,\"prefetch_late\":%llu,"
			       "\"prefetch_wasted\":%llu,\"lru_lock_contention_bp\":%u,"
			       "\"batch\":%u,\"high\":%u,\"mem_mbs\":%llu,\"mem_util_bp\":%u,"
			       "\"mem_wait_bp\":%u,\"mem_limit_mbs\":%llu,\"mem_bytes\":%llu,"
			       "\"mem_read_wait_cycles\":%llu,\"mem_clear_wait_cycles\":%llu,"
			       "\"binds\":\"%s\"",
			       p ? "," : "", presets[p],
			       score_text(sc, sizeof(sc), r->score, r->score_milli, 1),
			       r->zone_contention_bp, (unsigned long long)r->zone_acq,
			       (unsigned long long)r->pages_total,
			       (unsigned long long)r->zone_hold,
			       (unsigned long long)r->misses_zone_locked,
			       (unsigned long long)r->pf_hit, (unsigned long long)r->pf_late,
			       (unsigned long long)r->pf_wasted, r->lru_contention_bp, r->batch,
			       r->high, (unsigned long long)r->mem_mbs, r->mem_util_bp, r->mem_wait_bp,
			       (unsigned long long)r->mem_limit_mbs, (unsigned long long)r->mem_bytes,
			       (unsigned long long)r->mem_read_wait,
			       (unsigned long long)r->mem_clear_wait, blab_sim_limit_name(r->binds));
			if (workload_id != BLAB_WL_PAGE_FAULT1)
				printf(",\"hi_attempts\":%llu,\"hi_success\":%llu,"
				       "\"hi_cycles\":%llu,\"compactions\":%llu,"
				       "\"compact_merged\":%llu,\"compact_migrated\":%llu,"
				       "\"compact_scanned\":%llu,\"merge_skipped\":%u,"
				       "\"unusable_index\":%d,\"extfrag_index\":%d",
				       (unsigned long long)r->hi_attempts,
				       (unsigned long long)r->hi_success,
				       (unsigned long long)r->hi_cycles,
				       (unsigned long long)r->compact.runs,
				       (unsigned long long)r->compact.merged,
				       (unsigned long long)r->compact.migrated,
				       (unsigned long long)r->compact.scanned, r->merge_skipped,
				       r->unusable_index, r->extfrag_index);
			if (workload_id == BLAB_WL_PAGE_FAULT1) /* the scored rounds alone */
				printf(",\"scored_zone_lock_contention_bp\":%u,"
				       "\"scored_lru_lock_contention_bp\":%u",
				       r->scored_zone_contention_bp, r->scored_lru_contention_bp);
			if (workload_id == BLAB_WL_PARALLEL_FREE) /* the free half alone */
				printf(",\"free_zone_lock_contention_bp\":%u,"
				       "\"free_lru_lock_contention_bp\":%u",
				       r->free_zone_contention_bp, r->free_lru_contention_bp);
			if (node_zones) {
				/* per node: zone->lock and lru_lock acquisitions */
				printf(",\"zones\":%u,\"node_zone_acquisitions\":[", r->zones);
				for (uint32_t n = 0; n < sockets; n++)
					printf("%s%llu", n ? "," : "",
					       (unsigned long long)r->node_zone_acq[n]);
				printf("],\"node_lru_acquisitions\":[");
				for (uint32_t n = 0; n < sockets; n++)
					printf("%s%llu", n ? "," : "",
					       (unsigned long long)r->node_lru_acq[n]);
				printf("]");
			}
			if (hash)
				printf(",\"hash\":\"%016llx\"", (unsigned long long)x->hash);
			if (r->high_max)
				printf(",\"high_max\":%u", r->high_max);
			if (histogram)
				print_hist_json(x);
			printf("}");
		}
		printf("}}");
	}
	printf("]}\n");
}

/* the sweep as a table (text, or --csv) */
static void print_text(const struct sim_report *o)
{
	const struct sim_args *a = o->a;
	const struct cell *cells = o->cells;
	const struct zone_src zs = *o->zs;
	const uint32_t *cpus = o->cpus;
	uint32_t ncpus = o->ncpus, npresets = o->npresets, workload_id = a->workload_id;
	const char *const *presets = a->presets.name;
	const char *workload = a->workload;
	uint64_t linear1 = o->linear1, linear1_milli = o->linear1_milli, sockets = o->sockets;
	int hash = a->hash, histogram = a->histogram, node_zones = a->node_zones;
	char sc[32], ln[32];
	uint64_t seed = a->seed, pages = a->pages, iterations = a->iterations;
	uint64_t hi_order = a->hi_order, delay_us = a->delay_us, compact = a->compact;
	uint64_t cache_scale = a->cache_scale;
	int csv = a->csv;

	/* header */
	if (csv) {
		printf("tasks");
		for (uint32_t p = 0; p < npresets; p++)
			printf(",%s", presets[p]);
		printf(",linear");
		for (uint32_t p = 0; p < npresets; p++)
			printf(",%s_zlock_pct,%s_acq_per_page,%s_hold_per_acq,%s_miss_locked,"
			       "%s_pf_hit,%s_pf_late,%s_pf_wasted,%s_lru_pct,%s_mem_gbs,%s_mem_pct,"
			       "%s_memwait_pct,%s_binds",
			       presets[p], presets[p], presets[p], presets[p], presets[p], presets[p],
			       presets[p], presets[p], presets[p], presets[p], presets[p], presets[p]);
		printf("\n");
	} else {
		static const char *const cnames[] = {"none", "merge", "full"};
		if (workload_id == BLAB_WL_STRESS_HIGHALLOC)
			printf("# stress_highalloc on the model machine: a zone of %llu pages plus pcp "
			       "room, %llu attempts at order %llu, %llu us apart, compact %s, seed "
			       "%llu\n# score: %% of attempts that got a block (linear: page_fault1 "
			       "only)\n",
			       (unsigned long long)pages, (unsigned long long)iterations,
			       (unsigned long long)hi_order, (unsigned long long)delay_us,
			       cnames[compact], (unsigned long long)seed);
		else
			printf("# %s on the model machine (%llu sockets%s%s%s): %llu pages/task, "
			       "%llu iteration%s%s, seed %llu; score in %s\n",
			       workload, (unsigned long long)sockets,
			       node_zones ? ", a zone and an LRU list per node" : "",
			       cache_scale > 1 ? ", caches / " : "",
			       cache_scale > 1 ? (cache_scale == 2 ? "2" : cache_scale == 4 ? "4" :
						  cache_scale == 8 ? "8" : cache_scale == 16 ? "16" :
						  cache_scale == 32 ? "32" : "64") : "",
			       (unsigned long long)pages, (unsigned long long)iterations,
			       iterations > 1 ? "s" : "", iterations > 1 ? " (first not scored)" : "",
			       (unsigned long long)seed, blab_sim_workload_unit(workload_id));
		if (zs.zi)
			printf("# pcp sizes: each preset's formulas for %s's zone %s (node %u: managed "
			       "%llu, low %llu, %u CPUs), not a 96 GB node's\n",
			       a->zoneinfo, zs.zi->zone[zs.zone].name, zs.zi->zone[zs.zone].node,
			       (unsigned long long)zs.zi->zone[zs.zone].managed,
			       (unsigned long long)zs.zi->zone[zs.zone].wmark_low, zs.node_cpus);
		if (workload_id == BLAB_WL_MIXED)
			printf("# score: the page_fault1 half's order-0 pages/s; order %llu blocks, "
			       "compact %s, in the last table (linear: page_fault1 only)\n",
			       (unsigned long long)hi_order, cnames[compact]);
		printf("%5s", "tasks");
		for (uint32_t p = 0; p < npresets; p++)
			printf(" %14s", presets[p]);
		printf(" %14s\n", "linear");
	}
	for (uint32_t c = 0; c < ncpus; c++) {
		printf(csv ? "%u" : "%5u", cpus[c]);
		for (uint32_t p = 0; p < npresets; p++)
			printf(csv ? ",%s" : " %14s",
			       score_text(sc, sizeof(sc), cells[c * npresets + p].r.score,
					  cells[c * npresets + p].r.score_milli, 1));
		printf(csv ? ",%s" : " %14s",
		       score_text(ln, sizeof(ln), linear1, linear1_milli, cpus[c]));
		if (csv) {
			for (uint32_t p = 0; p < npresets; p++) {
				const struct blab_sim_result *r = &cells[c * npresets + p].r;
				char zl[32], ll[32], apg[32];
				fix2(zl, sizeof(zl), r->zone_contention_bp);
				fix2(ll, sizeof(ll), r->lru_contention_bp);
				fix3(apg, sizeof(apg), r->zone_acq, r->pages_total);
				char gbs[32], mu[32], mw[32];
				fix2(gbs, sizeof(gbs), r->mem_mbs / 10u);
				fix2(mu, sizeof(mu), r->mem_util_bp);
				fix2(mw, sizeof(mw), r->mem_wait_bp);
				printf(",%s,%s,%llu,%llu,%llu,%llu,%llu,%s,%s,%s,%s,%s", zl, apg,
				       (unsigned long long)(r->zone_acq ? r->zone_hold / r->zone_acq : 0),
				       (unsigned long long)r->misses_zone_locked,
				       (unsigned long long)r->pf_hit, (unsigned long long)r->pf_late,
				       (unsigned long long)r->pf_wasted, ll, gbs, mu, mw,
				       blab_sim_limit_name(r->binds));
			}
		}
		printf("\n");
	}
	if (!csv) {
		printf("\n%-15s %5s %7s %9s %9s %11s %9s %9s %9s %7s\n", "preset", "tasks", "zlock%",
		       "acq/page", "hold/acq", "miss_locked", "pf_hit", "pf_late", "pf_wasted",
		       "lru%");
		for (uint32_t p = 0; p < npresets; p++)
			for (uint32_t c = 0; c < ncpus; c++) {
				const struct blab_sim_result *r = &cells[c * npresets + p].r;
				char zl[32], ll[32], apg[32];
				fix2(zl, sizeof(zl), r->zone_contention_bp);
				fix2(ll, sizeof(ll), r->lru_contention_bp);
				fix3(apg, sizeof(apg), r->zone_acq, r->pages_total);
				printf("%-15s %5u %7s %9s %9llu %11llu %9llu %9llu %9llu %7s\n",
				       presets[p], cpus[c], zl, apg,
				       (unsigned long long)(r->zone_acq ? r->zone_hold / r->zone_acq : 0),
				       (unsigned long long)r->misses_zone_locked,
				       (unsigned long long)r->pf_hit, (unsigned long long)r->pf_late,
				       (unsigned long long)r->pf_wasted, ll);
			}
		print_memory(cells, cpus, ncpus, presets, npresets);
	}
	if (workload_id != BLAB_WL_PAGE_FAULT1)
		print_highalloc(cells, cpus, ncpus, presets, npresets, (unsigned)hi_order, csv);
	if (node_zones && !csv) {
		/* the sums above hide how the nodes shared the work */
		printf("\n%-15s %5s %4s %10s %10s\n", "preset", "tasks", "node", "zone_acq",
		       "lru_acq");
		for (uint32_t p = 0; p < npresets; p++)
			for (uint32_t c = 0; c < ncpus; c++)
				for (uint32_t n = 0; n < sockets; n++) {
					const struct blab_sim_result *r = &cells[c * npresets + p].r;
					if (!r->node_zone_acq[n] && !r->node_lru_acq[n])
						continue; /* no CPU on that node */
					printf("%-15s %5u %4u %10llu %10llu\n", presets[p], cpus[c], n,
					       (unsigned long long)r->node_zone_acq[n],
					       (unsigned long long)r->node_lru_acq[n]);
				}
	}
	if (histogram && !csv)
		for (uint32_t p = 0; p < npresets; p++)
			for (uint32_t c = 0; c < ncpus; c++)
				print_hist_text(&cells[c * npresets + p], presets[p], cpus[c]);
	if (hash)
		for (uint32_t c = 0; c < ncpus; c++)
			for (uint32_t p = 0; p < npresets; p++)
				printf("hash %s %u %016llx\n", presets[p], cpus[c],
				       (unsigned long long)cells[c * npresets + p].hash);
}

/* page_fault1, parallel_free, trunc, stress_highalloc, mixed: a row per CPU count, a column
 * per preset */
static int sim_page_allocator(struct sim_args *a)
{
	const char *events = a->events;
	uint32_t workload_id = a->workload_id;
	uint32_t cpus[CLI_LIST_MAX], ncpus = a->cpus.n, npresets = a->presets.n;
	const char *const *presets = a->presets.name;
	uint64_t seed = a->seed, pages = a->pages, iterations = a->iterations;
	uint64_t hi_order = a->hi_order, delay_us = a->delay_us, compact = a->compact;
	uint64_t cache_scale = a->cache_scale, sockets;
	int json = a->json, node_zones = a->node_zones;
	int histogram = a->histogram;
	uint32_t ncells = ncpus * npresets;
	struct zone_src zs = {0};
	struct model_params mp;
	struct timespec t0, t1;
	struct cell *cells = NULL;
	uint64_t linear1 = 0, linear1_milli = 0, extra_ops = 0;
	char err[400];
	int ret = 0;

	model_params_default(&mp);
	if (a->params && load_params(a->params, &mp))
		return 2;
	if (sim_args_machine(a, &mp, a->params != NULL, err, sizeof(err)))
		return bad("%s", err);
	sockets = a->sockets;
	for (uint32_t c = 0; c < ncpus; c++)
		cpus[c] = (uint32_t)a->cpus.v[c];

	if (a->zoneinfo && load_zoneinfo(a->zoneinfo, a->zone,
					 a->zone_node_given ? (int)a->zone_node : -1,
					 (unsigned)a->zone_cpus, &zs))
		return 2;
	cells = calloc(ncells, sizeof(*cells));
	for (uint32_t k = 0; cells && histogram && k < ncells; k++)
		if (!(cells[k].hist = blab_hist_new()))
			ret = 1;
	if (!cells || ret) {
		fprintf(stderr, "blab sim: out of memory\n");
		free_cells(cells, ncells);
		blab_zoneinfo_free(zs.zi);
		return 1;
	}
	FILE *ef = NULL;
	if (events && !(ef = sim_events_open(events))) {
		free_cells(cells, ncells);
		blab_zoneinfo_free(zs.zi);
		return 1;
	}
	/* what every run of this sweep shares; each cell sets its CPUs and preset */
	struct blab_sim_config base;
	blab_sim_config_init(&base);
	base.workload = workload_id;
	base.pages = (uint32_t)pages;
	base.iterations = (uint32_t)iterations;
	base.seed = seed;
	base.clear_lines = (uint32_t)a->clear_lines;
	base.cache_scale = (uint32_t)cache_scale;
	base.model = &mp;
	base.hi_order = (uint32_t)hi_order;
	base.delay_us = (uint32_t)delay_us;
	base.compact = (uint32_t)compact;
	base.node_zones = (uint8_t)node_zones;
	base.out_of_step = (uint8_t)a->out_of_step;
	base.mem_limit = a->mem_limit;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	{
		struct sweep sw = {.a = a, .base = &base, .cells = cells, .cpus = cpus,
				   .npresets = npresets, .ef = ef, .zs = &zs};
		size_t n = (size_t)ncpus * npresets;
		sw.order = malloc(n * sizeof(*sw.order));
		sw.err = calloc(n, sizeof(*sw.err));
		if (!sw.order || !sw.err) {
			fprintf(stderr, "blab sim: out of memory\n");
			ret = 1;
		} else {
			order_by_tasks(&sw, n);
			if (sim_jobs_run(n, a->jobs > 1 ? (unsigned)a->jobs : 1, sweep_cell, &sw))
				fprintf(stderr, "blab sim: warning: not every --jobs thread started; the "
						"others ran their runs\n");
			for (size_t k = 0; k < n; k++)
				if (sw.err[k].failed) {
					fprintf(stderr, "blab sim: %s, %u cpus: %s\n",
						presets[k % npresets], cpus[k / npresets], sw.err[k].why);
					ret = 1;
				}
		}
		free(sw.order);
		free(sw.err);
	}
	if (ef && sim_events_close(ef, events))
		ret = 1;
	if (ret) {
		free_cells(cells, ncells);
		blab_zoneinfo_free(zs.zi);
		return ret;
	}
	/* linear: the first preset's 1-task score */
	for (uint32_t c = 0; c < ncpus; c++)
		if (cpus[c] == 1) {
			linear1 = cells[c * npresets].r.score;
			linear1_milli = cells[c * npresets].r.score_milli;
		}
	if (workload_id != BLAB_WL_PAGE_FAULT1)
		linear1 = linear1_milli = 0; /* perfect scaling means nothing for a success rate */
	else if (!linear1_milli) {
		struct blab_sim_config cfg = base;
		struct blab_sim_result r1;

		cfg.cpus = 1;
		blab_preset(presets[0], &cfg.strategy);
		if (blab_sim_run(&cfg, &r1, err, sizeof(err)) == 0) {
			linear1 = r1.score;
			linear1_milli = r1.score_milli;
			extra_ops = 2 * r1.pages_total;
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (a->bench) {
		/* host time, not virtual time: on stderr so stdout stays deterministic */
		uint64_t ops = extra_ops;
		double s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
		for (uint32_t k = 0; k < ncpus * npresets; k++)
			ops += 2 * cells[k].r.pages_total;
		fprintf(stderr, "bench: %llu simulated page operations in %.3f s = %.0f page ops/s\n",
			(unsigned long long)ops, s, s > 0 ? (double)ops / s : 0.0);
	}

	{
		struct sim_report o = {.a = a, .cells = cells, .zs = &zs, .cpus = cpus,
				       .ncpus = ncpus, .npresets = npresets, .linear1 = linear1,
				       .linear1_milli = linear1_milli, .sockets = sockets};
		(json ? print_json : print_text)(&o);
	}
	free_cells(cells, ncells);
	blab_zoneinfo_free(zs.zi);
	return 0;
}
