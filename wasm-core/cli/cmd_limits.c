/*
 * cmd_limits.c - `blab limits`: the core's hard limits as data, so the browser checks the same
 * numbers the core does (its URL state, scenario form and player bounds import them from
 * web/log/core-limits.ts, which `blab limits --ts` writes; a test fails when they drift).
 */
#include <stdio.h>
#include <string.h>

#include "blab.h"
#include "blab_real.h"
#include "blab_sim.h"
#include "blab_trace.h"
#include "cli.h"
#include "model/model.h"

/* one row per limit: its key in the data, its value, what it bounds */
struct limit {
	const char *key;
	unsigned long long value;
	const char *what;
};

static const struct limit *limits(unsigned *n)
{
	static struct limit rows[32];
	struct model_params mp;
	unsigned k = 0;

	model_params_default(&mp);
#define ROW(key_, value_, what_) rows[k++] = (struct limit){key_, (unsigned long long)(value_), what_}
	ROW("maxPages", BLAB_MAX_PAGES, "pages of a zone (BLAB_MAX_PAGES)");
	ROW("maxCpus", BLAB_MAX_CPUS, "CPUs of a zone (BLAB_MAX_CPUS)");
	ROW("maxOrder", BLAB_MAX_ORDER_LIMIT, "the highest top order, MAX_PAGE_ORDER (BLAB_MAX_ORDER_LIMIT)");
	ROW("maxLogEvents", BLAB_MAX_LOG_EVENTS, "event records of a run (BLAB_MAX_LOG_EVENTS)");
	ROW("modelCpus", model_cpus_max(&mp), "CPUs of the default modelled machine (2 sockets x 28 cores x 2 threads)");
	ROW("simMaxCpus", BLAB_SIM_MAX_CPUS, "CPUs of a model run on a larger machine (--sockets)");
	ROW("simMaxPagesPerTask", BLAB_SIM_MAX_PAGES, "pages a task maps per round (BLAB_SIM_MAX_PAGES)");
	ROW("simMaxMapped", BLAB_SIM_MAX_MAPPED, "cpus x pages of a model run (BLAB_SIM_MAX_MAPPED)");
	ROW("simMaxIterations", BLAB_SIM_MAX_ITERATIONS, "rounds of a model run (BLAB_SIM_MAX_ITERATIONS)");
	ROW("simMaxWork", BLAB_SIM_MAX_WORK, "cpus x pages x rounds of a model run (BLAB_SIM_MAX_WORK)");
	ROW("hackbenchMaxGroups", BLAB_HACKBENCH_MAX_GROUPS, "hackbench groups (BLAB_HACKBENCH_MAX_GROUPS)");
	ROW("hackbenchMaxLoops", BLAB_HACKBENCH_MAX_LOOPS, "hackbench messages per sender (BLAB_HACKBENCH_MAX_LOOPS)");
	ROW("hackbenchMaxWork", BLAB_HACKBENCH_MAX_WORK, "hackbench groups x loops (BLAB_HACKBENCH_MAX_WORK)");
	ROW("runMaxThreads", BLAB_RUN_MAX_THREADS, "threads of a real run (BLAB_RUN_MAX_THREADS)");
	ROW("runMaxMapped", BLAB_RUN_MAX_MAPPED, "threads x pages of a real run (BLAB_RUN_MAX_MAPPED)");
	ROW("scriptMaxLine", BLAB_SCRIPT_MAX_LINE, "characters of an op-script line (BLAB_SCRIPT_MAX_LINE)");
	ROW("traceMaxLines", BLAB_TRACE_MAX_LINES, "lines of an imported trace (BLAB_TRACE_MAX_LINES)");
	ROW("traceMaxEvents", BLAB_TRACE_MAX_EVENTS, "kmem page events of an imported trace (BLAB_TRACE_MAX_EVENTS)");
	ROW("traceMaxBytes", BLAB_TRACE_MAX_BYTES, "bytes of an imported trace (BLAB_TRACE_MAX_BYTES)");
#undef ROW
	*n = k;
	return rows;
}

int cmd_limits(int argc, char **argv)
{
	unsigned n;
	const struct limit *l = limits(&n);
	int ts = argc == 2 && !strcmp(argv[1], "--ts");

	if (argc > 2 || (argc == 2 && !ts)) {
		int help = argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"));
		fprintf(help ? stdout : stderr,
			"usage: blab limits [--ts]\n\n"
			"The core's hard limits (docs/limits.md) as JSON, or with --ts as the\n"
			"TypeScript module web/log/core-limits.ts.\n");
		return help ? 0 : 2;
	}
	if (ts)
		printf("// The C core's hard limits (docs/limits.md), written by `blab limits --ts`\n"
		       "// (make core-limits): do not edit. web/log/core-limits.test.ts fails when this\n"
		       "// file and the core drift apart.\n"
		       "export const CORE_LIMITS = {\n");
	else
		printf("{\n");
	for (unsigned i = 0; i < n; i++) {
		if (ts)
			printf("  /** %s */\n  %s: %llu,\n", l[i].what, l[i].key, l[i].value);
		else
			printf("  \"%s\": %llu%s\n", l[i].key, l[i].value, i + 1 < n ? "," : "");
	}
	printf(ts ? "} as const;\n" : "}\n");
	return 0;
}
