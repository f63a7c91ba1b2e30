/*
 * test_zoneinfo.c - /proc/zoneinfo into pcp sizes (src/trace/zoneinfo.c): this machine's
 * file (kernel 6.18, 2 CPUs) and an earlier snapshot of it, the same machine in the 5.x
 * layout, a 2.6 hot/cold layout; every formula against what those kernels printed; and the
 * refusals, each with its line and reason.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "blab_zoneinfo.h"

/* tests/zoneinfo/NAME, found from this file's path */
static char *fixture(const char *name, size_t *len)
{
	char path[1024];
	const char *slash = strrchr(__FILE__, '/');
	int dir = slash ? (int)(slash - __FILE__) : 1;
	FILE *f;
	long n;
	char *buf;

	snprintf(path, sizeof(path), "%.*s/zoneinfo/%s", dir, slash ? __FILE__ : ".", name);
	f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "cannot open %s\n", path);
		return NULL;
	}
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t)n + 1);
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

static struct blab_zoneinfo *parse_fixture(const char *name)
{
	size_t len;
	char err[200], *text = fixture(name, &len);
	struct blab_zoneinfo *zi = NULL;

	CHECK(text);
	if (!text)
		return NULL;
	if (blab_zoneinfo_parse(text, len, &zi, err, sizeof(err)))
		fprintf(stderr, "%s: %s\n", name, err);
	free(text);
	CHECK(zi);
	return zi;
}

/* zone `name` of zi: what v6.7 computes equals what the kernel printed, and those numbers */
static void check_zone(const struct blab_zoneinfo *zi, const char *name, uint64_t managed,
		       uint64_t low, uint32_t batch, uint32_t high_min, uint32_t high_max)
{
	int i = blab_zoneinfo_find(zi, 0, name);
	struct blab_strategy s;
	const struct blab_zoneinfo_zone *z;

	CHECK(i >= 0);
	if (i < 0)
		return;
	z = &zi->zone[i];
	CHECK_EQ(z->managed, managed);
	CHECK_EQ(z->wmark_low, low);
	CHECK_EQ(z->batch, batch);
	CHECK(!z->cpus_differ);
	if (z->has_high_min) {
		CHECK_EQ(z->high_min, high_min);
		CHECK_EQ(z->high_max, high_max);
	} else {
		CHECK_EQ(z->high, high_min); /* 5.14 .. 6.6: high is what 6.7 calls high_min */
	}
	CHECK_EQ(blab_preset("v6.7", &s), 0);
	CHECK_EQ(blab_zoneinfo_strategy(zi, (unsigned)i, 0, &s), 0);
	CHECK_EQ(s.batch, batch);
	CHECK_EQ(s.high, high_min);
	CHECK_EQ(s.high_max, high_max);
}

static void this_machine(void)
{
	struct blab_zoneinfo *zi = parse_fixture("this-machine-6.18.txt");
	char buf[1 << 15];
	struct blab_strategy s;
	int normal;

	if (!zi)
		return;
	CHECK_EQ(zi->nzones, 5);
	CHECK_EQ(zi->nodes, 1);
	CHECK_EQ(zi->cpus, 2);
	CHECK(zi->format_67);
	check_zone(zi, "DMA", 3840, 21, 1, 10, 240);
	check_zone(zi, "DMA32", 772915, 4305, 63, 2152, 48307);
	check_zone(zi, "Normal", 3014656, 16792, 63, 8396, 188416);
	normal = blab_zoneinfo_find(zi, -1, "Normal");
	CHECK(normal >= 0);
	CHECK_EQ(zi->zone[normal].ncpus, 2);
	CHECK(zi->zone[normal].has_start_pfn);
	CHECK_EQ(zi->zone[blab_zoneinfo_find(zi, 0, "Movable")].ncpus, 0); /* an empty zone */
	/* the report: every zone, 6.7 .. 6.19 among the matches, no mismatch */
	CHECK(blab_zoneinfo_report(zi, 0, 0, buf, sizeof(buf)) < sizeof(buf));
	CHECK(strstr(buf, "Node 0, zone Normal (line 145): managed 3014656, low watermark 16792"));
	CHECK(strstr(buf, "matches: v5.14 v5.17 v5.18-prefetch v5.18 v6.0 v6.7 v6.16 v6.19"));
	CHECK(!strstr(buf, "MISMATCH"));
	CHECK(blab_zoneinfo_report(zi, 0, 1, buf, sizeof(buf)) < sizeof(buf));
	CHECK(strstr(buf, "\"zone\":\"Normal\""));
	CHECK(strstr(buf, "\"v6.7\":{\"batch\":63,\"high\":8396,\"high_min\":8396,\"high_max\":188416,"
			  "\"differs\":[]}"));
	CHECK(strstr(buf, "\"v4.16\":{\"batch\":31,\"high\":186,\"differs\":[{\"field\":\"batch\","
			  "\"computed\":31,\"kernel\":63}"));
	/* four CPUs on the node: every high halves, batch stays */
	CHECK_EQ(blab_preset("v6.19", &s), 0);
	CHECK_EQ(blab_zoneinfo_strategy(zi, (unsigned)normal, 4, &s), 0);
	CHECK_EQ(s.batch, 63);
	CHECK_EQ(s.high, 4198);
	CHECK_EQ(s.high_max, 94208);
	blab_zoneinfo_report(zi, 4, 0, buf, sizeof(buf));
	CHECK(strstr(buf, "MISMATCH")); /* the kernel split over 2, not 4 */
	CHECK_EQ(blab_zoneinfo_strategy(zi, 99, 0, &s), BLAB_EINVAL);
	blab_zoneinfo_free(zi);

	/* an earlier snapshot of the same VM (before its memory grew) */
	zi = parse_fixture("24gb-6.18.txt");
	if (zi) {
		check_zone(zi, "DMA", 3840, 42, 1, 21, 240);
		check_zone(zi, "DMA32", 772918, 8785, 63, 4392, 48307);
		check_zone(zi, "Normal", 1081344, 12290, 63, 6145, 67584);
		blab_zoneinfo_free(zi);
	}
}

static void older_formats(void)
{
	struct blab_zoneinfo *zi = parse_fixture("this-machine-as-5.x.txt");
	char buf[1 << 15];

	if (zi) {
		CHECK(!zi->format_67);
		check_zone(zi, "Normal", 3014656, 16792, 63, 8396, 188416);
		blab_zoneinfo_report(zi, 0, 0, buf, sizeof(buf));
		CHECK(strstr(buf, "the format before 6.7"));
		blab_zoneinfo_free(zi);
	}
	/* 2.6: no managed line, a hot and a cold list per CPU (the hot one is read) */
	zi = parse_fixture("2.6-hotcold.txt");
	if (zi) {
		int n = blab_zoneinfo_find(zi, 0, "Normal");
		CHECK(n >= 0);
		CHECK(!zi->zone[n].has_managed);
		CHECK_EQ(zi->zone[n].managed, 512866);
		CHECK_EQ(zi->zone[n].batch, 31);
		CHECK_EQ(zi->zone[n].high, 186);
		CHECK_EQ(zi->zone[n].count, 74 + 140);
		blab_zoneinfo_report(zi, 0, 0, buf, sizeof(buf));
		CHECK(strstr(buf, "matches: v2.6.25 v4.16 v4.17-pick v4.17"));
		blab_zoneinfo_free(zi);
	}
}

/* the first len bytes of text must be refused with code and "line N: " + why */
static void refused_n(const char *text, size_t len, int code, unsigned line, const char *why)
{
	struct blab_zoneinfo *zi = (struct blab_zoneinfo *)1;
	char err[200], want[32];
	int r = blab_zoneinfo_parse(text, len, &zi, err, sizeof(err));

	CHECK_EQ(r, code);
	CHECK(zi == NULL);
	if (line) {
		snprintf(want, sizeof(want), "line %u: ", line);
		if (strncmp(err, want, strlen(want)) != 0)
			fprintf(stderr, "  got \"%s\", wanted %s\n", err, want);
		CHECK(strncmp(err, want, strlen(want)) == 0);
	}
	if (!strstr(err, why))
		fprintf(stderr, "  got \"%s\", wanted \"%s\"\n", err, why);
	CHECK(strstr(err, why) != NULL);
}

static void refused(const char *text, int code, unsigned line, const char *why)
{
	refused_n(text, strlen(text), code, line, why);
}

#define ZONE "Node 0, zone   Normal\n  pages free 10\n        min 5\n        low 8\n" \
	     "        high 11\n        present 1000\n        managed 990\n"
#define CPU0 "  pagesets\n    cpu: 0\n              count: 1\n              high:  6\n" \
	     "              batch: 1\n"

static void errors(void)
{
	struct blab_zoneinfo *zi;
	char err[200], *big;
	size_t len;

	refused("", BLAB_ESNAPSHOT, 0, "the file is empty");
	refused("Node 0, zone      DMA      1      1      1\n", BLAB_ESNAPSHOT, 1,
		"expected \"Node N, zone NAME\""); /* /proc/buddyinfo */
	refused("hello\n", BLAB_ESNAPSHOT, 1, "before the first \"Node N, zone NAME\"");
	/* "Node" alone, or with fewer words than a zone line has (a fuzzer's find: the words
	 * after it were read before they were counted) */
	refused("Node \n", BLAB_ESNAPSHOT, 1, "expected \"Node N, zone NAME\"");
	refused("Node 0,\n", BLAB_ESNAPSHOT, 1, "expected \"Node N, zone NAME\"");
	refused("\n\n  \n", BLAB_ESNAPSHOT, 0, "no \"Node N, zone NAME\" line");
	refused("Node x, zone DMA\n", BLAB_ESNAPSHOT, 1, "the node: expected a whole number");
	refused("Node 5000, zone DMA\n", BLAB_ELIMIT, 1, "nodes go up to 1023");
	refused("Node 0, zone AVeryLongZoneName\n", BLAB_ESNAPSHOT, 1, "is too long");
	/* a name is printed into the JSON report as it is: a quote would end its string */
	refused("Node 0, zone No\"rmal\n", BLAB_ESNAPSHOT, 1, "letters, digits and '_' only");
	/* what a message echoes is spelled out: an escape or a bidirectional override in the
	 * file reaches neither the terminal nor the page */
	refused(ZONE "        spanned \x1b[2J\n", BLAB_ESNAPSHOT, 8, "found \"\\x1b[2J\"");
	refused(ZONE "  \xe2\x80\xae what\n", BLAB_ESNAPSHOT, 8, "\"\\u{202E}");
	refused(ZONE "        low 9\n", BLAB_ESNAPSHOT, 8, "a second \"low\"");
	refused(ZONE "        spanned 99999999999999999999\n", BLAB_ELIMIT, 8, "larger than 2^52");
	refused(ZONE "        spanned -3\n", BLAB_ESNAPSHOT, 8, "expected a whole number");
	refused(ZONE "  what is this line\n", BLAB_ESNAPSHOT, 8, "not a /proc/zoneinfo line");
	refused(ZONE "    cpu: 0\n", BLAB_ESNAPSHOT, 8, "\"cpu: 0\" before \"pagesets\"");
	refused(ZONE "              count: 3\n", BLAB_ESNAPSHOT, 8, "outside a CPU's pageset");
	refused(ZONE CPU0 "    cpu: 0\n", BLAB_ESNAPSHOT, 13, "cpu 0's pageset a second time");
	refused(ZONE CPU0 "    cpu: 9999\n", BLAB_ELIMIT, 13, "CPUs go up to 4095");
	refused(ZONE CPU0 "              batch: 2\n", BLAB_ESNAPSHOT, 13, "a second \"batch:\"");
	/* truncated: a pageset without its batch, a zone without its watermarks */
	refused(ZONE "  pagesets\n    cpu: 0\n              count: 1\n              high:  6\n",
		BLAB_ESNAPSHOT, 9, "the pageset of cpu 0 ends without its batch");
	refused("Node 0, zone DMA\n  pages free 10\n", BLAB_ESNAPSHOT, 1,
		"zone DMA of node 0 ends without its low watermark");
	refused("Node 0, zone DMA\n        low 3\n", BLAB_ESNAPSHOT, 1,
		"ends without its present or managed pages");
	/* 6.7 fields on one CPU only */
	refused(ZONE CPU0 "              high_min: 4\n              high_max: 9\n"
		"    cpu: 1\n              count: 0\n              high:  6\n"
		"              batch: 1\n",
		BLAB_ESNAPSHOT, 15, "cpu 1's pageset lacks high_min and high_max");
	refused(ZONE "Node 0, zone   DMA\n", BLAB_ESNAPSHOT, 8, "zone DMA of node 0 ends without");
	refused(ZONE CPU0 ZONE, BLAB_ESNAPSHOT, 13, "node 0's zone Normal a second time");
	/* bounds: a NUL byte, a long line, too many zones, too many bytes */
	refused_n(ZONE "\0\n", strlen(ZONE) + 2, BLAB_ESNAPSHOT, 8, "a NUL byte");
	big = malloc(BLAB_ZONEINFO_MAX_BYTES + 2);
	CHECK(big);
	if (big) {
		memset(big, 'x', BLAB_ZONEINFO_MAX_LINE + 1);
		big[BLAB_ZONEINFO_MAX_LINE + 1] = 0;
		refused(big, BLAB_ELIMIT, 1, "longer than 4096 bytes");
		len = 0;
		for (unsigned i = 0; i <= BLAB_ZONEINFO_MAX_ZONES; i++)
			len += (size_t)sprintf(big + len, "Node %u, zone N\n low 1\n managed 1\n", i);
		refused(big, BLAB_ELIMIT, 3 * BLAB_ZONEINFO_MAX_ZONES + 1, "more than 256 zones");
		memset(big, ' ', BLAB_ZONEINFO_MAX_BYTES + 1);
		CHECK_EQ(blab_zoneinfo_parse(big, BLAB_ZONEINFO_MAX_BYTES + 1, &zi, err, sizeof(err)),
			 BLAB_ELIMIT);
		CHECK(strstr(err, "a zoneinfo is at most"));
		free(big);
	}
	CHECK_EQ(blab_zoneinfo_parse(NULL, 0, &zi, err, sizeof(err)), BLAB_EINVAL);
	/* a good small one, for contrast: statistics of every shape are skipped */
	{
		static const char good[] =
			ZONE "      nr_free_pages 10\n  vm stats threshold: 4\n"
			"        protection: (0, 1, 2, 3, 4, 5, 6, 7, 8, 9)\n" CPU0
			"  node_unreclaimable:  0\n  start_pfn:           4096\n";
		CHECK_EQ(blab_zoneinfo_parse(good, strlen(good), &zi, err, sizeof(err)), 0);
		if (zi) {
			CHECK_EQ(zi->zone[0].start_pfn, 4096);
			CHECK_EQ(zi->zone[0].ncpus, 1);
			CHECK_EQ(zi->zone[0].managed, 990);
			blab_zoneinfo_free(zi);
		}
	}
}

/* the file cut after every line: parsed, or refused at or before the cut with a reason */
static void truncations(void)
{
	size_t len, at = 0;
	char *text = fixture("this-machine-6.18.txt", &len);
	unsigned lines = 0, refusals = 0;

	if (!text)
		return;
	while (at < len) {
		struct blab_zoneinfo *zi = NULL;
		char err[200];
		unsigned where;
		int r;
		while (at < len && text[at] != '\n')
			at++;
		at++;
		lines++;
		r = blab_zoneinfo_parse(text, at < len ? at : len, &zi, err, sizeof(err));
		if (r) {
			CHECK_EQ(r, BLAB_ESNAPSHOT);
			CHECK(sscanf(err, "line %u:", &where) == 1 && where <= lines);
			refusals++;
		} else {
			CHECK(zi->nzones >= 1);
			blab_zoneinfo_free(zi);
		}
	}
	/* a cut inside a zone's watermarks or a pageset is refused; most cuts are */
	CHECK(refusals > lines / 2);
	free(text);
}

int main(void)
{
	this_machine();
	older_formats();
	errors();
	truncations();
	return harness_report("test_zoneinfo");
}
