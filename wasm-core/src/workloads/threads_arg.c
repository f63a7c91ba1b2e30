/*
 * threads_arg.c - the thread list of `blab run --threads`: "4", "1..4", "1,2,4", "1..2,8".
 * In the core rather than the CLI so the WASM API and the tests parse it the same way.
 */
#include <stdio.h>
#include <string.h>

#include "blab_real.h"

#define ERR(...)                                                                           \
	do {                                                                               \
		if (err && errlen)                                                         \
			snprintf(err, errlen, __VA_ARGS__);                                \
		return -1;                                                                 \
	} while (0)

/* a decimal number 1..max at *p; advances *p */
static int number(const char **p, unsigned max, unsigned *v, char *err, size_t errlen)
{
	unsigned long n = 0;
	const char *s = *p;

	if (*s < '0' || *s > '9')
		ERR("expected a number at '%.16s'", s);
	while (*s >= '0' && *s <= '9') {
		n = n * 10 + (unsigned long)(*s - '0');
		if (n > max)
			ERR("%lu... is over the limit of %u threads", n, max);
		s++;
	}
	if (n == 0)
		ERR("thread counts start at 1");
	*v = (unsigned)n;
	*p = s;
	return 0;
}

int blab_run_parse_threads(const char *s, unsigned max, unsigned *out, unsigned cap, char *err,
			   size_t errlen)
{
	unsigned n = 0, last = 0;

	if (err && errlen)
		err[0] = 0;
	if (!s || !out || !*s)
		ERR("empty thread list");
	if (strlen(s) > 256)
		ERR("thread list longer than 256 characters");
	while (*s) {
		unsigned a, b;
		if (number(&s, max, &a, err, errlen))
			return -1;
		b = a;
		if (s[0] == '.' && s[1] == '.') {
			s += 2;
			if (number(&s, max, &b, err, errlen))
				return -1;
			if (b < a)
				ERR("range %u..%u runs backwards", a, b);
		}
		if (*s && *s != ',')
			ERR("unexpected '%c' (use N, A..B or a comma-separated list)", *s);
		if (*s == ',' && !s[1])
			ERR("list ends with a comma");
		if (*s)
			s++;
		if (a <= last)
			ERR("thread counts must rise: %u after %u", a, last);
		for (unsigned t = a; t <= b; t++) {
			if (n == cap)
				ERR("more than %u thread counts", cap);
			out[n++] = t;
		}
		last = b;
	}
	return (int)n;
}
