/*
 * latency.c - the latency recorder (include/blab_latency.h): for each series and part a
 * distribution that answers percentiles, and log2 histograms in nanoseconds per CPU.
 *
 * Why not exact for every value: a single pass that must answer any percentile exactly has
 * to keep every distinct value it saw (Munro and Paterson, 1980), and a run of the model may
 * make tens of millions of calls. So a distribution keeps one counter per cycle count below
 * 2^BLAB_LAT_EXACT_BITS (8192 cycles, 3.3 us at 2.5 GHz: every pcp hit and most uncontended
 * refills), and above it 2^BLAB_LAT_SUB_BITS buckets per power of two (each at most 1/128 of
 * its values wide), each bucket with the smallest and largest value it took in. A percentile
 * whose rank falls below the bound is exact; above it, it is the bucket's [smallest, largest]
 * seen, and exact when the rank is the bucket's first or last or its values were all one.
 * Counts, sums, minimum and maximum are exact always. About 173 KB a distribution, whatever
 * the run's length.
 */
#include <stdlib.h>
#include <string.h>

#include "blab.h"
#include "blab_latency.h"

#define NEXACT (1u << BLAB_LAT_EXACT_BITS)
#define NSUB (1u << BLAB_LAT_SUB_BITS)
/* the buckets from 2^EXACT_BITS up to 2^TOP_BITS, and one past it */
#define NLOG ((BLAB_LAT_TOP_BITS - BLAB_LAT_EXACT_BITS) * NSUB + 1u)
#define NCOUNT (NEXACT + NLOG)

struct dist {
	uint64_t count, sum, min, max;
	uint64_t *n;    /* NCOUNT: the exact slots, then the buckets */
	uint64_t *bmin; /* NLOG: a bucket's smallest value (0: none yet; its values are >= NEXACT) */
	uint64_t *bmax; /* NLOG */
};

struct blab_latency {
	unsigned cpus, mhz;
	struct dist d[BLAB_LAT_NSERIES][BLAB_LAT_NPARTS]; /* the functions: TOTAL only */
	uint64_t *cpu_log2; /* [cpu][series][slot], the totals */
	uint64_t part_log2[BLAB_LAT_NSERIES][BLAB_LAT_NPARTS][BLAB_LAT_LOG2_SLOTS]; /* all CPUs */
	/* per series and log2 slot of the totals, the longest call recorded with where it ran:
	 * what a click on a histogram's bucket goes to in the replay */
	struct blab_lat_call longest[BLAB_LAT_NSERIES][BLAB_LAT_LOG2_SLOTS];
	uint64_t *block;    /* every dist's arrays, one allocation */
};

static unsigned nparts(unsigned s)
{
	return s < BLAB_LAT_OPS ? BLAB_LAT_NPARTS : 1u;
}

static unsigned ndists(void)
{
	return BLAB_LAT_OPS * BLAB_LAT_NPARTS + (BLAB_LAT_NSERIES - BLAB_LAT_OPS);
}

uint64_t blab_latency_mem_bytes(unsigned cpus)
{
	if (cpus < 1 || cpus > BLAB_LAT_MAX_CPUS)
		return 0;
	return sizeof(struct blab_latency) +
	       (uint64_t)ndists() * (NCOUNT + 2u * NLOG) * sizeof(uint64_t) +
	       (uint64_t)cpus * BLAB_LAT_NSERIES * BLAB_LAT_LOG2_SLOTS * sizeof(uint64_t);
}

struct blab_latency *blab_latency_new(unsigned cpus, unsigned cpu_mhz)
{
	struct blab_latency *l;
	uint64_t *p;

	if (cpus < 1 || cpus > BLAB_LAT_MAX_CPUS || cpu_mhz < 1)
		return NULL;
	l = calloc(1, sizeof(*l));
	if (!l)
		return NULL;
	l->cpus = cpus;
	l->mhz = cpu_mhz;
	l->block = calloc((size_t)ndists() * (NCOUNT + 2u * NLOG), sizeof(uint64_t));
	l->cpu_log2 = calloc((size_t)cpus * BLAB_LAT_NSERIES * BLAB_LAT_LOG2_SLOTS, sizeof(uint64_t));
	if (!l->block || !l->cpu_log2) {
		blab_latency_free(l);
		return NULL;
	}
	p = l->block;
	for (unsigned s = 0; s < BLAB_LAT_NSERIES; s++)
		for (unsigned part = 0; part < nparts(s); part++) {
			struct dist *d = &l->d[s][part];
			d->n = p;
			d->bmin = p + NCOUNT;
			d->bmax = p + NCOUNT + NLOG;
			p += NCOUNT + 2u * NLOG;
		}
	return l;
}

void blab_latency_free(struct blab_latency *l)
{
	if (!l)
		return;
	free(l->block);
	free(l->cpu_log2);
	free(l);
}

unsigned blab_latency_cpus(const struct blab_latency *l)
{
	return l ? l->cpus : 0;
}

unsigned blab_latency_cpu_mhz(const struct blab_latency *l)
{
	return l ? l->mhz : 0;
}

/* the bucket of a value at or above NEXACT */
static unsigned log_bucket(uint64_t v)
{
	unsigned k = 63u - (unsigned)__builtin_clzll(v);

	if (k >= BLAB_LAT_TOP_BITS)
		return NLOG - 1u;
	return (k - BLAB_LAT_EXACT_BITS) * NSUB + (unsigned)((v >> (k - BLAB_LAT_SUB_BITS)) - NSUB);
}

unsigned blab_log2_slot(uint64_t v)
{
	/* bpf_log2l(): floor(log2(v)) + 1, and 1 for 0 */
	return v ? 64u - (unsigned)__builtin_clzll(v) : 1u;
}

static void dist_add(struct dist *d, uint64_t v)
{
	if (!d->count++ || v < d->min)
		d->min = v;
	if (v > d->max)
		d->max = v;
	d->sum += v;
	if (v < NEXACT) {
		d->n[v]++;
	} else {
		unsigned b = log_bucket(v);
		d->n[NEXACT + b]++;
		if (!d->bmin[b] || v < d->bmin[b])
			d->bmin[b] = v;
		if (v > d->bmax[b])
			d->bmax[b] = v;
	}
}

/* nanoseconds of the modelled clock, as a kernel's clock would read them */
static uint64_t ns_of(const struct blab_latency *l, uint64_t cycles)
{
	return cycles / l->mhz * 1000u + cycles % l->mhz * 1000u / l->mhz;
}

static void add(struct blab_latency *l, unsigned cpu, unsigned s, unsigned part, uint64_t v)
{
	unsigned slot = blab_log2_slot(ns_of(l, v));

	dist_add(&l->d[s][part], v);
	l->part_log2[s][part][slot]++;
	if (part == BLAB_LAT_TOTAL)
		l->cpu_log2[((size_t)cpu * BLAB_LAT_NSERIES + s) * BLAB_LAT_LOG2_SLOTS + slot]++;
}

/* the call is the slot's longest so far (the first of equals stays): keep where it ran */
static void note(struct blab_latency *l, unsigned cpu, unsigned s, uint64_t start, uint64_t v,
		 uint64_t pfn)
{
	struct blab_lat_call *c = &l->longest[s][blab_log2_slot(ns_of(l, v))];

	if (c->cycles && v <= c->cycles)
		return;
	c->start = start;
	c->cycles = v;
	c->pfn = pfn;
	c->cpu = cpu;
	c->series = s;
}

int blab_latency_record_at(struct blab_latency *l, unsigned cpu, unsigned s, uint64_t start,
			   uint64_t total, uint64_t lock_wait, uint64_t bulk, uint64_t pfn)
{
	int rc = blab_latency_record(l, cpu, s, total, lock_wait, bulk);

	if (!rc && total)
		note(l, cpu, s, start, total, pfn);
	return rc;
}

int blab_latency_record_call_at(struct blab_latency *l, unsigned cpu, unsigned s,
				uint64_t start, uint64_t cycles)
{
	int rc = blab_latency_record_call(l, cpu, s, cycles);

	if (!rc && cycles)
		note(l, cpu, s, start, cycles, 0);
	return rc;
}

int blab_latency_longest(const struct blab_latency *l, uint32_t mask, unsigned slot,
			 struct blab_lat_call *out)
{
	if (!l || !out || !mask || mask >> BLAB_LAT_NSERIES || slot < 1 ||
	    slot >= BLAB_LAT_LOG2_SLOTS)
		return BLAB_EINVAL;
	memset(out, 0, sizeof(*out));
	for (unsigned s = 0; s < BLAB_LAT_NSERIES; s++) {
		const struct blab_lat_call *c = &l->longest[s][slot];
		if ((mask & BLAB_LAT_MASK(s)) && c->cycles > out->cycles)
			*out = *c;
	}
	return 0;
}

int blab_latency_record(struct blab_latency *l, unsigned cpu, unsigned s, uint64_t total,
			uint64_t lock_wait, uint64_t bulk)
{
	if (!l || cpu >= l->cpus || s >= BLAB_LAT_OPS || lock_wait > total || bulk > total)
		return BLAB_EINVAL;
	add(l, cpu, s, BLAB_LAT_TOTAL, total);
	add(l, cpu, s, BLAB_LAT_LOCK_WAIT, lock_wait);
	add(l, cpu, s, BLAB_LAT_BULK, bulk);
	return 0;
}

int blab_latency_record_call(struct blab_latency *l, unsigned cpu, unsigned s, uint64_t cycles)
{
	if (!l || cpu >= l->cpus || s < BLAB_LAT_OPS || s >= BLAB_LAT_NSERIES)
		return BLAB_EINVAL;
	add(l, cpu, s, BLAB_LAT_TOTAL, cycles);
	return 0;
}

/* the mask names series that exist, and all of them have the part */
static int query_ok(const struct blab_latency *l, uint32_t mask, unsigned part)
{
	if (!l || !mask || mask >> BLAB_LAT_NSERIES || part >= BLAB_LAT_NPARTS)
		return 0;
	for (unsigned s = 0; s < BLAB_LAT_NSERIES; s++)
		if ((mask & BLAB_LAT_MASK(s)) && part >= nparts(s))
			return 0;
	return 1;
}

/* ceil(count * ppm / 10^6), at least 1, without overflow */
static uint64_t rank_of(uint64_t count, uint32_t ppm)
{
	uint64_t r = count / 1000000u * ppm + (count % 1000000u * ppm + 999999u) / 1000000u;
	return r ? r : 1;
}

/*
 * The values of ranks rank[0..k) (ascending) of the mask's part: one walk over the slots.
 * Bucket values lie in [smallest, largest seen]; the bucket's first rank is its smallest and
 * its last its largest, exactly.
 */
static void ranks(const struct blab_latency *l, uint32_t mask, unsigned part, const uint64_t *rank,
		  unsigned k, struct blab_lat_pct *out)
{
	uint64_t cum = 0;
	unsigned j = 0;

	for (uint32_t i = 0; i < NCOUNT && j < k; i++) {
		uint64_t c = 0, lo = UINT64_MAX, hi = 0;
		for (unsigned s = 0; s < BLAB_LAT_NSERIES; s++) {
			const struct dist *d = &l->d[s][part];
			if (!(mask & BLAB_LAT_MASK(s)) || !d->n[i])
				continue;
			c += d->n[i];
			if (i >= NEXACT) {
				lo = d->bmin[i - NEXACT] < lo ? d->bmin[i - NEXACT] : lo;
				hi = d->bmax[i - NEXACT] > hi ? d->bmax[i - NEXACT] : hi;
			}
		}
		for (; j < k && c && rank[j] <= cum + c; j++) {
			if (i < NEXACT)
				out[j].lo = out[j].hi = i;
			else if (rank[j] == cum + 1)
				out[j].lo = out[j].hi = lo;
			else if (rank[j] == cum + c)
				out[j].lo = out[j].hi = hi;
			else
				out[j].lo = lo, out[j].hi = hi;
		}
		cum += c;
	}
}

int blab_latency_summary(const struct blab_latency *l, uint32_t mask, unsigned part,
			 struct blab_lat_summary *out)
{
	static const uint32_t ppm[3] = {500000u, 990000u, 999000u};
	struct blab_lat_pct p[3];
	uint64_t rank[3];

	if (!out || !query_ok(l, mask, part))
		return BLAB_EINVAL;
	memset(out, 0, sizeof(*out));
	for (unsigned s = 0; s < BLAB_LAT_NSERIES; s++) {
		const struct dist *d = &l->d[s][part];
		if (!(mask & BLAB_LAT_MASK(s)) || !d->count)
			continue;
		if (!out->count || d->min < out->min)
			out->min = d->min;
		out->max = d->max > out->max ? d->max : out->max;
		out->count += d->count;
		out->sum += d->sum;
	}
	if (!out->count)
		return 0;
	for (unsigned i = 0; i < 3; i++)
		rank[i] = rank_of(out->count, ppm[i]);
	ranks(l, mask, part, rank, 3, p);
	out->p50 = p[0];
	out->p99 = p[1];
	out->p99_9 = p[2];
	return 0;
}

int blab_latency_percentile(const struct blab_latency *l, uint32_t mask, unsigned part,
			    uint32_t ppm, struct blab_lat_pct *out)
{
	struct blab_lat_summary sm;
	uint64_t rank;

	if (!out || ppm < 1 || ppm > 1000000u || blab_latency_summary(l, mask, part, &sm))
		return BLAB_EINVAL;
	out->lo = out->hi = 0;
	if (!sm.count)
		return 0;
	rank = rank_of(sm.count, ppm);
	ranks(l, mask, part, &rank, 1, out);
	return 0;
}

int blab_latency_log2(const struct blab_latency *l, uint32_t mask, unsigned part, unsigned cpu,
		      uint64_t *out)
{
	if (!out || !query_ok(l, mask, part) ||
	    (cpu != BLAB_LAT_ALL_CPUS && (cpu >= l->cpus || part != BLAB_LAT_TOTAL)))
		return BLAB_EINVAL;
	memset(out, 0, BLAB_LAT_LOG2_SLOTS * sizeof(*out));
	for (unsigned s = 0; s < BLAB_LAT_NSERIES; s++) {
		const uint64_t *h;
		if (!(mask & BLAB_LAT_MASK(s)))
			continue;
		h = cpu == BLAB_LAT_ALL_CPUS
			    ? l->part_log2[s][part]
			    : &l->cpu_log2[((size_t)cpu * BLAB_LAT_NSERIES + s) * BLAB_LAT_LOG2_SLOTS];
		for (unsigned i = 0; i < BLAB_LAT_LOG2_SLOTS; i++)
			out[i] += h[i];
	}
	return 0;
}

const char *blab_latency_series_name(unsigned s)
{
	static const char *const names[BLAB_LAT_NSERIES] = {
		"alloc_pcp", "alloc_refill", "alloc_direct", "free_pcp",
		"free_drain", "free_direct", "rmqueue_bulk", "free_pcppages_bulk",
	};
	return s < BLAB_LAT_NSERIES ? names[s] : NULL;
}

uint32_t blab_latency_mask_for_function(const char *name, const char **function)
{
	/* longest first, so that a name holding two (free_unref_page_commit holds
	 * free_unref_page) takes the one it is */
	static const struct {
		const char *fn;
		uint32_t mask;
	} map[] = {
		{"free_frozen_page_commit", BLAB_LAT_MASK(BLAB_LAT_FREE_PCP) | BLAB_LAT_MASK(BLAB_LAT_FREE_DRAIN)},
		{"free_unref_page_commit", BLAB_LAT_MASK(BLAB_LAT_FREE_PCP) | BLAB_LAT_MASK(BLAB_LAT_FREE_DRAIN)},
		{"get_page_from_freelist", BLAB_LAT_MASK_ALLOC},
		{"free_pcppages_bulk", BLAB_LAT_MASK(BLAB_LAT_FREE_PCPPAGES_BULK)},
		{"free_frozen_pages", BLAB_LAT_MASK_FREE},
		{"rmqueue_pcplist", BLAB_LAT_MASK(BLAB_LAT_ALLOC_PCP) | BLAB_LAT_MASK(BLAB_LAT_ALLOC_REFILL)},
		{"free_unref_page", BLAB_LAT_MASK_FREE},
		{"rmqueue_buddy", BLAB_LAT_MASK(BLAB_LAT_ALLOC_DIRECT)},
		{"free_one_page", BLAB_LAT_MASK(BLAB_LAT_FREE_DIRECT)},
		{"__alloc_pages", BLAB_LAT_MASK_ALLOC},
		{"rmqueue_bulk", BLAB_LAT_MASK(BLAB_LAT_RMQUEUE_BULK)},
		{"__free_pages", BLAB_LAT_MASK_FREE},
		{"rmqueue", BLAB_LAT_MASK_ALLOC},
	};

	if (function)
		*function = NULL;
	if (!name)
		return 0;
	for (unsigned i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (strstr(name, map[i].fn)) {
			if (function)
				*function = map[i].fn;
			return map[i].mask;
		}
	return 0;
}
