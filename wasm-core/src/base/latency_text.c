/*
 * latency_text.c - the latency recorder printed (include/blab_latency.h): log2 histograms as
 * BCC's print_log2_hist() prints them (what funclatency shows, so a model run reads like a
 * real one beside it), and the whole recorder as JSON.
 */
#include <inttypes.h>

#include "blab_latency.h"
#include "textout.h"

#define BCC_STARS 40u /* BCC's stars_max */

/* BCC's _stars(): floor(width * val / val_max) stars, at most width */
static unsigned stars_of(uint64_t val, uint64_t max, unsigned width)
{
	unsigned __int128 n = (unsigned __int128)width * val / (max ? max : 1);
	return n > width ? width : (unsigned)n;
}

size_t blab_log2_text(const uint64_t *slots, unsigned nslots, const char *unit, char *buf,
		      size_t cap)
{
	struct text_out o = {buf, cap, 0};
	static const char stars[] = "****************************************";
	unsigned last = 0, width;
	uint64_t max = 0;
	int wide;

	if (buf && cap)
		buf[0] = '\0';
	if (!slots || !unit)
		return 0;
	if (nslots > BLAB_LAT_LOG2_SLOTS)
		nslots = BLAB_LAT_LOG2_SLOTS;
	for (unsigned i = 0; i < nslots; i++) {
		if (slots[i])
			last = i;
		max = slots[i] > max ? slots[i] : max;
	}
	if (!last)
		return 0;
	/* BCC widens the columns (and halves the bar) past slot 32 */
	wide = last > 32;
	width = wide ? BCC_STARS / 2 : BCC_STARS;
	text_put(&o, wide ? "               %-29s : count     distribution\n"
			  : "     %-19s : count     distribution\n",
		 unit);
	for (unsigned i = 1; i <= last; i++) {
		uint64_t high = i == 64 ? UINT64_MAX : (UINT64_C(1) << i) - 1;
		uint64_t low = i == 1 ? 0 : UINT64_C(1) << (i - 1);
		unsigned n = stars_of(slots[i], max, width);
		text_put(&o, wide ? "%20" PRIu64 " -> %-20" PRIu64 " : %-8" PRIu64 " |%-*.*s|\n"
				  : "%10" PRIu64 " -> %-10" PRIu64 " : %-8" PRIu64 " |%-*.*s|\n",
			 low, high, slots[i], (int)width, (int)n, stars);
	}
	return o.len;
}

/* "count":..,"min":..,"avg":..,"max":..,"p50":hi,"p50_lo":lo, .. (no braces) */
static void summary_json(struct text_out *o, const struct blab_latency *l, uint32_t mask,
			 unsigned part)
{
	struct blab_lat_summary s;

	blab_latency_summary(l, mask, part, &s);
	text_put(o,
		 "\"count\":%" PRIu64 ",\"min\":%" PRIu64 ",\"avg\":%" PRIu64 ",\"max\":%" PRIu64
		 ",\"p50\":%" PRIu64 ",\"p50_lo\":%" PRIu64 ",\"p99\":%" PRIu64 ",\"p99_lo\":%" PRIu64
		 ",\"p99_9\":%" PRIu64 ",\"p99_9_lo\":%" PRIu64,
		 s.count, s.min, s.count ? s.sum / s.count : 0, s.max, s.p50.hi, s.p50.lo, s.p99.hi,
		 s.p99.lo, s.p99_9.hi, s.p99_9.lo);
}

/* [count of slot 1, .., of the last nonzero slot] */
static void slots_json(struct text_out *o, const uint64_t *h)
{
	unsigned last = 0;

	for (unsigned i = 1; i < BLAB_LAT_LOG2_SLOTS; i++)
		if (h[i])
			last = i;
	text_put(o, "[");
	for (unsigned i = 1; i <= last; i++)
		text_put(o, "%s%" PRIu64, i > 1 ? "," : "", h[i]);
	text_put(o, "]");
}

/* "longest":[[slot,cpu,start,cycles,pfn],..]: each log2 slot's longest call that says where
 * it ran, so that the browser can go from a histogram's bucket to its record */
static void longest_json(struct text_out *o, const struct blab_latency *l, uint32_t mask)
{
	int first = 1;

	text_put(o, ",\"longest\":[");
	for (unsigned i = 1; i < BLAB_LAT_LOG2_SLOTS; i++) {
		struct blab_lat_call c;
		if (blab_latency_longest(l, mask, i, &c) || !c.cycles)
			continue;
		text_put(o, "%s[%u,%u,%" PRIu64 ",%" PRIu64 ",%" PRIu64 "]", first ? "" : ",", i, c.cpu,
			 c.start, c.cycles, c.pfn);
		first = 0;
	}
	text_put(o, "]");
}

/* {summary,"log2_ns":[..]} of one part, all CPUs (the totals with their longest calls) */
static void part_json(struct text_out *o, const struct blab_latency *l, uint32_t mask,
		      unsigned part)
{
	uint64_t h[BLAB_LAT_LOG2_SLOTS];

	blab_latency_log2(l, mask, part, BLAB_LAT_ALL_CPUS, h);
	text_put(o, "{");
	summary_json(o, l, mask, part);
	text_put(o, ",\"log2_ns\":");
	slots_json(o, h);
	if (part == BLAB_LAT_TOTAL)
		longest_json(o, l, mask);
	text_put(o, "}");
}

/* "paths":{"alloc_pcp":{.., "lock_wait":{..},"bulk":{..}}, .., "free_pcppages_bulk":{..}} */
static void paths_json(struct text_out *o, const struct blab_latency *l)
{
	text_put(o, "\"paths\":{");
	for (unsigned s = 0; s < BLAB_LAT_NSERIES; s++) {
		uint64_t h[BLAB_LAT_LOG2_SLOTS];
		blab_latency_log2(l, BLAB_LAT_MASK(s), BLAB_LAT_TOTAL, BLAB_LAT_ALL_CPUS, h);
		text_put(o, "%s\"%s\":{", s ? "," : "", blab_latency_series_name(s));
		summary_json(o, l, BLAB_LAT_MASK(s), BLAB_LAT_TOTAL);
		text_put(o, ",\"log2_ns\":");
		slots_json(o, h);
		longest_json(o, l, BLAB_LAT_MASK(s));
		if (s < BLAB_LAT_OPS) {
			text_put(o, ",\"lock_wait\":");
			part_json(o, l, BLAB_LAT_MASK(s), BLAB_LAT_LOCK_WAIT);
			text_put(o, ",\"bulk\":");
			part_json(o, l, BLAB_LAT_MASK(s), BLAB_LAT_BULK);
		}
		text_put(o, "}");
	}
	text_put(o, "}");
}

/* "cpus":[{"cpu":0,"alloc_pcp":[..],..}, ..]: each CPU's own series that counted a call */
static void cpus_json(struct text_out *o, const struct blab_latency *l)
{
	int first_cpu = 1;

	text_put(o, "\"cpus\":[");
	for (unsigned cpu = 0; cpu < blab_latency_cpus(l); cpu++) {
		int any = 0;
		for (unsigned s = 0; s < BLAB_LAT_NSERIES; s++) {
			uint64_t h[BLAB_LAT_LOG2_SLOTS], n = 0;
			blab_latency_log2(l, BLAB_LAT_MASK(s), BLAB_LAT_TOTAL, cpu, h);
			for (unsigned i = 0; i < BLAB_LAT_LOG2_SLOTS; i++)
				n += h[i];
			if (!n)
				continue;
			if (!any)
				text_put(o, "%s{\"cpu\":%u", first_cpu ? "" : ",", cpu);
			any = 1;
			first_cpu = 0;
			text_put(o, ",\"%s\":", blab_latency_series_name(s));
			slots_json(o, h);
		}
		if (any)
			text_put(o, "}");
	}
	text_put(o, "]");
}

size_t blab_latency_json(const struct blab_latency *l, char *buf, size_t cap)
{
	struct text_out o = {buf, cap, 0};

	if (buf && cap)
		buf[0] = '\0';
	if (!l) {
		text_put(&o, "null");
		return o.len;
	}
	text_put(&o, "{\"unit\":\"cycles\",\"cycles_per_us\":%u,\"log2_unit\":\"nsecs\",\"alloc\":",
		 blab_latency_cpu_mhz(l));
	part_json(&o, l, BLAB_LAT_MASK_ALLOC, BLAB_LAT_TOTAL);
	text_put(&o, ",\"free\":");
	part_json(&o, l, BLAB_LAT_MASK_FREE, BLAB_LAT_TOTAL);
	text_put(&o, ",");
	paths_json(&o, l);
	text_put(&o, ",");
	cpus_json(&o, l);
	text_put(&o, "}");
	return o.len;
}
