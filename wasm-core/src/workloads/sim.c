/*
 * sim.c - the simulation loop of the model machine: one task per virtual CPU, always one
 * step of the CPU whose clock is lowest (ties: the lower CPU number). A step runs until the
 * task is about to take a lock (BLAB_STEP_LOCK from an op, or lru_lock in the workload), so
 * every lock is taken at its arrival time, in arrival order. docs/sim.md explains it.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blab_sim.h"
#include "mm/mm.h"
#include "machine/machine.h"
#include "sim.h"
#include "workload_common.h"

void blab_sim_config_init(struct blab_sim_config *c)
{
	if (!c)
		return;
	memset(c, 0, sizeof(*c));
	c->workload = BLAB_WL_PAGE_FAULT1;
	c->cpus = 1;
	c->pages = 32768;
	c->iterations = 2;
	c->seed = 1;
	c->clear_lines = 64;
	c->hi_order = 9;
	c->delay_us = 1000;
	c->compact = BLAB_SIM_COMPACT_FULL;
	blab_preset(BLAB_DEFAULT_PRESET, &c->strategy);
	c->hackbench.groups = 4;
	c->hackbench.loops = 1000;
	c->hackbench.object_size = 256;
	/* a message is an skb as __alloc_skb() makes it in 3.x: a head and a kmalloc'd data
	 * buffer (100 bytes and struct skb_shared_info, rounded up to 512), as seed 003's
	 * hackbench sends them (docs/slab.md) */
	c->hackbench.data_size = 512;
}

int sim_out_of_host_memory(char *err, size_t errlen)
{
	if (err && errlen)
		snprintf(err, errlen, "out of host memory");
	return BLAB_ENOMEMHOST;
}

/* Per-CPU pages batch and high as a 96 GB node with 56 CPUs would have them: the model's
 * zone is only as large as the workload needs, and zone_batchsize() of that would be tiny.
 * The machine has NODES such nodes (2 sockets of seeds 000 / 004): min_free_kbytes is
 * computed from all of the machine's memory and then shared among the zones by size, so a
 * node's zone gets 1/NODES of it (__setup_per_zone_wmarks()). */
#define NODE_PAGES (96ull << 18)
#define NODE_CPUS 56u
#define NODES 2u

void sim_node_pcp_sizes(struct blab_strategy *s)
{
	struct blab_pcp_sizes sz;
	uint32_t min = blab_min_free_kbytes(NODE_PAGES * NODES) / NODES / 4;
	uint32_t gap = (uint32_t)(NODE_PAGES * 10 / 10000);

	if (min / 4 > gap)
		gap = min / 4;
	if (blab_pcp_sizes(s, NODE_PAGES, min + gap, NODE_CPUS, &sz))
		return; /* a bad strategy: zone creation refuses it */
	if (!s->batch)
		s->batch = blab_zone_batchsize(NODE_PAGES, s->batch_era);
	if (!s->high && s->high_mode != BLAB_HIGH_6BATCH)
		s->high = sz.high;
	if (!s->high_max && s->high_mode == BLAB_HIGH_AUTO)
		s->high_max = sz.high_max;
}

/* Pages a zone needs for `tasks` of the workload's tasks: their pages, plus what can sit on
 * their pcp lists, rounded up to a MAX_ORDER block. A 6.7+ list may grow to high_max, but
 * only with pages its task freed (already counted) and what its last refill left: at most
 * batch << CONFIG_PCP_BATCH_SCALE_MAX more than the old lists, so the zone stays small. */
static uint64_t sim_zone_size(const struct sim_workload *wl, const struct blab_sim_config *c,
			      uint32_t tasks, const struct blab_strategy *s)
{
	struct blab_sim_config cn = *c;
	uint64_t pages, room = s->high + 2u * s->batch + 64u;

	if (s->high_mode == BLAB_HIGH_AUTO)
		room += (uint64_t)s->batch << s->pcp_batch_scale_max;
	cn.cpus = tasks;
	pages = wl->zone_pages(&cn) + (uint64_t)tasks * room + 4096u;
	return (pages + 1023u) & ~1023ull;
}

_Static_assert(BLAB_SIM_MAX_NODES == MODEL_MAX_NODES, "a node per socket: both bounds agree");

/* ZONE_NORMAL starts at 4 GB, above the DMA32 zone; with node_zones node n's zone follows
 * node n-1's (the nodes' pfns are disjoint, as on a NUMA machine) */
#define SIM_FIRST_PFN 0x100000u

/*
 * node_zones: one model machine (caches, clocks, scheduler, a lock table with each node's
 * zone->lock and lru_lock) and on it one zone per socket that has CPUs, sized for that
 * socket's tasks. run->c and run->mp must be set; zc is the zone template (its pages and
 * start_pfn are each node's). Sets run->mm, run->z (node 0's zone), run->nodes,
 * run->node_zone[] and run->cpu_node[]; *own is the machine, for the caller to free after
 * destroying the zones (also when this fails half-way).
 */
/* node_zones: each node's zone size (0 for a node without CPUs: nobody allocates from it);
 * returns their sum */
static uint64_t node_zone_pages(const struct sim_workload *wl, const struct blab_sim_config *c,
				const struct model_params *mp, const struct blab_strategy *s,
				uint64_t pages[BLAB_SIM_MAX_NODES])
{
	uint32_t tasks[BLAB_SIM_MAX_NODES] = {0};
	uint64_t total = 0;

	for (uint32_t cpu = 0; cpu < c->cpus; cpu++)
		tasks[model_cpu_socket(mp, cpu)]++;
	for (uint32_t n = 0; n < BLAB_SIM_MAX_NODES; n++) {
		pages[n] = tasks[n] ? sim_zone_size(wl, c, tasks[n], s) : 0;
		total += pages[n];
	}
	return total;
}

static int create_node_zones(struct sim_run *run, const struct sim_workload *wl,
			     struct blab_zone_config *zc, struct model_machine **own, char *err,
			     size_t errlen)
{
	const struct blab_sim_config *c = run->c;
	uint64_t pages[BLAB_SIM_MAX_NODES], total, pfn = SIM_FIRST_PFN;
	struct model_machine *mm;
	int ret;

	run->nodes = run->mp->sockets;
	for (uint32_t cpu = 0; cpu < c->cpus; cpu++)
		run->cpu_node[cpu] = (uint8_t)model_cpu_socket(run->mp, cpu);
	total = node_zone_pages(wl, c, run->mp, &zc->strategy, pages); /* sim_mem(): bounded */
	*own = mm = malloc(sizeof(*mm));
	if (!mm || model_machine_init_at(mm, run->mp, c->cpus, SIM_FIRST_PFN, total, 0,
					 run->nodes * MODEL_NODE_LOCKS)) {
		free(mm);
		*own = NULL;
		return sim_out_of_host_memory(err, errlen);
	}
	cache_set_frames(&mm->cache, SIM_FIRST_PFN, total);
	run->mm = mm;
	for (uint32_t n = 0; n < run->nodes; n++) {
		if (!pages[n])
			continue;
		zc->pages = (uint32_t)pages[n];
		zc->start_pfn = pfn;
		ret = _blab_zone_create_on(zc, mm, n, &run->node_zone[n]);
		if (ret) {
			if (err && errlen)
				snprintf(err, errlen, "cannot create node %u's zone: %s", n,
					 blab_strerror(ret));
			return ret;
		}
		pfn += pages[n];
	}
	run->z = run->node_zone[0]; /* CPU 0 sits on socket 0 */
	return 0;
}

static void emit_wasted(void *ctx, const struct cache_wasted *w)
{
	struct blab_zone *z = ctx;
	EMIT(z, BLAB_EVC_CACHE, BLAB_EV_PREFETCH_WASTED, line_event_pfn(w->vaddr), 0, w->cpu, 0,
	     w->path, line_event_flags(w->vaddr), 0, 0);
}

static void report_progress(const struct sim_run *run, const struct sim_workload *wl)
{
	uint64_t done = 0, total = 0;

	if (wl->progress)
		wl->progress(run, &done, &total);
	run->c->progress(run->c->progress_ctx, done, total);
}

/*
 * The checks every run passes before anything is allocated: the workload, the machine (the
 * parameters with cache_scale and sockets applied, into *mp) and the bounds. 0, or a
 * negative BLAB_E* code with the reason in err.
 */
static int sim_check(const struct blab_sim_config *c, const struct sim_workload **wlp,
		     struct model_params *mp, char *err, size_t errlen)
{
	const struct sim_workload *wl;
	int ret;
#define FAIL(code, ...)                                                                    \
	do {                                                                               \
		if (err && errlen)                                                         \
			snprintf(err, errlen, __VA_ARGS__);                                \
		return (code);                                                             \
	} while (0)
	*wlp = wl = sim_workload_get(c->workload);
	if (!wl)
		FAIL(BLAB_EINVAL, "unknown workload %u", c->workload);
	if (c->node_zones > 1)
		FAIL(BLAB_EINVAL, "node_zones must be 0 or 1");
	if (c->out_of_step > 1)
		FAIL(BLAB_EINVAL, "out_of_step must be 0 or 1");
	if (c->out_of_step && (c->workload != BLAB_WL_PAGE_FAULT1 || c->iterations < 3))
		FAIL(BLAB_EINVAL, "out_of_step: page_fault1 with 3 or more rounds only (the "
				  "warm-up, the round each task cuts at its own page, and a scored one)");
	if (c->node_zones && !wl->node_zones)
		FAIL(BLAB_EINVAL, "node_zones: %s runs on one zone only: %s", wl->name,
		     wl->one_zone_why ? wl->one_zone_why : "not split per node");
	if (c->model)
		*mp = *c->model;
	else
		model_params_default(mp);
	if (c->cache_scale > 1) {
		if (c->cache_scale > 64 || (c->cache_scale & (c->cache_scale - 1)))
			FAIL(BLAB_EINVAL, "cache_scale must be 1..64, a power of two");
		mp->l2_bytes /= c->cache_scale;
		mp->llc_bytes_per_core /= c->cache_scale;
	}
	if (c->sockets) {
		if (c->sockets > 8)
			FAIL(BLAB_EINVAL, "sockets must be 1..8");
		mp->sockets = c->sockets;
	}
	{
		char why[120];
		if (model_params_check(mp, why, sizeof(why)))
			FAIL(BLAB_EINVAL, "model parameters: %s", why);
	}
	if (c->cpus < 1 || c->cpus > BLAB_SIM_MAX_CPUS)
		FAIL(BLAB_ECPU, "cpus must be 1..%u", BLAB_SIM_MAX_CPUS);
	if (c->cpus > model_cpus_max(mp))
		FAIL(BLAB_ECPU, "%u cpus, but the modelled machine has %u", c->cpus,
		     model_cpus_max(mp));
	if (c->pages < 1 || c->pages > BLAB_SIM_MAX_PAGES)
		FAIL(BLAB_ELIMIT, "pages must be 1..%u", BLAB_SIM_MAX_PAGES);
	if (c->iterations < 1 || c->iterations > BLAB_SIM_MAX_ITERATIONS)
		FAIL(BLAB_ELIMIT, "iterations must be 1..%u", BLAB_SIM_MAX_ITERATIONS);
	if ((uint64_t)c->cpus * c->pages > BLAB_SIM_MAX_MAPPED)
		FAIL(BLAB_ELIMIT, "cpus x pages = %llu is over %u",
		     (unsigned long long)c->cpus * c->pages, BLAB_SIM_MAX_MAPPED);
	if ((uint64_t)c->cpus * c->pages * c->iterations > BLAB_SIM_MAX_WORK)
		FAIL(BLAB_ELIMIT, "cpus x pages x iterations = %llu is over %llu",
		     (unsigned long long)c->cpus * c->pages * c->iterations,
		     (unsigned long long)BLAB_SIM_MAX_WORK);
	if (c->clear_lines < 1 || c->clear_lines > 64)
		FAIL(BLAB_EINVAL, "clear_lines must be 1..64");
	/* its nanoseconds are the modelled clock's */
	if (c->latency && (blab_latency_cpus(c->latency) < c->cpus ||
			   blab_latency_cpu_mhz(c->latency) != mp->cpu_mhz))
		FAIL(BLAB_EINVAL, "latency: the recorder is for %u CPUs at %u MHz; the run has %u "
				  "CPUs at %u MHz",
		     blab_latency_cpus(c->latency), blab_latency_cpu_mhz(c->latency), c->cpus,
		     mp->cpu_mhz);
	if (wl->check && (ret = wl->check(c, err, errlen)) != 0)
		return ret;
	return 0;
#undef FAIL
}

/* Workload state beyond the zones and the machine, per zone page: the LRU list's two links
 * (8 bytes), the tasks' mappings (4), the high-order workloads' owner of each page (4) and
 * the slab layer's slab of each page (4); per CPU its task; per round parallel_free's two
 * counters; hackbench: each slab object's free pointer and state byte, as if every page of
 * its zone were a slab of the smallest objects. An upper bound (test_hostmem measures it). */
#define SIM_WL_BYTES_PER_PAGE 24u
#define SIM_WL_BYTES_PER_CPU 1024u
#define SIM_WL_BYTES_FIXED (64u << 10)

static int sim_mem(const struct blab_sim_config *c, const struct sim_workload *wl,
		   const struct model_params *mp, struct blab_sim_mem *m, char *err,
		   size_t errlen)
{
	struct blab_zone_config zc;
	uint64_t pages[BLAB_SIM_MAX_NODES], total;

	memset(m, 0, sizeof(*m));
	blab_zone_config_init(&zc);
	zc.strategy = c->strategy;
	sim_node_pcp_sizes(&zc.strategy);
	zc.cpus = (uint16_t)c->cpus;
	zc.log_capacity = 0;
	zc.machine = BLAB_MACHINE_PLAIN; /* the zone's own arrays; the machine below */
	if (c->node_zones) {
		total = node_zone_pages(wl, c, mp, &zc.strategy, pages);
	} else {
		total = pages[0] = sim_zone_size(wl, c, c->cpus, &zc.strategy);
		for (uint32_t n = 1; n < BLAB_SIM_MAX_NODES; n++)
			pages[n] = 0;
	}
	if (total > BLAB_MAX_PAGES) {
		if (err && errlen)
			snprintf(err, errlen, c->node_zones ? "the zones would need %llu pages"
							    : "the zone would need %llu pages",
				 (unsigned long long)total);
		return BLAB_ELIMIT;
	}
	for (uint32_t n = 0; n < BLAB_SIM_MAX_NODES; n++)
		if (pages[n]) {
			zc.pages = (uint32_t)pages[n];
			zc.start_pfn = SIM_FIRST_PFN;
			m->zones += blab_zone_mem_bytes(&zc);
		}
	m->machine = model_machine_mem_bytes(mp, c->cpus, total, 0);
	m->workload = total * SIM_WL_BYTES_PER_PAGE + (uint64_t)c->cpus * SIM_WL_BYTES_PER_CPU +
		      (uint64_t)c->iterations * 16u + SIM_WL_BYTES_FIXED;
	if (c->workload == BLAB_WL_HACKBENCH) {
		uint32_t size = c->hackbench.object_size ? c->hackbench.object_size : 1;
		m->workload += total * (4096u / size + 1u) * 3u;
		if (c->hackbench.data_size)
			m->workload += total * (4096u / c->hackbench.data_size + 1u) * 3u;
	}
	m->total = m->zones + m->machine + m->workload;
	m->zone_pages = total;
	return 0;
}

int blab_sim_mem_bytes(const struct blab_sim_config *c, struct blab_sim_mem *m, char *err,
		       size_t errlen)
{
	const struct sim_workload *wl;
	struct model_params mp;
	int ret;

	if (err && errlen)
		err[0] = 0;
	if (!c || !m)
		return BLAB_EINVAL;
	memset(m, 0, sizeof(*m));
	ret = sim_check(c, &wl, &mp, err, errlen);
	return ret ? ret : sim_mem(c, wl, &mp, m, err, errlen);
}

const char *blab_sim_limit_name(uint32_t limit)
{
	static const char *const names[] = {"none", "zone->lock", "lru_lock", "memory"};
	return limit < sizeof(names) / sizeof(names[0]) ? names[limit] : "?";
}

/* the wait the CPUs spent most of their time in, if it took BLAB_SIM_BINDS_BP of it (a tie
 * goes to the one listed first) */
static uint32_t sim_binds(const struct blab_sim_result *r)
{
	const uint32_t share[] = {0, r->zone_contention_bp, r->lru_contention_bp, r->mem_wait_bp};
	uint32_t best = BLAB_LIMIT_NONE;
	for (uint32_t k = BLAB_LIMIT_ZONE_LOCK; k <= BLAB_LIMIT_MEMORY; k++)
		if (share[k] >= BLAB_SIM_BINDS_BP && share[k] > share[best])
			best = k;
	return best;
}

/* The memory controllers' traffic and waits into the result (blab_sim.h) */
static void sim_mem_result(const struct model_machine *mm, struct blab_sim_result *r)
{
	struct mem_ctl_counters mc;
	uint64_t busiest, mhz = mm->p.cpu_mhz;
	cache_mem_total(&mm->cache, &mc, &busiest);
	r->mem_bytes = (mc.read_lines + mc.wb_lines + mc.rfo_lines) * 64u;
	r->mem_limit_mbs = model_mem_limit_mbs(&mm->p);
	r->mem_read_wait = mc.queue_cycles;
	r->mem_clear_wait = mc.stall_cycles;
	r->mem_wait_bp = lock_spin_bp(mc.queue_cycles + mc.stall_cycles, r->cycles_total);
	r->binds = sim_binds(r);
	if (!r->cycles_max)
		return;
	/* bytes a cycle x cycles a microsecond = MB/s */
	r->mem_mbs = (uint64_t)((unsigned __int128)r->mem_bytes * mhz / r->cycles_max);
	if (r->mem_limit_mbs) {
		/* over the run, or over as long as the controller took to carry what the run
		 * booked (write-backs nobody waited for may end after the last CPU) */
		uint64_t span = mc.end > r->cycles_max ? mc.end : r->cycles_max;
		uint64_t mbs = (uint64_t)((unsigned __int128)busiest * mhz / span);
		uint64_t bp = (uint64_t)((unsigned __int128)mbs * 10000u / r->mem_limit_mbs);
		r->mem_util_bp = bp > 0xffffffffu ? 0xffffffffu : (uint32_t)bp;
	}
}

/* the reason in err (when there is room for one), and the code to return */
static int failed(char *err, size_t errlen, int code, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int failed(char *err, size_t errlen, int code, const char *fmt, ...)
{
	va_list ap;

	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return code;
}

/*
 * The run's zones on one model machine, each in zones[] (*nz of them) as soon as it exists,
 * so that a failure half-way leaves nothing the caller cannot destroy: the one zone, sized
 * zone_pages, on the machine it makes; or with node_zones a zone per node with CPUs on a
 * machine of the run's own (*own, freed by the caller after the zones).
 */
static int sim_create_zones(struct sim_run *run, const struct sim_workload *wl,
			    uint64_t zone_pages, struct blab_zone **zones, uint32_t *nz,
			    struct model_machine **own, char *err, size_t errlen)
{
	const struct blab_sim_config *c = run->c;
	struct blab_zone_config zc;
	struct blab_zone *z = NULL;
	int ret;

	blab_zone_config_init(&zc);
	zc.strategy = c->strategy;
	sim_node_pcp_sizes(&zc.strategy);
	zc.cpus = (uint16_t)c->cpus;
	zc.machine = BLAB_MACHINE_MODEL;
	zc.mem_limit = UINT64_MAX; /* the run's whole memory was checked before */
	zc.model = run->mp;
	zc.log_mask = c->sink ? c->log_mask : 0;
	zc.log_capacity = 0;
	zc.sink = c->sink; /* from ZONE_INIT on, so the log replays from nothing */
	zc.sink_ctx = c->sink_ctx;
	if (c->node_zones) {
		ret = create_node_zones(run, wl, &zc, own, err, errlen);
		for (uint32_t n = 0; n < run->nodes; n++)
			if (run->node_zone[n])
				zones[(*nz)++] = run->node_zone[n];
		return ret;
	}
	/* room for every task's pages, plus what can sit on the pcp lists */
	zc.pages = (uint32_t)zone_pages; /* within BLAB_MAX_PAGES: sim_mem() checked it */
	zc.start_pfn = SIM_FIRST_PFN;
	ret = blab_zone_create(&zc, &z);
	if (ret)
		return failed(err, errlen, ret, "cannot create the zone: %s", blab_strerror(ret));
	zones[(*nz)++] = z;
	run->z = z;
	run->mm = mach_model(&z->machine);
	return 0;
}

/* tasks start a little apart, as processes forked one after another do */
static void sim_start_clocks(struct sim_run *run)
{
	struct model_machine *mm = run->mm;

	blab_rng_seed(&run->rng, run->c->seed);
	for (uint32_t cpu = 0; cpu < run->c->cpus; cpu++) {
		mm->now[cpu] = blab_rng_below(&run->rng, 1000);
		sched_set_clock(&mm->sched, cpu, mm->now[cpu]);
	}
}

/* The loop: one step of the CPU with the lowest clock (the vmstat worker's, when it is due,
 * else its task's) until every task has finished. */
static int sim_loop(struct sim_run *run, const struct sim_workload *wl, struct sim_vmstat *vm,
		    char *err, size_t errlen)
{
	const struct blab_sim_config *c = run->c;
	struct model_machine *mm = run->mm;
	uint64_t steps = 0;

	for (uint32_t cpu = sched_peek(&mm->sched); cpu != MODEL_NO_CPU;
	     cpu = sched_peek(&mm->sched)) {
		int s;
		if ((c->progress || c->cancel) && !(++steps % BLAB_SIM_PROGRESS_STEPS)) {
			if (c->progress)
				report_progress(run, wl);
			if (c->cancel && *c->cancel)
				return failed(err, errlen, BLAB_ECANCELED, "cancelled");
		}
		s = vm ? sim_vmstat_step(vm, run, cpu) : 0;
		s = s == 0 ? wl->step(run, cpu) : s > 0 ? SIM_STEP : s;
		if (s < 0)
			return failed(err, errlen, s, "cpu %u: %s", cpu, blab_strerror(s));
		if (sim_cpu_zone(run, cpu)->machine.parked)
			return failed(err, errlen, BLAB_EINVAL,
				      "cpu %u parked on a lock (a step stopped holding one)", cpu);
		if (s == SIM_FINISHED)
			sched_finish(&mm->sched, cpu);
		else
			model_step_end(mm, cpu);
	}
	return 0;
}

/* after the run: every page back in its own zone, each zone and the machine consistent */
static int sim_check_after(const struct sim_run *run, struct blab_zone *const *zones,
			   uint32_t nz, char *err, size_t errlen)
{
	struct model_machine *mm = run->mm;
	char why[200];

	for (uint32_t i = 0; i < nz; i++) {
		const struct blab_zone *zi = zones[i];
		if (zi->free_pages + zi->pcp_pages != zi->pages)
			return failed(err, errlen, BLAB_ECHECK,
				      "%u pages missing from node %u's zone after the run",
				      zi->pages - zi->free_pages - zi->pcp_pages, zi->node);
		if (blab_check(zi, why, sizeof(why)))
			return failed(err, errlen, BLAB_ECHECK,
				      "invariant violated after the run: node %u's zone: %s", zi->node,
				      why);
	}
	if (lock_check(&mm->locks, why, sizeof(why)) ||
	    sched_check(&mm->sched, why, sizeof(why)) || cache_check(&mm->cache, why, sizeof(why)))
		return failed(err, errlen, BLAB_ECHECK, "invariant violated after the run: %s", why);
	return 0;
}

/* each CPU's pcp lists, in the zone it ran on: refills, bulk frees, and the lists that never
 * took one of those paths */
static void sim_pcp_counters(const struct sim_run *run, struct blab_sim_result *r)
{
	for (uint32_t cpu = 0; cpu < run->c->cpus; cpu++) {
		const struct blab_zone *cz = sim_cpu_zone(run, cpu);
		const struct per_cpu_pageset *ps = &cz->pageset[cpu];
		if (cz->s.pcp == BLAB_PCP_NONE)
			continue;
		r->pcp_refills += ps->refills;
		r->pcp_bulk_frees += ps->bulk_frees;
		if (!ps->refills && !ps->bulk_frees && !ps->pcp[0].count && !ps->pcp[1].count)
			continue;
		r->pcp_cpus_used++;
		r->pcp_cpus_undrained += !ps->bulk_frees;
		r->pcp_cpus_unrefilled += !ps->refills;
	}
}

/* the machine's clocks, locks and prefetches; with node_zones each node's zone->lock and
 * lru_lock, summed */
static void sim_machine_counters(const struct sim_run *run, struct blab_zone *const *zones,
				 uint32_t nz, struct blab_sim_result *r)
{
	struct model_machine *mm = run->mm;
	uint64_t zspin = 0, lspin = 0;
	struct cache_counters cc;

	r->cycles_max = sched_max_clock(&mm->sched);
	r->cycles_total = model_machine_cycles(mm);
	r->zones = nz;
	for (uint32_t i = 0; i < nz; i++) {
		unsigned n = zones[i]->node, base = n * MODEL_NODE_LOCKS;
		const struct lock_counters *zl = &mm->locks.lock[base + LOCK_ZONE].c;
		const struct lock_counters *ll = &mm->locks.lock[base + LOCK_LRU].c;
		r->zone_acq += zl->acquisitions;
		r->zone_contended += zl->contended;
		r->zone_spin += zl->spin_cycles;
		r->zone_hold += zl->hold_cycles;
		r->lru_acq += ll->acquisitions;
		r->lru_spin += ll->spin_cycles;
		r->lru_hold += ll->hold_cycles;
		r->node_zone_acq[n] = zl->acquisitions;
		r->node_lru_acq[n] = ll->acquisitions;
		r->misses_zone_locked += zones[i]->machine.misses_zone_locked;
		zspin += zl->spin_cycles;
		lspin += ll->spin_cycles;
	}
	r->zone_contention_bp = lock_spin_bp(zspin, r->cycles_total);
	r->lru_contention_bp = lock_spin_bp(lspin, r->cycles_total);
	cache_total(&mm->cache, &cc);
	r->prefetches = cc.prefetches;
	r->pf_hit = cc.access[CACHE_PF_HIT];
	r->pf_late = cc.access[CACHE_PF_LATE];
	r->pf_wasted = cc.pf_wasted;
	sim_mem_result(mm, r);
}

/* with a latency recorder, what it holds: every allocation, every free, each bulk call */
static void sim_latency_counters(const struct blab_latency *l, struct blab_sim_result *r)
{
	static const uint32_t masks[4] = {
		BLAB_LAT_MASK_ALLOC, BLAB_LAT_MASK_FREE, BLAB_LAT_MASK(BLAB_LAT_RMQUEUE_BULK),
		BLAB_LAT_MASK(BLAB_LAT_FREE_PCPPAGES_BULK)};
	struct blab_sim_lat *out[4] = {&r->latency.alloc, &r->latency.free,
				       &r->latency.rmqueue_bulk, &r->latency.free_pcppages_bulk};

	if (!l)
		return;
	r->latency.cpu_mhz = blab_latency_cpu_mhz(l);
	for (unsigned i = 0; i < 4; i++) {
		struct blab_lat_summary sm;
		if (blab_latency_summary(l, masks[i], BLAB_LAT_TOTAL, &sm))
			continue;
		out[i]->count = sm.count;
		out[i]->p50 = sm.p50.hi;
		out[i]->p99 = sm.p99.hi;
		out[i]->p99_9 = sm.p99_9.hi;
		out[i]->max = sm.max;
	}
}

int blab_sim_run(const struct blab_sim_config *c, struct blab_sim_result *r, char *err,
		 size_t errlen)
{
	/* the run's zones: the one zone, or with node_zones each node's that has CPUs */
	struct blab_zone *zones[BLAB_SIM_MAX_NODES];
	uint32_t nz = 0;
	struct model_params def;
	const struct sim_workload *wl;
	struct sim_run run;
	struct model_machine *mm_own = NULL;
	struct sim_vmstat *vm = NULL;
	struct blab_sim_mem need;
	int ret, set_up = 0;

	if (!c || !r)
		return BLAB_EINVAL;
	memset(r, 0, sizeof(*r));
	memset(&run, 0, sizeof(run));
	if (err && errlen)
		err[0] = 0;
	if ((ret = sim_check(c, &wl, &def, err, errlen)) != 0 ||
	    (ret = sim_mem(c, wl, &def, &need, err, errlen)) != 0)
		return ret;
	if (need.total > blab_mem_limit(c->mem_limit)) {
		char t[32], zb[32], mb[32], wb[32], lim[32];
		return failed(err, errlen, BLAB_EHOSTMEM,
			      "the run needs %s of host memory (zone %s, model machine %s, "
			      "workload %s); the limit is %s",
			      blab_mem_text(t, sizeof(t), need.total),
			      blab_mem_text(zb, sizeof(zb), need.zones),
			      blab_mem_text(mb, sizeof(mb), need.machine),
			      blab_mem_text(wb, sizeof(wb), need.workload),
			      blab_mem_text(lim, sizeof(lim), blab_mem_limit(c->mem_limit)));
	}
	run.c = c;
	run.mp = &def;
	ret = sim_create_zones(&run, wl, need.zone_pages, zones, &nz, &mm_own, err, errlen);
	if (ret)
		goto out;
	r->batch = run.z->pageset[0].pcp[0].batch;
	r->high = run.z->pageset[0].pcp[0].high;
	r->high_max = run.z->s.high_mode == BLAB_HIGH_AUTO ? run.z->pageset[0].pcp[0].high_max : 0;
	for (uint32_t i = 0; i < nz; i++)
		zones[i]->hist = c->hist; /* refills and drains from here on: the run's own */
	for (uint32_t i = 0; i < nz; i++)
		zones[i]->lat = c->latency; /* so are allocations' and frees' latencies */

	sim_start_clocks(&run);
	set_up = 1;
	if ((ret = wl->setup(&run, err, errlen)) != 0)
		goto out;
	if ((ret = sim_vmstat_init(&vm, &run)) != 0) {
		failed(err, errlen, ret, "out of host memory");
		goto out;
	}
	if ((ret = sim_loop(&run, wl, vm, err, errlen)) != 0)
		goto out;
	cache_finish_each(&run.mm->cache, emit_wasted, run.z);
	if ((ret = sim_check_after(&run, zones, nz, err, errlen)) != 0)
		goto out;

	wl->finish(&run, r);
	blab_compact_stats(run.z, &r->compact);
	sim_pcp_counters(&run, r);
	sim_machine_counters(&run, zones, nz, r);
	sim_latency_counters(c->latency, r);
	ret = 0;
out:
	sim_vmstat_free(vm);
	if (set_up && wl->teardown)
		wl->teardown(&run);
	for (uint32_t i = 0; i < nz; i++)
		blab_zone_destroy(zones[i]);
	if (mm_own) {
		model_machine_free(mm_own);
		free(mm_own);
	}
	return ret;
}
