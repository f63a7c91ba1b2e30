/* sim_args.c - the option table of `blab sim` and its checks (sim_args.h) */
#include "sim_args.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "blab.h"
#include "sim_jobs.h"

/* which workloads use an option: a bit per workload id */
#define W(id) (1u << (id))
#define HB W(BLAB_WL_HACKBENCH)
#define HI (W(BLAB_WL_STRESS_HIGHALLOC) | W(BLAB_WL_MIXED))
#define PA (W(BLAB_WL_PAGE_FAULT1) | W(BLAB_WL_PARALLEL_FREE) | W(BLAB_WL_TRUNC) | HI)
#define RUNS (PA | HB) /* every workload's runs, and not --points' */
#define PT (1u << 31)  /* --points FILE: a list of runs, each with its own settings */
_Static_assert(BLAB_WL_MIXED < 31, "a workload's bit is not --points' bit");
#define OFF(f) offsetof(struct sim_args, f)
_Static_assert(BLAB_MAX_LOG_EVENTS == 1u << 26, "--events' help says 2^26 records");
_Static_assert(MODEL_PARAMS_FILE_MAX == 16384, "--params' help says 16384 bytes");

static int preset_ok(const char *name)
{
	struct blab_strategy s;
	return strlen(name) < 32 && blab_preset(name, &s) == 0;
}

static const char *const on_off[] = {"off", "on", NULL};
static const char *const compact_modes[] = {"none", "merge", "full", NULL};

/* Table order is the order of the synopsis, the option list and the --json echo. */
static const struct cli_opt sim_opts[] = {
	{.name = "--workload", .value = "NAME", .kind = CLI_TEXT, .off = OFF(workload),
	 .flags = CLI_REQUIRED, .only = RUNS,
	 .help = "page_fault1, parallel_free, trunc, hackbench, stress_highalloc or mixed"},
	{.name = "--cpus", .value = "1,2,4,8", .kind = CLI_NUMBERS, .off = OFF(cpus), .min = 1,
	 .max = BLAB_SIM_MAX_CPUS, .count = 32, .def = "1,2,4,8", .only = PA,
	 .help = "CPU counts, one task each: a row each"},
	{.name = "--preset", .value = "v4.16,v4.17,v5.18", .kind = CLI_NAMES, .off = OFF(presets),
	 .count = 32, .name_ok = preset_ok, .unknown = "unknown preset '%s' (blab presets lists them)",
	 .def = "v4.16,v4.17,v5.18", .only = PA, .help = "presets to compare: a column each"},
	{.name = "--groups", .value = "2,4,8", .kind = CLI_NUMBERS, .off = OFF(groups), .min = 1,
	 .max = BLAB_HACKBENCH_MAX_GROUPS, .count = 32, .def = "2,4,8", .only = HB,
	 .help = "groups, one CPU each (2..112; 1.. with --same-cpu)"},
	{.name = "--pages", .value = "N", .kind = CLI_UINT, .off = OFF(pages), .min = 1,
	 .max = BLAB_SIM_MAX_PAGES, .def = "32768", .json = "pages", .only = PA,
	 .help = "pages each task maps per round (stress_highalloc: the zone's fill)"},
	{.name = "--iterations", .value = "N", .kind = CLI_UINT, .off = OFF(iterations), .min = 1,
	 .max = BLAB_SIM_MAX_ITERATIONS, .def = "2", .json = "iterations", .only = PA,
	 .help = "rounds, the first a warm-up when there are two or more "
		 "(stress_highalloc: attempts)"},
	{.name = "--loops", .value = "N", .kind = CLI_UINT, .off = OFF(loops), .min = 1,
	 .max = BLAB_HACKBENCH_MAX_LOOPS, .def = "4000", .json = "loops", .only = HB,
	 .help = "messages each sender sends (4000: seed 003's hackbench 50 process 4000)"},
	{.name = "--object-size", .value = "B", .kind = CLI_UINT, .off = OFF(object_size), .min = 8,
	 .max = 4096, .def = "256", .json = "object_size", .only = HB,
	 .help = "bytes of each message's object (the skb head)"},
	{.name = "--data-size", .value = "B", .kind = CLI_UINT, .off = OFF(data_size), .max = 4096,
	 .def = "512", .json = "data_size", .only = HB,
	 .help = "bytes of a second object a message, from its own cache: the skb's data buffer, "
		 "which __alloc_skb() takes from kmalloc after the head (0: none, a bare head; "
		 "else 8..4096)"},
	{.name = "--same-cpu", .kind = CLI_FLAG, .off = OFF(same_cpu), .json = "same_cpu", .only = HB,
	 .help = "each receiver on its sender's CPU: the control, every free a fast-path free"},
	{.name = "--slub-prefetch", .value = "off,on", .kind = CLI_NAMES, .off = OFF(slub_prefetch),
	 .count = 2, .choices = on_off, .unknown = "--slub-prefetch wants off or on, not '%s'",
	 .def = "off,on", .only = HB, .help = "SLUB's freelist prefetch: off, on, or both"},
	{.name = "--preset", .value = "NAME", .kind = CLI_NAMES, .off = OFF(hb_preset), .count = 1,
	 .name_ok = preset_ok, .unknown = "unknown preset '%s' (blab presets lists them)",
	 .def = "v4.16", .json = "preset", .only = HB,
	 .help = "the page allocator below the slabs (v4.16: the oldest preset with a pcp list "
		 "per migratetype, as the 3.3 kernel of seed 003's hackbench had)"},
	{.name = "--seed", .value = "N", .kind = CLI_UINT, .off = OFF(seed), .max = UINT64_MAX,
	 .def = "1", .json = "seed", .only = RUNS, .help = "the run's one PRNG (start jitter)"},
	{.name = "--sockets", .value = "N", .kind = CLI_UINT, .off = OFF(sockets), .min = 1,
	 .max = 8, .json = "sockets", .only = PA,
	 .help = "sockets of the modelled machine (default: the parameters' 2 = 112 CPUs, "
		 "or 4 (224) / 8 (448, runs use up to 256) when --cpus needs them)"},
	{.name = "--cache-scale", .value = "N", .kind = CLI_POW2, .off = OFF(cache_scale), .min = 1,
	 .max = 64, .def = "1", .json = "cache_scale", .only = PA,
	 .help = "divide L2 and LLC sizes by N: a run with 32768/N --pages then has the "
		 "footprint-to-cache ratio of will-it-scale's 128 MB"},
	{.name = "--node-zones", .kind = CLI_FLAG, .off = OFF(node_zones), .json = "node_zones",
	 .flags = CLI_JSON_IF_SET, .only = PA,
	 .help = "page_fault1 and parallel_free: a zone (own free_area and zone->lock) "
		 "and an LRU list (own lru_lock) per socket, as a NUMA machine has them; "
		 "each task on its socket's. zlock%, acq/page, hold/acq, miss_locked and lru% "
		 "then sum over the nodes' locks, and a table of each node's acquisitions "
		 "follows (--json: node_zone_acquisitions, node_lru_acquisitions). Not with "
		 "--events (the event file describes one zone); --hash covers every zone"},
	{.name = "--out-of-step", .kind = CLI_FLAG, .off = OFF(out_of_step), .json = "out_of_step",
	 .flags = CLI_JSON_IF_SET, .only = PA,
	 .help = "page_fault1 with --iterations 3 or more: the tasks run out of step, each at "
		 "its own point of its loop, as will-it-scale's processes are minutes into a "
		 "run: each cuts its second round at a page of its own and runs the rest after "
		 "its scored rounds (docs/sim.md, \"Tasks in step\")"},
	/* the pcp overrides the browser's compare view and lessons use; the zone range-checks
	 * them (docs/limits.md) */
	{.name = "--batch", .value = "N", .kind = CLI_UINT, .off = OFF(batch), .min = 1,
	 .max = UINT32_MAX, .only = RUNS, .help = "every pcp list's batch instead of the preset's"},
	{.name = "--high", .value = "N", .kind = CLI_UINT, .off = OFF(high), .min = 1,
	 .max = UINT32_MAX, .only = RUNS, .help = "every pcp list's high instead of the preset's"},
	{.name = "--pcp-batch-scale-max", .value = "N", .kind = CLI_UINT,
	 .off = OFF(pcp_batch_scale_max), .max = BLAB_PCP_BATCH_SCALE_MAX_LIMIT, .only = RUNS,
	 .help = "CONFIG_PCP_BATCH_SCALE_MAX of the 6.7+ presets (52166607ecc9; the Kconfig's "
		 "0..6, default 5): a refill takes at most batch << N pages, and free_count, a "
		 "hard drain, the decay and 6.10's drain_pages() chunks are bounded by it too; "
		 "refused with an older preset, which has no such option"},
	/* a real machine's pcp sizes and what the run did with them (docs/modern-pcp.md) */
	{.name = "--zoneinfo", .value = "FILE", .kind = CLI_TEXT, .off = OFF(zoneinfo), .only = PA,
	 .help = "the pcp sizes (batch, high; 6.7+ high_min and high_max) of a real machine's "
		 "zone, by each preset's own formulas (blab zoneinfo FILE shows them), instead "
		 "of those of a 96 GB node with 56 CPUs"},
	{.name = "--zone", .value = "NAME", .kind = CLI_TEXT, .off = OFF(zone), .def = "Normal",
	 .only = PA, .help = "with --zoneinfo: the zone"},
	{.name = "--zone-node", .value = "N", .kind = CLI_UINT, .off = OFF(zone_node),
	 .max = BLAB_ZONEINFO_MAX_NODE, .only = PA,
	 .help = "with --zoneinfo: the zone's node (default: the first zone of that name)"},
	{.name = "--zone-cpus", .value = "N", .kind = CLI_UINT, .off = OFF(zone_cpus), .min = 1,
	 .max = BLAB_ZONEINFO_MAX_CPUS, .only = PA,
	 .help = "with --zoneinfo: the CPUs of the zone's node (default: the CPUs the file "
		 "has pagesets for)"},
	{.name = "--histogram", .kind = CLI_FLAG, .off = OFF(histogram), .only = PA,
	 .help = "also print the size of every rmqueue_bulk() refill and every drain, per "
		 "CPU (--json: \"histogram\" in each preset's object); blab import --histogram "
		 "counts a real trace the same way"},
	{.name = "--latency", .kind = CLI_FLAG, .off = OFF(latency), .only = PA,
	 .help = "also count how long each page allocation and free took, by path (pcp hit, "
		 "refill, direct; pcp, drain, direct) with its zone->lock wait and its time in "
		 "rmqueue_bulk() / free_pcppages_bulk(), and each of those calls: p50, p99, p99.9 "
		 "and max in cycles, histograms as funclatency prints them (--json: \"latency\" in "
		 "each preset's object; docs/model.md, Latency). Changes no other number"},
	{.name = "--clear-lines", .value = "N", .kind = CLI_UINT, .off = OFF(clear_lines), .min = 1,
	 .max = 64, .def = "64", .only = PA,
	 .help = "frame lines clear_page() passes through the cache model"},
	{.name = "--hi-order", .value = "N", .kind = CLI_UINT, .off = OFF(hi_order), .min = 1,
	 .max = BLAB_DEFAULT_TOP_ORDER, .def = "9", .only = HI,
	 .help = "stress_highalloc, mixed: the order of the high-order blocks"},
	{.name = "--delay-us", .value = "N", .kind = CLI_UINT, .off = OFF(delay_us),
	 .max = BLAB_SIM_MAX_DELAY_US, .def = "1000", .only = W(BLAB_WL_STRESS_HIGHALLOC),
	 .help = "stress_highalloc: virtual microseconds between attempts"},
	{.name = "--compact", .value = "none|merge|full", .kind = CLI_CHOICE, .off = OFF(compact),
	 .choices = compact_modes, .def = "full", .only = HI,
	 .help = "stress_highalloc, mixed: what a failed attempt does first"},
	{.name = "--csv", .kind = CLI_FLAG, .off = OFF(csv), .only = RUNS,
	 .help = "comma-separated values"},
	{.name = "--json", .kind = CLI_FLAG, .off = OFF(json), .only = RUNS,
	 .help = "one JSON object"},
	{.name = "--hash", .kind = CLI_FLAG, .off = OFF(hash),
	 .only = RUNS, .help = "also print a 64-bit FNV-1a digest of each run's event records"},
	{.name = "--events", .value = "FILE", .kind = CLI_TEXT, .off = OFF(events),
	 .only = RUNS,
	 .help = "write the run's 32-byte event records (docs/events.md) to FILE, at most "
		 "2^26 of them; one run only (one --cpus or --groups value, one --preset "
		 "or --slub-prefetch value)"},
	{.name = "--params", .value = "FILE", .kind = CLI_TEXT, .off = OFF(params), .only = PA,
	 .help = "model parameters (key = value lines, as blab calibrate writes them; "
		 "keys left out keep their defaults; at most 16384 bytes); the file's "
		 "topology sets how many CPUs the modelled machine has"},
	{.name = "--bench", .kind = CLI_FLAG, .off = OFF(bench), .only = PA,
	 .help = "also print, on stderr, host seconds and simulated page operations "
		 "(allocations + frees) per host second for the whole sweep"},
	{.name = "--points", .value = "FILE", .kind = CLI_TEXT, .off = OFF(points), .only = PT,
	 .flags = CLI_REQUIRED,
	 .help = "instead of a sweep: run each point of FILE (one key a line, as the "
		 "browser's lesson tables and compare view write them; - reads stdin) and "
		 "print each point's record, one JSON line: its key and every counter, as "
		 "the browser's core counts them"},
	{.name = "--jobs", .value = "N", .kind = CLI_UINT, .off = OFF(jobs), .min = 1,
	 .max = SIM_JOBS_MAX, .def = "1", .only = PA | PT,
	 .help = "runs at once, each on its own thread; the output is the same bytes as "
		 "with 1"},
	{.name = "--cache", .value = "DIR", .kind = CLI_TEXT, .off = OFF(cache), .only = PT,
	 .help = "--points: keep each point's record in DIR, keyed by the core build hash "
		 "(blab version) and the point; a point found there is not run again"},
	{.name = "--shard", .value = "I/N", .kind = CLI_TEXT, .off = OFF(shard_arg), .only = PT,
	 .help = "--points: run only every N-th point from the I-th, printed as a shard "
		 "that blab merge puts back together with the others (docs/sim.md, Fan-out)"},
	{.name = "--mem-limit", .value = "SIZE", .kind = CLI_SIZE, .off = OFF(mem_limit), .min = 1,
	 .max = UINT64_MAX,
	 .help = "host memory a run may take: bytes, or with K, M, G, T (10^3 ..) or "
		 "Ki .. Ti (2^10 ..); past it a run is refused before it starts. Default: "
		 "$BLAB_MEM_LIMIT, else half of this machine's memory"},
};

/* --pcp-batch-scale-max: every preset of the run must have CONFIG_PCP_BATCH_SCALE_MAX, which
 * came with 6.7 (52166607ecc9); setting it for an older kernel would be a kernel that never
 * was */
static int check_batch_scale(struct sim_args *a, char *err, size_t errlen)
{
	const struct cli_list *l = a->workload_id == BLAB_WL_HACKBENCH ? &a->hb_preset : &a->presets;

	a->pcp_batch_scale_given = cli_given(&a->p, "--pcp-batch-scale-max");
	for (uint32_t i = 0; a->pcp_batch_scale_given && i < l->n; i++) {
		struct blab_strategy s;
		if (blab_preset(l->name[i], &s) == 0 && !blab_strategy_has_batch_scale(&s)) {
			snprintf(err, errlen, "--pcp-batch-scale-max: preset %s has no "
				 "CONFIG_PCP_BATCH_SCALE_MAX (it came with 6.7, 52166607ecc9); give "
				 "it with 6.7+ presets only (v6.7, v6.16, v6.19)", l->name[i]);
			return -1;
		}
	}
	return 0;
}

int sim_args_parse(struct sim_args *a, int argc, char **argv, char *err, size_t errlen)
{
	const char *wname = NULL;
	char why[160], names[256] = "";
	int r;

	int points = 0;

	memset(a, 0, sizeof(*a));
	/* the workload first (or --points): it decides which options exist */
	for (int i = 1; i + 1 < argc && !wname; i++)
		if (!strcmp(argv[i], "--workload"))
			wname = argv[i + 1];
	for (int i = 1; i < argc; i++)
		points |= !strcmp(argv[i], "--points");
	a->p.opt = sim_opts;
	a->p.nopt = sizeof(sim_opts) / sizeof(sim_opts[0]);
	a->p.mask = PA;
	if (points) {
		a->p.mask = PT;
		a->p.why_not = "%s: with --points each point says its own settings (only --jobs, "
			       "--cache, --shard and --mem-limit go with it)";
		r = cli_parse(&a->p, argc, argv, a, err, errlen);
		a->p.why_not = NULL;
		if (r)
			return r;
		if (a->shard_arg && sim_shard_parse(a->shard_arg, &a->shard)) {
			snprintf(err, errlen, "--shard wants I/N with 1 <= I <= N <= %u, not '%.40s'",
				 SIM_SHARD_MAX, a->shard_arg);
			return -1;
		}
		return 0;
	} else if (wname && blab_sim_workload_id(wname)) {
		uint32_t id = blab_sim_workload_id(wname);
		a->p.mask = W(id);
		a->workload_id = id;
		if (id == BLAB_WL_HACKBENCH) {
			a->p.for_what = "hackbench";
			for (int i = 1; i < argc; i++)
				if (!strcmp(argv[i], "--node-zones")) {
					snprintf(err, errlen, "--node-zones: hackbench runs on one zone only: "
						 "its slab caches and their pages live in one zone (the "
						 "slab layer has no per-node lists)");
					return -1;
				}
		} else {
			snprintf(why, sizeof(why), "%%s: %s has no use for it (blab sim --help says "
				 "which workloads do)", wname);
			a->p.why_not = why;
		}
	}
	r = cli_parse(&a->p, argc, argv, a, err, errlen);
	a->p.why_not = NULL; /* it pointed into this frame */
	if (r)
		return r;
	for (uint32_t w = 0; w < blab_sim_workload_count(); w++)
		snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s", w ? ", " : "",
			 blab_sim_workload_name(w));
	if (!a->workload) {
		snprintf(err, errlen, "--workload is required (%s)", names);
		return -1;
	}
	if (!a->workload_id) {
		snprintf(err, errlen, "unknown workload '%.100s' (%s)", a->workload, names);
		return -1;
	}
	if (a->csv && a->json) {
		snprintf(err, errlen, "--csv and --json exclude each other");
		return -1;
	}
	a->zone_node_given = cli_given(&a->p, "--zone-node");
	if (!a->zoneinfo && (a->zone_node_given || cli_given(&a->p, "--zone-cpus") ||
			     cli_given(&a->p, "--zone"))) {
		snprintf(err, errlen, "--zone, --zone-node and --zone-cpus need --zoneinfo FILE");
		return -1;
	}
	if (check_batch_scale(a, err, errlen))
		return -1;
	if (a->workload_id == BLAB_WL_HACKBENCH) {
		for (uint32_t g = 0; g < a->groups.n; g++) {
			if (a->groups.v[g] < (a->same_cpu ? 1u : 2u)) {
				snprintf(err, errlen, "--groups wants numbers 2..112 (remote frees need "
					 "two CPUs), not '%s'", a->groups.name[g]);
				return -1;
			}
			if (a->groups.v[g] * a->loops > BLAB_HACKBENCH_MAX_WORK) {
				snprintf(err, errlen, "--groups %s x --loops is over the %llu-message "
					 "limit", a->groups.name[g],
					 (unsigned long long)BLAB_HACKBENCH_MAX_WORK);
				return -1;
			}
		}
		if (a->events && (a->groups.n != 1 || a->slub_prefetch.n != 1)) {
			snprintf(err, errlen, "--events needs one --groups value and one "
					      "--slub-prefetch value");
			return -1;
		}
		return 0;
	}
	if (a->out_of_step && (a->workload_id != BLAB_WL_PAGE_FAULT1 || a->iterations < 3)) {
		snprintf(err, errlen, "--out-of-step needs page_fault1 and --iterations 3 or more "
				      "(the warm-up, the round each task cuts at its own page, and a "
				      "scored one)");
		return -1;
	}
	if (a->events && a->node_zones) {
		snprintf(err, errlen, "--events cannot be used with --node-zones: the event file "
				      "(and the web player) describes one zone, and a run with a "
				      "zone per node interleaves several zones' records; use --hash "
				      "to check such a run");
		return -1;
	}
	if (a->events && (a->cpus.n != 1 || a->presets.n != 1)) {
		snprintf(err, errlen, "--events needs one --cpus value and one --preset");
		return -1;
	}
	return 0;
}

int sim_args_machine(struct sim_args *a, struct model_params *mp, int have_params, char *err,
		     size_t errlen)
{
	uint64_t maxc = 0;
	uint32_t max_cpus;
	char why[120];

	for (uint32_t c = 0; c < a->cpus.n; c++)
		maxc = a->cpus.v[c] > maxc ? a->cpus.v[c] : maxc;
	/* the parameters' sockets (2 by default), or with --sockets that many; without either,
	 * if --cpus needs more, 4 (seed 000's Skylake 4S) or 8 sockets of the same chips
	 * (docs/sim.md, Topology); a --params file's topology is what was asked for: never grown */
	if (a->sockets) {
		mp->sockets = (uint32_t)a->sockets;
	} else if (!have_params && maxc > model_cpus_max(mp)) {
		for (uint32_t s = 4; s <= 8 && maxc > model_cpus_max(mp); s *= 2)
			mp->sockets = s;
	}
	a->sockets = mp->sockets;
	if (model_params_check(mp, why, sizeof(why))) {
		snprintf(err, errlen, "--sockets: %s", why);
		return -1;
	}
	max_cpus = model_cpus_max(mp);
	for (uint32_t c = 0; c < a->cpus.n; c++) {
		const char *n = a->cpus.name[c];
		uint64_t cpus = a->cpus.v[c];
		if (cpus > max_cpus) {
			snprintf(err, errlen, "--cpus %s: the modelled machine has %u CPUs", n, max_cpus);
			return -1;
		}
		if (cpus * a->pages > BLAB_SIM_MAX_MAPPED) {
			snprintf(err, errlen, "--cpus %s x --pages is over the %u-page limit", n,
				 BLAB_SIM_MAX_MAPPED);
			return -1;
		}
		if (cpus * a->pages * a->iterations > BLAB_SIM_MAX_WORK) {
			snprintf(err, errlen, "--cpus %s x --pages x --iterations is over the %llu "
					      "limit", n, (unsigned long long)BLAB_SIM_MAX_WORK);
			return -1;
		}
	}
	return 0;
}

const char *sim_args_help_ref(const struct sim_args *a)
{
	return a->workload_id == BLAB_WL_HACKBENCH ? "blab sim --workload hackbench --help"
						    : "blab sim --help";
}

/* the table as the help of a's workload shows it: hackbench's, or the page allocator's (with
 * --points, whose runs are the page allocator's too) */
static struct cli_parse help_view(const struct sim_args *a, unsigned extra)
{
	struct cli_parse p = a->p;
	p.mask = a->workload_id == BLAB_WL_HACKBENCH ? HB : PA | extra;
	return p;
}

void sim_args_usage(FILE *f, const struct sim_args *a)
{
	struct cli_parse p = help_view(a, 0);
	cli_synopsis(f, &p, "usage: blab sim", 16);
	if (a->workload_id != BLAB_WL_HACKBENCH) {
		p.mask = PT;
		cli_synopsis(f, &p, "       blab sim", 16);
	}
}

void sim_args_options(FILE *f, const struct sim_args *a)
{
	struct cli_parse p = help_view(a, PT);
	cli_help(f, &p);
}
