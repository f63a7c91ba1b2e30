/*
 * run.c - workloads on the real machine: one pthread per CPU of the zone (native pthreads, or
 * Emscripten's Web Workers over one SharedArrayBuffer), each running the same per-CPU
 * workload state machine as the model machine (sim.h), but straight through: its locks are
 * real spinlocks and its clock is the host's.
 *
 * Threads wait for each other and go together; each publishes its progress after every
 * step (a relaxed atomic store, read by blab_run_sample()). When asked to stop, a thread
 * faults no more pages: it unmaps the ones it faulted in this round and ends, so the zone
 * ends whole soon after the stop (finishing the round instead took 64 threads on 2 cores
 * 30 s past a 1 s run).
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "blab_real.h"
#include "mm/mm.h"
#include "machine/machine.h"
#include "machine/real/real.h"
#include "sim.h"
#include "workload_page_fault1.h"

struct run_thread {
	struct blab_run *r;
	unsigned cpu;
	pthread_t th;
	int created;
	int pinned_cpu; /* -1: not pinned, why says why */
	char why[80];
	int err;        /* the workload's error, read after the join */
	struct sim_task t;
};

struct blab_run {
	struct blab_run_config c;
	struct blab_zone *z;
	uint32_t *pfns;
	struct run_thread *th;
	_Atomic unsigned ready, finished;
	_Atomic int go, stop;
	_Atomic uint64_t t0;
	int joined;
};

void blab_run_config_init(struct blab_run_config *c)
{
	if (!c)
		return;
	memset(c, 0, sizeof(*c));
	c->workload = BLAB_RUN_PAGE_FAULT1;
	c->threads = 1;
	c->pages = 32768;
	c->pin = 1;
	blab_preset(BLAB_DEFAULT_PRESET, &c->strategy);
}

int blab_run_has_prefetch(void)
{
	return REAL_HAVE_PREFETCH;
}

static void short_sleep(void)
{
	struct timespec ts = {0, 100000}; /* 0.1 ms */
	nanosleep(&ts, NULL);
}

static void *run_thread_main(void *arg)
{
	struct run_thread *rt = arg;
	struct blab_run *r = rt->r;
	struct blab_zone *z = r->z;
	struct real_machine *rm = mach_real(&z->machine);
	struct sim_task *t = &rt->t;
	int cut = 0;

	/* the last thread to arrive starts the clock and lets everyone go */
	if (atomic_fetch_add(&r->ready, 1) + 1 == r->c.threads) {
		atomic_store(&r->t0, real_clock_ns());
		atomic_store_explicit(&r->go, 1, memory_order_release);
	}
	while (!atomic_load_explicit(&r->go, memory_order_acquire)) {
		if (atomic_load_explicit(&r->stop, memory_order_relaxed))
			goto out;
		short_sleep();
	}
	for (;;) {
		int s = sim_page_fault1_step(z, rt->cpu, t);
		atomic_store_explicit(&rm->cpu[rt->cpu].pages, t->pages_done, memory_order_relaxed);
		if (s < 0) {
			rt->err = s;
			break;
		}
		if (s == SIM_FINISHED)
			break;
		if (!cut && atomic_load_explicit(&r->stop, memory_order_relaxed))
			cut = sim_page_fault1_cut(t); /* unmap what this round faulted, and end */
	}
out:
	atomic_fetch_add_explicit(&r->finished, 1, memory_order_release);
	return NULL;
}

/* the CPUs this process may run on, in order; 0 when the OS will not say */
static unsigned allowed_cpus(int *cpus, unsigned cap)
{
#ifdef __EMSCRIPTEN__
	(void)cpus, (void)cap;
	return 0;
#else
	cpu_set_t set;
	unsigned n = 0;
	if (sched_getaffinity(0, sizeof(set), &set))
		return 0;
	for (int c = 0; c < CPU_SETSIZE && n < cap; c++)
		if (CPU_ISSET(c, &set))
			cpus[n++] = c;
	return n;
#endif
}

/* starts thread i, pinned when asked and allowed */
static int spawn(struct blab_run *r, struct run_thread *rt, const int *cpus, unsigned ncpus)
{
	pthread_attr_t attr;
	int e;

	rt->pinned_cpu = -1;
	if (pthread_attr_init(&attr))
		return BLAB_ENOMEMHOST;
	pthread_attr_setstacksize(&attr, 256u << 10);
#ifdef __EMSCRIPTEN__
	(void)cpus, (void)ncpus;
	snprintf(rt->why, sizeof(rt->why), "WebAssembly threads have no CPU affinity");
#else
	if (!r->c.pin) {
		snprintf(rt->why, sizeof(rt->why), "pinning not asked for");
	} else if (!ncpus) {
		snprintf(rt->why, sizeof(rt->why), "sched_getaffinity() failed: %s", strerror(errno));
	} else {
		cpu_set_t set;
		CPU_ZERO(&set);
		CPU_SET(cpus[rt->cpu % ncpus], &set);
		e = pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
		if (e)
			snprintf(rt->why, sizeof(rt->why), "pthread_attr_setaffinity_np: %s",
				 strerror(e));
		else
			rt->pinned_cpu = cpus[rt->cpu % ncpus];
	}
#endif
	e = pthread_create(&rt->th, &attr, run_thread_main, rt);
	if (e && rt->pinned_cpu >= 0) {
		/* the OS refused the affinity at creation: run unpinned and say so */
		snprintf(rt->why, sizeof(rt->why), "pinning refused: %s", strerror(e));
		rt->pinned_cpu = -1;
		pthread_attr_destroy(&attr);
		pthread_attr_init(&attr);
		pthread_attr_setstacksize(&attr, 256u << 10);
		e = pthread_create(&rt->th, &attr, run_thread_main, rt);
	}
	pthread_attr_destroy(&attr);
	if (e)
		return BLAB_ENOMEMHOST;
	rt->created = 1;
	return 0;
}

static void join_all(struct blab_run *r)
{
	if (r->joined || !r->th)
		return;
	atomic_store(&r->stop, 1);
	for (unsigned i = 0; i < r->c.threads; i++)
		if (r->th[i].created)
			pthread_join(r->th[i].th, NULL);
	r->joined = 1;
}

#define FAIL(code, ...)                                                                    \
	do {                                                                               \
		if (err && errlen)                                                         \
			snprintf(err, errlen, __VA_ARGS__);                                \
		ret = (code);                                                              \
		goto fail;                                                                 \
	} while (0)

int blab_run_start(const struct blab_run_config *c, struct blab_run **out, char *err,
		   size_t errlen)
{
	struct blab_zone_config zc;
	struct blab_run *r = NULL;
	int cpus[BLAB_RUN_MAX_THREADS * 4];
	unsigned ncpus;
	uint64_t zone_pages;
	int ret;

	if (err && errlen)
		err[0] = 0;
	if (!c || !out)
		FAIL(BLAB_EINVAL, "no config or no result pointer");
	*out = NULL;
	if (c->workload != BLAB_RUN_PAGE_FAULT1)
		FAIL(BLAB_EINVAL, "unknown workload %u", c->workload);
	if (c->threads < 1 || c->threads > BLAB_RUN_MAX_THREADS)
		FAIL(BLAB_ECPU, "threads must be 1..%u", BLAB_RUN_MAX_THREADS);
	if (c->pages < 1 || c->pages > BLAB_RUN_MAX_PAGES)
		FAIL(BLAB_ELIMIT, "pages must be 1..%u", BLAB_RUN_MAX_PAGES);
	if ((uint64_t)c->threads * c->pages > BLAB_RUN_MAX_MAPPED)
		FAIL(BLAB_ELIMIT, "threads x pages = %llu is over %u",
		     (unsigned long long)c->threads * c->pages, BLAB_RUN_MAX_MAPPED);
	if (c->strategy.watermarks)
		FAIL(BLAB_ESTRATEGY, "the real machine runs without watermarks (docs/real.md)");

	r = calloc(1, sizeof(*r));
	if (!r)
		FAIL(BLAB_ENOMEMHOST, "out of host memory");
	r->c = *c;
	blab_zone_config_init(&zc);
	zc.strategy = c->strategy;
	sim_node_pcp_sizes(&zc.strategy);
	/* room for every task's mapping, plus what can sit on the pcp lists (as blab sim) */
	zone_pages = (uint64_t)c->threads *
			     (c->pages + zc.strategy.high + 2u * zc.strategy.batch + 64u) +
		     4096u;
	zone_pages = (zone_pages + 1023u) & ~1023ull;
	if (zone_pages > BLAB_MAX_PAGES)
		FAIL(BLAB_ELIMIT, "the zone would need %llu pages", (unsigned long long)zone_pages);
	zc.pages = (uint32_t)zone_pages;
	zc.start_pfn = 0x100000;
	zc.cpus = (uint16_t)c->threads;
	zc.machine = BLAB_MACHINE_REAL;
	zc.log_mask = 0; /* no events: one log shared by every thread would race */
	zc.log_capacity = 0;
	zc.real_untimed = c->untimed ? 1 : 0;
	{
		/* the zone, and every thread's mapping (a pfn each page) */
		uint64_t need = blab_zone_mem_bytes(&zc) + (uint64_t)c->threads * c->pages * 4u;
		uint64_t limit = blab_mem_limit(c->mem_limit);
		char n[32], l[32];
		if (need > limit)
			FAIL(BLAB_EHOSTMEM, "the run needs %s of host memory; the limit is %s",
			     blab_mem_text(n, sizeof(n), need), blab_mem_text(l, sizeof(l), limit));
		zc.mem_limit = UINT64_MAX;
	}
	ret = blab_zone_create(&zc, &r->z);
	if (ret)
		FAIL(ret, "cannot create the zone: %s", blab_strerror(ret));

	r->th = calloc(c->threads, sizeof(*r->th));
	r->pfns = malloc((size_t)c->threads * c->pages * sizeof(*r->pfns));
	if (!r->th || !r->pfns)
		FAIL(BLAB_ENOMEMHOST, "out of host memory");
	for (unsigned i = 0; i < c->threads; i++) {
		struct run_thread *rt = &r->th[i];
		rt->r = r;
		rt->cpu = i;
		rt->t.pfns = r->pfns + (size_t)i * c->pages;
		rt->t.pages = c->pages;
		rt->t.iterations = UINT32_MAX; /* until stopped */
		rt->t.clear_lines = 64;
	}
	ncpus = allowed_cpus(cpus, sizeof(cpus) / sizeof(cpus[0]));
	for (unsigned i = 0; i < c->threads; i++) {
		ret = spawn(r, &r->th[i], cpus, ncpus);
		if (ret)
			FAIL(ret, "cannot start thread %u of %u (pthread_create failed)", i + 1,
			     c->threads);
	}
	*out = r;
	return 0;
fail:
	if (r) {
		if (r->th)
			join_all(r);
		blab_run_free(r);
	}
	return ret;
}

unsigned blab_run_started(const struct blab_run *r)
{
	return r ? atomic_load((_Atomic unsigned *)&r->ready) : 0;
}

unsigned blab_run_finished(const struct blab_run *r)
{
	return r ? atomic_load_explicit((_Atomic unsigned *)&r->finished, memory_order_acquire) : 0;
}

uint64_t blab_run_sample(const struct blab_run *r, struct blab_run_thread *out, unsigned n)
{
	const struct real_machine *rm;
	uint64_t t0, now;

	if (!r)
		return 0;
	rm = mach_real(&r->z->machine);
	for (unsigned i = 0; out && i < n && i < r->c.threads; i++) {
		struct real_cpu *cpu = &rm->cpu[i];
		out[i].pages = atomic_load_explicit(&cpu->pages, memory_order_relaxed);
		for (unsigned l = 0; l < 2; l++) {
			struct real_lock_stat *s = &cpu->lock[l];
			out[i].lock[l].acquisitions =
				atomic_load_explicit(&s->acquisitions, memory_order_relaxed);
			out[i].lock[l].contended =
				atomic_load_explicit(&s->contended, memory_order_relaxed);
			out[i].lock[l].spin_ns = atomic_load_explicit(&s->spin_ns, memory_order_relaxed);
			out[i].lock[l].hold_ns = atomic_load_explicit(&s->hold_ns, memory_order_relaxed);
		}
	}
	if (!atomic_load_explicit((_Atomic int *)&r->go, memory_order_acquire))
		return 0;
	t0 = atomic_load((_Atomic uint64_t *)&r->t0);
	now = real_clock_ns();
	return now > t0 ? now - t0 : 1;
}

/* (the threads notice within one step: at most a pagevec of faults, or one unmap batch) */
void blab_run_stop(struct blab_run *r)
{
	if (r)
		atomic_store(&r->stop, 1);
}

int blab_run_finish(struct blab_run *r, char *err, size_t errlen)
{
	struct blab_zone_info zi;
	char why[200];
	int ret = 0;

	if (err && errlen)
		err[0] = 0;
	if (!r)
		return BLAB_EINVAL;
	join_all(r);
	for (unsigned i = 0; i < r->c.threads; i++)
		if (r->th[i].err) {
			ret = r->th[i].err;
			if (err && errlen)
				snprintf(err, errlen, "thread %u: %s", i, blab_strerror(ret));
			return ret;
		}
	/* one thread now: give the pcp pages back, then every page must be free */
	if ((ret = blab_drain_all(r->z))) {
		if (err && errlen)
			snprintf(err, errlen, "drain: %s", blab_strerror(ret));
		return ret;
	}
	blab_zone_info(r->z, &zi);
	if (zi.free_pages + zi.pcp_pages != zi.pages) {
		if (err && errlen)
			snprintf(err, errlen, "%u pages missing after the run",
				 zi.pages - zi.free_pages - zi.pcp_pages);
		return BLAB_ECHECK;
	}
	if (blab_check(r->z, why, sizeof(why))) {
		if (err && errlen)
			snprintf(err, errlen, "invariant violated after the run: %s", why);
		return BLAB_ECHECK;
	}
	return 0;
}

void blab_run_free(struct blab_run *r)
{
	if (!r)
		return;
	join_all(r);
	blab_zone_destroy(r->z);
	free(r->th);
	free(r->pfns);
	free(r);
}

int blab_run_pinned(const struct blab_run *r, unsigned thread, char *why, size_t whylen)
{
	if (why && whylen)
		why[0] = 0;
	if (!r || thread >= r->c.threads)
		return -1;
	if (r->th[thread].pinned_cpu < 0 && why && whylen)
		snprintf(why, whylen, "%s", r->th[thread].why);
	return r->th[thread].pinned_cpu;
}

/* The zone's sizes as set up, not a CPU's list: from 6.7 a list's high moves while the
 * threads run (nr_pcp_alloc(), decay), and reading it here would race with them */
uint32_t blab_run_batch(const struct blab_run *r)
{
	return r ? r->z->s.batch : 0;
}

uint32_t blab_run_high(const struct blab_run *r)
{
	return r ? r->z->s.high : 0;
}
