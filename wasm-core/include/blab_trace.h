/*
 * blab_trace.h - import real kernel traces of the kmem: page tracepoints.
 *
 * Parses `perf script` output (of `perf record -e kmem:mm_page_alloc ...`) and tracefs
 * `trace` / `trace_pipe` text, for the six page tracepoints of include/trace/events/kmem.h:
 * mm_page_alloc, mm_page_free, mm_page_free_batched, mm_page_pcpu_drain,
 * mm_page_alloc_zone_locked and mm_page_alloc_extfrag.  docs/import.md has the formats,
 * the recording commands and what every summary line means.
 *
 * The parser is streaming: feed chunks of any size (a line may span chunks), then finish.
 * Nothing on any input is undefined behaviour; bounds below say what stops a parse.
 *
 *   struct blab_trace *t = blab_trace_new(BLAB_TRACE_KEEP_EVENTS);
 *   while (more) blab_trace_feed(t, chunk, len);   // <0: a bound was hit, stop feeding
 *   int err = blab_trace_finish(t);                 // 0, or BLAB_TRACE_E*
 *   blab_trace_summary(t, buf, cap);                // the text `blab import` prints
 *   n = blab_trace_replay(t, NULL, 0);              // records needed, then fill them
 *   blab_trace_free(t);
 */
#ifndef BLAB_TRACE_H
#define BLAB_TRACE_H

#include <stddef.h>
#include <stdint.h>
#include "blab_events.h"

/* Bounds (docs/limits.md). */
#define BLAB_TRACE_MAX_LINE 4096u            /* bytes per line, newline excluded; longer
					      * lines are malformed (skipped, counted) */
#define BLAB_TRACE_MAX_SCAN (1ull << 20)     /* a line this long without its end stops the parse */
#define BLAB_TRACE_MAX_BYTES (1ull << 30)    /* bytes per input */
#define BLAB_TRACE_MAX_LINES (1u << 26)      /* lines per input */
#define BLAB_TRACE_MAX_EVENTS (1u << 21)     /* recognised kmem page events per input */
#define BLAB_TRACE_MAX_CPUS 1024u            /* CPU numbers 0 .. 1023 */
#define BLAB_TRACE_MAX_ORDER 15u             /* orders 0 .. 15 */
#define BLAB_TRACE_TOP_ORDER 10u             /* a replay's zone: MAX_PAGE_ORDER of x86-64 */
#define BLAB_TRACE_MAX_MT 7u                 /* migratetypes 0 .. 7 */
#define BLAB_TRACE_MAX_PFN ((1ull << 52) - 1)
#define BLAB_TRACE_REASONS 8u                /* malformed lines whose reason is kept */
#define BLAB_TRACE_REASON_LEN 96u
#define BLAB_TRACE_BATCH_BUCKETS 11u         /* 1, 2-3, 4-7, ..., 512-1023, 1024+ */
#define BLAB_TRACE_RATE_BUCKETS 32u          /* alloc/free rate over time */

/* blab_trace_new() flags */
#define BLAB_TRACE_KEEP_EVENTS 0x1u /* keep the events for blab_trace_replay() */

/* Errors (negative). */
enum blab_trace_err {
	BLAB_TRACE_OK = 0,
	BLAB_TRACE_EEMPTY = -1,    /* the input had no bytes */
	BLAB_TRACE_ENOEVENTS = -2, /* no line was a kmem page event */
	BLAB_TRACE_ELIMIT = -3,    /* a bound was hit; the parse stopped there */
	BLAB_TRACE_ENOMEM = -4,
	BLAB_TRACE_EINVAL = -5,
};

/* Event kinds, in the order the summary prints them. */
enum blab_trace_kind {
	BLAB_TK_ALLOC,             /* mm_page_alloc */
	BLAB_TK_FREE,              /* mm_page_free */
	BLAB_TK_FREE_BATCHED,      /* mm_page_free_batched */
	BLAB_TK_PCPU_DRAIN,        /* mm_page_pcpu_drain */
	BLAB_TK_ZONE_LOCKED,       /* mm_page_alloc_zone_locked */
	BLAB_TK_EXTFRAG,           /* mm_page_alloc_extfrag */
	BLAB_TK_COUNT
};

const char *blab_trace_kind_name(unsigned kind); /* "mm_page_alloc", ...; NULL past the end */

struct blab_trace_batches {
	uint64_t count;                               /* runs seen */
	uint64_t events;                              /* events in those runs */
	uint64_t min, max;                            /* run length */
	uint64_t hist[BLAB_TRACE_BATCH_BUCKETS];      /* log2 buckets of run length */
};

struct blab_trace_stats {
	uint64_t bytes, lines;
	uint64_t comment_lines;   /* '#' lines (tracefs header) */
	uint64_t skipped_lines;   /* blank or not a kmem page event: not errors */
	uint64_t malformed_lines; /* named a kmem page event but could not be parsed */
	uint64_t events;          /* recognised events, all kinds */
	uint64_t kind[BLAB_TK_COUNT];
	uint64_t alloc_failed;    /* mm_page_alloc with no page (page=(null)) */
	uint64_t refills;         /* mm_page_alloc_zone_locked with percpu_refill=1 */
	uint64_t unknown_pages;   /* mm_page_free of a pfn the trace never saw allocated */
	uint64_t alloc_order[BLAB_TRACE_MAX_ORDER + 1]; /* mm_page_alloc by order */
	uint64_t free_order[BLAB_TRACE_MAX_ORDER + 1];  /* mm_page_free by order */
	uint64_t alloc_mt[BLAB_TRACE_MAX_MT + 1];   /* mm_page_alloc by migratetype */
	uint64_t cpus;            /* highest CPU seen + 1 (0: none) */
	uint64_t min_pfn, max_pfn;                  /* lowest pfn, last pfn any block covers;
						     * valid when events > alloc_failed */
	uint64_t first_ns, last_ns;                 /* timestamps, ns */
	struct blab_trace_batches refill, drain;
	uint64_t rate_width_ns;                     /* width of one rate bucket */
	uint64_t rate_alloc[BLAB_TRACE_RATE_BUCKETS], rate_free[BLAB_TRACE_RATE_BUCKETS];
	unsigned reasons;                           /* reasons kept (<= BLAB_TRACE_REASONS) */
	uint64_t reason_line[BLAB_TRACE_REASONS];
	char reason[BLAB_TRACE_REASONS][BLAB_TRACE_REASON_LEN];
};

struct blab_trace;

struct blab_trace *blab_trace_new(unsigned flags);        /* NULL: out of memory */
void blab_trace_free(struct blab_trace *t);
/*
 * Lowers the line and event bounds (0 keeps a bound; values above the BLAB_TRACE_MAX_*
 * maxima are clamped to them).  Before the first feed only: BLAB_TRACE_EINVAL after.
 * The browser uses it to stay inside its memory; tests use it to reach the bounds.
 */
int blab_trace_set_limits(struct blab_trace *t, uint64_t max_lines, uint64_t max_events);
/*
 * Room for `records` replay records up front (a trace made with BLAB_TRACE_KEEP_EVENTS), so
 * the kept array is not copied each time it doubles; more still fit.  A hint, clamped to two
 * records per event of the event bound (set the limits first).  Before the first feed only:
 * BLAB_TRACE_EINVAL after it or without KEEP_EVENTS; BLAB_TRACE_ENOMEM, the trace unchanged,
 * when the memory cannot be had.  The browser asks for the most its file can hold: heap pages
 * it never writes cost nothing.
 */
int blab_trace_reserve(struct blab_trace *t, uint64_t records);
/* Feeds a chunk.  0, or <0 when a bound was hit (the rest is ignored; finish still works). */
int blab_trace_feed(struct blab_trace *t, const void *data, size_t len);
/* Ends the input (a last line without a newline counts).  0 or a BLAB_TRACE_E* code. */
int blab_trace_finish(struct blab_trace *t);
/* One line saying why the parse failed or stopped ("" when it did not). */
const char *blab_trace_error(const struct blab_trace *t);
const struct blab_trace_stats *blab_trace_stats(const struct blab_trace *t);
uint64_t blab_trace_cpu_events(const struct blab_trace *t, unsigned cpu, unsigned kind);
/* The exact size of every refill run and drain run per CPU (blab_hist.h), the same counts
 * blab_sim_config.hist makes for the model; NULL until the parse is finished. */
struct blab_hist;
const struct blab_hist *blab_trace_hist(const struct blab_trace *t);
/* The summary `blab import` prints, like snprintf: returns the length it needs. */
size_t blab_trace_summary(const struct blab_trace *t, char *buf, size_t cap);
/*
 * The trace as the tool's own event log (docs/events.md, "Imported traces"): a TRACE_ZONE
 * record over [min pfn, max pfn], then the state records.  Writes at most cap records and
 * returns how many there are (call with NULL, 0 to size the array).  Needs
 * BLAB_TRACE_KEEP_EVENTS and a finished parse; 0 otherwise.
 */
size_t blab_trace_replay(const struct blab_trace *t, struct blab_event *out, size_t cap);
/*
 * The same records where the trace keeps them, blab_trace_replay(t, NULL, 0) of them, valid
 * until blab_trace_free(): the browser decodes them without copying 32 bytes a record first.
 * NULL when blab_trace_replay() has none to give.
 */
const struct blab_event *blab_trace_records(const struct blab_trace *t);

/* Parses a whole buffer (summary and replay included) and frees everything: the fuzz entry. */
int blab_trace_parse_buffer(const uint8_t *data, size_t len);

#endif
