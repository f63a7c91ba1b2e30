/*
 * cmd_import.c - `blab import FILE|-`: summarise a real kernel trace of the kmem: page
 * tracepoints (perf script or tracefs text).  The parser is src/trace.c (blab_trace.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "blab.h"
#include "blab_hist.h"
#include "blab_histtext.h"
#include "blab_trace.h"
#include "cli_io.h"

int cmd_import(int argc, char **argv);

static void import_help(FILE *f)
{
	fprintf(f,
"usage: blab import FILE|- [--histogram] [--json]\n"
"\n"
"Reads a trace of the kernel's page allocator, recorded on a real Linux machine, and\n"
"prints what happened in it: how many pages were allocated and freed, on which CPUs,\n"
"of which orders and migratetypes, and how the per-cpu lists were refilled from the\n"
"buddy lists (rmqueue_bulk) and drained back (free_pcppages_bulk), in batches.\n"
"\n"
"It understands the six kmem: page tracepoints, in the text of `perf script` and of\n"
"tracefs (/sys/kernel/tracing/trace or trace_pipe):\n"
"  mm_page_alloc              a page (block of 2^order pages) handed out\n"
"  mm_page_free               a page given back\n"
"  mm_page_free_batched       ... given back as part of a batch (release_pages())\n"
"  mm_page_pcpu_drain         a page moved from a per-cpu list to the buddy lists\n"
"  mm_page_alloc_zone_locked  a page taken off the buddy lists under zone->lock;\n"
"                             percpu_refill=1: to refill a per-cpu list\n"
"  mm_page_alloc_extfrag      an allocation stole from another migratetype\n"
"\n"
"Recording needs root. Without it: perf needs kernel.perf_event_paranoid = -1 (or\n"
"CAP_PERFMON) and read access to /sys/kernel/tracing (for the event formats); tracefs\n"
"needs write access to /sys/kernel/tracing. A page_fault1 run (mmap, touch, munmap), with\n"
"the program from the buddylab repository:\n"
"\n"
"  gcc -O2 bench/kernel_page_fault1.c -o /tmp/pf1\n"
"\n"
"  perf:\n"
"    perf record -m 4096 -e kmem:mm_page_alloc -e kmem:mm_page_free \\\n"
"      -e kmem:mm_page_free_batched -e kmem:mm_page_pcpu_drain \\\n"
"      -e kmem:mm_page_alloc_zone_locked -e kmem:mm_page_alloc_extfrag -a -- \\\n"
"      sh -c '/tmp/pf1 --tasks 1 --samples 1 --warmup 0 --interval 0.1 --mb 16; sleep 4'\n"
"    perf script > trace.txt\n"
"\n"
"  tracefs:\n"
"    cd /sys/kernel/tracing\n"
"    EV='mm_page_alloc mm_page_free mm_page_free_batched mm_page_pcpu_drain\n"
"        mm_page_alloc_zone_locked mm_page_alloc_extfrag'\n"
"    echo > trace; echo 8192 > buffer_size_kb\n"
"    for e in $EV; do echo 1 > events/kmem/$e/enable; done\n"
"    /tmp/pf1 --tasks 1 --samples 1 --warmup 0 --interval 0.1 --mb 16; sleep 4\n"
"    for e in $EV; do echo 0 > events/kmem/$e/enable; done\n"
"    cat trace > ~/trace.txt; echo > trace\n"
"\n"
"  then: blab import trace.txt\n"
"\n"
"Latency histograms: the text of BCC's funclatency (nsecs or usecs) and of bpftrace's\n"
"hist() and lhist() is recognised too; then it prints each histogram's kind, name, unit,\n"
"the model's calls it compares with (funclatency rmqueue_bulk: the model's rmqueue_bulk\n"
"calls) and its buckets ('bucket LO HI count N', '-' for an open end), or with --json\n"
"one object. For example (docs/import.md):\n"
"    funclatency rmqueue_bulk > rmqueue_bulk.txt\n"
"    bpftrace -e 'kprobe:rmqueue_bulk { @s[tid] = nsecs; }\n"
"      kretprobe:rmqueue_bulk /@s[tid]/ { @rmqueue_bulk_ns = hist(nsecs - @s[tid]);\n"
"      delete(@s[tid]); }' > rmqueue_bulk.txt\n"
"A bad histogram is refused whole, with its line and why.\n"
"\n"
"The sleep lets the kernel drain the per-cpu lists (mm_page_pcpu_drain) after the run.\n"
"These tracepoints fire for every page: a busy second is ~100,000 lines.\n"
"\n"
"Output: one fact per line, 'name value...', for people and for scripts:\n"
"  lines / lines_comment / lines_skipped / lines_malformed   what the input held;\n"
"      lines that are not kmem page events are skipped, not errors; the first %u\n"
"      malformed lines are listed with their line number and why\n"
"  event NAME N          events of each tracepoint (equal to grep -c 'NAME:' on the file)\n"
"  alloc_failed          mm_page_alloc with page=(null): the allocation failed\n"
"  cpu C events N ...    events per CPU, then per tracepoint in the order of cpu_columns\n"
"  order K allocs A frees F       allocs and frees of 2^K pages\n"
"  migratetype M NAME N  allocs of migratetype M (1 movable: user pages, page cache)\n"
"  refill_batches / refill_size   runs of percpu_refill=1 on one CPU (one rmqueue_bulk)\n"
"  drain_batches / drain_size     runs of mm_page_pcpu_drain on one CPU\n"
"  unknown_pages         pages freed that the trace never saw allocated (allocated\n"
"                        before the recording started: not an error)\n"
"  pfn_range, time       lowest and highest pfn, first and last timestamp (seconds)\n"
"  rate_us +T allocs A frees F   allocs and frees per time bucket from the first event\n"
"  limits                the parser's bounds: line length, lines, events\n"
"  --histogram: refill cpu C: SIZE xN, ...   every refill run's exact size per CPU,\n"
"                        and drain cpu C: ... (what blab sim --histogram counts)\n"
"  --json                only the histogram and the event counts, as one JSON object\n"
"\n"
"Exit status 1 with 'blab import: ...' when the input cannot be read, is empty, holds\n"
"no kmem page event, or passes a bound (the summary up to there is printed first).\n"
"docs/import.md says more.\n",
		BLAB_TRACE_REASONS);
}

/* --json: the histogram and the counts it rests on */
static void print_json(const struct blab_trace *t)
{
	const struct blab_trace_stats *st = blab_trace_stats(t);
	size_t need = blab_hist_json(blab_trace_hist(t), NULL, 0);
	char *h = malloc(need + 1);

	printf("{\"events\":%llu,\"cpus\":%llu,\"refills\":%llu,\"drains\":%llu,"
	       "\"histogram\":%s}\n",
	       (unsigned long long)st->events, (unsigned long long)st->cpus,
	       (unsigned long long)st->refill.count, (unsigned long long)st->drain.count,
	       h && blab_hist_json(blab_trace_hist(t), h, need + 1) == need ? h : "null");
	free(h);
}

/* The rest of a latency histogram's text after its first chunk, read whole (it is small and
 * bounded), parsed and printed. 0, or 1 with why on stderr. */
static int import_histtext(const char *name, FILE *in, const char *first, size_t n, int json)
{
	size_t len = n, cap = n + 65536;
	char *text = malloc(cap), err[300];
	struct blab_histtext *h = NULL;
	int r;

	if (!text) {
		fprintf(stderr, "blab import: out of memory\n");
		cli_close_read("blab import", name, in);
		return 1;
	}
	memcpy(text, first, n);
	while (len <= BLAB_HISTTEXT_MAX_INPUT && (n = fread(text + len, 1, cap - len, in)) > 0) {
		len += n;
		if (len == cap && cap <= BLAB_HISTTEXT_MAX_INPUT) {
			char *more = realloc(text, cap *= 2);
			if (!more)
				break;
			text = more;
		}
	}
	if (cli_close_read("blab import", name, in)) {
		free(text);
		return 1;
	}
	r = blab_histtext_parse(text, len, &h, err, sizeof(err));
	free(text);
	if (r) {
		fprintf(stderr, "blab import: %s: %s\n", name, err);
		return 1;
	}
	n = json ? blab_histtext_json(h, NULL, 0) : blab_histtext_text(h, NULL, 0);
	if ((text = malloc(n + 1))) {
		json ? blab_histtext_json(h, text, n + 1) : blab_histtext_text(h, text, n + 1);
		fputs(text, stdout);
		if (json)
			fputs("\n", stdout);
		free(text);
	}
	blab_histtext_free(h);
	return text ? 0 : 1;
}

int cmd_import(int argc, char **argv)
{
	static char chunk[65536];
	const char *name = NULL;
	FILE *in;
	int ret = 0, err, histogram = 0, json = 0;
	size_t n;

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			import_help(stdout);
			return 0;
		} else if (strcmp(argv[i], "--histogram") == 0) {
			histogram = 1;
		} else if (strcmp(argv[i], "--json") == 0) {
			json = 1;
		} else if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr, "blab import: unknown option '%s'\n", argv[i]);
			return 2;
		} else if (name) {
			fprintf(stderr, "blab import: one file only\n");
			return 2;
		} else {
			name = argv[i];
		}
	}
	if (!name) {
		import_help(stderr);
		return 2;
	}
	in = cli_open_read("blab import", name);
	if (!in)
		return 1;
	/* BCC or bpftrace latency histograms, or a kmem trace: the first chunk tells */
	errno = 0;
	n = fread(chunk, 1, sizeof(chunk), in);
	if (blab_histtext_sniff(chunk, n))
		return import_histtext(name, in, chunk, n, json);
	struct blab_trace *t = blab_trace_new(0);
	if (!t) {
		fprintf(stderr, "blab import: out of memory\n");
		cli_close_read("blab import", name, in);
		return 1;
	}
	if (n && blab_trace_feed(t, chunk, n) >= 0)
		while ((n = fread(chunk, 1, sizeof(chunk), in)) > 0)
			if (blab_trace_feed(t, chunk, n) < 0)
				break;
	if (cli_close_read("blab import", name, in)) {
		blab_trace_free(t);
		return 1;
	}
	err = blab_trace_finish(t);
	if (err != BLAB_TRACE_EEMPTY && err != BLAB_TRACE_ENOEVENTS && json) {
		print_json(t);
	} else if (err != BLAB_TRACE_EEMPTY && err != BLAB_TRACE_ENOEVENTS) {
		size_t need = blab_trace_summary(t, NULL, 0);
		char *buf = malloc(need + 1);
		if (buf) {
			blab_trace_summary(t, buf, need + 1);
			fputs(buf, stdout);
			free(buf);
		}
		need = histogram ? blab_hist_text(blab_trace_hist(t), "", NULL, 0) : 0;
		buf = need ? malloc(need + 1) : NULL;
		if (buf) {
			blab_hist_text(blab_trace_hist(t), "", buf, need + 1);
			fputs(buf, stdout);
			free(buf);
		}
	}
	fflush(stdout);
	if (err) {
		const struct blab_trace_stats *st = blab_trace_stats(t);
		fprintf(stderr, "blab import: %s: %s\n", name, blab_trace_error(t));
		if (err == BLAB_TRACE_ENOEVENTS)
			for (unsigned i = 0; i < st->reasons; i++)
				fprintf(stderr, "blab import: malformed line %llu: %s\n",
					(unsigned long long)st->reason_line[i], st->reason[i]);
		ret = 1;
	}
	blab_trace_free(t);
	return ret;
}
