/*
 * test_modern_pcp.c - the pcp lists of 5.14 .. 6.19 (docs/modern-pcp.md): the size formulas
 * of every era against worked numbers, and each preset's refill and drain sizes on small
 * scenarios: 5.14's growing drains, 6.0's pcp->lock trylock and remote drain, 6.7's
 * refills of 63 .. 2016 and its decay, 6.16's free_high threshold, 6.19's chunks.
 */
#include <stdlib.h>

#include "common.h"
#include "blab_hist.h"
#include "blab_model.h"
#include "blab_sim.h"
#include "machine/model/model.h"

/* ---- sizes ---- */

static void sizes_of(const char *preset, uint64_t managed, uint64_t low, unsigned cpus,
		     struct blab_pcp_sizes *out)
{
	struct blab_strategy s;
	CHECK_EQ(blab_preset(preset, &s), 0);
	CHECK_EQ(blab_pcp_sizes(&s, managed, low, cpus, out), 0);
}

/* one zone of a /proc/zoneinfo: managed, low -> batch, high_min, high_max on 2 CPUs */
static void check_67(uint64_t managed, uint64_t low, uint32_t batch, uint32_t high_min,
		     uint32_t high_max)
{
	struct blab_pcp_sizes sz;
	sizes_of("v6.7", managed, low, 2, &sz);
	CHECK_EQ(sz.batch, batch);
	CHECK_EQ(sz.high_min, high_min);
	CHECK_EQ(sz.high, high_min);
	CHECK_EQ(sz.high_max, high_max);
	/* 5.14 .. 6.6 print the same number as their one high; there is no high_max */
	sizes_of("v5.14", managed, low, 2, &sz);
	CHECK_EQ(sz.batch, batch);
	CHECK_EQ(sz.high, high_min);
	CHECK_EQ(sz.high_max, 0);
}

static void formulas(void)
{
	struct blab_pcp_sizes sz;
	struct blab_strategy s;

	/* KERNEL-NOTES "Modern pcp": a 2-CPU, 24 GB machine, one node */
	check_67(720896, 10165, 63, 5082, 45056);
	check_67(772915, 10898, 63, 5449, 48307);
	check_67(3840, 53, 1, 26, 240);
	/* this project's machine (kernel 6.18, 2 CPUs), two snapshots of its /proc/zoneinfo */
	check_67(851968, 11047, 63, 5523, 53248);
	check_67(772915, 10022, 63, 5011, 48307);
	check_67(3840, 48, 1, 24, 240);
	check_67(3014656, 16792, 63, 8396, 188416);
	check_67(772915, 4305, 63, 2152, 48307);
	check_67(3840, 21, 1, 10, 240);
	/* batch reaches its 63 at 176 K managed pages (688 MB); below it, smaller */
	CHECK_EQ(blab_zone_batchsize(176128, 2), 63);
	CHECK_EQ(blab_zone_batchsize(176127, 2), 31);
	/* the old eras on the 24 GB machine's Normal zone */
	sizes_of("v4.16", 720896, 10165, 2, &sz); /* 512 KB cap, 6 * batch */
	CHECK_EQ(sz.batch, 31);
	CHECK_EQ(sz.high, 186);
	sizes_of("v2.5.45", 720896, 10165, 2, &sz); /* 256 KB / 4, hot high 6 * batch */
	CHECK_EQ(sz.batch, 16);
	CHECK_EQ(sz.high, 96);
	sizes_of("v2.5.44", 720896, 10165, 2, &sz);
	CHECK_EQ(sz.batch, 0);
	CHECK_EQ(sz.high, 0);
	/* a tiny zone: batch 1, and 4 * batch is the floor */
	sizes_of("v6.19", 1000, 3, 1, &sz);
	CHECK_EQ(sz.batch, 1);
	CHECK_EQ(sz.high_min, 4);
	CHECK_EQ(sz.high_max, 125);
	/* given values win; errors */
	CHECK_EQ(blab_preset("v6.7", &s), 0);
	s.batch = 31;
	s.high_max = 999;
	CHECK_EQ(blab_pcp_sizes(&s, 720896, 10165, 2, &sz), 0);
	CHECK_EQ(sz.batch, 31);
	CHECK_EQ(sz.high_min, 5082);
	CHECK_EQ(sz.high_max, 5082); /* never below high_min */
	CHECK_EQ(blab_pcp_sizes(NULL, 1, 1, 1, &sz), BLAB_EINVAL);
	s.high_mode = 9;
	CHECK_EQ(blab_pcp_sizes(&s, 1, 1, 1, &sz), BLAB_ESTRATEGY);
}

/* ---- scenarios on the plain machine ---- */

static struct blab_zone *zone_of(const char *preset, uint32_t pages, unsigned cpus)
{
	struct blab_zone_config cfg;
	struct blab_zone *z = NULL;

	blab_zone_config_init(&cfg);
	CHECK_EQ(blab_preset(preset, &cfg.strategy), 0);
	cfg.pages = pages;
	cfg.cpus = (uint16_t)cpus;
	cfg.log_capacity = 1u << 22;
	cfg.log_mask = BLAB_EVC_EXPLAIN | BLAB_EVC_LOCK | BLAB_EVC_STATE;
	CHECK_EQ(blab_zone_create(&cfg, &z), 0);
	return z;
}

/* the sizes of the refills (RMQUEUE_BULK end: pages got) and drains (PCP_DRAIN end: pages
 * asked) logged since record `from`, and the zone->lock acquisitions inside drains */
struct sizes {
	uint32_t refill[128], nrefill;
	uint32_t drain[256], ndrain;
	uint32_t drain_path[256];
	uint32_t drain_locks[256]; /* zone->lock acquisitions from the drain's start to its end */
};

static void scan(const struct blab_zone *z, uint32_t from, struct sizes *sz)
{
	uint32_t n, locks = 0, path = 0;
	const struct blab_event *ev = blab_log(z, &n);

	memset(sz, 0, sizeof(*sz));
	for (uint32_t i = from; i < n; i++) {
		const struct blab_event *e = &ev[i];
		if (e->type == BLAB_EV_RMQUEUE_BULK && (e->flags & BLAB_EVF_END) && sz->nrefill < 128)
			sz->refill[sz->nrefill++] = e->arg1;
		if (e->type == BLAB_EV_PCP_DRAIN && !(e->flags & BLAB_EVF_END)) {
			locks = 0;
			path = e->path;
		}
		if (e->type == BLAB_EV_LOCK_ACQUIRE && e->mt == BLAB_LOCK_ZONE)
			locks++;
		if (e->type == BLAB_EV_PCP_DRAIN && (e->flags & BLAB_EVF_END) && sz->ndrain < 256) {
			sz->drain_path[sz->ndrain] = path;
			sz->drain_locks[sz->ndrain] = locks;
			sz->drain[sz->ndrain++] = e->arg0;
		}
	}
}

static uint32_t log_len(const struct blab_zone *z)
{
	uint32_t n;
	blab_log(z, &n);
	return n;
}

static void alloc_n(struct blab_zone *z, unsigned cpu, unsigned order, uint64_t *pfn, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		CHECK_EQ(blab_alloc(z, cpu, order, BLAB_MT_MOVABLE, &pfn[i]), 0);
}

static void free_n(struct blab_zone *z, unsigned cpu, unsigned order, const uint64_t *pfn,
		   uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		CHECK_EQ(blab_free(z, cpu, pfn[i], order), 0);
}

/* 6.7: an empty list refills 63, 126, 252, 504, 1008, 2016, then 2016 again; high grows by
 * each; a free halves alloc_factor, so the next refill is smaller */
static void refills_climb(void)
{
	static const uint32_t want[] = {63, 126, 252, 504, 1008, 2016, 2016};
	static uint64_t pfn[6000];
	struct blab_zone *z = zone_of("v6.7", 262144, 2);
	struct blab_pcp_info pi;
	struct sizes sz;
	uint32_t high0;

	CHECK_EQ(blab_pcp_info(z, 0, 0, &pi), 0);
	high0 = pi.high;
	CHECK_EQ(pi.high_min, high0);
	CHECK_EQ(pi.high_max, 262144 / 8 / 2);
	alloc_n(z, 0, 0, pfn, 4200);
	scan(z, 0, &sz);
	CHECK_EQ(sz.nrefill, 7);
	for (unsigned i = 0; i < 7; i++)
		CHECK_EQ(sz.refill[i], want[i]);
	CHECK_EQ(blab_pcp_info(z, 0, 0, &pi), 0);
	CHECK_EQ(pi.high, high0 + 63 + 126 + 252 + 504 + 1008 + 2016 + 2016);
	CHECK_EQ(pi.alloc_factor, 5);
	CHECK_EQ(pi.count, 63 + 126 + 252 + 504 + 1008 + 2016 + 2016 - 4200);
	/* four frees: alloc_factor 5 -> 2, the next refills 252, 504, ... */
	free_n(z, 0, 0, pfn, 4);
	CHECK_EQ(blab_pcp_info(z, 0, 0, &pi), 0);
	CHECK_EQ(pi.alloc_factor, 0);
	CHECK_EQ(pi.free_count, 4);
	CHECK(zone_ok(z));
	blab_zone_destroy(z);

	/* 5.14 .. 6.6: every refill is batch */
	z = zone_of("v6.0", 262144, 2);
	alloc_n(z, 0, 0, pfn, 600);
	scan(z, 0, &sz);
	CHECK_EQ(sz.nrefill, 10);
	for (unsigned i = 0; i < sz.nrefill; i++)
		CHECK_EQ(sz.refill[i], 63);
	blab_zone_destroy(z);
}

/* 5.14 (3b12e7e97938): frees that keep reaching high drain 63, 126, 252, 504, then
 * high - batch */
static void drains_grow(void)
{
	static uint64_t pfn[3000];
	struct blab_zone *z = zone_of("v5.14", 262144, 2);
	struct blab_pcp_info pi;
	struct sizes sz;
	uint32_t high;

	CHECK_EQ(blab_pcp_info(z, 0, 0, &pi), 0);
	high = pi.high;
	alloc_n(z, 0, 0, pfn, 3000);
	free_n(z, 0, 0, pfn, 3000);
	scan(z, 0, &sz);
	CHECK(sz.ndrain >= 6);
	CHECK_EQ(sz.drain[0], 63);
	CHECK_EQ(sz.drain[1], 126);
	CHECK_EQ(sz.drain[2], 252);
	CHECK_EQ(sz.drain[3], 504 < high - 63 ? 504 : high - 63);
	CHECK_EQ(sz.drain[4], high - 63);
	CHECK_EQ(sz.drain[5], high - 63);
	CHECK(zone_ok(z));
	blab_zone_destroy(z);

	/* 6.7's and 6.19's drains: preset_sizes() below, on a smaller zone */
}

/* sizes as "63 126 189x30": each run of equal sizes once, with its length */
static const char *runs(const uint32_t *v, uint32_t n, char *buf, size_t len)
{
	size_t at = 0;

	buf[0] = 0;
	for (uint32_t i = 0, j; i < n && at < len; i = j) {
		for (j = i; j < n && v[j] == v[i]; j++)
			;
		at += (size_t)snprintf(buf + at, len - at, j - i > 1 ? "%s%u x%u" : "%s%u",
				       i ? " " : "", v[i], j - i);
	}
	return buf;
}

#define CHECK_RUNS(v, n, want)                                                             \
	do {                                                                               \
		char _b[1024];                                                             \
		if (strcmp(runs(v, n, _b, sizeof(_b)), want) != 0) {                       \
			fprintf(stderr, "  %s: got \"%s\", want \"%s\"\n", preset, _b, want);  \
			CHECK(!#v);                                                        \
		}                                                                          \
	} while (0)

/*
 * Every modern preset on the same two small scenarios, one CPU of two, a 64 MB zone with the
 * big zones' batch (63) and a high_max of 4096 given (the formulas are formulas()'s; this is
 * what the lists do with the sizes): (a) 6000 order-0 allocations, then 6000 frees; (b) 150
 * order-1 allocations, then 150 frees. The refill and drain sizes each preset must give:
 *   5.14, 6.0  refills of batch; drains of batch << free_factor up to high - batch (189)
 *   6.7+       refills climb 63 .. 2016 (alloc_factor); high grows to high_max, so the frees
 *              drain only free_count = 2016 (batch << 5) at a time
 *   6.19       the same sizes, each drain 32 zone->lock holds of 63
 *   order 1    5.14: one drain at high; 6.0: 5.18's free_high empties the list on each free
 *              while free_factor is up; 6.7: free_high once free_count >= 63; 6.16, 6.19:
 *              once free_count >= 63 + high_min / 2 = 189
 */
static void preset_sizes(void)
{
	static const struct {
		const char *preset, *refills, *drains, *drains_order1;
		uint32_t holds; /* zone->lock holds per order-0 drain */
	} want[] = {
		{"v5.14", "63 x96", "63 126 189 x30", "63", 1},
		{"v6.0", "63 x96", "63 126 189 x30", "63 190 2 x28", 1},
		{"v6.7", "63 126 252 504 1008 2016 x3", "2016 x2", "76 2 x117", 1},
		{"v6.16", "63 126 252 504 1008 2016 x3", "2016 x2", "202 2 x54", 1},
		{"v6.19", "63 126 252 504 1008 2016 x3", "2016 x2", "202 2 x54", 32},
	};
	static uint64_t pfn[6000];

	for (unsigned k = 0; k < sizeof(want) / sizeof(want[0]); k++) {
		const char *preset = want[k].preset;
		struct blab_zone_config cfg;
		struct blab_zone *z = NULL;
		struct sizes sz;

		for (unsigned order = 0; order < 2; order++) {
			uint32_t n = order ? 150 : 6000;
			blab_zone_config_init(&cfg);
			CHECK_EQ(blab_preset(preset, &cfg.strategy), 0);
			cfg.strategy.batch = 63;
			if (cfg.strategy.high_mode == BLAB_HIGH_AUTO)
				cfg.strategy.high_max = 4096;
			cfg.pages = 16384;
			cfg.cpus = 2;
			cfg.log_capacity = 1u << 20;
			cfg.log_mask = BLAB_EVC_EXPLAIN | BLAB_EVC_LOCK | BLAB_EVC_STATE;
			CHECK_EQ(blab_zone_create(&cfg, &z), 0);
			alloc_n(z, 0, order, pfn, n);
			free_n(z, 0, order, pfn, n);
			scan(z, 0, &sz);
			if (order) {
				CHECK_RUNS(sz.drain, sz.ndrain, want[k].drains_order1);
			} else {
				CHECK_RUNS(sz.refill, sz.nrefill, want[k].refills);
				CHECK_RUNS(sz.drain, sz.ndrain, want[k].drains);
				for (uint32_t i = 0; i < sz.ndrain; i++)
					CHECK_EQ(sz.drain_locks[i], want[k].holds);
			}
			CHECK(zone_ok(z));
			blab_zone_destroy(z);
		}
	}
}

/* decay_pcp_high(): high comes down by an eighth (never more than leaves 2016 above count,
 * never under high_min) and the list drains to it: sizes that are no multiple of batch */
static void decay(void)
{
	static uint64_t pfn[4200];
	struct blab_zone *z = zone_of("v6.7", 262144, 2);
	struct blab_pcp_info pi;
	struct sizes sz;
	uint32_t mark, count, high, want;

	alloc_n(z, 0, 0, pfn, 4200);
	free_n(z, 0, 0, pfn, 4200);
	CHECK_EQ(blab_pcp_info(z, 0, 0, &pi), 0);
	count = pi.count;
	high = pi.high;
	CHECK_EQ(count, 5985); /* 4200 freed + 1785 left of the refills */
	CHECK_EQ(high, 6628);
	mark = log_len(z);
	CHECK_EQ(blab_decay(z, 0), 0);
	want = high - high / 8; /* 5800: above count - 2016 and high_min */
	CHECK_EQ(blab_pcp_info(z, 0, 0, &pi), 0);
	CHECK_EQ(pi.high, want);
	CHECK_EQ(pi.count, want);
	scan(z, mark, &sz);
	CHECK_EQ(sz.ndrain, 1);
	CHECK_EQ(sz.drain[0], count - want); /* 185 */
	CHECK_EQ(sz.drain_path[0], BLAB_PATH_DECAY);
	CHECK(sz.drain[0] % 63 != 0);
	/* decay after decay walks high down to high_min, never below */
	for (int i = 0; i < 40; i++)
		CHECK_EQ(blab_decay(z, 0), 0);
	CHECK_EQ(blab_pcp_info(z, 0, 0, &pi), 0);
	CHECK_EQ(pi.high, pi.high_min);
	CHECK_EQ(pi.count, pi.high_min);
	/* the other cpu's list and other presets: nothing to do */
	CHECK_EQ(blab_decay(z, 1), 0);
	CHECK(zone_ok(z));
	blab_zone_destroy(z);
	z = zone_of("v5.18", 65536, 1);
	mark = log_len(z);
	CHECK_EQ(blab_decay(z, 0), 0);
	CHECK_EQ(log_len(z), mark);
	blab_zone_destroy(z);
}

/*
 * 6.7's ZONE_BELOW_HIGH is a flag, not a comparison: the allocation that finds the zone at or
 * under its high watermark sets it (get_page_from_freelist()), and only a free whose drain
 * leaves the zone above the watermark clears it (free_unref_page_commit()). Meanwhile refills
 * leave pcp->high alone and frees shrink it. A drain_pages() that lifts the zone does not
 * clear it, nor does the refill that takes it under: the next allocation sets it.
 */
static void below_high_sticky(void)
{
	static uint64_t pfn[16384];
	struct blab_zone_config cfg;
	struct blab_zone *z = NULL;
	struct blab_zone_info zi;
	struct blab_pcp_info pi;
	uint32_t n = 0, high_n, wmark, high;
	int crossed = 0;

	blab_zone_config_init(&cfg);
	CHECK_EQ(blab_preset("v6.7", &cfg.strategy), 0);
	cfg.pages = 16384; /* small: the debug builds check the zone after every op */
	cfg.cpus = 2;
	cfg.strategy.watermarks = 1;
	CHECK_EQ(blab_zone_create(&cfg, &z), 0);
	CHECK_EQ(blab_zone_info(z, &zi), 0);
	wmark = zi.wmark_high;
	CHECK(wmark > 0 && wmark < zi.free_pages);
	CHECK_EQ(zi.below_high, 0);
	/* allocate until the flag is set: by the first allocation that starts at or under the
	 * watermark, never by the refill that took the zone there */
	while (n < 16384) {
		uint32_t before;
		CHECK_EQ(blab_zone_info(z, &zi), 0);
		before = zi.free_pages;
		if (blab_alloc(z, 0, 0, BLAB_MT_MOVABLE, &pfn[n]))
			break;
		n++;
		CHECK_EQ(blab_zone_info(z, &zi), 0);
		if (zi.free_pages <= wmark && before > wmark) {
			CHECK_EQ(zi.below_high, 0); /* this allocation's refill crossed: not yet */
			crossed = 1;
		}
		if (zi.below_high) {
			CHECK(before <= wmark);
			break;
		}
	}
	CHECK(crossed);
	CHECK_EQ(zi.below_high, 1);
	/* docs/modern-pcp.md's numbers: watermark 384, refills of 96 (batch 3 << 5) */
	CHECK_EQ(wmark, 384);
	CHECK_EQ(zi.free_pages, 355);
	/* drain_pages() gives the list back and lifts the zone: the flag stays */
	CHECK_EQ(blab_drain(z, 0), 0);
	CHECK_EQ(blab_zone_info(z, &zi), 0);
	CHECK_EQ(zi.free_pages, 449);
	CHECK_EQ(zi.below_high, 1);
	/* a refill while it is set leaves high where it was (clear, high grows by the refill) */
	CHECK_EQ(blab_pcp_info(z, 0, 0, &pi), 0);
	high = pi.high;
	CHECK_EQ(pi.count, 0);
	CHECK_EQ(blab_alloc(z, 0, 0, BLAB_MT_MOVABLE, &pfn[n++]), 0);
	CHECK_EQ(blab_pcp_info(z, 0, 0, &pi), 0);
	CHECK(pi.count > 0);
	CHECK_EQ(pi.high, high);
	CHECK_EQ(high, 1024);
	/* frees shrink high (never under high_min) and drain; the first drain that ends above
	 * the watermark clears the flag */
	high_n = n;
	while (n && zi.below_high) {
		CHECK_EQ(blab_free(z, 0, pfn[--n], 0), 0);
		CHECK_EQ(blab_pcp_info(z, 0, 0, &pi), 0);
		CHECK(pi.high <= high && pi.high >= pi.high_min);
		CHECK_EQ(blab_zone_info(z, &zi), 0);
	}
	CHECK_EQ(zi.below_high, 0);
	/* high walks down to high_min, free by free; then a drain of 65 lifts the zone */
	CHECK_EQ(high_n - n, 65);
	CHECK_EQ(zi.free_pages, 418);
	CHECK_EQ(pi.high, pi.high_min);
	CHECK(zone_ok(z));
	blab_zone_destroy(z);

	/* without watermarks (blab sim's zones) the flag is never set */
	z = zone_of("v6.7", 16384, 2);
	for (n = 0; n < 16000; n++)
		CHECK_EQ(blab_alloc(z, 0, 0, BLAB_MT_MOVABLE, &pfn[n]), 0);
	CHECK_EQ(blab_zone_info(z, &zi), 0);
	CHECK_EQ(zi.below_high, 0);
	blab_zone_destroy(z);
}

/* the pcp list of cpu 0 that holds pfn, or -1 */
static int list_of(const struct blab_zone *z, uint64_t pfn)
{
	const struct per_cpu_pages *pcp = &z->pageset[0].pcp[0];
	uint32_t want = (uint32_t)(pfn - z->start_pfn);

	for (int li = 0; li < NR_PCP_LISTS; li++)
		for (uint32_t i = pcp->lists[li].head; i != NIL; i = zone_page(z, i)->next)
			if (i == want)
				return li;
	return -1;
}

/*
 * THP-sized blocks (order 9 = pageblock_order) on the pcp lists: none up to 5.12, which
 * hands every one out under zone->lock; from 44042b449872 (the v5.14 preset) a list per migratetype after
 * the twelve order 0..3 lists, refilled two blocks at a time (batch >> 9, at least 2); 5.18
 * (5d0a661d808f) one list for all, so an unmovable request can take a movable block; 6.10
 * (bf14ed81f571) two, movable and the rest. The bulk free's round-robin counts every list.
 */
static void thp_lists(void)
{
	static const struct {
		const char *preset;
		unsigned nlists;   /* pcp_nr_lists() */
		int movable_list;  /* where a freed movable THP block goes; -1: not on pcp */
		int unmovable_list;
		uint32_t after_unmovable; /* cpu 0's count after a movable, then an unmovable THP */
	} want[] = {
		{"v4.16", 3, -1, -1, 0},
		{"v5.14", 15, 13, 12, 1024},
		{"v5.17", 15, 13, 12, 1024},
		{"v5.18", 13, 12, 12, 0},   /* the unmovable request took the movable block */
		{"v6.7", 13, 12, 12, 0},
		{"v6.16", 14, 13, 12, 1024},
		{"v6.19", 14, 13, 12, 1024},
	};

	for (unsigned k = 0; k < sizeof(want) / sizeof(want[0]); k++) {
		struct blab_zone_config cfg;
		struct blab_zone *z = NULL;
		struct blab_pcp_info pi;
		uint64_t mov, unmov;

		blab_zone_config_init(&cfg);
		CHECK_EQ(blab_preset(want[k].preset, &cfg.strategy), 0);
		cfg.pages = 65536;
		cfg.cpus = 2;
		/* room for three blocks on the list, so that the frees below stay there */
		cfg.strategy.high = 4096;
		cfg.strategy.high_max = cfg.strategy.high_mode == BLAB_HIGH_AUTO ? 8192 : 0;
		CHECK_EQ(blab_zone_create(&cfg, &z), 0);

		CHECK_EQ(pcp_nr_lists(z), want[k].nlists);
		CHECK_EQ(z->thp_order, want[k].movable_list < 0 ? 0 : 9);
		CHECK_EQ(blab_alloc(z, 0, 9, BLAB_MT_MOVABLE, &mov), 0);
		CHECK_EQ(blab_pcp_info(z, 0, 0, &pi), 0);
		CHECK_EQ(pi.count, want[k].movable_list < 0 ? 0u : 512u); /* refilled 2, 1 left */
		CHECK_EQ(blab_alloc(z, 0, 9, BLAB_MT_UNMOVABLE, &unmov), 0);
		CHECK_EQ(blab_pcp_info(z, 0, 0, &pi), 0);
		CHECK_EQ(pi.count, want[k].after_unmovable);
		CHECK(zone_ok(z));
		/* freed, each goes to its list */
		CHECK_EQ(blab_free(z, 0, mov, 9), 0);
		CHECK_EQ(blab_free(z, 0, unmov, 9), 0);
		CHECK_EQ(list_of(z, mov), want[k].movable_list);
		CHECK_EQ(list_of(z, unmov), want[k].unmovable_list);
		CHECK(zone_ok(z));
		blab_zone_destroy(z);
	}

	/* a zone whose pageblocks are no larger than order 3 has no THP-sized block to list */
	{
		struct blab_zone_config cfg;
		struct blab_zone *z = NULL;
		blab_zone_config_init(&cfg);
		CHECK_EQ(blab_preset("v6.16", &cfg.strategy), 0);
		cfg.pages = 4096;
		cfg.pageblock_order = 3;
		CHECK_EQ(blab_zone_create(&cfg, &z), 0);
		CHECK_EQ(z->thp_order, 0);
		CHECK_EQ(pcp_nr_lists(z), 14); /* the lists are there, as NR_PCP_LISTS counts them */
		blab_zone_destroy(z);
	}
}

/*
 * 5.14 .. 5.17's round-robin counts the three THP lists (NR_PCP_LISTS 15): a drain of a set
 * holding order-0 unmovable (list 0) and movable (list 1) pages takes one movable page, then
 * passes lists 2 .. 14, empty, and list 0, batch_free counting each: 14 unmovable pages; one
 * movable again, and so on until list 0 is empty; then the movable rest. Twelve lists would
 * take 11 at a time.
 */
static void thp_lists_round_robin(void)
{
	static uint64_t pfn[80];
	struct blab_zone *z = zone_of("v5.17", 65536, 2);
	const struct blab_event *ev;
	struct blab_pcp_info pi;
	uint32_t mark, n, run[64] = {0}, nrun = 0;
	unsigned last = BLAB_MT_PCPTYPES, first = BLAB_MT_PCPTYPES;

	for (unsigned i = 0; i < 80; i++)
		CHECK_EQ(blab_alloc(z, 0, 0, i < 40 ? BLAB_MT_UNMOVABLE : BLAB_MT_MOVABLE, &pfn[i]), 0);
	for (unsigned i = 0; i < 80; i++)
		CHECK_EQ(blab_free(z, 0, pfn[i], 0), 0);
	CHECK_EQ(blab_pcp_info(z, 0, 0, &pi), 0);
	CHECK(pi.count > 80 && pi.count < pi.high); /* nothing drained yet */
	mark = log_len(z);
	CHECK_EQ(blab_drain(z, 0), 0);
	ev = blab_log(z, &n);
	/* the lengths of the runs of one migratetype in the PCP_DEL records, movable first */
	for (uint32_t i = mark; i < n; i++) {
		if (ev[i].type != BLAB_EV_PCP_DEL)
			continue;
		if (first == BLAB_MT_PCPTYPES)
			first = ev[i].mt;
		if (ev[i].mt != last && nrun < 64)
			nrun++;
		last = ev[i].mt;
		run[nrun - 1]++;
	}
	CHECK_EQ(first, BLAB_MT_MOVABLE);
	CHECK(nrun >= 5 && nrun % 2 == 1);
	for (uint32_t r = 0; r + 2 < nrun; r += 2) {
		CHECK_EQ(run[r], 1u);      /* movable */
		CHECK_EQ(run[r + 1] <= 14u, 1); /* unmovable: 14, the last run what is left */
		if (r + 3 < nrun)
			CHECK_EQ(run[r + 1], 14u);
	}
	CHECK(zone_ok(z));
	blab_zone_destroy(z);
}

/* 6.19 (fc4b909c368f): the same decay gives its 185 pages back batch at a time, one
 * free_pcppages_bulk() and one zone->lock hold each (pcp->lock, taken again for each, leaves
 * no record); the list and its high end where 6.7's do */
static void decay_chunked(void)
{
	static uint64_t pfn[4200];
	struct blab_zone *z = zone_of("v6.19", 262144, 2);
	struct blab_pcp_info pi;
	struct sizes sz;
	uint32_t mark;

	alloc_n(z, 0, 0, pfn, 4200);
	free_n(z, 0, 0, pfn, 4200);
	mark = log_len(z);
	CHECK_EQ(blab_decay(z, 0), 0);
	CHECK_EQ(blab_pcp_info(z, 0, 0, &pi), 0);
	CHECK_EQ(pi.high, 5800u);
	CHECK_EQ(pi.count, 5800u);
	scan(z, mark, &sz);
	CHECK_EQ(sz.ndrain, 3);
	CHECK_EQ(sz.drain[0], 63);
	CHECK_EQ(sz.drain[1], 63);
	CHECK_EQ(sz.drain[2], 59);
	for (uint32_t i = 0; i < sz.ndrain; i++) {
		CHECK_EQ(sz.drain_path[i], BLAB_PATH_DECAY);
		CHECK_EQ(sz.drain_locks[i], 1);
	}
	CHECK(zone_ok(z));
	blab_zone_destroy(z);
}

/*
 * 6.10 (55f77df7d715): drain_pages_zone() gives a list back batch << 5 pages (2,016 with
 * batch 63) per free_pcppages_bulk(), taking pcp->lock for each and reading pcp->count again
 * under it; before (6.7) the whole list went in one call under one pcp->lock hold. Here
 * 3,345 pages drain as 6 x 480 + 465 on 6.16 and 6.19, one zone->lock hold and one pcp->lock
 * acquisition each (the model machine counts those), locally or from another CPU.
 */
static void drain_chunked(void)
{
	/* a 65,536-page zone (batch 15, chunks of 480), so that the debug build's check after
	 * every op stays cheap; the 262,144-page zone of the notes drains 5,985 pages as
	 * 2,016 + 2,016 + 1,953 the same way */
	static uint64_t pfn[3000];
	static const char *const presets[] = {"v6.7", "v6.16", "v6.19"};

	for (unsigned p = 0; p < 3; p++) {
		for (unsigned by = 0; by < 2; by++) {
			struct blab_zone_config cfg;
			struct blab_zone *z = NULL;
			const struct model_pcp_lock *l;
			struct blab_pcp_info pi;
			struct sizes sz;
			uint64_t before;
			uint32_t mark, count, chunk, chunks;
			int chunked = p > 0;

			blab_zone_config_init(&cfg);
			CHECK_EQ(blab_preset(presets[p], &cfg.strategy), 0);
			CHECK_EQ(cfg.strategy.drain_chunk, chunked);
			cfg.machine = BLAB_MACHINE_MODEL;
			cfg.pages = 65536;
			cfg.cpus = 2;
			cfg.log_capacity = 1u << 20;
			cfg.log_mask = BLAB_EVC_EXPLAIN | BLAB_EVC_LOCK | BLAB_EVC_STATE;
			CHECK_EQ(blab_zone_create(&cfg, &z), 0);
			alloc_n(z, 0, 0, pfn, 3000);
			free_n(z, 0, 0, pfn, 3000);
			CHECK_EQ(blab_pcp_info(z, 0, 0, &pi), 0);
			count = pi.count;
			CHECK_EQ(pi.batch, 15);
			CHECK_EQ(count, 3345);
			chunk = pi.batch << 5; /* CONFIG_PCP_BATCH_SCALE_MAX */
			chunks = (count + chunk - 1) / chunk; /* 7: 6 x 480 + 465 */
			l = &mach_model(&z->machine)->locks.pcp[0];
			before = l->acquisitions;
			mark = log_len(z);
			CHECK_EQ(by ? blab_drain_remote(z, 1, 0) : blab_drain(z, 0), 0);
			CHECK_EQ(blab_pcp_info(z, 0, 0, &pi), 0);
			CHECK_EQ(pi.count, 0);
			scan(z, mark, &sz);
			CHECK_EQ(sz.ndrain, chunked ? chunks : 1);
			for (uint32_t i = 0; i < sz.ndrain; i++) {
				uint32_t left = count - i * chunk;
				CHECK_EQ(sz.drain[i], chunked ? (left < chunk ? left : chunk) : count);
				CHECK_EQ(sz.drain_path[i], BLAB_PATH_DRAIN);
				CHECK_EQ(sz.drain_locks[i], 1);
			}
			CHECK_EQ(l->acquisitions - before, chunked ? chunks : 1);
			CHECK(zone_ok(z));
			blab_zone_destroy(z);
		}
	}
}

/* a 65,536-page zone (batch 15) of `preset` with CONFIG_PCP_BATCH_SCALE_MAX = scale */
static struct blab_zone *zone_scaled(const char *preset, unsigned scale)
{
	struct blab_zone_config cfg;
	struct blab_zone *z = NULL;

	blab_zone_config_init(&cfg);
	CHECK_EQ(blab_preset(preset, &cfg.strategy), 0);
	cfg.strategy.pcp_batch_scale_max = (uint8_t)scale;
	cfg.pages = 65536;
	cfg.cpus = 2;
	cfg.log_capacity = 1u << 20;
	cfg.log_mask = BLAB_EVC_EXPLAIN | BLAB_EVC_LOCK | BLAB_EVC_STATE;
	CHECK_EQ(blab_zone_create(&cfg, &z), 0);
	return z;
}

/*
 * CONFIG_PCP_BATCH_SCALE_MAX (52166607ecc9, Kconfig 0..6, default 5) bounds every 6.7+ scaling
 * the kernel ties to it: refills climb batch, 2 batch, .. batch << N and stay there
 * (nr_pcp_alloc), free_count stops at batch << N (free_unref_page_commit), decay_pcp_high()
 * keeps high at least count - (batch << N), and 6.10's drain_pages_zone() gives batch << N
 * a call. A strategy without the 6.7 switches has no such option: the zone refuses one.
 */
static void batch_scale_max(void)
{
	static uint64_t pfn[3000];

	for (unsigned n = 0; n <= BLAB_PCP_BATCH_SCALE_MAX_LIMIT; n++) {
		struct blab_zone *z = zone_scaled("v6.16", n);
		struct blab_pcp_info pi;
		struct sizes sz;
		uint32_t cap = 15u << n, mark, count, high, want, i;
		/* the climb to batch << n and two refills at it: few pages, for the debug build's
		 * check after every op */
		uint32_t pages = 15u * ((2u << n) - 1) + 2 * cap;

		pages = pages < 3000 ? pages : 3000;
		alloc_n(z, 0, 0, pfn, pages);
		scan(z, 0, &sz);
		CHECK(sz.nrefill > n + 1);
		for (i = 0; i < sz.nrefill; i++)
			CHECK_EQ(sz.refill[i], 15u << (i < n ? i : n));
		CHECK_EQ(blab_pcp_info(z, 0, 0, &pi), 0);
		CHECK_EQ(pi.alloc_factor, n);
		free_n(z, 0, 0, pfn, pages);
		CHECK_EQ(blab_pcp_info(z, 0, 0, &pi), 0);
		CHECK_EQ(pi.free_count, cap); /* more frees than that, no allocation to halve it */
		count = pi.count;
		high = pi.high;
		mark = log_len(z);
		CHECK_EQ(blab_decay(z, 0), 0);
		want = high - high / 8;
		if (count > cap && count - cap > want)
			want = count - cap;
		if (want < pi.high_min)
			want = pi.high_min;
		CHECK_EQ(blab_pcp_info(z, 0, 0, &pi), 0);
		CHECK_EQ(pi.high, want);
		count = pi.count;
		mark = log_len(z);
		CHECK_EQ(blab_drain(z, 0), 0);
		scan(z, mark, &sz);
		CHECK_EQ(sz.ndrain, (count + cap - 1) / cap);
		for (i = 0; i < sz.ndrain; i++)
			CHECK_EQ(sz.drain[i], count - i * cap < cap ? count - i * cap : cap);
		CHECK(zone_ok(z));
		blab_zone_destroy(z);
	}
	/* the default: what the presets had before the option was a knob */
	{
		struct blab_strategy s;
		struct blab_zone_config cfg;
		struct blab_zone *z = NULL;
		CHECK_EQ(blab_preset("v6.7", &s), 0);
		CHECK_EQ(s.pcp_batch_scale_max, BLAB_PCP_BATCH_SCALE_MAX_DEFAULT);
		CHECK_EQ(blab_preset("v6.0", &s), 0);
		CHECK_EQ(s.pcp_batch_scale_max, 0);
		CHECK(!blab_strategy_has_batch_scale(&s));
		CHECK(!blab_strategy_has_batch_scale(NULL));
		/* an older kernel with the option, or the option past its range: refused */
		blab_zone_config_init(&cfg);
		cfg.pages = 4096;
		CHECK_EQ(blab_preset("v6.0", &cfg.strategy), 0);
		cfg.strategy.pcp_batch_scale_max = 3;
		CHECK_EQ(blab_zone_create(&cfg, &z), BLAB_ESTRATEGY);
		CHECK_EQ(blab_preset("v6.7", &cfg.strategy), 0);
		cfg.strategy.pcp_batch_scale_max = BLAB_PCP_BATCH_SCALE_MAX_LIMIT + 1;
		CHECK_EQ(blab_zone_create(&cfg, &z), BLAB_ESTRATEGY);
		CHECK(z == NULL);
	}
}

/* 6.7: a CPU freeing order-1 pages drains hard once free_count >= batch; 6.16
 * (c544a952ba61) waits until batch + high_min / 2 */
static void free_high(void)
{
	static uint64_t pfn[150];
	const char *presets[2] = {"v6.7", "v6.16"};

	for (int p = 0; p < 2; p++) {
		struct blab_zone *z = zone_of(presets[p], 262144, 2);
		struct blab_pcp_info pi;
		struct sizes sz;
		uint32_t mark;
		alloc_n(z, 0, 1, pfn, 150);
		mark = log_len(z);
		free_n(z, 0, 1, pfn, 150);
		scan(z, mark, &sz);
		CHECK_EQ(blab_pcp_info(z, 0, 0, &pi), 0);
		if (p == 0) {
			/* the 33rd free finds free_count 64 >= 63: everything goes */
			CHECK(sz.ndrain >= 1);
			CHECK_EQ(sz.drain_path[0], BLAB_PATH_FREE_FAST);
			CHECK(sz.drain[0] >= 64);
		} else {
			/* 300 pages freed never reach 63 + high_min / 2 (= 384) */
			CHECK_EQ(sz.ndrain, 0);
			CHECK(pi.free_count < 63 + pi.high_min / 2);
		}
		CHECK(zone_ok(z));
		blab_zone_destroy(z);
	}
}

/* 6.0: while another CPU drains cpu 0's list remotely (holding its pcp->lock), cpu 0's own
 * allocation and free fail the trylock and go to the buddy lists under zone->lock */
static void trylock(void)
{
	static uint64_t pfn[200];
	struct blab_zone *z = zone_of("v6.0", 65536, 2);
	struct blab_pcp_info pi;
	struct blab_op drain;
	uint32_t n, mark;
	const struct blab_event *ev;
	uint64_t extra, extra2;
	int saw_rmqueue = 0, saw_direct = 0;

	alloc_n(z, 0, 0, pfn, 100);
	free_n(z, 0, 0, pfn, 50);
	CHECK_EQ(blab_pcp_info(z, 0, 0, &pi), 0);
	CHECK(pi.count > 0);
	/* cpu 1 starts draining cpu 0: stops before pcp->lock, then before zone->lock */
	CHECK_EQ(blab_op_drain_remote(&drain, 1, 0), 0);
	CHECK_EQ(blab_op_step(z, &drain), BLAB_STEP_LOCK);
	CHECK_EQ(blab_op_step(z, &drain), BLAB_STEP_LOCK);
	mark = log_len(z);
	CHECK_EQ(blab_alloc(z, 0, 0, BLAB_MT_MOVABLE, &extra), 0);
	CHECK_EQ(blab_free(z, 0, pfn[50], 0), 0);
	ev = blab_log(z, &n);
	for (uint32_t i = mark; i < n; i++) {
		saw_rmqueue |= ev[i].type == BLAB_EV_ALLOC && ev[i].path == BLAB_PATH_RMQUEUE;
		saw_direct |= ev[i].type == BLAB_EV_FREE && ev[i].path == BLAB_PATH_FREE_DIRECT;
		CHECK(ev[i].type != BLAB_EV_PCP_ADD && ev[i].type != BLAB_EV_PCP_DEL);
	}
	CHECK(saw_rmqueue);
	CHECK(saw_direct);
	/* the drain goes on and empties the list */
	CHECK_EQ(blab_op_step(z, &drain), BLAB_STEP_DONE);
	CHECK_EQ(blab_pcp_info(z, 0, 0, &pi), 0);
	CHECK_EQ(pi.count, 0);
	/* with the lock free again, cpu 0 uses its list */
	CHECK_EQ(blab_alloc(z, 0, 0, BLAB_MT_MOVABLE, &extra2), 0);
	CHECK_EQ(blab_pcp_info(z, 0, 0, &pi), 0);
	CHECK_EQ(pi.count, pi.batch - 1); /* a refill of batch (15 in a 256 MB zone), one used */
	CHECK(zone_ok(z));
	blab_zone_destroy(z);

	/* before 6.0 no CPU drains another's lists */
	z = zone_of("v5.18", 65536, 2);
	CHECK_EQ(blab_drain_remote(z, 1, 0), BLAB_ESTRATEGY);
	CHECK_EQ(blab_drain_remote(z, 1, 2), BLAB_ECPU);
	blab_zone_destroy(z);
}

/* 6.0+ on the model machine: a free takes its CPU's pcp->lock, unless it continues a list
 * free that holds it (BLAB_GFP_PCP_HELD: free_unref_page_list() takes it for its first page
 * and keeps it for up to SWAP_CLUSTER_MAX); 32 pages freed as one list cost one acquisition,
 * 32 freed one by one 32 */
static void list_free_pcp_lock(void)
{
	static uint64_t pfn[64];
	struct blab_zone_config cfg;
	struct blab_zone *z = NULL;
	const struct model_pcp_lock *l;
	uint64_t before;

	blab_zone_config_init(&cfg);
	CHECK_EQ(blab_preset("v6.0", &cfg.strategy), 0);
	cfg.machine = BLAB_MACHINE_MODEL;
	cfg.pages = 4096;
	cfg.cpus = 2;
	cfg.start_pfn = 0x100000;
	CHECK_EQ(blab_zone_create(&cfg, &z), 0);
	alloc_n(z, 0, 0, pfn, 64);
	l = &mach_model(&z->machine)->locks.pcp[0];
	before = l->acquisitions;
	for (int i = 0; i < 32; i++)
		CHECK_EQ(blab_free_gfp(z, 0, pfn[i], 0, i ? BLAB_GFP_PCP_HELD : 0), 0);
	CHECK_EQ(l->acquisitions - before, 1);
	before = l->acquisitions;
	free_n(z, 0, 0, pfn + 32, 32);
	CHECK_EQ(l->acquisitions - before, 32);
	CHECK(zone_ok(z));
	blab_zone_destroy(z);
}

/* ---- the model machine: page_fault1 at 2 tasks ---- */

/* page_fault1 at 2 tasks on every auto-tuned preset (6.7, 6.16, 6.19): each CPU's refills
 * climb 63, 126 .. 2016, and the decay's drains are no multiples of batch */
static void page_fault1_histograms(void)
{
	static const char *const presets[] = {"v6.7", "v6.16", "v6.19"};

	for (unsigned p = 0; p < 3; p++) {
		struct blab_sim_config c;
		struct blab_sim_result r;
		struct model_params mp;
		struct blab_hist *h = blab_hist_new();
		struct blab_hist_bin bins[512];
		char err[160];
		size_t nb;
		int climbs[2] = {0, 0}, odd_drain = 0;

		CHECK(h);
		blab_sim_config_init(&c);
		CHECK_EQ(blab_preset(presets[p], &c.strategy), 0);
		c.cpus = 2;
		c.pages = 4096;
		c.iterations = 6;
		c.hist = h;
		/* a 20 MHz model clock: the vmstat worker's second comes every 2 x 10^7 cycles,
		 * a few rounds of this small run, so decay_pcp_high() drains in it */
		model_params_default(&mp);
		mp.cpu_mhz = 20;
		c.model = &mp;
		CHECK_EQ(blab_sim_run(&c, &r, err, sizeof(err)), 0);
		CHECK_EQ(r.batch, 63);
		CHECK(r.high_max > r.high);
		nb = blab_hist_bins(h, bins, 512);
		CHECK(nb > 0 && nb <= 512);
		for (size_t i = 0; i < nb && i < 512; i++) {
			if (bins[i].kind == BLAB_HIST_REFILL && bins[i].cpu < 2) {
				static const uint32_t steps[] = {63, 126, 252, 504, 1008, 2016};
				for (unsigned k = 0; k < 6; k++)
					if (bins[i].size == steps[k])
						climbs[bins[i].cpu] |= 1 << k;
			}
			if (bins[i].kind == BLAB_HIST_DRAIN && bins[i].size % 63)
				odd_drain = 1;
		}
		if (climbs[0] != 0x3f || climbs[1] != 0x3f || !odd_drain)
			fprintf(stderr, "  %s: refill steps seen %#x %#x, odd drain %d\n", presets[p],
				climbs[0], climbs[1], odd_drain);
		CHECK_EQ(climbs[0], 0x3f);
		CHECK_EQ(climbs[1], 0x3f);
		CHECK(odd_drain);
		CHECK(blab_hist_total(h, BLAB_HIST_DRAIN) > 0);
		blab_hist_free(h);
	}
}

/* the histogram itself: exact bins, bounds, printers */
static void histogram(void)
{
	struct blab_hist *h = blab_hist_new();
	struct blab_hist_bin b[4];
	char buf[256];

	CHECK(h);
	CHECK_EQ(blab_hist_add(h, BLAB_HIST_REFILL, 1, 126), 0);
	CHECK_EQ(blab_hist_add(h, BLAB_HIST_REFILL, 1, 63), 0);
	CHECK_EQ(blab_hist_add(h, BLAB_HIST_REFILL, 1, 63), 0);
	CHECK_EQ(blab_hist_add(h, BLAB_HIST_DRAIN, 0, 185), 0);
	CHECK_EQ(blab_hist_add(h, BLAB_HIST_DRAIN, 0, 0), 0); /* not counted */
	CHECK_EQ(blab_hist_add(h, 2, 0, 1), BLAB_EINVAL);
	CHECK_EQ(blab_hist_add(h, 0, BLAB_HIST_MAX_CPUS, 1), BLAB_EINVAL);
	CHECK_EQ(blab_hist_bins(h, b, 4), 3);
	CHECK(b[0].kind == 0 && b[0].cpu == 1 && b[0].size == 63 && b[0].count == 2);
	CHECK(b[1].size == 126 && b[1].count == 1);
	CHECK(b[2].kind == 1 && b[2].size == 185);
	CHECK_EQ(blab_hist_total(h, BLAB_HIST_REFILL), 3);
	blab_hist_json(h, buf, sizeof(buf));
	CHECK(strcmp(buf, "{\"refill\":{\"1\":[[63,2],[126,1]]},\"drain\":{\"0\":[[185,1]]},"
			  "\"dropped\":0}") == 0);
	blab_hist_text(h, "", buf, sizeof(buf));
	CHECK(strcmp(buf, "refill cpu 1: 63 x2, 126 x1\ndrain cpu 0: 185 x1\n") == 0);
	CHECK(blab_hist_json(h, buf, 4) > 4); /* cut, and says how long it needed */
	blab_hist_clear(h);
	CHECK_EQ(blab_hist_bins(h, b, 4), 0);
	/* past the bound: counted as dropped */
	for (uint32_t i = 1; i <= BLAB_HIST_MAX_BINS; i++)
		CHECK_EQ(blab_hist_add(h, 0, 0, i), 0);
	CHECK_EQ(blab_hist_add(h, 0, 0, BLAB_HIST_MAX_BINS + 1), BLAB_ELIMIT);
	CHECK_EQ(blab_hist_dropped(h), 1);
	blab_hist_free(h);
}

/* the debug and ASan builds check the whole zone after every op, so these parts take minutes
 * there: ctest runs them in four shares side by side (harness_run(), CMakeLists.txt) */
static const struct harness_part parts[] = {
	{"formulas", formulas},
	{"refills_climb", refills_climb},
	{"drains_grow", drains_grow},
	{"preset_sizes", preset_sizes},
	{"decay", decay},
	{"below_high_sticky", below_high_sticky},
	{"thp_lists", thp_lists},
	{"thp_lists_round_robin", thp_lists_round_robin},
	{"decay_chunked", decay_chunked},
	{"drain_chunked", drain_chunked},
	{"batch_scale_max", batch_scale_max},
	{"free_high", free_high},
	{"trylock", trylock},
	{"list_free_pcp_lock", list_free_pcp_lock},
	{"page_fault1_histograms", page_fault1_histograms},
	{"histogram", histogram},
};

int main(int argc, char **argv)
{
	return harness_run("test_modern_pcp", parts, sizeof(parts) / sizeof(parts[0]), argc, argv);
}
