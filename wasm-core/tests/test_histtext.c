/*
 * test_histtext.c - BCC funclatency and bpftrace hist() / lhist() text (blab_histtext.h):
 * each format read into its buckets, the function named against the model's series, and
 * every kind of bad input refused whole with its line and reason: buckets that are no powers
 * of two (funclatency, hist) or off the step (lhist), a count that is no number, a line over
 * 1 MiB, more than 64 buckets, a NUL byte, no histogram at all.
 */
#include <stdlib.h>
#include <string.h>

#include "blab.h"
#include "blab_histtext.h"
#include "blab_latency.h"
#include "harness.h"

static struct blab_histtext *ok(const char *text)
{
	struct blab_histtext *h = NULL;
	char err[300] = "";
	int r = blab_histtext_parse(text, strlen(text), &h, err, sizeof(err));

	CHECK_EQ(r, 0);
	if (r)
		fprintf(stderr, "refused: %s\n", err);
	return h;
}

static void bad(const char *text, int rc, const char *why)
{
	struct blab_histtext *h = (struct blab_histtext *)1;
	char err[300] = "";

	CHECK_EQ(blab_histtext_parse(text, strlen(text), &h, err, sizeof(err)), rc);
	CHECK(h == NULL);
	if (!strstr(err, why)) {
		fprintf(stderr, "want \"%s\", got \"%s\"\n", why, err);
		CHECK(0);
	}
}

#define BCC_HEAD "     nsecs               : count     distribution\n"

static void funclatency(void)
{
	struct blab_histtext *h =
		ok("Tracing 1 functions for \"rmqueue_bulk\"... Hit Ctrl-C to end.\n^C\n" BCC_HEAD
		   "         0 -> 1          : 0        |          |\r\n"
		   "         2 -> 3          : 5        |*****     |\r\n"
		   "         4 -> 7          : 10       |**********|\n"
		   "\navg = 4 nsecs, total: 60 nsecs, count: 15\n");

	if (!h)
		return;
	CHECK_EQ(h->nhists, 1);
	CHECK_EQ(h->hist[0].kind, BLAB_HISTTEXT_FUNCLATENCY);
	CHECK(!strcmp(h->hist[0].name, "rmqueue_bulk"));
	CHECK(!strcmp(h->hist[0].unit, "nsecs"));
	CHECK(!strcmp(h->hist[0].function, "rmqueue_bulk"));
	CHECK_EQ(h->hist[0].model_mask, BLAB_LAT_MASK(BLAB_LAT_RMQUEUE_BULK));
	CHECK_EQ(h->hist[0].line, 3);
	CHECK_EQ(h->hist[0].nbuckets, 3);
	CHECK(h->hist[0].bucket[2].lo == 4 && h->hist[0].bucket[2].hi == 7);
	CHECK_EQ(h->hist[0].total, 15);
	blab_histtext_free(h);
	/* BCC's wide columns (past slot 32) read the same */
	h = ok("               usecs                         : count     distribution\n"
	       "          4294967296 -> 8589934591           : 2        |****|\n");
	if (h)
		CHECK(h->hist[0].bucket[0].lo == 1ull << 32 && !strcmp(h->hist[0].unit, "usecs"));
	blab_histtext_free(h);
}

static void bpftrace(void)
{
	struct blab_histtext *h;

	/* [8, 1K) missing */
	bad("Attaching 2 probes...\n\n@ns:\n"
	    "[0]                    1 |@     |\n"
	    "[1]                    0 |      |\n"
	    "[2, 4)                 3 |@@@   |\n"
	    "[4, 8)                 6 |@@@@@@|\n"
	    "[1K, 2K)               0 |      |\n",
	    BLAB_EINVAL, "line 8: bucket [1024, ...) does not follow the one before, which ends at 7");
	h = ok("@ns:\n[0] 1 |@|\n[1] 0 ||\n[2, 4) 3 |@@@|\n[4, 8) 6 |@@@@@@|\n\n"
	       "@lat[free_pcppages_bulk]:\n(..., 0)  0 ||\n[0, 500)  4 |@@|\n[500, 1000)  9 |@@@@|\n"
	       "[1000, ...)  1 |@|\n");
	if (!h)
		return;
	CHECK_EQ(h->nhists, 2);
	CHECK_EQ(h->hist[0].kind, BLAB_HISTTEXT_HIST);
	CHECK(!strcmp(h->hist[0].unit, "nsecs"));
	CHECK(!strcmp(h->hist[0].name, "@ns"));
	CHECK_EQ(h->hist[0].model_mask, 0);
	CHECK_EQ(h->hist[1].kind, BLAB_HISTTEXT_LHIST);
	CHECK_EQ(h->hist[1].step, 500);
	CHECK_EQ(h->hist[1].nbuckets, 3); /* (..., 0) holds no latency: left out */
	CHECK(h->hist[1].bucket[2].above && h->hist[1].bucket[2].hi == UINT64_MAX);
	CHECK(!strcmp(h->hist[1].function, "free_pcppages_bulk"));
	CHECK(!strcmp(h->hist[1].unit, ""));
	blab_histtext_free(h);
	/* lhist(x, 100, 200, 50): values under its min go in (..., 100) */
	h = ok("@ns:\n(..., 100) 2 |@|\n[100, 150) 1 ||\n[150, 200) 0 ||\n[200, ...) 4 |@@|\n");
	if (h)
		CHECK(h->hist[0].kind == BLAB_HISTTEXT_LHIST && h->hist[0].step == 50 &&
		      h->hist[0].bucket[0].below && h->hist[0].bucket[0].hi == 99 &&
		      h->hist[0].total == 7);
	blab_histtext_free(h);
	bad("@ns:\n(..., 0) 3 |@|\n[0] 1 ||\n", BLAB_EINVAL, "line 2: (..., 0) counts values under 0");
	/* K, M suffixes are powers of 1024 */
	bad("@x_us:\n[512, 1K) 1 |@|\n[1K, 2K) 2 |@@|\n[1M, 2M) 0 ||\n", BLAB_EINVAL,
	    "line 4: bucket [1048576, ...) does not follow");
	h = ok("@x_us:\n[256K, 512K) 1 |@|\n[512K, 1M) 2 |@@|\n");
	if (h)
		CHECK(h->hist[0].bucket[1].hi == (1u << 20) - 1 && !strcmp(h->hist[0].unit, "usecs"));
	blab_histtext_free(h);
}

static void refusals(void)
{
	char *big;

	/* funclatency: not a power-of-two bucket, a missing one, a count that is no number */
	bad(BCC_HEAD "  0 -> 1 : 0 ||\n  2 -> 3 : 1 ||\n  4 -> 6 : 1 ||\n", BLAB_EINVAL,
	    "line 4: bucket 4 -> 6 is no power-of-two bucket");
	bad(BCC_HEAD "  4 -> 7 : 1 ||\n 16 -> 31 : 1 ||\n", BLAB_EINVAL,
	    "line 3: bucket 16 -> 31 does not follow 4 -> 7");
	bad(BCC_HEAD "  4 -> 7 : abc ||\n", BLAB_EINVAL, "line 2: count 'abc' is not a number");
	bad(BCC_HEAD "  4 -> 7 : -3 ||\n", BLAB_EINVAL, "count '-3' is not a number");
	bad("     kbytes : count     distribution\n 0 -> 1 : 1 ||\n", BLAB_EINVAL,
	    "line 1: a histogram of 'kbytes'");
	/* bpftrace: hist() off its powers of two, lhist() off its step, a bad count */
	bad("@ns:\n[0] 1 ||\n[1] 1 ||\n[2, 4) 1 ||\n[4, 12) 1 ||\n", BLAB_EINVAL,
	    "line 5: bucket [4, 12) is no power-of-two bucket of hist()");
	bad("@ns:\n[0, 10) 1 ||\n[10, 20) 1 ||\n[20, 35) 1 ||\n", BLAB_EINVAL,
	    "line 4: bucket [20, 35) is 15 wide; this lhist()'s step is 10");
	bad("@ns:\n[0, 10) 1 ||\n[10, 20) x1 ||\n", BLAB_EINVAL, "line 3: count 'x1' is not a number");
	bad("@ns:\n[0, 10) 1 ||\n[12, 22) 1 ||\n", BLAB_EINVAL, "line 3: bucket [12, ...) does not follow");
	bad("@ns:\n[-10, 0) 1 ||\n", BLAB_EINVAL, "line 2: a negative bound");
	bad("@ns:\n[0, 10) 1 ||\n[10, ...) 1 ||\n[20, 30) 1 ||\n", BLAB_EINVAL,
	    "must be the last bucket");
	/* all or nothing: a good histogram before a bad one is not returned */
	bad(BCC_HEAD "  0 -> 1 : 5 ||\n\n" BCC_HEAD "  0 -> 1 : 5 ||\n  2 -> 4 : 1 ||\n",
	    BLAB_EINVAL, "line 6:");
	bad("nothing here\n", BLAB_EINVAL, "no histogram found");
	bad("", BLAB_EINVAL, "no histogram found");
	/* more than 64 buckets */
	big = malloc(70 * 40 + 16);
	if (big) {
		size_t at = (size_t)sprintf(big, "@ns:\n");
		for (unsigned i = 0; i < 65; i++)
			at += (size_t)sprintf(big + at, "[%u, %u) 1 |@|\n", i * 10, i * 10 + 10);
		bad(big, BLAB_ELIMIT, "line 66: more than 64 buckets");
		free(big);
	}
	/* a line over 1 MiB */
	big = malloc(BLAB_HISTTEXT_MAX_LINE + 64);
	if (big) {
		strcpy(big, BCC_HEAD);
		memset(big + strlen(BCC_HEAD), 'x', BLAB_HISTTEXT_MAX_LINE + 1);
		big[strlen(BCC_HEAD) + BLAB_HISTTEXT_MAX_LINE + 1] = '\0';
		bad(big, BLAB_ELIMIT, "line 2: longer than 1048576 bytes");
		free(big);
	}
	{
		static const char nul[] = BCC_HEAD "  0 -> 1 : 5 |\0|\n";
		struct blab_histtext *h = NULL;
		char err[200];
		CHECK_EQ(blab_histtext_parse(nul, sizeof(nul) - 1, &h, err, sizeof(err)), BLAB_EINVAL);
		CHECK(strstr(err, "line 2: a NUL byte") != NULL);
	}
	{
		struct blab_histtext *h = NULL;
		CHECK_EQ(blab_histtext_parse(NULL, 5, &h, NULL, 0), BLAB_EINVAL);
		CHECK_EQ(blab_histtext_parse("x", 1, NULL, NULL, 0), BLAB_EINVAL);
		CHECK_EQ(blab_histtext_parse("x", BLAB_HISTTEXT_MAX_INPUT + 1ul, &h, NULL, 0),
			 BLAB_ELIMIT);
	}
}

/* every prefix of a good text is a good text or a clean refusal */
static void prefixes(void)
{
	const char *text = "Tracing rmqueue_bulk... Hit Ctrl-C to end.\n" BCC_HEAD
			   "         0 -> 1          : 0        |   |\n"
			   "         2 -> 3          : 5        |** |\n\n@x:\n[0] 1 |@|\n[1] 2 |@@|\n";
	size_t n = strlen(text);

	for (size_t k = 0; k <= n; k++) {
		struct blab_histtext *h = NULL;
		char err[200];
		int r = blab_histtext_parse(text, k, &h, err, sizeof(err));
		CHECK(r == 0 || (r == BLAB_EINVAL && h == NULL));
		if (!r)
			CHECK(!strcmp(h->hist[0].name, "rmqueue_bulk"));
		blab_histtext_free(h);
	}
}

static void model_names(void)
{
	const char *fn;

	CHECK_EQ(blab_latency_mask_for_function("rmqueue_bulk", &fn),
		 BLAB_LAT_MASK(BLAB_LAT_RMQUEUE_BULK));
	CHECK(!strcmp(fn, "rmqueue_bulk"));
	CHECK_EQ(blab_latency_mask_for_function("@free_unref_page_commit_ns", &fn),
		 BLAB_LAT_MASK(BLAB_LAT_FREE_PCP) | BLAB_LAT_MASK(BLAB_LAT_FREE_DRAIN));
	CHECK_EQ(blab_latency_mask_for_function("__alloc_pages_nodemask", NULL), BLAB_LAT_MASK_ALLOC);
	CHECK_EQ(blab_latency_mask_for_function("do_sys_open", &fn), 0);
	CHECK(fn == NULL);
	CHECK_EQ(blab_latency_mask_for_function(NULL, NULL), 0);
}

static void sniff(void)
{
	const char *kmem = "pf1 10769 [000] 3764.262443: kmem:mm_page_alloc: page=0x1 pfn=0x1 "
			   "order=0 migratetype=1 gfp_flags=GFP_USER\n";

	CHECK_EQ(blab_histtext_sniff(kmem, strlen(kmem)), 0);
	CHECK_EQ(blab_histtext_sniff(BCC_HEAD " 0 -> 1 : 1 ||\n", strlen(BCC_HEAD) + 15), 1);
	/* refused, but a histogram: the kmem parser is no better choice */
	CHECK_EQ(blab_histtext_sniff(BCC_HEAD " 0 -> 3 : 1 ||\n", strlen(BCC_HEAD) + 15), 1);
	CHECK_EQ(blab_histtext_sniff(NULL, 3), 0);
	/* refused for no histogram's reason (NUL bytes, a long line): not ours, the kmem parser
	 * says why */
	{
		static char zeros[70000];
		CHECK_EQ(blab_histtext_sniff(zeros, sizeof(zeros)), 0);
		memset(zeros, 'x', sizeof(zeros));
		CHECK_EQ(blab_histtext_sniff(zeros, sizeof(zeros)), 0);
	}
}

int main(void)
{
	funclatency();
	bpftrace();
	refusals();
	prefixes();
	model_names();
	sniff();
	return harness_report("test_histtext");
}
