/*
 * sim_sweep_print.c - a page allocator sweep's output (sim_sweep.h): what each output shows of
 * a run is a table below (the --json fields, the text and CSV columns, the high-order
 * columns), with the workloads each field is for; the functions walk the tables. The bytes
 * are the contract of scripts and of the lessons' build, so the order of a table is the
 * order of the output.
 */
#include "sim_sweep.h"

#include <stdio.h>
#include <stdlib.h>

#include "sim_latency.h"
#include "sim_table.h"

#define PF1 SIM_WL(BLAB_WL_PAGE_FAULT1)
#define PFREE SIM_WL(BLAB_WL_PARALLEL_FREE)
#define NOT_PF1 (SIM_WL_ALL & ~PF1) /* the high-order counters: 0 but for their workloads */

/* a run's counters in --json, after its score; then per node with --node-zones, its hash,
 * high_max when it has one and its histogram */
static const struct sim_field run_json[] = {
	SIM_FIELD("zone_lock_contention_bp", zone_contention_bp, SIM_WL_ALL),
	SIM_FIELD("zone_acquisitions", zone_acq, SIM_WL_ALL),
	SIM_FIELD("pages", pages_total, SIM_WL_ALL),
	SIM_FIELD("zone_hold_cycles", zone_hold, SIM_WL_ALL),
	SIM_FIELD("misses_under_zone_lock", misses_zone_locked, SIM_WL_ALL),
	SIM_FIELD("prefetch_hit", pf_hit, SIM_WL_ALL),
	SIM_FIELD("prefetch_late", pf_late, SIM_WL_ALL),
	SIM_FIELD("prefetch_wasted", pf_wasted, SIM_WL_ALL),
	SIM_FIELD("lru_lock_contention_bp", lru_contention_bp, SIM_WL_ALL),
	SIM_FIELD("batch", batch, SIM_WL_ALL),
	SIM_FIELD("high", high, SIM_WL_ALL),
	SIM_FIELD("hi_attempts", hi_attempts, NOT_PF1),
	SIM_FIELD("hi_success", hi_success, NOT_PF1),
	SIM_FIELD("hi_cycles", hi_cycles, NOT_PF1),
	SIM_FIELD("compactions", compact.runs, NOT_PF1),
	SIM_FIELD("compact_merged", compact.merged, NOT_PF1),
	SIM_FIELD("compact_migrated", compact.migrated, NOT_PF1),
	SIM_FIELD("compact_scanned", compact.scanned, NOT_PF1),
	SIM_FIELD("merge_skipped", merge_skipped, NOT_PF1),
	SIM_FIELD("unusable_index", unusable_index, NOT_PF1),
	SIM_FIELD("extfrag_index", extfrag_index, NOT_PF1),
	/* page_fault1: the scored rounds alone */
	SIM_FIELD("scored_zone_lock_contention_bp", scored_zone_contention_bp, PF1),
	SIM_FIELD("scored_lru_lock_contention_bp", scored_lru_contention_bp, PF1),
	/* parallel_free: the free half alone */
	SIM_FIELD("free_zone_lock_contention_bp", free_zone_contention_bp, PFREE),
	SIM_FIELD("free_lru_lock_contention_bp", free_lru_contention_bp, PFREE),
	/* the memory controllers (docs/model.md, "Memory bandwidth"); "binds" follows by name */
	SIM_FIELD("mem_mbs", mem_mbs, SIM_WL_ALL),
	SIM_FIELD("mem_util_bp", mem_util_bp, SIM_WL_ALL),
	SIM_FIELD("mem_wait_bp", mem_wait_bp, SIM_WL_ALL),
	SIM_FIELD("mem_limit_mbs", mem_limit_mbs, SIM_WL_ALL),
	SIM_FIELD("mem_bytes", mem_bytes, SIM_WL_ALL),
	SIM_FIELD("mem_read_wait_cycles", mem_read_wait, SIM_WL_ALL),
	SIM_FIELD("mem_clear_wait_cycles", mem_clear_wait, SIM_WL_ALL),
};

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

/* an index in thousandths as the kernel prints it: 0.123, -1.000 */
static void index3(char *buf, size_t n, int32_t v)
{
	snprintf(buf, n, "%s%d.%03d", v < 0 ? "-" : "", (v < 0 ? -v : v) / 1000,
		 (v < 0 ? -v : v) % 1000);
}

static void zlock_pct(char *b, size_t n, const struct blab_sim_result *r)
{
	fix2(b, n, r->zone_contention_bp);
}

static void lru_pct(char *b, size_t n, const struct blab_sim_result *r)
{
	fix2(b, n, r->lru_contention_bp);
}

static void acq_per_page(char *b, size_t n, const struct blab_sim_result *r)
{
	fix3(b, n, r->zone_acq, r->pages_total);
}

static void hold_per_acq(char *b, size_t n, const struct blab_sim_result *r)
{
	snprintf(b, n, "%llu", (unsigned long long)(r->zone_acq ? r->zone_hold / r->zone_acq : 0));
}

/* a run's counters: a row each in the text table, columns after the scores in the CSV */
static const struct sim_column run_columns[] = {
	{"zlock%", 7, "zlock_pct", {0}, zlock_pct},
	{"acq/page", 9, "acq_per_page", {0}, acq_per_page},
	{"hold/acq", 9, "hold_per_acq", {0}, hold_per_acq},
	{"miss_locked", 11, "miss_locked", SIM_FIELD(NULL, misses_zone_locked, 0), NULL},
	{"pf_hit", 9, "pf_hit", SIM_FIELD(NULL, pf_hit, 0), NULL},
	{"pf_late", 9, "pf_late", SIM_FIELD(NULL, pf_late, 0), NULL},
	{"pf_wasted", 9, "pf_wasted", SIM_FIELD(NULL, pf_wasted, 0), NULL},
	{"lru%", 7, "lru_pct", {0}, lru_pct},
};
#define NRUN_COLUMNS (sizeof(run_columns) / sizeof(run_columns[0]))

static void mem_gbs(char *b, size_t n, const struct blab_sim_result *r)
{
	fix2(b, n, r->mem_mbs / 10u);
}

static void mem_pct(char *b, size_t n, const struct blab_sim_result *r)
{
	fix2(b, n, r->mem_util_bp);
}

static void memwait_pct(char *b, size_t n, const struct blab_sim_result *r)
{
	fix2(b, n, r->mem_wait_bp);
}

static void mem_limit(char *b, size_t n, const struct blab_sim_result *r)
{
	if (r->mem_limit_mbs)
		fix2(b, n, r->mem_limit_mbs / 10u);
	else
		snprintf(b, n, "none");
}

static void binds(char *b, size_t n, const struct blab_sim_result *r)
{
	snprintf(b, n, "%s", blab_sim_limit_name(r->binds));
}

/* the memory controllers and the limit that binds: a table of its own in the text, columns
 * after run_columns' in the CSV */
static const struct sim_column mem_columns[] = {
	{"memGB/s", 8, "mem_gbs", {0}, mem_gbs},
	{"mem%", 6, "mem_pct", {0}, mem_pct},
	{"memwait%", 8, "memwait_pct", {0}, memwait_pct},
	{"limit GB/s", 11, "mem_limit_gbs", {0}, mem_limit},
	{"binds", 11, "binds", {0}, binds},
};
#define NMEM_COLUMNS (sizeof(mem_columns) / sizeof(mem_columns[0]))

static void success_pct(char *b, size_t n, const struct blab_sim_result *r)
{
	fix2(b, n, r->hi_attempts ? r->hi_success * 10000 / r->hi_attempts : 0);
}

static void cycles_per_attempt(char *b, size_t n, const struct blab_sim_result *r)
{
	snprintf(b, n, "%llu",
		 (unsigned long long)(r->hi_attempts ? r->hi_cycles / r->hi_attempts : 0));
}

static void unusable(char *b, size_t n, const struct blab_sim_result *r)
{
	index3(b, n, r->unusable_index);
}

static void extfrag(char *b, size_t n, const struct blab_sim_result *r)
{
	index3(b, n, r->extfrag_index);
}

/* the high-order side of stress_highalloc and mixed (docs/skipmerge.md) */
static const struct sim_column hi_columns[] = {
	{"attempts", 8, "attempts", SIM_FIELD(NULL, hi_attempts, 0), NULL},
	{"success", 7, "success", SIM_FIELD(NULL, hi_success, 0), NULL},
	{"success%", 8, "success_pct", {0}, success_pct},
	{"cycles/alloc", 12, "cycles_per_attempt", {0}, cycles_per_attempt},
	{"compact", 8, "compactions", SIM_FIELD(NULL, compact.runs, 0), NULL},
	{"merged", 8, "merged", SIM_FIELD(NULL, compact.merged, 0), NULL},
	{"migrated", 8, "migrated", SIM_FIELD(NULL, compact.migrated, 0), NULL},
	{"scanned", 9, "scanned", SIM_FIELD(NULL, compact.scanned, 0), NULL},
	{"skipped", 9, "merge_skipped", SIM_FIELD(NULL, merge_skipped, 0), NULL},
	{"unusable", 8, "unusable_index", {0}, unusable},
	{"extfrag", 8, "extfrag_index", {0}, extfrag},
};
#define NHI_COLUMNS (sizeof(hi_columns) / sizeof(hi_columns[0]))

static const struct blab_sim_result *result(const struct sim_sweep *sw, uint32_t c, uint32_t p)
{
	return &sw->cells[c * sw->npresets + p].r;
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

static void print_hist_text(const struct sim_cell *x, const char *preset, uint32_t cpus)
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

static void print_hist_json(const struct sim_cell *x)
{
	size_t need = blab_hist_json(x->hist, NULL, 0);
	char *buf = malloc(need + 1);

	if (buf && blab_hist_json(x->hist, buf, need + 1) == need)
		printf(",\"histogram\":%s", buf);
	free(buf);
}

static void print_node_array(const char *name, const uint64_t *v, uint64_t n)
{
	printf(",\"%s\":[", name);
	for (uint32_t i = 0; i < n; i++)
		printf("%s%llu", i ? "," : "", (unsigned long long)v[i]);
	printf("]");
}

/* one run in --json: "PRESET":{...} */
static void print_run_json(const struct sim_sweep *sw, uint32_t c, uint32_t p)
{
	const struct sim_args *a = sw->a;
	const struct sim_cell *x = &sw->cells[c * sw->npresets + p];
	const struct blab_sim_result *r = &x->r;
	char sc[32];

	printf("%s\"%s\":{\"score\":%s", p ? "," : "", sw->presets[p],
	       score_text(sc, sizeof(sc), r->score, r->score_milli, 1));
	sim_fields_json(stdout, run_json, sizeof(run_json) / sizeof(run_json[0]), r,
			a->workload_id);
	printf(",\"binds\":\"%s\"", blab_sim_limit_name(r->binds));
	if (a->node_zones) {
		/* per node: zone->lock and lru_lock acquisitions */
		printf(",\"zones\":%u", r->zones);
		print_node_array("node_zone_acquisitions", r->node_zone_acq, sw->sockets);
		print_node_array("node_lru_acquisitions", r->node_lru_acq, sw->sockets);
	}
	if (a->hash)
		printf(",\"hash\":\"%016llx\"", (unsigned long long)x->hash);
	if (r->high_max)
		printf(",\"high_max\":%u", r->high_max);
	if (a->pcp_batch_scale_given)
		printf(",\"pcp_batch_scale_max\":%u", (unsigned)a->pcp_batch_scale_max);
	if (a->histogram)
		print_hist_json(x);
	if (x->lat)
		sim_latency_json(x->lat);
	printf("}");
}

void sim_sweep_print_json(const struct sim_sweep *sw)
{
	const struct sim_args *a = sw->a;
	char ln[32];

	printf("{\"workload\":\"%s\",\"score_unit\":\"%s\",", a->workload,
	       blab_sim_workload_unit(a->workload_id));
	cli_json(stdout, &a->p, a); /* the run's settings, from the option table */
	if (sw->zs.zi) {
		const struct blab_zoneinfo_zone *z = &sw->zs.zi->zone[sw->zs.zone];
		printf("\"zoneinfo\":{\"zone\":\"%s\",\"node\":%u,\"managed\":%llu,"
		       "\"low\":%llu,\"node_cpus\":%u},",
		       z->name, z->node, (unsigned long long)z->managed,
		       (unsigned long long)z->wmark_low, sw->zs.node_cpus);
	}
	printf("\"rows\":[");
	for (uint32_t c = 0; c < sw->ncpus; c++) {
		printf("%s{\"tasks\":%u,\"linear\":%s,\"presets\":{", c ? "," : "", sw->cpus[c],
		       score_text(ln, sizeof(ln), sw->linear1, sw->linear1_milli, sw->cpus[c]));
		for (uint32_t p = 0; p < sw->npresets; p++)
			print_run_json(sw, c, p);
		printf("}}");
	}
	printf("]}\n");
}

/* the text table's comment lines: what ran, and how to read its score */
static void print_title(const struct sim_sweep *sw)
{
	static const char *const cnames[] = {"none", "merge", "full"};
	const struct sim_args *a = sw->a;
	unsigned long long pages = a->pages, iterations = a->iterations, seed = a->seed;
	char scale[32] = "";

	if (a->workload_id == BLAB_WL_STRESS_HIGHALLOC) {
		printf("# stress_highalloc on the model machine: a zone of %llu pages plus pcp "
		       "room, %llu attempts at order %llu, %llu us apart, compact %s, seed "
		       "%llu\n# score: %% of attempts that got a block (linear: page_fault1 "
		       "only)\n",
		       pages, iterations, (unsigned long long)a->hi_order,
		       (unsigned long long)a->delay_us, cnames[a->compact], seed);
	} else {
		if (a->cache_scale > 1)
			snprintf(scale, sizeof(scale), ", caches / %llu",
				 (unsigned long long)a->cache_scale);
		printf("# %s on the model machine (%llu sockets%s%s): %llu pages/task, "
		       "%llu iteration%s%s, seed %llu; score in %s\n",
		       a->workload, (unsigned long long)sw->sockets,
		       a->node_zones ? ", a zone and an LRU list per node" : "", scale, pages,
		       iterations, iterations > 1 ? "s" : "",
		       iterations > 1 ? " (first not scored)" : "", seed,
		       blab_sim_workload_unit(a->workload_id));
	}
	if (sw->zs.zi) {
		const struct blab_zoneinfo_zone *z = &sw->zs.zi->zone[sw->zs.zone];
		printf("# pcp sizes: each preset's formulas for %s's zone %s (node %u: managed "
		       "%llu, low %llu, %u CPUs), not a 96 GB node's\n",
		       a->zoneinfo, z->name, z->node, (unsigned long long)z->managed,
		       (unsigned long long)z->wmark_low, sw->zs.node_cpus);
	}
	if (a->workload_id == BLAB_WL_MIXED)
		printf("# score: the page_fault1 half's order-0 pages/s; order %llu blocks, "
		       "compact %s, in the last table (linear: page_fault1 only)\n",
		       (unsigned long long)a->hi_order, cnames[a->compact]);
}

/* the scores: a row per CPU count, a column per preset and the linear one; the CSV's rows
 * carry each run's counters too */
static void print_scores(const struct sim_sweep *sw, int csv)
{
	char sc[32];

	if (csv) {
		printf("tasks");
		for (uint32_t p = 0; p < sw->npresets; p++)
			printf(",%s", sw->presets[p]);
		printf(",linear");
		for (uint32_t p = 0; p < sw->npresets; p++) {
			sim_columns_head(stdout, run_columns, NRUN_COLUMNS, 1, sw->presets[p]);
			sim_columns_head(stdout, mem_columns, NMEM_COLUMNS, 1, sw->presets[p]);
		}
		printf("\n");
	} else {
		print_title(sw);
		printf("%5s", "tasks");
		for (uint32_t p = 0; p < sw->npresets; p++)
			printf(" %14s", sw->presets[p]);
		printf(" %14s\n", "linear");
	}
	for (uint32_t c = 0; c < sw->ncpus; c++) {
		printf(csv ? "%u" : "%5u", sw->cpus[c]);
		for (uint32_t p = 0; p < sw->npresets; p++)
			printf(csv ? ",%s" : " %14s",
			       score_text(sc, sizeof(sc), result(sw, c, p)->score,
					  result(sw, c, p)->score_milli, 1));
		printf(csv ? ",%s" : " %14s",
		       score_text(sc, sizeof(sc), sw->linear1, sw->linear1_milli, sw->cpus[c]));
		for (uint32_t p = 0; csv && p < sw->npresets; p++) {
			sim_columns_row(stdout, run_columns, NRUN_COLUMNS, result(sw, c, p), 1);
			sim_columns_row(stdout, mem_columns, NMEM_COLUMNS, result(sw, c, p), 1);
		}
		printf("\n");
	}
}

/* a table of runs, a row per preset and CPU count: its preset, tasks and columns (the CSV
 * prints only the high-order table this way, and names its order in each row) */
static void print_runs_table(const struct sim_sweep *sw, const struct sim_column *cols,
			     size_t ncols, int csv)
{
	unsigned order = (unsigned)sw->a->hi_order;

	if (csv)
		printf("\npreset,tasks,order");
	else
		printf("\n%-15s %5s", "preset", "tasks");
	sim_columns_head(stdout, cols, ncols, csv, NULL);
	printf("\n");
	for (uint32_t p = 0; p < sw->npresets; p++)
		for (uint32_t c = 0; c < sw->ncpus; c++) {
			if (csv)
				printf("%s,%u,%u", sw->presets[p], sw->cpus[c], order);
			else
				printf("%-15s %5u", sw->presets[p], sw->cpus[c]);
			sim_columns_row(stdout, cols, ncols, result(sw, c, p), csv);
			printf("\n");
		}
}

/* --node-zones: how the nodes shared the work, which the sums above hide */
static void print_nodes(const struct sim_sweep *sw)
{
	printf("\n%-15s %5s %4s %10s %10s\n", "preset", "tasks", "node", "zone_acq", "lru_acq");
	for (uint32_t p = 0; p < sw->npresets; p++)
		for (uint32_t c = 0; c < sw->ncpus; c++)
			for (uint32_t n = 0; n < sw->sockets; n++) {
				const struct blab_sim_result *r = result(sw, c, p);
				if (!r->node_zone_acq[n] && !r->node_lru_acq[n])
					continue; /* no CPU on that node */
				printf("%-15s %5u %4u %10llu %10llu\n", sw->presets[p],
				       sw->cpus[c], n, (unsigned long long)r->node_zone_acq[n],
				       (unsigned long long)r->node_lru_acq[n]);
			}
}

void sim_sweep_print_text(const struct sim_sweep *sw)
{
	const struct sim_args *a = sw->a;
	int csv = a->csv;

	print_scores(sw, csv);
	if (!csv) {
		print_runs_table(sw, run_columns, NRUN_COLUMNS, 0);
		print_runs_table(sw, mem_columns, NMEM_COLUMNS, 0);
	}
	if (a->workload_id != BLAB_WL_PAGE_FAULT1) {
		print_runs_table(sw, hi_columns, NHI_COLUMNS, csv);
		if (!csv)
			printf("(order %u; cycles/alloc includes compaction; skipped = "
			       "merge-skipped pages and unusable / extfrag = the indices when the "
			       "attempts began)\n",
			       (unsigned)a->hi_order);
	}
	if (a->node_zones && !csv)
		print_nodes(sw);
	if (a->histogram && !csv)
		for (uint32_t p = 0; p < sw->npresets; p++)
			for (uint32_t c = 0; c < sw->ncpus; c++)
				print_hist_text(&sw->cells[c * sw->npresets + p], sw->presets[p],
						sw->cpus[c]);
	if (a->latency && !csv)
		for (uint32_t p = 0; p < sw->npresets; p++)
			for (uint32_t c = 0; c < sw->ncpus; c++)
				sim_latency_text(sw->cells[c * sw->npresets + p].lat, sw->presets[p],
						 sw->cpus[c]);
	if (a->hash)
		for (uint32_t c = 0; c < sw->ncpus; c++)
			for (uint32_t p = 0; p < sw->npresets; p++)
				printf("hash %s %u %016llx\n", sw->presets[p], sw->cpus[c],
				       (unsigned long long)sw->cells[c * sw->npresets + p].hash);
}
