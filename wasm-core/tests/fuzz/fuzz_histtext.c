/*
 * fuzz_histtext.c - libFuzzer target: the latency histogram reader (blab_histtext.h), BCC
 * funclatency and bpftrace hist() / lhist() text, as `blab import` and the browser drive it.
 *
 * The input is the text. Oracles, beyond ASan/UBSan/LSan:
 *   - a refusal is a known code, returns nothing, and says "line N: why" (N at most the
 *     text's lines) or a whole-text reason;
 *   - an accepted text has 1 .. BLAB_HISTTEXT_MAX_HISTS histograms of 1 .. 64 buckets, each
 *     bucket after the one before (lo = previous hi + 1), funclatency's and hist()'s powers
 *     of two, lhist()'s all its step wide, totals that add up;
 *   - the same text parsed again gives the same histograms; both printers give the length
 *     they said they need, and the JSON's brackets balance;
 *   - the sniff says "ours" for every accepted text.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "blab.h"
#include "blab_histtext.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(c)                                                                   \
	do {                                                                       \
		if (!(c)) {                                                        \
			fprintf(stderr, "fuzz_histtext: %s:%d: %s\n", __FILE__, __LINE__, #c); \
			abort();                                                   \
		}                                                                  \
	} while (0)

static void check_hist(const struct blab_histtext_hist *c)
{
	uint64_t total = 0;

	CHECK(c->nbuckets >= 1 && c->nbuckets <= BLAB_HISTTEXT_MAX_BUCKETS);
	CHECK(memchr(c->name, '\0', sizeof(c->name)) && memchr(c->unit, '\0', sizeof(c->unit)));
	for (uint32_t i = 0; i < c->nbuckets; i++) {
		const struct blab_histtext_bucket *b = &c->bucket[i];
		total += b->count;
		CHECK(b->lo <= b->hi);
		if (i)
			CHECK(b->lo == b[-1].hi + 1);
		if (c->kind == BLAB_HISTTEXT_FUNCLATENCY)
			CHECK(b->hi == UINT64_MAX || ((b->hi + 1) & b->hi) == 0);
		if (c->kind == BLAB_HISTTEXT_LHIST && !b->below && !b->above && b->lo != b->hi)
			CHECK(b->hi - b->lo + 1 == c->step);
	}
	CHECK(total == c->total);
}

static void check_print(const struct blab_histtext *h, int json)
{
	size_t need = json ? blab_histtext_json(h, NULL, 0) : blab_histtext_text(h, NULL, 0);
	char *buf = malloc(need + 1);
	long depth = 0;

	CHECK(buf);
	CHECK((json ? blab_histtext_json(h, buf, need + 1) : blab_histtext_text(h, buf, need + 1)) ==
	      need);
	CHECK(strlen(buf) == need);
	/* brackets balance outside strings (a name may hold any printable character) */
	for (size_t i = 0, in_str = 0; json && i < need; i++) {
		if (in_str) {
			if (buf[i] == '\\')
				i++; /* the escaped character, a quote perhaps */
			else
				in_str = buf[i] != '"';
			continue;
		}
		in_str = buf[i] == '"';
		depth += buf[i] == '{' || buf[i] == '[';
		depth -= buf[i] == '}' || buf[i] == ']';
		CHECK(depth >= 0);
	}
	CHECK(depth == 0);
	free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct blab_histtext *h = NULL, *again = NULL;
	char err[200];
	unsigned lines = 1;
	int r;

	for (size_t i = 0; i < size; i++)
		lines += data[i] == '\n';
	r = blab_histtext_parse((const char *)data, size, &h, err, sizeof(err));
	if (r) {
		unsigned n = 0;
		CHECK(r == BLAB_EINVAL || r == BLAB_ELIMIT || r == BLAB_ENOMEMHOST);
		CHECK(h == NULL);
		if (sscanf(err, "line %u:", &n) == 1)
			CHECK(n >= 1 && n <= lines);
		else
			CHECK(err[0]);
		return 0;
	}
	CHECK(h && h->nhists >= 1 && h->nhists <= BLAB_HISTTEXT_MAX_HISTS);
	for (uint32_t i = 0; i < h->nhists; i++)
		check_hist(&h->hist[i]);
	CHECK(blab_histtext_parse((const char *)data, size, &again, err, sizeof(err)) == 0);
	CHECK(!memcmp(h, again, sizeof(*h)));
	check_print(h, 0);
	check_print(h, 1);
	if (size <= 65536)
		CHECK(blab_histtext_sniff((const char *)data, size));
	blab_histtext_free(h);
	blab_histtext_free(again);
	return 0;
}
