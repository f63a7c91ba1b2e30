/*
 * test_events.c - the event log: the state events alone rebuild where every page is;
 * same seed gives a byte-identical log; a full log ends with LOG_FULL; the C table
 * matches docs/events.md.
 */
#include <stdlib.h>
#include "common.h"

enum { L_NONE, L_FREE, L_PCP, L_ALLOC };
struct loc {
	uint8_t kind, order, mt;
	uint16_t cpu;
};

static struct blab_zone *workload(const char *preset, uint64_t seed, uint32_t cap, unsigned mask,
				  unsigned nops)
{
	struct blab_zone_config cfg;
	struct blab_zone *z;
	struct blab_rng r;
	uint64_t live[512];
	uint8_t lord[512];
	unsigned n = 0;

	blab_zone_config_init(&cfg);
	blab_preset(preset, &cfg.strategy);
	cfg.pages = 333;
	cfg.start_pfn = 77;
	cfg.cpus = 3;
	cfg.top_order = 7;
	cfg.pageblock_order = 4;
	cfg.strategy.batch = 5;
	cfg.strategy.high = 17;
	cfg.log_capacity = cap;
	cfg.log_mask = (uint8_t)mask;
	if (blab_zone_create(&cfg, &z))
		return NULL;
	blab_rng_seed(&r, seed);
	for (unsigned i = 0; i < nops; i++) {
		unsigned cpu = blab_rng_below(&r, 3);
		uint32_t x = blab_rng_below(&r, 10);
		if (x < 5 && n < 512) {
			unsigned order = blab_rng_below(&r, 4) ? 0 : blab_rng_below(&r, 4);
			uint64_t pfn;
			if (blab_alloc(z, cpu, order, blab_rng_below(&r, 3), &pfn) == 0) {
				live[n] = pfn;
				lord[n++] = (uint8_t)order;
			}
		} else if (x < 9 && n) {
			unsigned k = blab_rng_below(&r, n);
			CHECK_EQ(blab_free(z, cpu, live[k], lord[k]), 0);
			live[k] = live[--n];
			lord[k] = lord[n];
		} else {
			CHECK_EQ(blab_drain(z, cpu), 0);
		}
	}
	return z;
}

static void replay_rebuilds_state(void)
{
	for (unsigned p = 0; p < blab_preset_count(); p++) {
		struct blab_zone *z = workload(blab_preset_name(p), 42 + p, 1u << 20, BLAB_EVC_STATE, 3000);
		uint32_t n, bad = 0;
		const struct blab_event *ev;
		struct loc *loc;
		uint64_t start;
		CHECK(z);
		if (!z)
			continue;
		ev = blab_log(z, &n);
		CHECK(!blab_log_full(z));
		CHECK(n > 100);
		CHECK_EQ(ev[0].type, BLAB_EV_ZONE_INIT);
		start = ev[0].pfn;
		CHECK_EQ(ev[0].arg0, 333);
		CHECK_EQ(ev[0].arg1, 3);
		CHECK_EQ(ev[0].order, 7);
		CHECK_EQ(ev[0].flags, 4);
		loc = calloc(ev[0].arg0, sizeof(*loc));
		for (uint32_t i = 1; i < n; i++) {
			const struct blab_event *e = &ev[i];
			struct loc *l;
			CHECK(blab_event_class(e->type) == BLAB_EVC_STATE);
			if (e->type == BLAB_EV_PAGEBLOCK_MT)
				continue; /* pfn = the pageblock's start, may lie before the zone */
			if (e->type == BLAB_EV_PCP_HIGH) { /* 6.7+: no pfn; a CPU's high moved */
				bad += e->pfn != 0 || e->cpu >= 3 || e->arg0 == e->arg1;
				continue;
			}
			if (e->pfn < start || e->pfn - start >= 333) {
				bad++;
				continue;
			}
			l = &loc[e->pfn - start];
			switch (e->type) {
			case BLAB_EV_BUDDY_ADD:
				bad += l->kind != L_NONE;
				l->kind = L_FREE, l->order = e->order, l->mt = e->mt;
				break;
			case BLAB_EV_BUDDY_DEL:
				bad += l->kind != L_FREE || l->order != e->order;
				l->kind = L_NONE;
				break;
			case BLAB_EV_PCP_ADD:
				bad += l->kind != L_NONE;
				l->kind = L_PCP, l->order = e->order, l->cpu = e->cpu, l->mt = e->mt;
				break;
			case BLAB_EV_PCP_DEL:
				bad += l->kind != L_PCP || l->cpu != e->cpu;
				l->kind = L_NONE;
				break;
			case BLAB_EV_ALLOC:
				bad += l->kind != L_NONE;
				l->kind = L_ALLOC, l->order = e->order;
				break;
			case BLAB_EV_FREE:
				bad += l->kind != L_ALLOC || l->order != e->order;
				l->kind = L_NONE;
				break;
			case BLAB_EV_PAGEBLOCK_MT:
				break;
			default:
				bad++;
			}
		}
		CHECK_EQ(bad, 0);
		for (uint32_t i = 0; i < z->pages; i++) {
			const struct page *pg = zone_page(z, i);
			const struct loc *l = &loc[i];
			int ok;
			if ((pg->flags & ~PG_merge_skipped) == PG_buddy)
				ok = l->kind == L_FREE && l->order == pg->order && l->mt == pg->mt;
			else if (pg->flags & PG_pcp)
				ok = l->kind == L_PCP && l->order == pg->order && l->cpu == pg->cpu;
			else if (pg->flags == PG_alloc)
				ok = l->kind == L_ALLOC && l->order == pg->order;
			else
				ok = l->kind == L_NONE;
			if (!ok) {
				fprintf(stderr, "  %s: pfn %llu flags 0x%x, replay says kind %u\n",
					blab_preset_name(p), (unsigned long long)(start + i), pg->flags,
					l->kind);
				CHECK(ok);
				break;
			}
		}
		free(loc);
		blab_zone_destroy(z);
	}
}

static void deterministic(void)
{
	struct blab_zone *a = workload("v4.17", 7, 1u << 20, BLAB_EVC_ALL, 5000);
	struct blab_zone *b = workload("v4.17", 7, 1u << 20, BLAB_EVC_ALL, 5000);
	struct blab_zone *c = workload("v4.17", 8, 1u << 20, BLAB_EVC_ALL, 5000);
	uint32_t na, nb, nc;
	const struct blab_event *ea = blab_log(a, &na), *eb = blab_log(b, &nb), *ec = blab_log(c, &nc);
	CHECK_EQ(sizeof(struct blab_event), 32);
	CHECK_EQ(na, nb);
	CHECK(na > 1000);
	CHECK(memcmp(ea, eb, (size_t)na * sizeof(*ea)) == 0);
	CHECK(na != nc || memcmp(ea, ec, (size_t)na * sizeof(*ea)) != 0);
	/* the plain clock counts ops, and every lock taken is released */
	{
		int held = 0;
		for (uint32_t i = 0; i < na; i++) {
			if (i)
				CHECK(ea[i].time >= ea[i - 1].time);
			held += ea[i].type == BLAB_EV_LOCK_ACQUIRE;
			held -= ea[i].type == BLAB_EV_LOCK_RELEASE;
			CHECK(held == 0 || held == 1);
		}
		CHECK_EQ(held, 0);
	}
	blab_zone_destroy(a);
	blab_zone_destroy(b);
	blab_zone_destroy(c);
}

static void log_full(void)
{
	struct blab_zone *z = workload("v5.18", 1, 100, BLAB_EVC_ALL, 2000);
	uint32_t n;
	const struct blab_event *e;
	CHECK(z);
	e = blab_log(z, &n);
	CHECK_EQ(n, 100);
	CHECK(blab_log_full(z));
	CHECK_EQ(e[99].type, BLAB_EV_LOG_FULL);
	CHECK(zone_ok(z)); /* the zone went on working */
	blab_log_clear(z);
	blab_log(z, &n);
	CHECK_EQ(n, 0);
	blab_mark(z, 0, 1, 2);
	e = blab_log(z, &n);
	CHECK_EQ(n, 1);
	CHECK_EQ(e[0].type, BLAB_EV_MARK);
	blab_zone_destroy(z);
}

/* every row "| N | `NAME` |" in docs/events.md matches the C table, and back */
static void doc_matches_header(void)
{
	char path[4096], line[512];
	const char *f = __FILE__;
	const char *cut = strstr(f, "wasm-core/tests/");
	FILE *fp;
	int seen[BLAB_EV_MAX_CORE + 1] = {0}, seen_path[BLAB_PATH_COUNT] = {0};
	int in_paths = 0;
	if (!cut) {
		printf("  (docs/events.md not located from %s; skipped)\n", f);
		return;
	}
	snprintf(path, sizeof(path), "%.*sdocs/events.md", (int)(cut - f), f);
	fp = fopen(path, "r");
	if (!fp) {
		printf("  (cannot open %s; skipped)\n", path);
		return;
	}
	while (fgets(line, sizeof(line), fp)) {
		unsigned num;
		char name[64];
		if (strncmp(line, "## ", 3) == 0)
			in_paths = strstr(line, "Code paths") != NULL;
		if (in_paths && sscanf(line, "| %u | `%63[A-Z_]` |", &num, name) == 2) {
			CHECK(num < BLAB_PATH_COUNT);
			if (num < BLAB_PATH_COUNT) {
				CHECK(strcmp(blab_path_name(num), name) == 0);
				seen_path[num] = 1;
			}
		} else if (sscanf(line, "| %u | `%63[A-Z_]` |", &num, name) == 2) {
			CHECK(num <= BLAB_EV_MAX_CORE);
			if (num <= BLAB_EV_MAX_CORE && blab_event_name(num)) {
				if (strcmp(blab_event_name(num), name) != 0)
					fprintf(stderr, "  events.md: %u is %s, header says %s\n", num, name,
						blab_event_name(num));
				CHECK(strcmp(blab_event_name(num), name) == 0);
				seen[num] = 1;
			} else {
				CHECK(!"events.md names a type the header lacks");
			}
		}
	}
	fclose(fp);
	for (unsigned t = 0; t <= BLAB_EV_MAX_CORE; t++)
		if (blab_event_name(t))
			CHECK(seen[t]);
	for (unsigned t = 0; t < BLAB_PATH_COUNT; t++)
		if (blab_path_name(t)) /* the ids have gaps: each area has its own range */
			CHECK(seen_path[t]);
	CHECK(blab_path_name(BLAB_PATH_COUNT) == NULL);
}

int main(void)
{
	replay_rebuilds_state();
	deterministic();
	log_full();
	doc_matches_header();
	return harness_report("test_events");
}
