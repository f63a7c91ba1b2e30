/*
 * cmd_sim_hackbench.c - `blab sim --workload hackbench`: messages allocated from a slab
 * cache on one CPU and freed on another, swept over group counts with SLUB's freelist
 * prefetch off and on (docs/slab.md). cmd_sim.c hands the arguments over.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blab.h"
#include "blab_sim.h"
#include "blab_model.h"
#include "../options.h"
#include "cmd_sim.h"
#include "sim_args.h"
#include "sim_common.h"
#include "sim_table.h"

int sim_hackbench_help(FILE *f, const struct sim_args *a)
{
	sim_args_usage(f, a);
	fprintf(f,
"\n"
"hackbench on the model machine: each group is a sender and a receiver; every message is\n"
"an object of a slab cache, allocated (kmem_cache_alloc) on the sender's CPU and freed\n"
"(kmem_cache_free) on the receiver's. Group g's sender runs on CPU g and its receiver on\n"
"CPU g+1 (the last group's on CPU 0): every free is a remote free, onto the slab's own\n"
"freelist, written from another CPU's cache. --same-cpu puts each receiver on its\n"
"sender's CPU: the control, where every free is a fast-path free.\n"
"--slub-prefetch says whether the cache prefetches the next object's free pointer after a\n"
"fast-path allocation (Eric Dumazet, 2011; hackbench 50 process 4000: 20.71 s -> 18.13 s).\n"
"\n"
"Options:\n");
	sim_args_options(f, a);
	fprintf(f,
"\n"
"Output: per group count, the virtual time until the last message was read (hackbench's\n"
"\"Time:\") and messages per second for each prefetch setting, and the change; then the\n"
"slab counters of each run: fast / slow path allocations, refills from the cpu slab's own\n"
"freelist, slabs from the partial list and new slabs, fast / slow path frees and how many\n"
"were remote, slabs given back to the page allocator, and the freelist prefetches that\n"
"landed in time (pf_hit), were still in flight (pf_late) or were never used (pf_wasted).\n"
"\n"
"Limits: groups x loops <= %llu.\n"
"\n"
"example:\n"
"  blab sim --workload hackbench --groups 4 --loops 2000\n"
"  blab sim --workload hackbench --groups 4 --loops 2000 --same-cpu\n",
		(unsigned long long)BLAB_HACKBENCH_MAX_WORK);
	return 0;
}

struct hb_cell {
	struct blab_sim_result r;
	uint64_t hash;
};

/* the runs of one hackbench sweep: a group count x a prefetch setting each */
struct hb_sweep {
	const struct sim_args *a;
	uint32_t groups[CLI_LIST_MAX], ngroups;
	uint32_t pf[2], npf;   /* SLUB's freelist prefetch: 0 off, 1 on */
	struct hb_cell *cells; /* [groups][pf]: the cell of groups[g], pf[p] is g * npf + p */
	uint32_t mhz;          /* the model machine's clock, for seconds of virtual time */
};

/* a run's counters in --json, after its groups and prefetch setting */
static const struct sim_field hb_json[] = {
	SIM_FIELD("elapsed_cycles", elapsed_cycles, SIM_WL_ALL),
	SIM_FIELD("messages", messages, SIM_WL_ALL),
	SIM_FIELD("score", score, SIM_WL_ALL),
	SIM_FIELD("alloc_fastpath", slab.alloc_fastpath, SIM_WL_ALL),
	SIM_FIELD("alloc_slowpath", slab.alloc_slowpath, SIM_WL_ALL),
	SIM_FIELD("alloc_refill", slab.alloc_refill, SIM_WL_ALL),
	SIM_FIELD("alloc_from_partial", slab.alloc_from_partial, SIM_WL_ALL),
	SIM_FIELD("alloc_slab", slab.alloc_slab, SIM_WL_ALL),
	SIM_FIELD("free_fastpath", slab.free_fastpath, SIM_WL_ALL),
	SIM_FIELD("free_slowpath", slab.free_slowpath, SIM_WL_ALL),
	SIM_FIELD("free_remote", slab.free_remote, SIM_WL_ALL),
	SIM_FIELD("free_add_partial", slab.free_add_partial, SIM_WL_ALL),
	SIM_FIELD("free_slab", slab.free_slab, SIM_WL_ALL),
	SIM_FIELD("prefetch", slab.prefetch, SIM_WL_ALL),
	SIM_FIELD("prefetch_hit", slab_pf_hit, SIM_WL_ALL),
	SIM_FIELD("prefetch_late", slab_pf_late, SIM_WL_ALL),
	SIM_FIELD("prefetch_wasted", slab_pf_wasted, SIM_WL_ALL),
};
#define NHB_JSON (sizeof(hb_json) / sizeof(hb_json[0]))

/* the slab counters: the text's second table, the CSV's last columns */
#define SLAB_COLUMN(head, width, csv, member) {head, width, csv, SIM_FIELD(NULL, member, 0), NULL}
static const struct sim_column hb_slab_columns[] = {
	SLAB_COLUMN("fast", 9, "alloc_fastpath", slab.alloc_fastpath),
	SLAB_COLUMN("slow", 7, "alloc_slowpath", slab.alloc_slowpath),
	SLAB_COLUMN("refill", 7, "alloc_refill", slab.alloc_refill),
	SLAB_COLUMN("partial", 7, "alloc_from_partial", slab.alloc_from_partial),
	SLAB_COLUMN("new", 6, "alloc_slab", slab.alloc_slab),
	SLAB_COLUMN("free_fast", 9, "free_fastpath", slab.free_fastpath),
	SLAB_COLUMN("free_slow", 9, "free_slowpath", slab.free_slowpath),
	SLAB_COLUMN("remote", 9, "free_remote", slab.free_remote),
	SLAB_COLUMN("discard", 7, "free_slab", slab.free_slab),
	SLAB_COLUMN("pf_hit", 8, "pf_hit", slab_pf_hit),
	SLAB_COLUMN("pf_late", 8, "pf_late", slab_pf_late),
	SLAB_COLUMN("pf_wasted", 9, "pf_wasted", slab_pf_wasted),
};
#define NSLAB_COLUMNS (sizeof(hb_slab_columns) / sizeof(hb_slab_columns[0]))

static const struct blab_sim_result *hb_result(const struct hb_sweep *hb, uint32_t g, uint32_t p)
{
	return &hb->cells[g * hb->npf + p].r;
}

/* seconds of virtual time with 6 decimals */
static void seconds(char *buf, size_t n, uint64_t cycles, uint32_t mhz)
{
	uint64_t us = mhz ? cycles / mhz : 0;
	snprintf(buf, n, "%llu.%06llu", (unsigned long long)(us / 1000000u),
		 (unsigned long long)(us % 1000000u));
}

/* (b - a) / a in hundredths of a percent, signed, as "+1.23%" */
static void change(char *buf, size_t n, uint64_t a, uint64_t b)
{
	long long bp = a ? (long long)((((__int128)b - (__int128)a) * 10000) / (__int128)a) : 0;
	long long m = bp < 0 ? -bp : bp;
	snprintf(buf, n, "%c%lld.%02lld%%", bp < 0 ? '-' : '+', m / 100, m % 100);
}

/* one run: groups[g] groups with prefetch pf[p]; 0, or 1 after saying why */
static int hb_run(struct hb_sweep *hb, uint32_t g, uint32_t p, FILE *ef)
{
	const struct sim_args *a = hb->a;
	struct blab_sim_config cfg;
	struct sim_sink ss = {0};
	char err[400];
	int ret = 0;

	blab_sim_config_init(&cfg);
	cfg.workload = BLAB_WL_HACKBENCH;
	cfg.cpus = hb->groups[g];
	cfg.pages = 1;
	cfg.iterations = 1;
	cfg.seed = a->seed;
	blab_preset(a->hb_preset.name[0], &cfg.strategy);
	if (a->batch)
		cfg.strategy.batch = (uint32_t)a->batch;
	if (a->high)
		cfg.strategy.high = (uint32_t)a->high;
	if (a->pcp_batch_scale_given)
		cfg.strategy.pcp_batch_scale_max = (uint8_t)a->pcp_batch_scale_max;
	cfg.hackbench.groups = hb->groups[g];
	cfg.hackbench.loops = (uint32_t)a->loops;
	cfg.hackbench.object_size = (uint32_t)a->object_size;
	cfg.hackbench.data_size = (uint32_t)a->data_size;
	cfg.hackbench.same_cpu = (uint8_t)a->same_cpu;
	cfg.hackbench.slub_prefetch = (uint8_t)hb->pf[p];
	cfg.mem_limit = a->mem_limit;
	if (a->hash || ef)
		sim_sink_attach(&cfg, &ss, ef);
	if (blab_sim_run(&cfg, &hb->cells[g * hb->npf + p].r, err, sizeof(err))) {
		fprintf(stderr, "blab sim: hackbench, %u groups, prefetch %s: %s\n", hb->groups[g],
			hb->pf[p] ? "on" : "off", err);
		ret = 1;
	}
	hb->cells[g * hb->npf + p].hash = ss.hash;
	sim_sink_report(&ss);
	return ret;
}

static void hb_print_json(const struct hb_sweep *hb)
{
	const struct sim_args *a = hb->a;

	printf("{\"workload\":\"hackbench\",\"score_unit\":\"messages/s\",");
	cli_json(stdout, &a->p, a); /* the run's settings, from the option table */
	printf("\"runs\":[");
	for (uint32_t g = 0; g < hb->ngroups; g++)
		for (uint32_t p = 0; p < hb->npf; p++) {
			const struct hb_cell *x = &hb->cells[g * hb->npf + p];
			printf("%s{\"groups\":%u,\"slub_prefetch\":%s", g || p ? "," : "",
			       hb->groups[g], hb->pf[p] ? "true" : "false");
			sim_fields_json(stdout, hb_json, NHB_JSON, &x->r, BLAB_WL_HACKBENCH);
			if (a->hash)
				printf(",\"hash\":\"%016llx\"", (unsigned long long)x->hash);
			printf("}");
		}
	printf("]}\n");
}

/* a row per run: its groups and prefetch, time and rate, cycles, then the slab counters */
static void hb_print_csv(const struct hb_sweep *hb)
{
	printf("groups,slub_prefetch,time_s,messages_per_s,elapsed_cycles");
	sim_columns_head(stdout, hb_slab_columns, NSLAB_COLUMNS, 1, NULL);
	printf("\n");
	for (uint32_t g = 0; g < hb->ngroups; g++)
		for (uint32_t p = 0; p < hb->npf; p++) {
			const struct blab_sim_result *r = hb_result(hb, g, p);
			char t[32];
			seconds(t, sizeof(t), r->elapsed_cycles, hb->mhz);
			printf("%u,%s,%s,%llu,%llu", hb->groups[g], hb->pf[p] ? "on" : "off", t,
			       (unsigned long long)r->score, (unsigned long long)r->elapsed_cycles);
			sim_columns_row(stdout, hb_slab_columns, NSLAB_COLUMNS, r, 1);
			printf("\n");
		}
}

/* hackbench's "Time:" and the rate per group count, prefetch off and on and the change;
 * then the slab counters of each run */
static void hb_print_text(const struct hb_sweep *hb)
{
	const struct sim_args *a = hb->a;

	printf("# hackbench on the model machine: %llu loops, %llu-byte objects%s%.0llu%s, %s, "
	       "preset %s, seed %llu\n",
	       (unsigned long long)a->loops, (unsigned long long)a->object_size,
	       a->data_size ? " + " : "", (unsigned long long)a->data_size,
	       a->data_size ? "-byte data" : "",
	       a->same_cpu ? "same-CPU control (receiver on the sender's CPU)"
			   : "remote frees (receiver on the next CPU)",
	       a->hb_preset.name[0], (unsigned long long)a->seed);
	printf("%6s", "groups");
	for (uint32_t p = 0; p < hb->npf; p++)
		printf(" %12s %12s", hb->pf[p] ? "time_pf_on" : "time_pf_off",
		       hb->pf[p] ? "msgs/s_on" : "msgs/s_off");
	if (hb->npf == 2)
		printf(" %9s", "time");
	printf("\n");
	for (uint32_t g = 0; g < hb->ngroups; g++) {
		printf("%6u", hb->groups[g]);
		for (uint32_t p = 0; p < hb->npf; p++) {
			char t[32];
			seconds(t, sizeof(t), hb_result(hb, g, p)->elapsed_cycles, hb->mhz);
			printf(" %12s %12llu", t, (unsigned long long)hb_result(hb, g, p)->score);
		}
		if (hb->npf == 2) {
			char ch[32];
			change(ch, sizeof(ch), hb_result(hb, g, 0)->elapsed_cycles,
			       hb_result(hb, g, 1)->elapsed_cycles);
			printf(" %9s", ch);
		}
		printf("\n");
	}
	printf("\n%-8s %6s", "prefetch", "groups");
	sim_columns_head(stdout, hb_slab_columns, NSLAB_COLUMNS, 0, NULL);
	printf("\n");
	for (uint32_t p = 0; p < hb->npf; p++)
		for (uint32_t g = 0; g < hb->ngroups; g++) {
			printf("%-8s %6u", hb->pf[p] ? "on" : "off", hb->groups[g]);
			sim_columns_row(stdout, hb_slab_columns, NSLAB_COLUMNS, hb_result(hb, g, p),
					0);
			printf("\n");
		}
}

/* --hash (text and CSV; --json has each run's in its object) */
static void hb_print_hashes(const struct hb_sweep *hb)
{
	for (uint32_t g = 0; g < hb->ngroups; g++)
		for (uint32_t p = 0; p < hb->npf; p++)
			printf("hash %s %u %016llx\n", hb->pf[p] ? "on" : "off", hb->groups[g],
			       (unsigned long long)hb->cells[g * hb->npf + p].hash);
}

int cmd_sim_hackbench(struct sim_args *a)
{
	struct hb_sweep hb = {.a = a, .ngroups = a->groups.n, .npf = a->slub_prefetch.n};
	struct model_params mp; /* the runs use the default model machine */
	FILE *ef = NULL;
	int ret = 0;

	for (uint32_t g = 0; g < hb.ngroups; g++)
		hb.groups[g] = (uint32_t)a->groups.v[g];
	for (uint32_t p = 0; p < hb.npf; p++)
		hb.pf[p] = strcmp(a->slub_prefetch.name[p], "on") == 0;
	hb.cells = calloc((size_t)hb.ngroups * hb.npf, sizeof(*hb.cells));
	if (!hb.cells) {
		fprintf(stderr, "blab sim: out of memory\n");
		return 1;
	}
	if (a->events && !(ef = sim_events_open(a->events))) {
		free(hb.cells);
		return 1;
	}
	model_params_default(&mp);
	hb.mhz = mp.cpu_mhz;
	for (uint32_t g = 0; g < hb.ngroups && !ret; g++)
		for (uint32_t p = 0; p < hb.npf && !ret; p++)
			ret = hb_run(&hb, g, p, ef);
	if (ef && sim_events_close(ef, a->events))
		ret = 1;
	if (!ret && a->json) {
		hb_print_json(&hb);
	} else if (!ret) {
		if (a->csv)
			hb_print_csv(&hb);
		else
			hb_print_text(&hb);
		if (a->hash)
			hb_print_hashes(&hb);
	}
	free(hb.cells);
	return ret;
}
