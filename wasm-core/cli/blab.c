/*
 * blab - the buddylab command-line tool.
 *
 * Commands are a table: add a row (sim, run, import, calibrate come later) with its
 * function and its help text.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "blab.h"
#include "cli.h"
#include <blab_core_hash.h> /* generated: cmake/core_hash.cmake */
#include "cli_io.h"
#include "options.h"

static int replay_help(FILE *f)
{
	fprintf(f,
"usage: blab replay [--mem-limit SIZE] FILE|-\n"
"\n"
"Runs an op script against a simulated zone and prints what the kernel would show.\n"
"One op per line; '#' starts a comment; blank lines are fine. Numbers are decimal or\n"
"0x hex. The first op must create the zone.\n"
"\n"
"  zone pages=N [start_pfn=P] [cpus=C] [preset=NAME] [batch=B] [high=H]\n"
"       [top_order=K] [pageblock_order=K] [pcp=none|hotcold|lifo] [pcp_per_mt=0|1]\n"
"       [pcp_max_order=0..3] [merge_tail=0|1] [watermarks=0|1]\n"
"       [log=RECORDS] [events=state,explain,lock,cache|all]\n"
"       [bulk_rr=batch_free|list] [free_factor=0|1|2]\n"
"       [bulk_free=one_pass|two_pass|two_pass_prefetch|single_pass_prefetch|single_pass]\n"
"       [skip_merge=0|1] [clusters=none|per_free|per_bulk]\n"
"       [high_max=H] [pcp_lock=0|1] [alloc_factor=0|1] [bulk_chunk=0|1] [buddy_map=0|1]\n"
"       [drain_chunk=0|1] [expand_top=0|1] [free_high=none|all|batch|half_min]\n"
"       [pcp_thp=none|per_mt|one|movable] [pcp_batch_scale_max=0..6]\n"
"      A zone of N pages starting at pfn P, with C cpus (1..256). The preset (default\n"
"      %s) sets the strategy; the other keys change single switches. batch and high\n"
"      default to the kernel's zone_batchsize() and 6*batch or zone_highsize().\n"
"      pcp_batch_scale_max is 6.7's CONFIG_PCP_BATCH_SCALE_MAX (default 5): refills of\n"
"      at most batch << it; only with the 6.7 switches.\n"
"      top_order is MAX_PAGE_ORDER (default 10); pageblock_order defaults to 9.\n"
"  snapshot [nr_free=N0,N1,..] [pcp=CPU:COUNT,..]\n"
"      Right after 'zone': the same zone again, in the state a /proc/buddyinfo +\n"
"      /proc/zoneinfo snapshot gives: nr_free free blocks per order (buddyinfo's columns)\n"
"      and COUNT order-0 pages on each listed cpu's pcp list. Places follow one rule:\n"
"      from start_pfn up, largest order first, each free block beside an allocated\n"
"      buddy; then the pcp pages; every other page allocated (docs/import.md).\n"
"      More snapshot lines add pcp counts (or replace nr_free); a snapshot that does\n"
"      not fit pages=N is refused with the pages it needs.\n"
"  alloc order=K [cpu=C] [mt=movable|unmovable|reclaimable] [cold=1]\n"
"        [compact=merge|migrate] [count=N]\n"
"      Allocates 2^K pages and prints  pfn=0x... order=K migratetype=M  (as the\n"
"      kmem:mm_page_alloc tracepoint does), or 'alloc order=K failed: ...'.\n"
"      compact=: when no block is free, compact once and try again. count=N (1..65536):\n"
"      N allocations, one line for all of them.\n"
"  compact order=K [cpu=C] [mode=merge|migrate]\n"
"      Compaction until a free block of order K exists: merge the merge-skipped pages\n"
"      (skip_merge=1, Lu RFC), and with mode=migrate move movable pages out of one\n"
"      block; each move prints 'migrate pfn=0x... -> pfn=0x... order=K' (free the block\n"
"      at its new pfn). Prints the outcome and the pages merged, migrated, scanned.\n"
"  free pfn=P order=K [cpu=C] [cold=1]\n"
"      Frees the block of 2^K pages at pfn P (it must be what an alloc returned).\n"
"  free last=N [cpu=C]\n"
"      Frees the N blocks the script's allocs got most recently, newest first (the\n"
"      script remembers up to 2^20 of them), passing over any freed by pfn meanwhile.\n"
"  free last=N [cpu=C]\n"
"      Frees the N blocks the script's allocs got most recently, newest first (the\n"
"      script remembers up to 2^20 of them), passing over any freed by pfn meanwhile.\n"
"  drain cpu=C|all [by=D]\n"
"      Gives cpu C's per-cpu pages back to the buddy lists (drain_pages()); by=D: cpu D\n"
"      does it, taking C's pcp->lock (6.0+ presets, 443c2accd1b6).\n"
"  decay cpu=C|all\n"
"      decay_pcp_high() (6.7+): high comes down by an eighth towards high_min and what\n"
"      the list holds above it is drained, as the vmstat worker does once a second.\n"
"  buddyinfo   one line in /proc/buddyinfo format: free blocks per order 0..top_order\n"
"  pcp         count/high/batch of every cpu's list, in /proc/zoneinfo wording\n"
"  zoneinfo    free pages, watermarks min/low/high, and the pagesets\n"
"  events      the event records logged since the last 'events' (docs/events.md);\n"
"              the zone logs state, explain and lock events, 65536 records, unless\n"
"              events=... / log=N say otherwise\n"
"  fragindex   unusable free space index and fragmentation (extfrag) index per order,\n"
"              as /sys/kernel/debug/extfrag prints them, and the merge-skipped pages\n"
"  check       runs the invariant checker; prints 'check: ok'\n"
"\n"
"--mem-limit SIZE: host memory a zone may take (bytes, or with K, M, G, T or Ki .. Ti;\n"
"default $BLAB_MEM_LIMIT, else half of this machine's memory); a larger zone is refused.\n"
"\n"
"A bad line (unknown op or key, bad number, pfn outside the zone, order out of range,\n"
"double free, wrong order, freeing a tail page or a page on a pcp list, ...) stops the\n"
"run with 'line N: why' on stderr and exit status 1. An allocation that finds no memory\n"
"is not an error: it prints 'failed' and the script goes on.\n"
"\n"
"example:\n"
"  printf 'zone pages=1000 preset=v4.16\\nalloc order=3\\nbuddyinfo\\n' | blab replay -\n",
		BLAB_DEFAULT_PRESET);
	return 0;
}

static int cmd_replay(int argc, char **argv)
{
	char line[BLAB_SCRIPT_MAX_LINE + 2];
	struct blab_script *s;
	unsigned lineno = 0;
	uint64_t limit = 0;
	char err[200];
	FILE *in;
	int ret = 0;

	if (argc == 4 && strcmp(argv[1], "--mem-limit") == 0) {
		if (cli_parse_size(argv[2], &limit) || !limit) {
			fprintf(stderr, "blab replay: --mem-limit wants bytes (a number with K, M, G "
					"or T, or Ki, Mi, Gi, Ti), not '%s'\n", argv[2]);
			return 2;
		}
		argc -= 2;
		argv += 2;
	}
	if (argc != 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		replay_help(argc == 2 ? stdout : stderr);
		return argc == 2 ? 0 : 2;
	}
	if (cli_mem_limit(&limit, err, sizeof(err))) {
		fprintf(stderr, "blab replay: %s\n", err);
		return 2;
	}
	in = cli_open_read("blab replay", argv[1]);
	if (!in)
		return 2;
	s = blab_script_new(stdout, stderr);
	if (!s) {
		fprintf(stderr, "blab replay: out of memory\n");
		cli_close_read("blab replay", argv[1], in);
		return 2;
	}
	blab_script_set_mem_limit(s, limit);
	errno = 0;
	for (;;) {
		/* one line, bounded (one byte over the bound is enough to refuse it); NUL bytes are
		 * kept and refused by blab_script_bytes() rather than silently ending the line */
		size_t len = 0;
		int c;
		while ((c = getc(in)) != EOF && c != '\n' && len <= BLAB_SCRIPT_MAX_LINE)
			line[len++] = (char)c;
		if (c == EOF && ferror(in))
			break; /* a read error, not the end: the half-read line never runs */
		if (c == EOF && len == 0)
			break;
		lineno++;
		if (blab_script_bytes(s, line, len, lineno)) {
			ret = 1;
			break;
		}
		if (c == EOF)
			break;
	}
	if (cli_close_read("blab replay", argv[1], in)) /* first: errno is the read's */
		ret = 2;
	fflush(stdout);
	blab_script_free(s);
	return ret;
}

int cmd_import(int argc, char **argv); /* cmd_import.c */

/* host time, for measuring only: it never decides allocator state */
static double now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmd_bench(int argc, char **argv)
{
	unsigned long ops = 2000000;
	if (argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
		printf("usage: blab bench [OPS]\n\n"
		       "Plain machine, one cpu, 262144-page zone, no event log. For every preset:\n"
		       "  pair   alloc order 0 + free, OPS times (the pcp fast path, mostly)\n"
		       "  churn  allocate 4096 pages, free them, OPS / 4096 rounds (refills, drains,\n"
		       "         merges)\n"
		       "and prints nanoseconds per page operation (alloc or free).\n");
		return 0;
	}
	if (argc == 2)
		ops = strtoul(argv[1], NULL, 10);
	if (argc > 2 || ops == 0 || ops > 1000000000ul) {
		fprintf(stderr, "usage: blab bench [OPS]   (1 .. 10^9)\n");
		return 2;
	}
	printf("%-15s %12s %12s\n", "preset", "pair ns/op", "churn ns/op");
	for (unsigned p = 0; p < blab_preset_count(); p++) {
		struct blab_zone_config cfg;
		struct blab_zone *z;
		static uint64_t pfns[4096];
		double t0, pair, churn;
		unsigned long i, rounds = ops / 4096 ? ops / 4096 : 1;

		blab_zone_config_init(&cfg);
		blab_preset(blab_preset_name(p), &cfg.strategy);
		cfg.pages = 262144;
		cfg.log_capacity = 0;
		if (blab_zone_create(&cfg, &z)) {
			fprintf(stderr, "blab bench: cannot create the zone\n");
			return 1;
		}
		t0 = now_ns();
		for (i = 0; i < ops; i++) {
			uint64_t pfn;
			if (blab_alloc(z, 0, 0, BLAB_MT_MOVABLE, &pfn) || blab_free(z, 0, pfn, 0))
				break;
		}
		pair = (now_ns() - t0) / (2.0 * (double)ops);
		t0 = now_ns();
		for (unsigned long r = 0; r < rounds; r++) {
			for (i = 0; i < 4096; i++)
				blab_alloc(z, 0, 0, BLAB_MT_MOVABLE, &pfns[i]);
			for (i = 0; i < 4096; i++)
				blab_free(z, 0, pfns[i], 0);
		}
		churn = (now_ns() - t0) / (2.0 * 4096.0 * (double)rounds);
		printf("%-15s %12.1f %12.1f\n", blab_preset_name(p), pair, churn);
		blab_zone_destroy(z);
	}
	return 0;
}

/* the core build hash: which allocator and model sources this blab runs (wasm-core/cmake/
 * core_hash.cmake; the web app's is the same for the same sources, scripts/core-hash.mjs) */
static int cmd_version(int argc, char **argv)
{
	(void)argv;
	if (argc > 1) {
		fprintf(stderr, "usage: blab version\n");
		return 2;
	}
	printf("blab core %s\n", BLAB_CORE_HASH);
	return 0;
}

static const struct command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *help;
} commands[] = {
	{"replay", cmd_replay, "run an op script (zone, alloc, free, drain, buddyinfo, ...)"},
	{"import", cmd_import, "summarise a real kernel trace (perf script / tracefs kmem: events)"},
	{"presets", cmd_presets, "list the strategy presets, named after kernels"},
	{"zoneinfo", cmd_zoneinfo, "a machine's /proc/zoneinfo: each preset's pcp sizes for its zones"},
	{"bench", cmd_bench, "time alloc/free on the plain machine, per preset"},
	{"sim", cmd_sim, "run a benchmark (page_fault1, hackbench) on the deterministic model machine"},
	{"run", cmd_run, "run a benchmark (page_fault1) on real threads: the real machine"},
	{"calibrate", cmd_calibrate, "measure this machine, write a model parameter file"},
	{"merge", cmd_merge, "put the shards of a study (blab sim --shard I/N) back together"},
	{"version", cmd_version, "the core build hash (results are keyed by it)"},
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: blab COMMAND [ARGS]    (blab COMMAND --help for more)\n"
		"\n"
		"buddylab simulates how Linux hands out physical pages: the buddy allocator\n"
		"(free_area[order], expand, __free_one_page) and the per-cpu page lists in front\n"
		"of it (rmqueue_bulk, free_pcppages_bulk), as they were in several kernels.\n"
		"\n"
		"commands:\n");
	for (unsigned i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(f, "  %-9s %s\n", commands[i].name, commands[i].help);
}

int main(int argc, char **argv)
{
	if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
	    strcmp(argv[1], "help") == 0) {
		usage(argc < 2 ? stderr : stdout);
		return cli_exit(argc < 2 ? 2 : 0);
	}
	for (unsigned i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (strcmp(argv[1], commands[i].name) == 0)
			return cli_exit(commands[i].run(argc - 1, argv + 1));
	fprintf(stderr, "blab: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return 2;
}
