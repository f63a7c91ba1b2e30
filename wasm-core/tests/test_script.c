/*
 * test_script.c - the op-script parser: good lines work, and random garbage never crashes
 * it (a small fuzz loop; run under ASan/UBSan by make test-asan). Also a resumable op with
 * a scribbled-on struct is refused, not followed.
 */
#include <stdio.h>
#include <stdlib.h>
#include "common.h"

static const char *const words[] = {
	"zone", "alloc", "free", "drain", "buddyinfo", "pcp", "zoneinfo", "check", "pages=",
	"order=", "pfn=", "cpu=", "cpus=", "preset=", "batch=", "high=", "mt=", "start_pfn=",
	"top_order=", "pageblock_order=", "pcp=", "bulk_free=", "merge_tail=", "all", "0x",
	"v4.17", "v2.5.45", "snapshot", "nr_free=", ",", ":", "0:3", "lifo", "hotcold", "none", "two_pass", "movable", "unmovable", "#",
	"=", " ", "\t", "-1", "99999999999999999999", "0", "1", "3", "7", "10", "cold=", "log=",
	"node", "zones=", "DMA", "DMA32", "Normal", "DMA,Normal", "layout", "free=", "alloc=",
	"0x8:3", "gfp=", "GFP_KERNEL", "GFP_DMA", "zone=", "zone_watermark_ok", "mark=", "low",
	"kmem_cache_create", "name=", "size=", "512", "kmalloc", "kfree", "addr=",
	"0xffff888000000000", "kmem_cache_alloc", "slabinfo",
};

static void fuzz(void)
{
	FILE *devnull = fopen("/dev/null", "w");
	struct blab_rng r;
	char line[BLAB_SCRIPT_MAX_LINE + 64];
	unsigned iters = getenv("BLAB_FUZZ_ITERS") ? (unsigned)atoi(getenv("BLAB_FUZZ_ITERS")) : 20000;
	blab_rng_seed(&r, 99);
	CHECK(devnull != NULL);
	for (unsigned script = 0; script < iters / 50; script++) {
		struct blab_script *s = blab_script_new(devnull, devnull);
		blab_script_line(s, "zone pages=300 start_pfn=5 cpus=3 batch=4 high=12", 1);
		for (unsigned i = 0; i < 50; i++) {
			size_t len = 0;
			unsigned nw = blab_rng_below(&r, 8);
			for (unsigned w = 0; w < nw; w++) {
				const char *t;
				char num[24];
				if (blab_rng_below(&r, 3) == 0) {
					snprintf(num, sizeof(num), "%u", blab_rng_below(&r, 400));
					t = num;
				} else if (blab_rng_below(&r, 20) == 0) {
					num[0] = (char)(1 + blab_rng_below(&r, 255));
					num[1] = 0;
					t = num;
				} else {
					t = words[blab_rng_below(&r, sizeof(words) / sizeof(words[0]))];
				}
				size_t tl = strlen(t);
				if (len + tl + 1 >= sizeof(line))
					break;
				memcpy(line + len, t, tl);
				len += tl;
				if (blab_rng_below(&r, 2))
					line[len++] = ' ';
			}
			line[len] = 0;
			blab_script_line(s, line, i + 2);
			if (blab_script_zone(s))
				CHECK(zone_ok(blab_script_zone(s)));
		}
		blab_script_free(s);
	}
	/* an over-long line is refused, not overrun */
	{
		struct blab_script *s = blab_script_new(devnull, devnull);
		memset(line, 'a', BLAB_SCRIPT_MAX_LINE + 10);
		line[BLAB_SCRIPT_MAX_LINE + 10] = 0;
		CHECK(blab_script_line(s, line, 1) != 0);
		CHECK(blab_script_line(s, "", 2) == 0);
		CHECK(blab_script_line(s, "   # only a comment", 3) == 0);
		CHECK(blab_script_line(s, "zone pages=10", 4) == 0);
		CHECK(blab_script_line(s, "drain cpu=all", 5) == 0);
		CHECK(blab_script_line(s, "alloc order=0 mt=reclaimable cold=1", 6) == 0);
		CHECK(blab_script_line(s, "alloc order=0 cold=2", 7) != 0);
		blab_script_free(s);
	}
	fclose(devnull);
}

static void scribbled_op(void)
{
	struct blab_zone *z = mkzone("v4.17", 128, 0, 2, 10, 9);
	struct blab_op op;
	CHECK(z);
	/* an op that was never started */
	blab_op_free(&op, 0, 5, 0, 0);
	op.state = 6; /* S_BULK_MERGE */
	CHECK_EQ(blab_op_step(z, &op), BLAB_EINVAL);
	/* a started op whose indices were overwritten */
	{
		uint64_t pfn[8];
		for (int i = 0; i < 8; i++)
			CHECK_EQ(blab_alloc(z, 0, 0, 1, &pfn[i]), 0);
		blab_op_drain(&op, 0);
		CHECK_EQ(blab_op_step(z, &op), BLAB_STEP_DONE); /* nothing to drain */
		CHECK_EQ(blab_op_step(z, &op), BLAB_EINVAL);    /* already done */
	}
	CHECK(zone_ok(z));
	blab_zone_destroy(z);
}

int main(void)
{
	fuzz();
	scribbled_op();
	return harness_report("test_script");
}
