/*
 * cmd_sim.c - `blab sim`: a workload on the deterministic model machine, swept over CPU
 * counts and presets, printed in will-it-scale's CSV spirit (docs/sim.md).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blab.h"
#include "blab_sim.h"
#include "cli.h"

#define MAX_LIST 32
#define EVENTS_FILE_MAX BLAB_MAX_LOG_EVENTS

static int sim_help(FILE *f)
{
	fprintf(f,
"usage: blab sim --workload page_fault1 [--cpus 1,2,4,8] [--preset v4.16,v4.17,v5.18]\n"
"                [--seed N] [--pages N] [--iterations N] [--clear-lines N]\n"
"                [--csv | --json] [--hash] [--events FILE]\n"
"\n"
"Runs a benchmark on the model machine: virtual CPUs with cycle clocks, a cache model\n"
"(L1/L2 per core, LLC per socket, 2 sockets x 28 cores x 2 threads) and queued spinlocks.\n"
"The CPU with the lowest clock always runs next, so the same arguments give the same\n"
"numbers on every computer, natively and in the browser.\n"
"\n"
"page_fault1 (will-it-scale): each task maps --pages pages (default 32768 = 128 MB),\n"
"writes one byte to each (a page fault: an order-0 page from the per-cpu list, cleared),\n"
"adds them to the LRU under lru_lock 15 at a time, unmaps and frees them; --iterations\n"
"rounds (default 2; the first is a warm-up and not scored).\n"
"\n"
"Output, one row per CPU count:\n"
"  tasks       CPUs, one task each\n"
"  <preset>    score: pages faulted per second of virtual time, summed over tasks\n"
"  linear      the 1-task score of the first preset times tasks (perfect scaling)\n"
"and per preset:\n"
"  zlock%%      time spent spinning on zone->lock, %% of all CPUs' time\n"
"  acq/page    zone->lock acquisitions per page faulted\n"
"  hold/acq    cycles zone->lock is held per acquisition\n"
"  miss_locked cache misses (L2 or worse) while holding zone->lock\n"
"  pf_hit, pf_late, pf_wasted   buddy prefetches that landed in time, were still in\n"
"              flight when used, or were never used\n"
"  lru%%        time spent spinning on lru_lock\n"
"\n"
"  --hash         also print a 64-bit FNV-1a digest of each run's event records\n"
"  --events FILE  write the run's 32-byte event records (docs/events.md) to FILE;\n"
"                 one --cpus value and one --preset only; at most %u records\n"
"  --clear-lines  frame lines clear_page() passes through the cache model (default 64)\n"
"\n"
"Limits: cpus 1..112 (the modelled machine), pages 1..%u, iterations 1..%u,\n"
"cpus x pages <= %u, cpus x pages x iterations <= %llu.\n"
"\n"
"example:\n"
"  blab sim --workload page_fault1 --cpus 1,2,4 --preset v4.16,v4.17 --pages 1024\n"
"\n"
"hackbench (slab objects allocated on one CPU, freed on another) has its own options:\n"
"  blab sim --workload hackbench --help\n",
		EVENTS_FILE_MAX, BLAB_SIM_MAX_PAGES, BLAB_SIM_MAX_ITERATIONS, BLAB_SIM_MAX_MAPPED,
		(unsigned long long)BLAB_SIM_MAX_WORK);
	return 0;
}

static int bad(const char *fmt, const char *arg)
{
	fprintf(stderr, "blab sim: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\n(blab sim --help for the options)\n");
	return 2;
}

static int parse_u64(const char *s, uint64_t max, uint64_t *out)
{
	char *end;
	unsigned long long v;
	if (!s || !*s || *s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end || v > max)
		return -1;
	*out = v;
	return 0;
}

struct sink_state {
	uint64_t hash;
	FILE *f;
	uint64_t written, dropped;
};

static void sink(void *ctx, const struct blab_event *e)
{
	struct sink_state *s = ctx;
	const unsigned char *b = (const unsigned char *)e;
	for (size_t i = 0; i < sizeof(*e); i++) {
		s->hash ^= b[i];
		s->hash *= 0x100000001b3ull;
	}
	if (s->f) {
		if (s->written < EVENTS_FILE_MAX) {
			fwrite(e, sizeof(*e), 1, s->f);
			s->written++;
		} else {
			s->dropped++;
		}
	}
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

struct cell {
	struct blab_sim_result r;
	uint64_t hash;
};

int cmd_sim(int argc, char **argv)
{
	const char *workload = NULL, *events = NULL;
	uint32_t workload_id = 0;
	char cpus_arg[256] = "1,2,4,8", preset_arg[256] = "v4.16,v4.17,v5.18";
	uint32_t cpus[MAX_LIST], ncpus = 0;
	char presets[MAX_LIST][32];
	uint32_t npresets = 0;
	uint64_t seed = 1, pages = 32768, iterations = 2, clear_lines = 64;
	int csv = 0, json = 0, hash = 0;
	struct cell *cells = NULL;
	uint64_t linear1 = 0;
	int ret = 0;

	/* hackbench has its own options and table (cmd_sim_hackbench.c) */
	for (int i = 1; i + 1 < argc; i++)
		if (!strcmp(argv[i], "--workload") && !strcmp(argv[i + 1], "hackbench"))
			return cmd_sim_hackbench(argc, argv);
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;
		uint64_t x;
		if (!strcmp(a, "--help") || !strcmp(a, "-h"))
			return sim_help(stdout);
		if (!strcmp(a, "--csv")) {
			csv = 1;
			continue;
		}
		if (!strcmp(a, "--json")) {
			json = 1;
			continue;
		}
		if (!strcmp(a, "--hash")) {
			hash = 1;
			continue;
		}
		if (strcmp(a, "--workload") && strcmp(a, "--cpus") && strcmp(a, "--preset") &&
		    strcmp(a, "--seed") && strcmp(a, "--pages") && strcmp(a, "--iterations") &&
		    strcmp(a, "--events") && strcmp(a, "--clear-lines"))
			return bad("unknown option '%s'", a);
		if (!v)
			return bad("%s needs a value", a);
		i++;
		if (!strcmp(a, "--workload")) {
			workload = v;
		} else if (!strcmp(a, "--events")) {
			events = v;
		} else if (!strcmp(a, "--cpus")) {
			if (strlen(v) >= sizeof(cpus_arg))
				return bad("--cpus list too long: %s", v);
			strcpy(cpus_arg, v);
		} else if (!strcmp(a, "--preset")) {
			if (strlen(v) >= sizeof(preset_arg))
				return bad("--preset list too long: %s", v);
			strcpy(preset_arg, v);
		} else if (!strcmp(a, "--seed")) {
			if (parse_u64(v, UINT64_MAX, &seed))
				return bad("--seed wants a decimal number, not '%s'", v);
		} else if (!strcmp(a, "--pages")) {
			if (parse_u64(v, BLAB_SIM_MAX_PAGES, &x) || x < 1)
				return bad("--pages wants 1..1048576, not '%s'", v);
			pages = x;
		} else if (!strcmp(a, "--iterations")) {
			if (parse_u64(v, BLAB_SIM_MAX_ITERATIONS, &x) || x < 1)
				return bad("--iterations wants 1..1000, not '%s'", v);
			iterations = x;
		} else if (!strcmp(a, "--clear-lines")) {
			if (parse_u64(v, 64, &x) || x < 1)
				return bad("--clear-lines wants 1..64, not '%s'", v);
			clear_lines = x;
		}
	}
	{
		char names[256] = "";
		for (uint32_t w = 0; w < blab_sim_workload_count(); w++)
			snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s",
				 w ? ", " : "", blab_sim_workload_name(w));
		if (!workload)
			return bad("--workload is required (%s)", names);
		workload_id = blab_sim_workload_id(workload);
		if (!workload_id) {
			char what[400];
			snprintf(what, sizeof(what), "'%.100s' (%s)", workload, names);
			return bad("unknown workload %s", what);
		}
	}
	if (csv && json)
		return bad("%s", "--csv and --json exclude each other");

	/* lists */
	for (char *tok = strtok(cpus_arg, ","); tok; tok = strtok(NULL, ",")) {
		uint64_t x;
		if (ncpus == MAX_LIST)
			return bad("%s", "--cpus: at most 32 values");
		if (parse_u64(tok, BLAB_SIM_MAX_CPUS, &x) || x < 1)
			return bad("--cpus wants numbers 1..256, not '%s'", tok);
		cpus[ncpus++] = (uint32_t)x;
	}
	for (char *tok = strtok(preset_arg, ","); tok; tok = strtok(NULL, ",")) {
		struct blab_strategy s;
		if (npresets == MAX_LIST)
			return bad("%s", "--preset: at most 32 names");
		if (strlen(tok) >= sizeof(presets[0]) || blab_preset(tok, &s))
			return bad("unknown preset '%s' (blab presets lists them)", tok);
		strcpy(presets[npresets++], tok);
	}
	if (!ncpus || !npresets)
		return bad("%s", "--cpus and --preset need at least one value");
	if (events && (ncpus != 1 || npresets != 1))
		return bad("%s", "--events needs one --cpus value and one --preset");
	for (uint32_t c = 0; c < ncpus; c++) {
		char n[16];
		snprintf(n, sizeof(n), "%u", cpus[c]);
		if (cpus[c] > 112)
			return bad("--cpus %s: the modelled machine has 112 CPUs", n);
		if ((uint64_t)cpus[c] * pages > BLAB_SIM_MAX_MAPPED)
			return bad("--cpus %s x --pages is over the 4194304-page limit", n);
		if ((uint64_t)cpus[c] * pages * iterations > BLAB_SIM_MAX_WORK)
			return bad("--cpus %s x --pages x --iterations is over the 67108864 limit",
				   n);
	}

	cells = calloc((size_t)ncpus * npresets, sizeof(*cells));
	if (!cells) {
		fprintf(stderr, "blab sim: out of memory\n");
		return 1;
	}
	FILE *ef = NULL;
	if (events) {
		ef = fopen(events, "wb");
		if (!ef) {
			fprintf(stderr, "blab sim: cannot write %s: %s\n", events, strerror(errno));
			free(cells);
			return 1;
		}
	}
	for (uint32_t c = 0; c < ncpus && !ret; c++)
		for (uint32_t p = 0; p < npresets && !ret; p++) {
			struct blab_sim_config cfg;
			struct sink_state ss = {0xcbf29ce484222325ull, ef, 0, 0};
			char err[160];
			int e;
			blab_sim_config_init(&cfg);
			cfg.workload = workload_id;
			cfg.cpus = cpus[c];
			cfg.pages = (uint32_t)pages;
			cfg.iterations = (uint32_t)iterations;
			cfg.seed = seed;
			cfg.clear_lines = (uint32_t)clear_lines;
			blab_preset(presets[p], &cfg.strategy);
			if (hash || ef) {
				cfg.log_mask = BLAB_EVC_ALL;
				cfg.sink = sink;
				cfg.sink_ctx = &ss;
			}
			e = blab_sim_run(&cfg, &cells[c * npresets + p].r, err, sizeof(err));
			if (e) {
				fprintf(stderr, "blab sim: %s, %u cpus: %s\n", presets[p], cpus[c], err);
				ret = 1;
			}
			cells[c * npresets + p].hash = ss.hash;
			if (ss.dropped)
				fprintf(stderr,
					"blab sim: --events: kept the first %llu records, %llu more "
					"not written\n",
					(unsigned long long)ss.written, (unsigned long long)ss.dropped);
		}
	if (ef && fclose(ef)) {
		fprintf(stderr, "blab sim: cannot write %s\n", events);
		ret = 1;
	}
	if (ret) {
		free(cells);
		return ret;
	}
	/* linear: the first preset's 1-task score */
	for (uint32_t c = 0; c < ncpus; c++)
		if (cpus[c] == 1)
			linear1 = cells[c * npresets].r.score;
	if (!linear1) {
		struct blab_sim_config cfg;
		struct blab_sim_result r1;
		char err[160];
		blab_sim_config_init(&cfg);
		cfg.workload = workload_id;
		cfg.cpus = 1;
		cfg.pages = (uint32_t)pages;
		cfg.iterations = (uint32_t)iterations;
		cfg.seed = seed;
		cfg.clear_lines = (uint32_t)clear_lines;
		blab_preset(presets[0], &cfg.strategy);
		if (blab_sim_run(&cfg, &r1, err, sizeof(err)) == 0)
			linear1 = r1.score;
	}

	if (json) {
		printf("{\"workload\":\"%s\",\"score_unit\":\"%s\",\"pages\":%llu,"
		       "\"iterations\":%llu,\"seed\":%llu,\"rows\":[",
		       workload, blab_sim_workload_unit(workload_id), (unsigned long long)pages,
		       (unsigned long long)iterations,
		       (unsigned long long)seed);
		for (uint32_t c = 0; c < ncpus; c++) {
			printf("%s{\"tasks\":%u,\"linear\":%llu,\"presets\":{", c ? "," : "", cpus[c],
			       (unsigned long long)(linear1 * cpus[c]));
			for (uint32_t p = 0; p < npresets; p++) {
				const struct cell *x = &cells[c * npresets + p];
				const struct blab_sim_result *r = &x->r;
				printf("%s\"%s\":{\"score\":%llu,\"zone_lock_contention_bp\":%u,"
				       "\"zone_acquisitions\":%llu,\"pages\":%llu,"
				       "\"zone_hold_cycles\":%llu,\"misses_under_zone_lock\":%llu,"
				       "\"prefetch_hit\":%llu,\"prefetch_late\":%llu,"
				       "\"prefetch_wasted\":%llu,\"lru_lock_contention_bp\":%u,"
				       "\"batch\":%u,\"high\":%u",
				       p ? "," : "", presets[p], (unsigned long long)r->score,
				       r->zone_contention_bp, (unsigned long long)r->zone_acq,
				       (unsigned long long)r->pages_total,
				       (unsigned long long)r->zone_hold,
				       (unsigned long long)r->misses_zone_locked,
				       (unsigned long long)r->pf_hit, (unsigned long long)r->pf_late,
				       (unsigned long long)r->pf_wasted, r->lru_contention_bp, r->batch,
				       r->high);
				if (hash)
					printf(",\"hash\":\"%016llx\"", (unsigned long long)x->hash);
				printf("}");
			}
			printf("}}");
		}
		printf("]}\n");
		free(cells);
		return 0;
	}

	/* header */
	if (csv) {
		printf("tasks");
		for (uint32_t p = 0; p < npresets; p++)
			printf(",%s", presets[p]);
		printf(",linear");
		for (uint32_t p = 0; p < npresets; p++)
			printf(",%s_zlock_pct,%s_acq_per_page,%s_hold_per_acq,%s_miss_locked,"
			       "%s_pf_hit,%s_pf_late,%s_pf_wasted,%s_lru_pct",
			       presets[p], presets[p], presets[p], presets[p], presets[p], presets[p],
			       presets[p], presets[p]);
		printf("\n");
	} else {
		printf("# %s on the model machine: %llu pages/task, %llu iteration%s%s, "
		       "seed %llu\n",
		       workload, (unsigned long long)pages, (unsigned long long)iterations,
		       iterations > 1 ? "s" : "", iterations > 1 ? " (first not scored)" : "",
		       (unsigned long long)seed);
		printf("%5s", "tasks");
		for (uint32_t p = 0; p < npresets; p++)
			printf(" %14s", presets[p]);
		printf(" %14s\n", "linear");
	}
	for (uint32_t c = 0; c < ncpus; c++) {
		printf(csv ? "%u" : "%5u", cpus[c]);
		for (uint32_t p = 0; p < npresets; p++)
			printf(csv ? ",%llu" : " %14llu",
			       (unsigned long long)cells[c * npresets + p].r.score);
		printf(csv ? ",%llu" : " %14llu", (unsigned long long)(linear1 * cpus[c]));
		if (csv) {
			for (uint32_t p = 0; p < npresets; p++) {
				const struct blab_sim_result *r = &cells[c * npresets + p].r;
				char zl[32], ll[32], apg[32];
				fix2(zl, sizeof(zl), r->zone_contention_bp);
				fix2(ll, sizeof(ll), r->lru_contention_bp);
				fix3(apg, sizeof(apg), r->zone_acq, r->pages_total);
				printf(",%s,%s,%llu,%llu,%llu,%llu,%llu,%s", zl, apg,
				       (unsigned long long)(r->zone_acq ? r->zone_hold / r->zone_acq : 0),
				       (unsigned long long)r->misses_zone_locked,
				       (unsigned long long)r->pf_hit, (unsigned long long)r->pf_late,
				       (unsigned long long)r->pf_wasted, ll);
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
	}
	if (hash)
		for (uint32_t c = 0; c < ncpus; c++)
			for (uint32_t p = 0; p < npresets; p++)
				printf("hash %s %u %016llx\n", presets[p], cpus[c],
				       (unsigned long long)cells[c * npresets + p].hash);
	free(cells);
	return 0;
}
