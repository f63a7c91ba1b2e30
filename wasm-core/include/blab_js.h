/*
 * blab_js.h - what JavaScript and the core exchange for one run of a workload on the model
 * machine (wasm/api.c, blab_js_sim_run): the request, one struct of 32-bit fields and the
 * preset's name, and the result's counters, one signed 64-bit integer each. Both are X-macro
 * tables: api.c reads the request and fills the counters from them, and the generated
 * web/scenario/core-schema.ts (wasm-core/tools/blab_schema.c, `make schema`) gives the app the
 * same names and layout, so the two sides cannot drift (web/scenario/core-schema.test.ts).
 */
#ifndef BLAB_JS_H
#define BLAB_JS_H

#include <stdint.h>
#include "blab_sim.h"

/* X(field, jsName, what): the request, every field a uint32_t in this order */
#define BLAB_JS_SIM_REQUEST(X)                                                                \
	X(workload, workload, "the workload's id (blab_sim_workload_id)")                    \
	X(cpus, cpus, "tasks, one CPU each (not hackbench)")                                 \
	X(pages, pages, "pages each task maps per round (not hackbench)")                    \
	X(iterations, iterations, "rounds, or attempts (not hackbench)")                     \
	X(seed, seed, "the run's PRNG seed")                                                 \
	X(max_events, maxEvents, "records kept, then LOG_FULL; 0: no log, counters only")    \
	X(batch, batch, "pcp batch (0: the preset's, for a 96 GB node)")                     \
	X(high, high, "pcp high (0: the preset's)")                                          \
	X(clear_lines, clearLines, "frame lines clear_page() writes through the cache (0: 64)") \
	X(groups, groups, "hackbench: sender/receiver groups, one CPU each")                 \
	X(loops, loops, "hackbench: messages each sender sends")                             \
	X(slub_prefetch, slubPrefetch, "hackbench: 1 = prefetch_freepointer() on")           \
	X(same_cpu, sameCpu, "hackbench: 1 = receiver on its sender's CPU (the control)")  \
	X(cache_scale, cacheScale, "L2 and LLC divided by this, 1..64, a power of two (0: 1)") \
	X(high_max, highMax, "6.7+ pcp high_max (0: the preset's)")                           \
	X(histogram, histogram, "1 = count refill and drain sizes per CPU (blab_js_hist)")    \
	X(pcp_batch_scale_max, pcpBatchScaleMax,                                             \
	  "CONFIG_PCP_BATCH_SCALE_MAX + 1, 1..7, 6.7+ presets only (0: the preset's, 5)")     \
	X(latency, latency, "1 = count each allocation's and free's latency (blab_js_latency)") \
	X(node_zones, nodeZones, "1 = a zone and an LRU list per node (page_fault1, parallel_free)") \
	X(out_of_step, outOfStep, "1 = page_fault1's tasks out of step (iterations >= 3)")

#define BLAB_JS_PRESET_MAX 32u /* bytes of the preset's name, its NUL included */

struct blab_js_sim_request {
#define BLAB_X(field, js, what) uint32_t field;
	BLAB_JS_SIM_REQUEST(BLAB_X)
#undef BLAB_X
	char preset[BLAB_JS_PRESET_MAX];
};

/* X(jsName, expression over `const struct blab_sim_result *r`): the run's counters, in the
 * order of the int64 array blab_js_stats() points at */
#define BLAB_JS_SIM_STATS(X)                    \
	X(score, r->score)                      \
	X(pagesScored, r->pages_scored)         \
	X(pagesTotal, r->pages_total)           \
	X(cyclesMax, r->cycles_max)             \
	X(cyclesTotal, r->cycles_total)         \
	X(zoneAcq, r->zone_acq)                 \
	X(zoneContended, r->zone_contended)     \
	X(zoneSpin, r->zone_spin)               \
	X(zoneHold, r->zone_hold)               \
	X(lruAcq, r->lru_acq)                   \
	X(lruSpin, r->lru_spin)                 \
	X(zoneBp, r->zone_contention_bp)        \
	X(lruBp, r->lru_contention_bp)          \
	X(missesLocked, r->misses_zone_locked)  \
	X(prefetches, r->prefetches)            \
	X(pfHit, r->pf_hit)                     \
	X(pfLate, r->pf_late)                   \
	X(pfWasted, r->pf_wasted)               \
	X(batch, r->batch)                      \
	X(high, r->high)                        \
	X(highMax, r->high_max)                 \
	X(messages, r->messages)                \
	X(elapsed, r->elapsed_cycles)           \
	X(slabAllocFast, r->slab.alloc_fastpath) \
	X(slabAllocSlow, r->slab.alloc_slowpath) \
	X(slabFreeFast, r->slab.free_fastpath)  \
	X(slabFreeSlow, r->slab.free_slowpath)  \
	X(slabFreeRemote, r->slab.free_remote)  \
	X(slabPrefetch, r->slab.prefetch)       \
	X(slabPfHit, r->slab_pf_hit)            \
	X(slabPfLate, r->slab_pf_late)          \
	X(slabPfWasted, r->slab_pf_wasted)      \
	X(hiAttempts, r->hi_attempts)           \
	X(hiSuccess, r->hi_success)             \
	X(hiCycles, r->hi_cycles)               \
	X(hiCompactions, r->compact.runs)       \
	X(hiMerged, r->compact.merged)          \
	X(hiUnusable, r->unusable_index)         \
	X(pcpRefills, r->pcp_refills)           \
	X(pcpDrains, r->pcp_bulk_frees)         \
	X(pcpUsed, r->pcp_cpus_used)            \
	X(pcpUndrained, r->pcp_cpus_undrained)  \
	X(pcpUnrefilled, r->pcp_cpus_unrefilled) \
	X(scoredZoneBp, r->scored_zone_contention_bp) \
	X(scoredLruBp, r->scored_lru_contention_bp) \
	X(memMbs, r->mem_mbs)                   \
	X(memUtilBp, r->mem_util_bp)            \
	X(memWaitBp, r->mem_wait_bp)            \
	X(memLimitMbs, r->mem_limit_mbs)        \
	X(binds, r->binds)                      \
	BLAB_JS_SIM_LATENCY_STATS(X)

/* a run that counted latencies (request.latency, a point's latency=1; all 0 otherwise): the
 * modelled clock, then every allocation, every free, each rmqueue_bulk() ("refill") and each
 * free_pcppages_bulk() ("drain") call: how many, p50, p99, p99.9 (each its range's upper end)
 * and the longest, in cycles (blab_sim_result.latency) */
#define BLAB_JS_SIM_LATENCY_STATS(X)                    \
	X(latCpuMhz, r->latency.cpu_mhz)                \
	X(latAllocCount, r->latency.alloc.count)        \
	X(latAllocP50, r->latency.alloc.p50)            \
	X(latAllocP99, r->latency.alloc.p99)            \
	X(latAllocP999, r->latency.alloc.p99_9)         \
	X(latAllocMax, r->latency.alloc.max)            \
	X(latFreeCount, r->latency.free.count)          \
	X(latFreeP50, r->latency.free.p50)              \
	X(latFreeP99, r->latency.free.p99)              \
	X(latFreeP999, r->latency.free.p99_9)           \
	X(latFreeMax, r->latency.free.max)              \
	X(latRefillCount, r->latency.rmqueue_bulk.count) \
	X(latRefillP50, r->latency.rmqueue_bulk.p50)    \
	X(latRefillP99, r->latency.rmqueue_bulk.p99)    \
	X(latRefillP999, r->latency.rmqueue_bulk.p99_9) \
	X(latRefillMax, r->latency.rmqueue_bulk.max)    \
	X(latDrainCount, r->latency.free_pcppages_bulk.count) \
	X(latDrainP50, r->latency.free_pcppages_bulk.p50) \
	X(latDrainP99, r->latency.free_pcppages_bulk.p99) \
	X(latDrainP999, r->latency.free_pcppages_bulk.p99_9) \
	X(latDrainMax, r->latency.free_pcppages_bulk.max)

enum {
#define BLAB_X(js, expr) BLAB_JS_STAT_##js,
	BLAB_JS_SIM_STATS(BLAB_X)
#undef BLAB_X
	BLAB_JS_NSTATS
};

#endif
