/*
 * blab_latency.h - how long each page allocation and free took on the model machine, in the
 * model's cycles: the whole call, the part spent waiting for zone->lock, and the part inside
 * rmqueue_bulk() / free_pcppages_bulk(), by the path the call took; and each rmqueue_bulk()
 * and free_pcppages_bulk() call on its own, as BCC's funclatency measures a kernel function.
 * A run asks for it with blab_sim_config.latency (blab sim --latency); docs/model.md,
 * "Latency", says what is measured and how exact the percentiles are.
 *
 * Memory is bounded whatever the run's length: per series (below) one counter for every
 * cycle count under 2^BLAB_LAT_EXACT_BITS, then 2^BLAB_LAT_SUB_BITS buckets for each power
 * of two up to 2^BLAB_LAT_TOP_BITS cycles (and one for anything above), each bucket with the
 * smallest and largest value it took in; and log2 histograms in nanoseconds of the modelled
 * clock (bpf_log2l()'s slots, what funclatency prints) per CPU and series.
 */
#ifndef BLAB_LATENCY_H
#define BLAB_LATENCY_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The series: the first BLAB_LAT_OPS are whole calls by their path, then the functions. */
enum blab_lat_series {
	BLAB_LAT_ALLOC_PCP = 0,       /* a pcp hit: the block came off the CPU's list */
	BLAB_LAT_ALLOC_REFILL = 1,    /* the list was empty: rmqueue_bulk() refilled it first */
	BLAB_LAT_ALLOC_DIRECT = 2,    /* from the buddy lists under zone->lock: an order with no
				       * pcp list, no lists at all (2.5.44), or pcp->lock busy */
	BLAB_LAT_FREE_PCP = 3,        /* onto the CPU's list, no drain */
	BLAB_LAT_FREE_DRAIN = 4,      /* the list reached high: free_pcppages_bulk() */
	BLAB_LAT_FREE_DIRECT = 5,     /* free_one_page() under zone->lock */
	BLAB_LAT_RMQUEUE_BULK = 6,    /* each rmqueue_bulk() call */
	BLAB_LAT_FREE_PCPPAGES_BULK = 7, /* each free_pcppages_bulk() call: a free's (one per
					  * chunk on 6.19), drain_pages()'s and the decay's */
	BLAB_LAT_NSERIES = 8,
};
#define BLAB_LAT_OPS 6u
/* masks of series, for the queries */
#define BLAB_LAT_MASK(s) (1u << (s))
#define BLAB_LAT_MASK_ALLOC 0x07u
#define BLAB_LAT_MASK_FREE 0x38u

/* The parts of a call (the functions have their whole call only). */
enum blab_lat_part {
	BLAB_LAT_TOTAL = 0,     /* the call, first instruction to return */
	BLAB_LAT_LOCK_WAIT = 1, /* waiting for zone->lock: spinning, the hand-off and the atomic */
	BLAB_LAT_BULK = 2,      /* inside rmqueue_bulk() / free_pcppages_bulk(), its own
				 * zone->lock wait included, as funclatency on it would count */
	BLAB_LAT_NPARTS = 3,
};

#define BLAB_LAT_EXACT_BITS 13u /* values under 8192 cycles: a counter each */
#define BLAB_LAT_SUB_BITS 7u    /* 128 buckets per power of two above: at most 1/128 wide */
#define BLAB_LAT_TOP_BITS 48u   /* 2^48 cycles and more share the last bucket */
/* bpf_log2l() slots: 1 holds 0 and 1, slot i > 1 holds 2^(i-1) .. 2^i - 1; 0 is unused */
#define BLAB_LAT_LOG2_SLOTS 65u
#define BLAB_LAT_MAX_CPUS 1024u

struct blab_latency;

/* A recorder for cpus CPUs (1..BLAB_LAT_MAX_CPUS) whose clock runs at cpu_mhz (>= 1): NULL
 * for bad arguments or no memory. Everything starts at zero. */
struct blab_latency *blab_latency_new(unsigned cpus, unsigned cpu_mhz);
void blab_latency_free(struct blab_latency *l);
/* The host bytes blab_latency_new(cpus, ..) allocates (0 for a bad count). */
uint64_t blab_latency_mem_bytes(unsigned cpus);
unsigned blab_latency_cpus(const struct blab_latency *l);
unsigned blab_latency_cpu_mhz(const struct blab_latency *l);

/* One call of series `s` (< BLAB_LAT_OPS) on cpu: its cycles, of which lock_wait waited for
 * zone->lock and bulk ran inside the bulk function. 0, or BLAB_EINVAL (bad recorder, cpu or
 * series, or parts larger than the whole). */
int blab_latency_record(struct blab_latency *l, unsigned cpu, unsigned s, uint64_t total,
			uint64_t lock_wait, uint64_t bulk);
/* One rmqueue_bulk() or free_pcppages_bulk() call (s >= BLAB_LAT_OPS): 0 or BLAB_EINVAL. */
int blab_latency_record_call(struct blab_latency *l, unsigned cpu, unsigned s, uint64_t cycles);

/*
 * The same, with where the call ran, so that a player can find it in the run's event log:
 * `start` is the CPU's clock when it began and `pfn` the block an allocation handed out or a
 * free took back (the ALLOC / FREE record on that CPU with that pfn, its time from start to
 * start + total). A function's call (record_call_at) is that CPU's first RMQUEUE_BULK /
 * PCP_DRAIN record at or after start. The recorder keeps, per series and log2 slot, the
 * longest call that fell in it (blab_latency_longest()): a click on a histogram's bucket has
 * an allocation to go to. The plain functions above keep none.
 */
int blab_latency_record_at(struct blab_latency *l, unsigned cpu, unsigned s, uint64_t start,
			   uint64_t total, uint64_t lock_wait, uint64_t bulk, uint64_t pfn);
int blab_latency_record_call_at(struct blab_latency *l, unsigned cpu, unsigned s,
				uint64_t start, uint64_t cycles);

/* One call, where it ran and how long it took (see blab_latency_record_at()). */
struct blab_lat_call {
	uint64_t start;  /* the CPU's clock when the call began */
	uint64_t cycles; /* its length; 0: no call */
	uint64_t pfn;    /* the allocation's or free's block; 0 for rmqueue_bulk() and
			  * free_pcppages_bulk() calls */
	uint32_t cpu, series;
};
/* The longest call of the mask's series (all CPUs) in bpf_log2l() slot `slot` (1 .. 64) of the
 * nanosecond histograms below, among those recorded with where they ran; ties: the first. 0
 * with *out filled (cycles 0 when there is none), or BLAB_EINVAL (a bad recorder, mask or
 * slot). */
int blab_latency_longest(const struct blab_latency *l, uint32_t mask, unsigned slot,
			 struct blab_lat_call *out);

/* A nearest-rank percentile: the value `lo` .. `hi` holds the exact one; exact when equal. */
struct blab_lat_pct {
	uint64_t lo, hi;
};
/* One part of the series in a mask together. Counts and sums are exact; so are min and max. */
struct blab_lat_summary {
	uint64_t count, sum, min, max;
	struct blab_lat_pct p50, p99, p99_9;
};
/* 0 with *out filled (all zero when nothing was counted), or BLAB_EINVAL: a bad recorder,
 * an empty or unknown mask, or a part the mask's series do not have (the functions have
 * BLAB_LAT_TOTAL only). */
int blab_latency_summary(const struct blab_latency *l, uint32_t mask, unsigned part,
			 struct blab_lat_summary *out);
/* The value ppm millionths of the way up the mask's calls (nearest rank: the smallest value
 * at least ceil(count * ppm / 10^6) calls are at or under), 1 <= ppm <= 10^6. 0, or
 * BLAB_EINVAL as above (and for a bad ppm); {0, 0} when nothing was counted. */
int blab_latency_percentile(const struct blab_latency *l, uint32_t mask, unsigned part,
			    uint32_t ppm, struct blab_lat_pct *out);
/* The log2 histogram in nanoseconds of the modelled clock of the mask's calls (one part),
 * for cpu, or all CPUs with BLAB_LAT_ALL_CPUS (the parts other than the total are kept for
 * all CPUs only): out[0 .. BLAB_LAT_LOG2_SLOTS), bpf_log2l() slots. 0 or BLAB_EINVAL. */
#define BLAB_LAT_ALL_CPUS 0xffffffffu
int blab_latency_log2(const struct blab_latency *l, uint32_t mask, unsigned part, unsigned cpu,
		      uint64_t *out);

/* The bpf_log2l() slot of v (1 .. 64) */
unsigned blab_log2_slot(uint64_t v);
/* The slots as BCC's print_log2_hist() prints them (funclatency's histogram): a header with
 * `unit` ("nsecs", "usecs"), then "low -> high : count |stars|" from slot 1 to the last
 * nonzero one, nothing when all are zero; like snprintf, returns the length needed. */
size_t blab_log2_text(const uint64_t *slots, unsigned nslots, const char *unit, char *buf,
		      size_t cap);

/* The model's calls a kernel function's latency compares with: rmqueue_bulk over the
 * rmqueue_bulk series (the refills), free_pcppages_bulk over its own, rmqueue_pcplist over pcp
 * hits and refills, rmqueue_buddy over direct allocations, free_one_page over direct frees,
 * free_unref_page_commit over pcp frees and drains, __alloc_pages / get_page_from_freelist /
 * rmqueue over every allocation and free_unref_page / free_frozen_pages / __free_pages over
 * every free. name may carry more around the function (bpftrace's "@rmqueue_bulk_ns"): the
 * longest function it contains counts. A mask of series (0: none) and, in *function when not
 * NULL, that function's name (NULL when none). */
uint32_t blab_latency_mask_for_function(const char *name, const char **function);

/* Series names: "alloc_pcp", "alloc_refill", "alloc_direct", "free_pcp", "free_drain",
 * "free_direct", "rmqueue_bulk", "free_pcppages_bulk"; NULL past the end. */
const char *blab_latency_series_name(unsigned s);

/*
 * Everything as one JSON object (docs/model.md, "Latency"): the unit and clock, "alloc" and
 * "free" (every path together), each series under "paths" (with "lock_wait" and "bulk" for
 * the calls), the longest call of each log2 slot of the totals ("longest": [slot, cpu, start,
 * cycles, pfn] each), and the log2 histograms per CPU. Like snprintf, returns the length needed.
 */
size_t blab_latency_json(const struct blab_latency *l, char *buf, size_t cap);

#ifdef __cplusplus
}
#endif
#endif
