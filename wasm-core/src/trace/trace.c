/*
 * trace.c - streaming parser for kmem: page tracepoint text (perf script, tracefs).
 *
 * A line is a kmem page event when it names one of the six tracepoints followed by ':'
 * ("kmem:mm_page_alloc:" in perf script, "mm_page_alloc:" in tracefs).  Before the name
 * sit the task, the CPU as "[NNN]" and the timestamp "SECONDS.FRACTION:"; after it the
 * key=value fields of the tracepoint's TP_printk.  Everything else is skipped and counted.
 * Two tables say what a line may hold: `fields` (each key and its bound) and `tracepoints`
 * (each event's name, the fields it needs and what it does to the summary and the replay).
 * All arithmetic is on bounded, checked numbers: no input is undefined behaviour.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "blab.h"
#include "blab_hist.h"
#include "blab_trace.h"

#define NO_CPU 0xffffffffu

/* ---- eight bytes at a time ---- */

/* A line is scanned a word at a time: WebAssembly's byte loops (and musl's memchr, four bytes
 * a step) were most of the browser's import time. The masks below are exact per byte (no carry
 * or borrow crosses from one byte into the next), so a mask's lowest set bit is the first byte
 * that matches, in a little-endian word. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "trace.c scans lines eight bytes at a time, little-endian"
#endif
#define ONES 0x0101010101010101ull
#define HIGHS 0x8080808080808080ull
#define LOWS (~HIGHS)

static uint64_t load8(const char *p)
{
	uint64_t w;
	memcpy(&w, p, 8);
	return w;
}

static uint32_t load4(const char *p)
{
	uint32_t w;
	memcpy(&w, p, 4);
	return w;
}

static uint16_t load2(const char *p)
{
	uint16_t w;
	memcpy(&w, p, 2);
	return w;
}

/* the high bit of each byte of w that is c */
static uint64_t bytes_eq(uint64_t w, unsigned char c)
{
	uint64_t x = w ^ (ONES * c);
	return ~(((x & LOWS) + LOWS) | x) & HIGHS;
}

/* the high bit of each byte of w that is a control byte, DEL or not ASCII */
static uint64_t bytes_special(uint64_t w)
{
	uint64_t low = w & LOWS;
	return (w | ~((low + 0x60 * ONES) | w) | (low + ONES)) & HIGHS;
}

/* the offset of the byte a mask's lowest set bit marks */
static size_t first_byte(uint64_t mask)
{
	return (size_t)__builtin_ctzll(mask) >> 3;
}

static int is_special(char c)
{
	return (unsigned char)(c - 0x20) > 0x5e;
}

struct cpu_run {
	uint64_t refill; /* current run of percpu_refill=1 on this CPU */
	uint64_t drain;  /* current run of mm_page_pcpu_drain on this CPU */
};

struct blab_trace {
	unsigned flags;
	int err;        /* sticky: first error */
	int finished;
	int overlong;   /* the current line passed BLAB_TRACE_MAX_LINE */
	size_t len;     /* bytes in line[] */
	uint64_t line_bytes; /* bytes of the current line so far, kept in line[] or not */
	char line[BLAB_TRACE_MAX_LINE + 1];
	char errmsg[160];
	struct blab_trace_stats st;
	uint64_t (*cpu_kind)[BLAB_TK_COUNT]; /* [BLAB_TRACE_MAX_CPUS] */
	struct cpu_run *runs;                /* [BLAB_TRACE_MAX_CPUS] */
	struct blab_hist *hist;              /* each run's exact size, per CPU */
	/* pfns seen allocated: open addressing, key pfn + 1 (0 = empty), live flag */
	uint64_t *keys;
	uint8_t *live;
	size_t hcap, hused;
	/* kept events (BLAB_TRACE_KEEP_EVENTS) from ev[1], room for evcap of them; ev[0] is the
	 * replay's TRACE_ZONE and each time counts from the first event once the parse is finished:
	 * the replay is then ev[0 .. nev] where it is (blab_trace_records()), not a copy of it */
	struct blab_event *ev;
	size_t nev, evcap;
	int have_time;
	uint64_t rate_origin; /* ns of the first event */
	unsigned max_order;   /* the highest order any event named */
	uint64_t max_lines, max_events;
};

struct blab_trace *blab_trace_new(unsigned flags)
{
	struct blab_trace *t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->flags = flags;
	t->cpu_kind = calloc(BLAB_TRACE_MAX_CPUS, sizeof(*t->cpu_kind));
	t->runs = calloc(BLAB_TRACE_MAX_CPUS, sizeof(*t->runs));
	t->hist = blab_hist_new();
	if (!t->cpu_kind || !t->runs || !t->hist) {
		blab_trace_free(t);
		return NULL;
	}
	t->st.min_pfn = UINT64_MAX;
	t->st.refill.min = t->st.drain.min = UINT64_MAX;
	t->st.rate_width_ns = 1000000; /* 1 ms, doubles as the trace grows */
	t->max_lines = BLAB_TRACE_MAX_LINES;
	t->max_events = BLAB_TRACE_MAX_EVENTS;
	return t;
}

int blab_trace_set_limits(struct blab_trace *t, uint64_t max_lines, uint64_t max_events)
{
	if (!t || t->st.bytes || t->finished)
		return BLAB_TRACE_EINVAL;
	if (max_lines)
		t->max_lines = max_lines < BLAB_TRACE_MAX_LINES ? max_lines : BLAB_TRACE_MAX_LINES;
	if (max_events)
		t->max_events = max_events < BLAB_TRACE_MAX_EVENTS ? max_events
								    : BLAB_TRACE_MAX_EVENTS;
	return 0;
}

int blab_trace_reserve(struct blab_trace *t, uint64_t records)
{
	if (!t || t->st.bytes || t->finished || !(t->flags & BLAB_TRACE_KEEP_EVENTS))
		return BLAB_TRACE_EINVAL;
	if (records > 2 * t->max_events)
		records = 2 * t->max_events;
	if (records <= t->evcap)
		return 0;
	if (records >= SIZE_MAX / sizeof(*t->ev))
		return BLAB_TRACE_ENOMEM;
	struct blab_event *n = realloc(t->ev, ((size_t)records + 1) * sizeof(*n));
	if (!n)
		return BLAB_TRACE_ENOMEM;
	t->ev = n;
	t->evcap = (size_t)records;
	return 0;
}

void blab_trace_free(struct blab_trace *t)
{
	if (!t)
		return;
	free(t->cpu_kind);
	free(t->runs);
	blab_hist_free(t->hist);
	free(t->keys);
	free(t->live);
	free(t->ev);
	free(t);
}

static int fail(struct blab_trace *t, int err, const char *msg)
{
	if (!t->err) {
		t->err = err;
		snprintf(t->errmsg, sizeof(t->errmsg), "%s", msg);
	}
	return err;
}

/* ---- pfn set ---- */

static uint64_t mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	return x;
}

static int hash_grow(struct blab_trace *t)
{
	size_t ncap = t->hcap ? t->hcap * 2 : 1024;
	uint64_t *nk = calloc(ncap, sizeof(*nk));
	uint8_t *nl = calloc(ncap, 1);
	if (!nk || !nl) {
		free(nk);
		free(nl);
		return -1;
	}
	for (size_t i = 0; i < t->hcap; i++) {
		if (!t->keys[i])
			continue;
		size_t j = mix(t->keys[i]) & (ncap - 1);
		while (nk[j])
			j = (j + 1) & (ncap - 1);
		nk[j] = t->keys[i];
		nl[j] = t->live[i];
	}
	free(t->keys);
	free(t->live);
	t->keys = nk;
	t->live = nl;
	t->hcap = ncap;
	return 0;
}

/* Slot of pfn, inserted if absent; NULL when out of memory. */
static uint8_t *pfn_slot(struct blab_trace *t, uint64_t pfn)
{
	if ((t->hused + 1) * 2 > t->hcap && hash_grow(t))
		return NULL;
	uint64_t key = pfn + 1;
	size_t j = mix(key) & (t->hcap - 1);
	while (t->keys[j] && t->keys[j] != key)
		j = (j + 1) & (t->hcap - 1);
	if (!t->keys[j]) {
		t->keys[j] = key;
		t->live[j] = 0;
		t->hused++;
	}
	return &t->live[j];
}

/* ---- kept events ---- */

static int keep(struct blab_trace *t, uint64_t time, uint64_t pfn, unsigned type, unsigned order,
		unsigned cpu, unsigned mt, unsigned path, unsigned flags, uint32_t arg0, uint32_t arg1)
{
	if (!(t->flags & BLAB_TRACE_KEEP_EVENTS))
		return 0;
	if (t->nev == t->evcap) {
		size_t ncap = t->evcap ? t->evcap * 2 : 1024;
		struct blab_event *n = realloc(t->ev, (ncap + 1) * sizeof(*n));
		if (!n)
			return fail(t, BLAB_TRACE_ENOMEM, "out of memory keeping the events");
		t->ev = n;
		t->evcap = ncap;
	}
	t->ev[++t->nev] = blab_event_make(time, pfn, type, order, cpu, mt, path, flags, arg0, arg1);
	return 0;
}

/* ---- number parsing ---- */

/* each byte's value as a digit of base 16 (0..15), 16 for a byte that is no hex digit */
static const unsigned char hexval[256] = {
	['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5, ['5'] = 6, ['6'] = 7, ['7'] = 8,
	['8'] = 9, ['9'] = 10, ['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15,
	['f'] = 16, ['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14, ['E'] = 15, ['F'] = 16,
};
/* (stored plus one, so that the table's zeros are the bytes that are no digit) */
#define DIGIT(c) ((unsigned)hexval[(unsigned char)(c)] - 1u)

/* Unsigned decimal or 0x hex of [s, s+n); -1 when empty, not a number or past max. */
static int parse_num(const char *s, size_t n, uint64_t max, int hex_ok, uint64_t *out)
{
	uint64_t v = 0;
	unsigned base = 10;
	size_t i = 0;
	if (hex_ok && n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		i = 2;
	}
	if (i == n)
		return -1;
	/* A number of at most 15 hex or 19 decimal digits cannot pass 2^64: it is read without a
	 * bound check per digit, and compared with max once. Each digit's prefix is no larger than
	 * the whole, so "no prefix past max" is "the whole not past max". */
	if (n - i <= (base == 16 ? 15u : 19u)) {
		for (; i < n; i++) {
			unsigned d = DIGIT(s[i]);
			if (d >= base)
				return -1;
			v = v * base + d;
		}
		if (v > max)
			return -1;
		*out = v;
		return 0;
	}
	/* v * base + d <= max exactly when v < lim, or v == lim and d <= rem (max = lim * base +
	 * rem): the two divisions are done once per number, not once per digit */
	const uint64_t lim = max / base, rem = max % base;
	for (; i < n; i++) {
		unsigned d = DIGIT(s[i]);
		if (d >= base)
			return -1;
		if (v > lim || (v == lim && d > rem))
			return -1;
		v = v * base + d;
	}
	*out = v;
	return 0;
}

static int parse_u64(const char *s, size_t n, uint64_t max, uint64_t *out)
{
	return parse_num(s, n, max, 1, out);
}

/* ---- one line ---- */

/* The key=value fields of the tracepoints' TP_printk that an event is read from, each with
 * its bound; the last of a repeated key counts. */
enum field {
	F_PAGE, F_PFN, F_ORDER, F_MT, F_REFILL, F_ALLOC_ORDER, F_FALLBACK_ORDER,
	F_ALLOC_MT, F_FALLBACK_MT, F_FRAGMENTING, F_CHANGE_OWNER, F_COUNT
};
/* each name with its length, counted by the compiler: a line's keys are compared by length
 * first, and no strlen() runs per token (WebAssembly's strlen is a byte loop: it took a fifth
 * of the browser's import time) */
#define KEY(s) s, sizeof(s) - 1
static const struct {
	const char *name;
	size_t len;
	uint64_t max;
} fields[F_COUNT] = {
	[F_PAGE] = {KEY("page"), UINT64_MAX}, /* a pointer (hashed in tracefs): only a NULL matters */
	[F_PFN] = {KEY("pfn"), UINT64_MAX},
	[F_ORDER] = {KEY("order"), BLAB_TRACE_MAX_ORDER},
	[F_MT] = {KEY("migratetype"), BLAB_TRACE_MAX_MT},
	[F_REFILL] = {KEY("percpu_refill"), 1},
	[F_ALLOC_ORDER] = {KEY("alloc_order"), BLAB_TRACE_MAX_ORDER},
	[F_FALLBACK_ORDER] = {KEY("fallback_order"), BLAB_TRACE_MAX_ORDER},
	[F_ALLOC_MT] = {KEY("alloc_migratetype"), BLAB_TRACE_MAX_MT},
	[F_FALLBACK_MT] = {KEY("fallback_migratetype"), BLAB_TRACE_MAX_MT},
	[F_FRAGMENTING] = {KEY("fragmenting"), 1},
	[F_CHANGE_OWNER] = {KEY("change_ownership"), 1},
};
#define FIELD_MAX_LEN 24 /* a value longer than this is no number of ours */

/* One line's event, read: its tracepoint, time, CPU and fields. */
struct kmem_event {
	unsigned kind;      /* enum blab_trace_kind */
	uint64_t ns, cpu;
	const char *fv[F_COUNT]; /* each field's value in the line, NULL when absent */
	size_t fn[F_COUNT];
	uint64_t v[F_COUNT];     /* ... as a number (0 when absent) */
	uint64_t pfn, order;     /* extfrag's order is its alloc_order */
	int failed_alloc;        /* mm_page_alloc of a NULL page: the allocation failed */
	int is_refill;           /* mm_page_alloc_zone_locked with percpu_refill=1 */
};

static void malformed(struct blab_trace *t, const char *why, const char *what, size_t wlen)
{
	struct blab_trace_stats *st = &t->st;
	st->malformed_lines++;
	if (st->reasons >= BLAB_TRACE_REASONS)
		return;
	char w[32];
	size_t n = wlen < sizeof(w) - 4 ? wlen : sizeof(w) - 4;
	for (size_t i = 0; i < n; i++) /* printable copy: reasons go to a terminal */
		w[i] = (what[i] >= 0x20 && what[i] < 0x7f) ? what[i] : '?';
	if (n < wlen) {
		memcpy(w + n, "...", 3);
		n += 3;
	}
	w[n] = 0;
	st->reason_line[st->reasons] = st->lines;
	snprintf(st->reason[st->reasons], BLAB_TRACE_REASON_LEN, "%s%s%s", why,
		 wlen ? ": " : "", w);
	st->reasons++;
}

static unsigned bucket_of(uint64_t n)
{
	unsigned b = 0;
	while (n > 1 && b < BLAB_TRACE_BATCH_BUCKETS - 1) {
		n >>= 1;
		b++;
	}
	return b;
}

/* a run of one CPU ended: into the log2 buckets of the summary and the exact histogram */
static void close_run(struct blab_trace *t, unsigned kind, unsigned cpu,
		      struct blab_trace_batches *b, uint64_t *run)
{
	if (!*run)
		return;
	blab_hist_add(t->hist, kind, cpu, *run > UINT32_MAX ? UINT32_MAX : (uint32_t)*run);
	b->count++;
	b->events += *run;
	if (*run < b->min)
		b->min = *run;
	if (*run > b->max)
		b->max = *run;
	b->hist[bucket_of(*run)]++;
	*run = 0;
}

static void rate_add(struct blab_trace *t, uint64_t ns, int is_free)
{
	struct blab_trace_stats *st = &t->st;
	uint64_t off = ns > t->rate_origin ? ns - t->rate_origin : 0;
	while (off / st->rate_width_ns >= BLAB_TRACE_RATE_BUCKETS) {
		for (unsigned i = 0; i < BLAB_TRACE_RATE_BUCKETS / 2; i++) {
			st->rate_alloc[i] = st->rate_alloc[2 * i] + st->rate_alloc[2 * i + 1];
			st->rate_free[i] = st->rate_free[2 * i] + st->rate_free[2 * i + 1];
		}
		for (unsigned i = BLAB_TRACE_RATE_BUCKETS / 2; i < BLAB_TRACE_RATE_BUCKETS; i++)
			st->rate_alloc[i] = st->rate_free[i] = 0;
		st->rate_width_ns *= 2;
	}
	if (is_free)
		st->rate_free[off / st->rate_width_ns]++;
	else
		st->rate_alloc[off / st->rate_width_ns]++;
}

/* ---- what each tracepoint's event does ---- */

/* the pfn's slot in the set of pages seen allocated, or NULL after failing the parse */
static uint8_t *pfn_tracked(struct blab_trace *t, uint64_t pfn)
{
	uint8_t *slot = pfn_slot(t, pfn);
	if (!slot)
		fail(t, BLAB_TRACE_ENOMEM, "out of memory tracking pfns");
	return slot;
}

static void on_alloc(struct blab_trace *t, const struct kmem_event *e, struct cpu_run *run)
{
	struct blab_trace_stats *st = &t->st;
	uint8_t *slot;

	if (e->failed_alloc) {
		st->alloc_failed++;
		keep(t, e->ns, 0, BLAB_EV_ALLOC_FAIL, (unsigned)e->order, (unsigned)e->cpu,
		     (unsigned)e->v[F_MT], BLAB_PATH_NONE, 0, 11, 0);
		return;
	}
	st->alloc_order[e->order]++;
	st->alloc_mt[e->v[F_MT]]++;
	rate_add(t, e->ns, 0);
	if (!(slot = pfn_tracked(t, e->pfn)))
		return;
	*slot = 1;
	keep(t, e->ns, e->pfn, BLAB_EV_ALLOC, (unsigned)e->order, (unsigned)e->cpu,
	     (unsigned)e->v[F_MT], BLAB_PATH_NONE, 0, 0, 0);
}

static void on_free(struct blab_trace *t, const struct kmem_event *e, struct cpu_run *run)
{
	struct blab_trace_stats *st = &t->st;
	uint8_t *slot;

	st->free_order[e->order]++;
	rate_add(t, e->ns, 1);
	if (!(slot = pfn_tracked(t, e->pfn)))
		return;
	if (!*slot) {
		st->unknown_pages++;
		keep(t, e->ns, e->pfn, BLAB_EV_TRACE_UNKNOWN, (unsigned)e->order, (unsigned)e->cpu,
		     0, BLAB_PATH_NONE, 0, 0, 0);
	}
	*slot = 0;
	keep(t, e->ns, e->pfn, BLAB_EV_FREE, (unsigned)e->order, (unsigned)e->cpu, 0,
	     BLAB_PATH_NONE, 0, 0, 0);
}

static void on_free_batched(struct blab_trace *t, const struct kmem_event *e,
			    struct cpu_run *run)
{
	keep(t, e->ns, e->pfn, BLAB_EV_TRACE_FREE_BATCHED, (unsigned)e->v[F_ORDER],
	     (unsigned)e->cpu, 0, BLAB_PATH_NONE, 0, 0, 0);
}

/* free_pcppages_bulk(): a page off a pcp list, onto the buddy lists */
static void on_pcpu_drain(struct blab_trace *t, const struct kmem_event *e, struct cpu_run *run)
{
	run->drain++;
	keep(t, e->ns, e->pfn, BLAB_EV_PCP_DEL, (unsigned)e->order, (unsigned)e->cpu,
	     (unsigned)e->v[F_MT], BLAB_PATH_BULK_MERGE, 0, 0, 0);
	keep(t, e->ns, e->pfn, BLAB_EV_BUDDY_ADD, (unsigned)e->order, (unsigned)e->cpu,
	     (unsigned)e->v[F_MT], BLAB_PATH_BULK_MERGE, 0, 0, 0);
}

/* a page off the buddy lists under zone->lock; with percpu_refill=1 rmqueue_bulk()'s, onto a
 * pcp list */
static void on_zone_locked(struct blab_trace *t, const struct kmem_event *e,
			   struct cpu_run *run)
{
	keep(t, e->ns, e->pfn, BLAB_EV_BUDDY_DEL, (unsigned)e->order, (unsigned)e->cpu,
	     (unsigned)e->v[F_MT], e->is_refill ? BLAB_PATH_RMQUEUE_BULK : BLAB_PATH_RMQUEUE, 0,
	     0, 0);
	if (e->is_refill) {
		t->st.refills++;
		run->refill++;
		keep(t, e->ns, e->pfn, BLAB_EV_PCP_ADD, (unsigned)e->order, (unsigned)e->cpu,
		     (unsigned)e->v[F_MT], BLAB_PATH_RMQUEUE_BULK, BLAB_EVF_TAIL, 0, 0);
	}
}

static void on_extfrag(struct blab_trace *t, const struct kmem_event *e, struct cpu_run *run)
{
	keep(t, e->ns, e->pfn, BLAB_EV_TRACE_EXTFRAG, (unsigned)e->order, (unsigned)e->cpu,
	     (unsigned)e->v[F_FALLBACK_MT], BLAB_PATH_FALLBACK,
	     (unsigned)(e->v[F_CHANGE_OWNER] | e->v[F_FRAGMENTING] << 1),
	     (uint32_t)e->v[F_ALLOC_MT], (uint32_t)e->v[F_FALLBACK_ORDER]);
}

#define NEED(f) (1u << (f))
#define MAX_NAME_LEN 25 /* the longest name below, mm_page_alloc_zone_locked */

/* The six kmem page tracepoints: each one's name, the fields an event of it must carry, and
 * what the event does to the summary and the replay. */
static const struct tracepoint {
	const char *name;
	size_t len;
	unsigned need; /* NEED() of each field */
	void (*on_event)(struct blab_trace *t, const struct kmem_event *e, struct cpu_run *run);
} tracepoints[BLAB_TK_COUNT] = {
	[BLAB_TK_ALLOC] = {KEY("mm_page_alloc"), NEED(F_PFN) | NEED(F_ORDER) | NEED(F_MT), on_alloc},
	[BLAB_TK_FREE] = {KEY("mm_page_free"), NEED(F_PFN) | NEED(F_ORDER), on_free},
	[BLAB_TK_FREE_BATCHED] = {KEY("mm_page_free_batched"), NEED(F_PFN), on_free_batched},
	[BLAB_TK_PCPU_DRAIN] = {KEY("mm_page_pcpu_drain"), NEED(F_PFN) | NEED(F_ORDER) | NEED(F_MT),
				on_pcpu_drain},
	[BLAB_TK_ZONE_LOCKED] = {KEY("mm_page_alloc_zone_locked"),
				 NEED(F_PFN) | NEED(F_ORDER) | NEED(F_MT), on_zone_locked},
	[BLAB_TK_EXTFRAG] = {KEY("mm_page_alloc_extfrag"),
			     NEED(F_PFN) | NEED(F_ALLOC_ORDER) | NEED(F_FALLBACK_ORDER) |
				     NEED(F_ALLOC_MT) | NEED(F_FALLBACK_MT),
			     on_extfrag},
};

const char *blab_trace_kind_name(unsigned kind)
{
	return kind < BLAB_TK_COUNT ? tracepoints[kind].name : NULL;
}

/* ---- reading a line ---- */

/* Is the name at p a kmem page event's, followed by ':'?  Sets *kind, *end (after ':').
 * No name holds a ':', so the name is what runs up to the first ':' after p, and the six names'
 * lengths differ: one comparison, with the one tracepoint whose name is that long. */
static int match_name(const char *line, size_t len, size_t p, unsigned *kind, size_t *end)
{
	/* the ':' of the longest name is at p + MAX_NAME_LEN */
	size_t c = p + 8, last = p + MAX_NAME_LEN + 1 < len ? p + MAX_NAME_LEN + 1 : len;
	while (c < last && line[c] != ':')
		c++;
	if (c == last)
		return 0;
	for (unsigned k = 0; k < BLAB_TK_COUNT; k++) {
		size_t n = tracepoints[k].len;
		if (n == c - p && memcmp(line + p, tracepoints[k].name, n) == 0) {
			*kind = k;
			*end = c + 1;
			return 1;
		}
	}
	return 0;
}

/* "mm_page_" at p, its first byte a word start (the line's, or after ' ', ':' or a tab), the
 * name of a kmem page event followed by ':'? Then *name and what match_name() sets are set. */
static int try_name(const char *line, size_t len, size_t p, unsigned *kind, size_t *name,
		    size_t *after)
{
	if (p + 8 > len || load8(line + p) != load8("mm_page_"))
		return 0;
	if (p > 0 && line[p - 1] != ' ' && line[p - 1] != ':' && line[p - 1] != '\t')
		return 0;
	if (!match_name(line, len, p, kind, after))
		return 0;
	*name = p;
	return 1;
}

/* The line's event name: the last "mm_page_..." that names one (a task name might contain
 * one too). 0 when there is none: the line is skipped, not malformed. */
static int find_event(const char *line, size_t len, unsigned *kind, size_t *name, size_t *after)
{
	int found = 0;
	size_t p = 0;

	if (len < 8)
		return 0;
	/* each "mm" in the line, a word at a time: a pair inside the word, or one whose first 'm'
	 * ended the word before */
	uint64_t carry = 0;
	for (; p + 8 <= len; p += 8) {
		uint64_t m = bytes_eq(load8(line + p), 'm');
		uint64_t mm = m & (m >> 8);
		if (carry && (m & 0x80) && try_name(line, len, p - 1, kind, name, after))
			found = 1;
		for (; mm; mm &= mm - 1)
			if (try_name(line, len, p + first_byte(mm), kind, name, after))
				found = 1;
		carry = m >> 63;
	}
	/* an "mm" that starts in the bytes after the last whole word, or at its last byte, leaves no
	 * room for a name and its ':' */
	return found;
}

/* SECONDS.FRACTION (or a plain count of ns) in [ts, ts_end) */
static int parse_time(struct blab_trace *t, const char *line, size_t ts, size_t ts_end,
		      uint64_t *ns)
{
	const char *dot = memchr(line + ts, '.', ts_end - ts);
	uint64_t sec, frac;

	if (!dot) {
		/* trace_clock counter / x86-tsc: a plain count, taken as ns */
		if (parse_num(line + ts, ts_end - ts, (1ull << 63) - 1, 0, ns)) {
			malformed(t, "bad timestamp", line + ts, ts_end - ts);
			return -1;
		}
		return 0;
	}
	size_t fl = (size_t)(line + ts_end - dot - 1);
	if (parse_num(line + ts, (size_t)(dot - line) - ts, 10000000000ull, 0, &sec) || fl == 0 ||
	    fl > 9 || parse_num(dot + 1, fl, 999999999, 0, &frac)) {
		malformed(t, "bad timestamp", line + ts, ts_end - ts);
		return -1;
	}
	for (size_t i = fl; i < 9; i++)
		frac *= 10;
	*ns = sec * 1000000000ull + frac;
	return 0;
}

/* the header before the event name: ... [CPU] ... SECONDS.FRACTION: [kmem:]name: */
static int parse_header(struct blab_trace *t, const char *line, size_t name,
			struct kmem_event *e)
{
	size_t h = name;

	if (h >= 5 && memcmp(line + h - 5, "kmem:", 5) == 0)
		h -= 5;
	while (h > 0 && (line[h - 1] == ' ' || line[h - 1] == '\t'))
		h--;
	if (h == 0 || line[h - 1] != ':') {
		malformed(t, "no timestamp before the event name", "", 0);
		return -1;
	}
	size_t ts_end = h - 1, ts = ts_end;
	while (ts > 0 && line[ts - 1] != ' ' && line[ts - 1] != '\t')
		ts--;
	if (parse_time(t, line, ts, ts_end, &e->ns))
		return -1;

	/* the CPU: the last "[digits]" before the timestamp */
	e->cpu = NO_CPU;
	for (size_t p = ts; p > 0; p--) {
		if (line[p - 1] != ']')
			continue;
		size_t close = p - 1, open = close;
		while (open > 0 && line[open - 1] >= '0' && line[open - 1] <= '9')
			open--;
		if (open > 0 && line[open - 1] == '[' && open < close) {
			if (parse_u64(line + open, close - open, BLAB_TRACE_MAX_CPUS - 1,
				      &e->cpu)) {
				malformed(t, "CPU number too large", line + open - 1,
					  close - open + 2);
				return -1;
			}
			break;
		}
	}
	if (e->cpu == NO_CPU) {
		malformed(t, "no [CPU] before the timestamp", "", 0);
		return -1;
	}
	return 0;
}

/* [a, a + n) == [b, b + n) for n >= 2 (the keys are 3 to 20 bytes): a word at a time, the
 * last one overlapping, where WebAssembly's memcmp() is a call and a byte loop */
static int same_key(const char *a, const char *b, size_t n)
{
	if (n >= 8) {
		for (size_t i = 0; i + 8 < n; i += 8)
			if (load8(a + i) != load8(b + i))
				return 0;
		return load8(a + n - 8) == load8(b + n - 8);
	}
	if (n >= 4)
		return load4(a) == load4(b) && load4(a + n - 4) == load4(b + n - 4);
	return load2(a) == load2(b) && load2(a + n - 2) == load2(b + n - 2);
}

/* The field whose key is [k, k + n), F_COUNT for none. The keys' lengths tell them apart but
 * for three of 11 bytes, whose first letters differ: one comparison per word, where a loop over
 * the table was a third of reading the fields (test_trace.c reads each key of the table). */
static unsigned field_named(const char *k, size_t n)
{
	unsigned f;
	switch (n) {
	case 3: f = F_PFN; break;
	case 4: f = F_PAGE; break;
	case 5: f = F_ORDER; break;
	case 11: f = k[0] == 'm' ? F_MT : k[0] == 'a' ? F_ALLOC_ORDER : F_FRAGMENTING; break;
	case 13: f = F_REFILL; break;
	case 14: f = F_FALLBACK_ORDER; break;
	case 16: f = F_CHANGE_OWNER; break;
	case 17: f = F_ALLOC_MT; break;
	case 20: f = F_FALLBACK_MT; break;
	default: return F_COUNT;
	}
	return fields[f].len == n && same_key(k, fields[f].name, n) ? f : F_COUNT;
}

/* The high bit of each byte of w that is a blank, in a printable line: its only bytes at or
 * under ' ' are spaces and tabs, and none has its high bit set (each byte + 0x5f stays in its
 * byte, and reaches 0x80 from '!' up). */
static uint64_t blanks_in_printable(uint64_t w)
{
	return ~(w + 0x5f * ONES) & HIGHS;
}

/* The first blank (space, tab) at or after p, or with eq the first blank or '='; len if none.
 * For printable lines only (blanks_in_printable()). */
static size_t next_stop(const char *line, size_t p, size_t len, int eq)
{
	for (; p + 8 <= len; p += 8) {
		uint64_t w = load8(line + p);
		uint64_t m = blanks_in_printable(w) | (eq ? bytes_eq(w, '=') : 0);
		if (m)
			return p + first_byte(m);
	}
	while (p < len && line[p] != ' ' && line[p] != '\t' && !(eq && line[p] == '='))
		p++;
	return p;
}

/* where each known key=value of [p, len) sits; unknown keys and words are passed over. A word's
 * key is what comes before its first '=', its value the rest of the word. The line is
 * printable (parse_line() checked). */
static void find_fields(const char *line, size_t p, size_t len, struct kmem_event *e)
{
	while (p < len) {
		while (p < len && (line[p] == ' ' || line[p] == '\t'))
			p++;
		if (p == len)
			break;
		size_t tok = p, eq = next_stop(line, p, len, 1);
		if (eq == len || line[eq] != '=') {
			p = eq; /* a word without '=' */
			continue;
		}
		p = next_stop(line, eq + 1, len, 0);
		unsigned f = field_named(line + tok, eq - tok);
		if (f < F_COUNT) {
			e->fv[f] = line + eq + 1;
			e->fn[f] = p - eq - 1;
		}
	}
}

/* Each field the tracepoint needs is there, and each one there a number within its bound.
 * A failed allocation (page=(null), or perf's NULL page as a number) passes with any pfn. */
static int read_fields(struct blab_trace *t, struct kmem_event *e)
{
	const char *page = e->fv[F_PAGE];
	size_t pn = e->fn[F_PAGE];
	char why[48];

	if (e->kind == BLAB_TK_ALLOC && page &&
	    ((pn == 6 && memcmp(page, "(null)", 6) == 0) ||
	     (pn == 5 && memcmp(page, "(nil)", 5) == 0)))
		e->failed_alloc = 1;
	for (unsigned f = 0; f < F_COUNT; f++) {
		if (!e->fv[f]) {
			if (tracepoints[e->kind].need & NEED(f)) {
				snprintf(why, sizeof(why), "no %s= field", fields[f].name);
				malformed(t, why, "", 0);
				return -1;
			}
			continue;
		}
		if (f == F_PAGE)
			continue; /* a pointer (hashed in tracefs): only its (null) matters */
		if (e->fn[f] > FIELD_MAX_LEN) {
			snprintf(why, sizeof(why), "%s= field too long", fields[f].name);
			malformed(t, why, e->fv[f], e->fn[f]);
			return -1;
		}
		if (parse_u64(e->fv[f], e->fn[f], fields[f].max, &e->v[f])) {
			snprintf(why, sizeof(why), "bad or too large %s=", fields[f].name);
			malformed(t, why, e->fv[f], e->fn[f]);
			return -1;
		}
	}
	if (e->kind == BLAB_TK_ALLOC && e->v[F_PFN] == UINT64_MAX)
		e->failed_alloc = 1;
	/* perf prints a NULL page as a number: page=0 / 0x0 / 0000000000000000 with pfn=0 */
	if (e->kind == BLAB_TK_ALLOC && page && e->v[F_PFN] == 0) {
		uint64_t v;
		if (pn <= FIELD_MAX_LEN && parse_u64(page, pn, UINT64_MAX, &v) == 0 && v == 0)
			e->failed_alloc = 1;
	}
	if (!e->failed_alloc && e->v[F_PFN] > BLAB_TRACE_MAX_PFN) {
		malformed(t, "pfn too large", e->fv[F_PFN], e->fn[F_PFN]);
		return -1;
	}
	e->pfn = e->v[F_PFN];
	e->order = e->kind == BLAB_TK_EXTFRAG ? e->v[F_ALLOC_ORDER] : e->v[F_ORDER];
	e->is_refill = e->kind == BLAB_TK_ZONE_LOCKED && e->v[F_REFILL];
	return 0;
}

/* A good event, counted in what every event adds to: per kind and CPU, the time and pfn
 * spans, and the runs of refills and drains it ends. -1 past the event bound. */
static int count_event(struct blab_trace *t, const struct kmem_event *e, struct cpu_run *run)
{
	struct blab_trace_stats *st = &t->st;

	if (st->events >= t->max_events) {
		char m[96];
		snprintf(m, sizeof(m), "line %llu: more than %llu kmem page events",
			 (unsigned long long)st->lines, (unsigned long long)t->max_events);
		fail(t, BLAB_TRACE_ELIMIT, m);
		return -1;
	}
	st->events++;
	st->kind[e->kind]++;
	t->cpu_kind[e->cpu][e->kind]++;
	if (e->cpu + 1 > st->cpus)
		st->cpus = e->cpu + 1;
	if (!t->have_time) {
		t->have_time = 1;
		st->first_ns = st->last_ns = t->rate_origin = e->ns;
	}
	if (e->ns < st->first_ns)
		st->first_ns = e->ns;
	if (e->ns > st->last_ns)
		st->last_ns = e->ns;
	if (!e->failed_alloc) {
		/* a block of order k at pfn p covers p .. p + 2^k - 1: the zone must hold it all */
		uint64_t last = e->pfn + (1ull << e->order) - 1;
		if (e->pfn < st->min_pfn)
			st->min_pfn = e->pfn;
		if (last > st->max_pfn)
			st->max_pfn = last;
	}
	if (e->order > t->max_order)
		t->max_order = (unsigned)e->order;
	if (!e->is_refill)
		close_run(t, BLAB_HIST_REFILL, (unsigned)e->cpu, &st->refill, &run->refill);
	if (e->kind != BLAB_TK_PCPU_DRAIN)
		close_run(t, BLAB_HIST_DRAIN, (unsigned)e->cpu, &st->drain, &run->drain);
	return 0;
}

/* The offset of the first '\n' in [d, d + len), len when there is none; *bad: the offset of
 * the first byte before it that is neither printable ASCII nor a tab (that of the '\n', or len,
 * when there is none). One pass finds the line's end and says whether it is printable: a
 * printable line's only control byte but tabs is its '\n'. */
static size_t scan_line(const char *d, size_t len, size_t *bad)
{
	size_t p = 0;
	*bad = SIZE_MAX;
	for (;;) {
		uint64_t m = 0;
		for (; p + 8 <= len; p += 8)
			if ((m = bytes_special(load8(d + p))) != 0)
				break;
		if (m) {
			p += first_byte(m);
		} else {
			while (p < len && !is_special(d[p]))
				p++;
			if (p == len)
				break;
		}
		if (d[p] == '\n')
			break;
		if (d[p] != '\t' && *bad == SIZE_MAX)
			*bad = p;
		p++;
	}
	if (*bad == SIZE_MAX)
		*bad = p;
	return p;
}

/* parse_line()'s `bad` when the line was not scanned for control bytes on its way in */
#define BAD_UNKNOWN SIZE_MAX

/* bad: the offset in the line of the first byte that is neither printable ASCII nor a tab (a
 * control byte, DEL, a byte over 0x7e), as the scan for the line's end found it (past the line:
 * none), or BAD_UNKNOWN: a line gathered from pieces, scanned here when it is read */
static void parse_line(struct blab_trace *t, const char *line, size_t len, size_t bad)
{
	struct blab_trace_stats *st = &t->st;
	struct kmem_event e = {.kind = BLAB_TK_COUNT};
	size_t name = 0, after = 0;

	if (len && line[len - 1] == '\r')
		len--;
	if (len == 0) {
		st->skipped_lines++;
		return;
	}
	if (line[0] == '#') {
		st->comment_lines++;
		return;
	}
	if (!find_event(line, len, &e.kind, &name, &after)) {
		st->skipped_lines++;
		return;
	}
	if (bad == BAD_UNKNOWN)
		scan_line(line, len, &bad); /* a line holds no '\n': this finds its end at len */
	if (bad < len) {
		malformed(t, "control or non-ASCII byte in the line", "", 0);
		return;
	}
	if (parse_header(t, line, name, &e))
		return;
	find_fields(line, after, len, &e);
	if (read_fields(t, &e) || count_event(t, &e, &t->runs[e.cpu]))
		return;
	tracepoints[e.kind].on_event(t, &e, &t->runs[e.cpu]);
}

/* The line [line, line + len) ended: the one gathered in t->line, or one read in place from
 * the input when a chunk holds all of it (no copy: most lines are). bad: as parse_line()'s. */
static int end_line(struct blab_trace *t, const char *line, size_t len, size_t bad)
{
	struct blab_trace_stats *st = &t->st;
	if (st->lines >= t->max_lines) {
		char m[64];
		snprintf(m, sizeof(m), "more than %llu lines", (unsigned long long)t->max_lines);
		return fail(t, BLAB_TRACE_ELIMIT, m);
	}
	st->lines++;
	if (st->lines == 1 && len >= 3 && !memcmp(line, "\xef\xbb\xbf", 3)) {
		/* a UTF-8 byte order mark some editors put first: not part of the line */
		line += 3;
		len -= 3;
		bad = BAD_UNKNOWN; /* its bytes are not ASCII: the scan's first one is the mark's */
	}
	if (t->overlong) {
		char why[64];
		snprintf(why, sizeof(why), "line longer than %u bytes", BLAB_TRACE_MAX_LINE);
		malformed(t, why, "", 0);
	} else {
		parse_line(t, line, len, bad);
	}
	t->len = 0;
	t->line_bytes = 0;
	t->overlong = 0;
	return t->err;
}

/* A stop that is not a malformed line but the end of the parse: the line is counted (the one
 * line that passed a bound) and the reason names it. */
static int stop_at_line(struct blab_trace *t, const char *why, unsigned long long arg)
{
	char m[160];
	t->st.lines++;
	snprintf(m, sizeof(m), "line %llu: ", (unsigned long long)t->st.lines);
	snprintf(m + strlen(m), sizeof(m) - strlen(m), why, arg);
	return fail(t, BLAB_TRACE_ELIMIT, m);
}

int blab_trace_feed(struct blab_trace *t, const void *data, size_t len)
{
	const char *d = data;
	int over = 0;
	if (!t || (!d && len))
		return BLAB_TRACE_EINVAL;
	if (t->err || t->finished)
		return t->err ? t->err : BLAB_TRACE_EINVAL;
	/* the input bound falls on a byte, wherever the chunks are cut */
	if (len > BLAB_TRACE_MAX_BYTES - t->st.bytes) {
		len = (size_t)(BLAB_TRACE_MAX_BYTES - t->st.bytes);
		over = 1;
	}
	t->st.bytes += len;
	while (len) {
		size_t bad, n = scan_line(d, len, &bad);
		const char *nl = n < len ? d + n : NULL;
		/* a line that never ends (/dev/zero, a binary file) stops the parse, rather than
		 * being read to the end of an input that has none */
		t->line_bytes += n;
		if (t->line_bytes > BLAB_TRACE_MAX_SCAN)
			return stop_at_line(t, "longer than %llu bytes without a line end (not a "
					    "text trace?)", BLAB_TRACE_MAX_SCAN);
		if (nl && !t->len && !t->overlong && n <= BLAB_TRACE_MAX_LINE) {
			/* the whole line is in this chunk: read it where it is */
			if (end_line(t, d, n, bad))
				return t->err;
			d += n + 1;
			len -= n + 1;
			continue;
		}
		if (!t->overlong) {
			if (t->len + n > BLAB_TRACE_MAX_LINE) {
				t->overlong = 1;
			} else {
				memcpy(t->line + t->len, d, n);
				t->len += n;
			}
		}
		if (!nl)
			break;
		if (end_line(t, t->line, t->len, BAD_UNKNOWN))
			return t->err;
		d += n + 1;
		len -= n + 1;
	}
	if (over)
		return stop_at_line(t, "the input passed %llu bytes", BLAB_TRACE_MAX_BYTES);
	return 0;
}

static void finish_replay(struct blab_trace *t); /* (with the replay, below) */

int blab_trace_finish(struct blab_trace *t)
{
	if (!t)
		return BLAB_TRACE_EINVAL;
	if (t->finished)
		return t->err;
	if (!t->err && (t->len || t->overlong))
		end_line(t, t->line, t->len, BAD_UNKNOWN);
	t->finished = 1;
	for (unsigned c = 0; c < BLAB_TRACE_MAX_CPUS; c++) {
		close_run(t, BLAB_HIST_REFILL, c, &t->st.refill, &t->runs[c].refill);
		close_run(t, BLAB_HIST_DRAIN, c, &t->st.drain, &t->runs[c].drain);
	}
	finish_replay(t);
	if (t->err)
		return t->err;
	if (t->st.bytes == 0)
		return fail(t, BLAB_TRACE_EEMPTY, "empty input");
	if (t->st.events == 0) {
		char m[160];
		snprintf(m, sizeof(m),
			 "no kmem page events found (%llu lines: %llu skipped, %llu malformed)",
			 (unsigned long long)t->st.lines, (unsigned long long)t->st.skipped_lines,
			 (unsigned long long)t->st.malformed_lines);
		return fail(t, BLAB_TRACE_ENOEVENTS, m);
	}
	return 0;
}

const char *blab_trace_error(const struct blab_trace *t)
{
	return t ? t->errmsg : "";
}

const struct blab_hist *blab_trace_hist(const struct blab_trace *t)
{
	return t && t->finished ? t->hist : NULL;
}

const struct blab_trace_stats *blab_trace_stats(const struct blab_trace *t)
{
	return t ? &t->st : NULL;
}

uint64_t blab_trace_cpu_events(const struct blab_trace *t, unsigned cpu, unsigned kind)
{
	if (!t || cpu >= BLAB_TRACE_MAX_CPUS || kind >= BLAB_TK_COUNT)
		return 0;
	return t->cpu_kind[cpu][kind];
}

/* ---- summary ---- */

struct out {
	char *buf;
	size_t cap, len;
};

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static void put(struct out *o, const char *fmt, ...);

static void put(struct out *o, const char *fmt, ...)
{
	va_list ap;
	char tmp[512];
	va_start(ap, fmt);
	int n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	size_t m = (size_t)n < sizeof(tmp) ? (size_t)n : sizeof(tmp) - 1;
	if (o->len < o->cap) {
		size_t room = o->cap - o->len - 1 < m ? o->cap - o->len - 1 : m;
		memcpy(o->buf + o->len, tmp, room);
		o->buf[o->len + room] = 0;
	}
	o->len += m;
}

#define U(x) ((unsigned long long)(x))

/* seconds.microseconds of a ns count, without floating point */
static void put_secs(struct out *o, uint64_t ns)
{
	put(o, "%llu.%06llu", U(ns / 1000000000ull), U(ns % 1000000000ull / 1000));
}

static void put_batches(struct out *o, const char *name, const struct blab_trace_batches *b)
{
	static const char *const labels[BLAB_TRACE_BATCH_BUCKETS] = {
		"1", "2-3", "4-7", "8-15", "16-31", "32-63", "64-127", "128-255", "256-511",
		"512-1023", "1024+",
	};
	put(o, "%s_batches %llu", name, U(b->count));
	if (b->count)
		put(o, " events %llu min %llu max %llu mean %llu.%llu", U(b->events), U(b->min),
		    U(b->max), U(b->events / b->count), U(b->events * 10 / b->count % 10));
	put(o, "\n");
	for (unsigned i = 0; i < BLAB_TRACE_BATCH_BUCKETS; i++)
		if (b->hist[i])
			put(o, "%s_size %-8s %llu\n", name, labels[i], U(b->hist[i]));
}

size_t blab_trace_summary(const struct blab_trace *t, char *buf, size_t cap)
{
	struct out o = {buf, cap, 0};
	if (buf && cap)
		buf[0] = 0;
	if (!t)
		return 0;
	const struct blab_trace_stats *st = &t->st;
	put(&o, "lines %llu bytes %llu\n", U(st->lines), U(st->bytes));
	put(&o, "lines_comment %llu\n", U(st->comment_lines));
	put(&o, "lines_skipped %llu\n", U(st->skipped_lines));
	put(&o, "lines_malformed %llu\n", U(st->malformed_lines));
	for (unsigned i = 0; i < st->reasons; i++)
		put(&o, "malformed line %llu: %s\n", U(st->reason_line[i]), st->reason[i]);
	put(&o, "events %llu\n", U(st->events));
	for (unsigned k = 0; k < BLAB_TK_COUNT; k++)
		put(&o, "event %-26s %llu\n", tracepoints[k].name, U(st->kind[k]));
	put(&o, "alloc_failed %llu\n", U(st->alloc_failed));
	put(&o, "cpus %llu\n", U(st->cpus));
	put(&o, "cpu_columns events");
	for (unsigned k = 0; k < BLAB_TK_COUNT; k++)
		put(&o, " %s", tracepoints[k].name);
	put(&o, "\n");
	for (unsigned c = 0; c < st->cpus && c < BLAB_TRACE_MAX_CPUS; c++) {
		uint64_t sum = 0;
		for (unsigned k = 0; k < BLAB_TK_COUNT; k++)
			sum += t->cpu_kind[c][k];
		if (!sum)
			continue;
		put(&o, "cpu %u events %llu", c, U(sum));
		for (unsigned k = 0; k < BLAB_TK_COUNT; k++)
			put(&o, " %llu", U(t->cpu_kind[c][k]));
		put(&o, "\n");
	}
	for (unsigned i = 0; i <= BLAB_TRACE_MAX_ORDER; i++)
		if (st->alloc_order[i] || st->free_order[i])
			put(&o, "order %u allocs %llu frees %llu\n", i, U(st->alloc_order[i]),
			    U(st->free_order[i]));
	/* the kernel's numbering; 4 and up depend on CONFIG_CMA / CONFIG_MEMORY_ISOLATION */
	static const char *const mt_names[BLAB_TRACE_MAX_MT + 1] = {
		"unmovable", "movable", "reclaimable", "highatomic",
		"cma_or_isolate", "cma_or_isolate", "other", "other",
	};
	for (unsigned i = 0; i <= BLAB_TRACE_MAX_MT; i++)
		if (st->alloc_mt[i])
			put(&o, "migratetype %u %s %llu\n", i, mt_names[i], U(st->alloc_mt[i]));
	put(&o, "refills %llu\n", U(st->refills));
	put_batches(&o, "refill", &st->refill);
	put_batches(&o, "drain", &st->drain);
	put(&o, "unknown_pages %llu\n", U(st->unknown_pages));
	if (st->events > st->alloc_failed)
		put(&o, "pfn_range 0x%llx 0x%llx pages %llu\n", U(st->min_pfn), U(st->max_pfn),
		    U(st->max_pfn - st->min_pfn + 1));
	if (st->events) {
		put(&o, "time ");
		put_secs(&o, st->first_ns);
		put(&o, " ");
		put_secs(&o, st->last_ns);
		put(&o, " span ");
		put_secs(&o, st->last_ns - st->first_ns);
		put(&o, "\n");
		unsigned last = 0;
		for (unsigned i = 0; i < BLAB_TRACE_RATE_BUCKETS; i++)
			if (st->rate_alloc[i] || st->rate_free[i])
				last = i + 1;
		put(&o, "rate_bucket_us %llu\n", U(st->rate_width_ns / 1000));
		for (unsigned i = 0; i < last; i++)
			if (st->rate_alloc[i] || st->rate_free[i])
				put(&o, "rate_us +%llu allocs %llu frees %llu\n",
				    U(st->rate_width_ns / 1000 * i), U(st->rate_alloc[i]),
				    U(st->rate_free[i]));
	}
	put(&o, "limits line %u lines %llu events %llu\n", BLAB_TRACE_MAX_LINE,
	    U(t->max_lines), U(t->max_events));
	if (t->err)
		put(&o, "stopped %s\n", t->errmsg);
	return o.len;
}

/* ---- replay ---- */

/* The replay's first record: the zone the trace's pages span */
static void zone_record(const struct blab_trace *t, struct blab_event *z)
{
	const struct blab_trace_stats *st = &t->st;
	uint64_t span = st->max_pfn - st->min_pfn + 1;
	memset(z, 0, sizeof(*z));
	/* times count from the trace's first event, not from boot (the summary's `time` line
	 * keeps the absolute ones) */
	z->time = 0;
	z->pfn = st->min_pfn;
	z->type = BLAB_EV_TRACE_ZONE;
	/* the zone's top order: the kernel's default MAX_PAGE_ORDER, or higher if the trace names
	 * a larger block (the trace does not say the kernel's value) */
	z->order = t->max_order > BLAB_TRACE_TOP_ORDER ? t->max_order : BLAB_TRACE_TOP_ORDER;
	z->cpu = BLAB_CPU_NONE;
	z->arg0 = span > UINT32_MAX ? UINT32_MAX : (uint32_t)span;
	z->arg1 = (uint32_t)st->cpus;
}

/* At the end of the parse: the kept events become the replay where they are, its zone record
 * in ev[0] and each time counted from the first event (first_ns is the lowest seen). */
static void finish_replay(struct blab_trace *t)
{
	if (!t->ev || blab_trace_replay(t, NULL, 0) == 0)
		return;
	zone_record(t, &t->ev[0]);
	for (size_t i = 1; i <= t->nev; i++)
		t->ev[i].time -= t->st.first_ns;
}

size_t blab_trace_replay(const struct blab_trace *t, struct blab_event *out, size_t cap)
{
	if (!t || !t->finished || !(t->flags & BLAB_TRACE_KEEP_EVENTS) ||
	    t->st.events <= t->st.alloc_failed)
		return 0;
	size_t need = t->nev + 1;
	if (out && cap) {
		zone_record(t, &out[0]);
		size_t n = cap - 1 < t->nev ? cap - 1 : t->nev;
		if (n)
			memcpy(out + 1, t->ev + 1, n * sizeof(*out));
	}
	return need;
}

const struct blab_event *blab_trace_records(const struct blab_trace *t)
{
	return t && t->ev && blab_trace_replay(t, NULL, 0) ? t->ev : NULL;
}

int blab_trace_parse_buffer(const uint8_t *data, size_t len)
{
	struct blab_trace *t = blab_trace_new(BLAB_TRACE_KEEP_EVENTS);
	char small[64];
	if (!t)
		return BLAB_TRACE_ENOMEM;
	blab_trace_feed(t, data, len);
	int err = blab_trace_finish(t);
	size_t need = blab_trace_summary(t, small, sizeof(small));
	char *big = malloc(need + 1);
	if (big) {
		blab_trace_summary(t, big, need + 1);
		free(big);
	}
	size_t n = blab_trace_replay(t, NULL, 0);
	if (n) {
		struct blab_event *ev = malloc(n * sizeof(*ev));
		if (ev) {
			blab_trace_replay(t, ev, n);
			free(ev);
		}
	}
	blab_trace_free(t);
	return err;
}
