/*
 * cmd_run.c - `blab run`: a workload on the real machine (real threads, a real spinlock, the
 * host's clock), printed the way will-it-scale prints: per-second samples (min, max and total
 * over the tasks), a warm-up, the average, then a tasks/score/linear table (docs/real.md).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "blab.h"
#include "blab_real.h"
#include "cli.h"
#include "options.h"

#define MAX_PRESETS 8
#define MAX_COUNTS 64
#define MAX_SECONDS 3600u
#define MAX_WARMUP 60u

static void run_help(FILE *f)
{
	fprintf(f,
"usage: blab run [--workload page_fault1] [--threads LIST] [--preset P[,P2...]]\n"
"                [--seconds S] [--warmup W] [--pages N] [--no-pin] [--untimed]\n"
"                [--mem-limit SIZE]\n"
"\n"
"Runs a workload on the real machine: one real thread per CPU of the zone (each owns its\n"
"per-cpu page lists), zone->lock and lru_lock as ticket spinlocks on C11 atomics, the\n"
"host's clock. Output follows will-it-scale: a sample every second (min, max and total\n"
"pages/s over the tasks), W warm-up seconds, S measured ones, their average, and the lock\n"
"statistics of the measured seconds; at the end one row per thread count with the score\n"
"of each preset and 'linear' (the 1-task score times tasks). At the end of the seconds the\n"
"threads stop faulting, unmap what they hold and end; each run says how long after its\n"
"deadline that took.\n"
"\n"
"  --workload page_fault1  each task maps N pages, writes one byte to each (fault: an\n"
"                     order-0 page from the pcp, clear_page), unmaps them (free), forever\n"
"  --threads LIST     thread counts to run, each 1..%u: 2, 1..4, 1,2,4 (default 1)\n"
"  --preset P[,P2]    presets to compare (blab presets), at most %u (default %s)\n"
"  --seconds S        measured seconds, 1..%u (default 5)\n"
"  --warmup W         warm-up seconds before them, 0..%u (default 1)\n"
"  --pages N          pages each task maps per round, 1..%u (default 32768 = 128 MB)\n"
"  --no-pin           do not pin thread i to the i-th allowed CPU (pthread_setaffinity_np)\n"
"  --untimed          count lock acquisitions but do not time spins and holds\n"
"  --mem-limit SIZE   host memory a run may take (bytes, or with K, M, G, T or Ki ..\n"
"                     Ti; default $BLAB_MEM_LIMIT, else half of this machine's memory)\n"
"\n"
"Lock statistics: acquisitions per page faulted, share of thread time spent spinning,\n"
"share of acquisitions that waited, mean hold time; also per thread. prefetch() is\n"
"__builtin_prefetch natively; WebAssembly has no prefetch instruction, so the WASM build\n"
"(node wasm-core/cli/blab.mjs run ...) runs without it and says so.\n"
"\n"
"example:\n"
"  blab run --threads 1,2 --preset v2.5.44,v4.16 --seconds 3\n",
		BLAB_RUN_MAX_THREADS, MAX_PRESETS, BLAB_DEFAULT_PRESET, MAX_SECONDS, MAX_WARMUP,
		BLAB_RUN_MAX_PAGES);
}

/* a whole decimal number lo..hi, or -1 */
static long parse_num(const char *s, long lo, long hi)
{
	char *end;
	long v;

	if (!s || *s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v < lo || v > hi)
		return -1;
	return v;
}

struct run_opts {
	unsigned counts[MAX_COUNTS], ncounts;
	char presets[MAX_PRESETS][32];
	unsigned npresets;
	unsigned seconds, warmup, pages;
	int pin, untimed;
	uint64_t mem_limit;
};

static int parse_presets(const char *s, struct run_opts *o)
{
	char buf[MAX_PRESETS * 32 + MAX_PRESETS];
	char *tok, *save = NULL;

	if (!*s || strlen(s) >= sizeof(buf)) {
		fprintf(stderr, "blab run: --preset: give one to %u preset names\n", MAX_PRESETS);
		return -1;
	}
	strcpy(buf, s);
	if (buf[strlen(buf) - 1] == ',' || buf[0] == ',' || strstr(buf, ",,")) {
		fprintf(stderr, "blab run: --preset: empty name in '%s'\n", s);
		return -1;
	}
	o->npresets = 0;
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		struct blab_strategy st;
		if (o->npresets == MAX_PRESETS) {
			fprintf(stderr, "blab run: --preset: at most %u presets\n", MAX_PRESETS);
			return -1;
		}
		if (blab_preset(tok, &st)) {
			fprintf(stderr, "blab run: --preset: unknown preset '%s' (see blab presets)\n",
				tok);
			return -1;
		}
		for (unsigned i = 0; i < o->npresets; i++)
			if (!strcmp(o->presets[i], tok)) {
				fprintf(stderr, "blab run: --preset: '%s' given twice\n", tok);
				return -1;
			}
		snprintf(o->presets[o->npresets++], sizeof(o->presets[0]), "%s", tok);
	}
	return 0;
}

/* 0, 1 (help printed) or -1 (error printed) */
static int parse_args(int argc, char **argv, struct run_opts *o)
{
	char err[160];
	int n;

	memset(o, 0, sizeof(*o));
	o->counts[0] = 1;
	o->ncounts = 1;
	snprintf(o->presets[0], sizeof(o->presets[0]), "%s", BLAB_DEFAULT_PRESET);
	o->npresets = 1;
	o->seconds = 5;
	o->warmup = 1;
	o->pages = 32768;
	o->pin = 1;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		long x;
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			run_help(stdout);
			return 1;
		}
		if (!strcmp(a, "--no-pin")) {
			o->pin = 0;
			continue;
		}
		if (!strcmp(a, "--untimed")) {
			o->untimed = 1;
			continue;
		}
		if (strcmp(a, "--workload") && strcmp(a, "--threads") && strcmp(a, "--preset") &&
		    strcmp(a, "--seconds") && strcmp(a, "--warmup") && strcmp(a, "--pages") &&
		    strcmp(a, "--mem-limit")) {
			fprintf(stderr, "blab run: unknown option '%s' (blab run --help)\n", a);
			return -1;
		}
		if (!v) {
			fprintf(stderr, "blab run: %s needs a value\n", a);
			return -1;
		}
		i++;
		if (!strcmp(a, "--workload")) {
			if (strcmp(v, "page_fault1")) {
				fprintf(stderr, "blab run: --workload: unknown workload '%s' "
						"(the real machine runs page_fault1)\n", v);
				return -1;
			}
		} else if (!strcmp(a, "--threads")) {
			n = blab_run_parse_threads(v, BLAB_RUN_MAX_THREADS, o->counts, MAX_COUNTS, err,
						   sizeof(err));
			if (n < 0) {
				fprintf(stderr, "blab run: --threads '%s': %s\n", v, err);
				return -1;
			}
			o->ncounts = (unsigned)n;
		} else if (!strcmp(a, "--preset")) {
			if (parse_presets(v, o))
				return -1;
		} else if (!strcmp(a, "--mem-limit")) {
			if (cli_parse_size(v, &o->mem_limit) || !o->mem_limit) {
				fprintf(stderr, "blab run: --mem-limit wants bytes (a number with K, M, "
						"G or T, or Ki, Mi, Gi, Ti), not '%s'\n", v);
				return -1;
			}
		} else if (!strcmp(a, "--seconds")) {
			if ((x = parse_num(v, 1, MAX_SECONDS)) < 0) {
				fprintf(stderr, "blab run: --seconds '%s': give a whole number 1..%u\n", v,
					MAX_SECONDS);
				return -1;
			}
			o->seconds = (unsigned)x;
		} else if (!strcmp(a, "--warmup")) {
			if ((x = parse_num(v, 0, MAX_WARMUP)) < 0) {
				fprintf(stderr, "blab run: --warmup '%s': give a whole number 0..%u\n", v,
					MAX_WARMUP);
				return -1;
			}
			o->warmup = (unsigned)x;
		} else {
			if ((x = parse_num(v, 1, BLAB_RUN_MAX_PAGES)) < 0) {
				fprintf(stderr, "blab run: --pages '%s': give a whole number 1..%u\n", v,
					BLAB_RUN_MAX_PAGES);
				return -1;
			}
			o->pages = (unsigned)x;
		}
	}
	if (cli_mem_limit(&o->mem_limit, err, sizeof(err))) {
		fprintf(stderr, "blab run: %s\n", err);
		return -1;
	}
	for (unsigned i = 0; i < o->ncounts; i++)
		if ((uint64_t)o->counts[i] * o->pages > BLAB_RUN_MAX_MAPPED) {
			fprintf(stderr, "blab run: %u threads x %u pages is over %u mapped pages\n",
				o->counts[i], o->pages, BLAB_RUN_MAX_MAPPED);
			return -1;
		}
	return 0;
}

static void sleep_ns(uint64_t ns)
{
	struct timespec ts = {(time_t)(ns / 1000000000u), (long)(ns % 1000000000u)};
	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static void sum_locks(const struct blab_run_thread *a, const struct blab_run_thread *b,
		      unsigned n, unsigned lock, struct blab_run_lock *d, uint64_t *pages)
{
	memset(d, 0, sizeof(*d));
	*pages = 0;
	for (unsigned i = 0; i < n; i++) {
		d->acquisitions += b[i].lock[lock].acquisitions - a[i].lock[lock].acquisitions;
		d->contended += b[i].lock[lock].contended - a[i].lock[lock].contended;
		d->spin_ns += b[i].lock[lock].spin_ns - a[i].lock[lock].spin_ns;
		d->hold_ns += b[i].lock[lock].hold_ns - a[i].lock[lock].hold_ns;
		*pages += b[i].pages - a[i].pages;
	}
}

static void print_lock(const char *name, const struct blab_run_lock *d, uint64_t pages,
		       uint64_t thread_ns, int untimed)
{
	printf("%-11s %.4f acquisitions/page, %.1f%% contended", name,
	       pages ? (double)d->acquisitions / (double)pages : 0.0,
	       d->acquisitions ? 100.0 * (double)d->contended / (double)d->acquisitions : 0.0);
	if (untimed)
		printf(" (spin and hold not timed: --untimed)\n");
	else
		printf(", spin %.2f%% of thread time, hold %.0f ns mean\n",
		       thread_ns ? 100.0 * (double)d->spin_ns / (double)thread_ns : 0.0,
		       d->acquisitions ? (double)d->hold_ns / (double)d->acquisitions : 0.0);
}

/* one preset at one thread count; *score = the average of the measured seconds */
static int run_one(const struct run_opts *o, const char *preset, unsigned threads,
		   double *score)
{
	struct blab_run_config c;
	struct blab_run *r;
	struct blab_run_thread *prev, *cur, *warm;
	char err[200], why[100];
	uint64_t t_prev = 0, t_warm = 0, t, wait_ns = 0;
	double sum = 0;
	int ret;

	blab_run_config_init(&c);
	c.threads = threads;
	c.pages = o->pages;
	c.pin = (uint8_t)o->pin;
	c.untimed = (uint8_t)o->untimed;
	c.mem_limit = o->mem_limit;
	blab_preset(preset, &c.strategy);
	prev = calloc(threads, sizeof(*prev));
	cur = calloc(threads, sizeof(*cur));
	warm = calloc(threads, sizeof(*warm));
	if (!prev || !cur || !warm) {
		fprintf(stderr, "blab run: out of memory\n");
		free(prev), free(cur), free(warm);
		return 1;
	}
	ret = blab_run_start(&c, &r, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "blab run: %s\n", err);
		free(prev), free(cur), free(warm);
		return 1;
	}
	printf("\npreset %s, %u task%s, pcp batch %u high %u\n", preset, threads,
	       threads == 1 ? "" : "s", blab_run_batch(r), blab_run_high(r));
	for (unsigned i = 0; i < threads; i++) {
		int cpu = blab_run_pinned(r, i, why, sizeof(why));
		if (cpu >= 0)
			printf("%s%d", i ? "," : "pinned to cpus ", cpu);
		else if (i == 0)
			printf("not pinned: %s", why);
		if (cpu < 0)
			break;
	}
	printf("\n");
	/* wait (at most 30 s) until every thread has started and they went together */
	while (!(t = blab_run_sample(r, prev, threads)) && wait_ns < 30000000000ull) {
		sleep_ns(1000000);
		wait_ns += 1000000;
	}
	if (!t) {
		blab_run_stop(r);
		blab_run_free(r);
		fprintf(stderr, "blab run: the threads did not start within 30 s\n");
		free(prev), free(cur), free(warm);
		return 1;
	}
	t_prev = 0;
	memset(prev, 0, threads * sizeof(*prev)); /* counters start at 0 when they go */
	if (o->warmup)
		printf("warmup\n");
	for (unsigned k = 1; k <= o->warmup + o->seconds; k++) {
		uint64_t min = UINT64_MAX, max = 0, total = 0;
		double dt;
		t = blab_run_sample(r, NULL, 0);
		if (t < (uint64_t)k * 1000000000u)
			sleep_ns((uint64_t)k * 1000000000u - t);
		t = blab_run_sample(r, cur, threads);
		dt = (double)(t - t_prev) / 1e9;
		for (unsigned i = 0; i < threads; i++) {
			uint64_t ps = (uint64_t)((double)(cur[i].pages - prev[i].pages) / dt + 0.5);
			min = ps < min ? ps : min;
			max = ps > max ? ps : max;
			total += ps;
		}
		if (k == o->warmup + 1)
			printf("measurement\n");
		printf("min:%llu max:%llu total:%llu\n", (unsigned long long)min,
		       (unsigned long long)max, (unsigned long long)total);
		if (k > o->warmup)
			sum += (double)total;
		if (k == o->warmup) {
			memcpy(warm, cur, threads * sizeof(*cur));
			t_warm = t;
		}
		memcpy(prev, cur, threads * sizeof(*cur));
		t_prev = t;
		fflush(stdout);
	}
	/* the deadline: threads stop now, while the figures are printed (--seconds bounds the
	 * run; what the stop takes is reported below) */
	blab_run_stop(r);
	*score = sum / o->seconds;
	printf("average:%.0f\n", *score);
	{
		struct blab_run_lock d;
		uint64_t pages, window = t_prev - t_warm;
		sum_locks(warm, cur, threads, 0, &d, &pages);
		print_lock("zone->lock", &d, pages, window * threads, o->untimed);
		sum_locks(warm, cur, threads, 1, &d, &pages);
		print_lock("lru_lock", &d, pages, window * threads, o->untimed);
		for (unsigned i = 0; i < threads && !o->untimed; i++) {
			struct blab_run_lock z;
			uint64_t p;
			sum_locks(&warm[i], &cur[i], 1, 0, &z, &p);
			printf("  task %u: %.0f pages/s, zone->lock spin %.2f%%, hold %.0f ns mean\n", i,
			       window ? (double)p * 1e9 / (double)window : 0.0,
			       window ? 100.0 * (double)z.spin_ns / (double)window : 0.0,
			       z.acquisitions ? (double)z.hold_ns / (double)z.acquisitions : 0.0);
		}
	}
	ret = blab_run_finish(r, err, sizeof(err));
	t = blab_run_sample(r, NULL, 0);
	if (!ret) {
		uint64_t deadline = (uint64_t)(o->warmup + o->seconds) * 1000000000u;
		printf("stopped %.3f s after the deadline (the threads' last steps and unmapping)\n",
		       t > deadline ? (double)(t - deadline) / 1e9 : 0.0);
	}
	blab_run_free(r);
	free(prev), free(cur), free(warm);
	if (ret) {
		fprintf(stderr, "blab run: %s\n", err);
		return 1;
	}
	return 0;
}

int cmd_run(int argc, char **argv)
{
	struct run_opts o;
	static double score[MAX_COUNTS][MAX_PRESETS];
	int p = parse_args(argc, argv, &o);

	if (p)
		return p > 0 ? 0 : 2;
	printf("testcase: page_fault1 (Separate %u KB private mappings), real machine\n",
	       o.pages * 4u);
	if (blab_run_has_prefetch())
		printf("prefetch: __builtin_prefetch\n");
	else
		printf("prefetch: none (WebAssembly has no prefetch instruction)\n");
	for (unsigned ci = 0; ci < o.ncounts; ci++)
		for (unsigned pi = 0; pi < o.npresets; pi++)
			if (run_one(&o, o.presets[pi], o.counts[ci], &score[ci][pi]))
				return 1;
	printf("\ntasks");
	for (unsigned pi = 0; pi < o.npresets; pi++)
		printf(",%s,%s_linear", o.presets[pi], o.presets[pi]);
	printf("\n");
	for (unsigned ci = 0; ci < o.ncounts; ci++) {
		printf("%u", o.counts[ci]);
		for (unsigned pi = 0; pi < o.npresets; pi++) {
			/* linear: what the first row would give with perfect scaling */
			double per_task = score[0][pi] / o.counts[0];
			printf(",%.0f,%.0f", score[ci][pi], per_task * o.counts[ci]);
		}
		printf("\n");
	}
	return 0;
}
