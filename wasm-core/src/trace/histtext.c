/*
 * histtext.c - BCC funclatency and bpftrace hist() / lhist() text into buckets
 * (include/blab_histtext.h, docs/import.md "Latency histograms").
 *
 * Line by line, every line bounded. Outside a histogram a line is a header (funclatency's
 * "nsecs : count distribution", a bpftrace map's "@name:"), a name for the next histogram
 * (funclatency's "Tracing ... for "f"..." and "Function = f [pid]"), or anything else,
 * skipped (bpftrace's "Attaching 2 probes...", "^C", "avg = ..."). Inside one, a line that
 * looks like a bucket must be one, in its place: funclatency's buckets are bpf_log2l()'s
 * (2^(k-1) -> 2^k - 1, one after the other), hist()'s are [2^k, 2^(k+1)) after [0] and [1],
 * lhist()'s all one step wide from the first; anything else there ends the histogram.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blab.h"
#include "blab_histtext.h"
#include "blab_latency.h"

struct span {
	const char *p;
	size_t n;
};

struct parse {
	struct blab_histtext *h;
	struct blab_histtext_hist *cur; /* the histogram being read, NULL between them */
	uint32_t line;
	char fn[BLAB_HISTTEXT_NAME];    /* funclatency's function for its next histogram */
	char *err;
	size_t errlen;
	int rc;
	int tried; /* a funclatency header or a bucket line was met: the text is meant as ours */
};

static int fail(struct parse *ps, int rc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(struct parse *ps, int rc, const char *fmt, ...)
{
	va_list ap;
	int k = 0;

	if (ps->err && ps->errlen) {
		k = ps->line ? snprintf(ps->err, ps->errlen, "line %u: ", ps->line) : 0;
		if (k < 0 || (size_t)k >= ps->errlen)
			k = 0;
		va_start(ap, fmt);
		vsnprintf(ps->err + k, ps->errlen - (size_t)k, fmt, ap);
		va_end(ap);
	}
	ps->rc = rc;
	return rc;
}

/* ---- spans ---- */

static void trim(struct span *s)
{
	while (s->n && (*s->p == ' ' || *s->p == '\t'))
		s->p++, s->n--;
	while (s->n && (s->p[s->n - 1] == ' ' || s->p[s->n - 1] == '\t'))
		s->n--;
}

static int starts(const struct span *s, const char *lit)
{
	size_t k = strlen(lit);
	return s->n >= k && !memcmp(s->p, lit, k);
}

/* *s begins with lit: move past it */
static int eat(struct span *s, const char *lit)
{
	size_t k = strlen(lit);
	if (!starts(s, lit))
		return 0;
	s->p += k;
	s->n -= k;
	return 1;
}

static void skip_spaces(struct span *s)
{
	while (s->n && (*s->p == ' ' || *s->p == '\t'))
		s->p++, s->n--;
}

/* the word up to a space or one of stop: at most 40 characters shown in messages */
static struct span word(struct span *s, const char *stop)
{
	struct span w = {s->p, 0};
	while (w.n < s->n && s->p[w.n] != ' ' && s->p[w.n] != '\t' && !strchr(stop, s->p[w.n]))
		w.n++;
	s->p += w.n;
	s->n -= w.n;
	return w;
}

/*
 * A decimal number, with bpftrace's K, M, G, T, P, E (powers of 1024) when suffixes are
 * allowed: 1 with *v, 0 when w is not one (or is past 2^64 - 1).
 */
static int number(struct span w, int suffixes, uint64_t *v)
{
	static const char sfx[] = "KMGTPE";
	uint64_t x = 0;
	size_t i = 0;

	if (!w.n || w.n > 24)
		return 0;
	for (; i < w.n && w.p[i] >= '0' && w.p[i] <= '9'; i++) {
		unsigned d = (unsigned)(w.p[i] - '0');
		if (x > (UINT64_MAX - d) / 10)
			return 0;
		x = x * 10 + d;
	}
	if (!i)
		return 0;
	if (i < w.n) {
		const char *q = suffixes && w.n - i == 1 ? strchr(sfx, w.p[i]) : NULL;
		unsigned shift;
		if (!q || !w.p[i])
			return 0;
		shift = 10u * (unsigned)(q - sfx + 1);
		if (x > UINT64_MAX >> shift)
			return 0;
		x <<= shift;
	}
	*v = x;
	return 1;
}

static void copy_name(char *dst, struct span s)
{
	size_t k = s.n < BLAB_HISTTEXT_NAME - 1 ? s.n : BLAB_HISTTEXT_NAME - 1;
	for (size_t i = 0; i < k; i++)
		dst[i] = (s.p[i] >= 0x20 && s.p[i] < 0x7f) ? s.p[i] : '?';
	dst[k] = '\0';
}

/* ---- a histogram ---- */

static int add_bucket(struct parse *ps, uint64_t lo, uint64_t hi, uint64_t count, int below,
		      int above)
{
	struct blab_histtext_hist *c = ps->cur;
	struct blab_histtext_bucket *b;

	if (c->nbuckets >= BLAB_HISTTEXT_MAX_BUCKETS)
		return fail(ps, BLAB_ELIMIT, "more than %u buckets in one histogram",
			    BLAB_HISTTEXT_MAX_BUCKETS);
	if (c->total > UINT64_MAX - count)
		return fail(ps, BLAB_EINVAL, "the counts add up past 2^64");
	b = &c->bucket[c->nbuckets++];
	b->lo = lo;
	b->hi = hi;
	b->count = count;
	b->below = (uint8_t)below;
	b->above = (uint8_t)above;
	c->total += count;
	return 0;
}

static int begin(struct parse *ps, unsigned kind, struct span name, const char *unit)
{
	struct blab_histtext_hist *c;

	if (ps->h->nhists >= BLAB_HISTTEXT_MAX_HISTS)
		return fail(ps, BLAB_ELIMIT, "more than %u histograms", BLAB_HISTTEXT_MAX_HISTS);
	c = ps->cur = &ps->h->hist[ps->h->nhists];
	memset(c, 0, sizeof(*c));
	c->kind = (uint8_t)kind;
	c->line = ps->line;
	copy_name(c->name, name);
	snprintf(c->unit, sizeof(c->unit), "%s", unit);
	return 0;
}

/* "nsecs : count distribution": 1 when it is (a funclatency histogram begins) */
static int bcc_header(struct parse *ps, struct span s)
{
	struct span unit = word(&s, ":");
	static const char *const units[] = {"nsecs", "usecs", "msecs"};
	char u[16];

	skip_spaces(&s);
	if (!unit.n || !eat(&s, ":"))
		return 0;
	skip_spaces(&s);
	if (!eat(&s, "count"))
		return 0;
	skip_spaces(&s);
	if (!eat(&s, "distribution") || s.n)
		return 0;
	copy_name(u, (struct span){unit.p, unit.n < 15 ? unit.n : 15});
	ps->tried = 1;
	for (unsigned i = 0; i < 3; i++)
		if (unit.n == 5 && !memcmp(unit.p, units[i], 5)) {
			if (begin(ps, BLAB_HISTTEXT_FUNCLATENCY,
				  (struct span){ps->fn, strlen(ps->fn)}, units[i]))
				return -1;
			return 1;
		}
	fail(ps, BLAB_EINVAL, "a histogram of '%s': a latency histogram counts nsecs, usecs or "
			      "msecs",
	     u);
	return -1;
}

/* funclatency's "low -> high : count |***|": checked against bpf_log2l()'s buckets */
static int bcc_bucket(struct parse *ps, struct span s)
{
	struct span a = word(&s, ""), b, c;
	uint64_t lo, hi, count;
	unsigned k;

	skip_spaces(&s);
	eat(&s, "->");
	skip_spaces(&s);
	b = word(&s, ":");
	skip_spaces(&s);
	if (!eat(&s, ":"))
		return fail(ps, BLAB_EINVAL, "a bucket without ': count'");
	skip_spaces(&s);
	c = word(&s, "|");
	if (!number(a, 0, &lo) || !number(b, 0, &hi))
		return fail(ps, BLAB_EINVAL, "bucket '%.*s -> %.*s': its bounds are no numbers",
			    (int)(a.n < 24 ? a.n : 24), a.p, (int)(b.n < 24 ? b.n : 24), b.p);
	if (!number(c, 0, &count))
		return fail(ps, BLAB_EINVAL, "count '%.*s' is not a number", (int)(c.n < 24 ? c.n : 24),
			    c.p);
	/* slot k holds 2^(k-1) .. 2^k - 1, slot 1 holds 0 and 1 */
	k = hi == UINT64_MAX ? 64 : (hi + 1) && !((hi + 1) & hi) ? (unsigned)__builtin_ctzll(hi + 1) : 0;
	if (!k || lo != (k == 1 ? 0 : UINT64_C(1) << (k - 1)))
		return fail(ps, BLAB_EINVAL, "bucket %llu -> %llu is no power-of-two bucket "
					     "(funclatency's run 2^(k-1) -> 2^k - 1)",
			    (unsigned long long)lo, (unsigned long long)hi);
	if (ps->cur->nbuckets) {
		const struct blab_histtext_bucket *p = &ps->cur->bucket[ps->cur->nbuckets - 1];
		if (p->hi == UINT64_MAX || lo != p->hi + 1)
			return fail(ps, BLAB_EINVAL, "bucket %llu -> %llu does not follow %llu -> %llu",
				    (unsigned long long)lo, (unsigned long long)hi,
				    (unsigned long long)p->lo, (unsigned long long)p->hi);
	}
	return add_bucket(ps, lo, hi, count, 0, 0);
}

/* bpftrace's "[a, b)  count |@@|", "[n]", "(..., b)", "[a, ...)" */
static int bpf_bucket(struct parse *ps, struct span s)
{
	struct span a, b, c;
	uint64_t lo = 0, hi = 0, count;
	int below = eat(&s, "(..., "), single = 0, above = 0;

	if (!below && !eat(&s, "["))
		return fail(ps, BLAB_EINVAL, "a bucket must start with [ or (");
	if (!below) {
		a = word(&s, ",]");
		if (starts(&s, "-") || (a.n && a.p[0] == '-'))
			return fail(ps, BLAB_EINVAL, "a negative bound: latencies are not negative");
		if (!number(a, 1, &lo))
			return fail(ps, BLAB_EINVAL, "bucket bound '%.*s' is not a number",
				    (int)(a.n < 24 ? a.n : 24), a.p);
		single = eat(&s, "]");
		if (!single && !eat(&s, ", "))
			return fail(ps, BLAB_EINVAL, "expected ', ' or ']' after the bucket's start");
		above = !single && eat(&s, "...)");
	}
	if (!single && !above) {
		b = word(&s, ")");
		if (b.n && b.p[0] == '-')
			return fail(ps, BLAB_EINVAL, "a negative bound: latencies are not negative");
		if (!number(b, 1, &hi) || !eat(&s, ")"))
			return fail(ps, BLAB_EINVAL, "bucket end '%.*s' is not a number and ')'",
				    (int)(b.n < 24 ? b.n : 24), b.p);
		if (below && !hi) {
			/* bpftrace's (..., 0): values under 0, which no latency has */
			skip_spaces(&s);
			c = word(&s, "|");
			if (!number(c, 0, &count) || count)
				return fail(ps, BLAB_EINVAL, "(..., 0) counts values under 0: latencies "
							     "are not negative");
			return 0;
		}
		if (!below && hi <= lo)
			return fail(ps, BLAB_EINVAL, "bucket [%llu, %llu) is empty",
				    (unsigned long long)lo, (unsigned long long)hi);
		hi--; /* [a, b) holds a .. b - 1 */
	}
	if (single)
		hi = lo;
	if (above)
		hi = UINT64_MAX;
	skip_spaces(&s);
	c = word(&s, "|");
	if (!number(c, 0, &count))
		return fail(ps, BLAB_EINVAL, "count '%.*s' is not a number", (int)(c.n < 24 ? c.n : 24),
			    c.p);
	return add_bucket(ps, lo, hi, count, below, above);
}

/* 1 when bucket i of c is the power-of-two bucket [2^k, 2^(k+1)) */
static int pow2_bucket(const struct blab_histtext_bucket *b)
{
	return !b->below && !b->above && b->lo && !(b->lo & (b->lo - 1)) && b->hi == 2 * b->lo - 1;
}

/* bpftrace: hist() or lhist(), told by the buckets, and each where it must be */
static int bpf_check(struct parse *ps, struct blab_histtext_hist *c)
{
	uint32_t first = 0, singles = 0;
	int hist;

	for (uint32_t i = 0; i < c->nbuckets; i++)
		singles += !c->bucket[i].below && !c->bucket[i].above && c->bucket[i].lo == c->bucket[i].hi;
	while (first < c->nbuckets && (c->bucket[first].below || c->bucket[first].lo == c->bucket[first].hi))
		first++;
	/* [0] and [1] are hist()'s; so are power-of-two buckets that double */
	hist = singles || (first < c->nbuckets && pow2_bucket(&c->bucket[first]) &&
			   (first + 1 >= c->nbuckets || pow2_bucket(&c->bucket[first + 1])));
	c->kind = hist ? BLAB_HISTTEXT_HIST : BLAB_HISTTEXT_LHIST;
	if (!hist && first < c->nbuckets)
		c->step = c->bucket[first].hi - c->bucket[first].lo + 1;
	for (uint32_t i = 0; i < c->nbuckets; i++) {
		const struct blab_histtext_bucket *b = &c->bucket[i], *p = i ? b - 1 : NULL;
		ps->line = c->line + 1 + i;
		if (b->below && i)
			return fail(ps, BLAB_EINVAL, "(..., %llu) must be the first bucket",
				    (unsigned long long)b->hi + 1);
		if (b->above && i + 1 < c->nbuckets)
			return fail(ps, BLAB_EINVAL, "[%llu, ...) must be the last bucket",
				    (unsigned long long)b->lo);
		if (p && (p->hi == UINT64_MAX || b->lo != p->hi + 1) && !b->below)
			return fail(ps, BLAB_EINVAL, "bucket [%llu, ...) does not follow the one before, "
						     "which ends at %llu",
				    (unsigned long long)b->lo, (unsigned long long)p->hi);
		if (b->below || b->above || b->lo == b->hi)
			continue;
		if (hist && !pow2_bucket(b))
			return fail(ps, BLAB_EINVAL, "bucket [%llu, %llu) is no power-of-two bucket of "
						     "hist()",
				    (unsigned long long)b->lo, (unsigned long long)b->hi + 1);
		if (!hist && b->hi - b->lo + 1 != c->step)
			return fail(ps, BLAB_EINVAL, "bucket [%llu, %llu) is %llu wide; this lhist()'s "
						     "step is %llu (its first bucket)",
				    (unsigned long long)b->lo, (unsigned long long)b->hi + 1,
				    (unsigned long long)(b->hi - b->lo + 1), (unsigned long long)c->step);
	}
	if (hist && singles > 2)
		return fail(ps, BLAB_EINVAL, "hist() has single-value buckets [0] and [1] only");
	return 0;
}

/* bpftrace's map names say no unit; a name that ends in one (@ns, @lat_us) does */
static void unit_from_name(struct blab_histtext_hist *c)
{
	static const char *const ends[][2] = {{"nsecs", "nsecs"}, {"ns", "nsecs"}, {"usecs", "usecs"},
					      {"us", "usecs"}, {"msecs", "msecs"}, {"ms", "msecs"}};
	size_t n = strlen(c->name);

	for (unsigned i = 0; i < 6; i++) {
		size_t k = strlen(ends[i][0]);
		if (n >= k && !strcmp(c->name + n - k, ends[i][0]) &&
		    (n == k || !((c->name[n - k - 1] >= 'a' && c->name[n - k - 1] <= 'z'))))
			snprintf(c->unit, sizeof(c->unit), "%s", ends[i][1]);
	}
}

/* the histogram under way is complete: check it, name its function */
static int end(struct parse *ps)
{
	struct blab_histtext_hist *c = ps->cur;
	uint32_t line = ps->line;
	const char *fn = NULL;

	if (!c)
		return 0;
	ps->cur = NULL;
	if (!c->nbuckets)
		return 0; /* a map header with no buckets: not a histogram */
	if (c->kind != BLAB_HISTTEXT_FUNCLATENCY) {
		if (bpf_check(ps, c))
			return ps->rc;
		unit_from_name(c);
	}
	ps->line = line;
	c->model_mask = blab_latency_mask_for_function(c->name, &fn);
	snprintf(c->function, sizeof(c->function), "%s", fn ? fn : "");
	ps->h->nhists++;
	return 0;
}

/* outside a histogram: a header, a name for the next one, or nothing of ours */
static int outside(struct parse *ps, struct span s)
{
	int r;

	if (s.n && s.p[0] == '@' && s.p[s.n - 1] == ':') {
		s.n--;
		return begin(ps, BLAB_HISTTEXT_HIST, s, "");
	}
	if (eat(&s, "Function = ")) {
		copy_name(ps->fn, word(&s, ""));
		return 0;
	}
	if (starts(&s, "Tracing ")) {
		/* "Tracing 1 functions for "f"... Hit Ctrl-C to end." or "Tracing f... Hit ..." */
		const char *q = memchr(s.p, '"', s.n), *e;
		size_t dots = 8;
		if (q && (e = memchr(q + 1, '"', s.n - (size_t)(q + 1 - s.p)))) {
			copy_name(ps->fn, (struct span){q + 1, (size_t)(e - q - 1)});
			return 0;
		}
		while (dots + 3 <= s.n && memcmp(s.p + dots, "...", 3))
			dots++;
		if (dots + 3 <= s.n)
			copy_name(ps->fn, (struct span){s.p + 8, dots - 8});
		return 0;
	}
	r = bcc_header(ps, s);
	return r < 0 ? ps->rc : 0;
}

static int one_line(struct parse *ps, struct span s)
{
	trim(&s);
	if (ps->cur && ps->cur->kind == BLAB_HISTTEXT_FUNCLATENCY) {
		struct span t = s;
		struct span a = word(&t, "");
		uint64_t dummy;
		skip_spaces(&t);
		if (a.n && number(a, 0, &dummy) && starts(&t, "->")) {
			ps->tried = 1;
			return bcc_bucket(ps, s);
		}
	} else if (ps->cur && s.n && (s.p[0] == '[' || s.p[0] == '(')) {
		ps->tried = 1;
		return bpf_bucket(ps, s);
	}
	if (ps->cur && end(ps))
		return ps->rc;
	return outside(ps, s);
}

/* the parse; *tried: it met a histogram's header or bucket (for the sniff) */
static int parse_text(const char *text, size_t len, struct blab_histtext **out, char *err,
		      size_t errlen, int *tried)
{
	struct parse ps = {.err = err, .errlen = errlen};
	size_t pos = 0;

	if (err && errlen)
		err[0] = '\0';
	if (!out)
		return BLAB_EINVAL;
	*out = NULL;
	if (!text && len)
		return fail(&ps, BLAB_EINVAL, "no text");
	if (len > BLAB_HISTTEXT_MAX_INPUT)
		return fail(&ps, BLAB_ELIMIT, "the text is %zu bytes; the limit is %u", len,
			    BLAB_HISTTEXT_MAX_INPUT);
	if (!(ps.h = calloc(1, sizeof(*ps.h))))
		return fail(&ps, BLAB_ENOMEMHOST, "out of memory");
	while (pos < len && !ps.rc) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t n = (nl ? (size_t)(nl - text) : len) - pos;
		struct span s = {text + pos, n};
		ps.line++;
		if (n && s.p[n - 1] == '\r')
			s.n--;
		if (s.n > BLAB_HISTTEXT_MAX_LINE)
			fail(&ps, BLAB_ELIMIT, "longer than %u bytes", BLAB_HISTTEXT_MAX_LINE);
		else if (memchr(s.p, '\0', s.n))
			fail(&ps, BLAB_EINVAL, "a NUL byte: this is not text");
		else
			one_line(&ps, s);
		pos += n + 1;
	}
	ps.h->lines = ps.line;
	if (!ps.rc)
		end(&ps);
	if (!ps.rc && !ps.h->nhists) {
		ps.line = 0;
		fail(&ps, BLAB_EINVAL, "no histogram found: expected the text of BCC funclatency "
				       "('nsecs : count distribution' and 'low -> high : count' lines) "
				       "or of bpftrace's hist() / lhist() ('@name:' and '[lo, hi) count' "
				       "lines)");
	}
	*tried = ps.tried;
	if (ps.rc) {
		free(ps.h);
		return ps.rc;
	}
	*out = ps.h;
	return 0;
}

int blab_histtext_parse(const char *text, size_t len, struct blab_histtext **out, char *err,
			size_t errlen)
{
	int tried = 0;
	return parse_text(text, len, out, err, errlen, &tried);
}

void blab_histtext_free(struct blab_histtext *h)
{
	free(h);
}

int blab_histtext_sniff(const char *text, size_t len)
{
	struct blab_histtext *h = NULL;
	int r, tried = 0;

	/* the parser's own judgement, on a bounded prefix cut at a line end: a prefix with a
	 * header and one good bucket is enough, and a bad bucket still means "ours" */
	if (!text)
		return 0;
	if (len > 65536) {
		const char *nl = NULL;
		for (size_t i = 65536; i-- > 0;)
			if (text[i] == '\n') {
				nl = text + i;
				break;
			}
		len = nl ? (size_t)(nl - text) : 65536;
	}
	r = parse_text(text, len, &h, NULL, 0, &tried);
	blab_histtext_free(h);
	/* refused, but over a histogram's header or bucket: it was meant as one */
	return !r || (r != BLAB_ENOMEMHOST && tried);
}
