/*
 * sim_latency.c - `blab sim --latency` printed (sim_latency.h): the percentiles in cycles with
 * their range where they are not exact (docs/model.md, "Latency"), and each path's log2
 * histogram in funclatency's own layout, so a model run reads like a real one beside it.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "sim_latency.h"

static const char *const part_of[BLAB_LAT_NSERIES] = {
	"", "rmqueue_bulk()", "", "", "free_pcppages_bulk()", "", "", "",
};

/* "12800" when exact, "12800 (12700..12800)" when the value lies in that range */
static void pct(const char *name, struct blab_lat_pct p)
{
	if (p.lo == p.hi)
		printf(", %s %" PRIu64, name, p.hi);
	else
		printf(", %s %" PRIu64 " (%" PRIu64 "..%" PRIu64 ")", name, p.hi, p.lo, p.hi);
}

static void summary_line(const struct blab_latency *l, const char *what, uint32_t mask)
{
	struct blab_lat_summary s;

	if (blab_latency_summary(l, mask, BLAB_LAT_TOTAL, &s) || !s.count)
		return;
	printf("%s: %" PRIu64 " calls, min %" PRIu64 ", avg %" PRIu64, what, s.count, s.min,
	       s.sum / s.count);
	pct("p50", s.p50);
	pct("p99", s.p99);
	pct("p99.9", s.p99_9);
	printf(", max %" PRIu64 " cycles\n", s.max);
}

/* the histogram as funclatency prints it, and its "avg = .., total: .., count: .." */
static void funclatency(const struct blab_latency *l, uint32_t mask)
{
	uint64_t h[BLAB_LAT_LOG2_SLOTS];
	struct blab_lat_summary s;
	size_t need;
	char *buf;
	unsigned mhz = blab_latency_cpu_mhz(l);
	uint64_t total;

	if (blab_latency_log2(l, mask, BLAB_LAT_TOTAL, BLAB_LAT_ALL_CPUS, h) ||
	    blab_latency_summary(l, mask, BLAB_LAT_TOTAL, &s) || !s.count)
		return;
	need = blab_log2_text(h, BLAB_LAT_LOG2_SLOTS, "nsecs", NULL, 0);
	if ((buf = malloc(need + 1))) {
		blab_log2_text(h, BLAB_LAT_LOG2_SLOTS, "nsecs", buf, need + 1);
		fputs(buf, stdout);
		free(buf);
	}
	total = s.sum / mhz * 1000u + s.sum % mhz * 1000u / mhz;
	printf("\navg = %" PRIu64 " nsecs, total: %" PRIu64 " nsecs, count: %" PRIu64 "\n",
	       total / s.count, total, s.count);
}

void sim_latency_text(const struct blab_latency *l, const char *preset, uint32_t cpus)
{
	printf("\nlatency %s, %u tasks: cycles at %u MHz (%u cycles a microsecond); histograms in "
	       "nsecs of that clock, as funclatency prints them\n",
	       preset, cpus, blab_latency_cpu_mhz(l), blab_latency_cpu_mhz(l));
	summary_line(l, "  alloc", BLAB_LAT_MASK_ALLOC);
	summary_line(l, "  free", BLAB_LAT_MASK_FREE);
	for (unsigned s = 0; s < BLAB_LAT_NSERIES; s++) {
		struct blab_lat_summary t, w, b;
		if (blab_latency_summary(l, BLAB_LAT_MASK(s), BLAB_LAT_TOTAL, &t) || !t.count)
			continue;
		char label[64];
		snprintf(label, sizeof(label), "\n%s%s", blab_latency_series_name(s),
			 s >= BLAB_LAT_OPS ? " (each call)" : "");
		summary_line(l, label, BLAB_LAT_MASK(s));
		if (s < BLAB_LAT_OPS &&
		    !blab_latency_summary(l, BLAB_LAT_MASK(s), BLAB_LAT_LOCK_WAIT, &w) &&
		    !blab_latency_summary(l, BLAB_LAT_MASK(s), BLAB_LAT_BULK, &b) && (w.sum || b.sum)) {
			printf("  of it: zone->lock wait %" PRIu64 " cycles (max %" PRIu64 ")", w.sum,
			       w.max);
			if (b.sum)
				printf(", inside %s %" PRIu64 " (max %" PRIu64 ")", part_of[s], b.sum,
				       b.max);
			printf("\n");
		}
		funclatency(l, BLAB_LAT_MASK(s));
	}
}

void sim_latency_json(const struct blab_latency *l)
{
	size_t need = blab_latency_json(l, NULL, 0);
	char *buf = malloc(need + 1);

	if (buf && blab_latency_json(l, buf, need + 1) == need)
		printf(",\"latency\":%s", buf);
	free(buf);
}
