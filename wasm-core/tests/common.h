/* common.h - helpers shared by the unit tests */
#ifndef BLAB_TEST_COMMON_H
#define BLAB_TEST_COMMON_H
#include <string.h>
#include "harness.h"
#include "mm/mm.h"

/* FNV-1a over one 32-byte event record, the digest `blab sim --hash` prints: start from
 * FNV1A_OFFSET and fold in every record; equal digests mean equal event logs. */
#define FNV1A_OFFSET 0xcbf29ce484222325ull
static inline uint64_t fnv1a_event(uint64_t h, const struct blab_event *e)
{
	const unsigned char *b = (const unsigned char *)e;
	for (size_t i = 0; i < sizeof(*e); i++) {
		h ^= b[i];
		h *= 0x100000001b3ull;
	}
	return h;
}

static inline struct blab_zone *mkzone(const char *preset, uint32_t pages, uint64_t start,
				       unsigned cpus, unsigned top, unsigned pbo)
{
	struct blab_zone_config cfg;
	struct blab_zone *z = NULL;
	blab_zone_config_init(&cfg);
	if (preset && blab_preset(preset, &cfg.strategy))
		return NULL;
	cfg.pages = pages;
	cfg.start_pfn = start;
	cfg.cpus = (uint16_t)cpus;
	cfg.top_order = (uint8_t)top;
	cfg.pageblock_order = (uint8_t)pbo;
	if (blab_zone_create(&cfg, &z))
		return NULL;
	return z;
}

/* A zone without pcp lists (every page goes straight to the buddy lists), top_order 4 and
 * pageblock_order 3: small enough to follow page by page in merge and compaction tests. */
static inline struct blab_zone *mkzone_no_pcp(const char *preset, uint32_t pages)
{
	struct blab_zone_config cfg;
	struct blab_zone *z = NULL;
	blab_zone_config_init(&cfg);
	if (blab_preset(preset, &cfg.strategy))
		return NULL;
	cfg.strategy.pcp = BLAB_PCP_NONE;
	cfg.pages = pages;
	cfg.top_order = 4;
	cfg.pageblock_order = 3;
	if (blab_zone_create(&cfg, &z))
		return NULL;
	return z;
}

static inline int zone_ok(const struct blab_zone *z)
{
	char msg[256];
	int err = blab_check(z, msg, sizeof(msg));
	if (err)
		fprintf(stderr, "  check: %s\n", msg);
	return err == 0;
}

/* Lu RFC presets leave order-0 frees unmerged: merge every merge-skipped page, as
 * compaction's merge pass does, so a test can check that the zone came back whole. */
static inline void merge_skipped_all(struct blab_zone *z)
{
	z->compacting = 1;
	for (uint32_t i = 0; i < z->pages; i++) {
		struct page *p = zone_page(z, i);
		if (p->flags & PG_merge_skipped) {
			unsigned mt = p->mt;
			_blab_del_from_free_list(z, i, 0, BLAB_PATH_COMPACT);
			__free_one_page(z, 0, idx_to_pfn(z, i), 0, mt, BLAB_PATH_COMPACT);
		}
	}
	z->compacting = 0;
}
#endif
