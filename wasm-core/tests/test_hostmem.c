/*
 * test_hostmem.c - the host memory bound (docs/limits.md, "Host memory"): the bytes a zone
 * or a model-machine run is computed to need are at least what it allocates (measured with
 * glibc's mallinfo2() where the allocator is glibc's) and not wildly more; past the limit a
 * config is refused before anything is allocated, with the figures in the message.
 */
#include <stdlib.h>
#include <string.h>

#include "blab_sim.h"
#include "common.h"
#include "blab_model.h"

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define SANITIZER_ALLOCATOR 1 /* its own allocator, with redzones: not glibc's figures */
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define SANITIZER_ALLOCATOR 1
#endif

#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33)) && \
	!defined(SANITIZER_ALLOCATOR)
#include <malloc.h>
static uint64_t in_use(void)
{
	struct mallinfo2 mi = mallinfo2();
	return (uint64_t)mi.uordblks + (uint64_t)mi.hblkhd;
}
#else
static uint64_t in_use(void)
{
	return 0; /* no measure: the bound checks below still run */
}
#endif

/* measured holds the allocation when it could be measured (0: not, e.g. under ASan, whose
 * allocator glibc does not see): the estimate must cover it, within 2x + 1 MB */
static void check_estimate(const char *what, uint64_t estimate, uint64_t measured)
{
	if (!measured)
		return;
	if (estimate < measured || estimate > 2 * measured + (1u << 20)) {
		char d[160];
		snprintf(d, sizeof(d), "%s: estimated %llu bytes, allocated %llu", what,
			 (unsigned long long)estimate, (unsigned long long)measured);
		harness_fail(__FILE__, __LINE__, "estimate covers the allocation", d);
	}
}

static void zone_estimates(void)
{
	static const struct {
		uint8_t machine;
		uint32_t pages, log;
		uint16_t cpus;
	} cases[] = {
		{BLAB_MACHINE_PLAIN, 1u << 16, 0, 1},
		{BLAB_MACHINE_PLAIN, 1u << 18, 65536, 8},
		{BLAB_MACHINE_MODEL, 1u << 16, 0, 4},
		{BLAB_MACHINE_MODEL, 1u << 17, 4096, 56},
		{BLAB_MACHINE_REAL, 1u << 16, 0, 16},
	};
	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct blab_zone_config cfg;
		struct blab_zone *z = NULL;
		uint64_t before, after;
		char what[64];
		blab_zone_config_init(&cfg);
		cfg.machine = cases[i].machine;
		cfg.pages = cases[i].pages;
		cfg.cpus = cases[i].cpus;
		cfg.log_capacity = cases[i].log;
		if (cfg.machine == BLAB_MACHINE_REAL)
			cfg.log_mask = 0;
		before = in_use();
		CHECK_EQ(blab_zone_create(&cfg, &z), 0);
		after = in_use();
		snprintf(what, sizeof(what), "zone case %u", i);
		check_estimate(what, blab_zone_mem_bytes(&cfg), after > before ? after - before : 0);
		blab_zone_destroy(z);

		/* one byte short of the need: refused, nothing allocated; at the need: made */
		cfg.mem_limit = blab_zone_mem_bytes(&cfg) - 1;
		before = in_use();
		CHECK_EQ(blab_zone_create(&cfg, &z), BLAB_EHOSTMEM);
		CHECK(z == NULL);
		CHECK_EQ(in_use(), before);
		cfg.mem_limit++;
		CHECK_EQ(blab_zone_create(&cfg, &z), 0);
		blab_zone_destroy(z);
	}
	CHECK_EQ(blab_zone_mem_bytes(NULL), 0);
	CHECK(blab_mem_limit_default() > 0);
	CHECK_EQ(blab_mem_limit(12345), 12345);
}

struct peak {
	uint64_t base, max, events;
};

/* the allocation in use, sampled from the event sink while the run goes (every event of
 * set-up, then every 64th) */
static void sample(void *ctx, const struct blab_event *e)
{
	struct peak *p = ctx;
	uint64_t now;
	(void)e;
	if (++p->events > 4096 && p->events % 64)
		return;
	now = in_use();
	if (now > p->base && now - p->base > p->max)
		p->max = now - p->base;
}

static void sim_estimates(void)
{
	static const struct {
		uint32_t workload, cpus, pages, iterations;
		uint8_t node_zones;
	} cases[] = {
		{BLAB_WL_PAGE_FAULT1, 4, 32768, 1, 0},
		{BLAB_WL_PAGE_FAULT1, 60, 512, 1, 1},
		{BLAB_WL_PARALLEL_FREE, 8, 2048, 2, 0},
		{BLAB_WL_TRUNC, 2, 8192, 1, 0},
		{BLAB_WL_STRESS_HIGHALLOC, 2, 65536, 2, 0},
		{BLAB_WL_MIXED, 4, 2048, 1, 0},
		{BLAB_WL_HACKBENCH, 8, 1, 1, 0},
	};
	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct blab_sim_config c;
		struct blab_sim_result r;
		struct blab_sim_mem m;
		struct peak p = {0, 0, 0};
		char err[300], what[64];
		blab_sim_config_init(&c);
		c.workload = cases[i].workload;
		c.cpus = cases[i].cpus;
		c.pages = cases[i].pages;
		c.iterations = cases[i].iterations;
		c.node_zones = cases[i].node_zones;
		c.clear_lines = 1;
		c.hi_order = 4;
		c.hackbench.groups = cases[i].cpus;
		c.hackbench.loops = 2000;
		c.hackbench.object_size = 64;
		c.sink = sample;
		c.sink_ctx = &p;
		c.log_mask = BLAB_EVC_ALL;
		CHECK_EQ(blab_sim_mem_bytes(&c, &m, err, sizeof(err)), 0);
		CHECK_EQ(m.total, m.zones + m.machine + m.workload);
		p.base = in_use();
		CHECK_EQ(blab_sim_run(&c, &r, err, sizeof(err)), 0);
		snprintf(what, sizeof(what), "sim case %u (workload %u)", i, c.workload);
		check_estimate(what, m.total, p.max);

		/* past the limit: the run is refused with the figures, before it allocates */
		c.mem_limit = m.total - 1;
		p.base = in_use();
		p.max = p.events = 0;
		CHECK_EQ(blab_sim_run(&c, &r, err, sizeof(err)), BLAB_EHOSTMEM);
		CHECK(strstr(err, "the run needs ") == err);
		CHECK(strstr(err, "; the limit is ") != NULL);
		CHECK_EQ(p.events, 0); /* not even ZONE_INIT: no zone was made */
		CHECK_EQ(in_use(), p.base);
	}
}

/* Cache sizes that each pass the parameter file's range checks but together need more than
 * 12 GB: refused by the bound, never allocated. */
static void huge_caches(void)
{
	struct model_params mp;
	struct blab_sim_config c;
	struct blab_sim_result r;
	struct blab_sim_mem m;
	char err[300];

	model_params_default(&mp);
	mp.sockets = 8;
	mp.cores_per_socket = 32;
	mp.threads_per_core = 1;
	mp.l2_bytes = 1u << 28;
	mp.llc_bytes_per_core = 1u << 28;
	CHECK_EQ(model_params_check(&mp, err, sizeof(err)), 0);
	blab_sim_config_init(&c);
	c.model = &mp;
	c.cpus = 256;
	c.pages = 16;
	c.iterations = 1;
	CHECK_EQ(blab_sim_mem_bytes(&c, &m, err, sizeof(err)), 0);
	CHECK(m.machine > (12ull << 30));
	c.mem_limit = 8ull << 30;
	CHECK_EQ(blab_sim_run(&c, &r, err, sizeof(err)), BLAB_EHOSTMEM);
	CHECK(strstr(err, "the limit is 8589.9 MB") != NULL);
	/* a config the run would refuse anyway gives that error, not a figure */
	c.cpus = 0;
	CHECK_EQ(blab_sim_mem_bytes(&c, &m, err, sizeof(err)), BLAB_ECPU);
}

int main(void)
{
	zone_estimates();
	sim_estimates();
	huge_caches();
	return harness_report("test_hostmem");
}
