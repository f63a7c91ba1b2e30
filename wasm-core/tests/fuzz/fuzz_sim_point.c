/*
 * fuzz_sim_point.c - libFuzzer target: the point key and the point record (src/workloads/
 * sim_point.c), what `blab sim --points FILE` lines, `--cache DIR` files and `blab merge`
 * shards go through.
 *
 * The input is a key, a newline, then a record. Oracle, beyond ASan/UBSan (each text is an
 * exact-size heap copy, so a read past its end is caught):
 *   - a key of BLAB_SIM_POINT_KEY_MAX characters or more is refused, saying so; any refusal
 *     says why;
 *   - a key that parses re-serialises (blab_sim_point_key) to a key that fits and parses to
 *     the same point, and that key is its own re-serialisation (one spelling per point);
 *   - blab_sim_point_record_ok() accepts the record exactly when this file's own reading does:
 *     the key, then every counter of BLAB_JS_SIM_STATS in order, each an int64 as "%lld"
 *     prints it, then "}}\n" and nothing more (so an accepted record has every counter, and
 *     nothing a JSON reader would refuse or round);
 *   - a record blab_sim_point_record() writes, with counters taken from the input, is
 *     accepted for its key, and refused cut short or for another key.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blab_js.h"
#include "blab_sim.h"
#include "fuzz_bytes.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* a key line and a record: a record of 45 counters is under 1.5 KB */
#define INPUT_MAX 4096u

static const char *const names[] = {
#define BLAB_X(js, expr) #js,
	BLAB_JS_SIM_STATS(BLAB_X)
#undef BLAB_X
};
#define NSTATS (sizeof(names) / sizeof(names[0]))

/* an exact-size heap copy: ASan stops a read one byte past it */
static char *copy(const uint8_t *p, size_t n, int nul)
{
	size_t m = n + (nul ? 1 : 0);
	char *s = malloc(m ? m : 1);
	if (!s)
		abort();
	memcpy(s, p, n);
	if (nul)
		s[n] = '\0';
	return s;
}

/*
 * The record as this target reads it, independently of sim_point.c: read each counter with
 * strtoll, print the whole record again as blab_sim_point_record() would, and compare bytes.
 */
static int record_as_written(const char *rec, size_t len, const char *key)
{
	char *t, *want, *p;
	size_t at = 0, cap;
	int ok = 0;

	if (memchr(rec, '\0', len))
		return 0;
	t = copy((const uint8_t *)rec, len, 1);
	cap = len + 64;
	want = malloc(cap);
	if (!want)
		abort();
	p = t;
	at = (size_t)snprintf(want, cap, "{\"key\":\"%s\",\"stats\":{", key);
	if (at >= cap || strncmp(p, want, at))
		goto out;
	p += at;
	for (size_t i = 0; i < NSTATS; i++) {
		char head[48], *end;
		long long v;
		int k = snprintf(head, sizeof(head), "%s\"%s\":", i ? "," : "", names[i]);
		if (strncmp(p, head, (size_t)k))
			goto out;
		p += k;
		errno = 0;
		v = strtoll(p, &end, 10);
		if (end == p || errno)
			goto out;
		p = end;
		k = snprintf(want + at, cap - at, "%s%lld", head, v);
		if (k < 0 || (size_t)k >= cap - at)
			goto out;
		at += (size_t)k;
	}
	if (strcmp(p, "}}\n"))
		goto out;
	if (at + 3 >= cap)
		goto out;
	memcpy(want + at, "}}\n", 4);
	at += 3;
	ok = at == len && !memcmp(want, rec, len);
out:
	free(want);
	free(t);
	return ok;
}

static void check_key(const char *key, struct blab_sim_point *p, int *parsed)
{
	struct blab_sim_point q;
	char err[200] = "", again[BLAB_SIM_POINT_KEY_MAX + 8], third[BLAB_SIM_POINT_KEY_MAX + 8];
	int n;

	*parsed = !blab_sim_point_parse(key, p, err, sizeof(err));
	if (strlen(key) >= BLAB_SIM_POINT_KEY_MAX && (*parsed || !strstr(err, "longer than")))
		abort(); /* past the bound: refused, saying so, before anything else */
	if (!*parsed) {
		if (!err[0])
			abort(); /* a refusal says why */
		return;
	}
	n = blab_sim_point_key(p, again, sizeof(again));
	if (n < 0 || (size_t)n >= BLAB_SIM_POINT_KEY_MAX)
		abort(); /* its own key would not fit a key's bound */
	if (blab_sim_point_parse(again, &q, err, sizeof(err)) || memcmp(&q, p, sizeof(q)))
		abort(); /* the re-serialised key names another point */
	if (blab_sim_point_key(&q, third, sizeof(third)) != n || strcmp(third, again))
		abort(); /* two spellings of one point */
}

/* counters taken from the input, 8 bytes each, into every field the record prints */
static void fill_result(struct blab_sim_result *r, struct bytes *b)
{
	memset(r, 0, sizeof(*r));
#define BLAB_X(js, expr)                                                        \
	do {                                                                    \
		uint64_t v = (uint64_t)take(b, 4) << 32 | take(b, 4);           \
		expr = (__typeof__(expr))v;                                     \
	} while (0);
	BLAB_JS_SIM_STATS(BLAB_X)
#undef BLAB_X
}

static void check_written(const char *key, const uint8_t *data, size_t size)
{
	struct blab_sim_result res;
	struct bytes b = {data, size};
	char *rec, other[BLAB_SIM_POINT_KEY_MAX + 2];
	int len;

	fill_result(&res, &b);
	len = blab_sim_point_record(NULL, 0, key, &res);
	if (len <= 0)
		abort();
	rec = malloc((size_t)len + 1);
	if (!rec || blab_sim_point_record(rec, (size_t)len + 1, key, &res) != len)
		abort();
	if (!blab_sim_point_record_ok(rec, (size_t)len, key) ||
	    !record_as_written(rec, (size_t)len, key))
		abort(); /* what it writes, it must accept */
	if (blab_sim_point_record_ok(rec, (size_t)len - 1, key))
		abort(); /* cut short by one byte */
	snprintf(other, sizeof(other), "%sx", key);
	if (blab_sim_point_record_ok(rec, (size_t)len, other))
		abort(); /* another point's record */
	free(rec);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* a canonical key of the longest workload: stands in for a key that did not parse */
	static const char fallback[] = "workload=page_fault1 preset=v4.16 cpus=1 pages=1 iterations=1 "
				       "seed=1 batch=0 high=0 clear_lines=64 cache_scale=1";
	struct blab_sim_point p;
	char canon[BLAB_SIM_POINT_KEY_MAX + 8];
	const uint8_t *nl;
	size_t klen;
	char *key, *rec;
	int parsed, ok, mine;

	if (size > INPUT_MAX)
		return 0;
	nl = memchr(data, '\n', size);
	klen = nl ? (size_t)(nl - data) : size;
	key = copy(data, klen, 1);
	check_key(key, &p, &parsed);
	if (parsed)
		blab_sim_point_key(&p, canon, sizeof(canon));
	else
		memcpy(canon, fallback, sizeof(fallback));

	/* the rest as a record of the key as written, and of its canonical spelling */
	size_t rlen = nl ? size - klen - 1 : 0;
	rec = copy(nl ? nl + 1 : data, rlen, 0);
	ok = blab_sim_point_record_ok(rec, rlen, key);
	mine = record_as_written(rec, rlen, key);
	if (ok != mine)
		abort();
	if (blab_sim_point_record_ok(rec, rlen, canon) != record_as_written(rec, rlen, canon))
		abort();
	check_written(canon, nl ? nl + 1 : data, rlen);
	free(rec);
	free(key);
	return 0;
}
