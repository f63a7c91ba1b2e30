/*
 * fuzz_snapshot.c - libFuzzer target: a zone in the state a /proc/buddyinfo +
 * /proc/zoneinfo snapshot describes (blab_zone_create_snapshot(), what the op-script
 * `snapshot` line and the browser's "Start from a snapshot" hand the core). The text of
 * those files is parsed in TypeScript (web/import/procfs-parse.ts, with its own property
 * tests); what reaches the C core is the counts, built here from fuzz bytes: nr_free per
 * order (small, absurd and 2^32 - 1), pcp pages per cpu, the zone's pages, start pfn, cpus,
 * top order and strategy.
 *
 * Oracle, beyond ASan/UBSan/LSan: a refusal is one of the documented codes and sets nothing;
 * blab_snapshot_pages() says the same as the create (ESNAPSHOT exactly when the layout does
 * not fit); an accepted zone has exactly the snapshot's nr_free per order and pcp count per
 * cpu, passes blab_check(), and every page of it is free, on a pcp list or allocated.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blab.h"
#include "fuzz_bytes.h"

#define DIE(...)                                                                           \
	do {                                                                               \
		fprintf(stderr, "fuzz_snapshot: " __VA_ARGS__);                            \
		fputc('\n', stderr);                                                       \
		abort();                                                                   \
	} while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* zones up to this many pages: legal bigger ones are slow to lay out per input */
#define FUZZ_MAX_PAGES 16384u
#define MAX_CPUS 8u

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bytes b = {data, size};
	struct blab_zone_config cfg;
	struct blab_snapshot snap;
	uint32_t pcp[MAX_CPUS] = {0};
	struct blab_zone *z = (struct blab_zone *)&b; /* must be set to NULL on a refusal */
	struct blab_zone_info info;
	uint64_t need = 0;
	int rc, fit;
	unsigned top;
	char why[200];

	blab_zone_config_init(&cfg);
	memset(&snap, 0, sizeof(snap));
	cfg.pages = 1 + take(&b, 2) % FUZZ_MAX_PAGES;
	cfg.start_pfn = (take(&b, 1) & 1) ? (uint64_t)take(&b, 2) << (take(&b, 1) % 24) : 0;
	cfg.cpus = (uint16_t)(1 + take(&b, 1) % MAX_CPUS);
	cfg.top_order = (uint8_t)(take(&b, 1) % 12); /* 11: past the limit */
	blab_preset(blab_preset_name(take(&b, 1) % blab_preset_count()), &cfg.strategy);
	for (unsigned o = 0; o <= BLAB_MAX_ORDER_LIMIT; o++) {
		uint32_t sel = take(&b, 1);
		snap.nr_free[o] = sel < 200 ? sel % 8 : sel < 250 ? take(&b, 2) : 0xffffffffu;
	}
	if (take(&b, 1) & 1) {
		for (unsigned c = 0; c < cfg.cpus; c++)
			pcp[c] = take(&b, 1) < 200 ? take(&b, 1) : take(&b, 4);
		snap.pcp_count = pcp;
	}
	top = cfg.top_order;

	rc = blab_zone_create_snapshot(&cfg, &snap, &z);
	if (rc) {
		if (z)
			DIE("refused with %d but set *out", rc);
		if (rc != BLAB_EORDER && rc != BLAB_ESNAPSHOT && rc != BLAB_ESTRATEGY &&
		    rc != BLAB_ELIMIT && rc != BLAB_EINVAL && rc != BLAB_EHOSTMEM)
			DIE("unexpected error %d (%s)", rc, blab_strerror(rc));
	}
	fit = blab_snapshot_pages(&snap, cfg.start_pfn, top, cfg.cpus, cfg.pages, &need);
	if (rc == BLAB_ESNAPSHOT && fit != BLAB_ESNAPSHOT)
		DIE("create says it does not fit, blab_snapshot_pages() says %d (%llu pages)", fit,
		    (unsigned long long)need);
	if (rc == 0 && fit != 0)
		DIE("create accepted what blab_snapshot_pages() refuses (%d)", fit);
	if (rc)
		return 0;

	if (blab_zone_info(z, &info))
		DIE("zone_info");
	for (unsigned o = 0; o <= top; o++)
		if (info.nr_free[o] != snap.nr_free[o])
			DIE("order %u: nr_free %u, the snapshot says %u", o, info.nr_free[o],
			    snap.nr_free[o]);
	for (unsigned c = 0; c < cfg.cpus; c++) {
		struct blab_pcp_info pi;
		uint32_t count = 0;
		for (unsigned w = 0; w < 2; w++)
			if (blab_pcp_info(z, c, w, &pi) == 0 && pi.present)
				count += pi.count;
		if (count != (snap.pcp_count ? pcp[c] : 0))
			DIE("cpu %u: %u pcp pages, the snapshot says %u", c, count,
			    snap.pcp_count ? pcp[c] : 0);
	}
	if (blab_check(z, why, sizeof(why)))
		DIE("blab_check: %s", why);
	if (info.free_pages + info.pcp_pages > info.pages)
		DIE("more free and pcp pages than the zone has");
	blab_zone_destroy(z);
	return 0;
}
