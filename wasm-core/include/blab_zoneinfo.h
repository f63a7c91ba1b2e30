/*
 * blab_zoneinfo.h - a real machine's /proc/zoneinfo, and the pcp sizes each kernel era would
 * give its zones (docs/modern-pcp.md, "Your own zoneinfo").
 *
 * The parser reads both formats: before 6.7 each CPU's pageset prints count, high and batch;
 * from 6.7 also high_min and high_max (and `high` is the value that moves between them).
 * Statistics lines ("nr_free_pages 1234", "vm stats threshold: 24", ...) are recognised by
 * their shape and skipped; a line of any other shape, a pageset cut short, a number out of
 * range or a file past the bounds is refused with its line and the reason. The report
 * computes, for every zone and every preset, batch / high / high_min / high_max from the
 * zone's managed pages, its low watermark and its node's CPUs, next to what the kernel
 * printed, and flags every difference.
 *
 *   struct blab_zoneinfo *zi;
 *   char err[160];
 *   if (blab_zoneinfo_parse(text, len, &zi, err, sizeof(err))) ... "line N: why" in err
 *   blab_zoneinfo_report(zi, 0, 0, buf, cap);   // text; 1: JSON
 *   blab_zoneinfo_free(zi);
 */
#ifndef BLAB_ZONEINFO_H
#define BLAB_ZONEINFO_H

#include <stddef.h>
#include <stdint.h>
#include "blab.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Bounds (docs/limits.md). */
#define BLAB_ZONEINFO_MAX_BYTES (4u << 20)   /* the whole file */
#define BLAB_ZONEINFO_MAX_LINE 4096u         /* bytes per line, newline excluded */
#define BLAB_ZONEINFO_MAX_ZONES 256u         /* nodes x zone types */
#define BLAB_ZONEINFO_MAX_CPUS 4096u         /* pagesets per zone, CPU numbers 0 .. 4095 */
#define BLAB_ZONEINFO_MAX_NODE 1023u
#define BLAB_ZONEINFO_MAX_NUMBER (1ull << 52) /* any count, watermark or pfn */

struct blab_zoneinfo_zone {
	uint32_t node;
	char name[16];          /* "DMA", "DMA32", "Normal", "Movable", ... */
	uint32_t line;          /* of its "Node N, zone NAME" line */
	uint64_t free, wmark_min, wmark_low, wmark_high; /* pages free, watermarks min/low/high */
	uint64_t spanned, present, managed, start_pfn;
	uint8_t has_managed;    /* older kernels print present only: managed := present */
	uint8_t has_start_pfn;
	/* the pagesets: how many CPUs printed one, and the first one's values (every CPU of a
	 * zone has the same batch, high_min and high_max, unless cpus_differ says otherwise) */
	uint32_t ncpus;
	uint32_t first_cpu;
	uint32_t batch, high, high_min, high_max;
	uint8_t has_high_min;   /* 6.7+: high_min and high_max printed */
	uint8_t cpus_differ;    /* some CPU's batch / high_min / high_max differ from the first's */
	uint32_t high_lo, high_hi; /* the printed high over all CPUs (6.7+: it moves) */
	uint64_t count;         /* pages on all its CPUs' lists */
};

struct blab_zoneinfo {
	uint32_t nzones;
	uint32_t nodes;         /* distinct node numbers */
	uint32_t cpus;          /* the most pagesets any zone printed: the online CPUs */
	uint8_t format_67;      /* some zone printed high_min / high_max */
	struct blab_zoneinfo_zone zone[BLAB_ZONEINFO_MAX_ZONES];
};

/* 0, or BLAB_EINVAL (NULL arguments), BLAB_ELIMIT (a bound) or BLAB_ESNAPSHOT (the text is
 * not a zoneinfo: a line of the wrong shape, a truncated zone), with "line N: why" in err;
 * BLAB_ENOMEMHOST. *out is set only on success. */
int blab_zoneinfo_parse(const char *text, size_t len, struct blab_zoneinfo **out, char *err,
			size_t errlen);
void blab_zoneinfo_free(struct blab_zoneinfo *zi);

/* The zone called `name` (on `node`, or the first of that name with node < 0): its index, or
 * -1. */
int blab_zoneinfo_find(const struct blab_zoneinfo *zi, int node, const char *name);

/* CPUs of a zone's node, zone_highsize()'s split: node_cpus when not 0, else the online
 * CPUs spread evenly over the nodes (exact with one node; an estimate with several) */
unsigned blab_zoneinfo_node_cpus(const struct blab_zoneinfo *zi, unsigned node_cpus);

/* s's batch, high and high_max (s's era) for zone index `zone`: what blab sim --zoneinfo
 * runs with. 0, or BLAB_EINVAL / BLAB_ESTRATEGY. */
int blab_zoneinfo_strategy(const struct blab_zoneinfo *zi, unsigned zone, unsigned node_cpus,
			   struct blab_strategy *s);

/* Every zone, every preset: the sizes computed and the kernel's, differences flagged; text or
 * (json = 1) one JSON object. Like snprintf: returns the length needed. */
size_t blab_zoneinfo_report(const struct blab_zoneinfo *zi, unsigned node_cpus, int json,
			    char *buf, size_t cap);

#ifdef __cplusplus
}
#endif
#endif
