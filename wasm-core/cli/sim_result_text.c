/* sim_result_text.c - a run's whole result as one line of text and back (sim_result_text.h) */
#include "sim_result_text.h"

#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blab_sim.h"

enum kind { U64, U32, I32 };

struct field {
	const char *name;
	size_t off;
	enum kind kind;
};

#define F(name, member, kind) {name, offsetof(struct blab_sim_result, member), kind}
#define N8(name, member)                                                                    \
	F(name ".0", member[0], U64), F(name ".1", member[1], U64), F(name ".2", member[2], U64), \
	F(name ".3", member[3], U64), F(name ".4", member[4], U64), F(name ".5", member[5], U64), \
	F(name ".6", member[6], U64), F(name ".7", member[7], U64)

/* every field of struct blab_sim_result (blab_sim.h), in its order */
static const struct field fields[] = {
	F("score", score, U64),
	F("score_milli", score_milli, U64),
	F("pages_scored", pages_scored, U64),
	F("pages_total", pages_total, U64),
	F("cycles_max", cycles_max, U64),
	F("cycles_total", cycles_total, U64),
	F("zone_acq", zone_acq, U64),
	F("zone_contended", zone_contended, U64),
	F("zone_spin", zone_spin, U64),
	F("zone_hold", zone_hold, U64),
	F("lru_acq", lru_acq, U64),
	F("lru_spin", lru_spin, U64),
	F("lru_hold", lru_hold, U64),
	F("zone_contention_bp", zone_contention_bp, U32),
	F("lru_contention_bp", lru_contention_bp, U32),
	F("misses_zone_locked", misses_zone_locked, U64),
	F("zones", zones, U32),
	N8("node_zone_acq", node_zone_acq),
	N8("node_lru_acq", node_lru_acq),
	F("prefetches", prefetches, U64),
	F("pf_hit", pf_hit, U64),
	F("pf_late", pf_late, U64),
	F("pf_wasted", pf_wasted, U64),
	F("batch", batch, U32),
	F("high", high, U32),
	F("pcp_refills", pcp_refills, U64),
	F("pcp_bulk_frees", pcp_bulk_frees, U64),
	F("pcp_cpus_used", pcp_cpus_used, U32),
	F("pcp_cpus_undrained", pcp_cpus_undrained, U32),
	F("pcp_cpus_unrefilled", pcp_cpus_unrefilled, U32),
	F("messages", messages, U64),
	F("elapsed_cycles", elapsed_cycles, U64),
	F("slab.alloc_fastpath", slab.alloc_fastpath, U64),
	F("slab.alloc_slowpath", slab.alloc_slowpath, U64),
	F("slab.alloc_refill", slab.alloc_refill, U64),
	F("slab.alloc_from_partial", slab.alloc_from_partial, U64),
	F("slab.alloc_slab", slab.alloc_slab, U64),
	F("slab.free_fastpath", slab.free_fastpath, U64),
	F("slab.free_slowpath", slab.free_slowpath, U64),
	F("slab.free_remote", slab.free_remote, U64),
	F("slab.free_frozen", slab.free_frozen, U64),
	F("slab.free_add_partial", slab.free_add_partial, U64),
	F("slab.free_remove_partial", slab.free_remove_partial, U64),
	F("slab.free_slab", slab.free_slab, U64),
	F("slab.deactivate", slab.deactivate, U64),
	F("slab.prefetch", slab.prefetch, U64),
	F("slab.cmpxchg_fail", slab.cmpxchg_fail, U64),
	F("slab_pf_hit", slab_pf_hit, U64),
	F("slab_pf_late", slab_pf_late, U64),
	F("slab_pf_wasted", slab_pf_wasted, U64),
	F("hi_attempts", hi_attempts, U64),
	F("hi_success", hi_success, U64),
	F("hi_cycles", hi_cycles, U64),
	F("compact.runs", compact.runs, U64),
	F("compact.successes", compact.successes, U64),
	F("compact.scanned", compact.scanned, U64),
	F("compact.merged", compact.merged, U64),
	F("compact.migrated", compact.migrated, U64),
	F("merge_skipped", merge_skipped, U32),
	F("unusable_index", unusable_index, I32),
	F("extfrag_index", extfrag_index, I32),
	F("free_zone_contention_bp", free_zone_contention_bp, U32),
	F("free_lru_contention_bp", free_lru_contention_bp, U32),
	F("scored_zone_contention_bp", scored_zone_contention_bp, U32),
	F("scored_lru_contention_bp", scored_lru_contention_bp, U32),
};
#define NFIELDS (sizeof(fields) / sizeof(fields[0]))

/* When this fails a field was added to (or taken from) struct blab_sim_result: list it above,
 * then set the size here; a field missed would come back as 0 from the cache or a shard. */
_Static_assert(sizeof(struct blab_sim_result) == 584, "struct blab_sim_result changed: update fields[]");
_Static_assert(BLAB_SIM_MAX_NODES == 8, "node_zone_acq and node_lru_acq are listed as 8 each");

int sim_result_write(char *buf, size_t n, const struct blab_sim_result *r)
{
	size_t at = 0;
	for (size_t i = 0; i < NFIELDS; i++) {
		const char *p = (const char *)r + fields[i].off;
		int k;
		if (fields[i].kind == U64) {
			uint64_t v;
			memcpy(&v, p, sizeof(v));
			k = snprintf(at < n ? buf + at : NULL, at < n ? n - at : 0, "%s%s=%" PRIu64, i ? " " : "",
				     fields[i].name, v);
		} else if (fields[i].kind == U32) {
			uint32_t v;
			memcpy(&v, p, sizeof(v));
			k = snprintf(at < n ? buf + at : NULL, at < n ? n - at : 0, "%s%s=%" PRIu32, i ? " " : "",
				     fields[i].name, v);
		} else {
			int32_t v;
			memcpy(&v, p, sizeof(v));
			k = snprintf(at < n ? buf + at : NULL, at < n ? n - at : 0, "%s%s=%" PRId32, i ? " " : "",
				     fields[i].name, v);
		}
		if (k < 0)
			return -1;
		at += (size_t)k;
	}
	return (int)at;
}

int sim_result_read(const char *s, struct blab_sim_result *r, char *err, size_t errlen)
{
	memset(r, 0, sizeof(*r));
	for (size_t i = 0; i < NFIELDS; i++) {
		size_t len = strlen(fields[i].name);
		char *end;
		char *p = (char *)r + fields[i].off;
		if (i && *s++ != ' ') {
			snprintf(err, errlen, "expected a space before %s", fields[i].name);
			return -1;
		}
		if (strncmp(s, fields[i].name, len) || s[len] != '=') {
			snprintf(err, errlen, "expected %s= at \"%.24s\"", fields[i].name, s);
			return -1;
		}
		s += len + 1;
		if (fields[i].kind == I32) {
			long long v = 0;
			int32_t w;
			end = (char *)s;
			if (*s == '-' || (*s >= '0' && *s <= '9'))
				v = strtoll(s, &end, 10);
			w = (int32_t)v;
			if (end == s || v < INT32_MIN || v > INT32_MAX) {
				snprintf(err, errlen, "%s: not a 32-bit integer", fields[i].name);
				return -1;
			}
			memcpy(p, &w, sizeof(w));
		} else {
			unsigned long long v = 0;
			if (*s >= '0' && *s <= '9') {
				errno = 0;
				v = strtoull(s, &end, 10);
			}
			if (*s < '0' || *s > '9' || errno == ERANGE || (fields[i].kind == U32 && v > UINT32_MAX)) {
				snprintf(err, errlen, "%s: not a %s number", fields[i].name,
					 fields[i].kind == U32 ? "32-bit" : "64-bit");
				return -1;
			}
			if (fields[i].kind == U32) {
				uint32_t w = (uint32_t)v;
				memcpy(p, &w, sizeof(w));
			} else {
				uint64_t w = v;
				memcpy(p, &w, sizeof(w));
			}
		}
		s = end;
	}
	if (*s && *s != '\n') {
		snprintf(err, errlen, "unexpected \"%.24s\" after the last field", s);
		return -1;
	}
	return 0;
}
