/* test_trace.c - the kmem: trace importer (src/trace.c) on recorded fixtures and bad input */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "harness.h"
#include "blab_trace.h"

/* tests/traces/, found from this file's path (CMake compiles with absolute paths) */
static char *fixture(const char *name, size_t *len)
{
	char path[1024];
	const char *slash = strrchr(__FILE__, '/');
	int dir = slash ? (int)(slash - __FILE__) : 1;
	snprintf(path, sizeof(path), "%.*s/traces/%s", dir, slash ? __FILE__ : ".", name);
	FILE *f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "cannot open %s\n", path);
		return NULL;
	}
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *buf = malloc((size_t)n + 1);
	if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
		fclose(f);
		free(buf);
		return NULL;
	}
	fclose(f);
	buf[n] = 0;
	*len = (size_t)n;
	return buf;
}

/* What `grep -c PAT` says: lines holding PAT (independent of trace.c). */
static unsigned long grep_count(const char *text, size_t len, const char *pat)
{
	unsigned long n = 0;
	size_t pl = strlen(pat);
	const char *p = text, *end = text + len;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		for (const char *q = p; q + pl <= le; q++)
			if (memcmp(q, pat, pl) == 0) {
				n++;
				break;
			}
		p = le + 1;
	}
	return n;
}

struct parsed {
	struct blab_trace *t;
	int err;
	char *summary;
};

static struct parsed parse_chunks(const char *data, size_t len, size_t chunk, unsigned seed)
{
	struct parsed r;
	r.t = blab_trace_new(BLAB_TRACE_KEEP_EVENTS);
	CHECK(r.t != NULL);
	size_t off = 0;
	uint32_t x = seed;
	while (off < len) {
		size_t n = chunk;
		if (seed) {
			x = x * 1103515245u + 12345u;
			n = 1 + (x >> 16) % 700;
		}
		if (n > len - off)
			n = len - off;
		blab_trace_feed(r.t, data + off, n);
		off += n;
	}
	r.err = blab_trace_finish(r.t);
	size_t need = blab_trace_summary(r.t, NULL, 0);
	r.summary = malloc(need + 1);
	CHECK_EQ(blab_trace_summary(r.t, r.summary, need + 1), need);
	CHECK_EQ(strlen(r.summary), need);
	return r;
}

static struct parsed parse_str(const char *s, size_t len)
{
	return parse_chunks(s, len, len ? len : 1, 0);
}

static void done(struct parsed *r)
{
	blab_trace_free(r->t);
	free(r->summary);
}

/* grep -c results measured on the committed fixtures */
static const unsigned long perf_grep[BLAB_TK_COUNT] = {599, 297, 284, 779, 444, 0};
static const unsigned long tracefs_grep[BLAB_TK_COUNT] = {609, 31, 30, 707, 945, 0};

static void fixture_counts(const char *name, const unsigned long *measured, unsigned long lines,
			   unsigned long comments)
{
	size_t len = 0;
	char *text = fixture(name, &len);
	CHECK(text != NULL);
	if (!text)
		return;
	struct parsed r = parse_str(text, len);
	const struct blab_trace_stats *st = blab_trace_stats(r.t);
	CHECK_EQ(r.err, 0);
	CHECK_EQ(st->lines, lines);
	CHECK_EQ(st->comment_lines, comments);
	CHECK_EQ(st->malformed_lines, 0);
	uint64_t sum = 0;
	for (unsigned k = 0; k < BLAB_TK_COUNT; k++) {
		CHECK_EQ(st->kind[k], measured[k]);
		char pat[64];
		snprintf(pat, sizeof(pat), "%s:", blab_trace_kind_name(k));
		CHECK_EQ(st->kind[k], grep_count(text, len, pat));
		sum += st->kind[k];
		uint64_t per_cpu = 0;
		for (unsigned c = 0; c < st->cpus; c++)
			per_cpu += blab_trace_cpu_events(r.t, c, k);
		CHECK_EQ(per_cpu, st->kind[k]);
	}
	CHECK_EQ(st->events, sum);
	CHECK_EQ(st->skipped_lines + st->comment_lines + st->malformed_lines + st->events,
		 st->lines);
	CHECK_EQ(st->refills, grep_count(text, len, "percpu_refill=1"));
	CHECK_EQ(st->refill.events, st->refills);
	CHECK_EQ(st->drain.events, st->kind[BLAB_TK_PCPU_DRAIN]);
	CHECK(st->refill.count > 0 && st->drain.count > 0);
	CHECK(st->min_pfn <= st->max_pfn);

	/* the same bytes 1 at a time and in random chunks give the same summary */
	struct parsed one = parse_chunks(text, len, 1, 0);
	CHECK(strcmp(one.summary, r.summary) == 0);
	for (unsigned seed = 1; seed < 4; seed++) {
		struct parsed rnd = parse_chunks(text, len, 0, seed);
		CHECK(strcmp(rnd.summary, r.summary) == 0);
		done(&rnd);
	}
	done(&one);

	/* CRLF line ends: the same counts */
	char *crlf = malloc(len * 2 + 1);
	size_t n = 0;
	for (size_t i = 0; i < len; i++) {
		if (text[i] == '\n')
			crlf[n++] = '\r';
		crlf[n++] = text[i];
	}
	struct parsed c = parse_str(crlf, n);
	CHECK_EQ(c.err, 0);
	for (unsigned k = 0; k < BLAB_TK_COUNT; k++)
		CHECK_EQ(blab_trace_stats(c.t)->kind[k], measured[k]);
	CHECK_EQ(blab_trace_stats(c.t)->malformed_lines, 0);
	done(&c);
	free(crlf);

	/* truncated last line: cut the file in the middle of its last line, before order= */
	size_t cut = len - 1;
	while (cut > 0 && text[cut - 1] != '\n')
		cut--;
	const char *ord = strstr(text + cut, " order=");
	CHECK(ord != NULL);
	struct parsed tr = parse_str(text, ord ? (size_t)(ord - text) : len);
	const struct blab_trace_stats *ts = blab_trace_stats(tr.t);
	CHECK_EQ(tr.err, 0);
	CHECK_EQ(ts->lines, lines);
	CHECK_EQ(ts->malformed_lines, 1); /* the cut line names an event, its fields are gone */
	CHECK_EQ(ts->events, sum - 1);
	CHECK(ts->reasons == 1 && ts->reason_line[0] == lines);
	done(&tr);

	/* no newline at the end at all: the last line still counts */
	struct parsed nonl = parse_str(text, len - 1);
	CHECK_EQ(blab_trace_stats(nonl.t)->events, sum);
	done(&nonl);

	/* replay: header + state records, pfns in range */
	size_t need = blab_trace_replay(r.t, NULL, 0);
	CHECK(need > sum);
	struct blab_event *ev = malloc(need * sizeof(*ev));
	CHECK_EQ(blab_trace_replay(r.t, ev, need), need);
	CHECK_EQ(ev[0].type, BLAB_EV_TRACE_ZONE);
	CHECK_EQ(ev[0].pfn, st->min_pfn);
	CHECK_EQ(ev[0].arg0, st->max_pfn - st->min_pfn + 1);
	uint64_t allocs = 0, frees = 0, unknown = 0, pcp_add = 0, pcp_del = 0;
	for (size_t i = 1; i < need; i++) {
		CHECK(ev[i].pfn >= st->min_pfn && ev[i].pfn <= st->max_pfn);
		CHECK(ev[i].cpu < st->cpus);
		CHECK(ev[i].time <= st->last_ns - st->first_ns); /* from the first event */
		allocs += ev[i].type == BLAB_EV_ALLOC;
		frees += ev[i].type == BLAB_EV_FREE;
		unknown += ev[i].type == BLAB_EV_TRACE_UNKNOWN;
		pcp_add += ev[i].type == BLAB_EV_PCP_ADD;
		pcp_del += ev[i].type == BLAB_EV_PCP_DEL;
	}
	CHECK_EQ(allocs, st->kind[BLAB_TK_ALLOC] - st->alloc_failed);
	CHECK_EQ(frees, st->kind[BLAB_TK_FREE]);
	CHECK_EQ(unknown, st->unknown_pages);
	CHECK_EQ(pcp_add, st->refills);
	CHECK_EQ(pcp_del, st->kind[BLAB_TK_PCPU_DRAIN]);
	/* a short array gets the first records only */
	struct blab_event few[3];
	CHECK_EQ(blab_trace_replay(r.t, few, 3), need);
	CHECK(memcmp(few, ev, sizeof(few)) == 0);
	free(ev);
	done(&r);
	free(text);
}

static void empty_and_garbage(void)
{
	struct parsed r = parse_str("", 0);
	CHECK_EQ(r.err, BLAB_TRACE_EEMPTY);
	CHECK(strstr(blab_trace_error(r.t), "empty") != NULL);
	CHECK_EQ(blab_trace_replay(r.t, NULL, 0), 0);
	done(&r);

	r = parse_str("\n\n# tracer: nop\n", 16);
	CHECK_EQ(r.err, BLAB_TRACE_ENOEVENTS);
	CHECK_EQ(blab_trace_stats(r.t)->lines, 3);
	done(&r);

	/* binary garbage: never an event, never a crash */
	size_t n = 200000;
	unsigned char *g = malloc(n);
	uint32_t x = 7;
	for (size_t i = 0; i < n; i++) {
		x = x * 1664525u + 1013904223u;
		g[i] = (unsigned char)(x >> 24);
	}
	r = parse_str((const char *)g, n);
	CHECK_EQ(r.err, BLAB_TRACE_ENOEVENTS);
	CHECK_EQ(blab_trace_stats(r.t)->events, 0);
	done(&r);
	CHECK_EQ(blab_trace_parse_buffer(g, n), BLAB_TRACE_ENOEVENTS);
	CHECK_EQ(blab_trace_parse_buffer(NULL, 0), BLAB_TRACE_EEMPTY);
	free(g);
}

static const char good[] =
	"            pf1  7653 [001]  3715.129405:             kmem:mm_page_alloc: "
	"page=0x1865a0 pfn=0x1865a0 order=0 migratetype=1 gfp_flags=GFP_HIGHUSER_MOVABLE\n";

static void long_lines_and_nul(void)
{
	/* a 1 MB line then a good one: the long one is malformed, the good one counts */
	size_t big = 1 << 20;
	char *s = malloc(big + sizeof(good) + 2);
	memset(s, 'a', big);
	memcpy(s + 10, " kmem:mm_page_free: ", 20);
	s[big] = '\n';
	memcpy(s + big + 1, good, sizeof(good));
	struct parsed r = parse_str(s, big + sizeof(good));
	const struct blab_trace_stats *st = blab_trace_stats(r.t);
	CHECK_EQ(r.err, 0);
	CHECK_EQ(st->lines, 2);
	CHECK_EQ(st->malformed_lines, 1);
	CHECK_EQ(st->events, 1);
	CHECK(strstr(st->reason[0], "longer than 4096") != NULL);
	done(&r);
	/* a line of exactly the bound is fine */
	memset(s, ' ', BLAB_TRACE_MAX_LINE);
	memcpy(s + BLAB_TRACE_MAX_LINE - (sizeof(good) - 2), good, sizeof(good) - 2);
	s[BLAB_TRACE_MAX_LINE] = '\n';
	r = parse_str(s, BLAB_TRACE_MAX_LINE + 1);
	CHECK_EQ(blab_trace_stats(r.t)->events, 1);
	done(&r);
	r = parse_str(s, BLAB_TRACE_MAX_LINE + 2); /* one more byte on a second line */
	CHECK_EQ(blab_trace_stats(r.t)->lines, 2);
	done(&r);
	memset(s, ' ', BLAB_TRACE_MAX_LINE + 1);
	memcpy(s + BLAB_TRACE_MAX_LINE + 1 - (sizeof(good) - 2), good, sizeof(good) - 2);
	r = parse_str(s, BLAB_TRACE_MAX_LINE + 1); /* one byte over, no newline */
	CHECK_EQ(blab_trace_stats(r.t)->malformed_lines, 1);
	CHECK_EQ(r.err, BLAB_TRACE_ENOEVENTS);
	done(&r);
	free(s);

	/* a line that never ends (/dev/zero): the parse stops once it passes the scan bound,
	 * wherever the chunks are cut, and names the line */
	size_t endless = sizeof(good) - 1 + BLAB_TRACE_MAX_SCAN + 1; /* NULs, no newline */
	s = calloc(endless, 1);
	memcpy(s, good, sizeof(good) - 1); /* line 1 is an event */
	const size_t chunks[] = {1000, 65536, endless};
	for (unsigned c = 0; c < 3; c++) {
		r = parse_chunks(s, endless, chunks[c], 0);
		st = blab_trace_stats(r.t);
		CHECK_EQ(r.err, BLAB_TRACE_ELIMIT);
		CHECK_EQ(st->lines, 2);
		CHECK_EQ(st->events, 1);
		CHECK(strcmp(blab_trace_error(r.t),
			     "line 2: longer than 1048576 bytes without a line end (not a text trace?)") == 0);
		done(&r);
	}
	free(s);
	/* a UTF-8 byte order mark before the first line is not part of it */
	char bom[sizeof(good) + 3] = "\xef\xbb\xbf";
	memcpy(bom + 3, good, sizeof(good));
	r = parse_str(bom, sizeof(bom) - 1);
	CHECK_EQ(r.err, 0);
	CHECK_EQ(blab_trace_stats(r.t)->events, 1);
	done(&r);
	r = parse_chunks(bom, sizeof(bom) - 1, 1, 0); /* the mark split over three feeds */
	CHECK_EQ(blab_trace_stats(r.t)->events, 1);
	done(&r);

	/* NUL bytes inside a kmem line */
	char nul[sizeof(good)];
	memcpy(nul, good, sizeof(good));
	nul[100] = 0;
	r = parse_str(nul, sizeof(good) - 1);
	CHECK_EQ(blab_trace_stats(r.t)->malformed_lines, 1);
	CHECK(strstr(blab_trace_stats(r.t)->reason[0], "control") != NULL);
	done(&r);
}

/* Each line alone: expected malformed (1) or an event (0). */
static void one_line(const char *line, int want_malformed, const char *reason)
{
	int before = harness_failures;
	struct parsed r = parse_str(line, strlen(line));
	const struct blab_trace_stats *st = blab_trace_stats(r.t);
	CHECK_EQ(st->malformed_lines, want_malformed);
	CHECK_EQ(st->events, !want_malformed);
	if (want_malformed && reason && st->reasons)
		CHECK(strstr(st->reason[0], reason) != NULL);
	if (harness_failures != before)
		fprintf(stderr, "  line: %s  summary:\n%s", line, r.summary);
	done(&r);
}

static void bad_fields(void)
{
	const char *h = "pf1 1 [000] 12.000001: kmem:";
	char l[512];
#define L(fmt) (snprintf(l, sizeof(l), "%s" fmt "\n", h), l)
	one_line(L("mm_page_alloc: page=0x1 pfn=0x1 order=0 migratetype=1 gfp_flags=X"), 0, NULL);
	one_line(L("mm_page_alloc: page=0x1 pfn=0x1 order=0 gfp_flags=X"), 1, "no migratetype=");
	one_line(L("mm_page_alloc: page=0x1 pfn=0x1g order=0 migratetype=1"), 1, "bad or too large pfn=");
	one_line(L("mm_page_alloc: pfn=0x10000000000000000 order=0 migratetype=1"), 1, "pfn=");
	one_line(L("mm_page_alloc: pfn=18446744073709551616 order=0 migratetype=1"), 1, "pfn=");
	one_line(L("mm_page_alloc: pfn=0x10000000000000 order=0 migratetype=1"), 1, "pfn too large");
	one_line(L("mm_page_alloc: pfn=0x1 order=16 migratetype=1"), 1, "order=");
	one_line(L("mm_page_alloc: pfn=0x1 order=99999999999999999999999 migratetype=1"), 1, "order=");
	one_line(L("mm_page_alloc: pfn=0x1 order=999999999999999999999999999 migratetype=1"), 1, "too long");
	one_line(L("mm_page_alloc: pfn=0x1 order=-1 migratetype=1"), 1, "order=");
	one_line(L("mm_page_alloc: pfn=0x1 order= migratetype=1"), 1, "order=");
	one_line(L("mm_page_free: pfn=123 order=2"), 0, NULL); /* old kernels: decimal pfn */
	one_line(L("mm_page_free_batched: page=0x1 pfn=0x1 order=0"), 0, NULL);
	one_line(L("mm_page_free_batched: page=0x1"), 1, "no pfn=");
	one_line(L("mm_page_alloc_zone_locked: page=0x1 pfn=0x1 order=0 migratetype=1"), 0, NULL);
	one_line(L("mm_page_alloc_zone_locked: pfn=0x1 order=0 migratetype=1 percpu_refill=2"), 1, "percpu_refill");
	one_line(L("mm_page_alloc_extfrag: page=0x1 pfn=0x1 alloc_order=0 fallback_order=9 pageblock_order=9 alloc_migratetype=0 fallback_migratetype=1 fragmenting=0 change_ownership=1"), 0, NULL);
	one_line(L("mm_page_alloc_extfrag: page=0x1 pfn=0x1 alloc_order=0"), 1, "no fallback_order=");
	one_line(L("mm_page_pcpu_drain: page=0x1 pfn=0x1 order=0 migratetype=1"), 0, NULL);
	one_line(L("mm_page_pcpu_drain: page=0x1 pfn=0x1 order=0 migratetype=8"), 1, "migratetype=");
#undef L
	/* headers */
	one_line("pf1 1 [000] 12.5: mm_page_free: pfn=0x1 order=0\n", 0, NULL);
	one_line("pf1 1 [000] mm_page_free: pfn=0x1 order=0\n", 1, "no timestamp");
	one_line("pf1 1 [000] 1x.5: mm_page_free: pfn=0x1 order=0\n", 1, "bad timestamp");
	one_line("pf1 1 [000] 123456789012: mm_page_free: pfn=0x1 order=0\n", 0, NULL); /* counter clock */
	one_line("pf1 1 [000] 99999999999999999999: mm_page_free: pfn=0x1 order=0\n", 1, "bad timestamp");
	one_line("pf1 1 [000] 12.: mm_page_free: pfn=0x1 order=0\n", 1, "bad timestamp");
	one_line("pf1 1 [000] 12.1234567890: mm_page_free: pfn=0x1 order=0\n", 1, "bad timestamp");
	one_line("pf1 1 [000] 99999999999999999999.1: mm_page_free: pfn=0x1 order=0\n", 1, "bad timestamp");
	one_line("pf1 1 12.5: mm_page_free: pfn=0x1 order=0\n", 1, "no [CPU]");
	one_line("pf1 1 [1024] 12.5: mm_page_free: pfn=0x1 order=0\n", 1, "CPU number");
	one_line("pf1 1 [99999999999999999999999] 12.5: mm_page_free: pfn=0x1 order=0\n", 1, "CPU number");
	one_line("  <idle>-0  [001] d.s2.  12.5: mm_page_free: page=00000000deadbeef pfn=0x1 order=0\n", 0, NULL);
	one_line("a [task] 1 [003] 12.5: mm_page_free: pfn=0x1 order=0\n", 0, NULL);

	/* a failed allocation */
	const char *failed = "x 1 [000] 1.0: mm_page_alloc: page=(null) pfn=0x0 order=3 migratetype=0 gfp_flags=GFP_KERNEL\n"
			     "x 1 [000] 1.1: mm_page_free: page=0x5 pfn=0x5 order=0\n";
	struct parsed r = parse_str(failed, strlen(failed));
	const struct blab_trace_stats *st = blab_trace_stats(r.t);
	CHECK_EQ(st->events, 2);
	CHECK_EQ(st->alloc_failed, 1);
	CHECK_EQ(st->min_pfn, 5);
	CHECK_EQ(st->unknown_pages, 1);
	done(&r);
	/* perf's NULL page: page=0x0 pfn=0x0 */
	const char *nullpage = "x 1 [000] 1.0: kmem:mm_page_alloc: page=0x0 pfn=0x0 order=9 migratetype=1 gfp_flags=GFP_TRANSHUGE\n"
			       "x 1 [000] 1.0: kmem:mm_page_alloc: page=0000000000000000 pfn=0x0 order=0 migratetype=1 gfp_flags=GFP_KERNEL\n"
			       "x 1 [000] 1.0: kmem:mm_page_alloc: page=0x7 pfn=0x0 order=0 migratetype=1 gfp_flags=GFP_KERNEL\n";
	r = parse_str(nullpage, strlen(nullpage));
	CHECK_EQ(blab_trace_stats(r.t)->alloc_failed, 2);
	CHECK_EQ(blab_trace_stats(r.t)->events, 3);
	done(&r);

	/* lines that are no kmem page events: skipped, counted */
	const char *other = "x 1 [000] 1.0: kmem:kmalloc: call_site=foo ptr=0x1\n"
			    "x 1 [000] 1.0: mm_page_allocx: pfn=1\n"
			    "x 1 [000] 1.0: xmm_page_alloc: pfn=1\n"
			    "random text\n"
			    "x 1 [000] 1.0: mm_page_alloc: pfn=0x2 order=1 migratetype=2\n";
	r = parse_str(other, strlen(other));
	st = blab_trace_stats(r.t);
	CHECK_EQ(st->skipped_lines, 4);
	CHECK_EQ(st->events, 1);
	CHECK_EQ(st->alloc_order[1], 1);
	CHECK_EQ(st->alloc_mt[2], 1);
	done(&r);
}

/* The scans go eight bytes at a time: an event line read at every offset from a word start (a
 * longer task name before it) gives the same replay, each key of the table is read (one letter
 * off and it is not), and a control byte at any place in the line is found, the line read whole
 * or byte by byte. */
static void word_offsets(void)
{
	const char *ev = "1 [002] 5.000001: kmem:mm_page_alloc_extfrag: page=0x1 pfn=0x40 alloc_order=1 "
			 "fallback_order=9 pageblock_order=9 alloc_migratetype=0 fallback_migratetype=1 "
			 "fragmenting=1 change_ownership=1\n";
	char l[512], want[64];
	size_t nwant = 0;
	for (unsigned pad = 0; pad < 17; pad++) {
		int n = snprintf(l, sizeof(l), "%.*s %s", (int)pad + 1, "mmmmmmmmmmmmmmmmmm", ev);
		struct parsed r = parse_str(l, (size_t)n);
		CHECK_EQ(r.err, 0);
		CHECK_EQ(blab_trace_stats(r.t)->kind[BLAB_TK_EXTFRAG], 1);
		struct blab_event e[3];
		CHECK_EQ(blab_trace_replay(r.t, e, 3), 2);
		if (pad == 0)
			memcpy(want, e, (nwant = 2 * sizeof(*e)));
		CHECK(memcmp(want, e, nwant) == 0);
		done(&r);
	}
	static const char *const keys[] = {"pfn", "alloc_order", "fallback_order", "alloc_migratetype",
					   "fallback_migratetype"};
	for (unsigned k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
		for (size_t at = 0; at < strlen(keys[k]); at++) {
			snprintf(l, sizeof(l), "t %s", ev);
			char *key = strstr(l, keys[k]);
			while (key && key[-1] != ' ')
				key = strstr(key + 1, keys[k]);
			CHECK(key != NULL);
			key[at] = key[at] == '_' ? '-' : (char)(key[at] ^ 0x20); /* a letter's case */
			char why[48];
			snprintf(why, sizeof(why), "no %s= field", keys[k]);
			one_line(l, 1, why);
		}
	snprintf(l, sizeof(l), "t %s", ev);
	*strstr(l, "fragmenting=1") = 'F';
	one_line(l, 0, NULL); /* not needed: a key one letter off is some other word */
	snprintf(l, sizeof(l), "t %s", ev);
	strstr(l, "fragmenting=1")[12] = '2';
	one_line(l, 1, "bad or too large fragmenting=");
	snprintf(l, sizeof(l), "t %s", ev);
	strstr(l, "change_ownership=1")[17] = '2';
	one_line(l, 1, "bad or too large change_ownership=");

	int n = snprintf(l, sizeof(l), "t %s", ev);
	for (int at = 0; at + 1 < n; at++) {
		char c = l[at];
		l[at] = 1;
		struct parsed a = parse_str(l, (size_t)n), b = parse_chunks(l, (size_t)n, 1, 0);
		const struct blab_trace_stats *st = blab_trace_stats(a.t);
		CHECK_EQ(st->events, 0);
		CHECK_EQ(st->malformed_lines + st->skipped_lines, 1);
		CHECK(strcmp(a.summary, b.summary) == 0);
		done(&a);
		done(&b);
		l[at] = c;
	}
}

static void batches_and_unknown(void)
{
	/* cpu 0: 3 refills, alloc, 2 refills; cpu 1 interleaved: 2 drains; then frees */
	const char *s =
		"a 1 [000] 1.000001: mm_page_alloc_zone_locked: pfn=0x10 order=0 migratetype=1 percpu_refill=1\n"
		"b 2 [001] 1.000002: mm_page_pcpu_drain: pfn=0x20 order=0 migratetype=1\n"
		"a 1 [000] 1.000003: mm_page_alloc_zone_locked: pfn=0x11 order=0 migratetype=1 percpu_refill=1\n"
		"b 2 [001] 1.000004: mm_page_pcpu_drain: pfn=0x21 order=0 migratetype=1\n"
		"a 1 [000] 1.000005: mm_page_alloc_zone_locked: pfn=0x12 order=0 migratetype=1 percpu_refill=1\n"
		"a 1 [000] 1.000006: mm_page_alloc: pfn=0x10 order=0 migratetype=1\n"
		"a 1 [000] 1.000007: mm_page_alloc_zone_locked: pfn=0x13 order=0 migratetype=1 percpu_refill=1\n"
		"a 1 [000] 1.000008: mm_page_alloc_zone_locked: pfn=0x14 order=0 migratetype=1 percpu_refill=1\n"
		"a 1 [000] 1.000009: mm_page_free: pfn=0x10 order=0\n"
		"a 1 [000] 1.000010: mm_page_free: pfn=0x10 order=0\n"
		"a 1 [000] 1.000011: mm_page_free: pfn=0x30 order=0\n";
	struct parsed r = parse_str(s, strlen(s));
	const struct blab_trace_stats *st = blab_trace_stats(r.t);
	CHECK_EQ(r.err, 0);
	CHECK_EQ(st->refill.count, 2);
	CHECK_EQ(st->refill.min, 2);
	CHECK_EQ(st->refill.max, 3);
	CHECK_EQ(st->refill.hist[1], 2); /* 2-3 */
	CHECK_EQ(st->drain.count, 1);
	CHECK_EQ(st->drain.max, 2);
	CHECK_EQ(st->unknown_pages, 2); /* the second free of 0x10 and 0x30 */
	CHECK_EQ(st->cpus, 2);
	CHECK_EQ(st->min_pfn, 0x10);
	CHECK_EQ(st->max_pfn, 0x30);
	CHECK_EQ(st->first_ns, 1000001000ull);
	CHECK_EQ(st->last_ns, 1000011000ull);
	CHECK(strstr(r.summary, "refill_size 2-3      2\n") != NULL);
	CHECK(strstr(r.summary, "unknown_pages 2\n") != NULL);
	done(&r);
}

/* The replay's zone holds every block whole, has the kernel's top order, and counts time
 * from the trace's first event. */
static void replay_zone(void)
{
	const char *s =
		"a 1 [000] 500.000100: mm_page_alloc: pfn=0x100 order=0 migratetype=1\n"
		"a 1 [000] 500.000250: mm_page_free: pfn=0x100 order=0\n"
		"a 1 [001] 500.000300: mm_page_alloc: pfn=0x1fc order=2 migratetype=1\n"
		"a 1 [001] 500.000400: mm_page_free: pfn=0x1fc order=2\n";
	struct parsed r = parse_str(s, strlen(s));
	const struct blab_trace_stats *st = blab_trace_stats(r.t);
	CHECK_EQ(r.err, 0);
	/* the order-2 block at the highest pfn covers 0x1fc .. 0x1ff: inside the zone */
	CHECK_EQ(st->min_pfn, 0x100);
	CHECK_EQ(st->max_pfn, 0x1ff);
	CHECK(strstr(r.summary, "pfn_range 0x100 0x1ff pages 256\n") != NULL);
	size_t need = blab_trace_replay(r.t, NULL, 0);
	struct blab_event ev[8];
	CHECK_EQ(need, 5); /* TRACE_ZONE, then ALLOC, FREE, ALLOC, FREE */
	CHECK_EQ(blab_trace_replay(r.t, ev, 8), need);
	CHECK_EQ(ev[0].type, BLAB_EV_TRACE_ZONE);
	CHECK_EQ(ev[0].arg0, 256);
	CHECK(ev[4].pfn + (1u << ev[4].order) - 1 <= ev[0].pfn + ev[0].arg0 - 1);
	/* MAX_PAGE_ORDER 10, not the parser's bound of 15 */
	CHECK_EQ(ev[0].order, BLAB_TRACE_TOP_ORDER);
	/* ns since the first event: 0, 150 us, 200 us, 300 us */
	CHECK_EQ(ev[0].time, 0);
	CHECK_EQ(ev[1].time, 0);
	CHECK_EQ(ev[2].time, 150000);
	CHECK_EQ(ev[3].time, 200000);
	CHECK_EQ(ev[4].time, 300000);
	CHECK_EQ(st->first_ns, 500000100000ull); /* the summary keeps the absolute times */
	done(&r);

	/* a block larger than MAX_PAGE_ORDER raises the zone's top order to it */
	const char *big = "a 1 [000] 1.0: mm_page_alloc: pfn=0x0 order=12 migratetype=1\n";
	struct parsed b = parse_str(big, strlen(big));
	CHECK_EQ(blab_trace_replay(b.t, ev, 8), 2);
	CHECK_EQ(ev[0].order, 12);
	CHECK_EQ(ev[0].arg0, 4096);
	done(&b);
}

static void api_misuse(void)
{
	CHECK_EQ(blab_trace_feed(NULL, "x", 1), BLAB_TRACE_EINVAL);
	CHECK_EQ(blab_trace_finish(NULL), BLAB_TRACE_EINVAL);
	CHECK_EQ(blab_trace_summary(NULL, NULL, 0), 0);
	CHECK_EQ(blab_trace_replay(NULL, NULL, 0), 0);
	CHECK(blab_trace_kind_name(BLAB_TK_COUNT) == NULL);
	struct blab_trace *t = blab_trace_new(0);
	CHECK_EQ(blab_trace_feed(t, NULL, 1), BLAB_TRACE_EINVAL);
	CHECK_EQ(blab_trace_feed(t, good, sizeof(good) - 1), 0);
	CHECK_EQ(blab_trace_finish(t), 0);
	CHECK_EQ(blab_trace_finish(t), 0);
	CHECK(blab_trace_feed(t, good, 4) < 0); /* after finish */
	CHECK_EQ(blab_trace_replay(t, NULL, 0), 0); /* events not kept */
	char tiny[8];
	size_t need = blab_trace_summary(t, tiny, sizeof(tiny));
	CHECK(need > sizeof(tiny));
	CHECK_EQ(strlen(tiny), sizeof(tiny) - 1);
	blab_trace_free(t);
	blab_trace_free(NULL);
}

static void bounds(void)
{
	size_t len = 0;
	char *text = fixture("pf1.perf.txt", &len);
	if (!text)
		return;
	/* the event bound: stops at the 101st event, summary says so */
	struct blab_trace *t = blab_trace_new(BLAB_TRACE_KEEP_EVENTS);
	CHECK_EQ(blab_trace_set_limits(t, 0, 100), 0);
	CHECK(blab_trace_feed(t, text, len) == BLAB_TRACE_ELIMIT);
	CHECK(blab_trace_feed(t, text, 10) == BLAB_TRACE_ELIMIT);
	CHECK_EQ(blab_trace_finish(t), BLAB_TRACE_ELIMIT);
	CHECK_EQ(blab_trace_stats(t)->events, 100);
	CHECK_EQ(blab_trace_stats(t)->lines, 101);
	CHECK(strstr(blab_trace_error(t), "line 101: more than 100 kmem page events") != NULL);
	char buf[4096];
	blab_trace_summary(t, buf, sizeof(buf));
	CHECK(strstr(buf, "stopped line 101: more than 100") != NULL);
	CHECK(strstr(buf, "limits line 4096 lines 67108864 events 100\n") != NULL);
	CHECK(blab_trace_replay(t, NULL, 0) > 100); /* what came before the bound replays */
	blab_trace_free(t);
	/* the line bound */
	t = blab_trace_new(0);
	CHECK_EQ(blab_trace_set_limits(t, 50, 0), 0);
	CHECK(blab_trace_feed(t, text, len) == BLAB_TRACE_ELIMIT);
	CHECK_EQ(blab_trace_finish(t), BLAB_TRACE_ELIMIT);
	CHECK_EQ(blab_trace_stats(t)->lines, 50);
	CHECK(strstr(blab_trace_error(t), "more than 50 lines") != NULL);
	CHECK_EQ(blab_trace_set_limits(t, 1, 1), BLAB_TRACE_EINVAL); /* too late */
	blab_trace_free(t);
	/* above the maxima: clamped */
	t = blab_trace_new(0);
	CHECK_EQ(blab_trace_set_limits(t, UINT64_MAX, UINT64_MAX), 0);
	blab_trace_summary(t, buf, sizeof(buf));
	CHECK(strstr(buf, "limits line 4096 lines 67108864 events 2097152\n") != NULL);
	blab_trace_free(t);
	free(text);
}

/* A reservation changes nothing but where the records sit: the same summary and replay */
static void reserve(void)
{
	size_t len = 0;
	char *text = fixture("pf1.perf.txt", &len);
	if (!text)
		return;
	struct blab_trace *a = blab_trace_new(BLAB_TRACE_KEEP_EVENTS);
	struct blab_trace *b = blab_trace_new(BLAB_TRACE_KEEP_EVENTS);
	CHECK_EQ(blab_trace_set_limits(b, 0, 1000), 0);
	CHECK_EQ(blab_trace_reserve(b, UINT64_MAX), 0); /* clamped to 2 x 1000 */
	CHECK_EQ(blab_trace_reserve(b, 10), 0);         /* less than it has: nothing to do */
	blab_trace_free(b);
	b = blab_trace_new(BLAB_TRACE_KEEP_EVENTS);
	CHECK_EQ(blab_trace_reserve(b, 5000), 0);
	CHECK_EQ(blab_trace_feed(a, text, len), 0);
	CHECK_EQ(blab_trace_feed(b, text, len), 0);
	CHECK_EQ(blab_trace_reserve(b, 9000), BLAB_TRACE_EINVAL); /* too late */
	CHECK(blab_trace_records(a) == NULL); /* not before the parse is finished */
	CHECK_EQ(blab_trace_finish(a), 0);
	CHECK_EQ(blab_trace_finish(b), 0);
	char sa[8192], sb[8192];
	blab_trace_summary(a, sa, sizeof(sa));
	blab_trace_summary(b, sb, sizeof(sb));
	CHECK(strcmp(sa, sb) == 0);
	size_t n = blab_trace_replay(a, NULL, 0);
	CHECK(n > 2403);
	CHECK_EQ(blab_trace_replay(b, NULL, 0), n);
	struct blab_event *ea = calloc(n, sizeof(*ea)), *eb = calloc(n, sizeof(*eb));
	if (ea && eb) {
		blab_trace_replay(a, ea, n);
		blab_trace_replay(b, eb, n);
		CHECK(memcmp(ea, eb, n * sizeof(*ea)) == 0);
		/* the records where each trace keeps them: the same bytes, the zone record first */
		CHECK(blab_trace_records(a) && memcmp(blab_trace_records(a), ea, n * sizeof(*ea)) == 0);
		CHECK(blab_trace_records(b) && memcmp(blab_trace_records(b), ea, n * sizeof(*ea)) == 0);
		CHECK_EQ(blab_trace_finish(a), 0); /* a second finish changes nothing */
		CHECK(memcmp(blab_trace_records(a), ea, n * sizeof(*ea)) == 0);
	}
	free(ea);
	free(eb);
	blab_trace_free(a);
	blab_trace_free(b);
	struct blab_trace *quiet = blab_trace_new(0);
	CHECK_EQ(blab_trace_reserve(quiet, 100), BLAB_TRACE_EINVAL); /* no events kept */
	blab_trace_feed(quiet, text, len);
	blab_trace_finish(quiet);
	CHECK(blab_trace_records(quiet) == NULL);
	CHECK(blab_trace_records(NULL) == NULL);
	blab_trace_free(quiet);
	CHECK_EQ(blab_trace_reserve(NULL, 100), BLAB_TRACE_EINVAL);
	free(text);
}

/* docs/events.md "Imported traces": every row "| N | NAME |" matches BLAB_TRACE_EVENT_TYPES */
static void doc_matches_header(void)
{
	static const struct {
		unsigned num;
		const char *name;
	} types[] = {
#define BLAB_X(name, num, cls) {num, #name},
		BLAB_TRACE_EVENT_TYPES(BLAB_X)
#undef BLAB_X
	};
	enum { NT = sizeof(types) / sizeof(types[0]) };
	int seen[NT] = {0}, in_section = 0;
	char path[4096], line[512];
	const char *cut = strstr(__FILE__, "wasm-core/tests/");
	if (!cut)
		return;
	snprintf(path, sizeof(path), "%.*sdocs/events.md", (int)(cut - __FILE__), __FILE__);
	FILE *fp = fopen(path, "r");
	CHECK(fp != NULL);
	if (!fp)
		return;
	while (fgets(line, sizeof(line), fp)) {
		unsigned num;
		char name[64];
		if (strncmp(line, "## ", 3) == 0)
			in_section = strstr(line, "Imported traces") != NULL;
		if (!in_section || sscanf(line, "| %u | %63[A-Z_] |", &num, name) != 2)
			continue;
		CHECK(num >= 80 && num <= 95);
		int found = 0;
		for (unsigned i = 0; i < NT; i++)
			if (types[i].num == num) {
				CHECK(strcmp(types[i].name, name) == 0);
				seen[i] = found = 1;
			}
		CHECK(found);
	}
	fclose(fp);
	for (unsigned i = 0; i < NT; i++)
		CHECK(seen[i]);
}

/* Property test: mutated fixture windows never break the invariants, whatever the chunking. */
static void mutations(void)
{
	size_t len = 0;
	char *text = fixture("pf1.tracefs.txt", &len);
	if (!text)
		return;
	unsigned iters = getenv("BLAB_TRACE_MUTATIONS") ? (unsigned)atoi(getenv("BLAB_TRACE_MUTATIONS")) : 2000;
	uint32_t x = 12345;
#define RND(n) (x = x * 1664525u + 1013904223u, (size_t)((x >> 8) % (n)))
	char *buf = malloc(64 * 1024);
	for (unsigned it = 0; it < iters; it++) {
		size_t start = RND(len), n = 1 + RND(6000);
		if (n > len - start)
			n = len - start;
		memcpy(buf, text + start, n);
		unsigned muts = 1 + (unsigned)RND(8);
		for (unsigned m = 0; m < muts && n > 0; m++) {
			size_t at = RND(n);
			switch (RND(6)) {
			case 0: buf[at] = (char)RND(256); break;          /* any byte, NUL included */
			case 1: { size_t k = RND(n - at) + 1;               /* delete */
				memmove(buf + at, buf + at + k, n - at - k); n -= k; break; }
			case 2: if (n + 40 < 64 * 1024) {                    /* huge number */
				memmove(buf + at + 40, buf + at, n - at);
				memset(buf + at, '9', 40); n += 40; } break;
			case 3: buf[at] = '\n'; break;
			case 4: if (n + 5000 < 64 * 1024) {                  /* over-long line */
				memmove(buf + at + 5000, buf + at, n - at);
				memset(buf + at, 'f', 5000); n += 5000; } break;
			case 5: { const char *w = " order=0x"; size_t wl = strlen(w);
				if (n + wl < 64 * 1024) {
					memmove(buf + at + wl, buf + at, n - at);
					memcpy(buf + at, w, wl); n += wl; } break; }
			}
		}
		struct parsed a = parse_str(buf, n);
		struct parsed b = parse_chunks(buf, n, 0, it + 1);
		CHECK(strcmp(a.summary, b.summary) == 0);
		CHECK_EQ(a.err, b.err);
		const struct blab_trace_stats *st = blab_trace_stats(a.t);
		CHECK_EQ(st->bytes, n);
		CHECK_EQ(st->comment_lines + st->skipped_lines + st->malformed_lines + st->events,
			 st->lines);
		CHECK(st->reasons <= BLAB_TRACE_REASONS && st->reasons <= st->malformed_lines);
		uint64_t sum = 0;
		for (unsigned k = 0; k < BLAB_TK_COUNT; k++)
			sum += st->kind[k];
		CHECK_EQ(sum, st->events);
		CHECK(a.err == 0 || a.err == BLAB_TRACE_EEMPTY || a.err == BLAB_TRACE_ENOEVENTS);
		size_t need = blab_trace_replay(a.t, NULL, 0);
		CHECK(need <= 2 * st->events + 1);
		CHECK(blab_trace_parse_buffer((const uint8_t *)buf, n) == a.err);
		done(&a);
		done(&b);
	}
#undef RND
	free(buf);
	free(text);
}

/* The input bound: 2^30 bytes of comment lines, fed in 64 KB chunks; the parse stops at the
 * byte past the bound and names the line it falls in. */
static void input_bound(void)
{
	static char chunk[65536];
	struct blab_trace *t = blab_trace_new(0);
	uint64_t fed = 0;
	int rc = 0;

	memset(chunk, ' ', sizeof(chunk));
	for (size_t i = 0; i < sizeof(chunk); i += 4096) { /* 16 lines "#   ...\n" a chunk */
		chunk[i] = '#';
		chunk[i + 4095] = '\n';
	}
	while (!rc && fed <= BLAB_TRACE_MAX_BYTES) {
		rc = blab_trace_feed(t, chunk, sizeof(chunk));
		fed += sizeof(chunk);
	}
	CHECK_EQ(rc, BLAB_TRACE_ELIMIT);
	CHECK_EQ(fed, BLAB_TRACE_MAX_BYTES + sizeof(chunk)); /* the first byte past it */
	CHECK_EQ(blab_trace_stats(t)->bytes, BLAB_TRACE_MAX_BYTES);
	CHECK_EQ(blab_trace_stats(t)->comment_lines, BLAB_TRACE_MAX_BYTES / 4096);
	CHECK(strcmp(blab_trace_error(t), "line 262145: the input passed 1073741824 bytes") == 0);
	CHECK_EQ(blab_trace_finish(t), BLAB_TRACE_ELIMIT);
	blab_trace_free(t);
}

int main(void)
{
	mutations();
	input_bound();
	doc_matches_header();
	bounds();
	reserve();
	fixture_counts("pf1.perf.txt", perf_grep, 2403, 0);
	fixture_counts("pf1.tracefs.txt", tracefs_grep, 2334, 12);
	empty_and_garbage();
	long_lines_and_nul();
	bad_fields();
	word_offsets();
	batches_and_unknown();
	replay_zone();
	api_misuse();
	return harness_report("test_trace");
}
