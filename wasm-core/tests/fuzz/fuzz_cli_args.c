/*
 * fuzz_cli_args.c - libFuzzer target: the command line of `blab sim` (cli/options.c,
 * cli/sim/sim_args.c: one option table for every workload) and the thread list of `blab run
 * --threads` (src/real/threads_arg.c). The input is split at NUL bytes into arguments;
 * words from a menu (every option name, values at and past their bounds) are mixed in so
 * that the fuzzer reaches the checks behind them.
 *
 * Oracle, beyond ASan/UBSan: the parse is 0, 1 (--help) or -1 with a reason; a parse that
 * succeeds gives values inside every bound (lists without repeats, counts within their
 * maxima, each number in its range), a known workload, and options the workload uses;
 * parsing the same arguments again gives the same struct; sim_args_machine() then accepts
 * or refuses with a reason. The --threads parser returns counts that rise, each 1..64.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blab_real.h"
#include "sim_args.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_ARGS 24

static const char *const words[] = {
	"--workload", "page_fault1", "hackbench", "stress_highalloc", "mixed", "trunc",
	"parallel_free", "--cpus", "1,2,4", "0", "256", "257", "2,2", "2,", ",", "--preset",
	"v4.16", "v4.16,v4.16", "v9", "--pages", "1048576", "1048577", "--iterations", "1000",
	"--groups", "1", "112", "--loops", "1000000", "--same-cpu", "--slub-prefetch", "off,on",
	"on,on", "--seed", "18446744073709551615", "18446744073709551616", "--sockets", "8",
	"--cache-scale", "64", "3", "--node-zones", "--clear-lines", "64", "--hi-order", "10",
	"--delay-us", "--compact", "none", "merge", "--csv", "--json", "--hash", "--events",
	"--params", "--bench", "--mem-limit", "8Gi", "0", "18446744073709551615T", "--help",
	"--object-size", "4096", "7", "",
};

static void check_list(const struct cli_list *l, unsigned max_n)
{
	if (l->n > max_n || l->n > CLI_LIST_MAX)
		abort();
	for (uint32_t i = 0; i < l->n; i++)
		for (uint32_t j = 0; j < i; j++)
			if (!strcmp(l->name[i], l->name[j]))
				abort(); /* a repeat got through */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char buf[4096];
	char *argv[MAX_ARGS + 1];
	int argc = 1, r, again;
	size_t n = size < sizeof(buf) - 1 ? size : sizeof(buf) - 1;
	struct sim_args a, b;
	struct model_params mp;
	char err[512];
	unsigned counts[64];

	memcpy(buf, data, n);
	buf[n] = 0;
	argv[0] = "sim";
	/* arguments: NUL-separated pieces; a piece starting with byte 0x01 is menu word [next] */
	for (char *p = buf; p < buf + n && argc < MAX_ARGS; p += strlen(p) + 1) {
		if ((unsigned char)p[0] == 0x01 && p[1])
			argv[argc++] = (char *)words[(unsigned char)p[1] % (sizeof(words) / sizeof(words[0]))];
		else
			argv[argc++] = p;
	}
	argv[argc] = NULL;

	err[0] = 0;
	r = sim_args_parse(&a, argc, argv, err, sizeof(err));
	if (r < -1 || r > 1 || (r == -1 && !err[0]))
		abort();
	again = sim_args_parse(&b, argc, argv, err, sizeof(err));
	if (again != r)
		abort();
	if (r == 0 && a.points) {
		/* --points FILE: each point names its own workload and settings (sim_points.c), so
		 * the command line has none to check; the file is read (and checked) when it runs */
		if (a.workload_id && !blab_sim_workload_unit(a.workload_id))
			abort();
	} else if (r == 0) {
		if (!a.workload_id || !blab_sim_workload_unit(a.workload_id))
			abort();
		if (a.csv && a.json)
			abort();
		check_list(&a.cpus, 32);
		check_list(&a.presets, 32);
		check_list(&a.groups, 32);
		check_list(&a.slub_prefetch, 2);
		check_list(&a.hb_preset, 1);
		for (uint32_t i = 0; i < a.cpus.n; i++)
			if (a.cpus.v[i] < 1 || a.cpus.v[i] > BLAB_SIM_MAX_CPUS)
				abort();
		if (a.pages < 1 || a.pages > BLAB_SIM_MAX_PAGES || a.iterations < 1 ||
		    a.iterations > BLAB_SIM_MAX_ITERATIONS || a.clear_lines < 1 || a.clear_lines > 64 ||
		    a.hi_order < 1 || a.hi_order > 10 || a.delay_us > BLAB_SIM_MAX_DELAY_US ||
		    a.compact > 2 || a.cache_scale < 1 || a.cache_scale > 64 ||
		    (a.cache_scale & (a.cache_scale - 1)) || a.sockets > 8 || a.loops < 1 ||
		    a.object_size < 8 || a.object_size > 4096)
			abort();
		if (a.workload_id == BLAB_WL_HACKBENCH) {
			if (a.hb_preset.n != 1 || !a.groups.n || !a.slub_prefetch.n || a.node_zones)
				abort();
		} else {
			/* groups: its default, 2,4,8 (seed 003's hackbench), since only hackbench takes it */
			if (!a.cpus.n || !a.presets.n || a.groups.n != 3)
				abort();
			/* the same parse, field for field (lists point into their own buffers) */
			if (a.pages != b.pages || a.seed != b.seed || a.cpus.n != b.cpus.n ||
			    a.mem_limit != b.mem_limit)
				abort();
			model_params_default(&mp);
			err[0] = 0;
			r = sim_args_machine(&a, &mp, 0, err, sizeof(err));
			if ((r && !err[0]) || (!r && (a.sockets < 1 || a.sockets > 8)))
				abort();
		}
	}

	/* the same bytes as blab run's --threads list */
	err[0] = 0;
	r = blab_run_parse_threads(buf, BLAB_RUN_MAX_THREADS, counts, 64, err, sizeof(err));
	if (r < -1 || r > 64 || (r == -1 && !err[0]) || r == 0)
		abort();
	for (int i = 0; i < r; i++)
		if (counts[i] < 1 || counts[i] > BLAB_RUN_MAX_THREADS || (i && counts[i] <= counts[i - 1]))
			abort();
	return 0;
}
