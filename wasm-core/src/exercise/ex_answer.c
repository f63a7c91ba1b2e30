/*
 * ex_answer.c - a typed answer held to the core's: parsed by its question's form, so that
 * "0x1C", "28" and " 0x1c " are one pfn, and an answer that is not of the form at all is
 * told what the form is ("a buddyinfo line has 11 counts") rather than marked wrong.
 *
 * Input is bounded (BLAB_EXERCISE_ANSWER_MAX bytes) and read once, left to right; numbers
 * are bounded too. Fuzzed by tests/fuzz/fuzz_exercise_answer.c.
 */
#include <string.h>
#include "exercise.h"

#define MAX_ITEMS 64u           /* numbers in a list or a buddyinfo line */
#define MAX_VALUE (1ull << 40)  /* past any pfn, count or index a problem has */

const char *ex_form_name(unsigned form)
{
	static const char *const names[EX_FORMS] = {"number", "pfn", "buddyinfo", "yesno",
						    "choice", "list", "object"};
	return form < EX_FORMS ? names[form] : "?";
}

static int is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

static int lower(int c)
{
	return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

/* one number at *p (decimal, or hex after 0x; hex_ok: hex digits without 0x too is not
 * taken, so "10" is ten), *p moved past it; -1 when none is there or it is too large */
static int number(const char **p, uint64_t *out)
{
	const char *s = *p;
	uint64_t v = 0;
	unsigned base = 10, digits = 0;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	for (;; s++) {
		int c = lower((unsigned char)*s), d;
		if (c >= '0' && c <= '9')
			d = c - '0';
		else if (base == 16 && c >= 'a' && c <= 'f')
			d = c - 'a' + 10;
		else
			break;
		v = v * base + (uint64_t)d;
		if (v > MAX_VALUE)
			return -1;
		digits++;
	}
	if (!digits)
		return -1;
	*p = s;
	*out = v;
	return 0;
}

/* numbers separated by blanks, commas or semicolons, nothing else; "none", "-" or nothing is
 * the empty list. The count, or -1 */
static int numbers(const char *s, uint64_t *v, unsigned max)
{
	unsigned n = 0;

	while (is_blank(*s))
		s++;
	if (!*s || ((s[0] == '-' || !strncmp(s, "none", 4)) &&
		    !s[s[0] == '-' ? 1 : 4 + strspn(s + 4, " \t\r\n")]))
		return 0;
	for (;;) {
		while (is_blank(*s) || *s == ',' || *s == ';')
			s++;
		if (!*s)
			return (int)n;
		if (n == max || number(&s, &v[n]))
			return -1;
		n++;
		if (*s && !is_blank(*s) && *s != ',' && *s != ';')
			return -1;
	}
}

/* a buddyinfo line: its counts, after "Node 0, zone Normal" if that is there too */
static int buddyinfo(const char *s, uint64_t *v)
{
	const char *zone = strstr(s, "zone");
	if (zone && !strncmp(s + strspn(s, " \t"), "Node", 4)) {
		s = zone + 4;
		while (is_blank(*s))
			s++;
		while (*s && !is_blank(*s))
			s++; /* the zone's name */
	}
	return numbers(s, v, MAX_ITEMS);
}

/* yes or no (y, n, true, false), any case: 1, 0, or -1 */
static int yesno(const char *s)
{
	static const char *const yes[] = {"yes", "y", "true"}, *const no[] = {"no", "n", "false"};
	char w[8];
	size_t n;

	while (is_blank(*s))
		s++;
	n = strcspn(s, " \t\r\n");
	if (n == 0 || n >= sizeof(w) || s[n + strspn(s + n, " \t\r\n")])
		return -1;
	for (size_t i = 0; i < n; i++)
		w[i] = (char)lower((unsigned char)s[i]);
	w[n] = 0;
	for (unsigned i = 0; i < 3; i++) {
		if (!strcmp(w, yes[i]))
			return 1;
		if (!strcmp(w, no[i]))
			return 0;
	}
	return -1;
}

/* a choice by its letter (a), "a)" or its number (1): its index, or -1 */
static int choice(const char *s, unsigned nchoices)
{
	int c;
	while (is_blank(*s))
		s++;
	c = lower((unsigned char)*s);
	if (c >= 'a' && c < 'a' + (int)nchoices) {
		s++;
		if (*s == ')' || *s == '.')
			s++;
		while (is_blank(*s))
			s++;
		return *s ? -1 : c - 'a';
	}
	if (c >= '1' && c < '1' + (int)nchoices && (!s[1] || is_blank(s[1]))) {
		const char *t = s + 1;
		while (is_blank(*t))
			t++;
		return *t ? -1 : c - '1';
	}
	return -1;
}

/* a slab letter and an object index: "B3", "b 3", "B:3"; letter * 65536 + index, or -1 */
static int64_t object(const char *s)
{
	uint64_t idx;
	int c;
	while (is_blank(*s))
		s++;
	c = lower((unsigned char)*s);
	if (c < 'a' || c > 'z')
		return -1;
	s++;
	while (is_blank(*s) || *s == ':')
		s++;
	if (number(&s, &idx) || idx > 0xffff)
		return -1;
	while (is_blank(*s))
		s++;
	return *s ? -1 : (int64_t)(c - 'a') * 65536 + (int64_t)idx;
}

void ex_form_hint(const struct ex_question *q, char *out, size_t len)
{
	switch (q->form) {
	case EX_FORM_NUMBER:
		snprintf(out, len, "a whole number, e.g. 3");
		break;
	case EX_FORM_PFN:
		snprintf(out, len, "a pfn, in hex with 0x (0x1c) or decimal (28)");
		break;
	case EX_FORM_BUDDYINFO:
		snprintf(out, len, "a buddyinfo line has %u counts, order 0 first, e.g. 1 0 2 0 0 0 0 0 0 0 0",
			 q->width);
		break;
	case EX_FORM_YESNO:
		snprintf(out, len, "yes or no");
		break;
	case EX_FORM_CHOICE:
		snprintf(out, len, "one of the letters a to %c", 'a' + q->nchoices - 1);
		break;
	case EX_FORM_LIST:
		snprintf(out, len, "numbers in order, separated by commas or spaces (none for an empty list)");
		break;
	default:
		snprintf(out, len, "a slab's letter and an object's number, e.g. B3");
		break;
	}
}

/* the answer's value in the form's terms: n values in v (a list), or one */
static int parse(const struct ex_question *q, const char *s, uint64_t *v, int *n)
{
	int r;
	int64_t o;
	switch (q->form) {
	case EX_FORM_NUMBER:
	case EX_FORM_PFN:
		while (is_blank(*s))
			s++;
		if (number(&s, v))
			return -1;
		while (is_blank(*s))
			s++;
		*n = 1;
		return *s ? -1 : 0;
	case EX_FORM_BUDDYINFO:
		r = buddyinfo(s, v);
		if (r != q->width)
			return -1;
		*n = r;
		return 0;
	case EX_FORM_YESNO:
		r = yesno(s);
		*v = (uint64_t)r;
		*n = 1;
		return r < 0 ? -1 : 0;
	case EX_FORM_CHOICE:
		r = choice(s, q->nchoices);
		*v = (uint64_t)r;
		*n = 1;
		return r < 0 ? -1 : 0;
	case EX_FORM_LIST:
		r = numbers(s, v, MAX_ITEMS);
		*n = r;
		return r < 0 ? -1 : 0;
	case EX_FORM_OBJECT:
		o = object(s);
		*v = (uint64_t)o;
		*n = 1;
		return o < 0 ? -1 : 0;
	default:
		return -1;
	}
}

int ex_check(const struct ex_question *q, const char *typed, char *say, size_t saylen)
{
	uint64_t got[MAX_ITEMS], want[MAX_ITEMS];
	int ngot = 0, nwant = 0;
	char hint[160];

	if (say && saylen)
		say[0] = 0;
	ex_form_hint(q, hint, sizeof(hint));
	if (strlen(typed) > BLAB_EXERCISE_ANSWER_MAX || parse(q, typed, got, &ngot)) {
		if (say && saylen) {
			if (q->form == EX_FORM_BUDDYINFO && strlen(typed) <= BLAB_EXERCISE_ANSWER_MAX) {
				int n = buddyinfo(typed, got);
				if (n >= 0)
					snprintf(say, saylen, "%s; this one has %d", hint, n);
				else
					snprintf(say, saylen, "%s", hint);
			} else {
				snprintf(say, saylen, "%s", hint);
			}
		}
		return 2;
	}
	if (parse(q, ex_str(&q->answer), want, &nwant))
		return BLAB_ECHECK; /* the core's own answer must parse: a generator bug */
	if (ngot != nwant || memcmp(got, want, (size_t)ngot * sizeof(got[0])))
		return 1;
	return 0;
}
