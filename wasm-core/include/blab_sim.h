/*
 * blab_sim.h - workloads on the model machine: N virtual CPUs, one task each, run by a
 * scheduler that always steps the CPU with the lowest clock (docs/sim.md).
 */
#ifndef BLAB_SIM_H
#define BLAB_SIM_H

#include <stddef.h>
#include <stdint.h>
#include "blab.h"
#include "blab_hist.h"
#include "blab_latency.h"
#include "blab_slab.h"

#ifdef __cplusplus
extern "C" {
#endif

/* bounds (docs/limits.md) */
#define BLAB_SIM_MAX_CPUS 256u
#define BLAB_SIM_MAX_PAGES (1u << 20)          /* pages mapped per task */
#define BLAB_SIM_MAX_ITERATIONS 1000u
#define BLAB_SIM_MAX_MAPPED (1u << 22)         /* cpus * pages: the zone's size */
#define BLAB_SIM_MAX_WORK (1ull << 26)         /* cpus * pages * iterations page faults */
#define BLAB_SIM_PAGEVEC 15u                   /* PAGEVEC_SIZE - 1 pages per lru_lock */
#define BLAB_SIM_MAX_NODES 8u                  /* node_zones: one zone per socket, 1..8 */
#define BLAB_HACKBENCH_MAX_GROUPS 112u
#define BLAB_HACKBENCH_MAX_LOOPS 1000000u
#define BLAB_HACKBENCH_MAX_WORK (1ull << 24)  /* groups * loops messages */
#define BLAB_HACKBENCH_QUEUE 32u              /* messages a socket holds before the sender sleeps */

/* Workload ids; names and units come from the table in src/sim_workloads.c. */
enum blab_workload {
	BLAB_WL_PAGE_FAULT1 = 1,
	/* reserved for the workloads being added (each becomes valid with its table entry) */
	BLAB_WL_PARALLEL_FREE = 2,
	BLAB_WL_TRUNC = 3,
	BLAB_WL_HACKBENCH = 4,
	BLAB_WL_STRESS_HIGHALLOC = 5,
	BLAB_WL_MIXED = 6,
};

/* The workloads the model machine knows, by index 0 .. count-1 (name NULL past the end). */
uint32_t blab_sim_workload_count(void);
const char *blab_sim_workload_name(uint32_t index);
/* The id of the workload called name, or 0. */
uint32_t blab_sim_workload_id(const char *name);
/* What the workload's score counts (e.g. "pages/s"), or NULL for an unknown id. */
const char *blab_sim_workload_unit(uint32_t id);

struct blab_sim_config {
	uint32_t workload;   /* enum blab_workload */
	uint32_t cpus;       /* 1 .. BLAB_SIM_MAX_CPUS, and <= the model's CPUs */
	uint32_t pages;      /* pages each task maps per round (page_fault1: 32768 = 128 MB) */
	uint32_t iterations; /* rounds; the first is a warm-up when there are two or more */
	uint64_t seed;       /* the run's one PRNG (start jitter) */
	uint32_t clear_lines; /* frame lines clear_page() writes through the cache model: 1..64 */
	struct blab_strategy strategy;       /* batch/high 0: those of a 96 GB node */
	const struct model_params *model;    /* NULL: model_params_default() */
	/* stress_highalloc and mixed (docs/skipmerge.md) */
	uint32_t hi_order;   /* the high order wanted (default 9 = pageblock_order) */
	uint32_t delay_us;   /* stress_highalloc: virtual microseconds between attempts (1000) */
	uint32_t compact;    /* enum blab_sim_compact: what a failed attempt does (FULL) */
	/* L2 and LLC sizes divided by this (1..64, a power of two), so that a run with fewer
	 * --pages than will-it-scale's 32768 keeps the full run's footprint-to-cache ratio
	 * (docs/sim.md, "Scaled runs"); 0 or 1: the parameters' sizes */
	uint32_t cache_scale;
	/* sockets of the modelled machine (1..8, each cores_per_socket x threads_per_core);
	 * 0: the parameters' (2 by default: 112 CPUs) */
	uint32_t sockets;
	/* 1: one zone (and zone->lock) and one LRU list (and lru_lock) per socket, each task on
	 * its socket's, as a NUMA machine has them; page_fault1 and parallel_free only
	 * (docs/sim.md, "One zone per node"). 0: one zone and one LRU list for every CPU */
	uint8_t node_zones;
	/* 1: page_fault1's tasks run out of step, each at its own point of its loop, as
	 * will-it-scale's processes are minutes into a run: each cuts its second round at a page
	 * drawn from the run's PRNG and runs the rest after its scored rounds (iterations >= 3;
	 * docs/sim.md, "Tasks in step"). 0: every task's rounds in step */
	uint8_t out_of_step;
	uint8_t log_mask;                    /* event classes sent to sink */
	blab_event_sink sink;                /* NULL: no events at all */
	void *sink_ctx;
	/* Called every BLAB_SIM_PROGRESS_STEPS steps while the run goes, with the pages the
	 * workload has handled so far and will handle in all (both 0 when the workload cannot
	 * say). It only reads: a run gives the same result and events with or without it.
	 * NULL: never called. */
	void (*progress)(void *ctx, uint64_t done, uint64_t total);
	void *progress_ctx;
	/* NULL, or where the run counts the size of every rmqueue_bulk() refill and every drain
	 * per CPU (blab_hist.h); added to, never cleared, and only read by the caller */
	struct blab_hist *hist;
	/* NULL, or where the run counts how long each page allocation and free took, and each
	 * rmqueue_bulk() and free_pcppages_bulk() call (blab_latency.h): for at least cpus CPUs
	 * at the model's cpu_mhz. Added to, never cleared; it only reads the clocks, so a run
	 * gives the same result and events with it or without */
	struct blab_latency *latency;
	/* host bytes the run may take (blab_sim_mem_bytes()), checked before anything is
	 * allocated: BLAB_EHOSTMEM with the figures in err past it. 0 = blab_mem_limit_default():
	 * half the physical memory natively, what is left of the heap in WebAssembly */
	uint64_t mem_limit;
	/* Read every BLAB_SIM_PROGRESS_STEPS steps: once it is not 0 the run stops and returns
	 * BLAB_ECANCELED (the browser's Cancel stops a worker's run this way, at once, where
	 * terminating the worker takes Chromium seconds). It only reads; NULL: never read. */
	const volatile uint32_t *cancel;
	/* hackbench (docs/slab.md); cpus must be groups */
	struct blab_sim_hackbench {
		uint32_t groups;       /* sender/receiver pairs, one CPU each: 1..BLAB_HACKBENCH_MAX_GROUPS */
		uint32_t loops;        /* messages each sender sends: 1..BLAB_HACKBENCH_MAX_LOOPS */
		uint32_t object_size;  /* bytes of each message's slab object (the skb head) */
		uint32_t data_size;    /* 0, or bytes of a second object a message (the skb's data
					* buffer, from its own cache) */
		uint8_t same_cpu;      /* 1: a group's receiver runs on its sender's CPU (control) */
		uint8_t slub_prefetch; /* 1: prefetch_freepointer() after fast-path allocations */
	} hackbench;
};
void blab_sim_config_init(struct blab_sim_config *c);
#define BLAB_SIM_PROGRESS_STEPS 4096u
enum blab_sim_compact {
	BLAB_SIM_COMPACT_NONE = 0,  /* fail at once */
	BLAB_SIM_COMPACT_MERGE = 1, /* merge merge-skipped pages only */
	BLAB_SIM_COMPACT_FULL = 2,  /* merge, then migrate movable pages (the kernel's way) */
};
#define BLAB_SIM_MAX_DELAY_US 1000000u

/* What limits a run (blab_sim_result.binds) */
enum blab_sim_limit {
	BLAB_LIMIT_NONE = 0,      /* the CPUs' own work: no wait takes 10 % of their time */
	BLAB_LIMIT_ZONE_LOCK = 1, /* spinning on zone->lock */
	BLAB_LIMIT_LRU_LOCK = 2,  /* spinning on lru_lock */
	BLAB_LIMIT_MEMORY = 3,    /* waiting for the memory controllers (bandwidth) */
};
#define BLAB_SIM_BINDS_BP 1000u /* 10 % of all CPUs' cycles */
/* the limit's name: "none", "zone->lock", "lru_lock", "memory" ("?" past them) */
const char *blab_sim_limit_name(uint32_t limit);

struct blab_sim_result {
	uint64_t score;          /* the workload's score (blab_sim_workload_unit); page_fault1:
				  * pages faulted per second of virtual time, summed over tasks */
	uint64_t score_milli;    /* the score in thousandths, so that a score below 1 is not 0 */
	uint64_t pages_scored;   /* pages the score counts (page_fault1: outside the warm-up) */
	uint64_t pages_total;    /* pages the workload handled, all rounds */
	uint64_t cycles_max;     /* the run's virtual length (highest CPU clock) */
	uint64_t cycles_total;   /* all CPUs' cycles */
	/* zone->lock and lru_lock; with node_zones the sums over the nodes' locks */
	uint64_t zone_acq, zone_contended, zone_spin, zone_hold;
	uint64_t lru_acq, lru_spin, lru_hold;
	uint32_t zone_contention_bp, lru_contention_bp; /* spin / all cycles, 1/100 % */
	uint64_t misses_zone_locked; /* cache misses while holding zone->lock */
	/* zones the run had (node_zones: one per socket with a CPU, else 1), and per node the
	 * zone->lock and lru_lock acquisitions (node n: model lock ids 3n and 3n + 1) */
	uint32_t zones;
	uint64_t node_zone_acq[BLAB_SIM_MAX_NODES], node_lru_acq[BLAB_SIM_MAX_NODES];
	uint64_t prefetches, pf_hit, pf_late, pf_wasted;
	/* the sockets' memory controllers (docs/model.md, "Memory bandwidth"): the bytes they
	 * carried (lines filled from DRAM, clear_page()'s write-backs and reads for ownership),
	 * all sockets' as MB/s over the run's length; the busiest socket's share of what it can
	 * carry (1/100 %); the limit a socket carries (MB/s; 0: the run had none); and the cycles
	 * the CPUs waited on memory beyond its idle latency: reads (queueing) and clear_page()s
	 * (their write-backs), also as 1/100 % of all CPUs' cycles */
	uint64_t mem_bytes, mem_mbs, mem_limit_mbs;
	uint32_t mem_util_bp, mem_wait_bp;
	uint64_t mem_read_wait, mem_clear_wait;
	/* the limit that binds (enum blab_sim_limit): what the CPUs waited on longest, of
	 * zone->lock (spin), lru_lock (spin) and memory (mem_wait_bp), when that was at least
	 * BLAB_SIM_BINDS_BP of all their cycles; else none, the CPUs' own work */
	uint32_t binds;
	/* the pcp lists: rmqueue_bulk() refills and free_pcppages_bulk() runs at high, all CPUs
	 * together; the CPUs whose list was used (refilled, drained, or holding pages at the end),
	 * and of those the ones whose list was never drained at high / never refilled: a run where
	 * they are not 0 never took the path a change to the bulk free / the refill is about */
	uint64_t pcp_refills, pcp_bulk_frees;
	uint32_t pcp_cpus_used, pcp_cpus_undrained, pcp_cpus_unrefilled;
	uint32_t batch, high;    /* the pcp sizes the run used (6.7+: high is high_min) */
	uint32_t high_max;       /* 6.7+: the most high may grow to; 0 before */
	/* hackbench */
	uint64_t messages;                /* messages sent and received */
	uint64_t elapsed_cycles;          /* until the last message was read (the score's time) */
	struct blab_slab_stats slab;      /* the message (skb head) cache's counters */
	uint64_t slab_pf_hit, slab_pf_late, slab_pf_wasted; /* freelist prefetches (cache model) */
	/* high-order workloads: attempts, successes, their cycles (compaction included) */
	uint64_t hi_attempts, hi_success, hi_cycles;
	struct blab_compact_stats compact;
	uint32_t merge_skipped;  /* merge-skipped pages when the high-order phase began */
	/* fragmentation of the zone for hi_order when that phase began (thousandths) */
	int32_t unusable_index, extfrag_index;
	/* parallel_free: zone->lock and lru_lock spin in the last round's free half alone (from
	 * the barrier to each task's last free), 1/100 % of all CPUs' cycles in it; 0 otherwise */
	uint32_t free_zone_contention_bp, free_lru_contention_bp;
	/* page_fault1: zone->lock and lru_lock spin in the scored rounds alone (each task's
	 * cycles after its warm-up round), 1/100 % of those cycles; the whole run's with one
	 * round; 0 for the other workloads */
	uint32_t scored_zone_contention_bp, scored_lru_contention_bp;
	/* with config.latency (blab_latency.h): what the recorder holds after the run, in cycles
	 * of the modelled clock (cpu_mhz cycles a microsecond); each percentile the upper end of
	 * its range (blab_lat_pct.hi: exact below 8,192 cycles, within 1/128 above). Every
	 * allocation and every free, then each rmqueue_bulk() and free_pcppages_bulk() call. A
	 * recorder that was not fresh counts what came before too. All 0 without one; the
	 * counters above are the same with or without it (test_latency.c) */
	struct blab_sim_latency {
		uint64_t cpu_mhz;
		struct blab_sim_lat {
			uint64_t count, p50, p99, p99_9, max;
		} alloc, free, rmqueue_bulk, free_pcppages_bulk;
	} latency;
};

/* The host memory a run takes, computed from its config before anything is allocated:
 * its zones (mem_map, pagesets), the model machine (caches, directory) and the workload's
 * state (an upper bound). Event records go to the sink and are not counted. */
struct blab_sim_mem {
	uint64_t total, zones, machine, workload;
	uint64_t zone_pages; /* the zone's pages (with node_zones all nodes' zones together) */
};
/* 0 with *m filled, or the negative BLAB_E* code (and reason) blab_sim_run() would give
 * before it allocates. */
int blab_sim_mem_bytes(const struct blab_sim_config *c, struct blab_sim_mem *m, char *err,
		       size_t errlen);

/* 0, or a negative BLAB_E* code with a reason in err. */
int blab_sim_run(const struct blab_sim_config *c, struct blab_sim_result *r, char *err,
		 size_t errlen);

/*
 * One run as the browser asks for it: the arguments of blab_js_sim_run(), and one line of
 * `blab sim --points` (its key, web/engine/point.ts). A key names the workload's own fields:
 *   workload=page_fault1 preset=v4.16 cpus=56 pages=4096 iterations=2 seed=1 batch=0 high=0
 *     clear_lines=64 cache_scale=8
 *   workload=hackbench preset=v4.16 groups=4 loops=4000 slub_prefetch=1 same_cpu=0 seed=1
 *     batch=0 high=0 clear_lines=64 cache_scale=1
 * and, on a 6.7+ preset whose CONFIG_PCP_BATCH_SCALE_MAX is not the default, after them
 *   pcp_batch_scale_max=N (0..6)
 * and last, when the run counts each allocation's and free's latency (its record's lat*
 * counters; blab_sim_result.latency)
 *   latency=1
 * Native and WebAssembly turn a point into a run with the same function below, so the same
 * point gives the same counters in both.
 */
struct blab_sim_point {
	uint32_t workload;    /* enum blab_workload */
	/* every workload but hackbench: tasks (one CPU each), pages per task per round, rounds
	 * (stress_highalloc: the zone's fill and its attempts) */
	uint32_t cpus, pages, iterations;
	/* hackbench: groups (one CPU each), messages each sender sends, prefetch_freepointer()
	 * on (1) or off (0), each receiver on its sender's CPU (1: the control) */
	uint32_t groups, loops, slub_prefetch, same_cpu;
	uint64_t seed;
	char preset[32];
	uint32_t batch, high; /* pcp overrides; 0: the preset's */
	uint32_t clear_lines; /* frame lines clear_page() writes through the cache model; 0: 64 */
	uint32_t cache_scale; /* L2 and LLC divided by this (1..64, a power of two); 0: 1 */
	/* CONFIG_PCP_BATCH_SCALE_MAX + 1 (1..7), 6.7+ presets only; 0: the preset's own (5).
	 * The key names it, last, only when it is set: `pcp_batch_scale_max=N` */
	uint32_t pcp_batch_scale_max;
	/* 1: the run counts latencies (blab_sim_point_latency() makes its recorder); the key
	 * names it, last, only when set: `latency=1` */
	uint32_t latency;
	/* 1: a zone and an LRU list per node (config.node_zones), and page_fault1's tasks out of
	 * step (config.out_of_step), as the fidelity report runs seed 002's topology; the key
	 * names each, last, only when set: `node_zones=1`, `out_of_step=1` */
	uint32_t node_zones, out_of_step;
};
#define BLAB_SIM_POINT_KEY_MAX 256u /* a key's characters, NUL included */

/* The config a point runs, as `blab sim` would build it: more than 112 CPUs get 4 sockets (seed
 * 000's Skylake 4S), more than 224 get 8. 0, or BLAB_EINVAL with the reason in err. */
int blab_sim_point_config(const struct blab_sim_point *p, struct blab_sim_config *c, char *err,
			  size_t errlen);

/* A fresh latency recorder for the point's run in *out when its key asks for one (latency=1),
 * for c's CPUs on the clock c runs at; NULL when it does not ask. 0, or BLAB_ENOMEMHOST. */
int blab_sim_point_latency(const struct blab_sim_point *p, const struct blab_sim_config *c,
			   struct blab_latency **out);

/* The point's key (see above) into buf: its length, or the length it would need. */
int blab_sim_point_key(const struct blab_sim_point *p, char *buf, size_t n);

/* Reads a key back, every field of its workload in its order and range. 0, or BLAB_EINVAL
 * with err saying which field and why. */
int blab_sim_point_parse(const char *key, struct blab_sim_point *p, char *err, size_t errlen);

/*
 * A finished point as a record, one line of JSON: {"key":"KEY","stats":{"score":N,...}}\n with
 * every counter of BLAB_JS_SIM_STATS (blab_js.h) by the names the app reads them by, in that
 * order: what `blab sim --points` prints, its cache keeps and its shards carry, and what the
 * browser ships for the lessons' tables (web/engine/simstats.ts reads it). key is a point key
 * (blab_sim_point_key: nothing to escape). Writes at most n bytes with a NUL, like snprintf:
 * returns the length the whole record needs.
 */
int blab_sim_point_record(char *buf, size_t n, const char *key, const struct blab_sim_result *r);

/* 1 when rec[0..len) is exactly one record of key as blab_sim_point_record() writes them
 * (every counter in order, each a decimal int64, the newline), else 0: a damaged cache file,
 * a shard cut short or another point's record. */
int blab_sim_point_record_ok(const char *rec, size_t len, const char *key);

/*
 * A finished run's first line, in the workload's words (score, zone->lock contention, batch,
 * high), ending in '\n': what blab_js_sim_run() prints for the workbench's results card.
 * log_cut: the run's event log stopped at its bound. Writes at most n bytes with a NUL, like
 * snprintf: returns the length the whole text needs.
 */
int blab_sim_report(char *buf, size_t n, const struct blab_sim_config *c,
		    const struct blab_sim_result *r, int log_cut);

#ifdef __cplusplus
}
#endif
#endif
