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
#include "cli.h"
#include "blab_model.h"
#include "options.h"
#include "sim_args.h"
#include "sim_common.h"

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

int cmd_sim_hackbench(struct sim_args *a)
{
	const char *events = a->events, *preset = a->hb_preset.name[0];
	uint32_t groups[CLI_LIST_MAX], ngroups = a->groups.n, pf[2], npf = a->slub_prefetch.n;
	uint64_t seed = a->seed, loops = a->loops, object_size = a->object_size;
	int same_cpu = a->same_cpu, csv = a->csv, json = a->json, hash = a->hash, ret = 0;
	struct hb_cell *cells;
	FILE *ef = NULL;
	uint32_t mhz;

	for (uint32_t g = 0; g < ngroups; g++)
		groups[g] = (uint32_t)a->groups.v[g];
	for (uint32_t p = 0; p < npf; p++)
		pf[p] = strcmp(a->slub_prefetch.name[p], "on") == 0;
	cells = calloc((size_t)ngroups * npf, sizeof(*cells));
	if (!cells) {
		fprintf(stderr, "blab sim: out of memory\n");
		return 1;
	}
	if (events && !(ef = sim_events_open(events))) {
		free(cells);
		return 1;
	}
	{
		struct model_params mp; /* the runs use the default model machine */
		model_params_default(&mp);
		mhz = mp.cpu_mhz;
	}
	for (uint32_t g = 0; g < ngroups && !ret; g++)
		for (uint32_t p = 0; p < npf && !ret; p++) {
			struct blab_sim_config cfg;
			struct sim_sink ss = {0};
			char err[400];
			blab_sim_config_init(&cfg);
			cfg.workload = BLAB_WL_HACKBENCH;
			cfg.cpus = groups[g];
			cfg.pages = 1;
			cfg.iterations = 1;
			cfg.seed = seed;
			blab_preset(preset, &cfg.strategy);
			if (a->batch)
				cfg.strategy.batch = (uint32_t)a->batch;
			if (a->high)
				cfg.strategy.high = (uint32_t)a->high;
			if (a->pcp_batch_scale_given)
				cfg.strategy.pcp_batch_scale_max = (uint8_t)a->pcp_batch_scale_max;
			cfg.hackbench.groups = groups[g];
			cfg.hackbench.loops = (uint32_t)loops;
			cfg.hackbench.object_size = (uint32_t)object_size;
			cfg.hackbench.data_size = (uint32_t)a->data_size;
			cfg.hackbench.same_cpu = (uint8_t)same_cpu;
			cfg.hackbench.slub_prefetch = (uint8_t)pf[p];
			cfg.mem_limit = a->mem_limit;
			if (hash || ef)
				sim_sink_attach(&cfg, &ss, ef);
			if (blab_sim_run(&cfg, &cells[g * npf + p].r, err, sizeof(err))) {
				fprintf(stderr, "blab sim: hackbench, %u groups, prefetch %s: %s\n",
					groups[g], pf[p] ? "on" : "off", err);
				ret = 1;
			}
			cells[g * npf + p].hash = ss.hash;
			sim_sink_report(&ss);
		}
	if (ef && sim_events_close(ef, events))
		ret = 1;
	if (ret) {
		free(cells);
		return ret;
	}

	if (json) {
		printf("{\"workload\":\"hackbench\",\"score_unit\":\"messages/s\",");
		cli_json(stdout, &a->p, a); /* the run's settings, from the option table */
		printf("\"runs\":[");
		for (uint32_t g = 0; g < ngroups; g++)
			for (uint32_t p = 0; p < npf; p++) {
				const struct hb_cell *x = &cells[g * npf + p];
				const struct blab_sim_result *r = &x->r;
				const struct blab_slab_stats *s = &r->slab;
				printf("%s{\"groups\":%u,\"slub_prefetch\":%s,\"elapsed_cycles\":%llu,"
				       "\"messages\":%llu,\"score\":%llu,\"alloc_fastpath\":%llu,"
				       "\"alloc_slowpath\":%llu,\"alloc_refill\":%llu,"
				       "\"alloc_from_partial\":%llu,\"alloc_slab\":%llu,"
				       "\"free_fastpath\":%llu,\"free_slowpath\":%llu,"
				       "\"free_remote\":%llu,\"free_add_partial\":%llu,"
				       "\"free_slab\":%llu,\"prefetch\":%llu,\"prefetch_hit\":%llu,"
				       "\"prefetch_late\":%llu,\"prefetch_wasted\":%llu",
				       g || p ? "," : "", groups[g], pf[p] ? "true" : "false",
				       (unsigned long long)r->elapsed_cycles,
				       (unsigned long long)r->messages, (unsigned long long)r->score,
				       (unsigned long long)s->alloc_fastpath,
				       (unsigned long long)s->alloc_slowpath,
				       (unsigned long long)s->alloc_refill,
				       (unsigned long long)s->alloc_from_partial,
				       (unsigned long long)s->alloc_slab,
				       (unsigned long long)s->free_fastpath,
				       (unsigned long long)s->free_slowpath,
				       (unsigned long long)s->free_remote,
				       (unsigned long long)s->free_add_partial,
				       (unsigned long long)s->free_slab, (unsigned long long)s->prefetch,
				       (unsigned long long)r->slab_pf_hit,
				       (unsigned long long)r->slab_pf_late,
				       (unsigned long long)r->slab_pf_wasted);
				if (hash)
					printf(",\"hash\":\"%016llx\"", (unsigned long long)x->hash);
				printf("}");
			}
		printf("]}\n");
		free(cells);
		return 0;
	}
	if (csv) {
		printf("groups,slub_prefetch,time_s,messages_per_s,elapsed_cycles,alloc_fastpath,"
		       "alloc_slowpath,alloc_refill,alloc_from_partial,alloc_slab,free_fastpath,"
		       "free_slowpath,free_remote,free_slab,pf_hit,pf_late,pf_wasted\n");
	} else {
		printf("# hackbench on the model machine: %llu loops, %llu-byte objects%s%.0llu%s, %s, "
		       "preset %s, seed %llu\n",
		       (unsigned long long)loops, (unsigned long long)object_size,
		       a->data_size ? " + " : "", (unsigned long long)a->data_size,
		       a->data_size ? "-byte data" : "",
		       same_cpu ? "same-CPU control (receiver on the sender's CPU)"
				: "remote frees (receiver on the next CPU)",
		       preset, (unsigned long long)seed);
		printf("%6s", "groups");
		for (uint32_t p = 0; p < npf; p++)
			printf(" %12s %12s", pf[p] ? "time_pf_on" : "time_pf_off",
			       pf[p] ? "msgs/s_on" : "msgs/s_off");
		if (npf == 2)
			printf(" %9s", "time");
		printf("\n");
	}
	for (uint32_t g = 0; g < ngroups; g++) {
		if (!csv) {
			printf("%6u", groups[g]);
			for (uint32_t p = 0; p < npf; p++) {
				char t[32];
				seconds(t, sizeof(t), cells[g * npf + p].r.elapsed_cycles, mhz);
				printf(" %12s %12llu", t,
				       (unsigned long long)cells[g * npf + p].r.score);
			}
			if (npf == 2) {
				char ch[32];
				change(ch, sizeof(ch), cells[g * npf].r.elapsed_cycles,
				       cells[g * npf + 1].r.elapsed_cycles);
				printf(" %9s", ch);
			}
			printf("\n");
			continue;
		}
		for (uint32_t p = 0; p < npf; p++) {
			const struct blab_sim_result *r = &cells[g * npf + p].r;
			const struct blab_slab_stats *s = &r->slab;
			char t[32];
			seconds(t, sizeof(t), r->elapsed_cycles, mhz);
			printf("%u,%s,%s,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,"
			       "%llu,%llu\n",
			       groups[g], pf[p] ? "on" : "off", t, (unsigned long long)r->score,
			       (unsigned long long)r->elapsed_cycles,
			       (unsigned long long)s->alloc_fastpath,
			       (unsigned long long)s->alloc_slowpath,
			       (unsigned long long)s->alloc_refill,
			       (unsigned long long)s->alloc_from_partial,
			       (unsigned long long)s->alloc_slab,
			       (unsigned long long)s->free_fastpath,
			       (unsigned long long)s->free_slowpath,
			       (unsigned long long)s->free_remote, (unsigned long long)s->free_slab,
			       (unsigned long long)r->slab_pf_hit, (unsigned long long)r->slab_pf_late,
			       (unsigned long long)r->slab_pf_wasted);
		}
	}
	if (!csv) {
		printf("\n%-8s %6s %9s %7s %7s %7s %6s %9s %9s %9s %7s %8s %8s %9s\n", "prefetch",
		       "groups", "fast", "slow", "refill", "partial", "new", "free_fast",
		       "free_slow", "remote", "discard", "pf_hit", "pf_late", "pf_wasted");
		for (uint32_t p = 0; p < npf; p++)
			for (uint32_t g = 0; g < ngroups; g++) {
				const struct blab_sim_result *r = &cells[g * npf + p].r;
				const struct blab_slab_stats *s = &r->slab;
				printf("%-8s %6u %9llu %7llu %7llu %7llu %6llu %9llu %9llu %9llu %7llu "
				       "%8llu %8llu %9llu\n",
				       pf[p] ? "on" : "off", groups[g],
				       (unsigned long long)s->alloc_fastpath,
				       (unsigned long long)s->alloc_slowpath,
				       (unsigned long long)s->alloc_refill,
				       (unsigned long long)s->alloc_from_partial,
				       (unsigned long long)s->alloc_slab,
				       (unsigned long long)s->free_fastpath,
				       (unsigned long long)s->free_slowpath,
				       (unsigned long long)s->free_remote,
				       (unsigned long long)s->free_slab,
				       (unsigned long long)r->slab_pf_hit,
				       (unsigned long long)r->slab_pf_late,
				       (unsigned long long)r->slab_pf_wasted);
			}
	}
	if (hash)
		for (uint32_t g = 0; g < ngroups; g++)
			for (uint32_t p = 0; p < npf; p++)
				printf("hash %s %u %016llx\n", pf[p] ? "on" : "off", groups[g],
				       (unsigned long long)cells[g * npf + p].hash);
	free(cells);
	return 0;
}
