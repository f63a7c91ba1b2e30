/*
 * fuzz_trace.c - libFuzzer target: the kmem trace importer (blab_trace.h), as `blab import`
 * and the browser's import worker drive it.
 *
 * The input is a trace file. It is parsed twice: once whole, once fed in chunks whose sizes
 * come from the input's own bytes (the browser's File.slice() chunks, a line split anywhere,
 * even inside a "\r\n"). Oracles, beyond ASan/UBSan/LSan:
 *   - the two parses print the same summary and the same replay, byte for byte (streaming
 *     must not change a result), and blab_trace_records() holds what blab_trace_replay() copies;
 *   - the counters add up: events = sum per tracepoint = sum per CPU; lines = comment +
 *     skipped + malformed + events; refills <= mm_page_alloc_zone_locked;
 *   - the replay starts with one TRACE_ZONE, every later record lies inside its pfn range
 *     and names a CPU below its CPU count, and has a known type;
 *   - a low line / event bound stops the parse with BLAB_TRACE_ELIMIT, never past the bound.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "blab_events.h"
#include "blab_hist.h"
#include "blab_trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(c)                                                                  \
	do {                                                                      \
		if (!(c)) {                                                       \
			fprintf(stderr, "fuzz_trace: %s:%d: %s\n", __FILE__, __LINE__, #c); \
			abort();                                                  \
		}                                                                 \
	} while (0)

struct result {
	int err;
	char *summary;
	struct blab_event *ev;
	size_t nev;
};

static void take(struct blab_trace *t, struct result *r)
{
	r->err = blab_trace_finish(t);
	size_t n = blab_trace_summary(t, NULL, 0);
	r->summary = malloc(n + 1);
	CHECK(r->summary);
	CHECK(blab_trace_summary(t, r->summary, n + 1) == n);
	r->nev = blab_trace_replay(t, NULL, 0);
	r->ev = r->nev ? malloc(r->nev * sizeof(*r->ev)) : NULL;
	CHECK(!r->nev || r->ev);
	if (r->nev)
		CHECK(blab_trace_replay(t, r->ev, r->nev) == r->nev);
	/* the records where the trace keeps them are the copy, byte for byte */
	const struct blab_event *kept = blab_trace_records(t);
	CHECK(r->nev ? kept && memcmp(kept, r->ev, r->nev * sizeof(*r->ev)) == 0 : !kept);
}

static void drop(struct result *r)
{
	free(r->summary);
	free(r->ev);
}

/* stopped: a bound stopped the parse, and the line that passed it is counted but not classified */
static void check_counts(const struct blab_trace *t, int stopped)
{
	const struct blab_trace_stats *st = blab_trace_stats(t);
	uint64_t kinds = 0, cpus = 0;
	for (unsigned k = 0; k < BLAB_TK_COUNT; k++) {
		kinds += st->kind[k];
		for (unsigned c = 0; c < st->cpus && c < BLAB_TRACE_MAX_CPUS; c++)
			cpus += blab_trace_cpu_events(t, c, k);
	}
	CHECK(kinds == st->events);
	CHECK(cpus == st->events);
	uint64_t classified = st->comment_lines + st->skipped_lines + st->malformed_lines + st->events;
	CHECK(classified == st->lines || (stopped && classified + 1 == st->lines));
	CHECK(st->refills <= st->kind[BLAB_TK_ZONE_LOCKED]);
	CHECK(st->refill.events == st->refills);
	CHECK(st->drain.events == st->kind[BLAB_TK_PCPU_DRAIN]);
	CHECK(st->alloc_failed <= st->kind[BLAB_TK_ALLOC]);
	/* the exact histogram counts the same runs as the log2 buckets */
	CHECK(blab_hist_total(blab_trace_hist(t), BLAB_HIST_REFILL) == st->refill.count);
	CHECK(blab_hist_total(blab_trace_hist(t), BLAB_HIST_DRAIN) == st->drain.count);
}

static void check_replay(const struct result *r)
{
	if (!r->nev)
		return;
	const struct blab_event *z = &r->ev[0];
	CHECK(z->type == BLAB_EV_TRACE_ZONE);
	for (size_t i = 1; i < r->nev; i++) {
		const struct blab_event *e = &r->ev[i];
		CHECK(e->type != BLAB_EV_TRACE_ZONE && e->type != BLAB_EV_ZONE_INIT);
		CHECK((e->type >= BLAB_EV_BUDDY_ADD && e->type <= BLAB_EV_FREE) || e->type == BLAB_EV_ALLOC_FAIL ||
		      (e->type >= BLAB_EV_TRACE_UNKNOWN && e->type <= BLAB_EV_TRACE_EXTFRAG));
		CHECK(e->cpu < z->arg1);
		if (e->type != BLAB_EV_ALLOC_FAIL)
			CHECK(e->pfn >= z->pfn && e->pfn - z->pfn < (uint64_t)z->arg0 + (z->arg0 == UINT32_MAX ? (1ull << 52) : 0));
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct blab_trace *a = blab_trace_new(BLAB_TRACE_KEEP_EVENTS);
	struct blab_trace *b = blab_trace_new(BLAB_TRACE_KEEP_EVENTS);
	CHECK(a && b);
	/* the chunked parse has its replay's room reserved up front (0..255 records, chosen by
	 * the input): it must change nothing */
	CHECK(blab_trace_reserve(b, size ? data[0] : 0) == 0);
	CHECK(blab_trace_feed(a, data, size) <= 0);
	/* chunk sizes 1..64 from the input's bytes, cycling */
	size_t at = 0, k = 0;
	while (at < size) {
		size_t n = size ? (size_t)(data[k++ % size] & 63u) + 1 : 1;
		if (n > size - at)
			n = size - at;
		if (blab_trace_feed(b, data + at, n) < 0)
			break;
		at += n;
	}
	struct result ra, rb;
	take(a, &ra);
	take(b, &rb);
	CHECK(ra.err == rb.err);
	CHECK(strcmp(ra.summary, rb.summary) == 0);
	CHECK(ra.nev == rb.nev);
	CHECK(ra.nev == 0 || memcmp(ra.ev, rb.ev, ra.nev * sizeof(*ra.ev)) == 0);
	CHECK(size != 0 || ra.err == BLAB_TRACE_EEMPTY);
	check_counts(a, ra.err == BLAB_TRACE_ELIMIT);
	check_replay(&ra);
	drop(&ra);
	drop(&rb);
	blab_trace_free(a);
	blab_trace_free(b);

	/* low bounds: the parse stops at them, never past */
	struct blab_trace *c = blab_trace_new(0);
	CHECK(c);
	CHECK(blab_trace_set_limits(c, 7, 3) == 0);
	blab_trace_feed(c, data, size);
	int err = blab_trace_finish(c);
	const struct blab_trace_stats *st = blab_trace_stats(c);
	CHECK(st->lines <= 7 && st->events <= 3);
	if (st->events == 3 || st->lines == 7)
		CHECK(err == BLAB_TRACE_ELIMIT || err == 0 || err == BLAB_TRACE_ENOEVENTS);
	check_counts(c, err == BLAB_TRACE_ELIMIT);
	CHECK(blab_trace_set_limits(c, 1, 1) == BLAB_TRACE_EINVAL || size == 0);
	blab_trace_free(c);
	return 0;
}
