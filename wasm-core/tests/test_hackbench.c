/*
 * hackbench on the model machine: the 2011 freelist prefetch must cut the run's virtual time
 * by several percent when objects are freed on another CPU, and change it by under 2% when
 * they are freed where they were allocated (the control); determinism; bad configs.
 * Times here are the model's virtual cycles, never the host's.
 */
#include <string.h>

#include "blab_sim.h"
#include "common.h"

struct hsink {
	uint64_t h, n;
	uint32_t types[64];
	uint32_t slab_flag_access;
};

static void sink(void *ctx, const struct blab_event *e)
{
	struct hsink *s = ctx;
	s->h = fnv1a_event(s->h, e);
	s->n++;
	if (e->type < 64)
		s->types[e->type]++;
	if (e->type == BLAB_EV_ACCESS && (e->flags & BLAB_EVF_SLAB))
		s->slab_flag_access++;
}

static uint32_t data_size; /* run()'s --data-size: 0, one object a message */

static int run(uint32_t groups, uint32_t loops, int same_cpu, int prefetch, uint64_t seed,
	       struct hsink *hs, struct blab_sim_result *r)
{
	struct blab_sim_config c;
	char err[160];
	int ret;

	blab_sim_config_init(&c);
	c.workload = BLAB_WL_HACKBENCH;
	c.cpus = groups;
	c.pages = 1;
	c.iterations = 1;
	c.seed = seed;
	c.hackbench.groups = groups;
	c.hackbench.loops = loops;
	c.hackbench.object_size = 256;
	c.hackbench.data_size = data_size;
	c.hackbench.same_cpu = (uint8_t)same_cpu;
	c.hackbench.slub_prefetch = (uint8_t)prefetch;
	if (hs) {
		memset(hs, 0, sizeof(*hs));
		hs->h = FNV1A_OFFSET;
		c.log_mask = BLAB_EVC_ALL;
		c.sink = sink;
		c.sink_ctx = hs;
	}
	ret = blab_sim_run(&c, r, err, sizeof(err));
	if (ret)
		fprintf(stderr, "hackbench %u groups: %s\n", groups, err);
	return ret;
}

/* (on - off) / off in basis points */
static long long change_bp(uint64_t off, uint64_t on)
{
	return ((long long)on - (long long)off) * 10000 / (long long)off;
}

static void prefetch_needs_remote_frees(void)
{
	static const uint32_t groups[] = {2, 4, 8};
	for (unsigned i = 0; i < sizeof(groups) / sizeof(groups[0]); i++) {
		struct blab_sim_result off, on, soff, son;
		long long remote, same;
		CHECK_EQ(run(groups[i], 1000, 0, 0, 1, NULL, &off), 0);
		CHECK_EQ(run(groups[i], 1000, 0, 1, 1, NULL, &on), 0);
		CHECK_EQ(run(groups[i], 1000, 1, 0, 1, NULL, &soff), 0);
		CHECK_EQ(run(groups[i], 1000, 1, 1, 1, NULL, &son), 0);
		remote = change_bp(off.elapsed_cycles, on.elapsed_cycles);
		same = change_bp(soff.elapsed_cycles, son.elapsed_cycles);
		printf("  %u groups: prefetch changes time by %lld bp with remote frees, %lld bp "
		       "on the same CPU\n",
		       groups[i], remote, same);
		/* several percent faster with remote frees ... */
		CHECK(remote <= -300);
		/* ... and within 2% in the control */
		CHECK(same < 200 && same > -200);
		/* the mechanism: remote frees, and prefetches landing before the next pop */
		CHECK_EQ(off.messages, (uint64_t)groups[i] * 1000u);
		CHECK_EQ(off.slab.free_slowpath, off.messages);
		CHECK_EQ(off.slab.free_remote, off.messages);
		CHECK_EQ(off.slab.free_fastpath, 0);
		CHECK_EQ(off.slab.prefetch, 0);
		CHECK_EQ(off.slab_pf_hit, 0);
		CHECK(on.slab.prefetch > 0);
		CHECK(on.slab_pf_hit > on.slab.prefetch / 2);
		CHECK_EQ(soff.slab.free_fastpath, soff.messages);
		CHECK_EQ(soff.slab.free_remote, 0);
		CHECK(son.slab.prefetch > 0);
		CHECK_EQ(son.slab_pf_hit, 0); /* the lines are in L1 already: nothing to hide */
		/* every slab was given back (the loop also checks every page came home) */
		CHECK_EQ(on.slab.free_slab, on.slab.alloc_slab);
		CHECK_EQ(son.slab.free_slab, son.slab.alloc_slab);
		CHECK(on.score > off.score);
	}
}

static void deterministic_and_logged(void)
{
	struct hsink a, b, c;
	struct blab_sim_result r1, r2, r3;
	CHECK_EQ(run(3, 300, 0, 1, 7, &a, &r1), 0);
	CHECK_EQ(run(3, 300, 0, 1, 7, &b, &r2), 0);
	CHECK_EQ(run(3, 300, 0, 1, 8, &c, &r3), 0);
	CHECK_EQ(a.h, b.h);
	CHECK_EQ(r1.elapsed_cycles, r2.elapsed_cycles);
	CHECK(a.h != c.h); /* the seed moves the start times */
	CHECK_EQ(a.types[BLAB_EV_SLAB_CACHE_CREATE], 1);
	CHECK_EQ(a.types[BLAB_EV_SLAB_ALLOC], 900);
	CHECK_EQ(a.types[BLAB_EV_SLAB_REMOTE_FREE], 900);
	CHECK_EQ(a.types[BLAB_EV_SLAB_FREE], 0);
	CHECK_EQ(a.types[BLAB_EV_SLAB_FREELIST_PREFETCH], r1.slab.prefetch);
	CHECK_EQ(a.types[BLAB_EV_SLAB_NEW], r1.slab.alloc_slab);
	CHECK_EQ(a.types[BLAB_EV_SLAB_DISCARD], r1.slab.free_slab);
	CHECK(a.slab_flag_access > 0);
}

/*
 * A message as __alloc_skb() makes it: the head from one cache, the data buffer from another,
 * both freed by the receiver (the data first). Each allocation's free pointer was written by
 * a remote free, so the prefetch has two misses a message to hide, not one: its share of the
 * time must grow.
 */
static void skb_head_and_data(void)
{
	struct hsink hs;
	struct blab_sim_result one_off, one_on, off, on, r;
	long long one, two;

	CHECK_EQ(run(4, 1000, 0, 0, 1, NULL, &one_off), 0);
	CHECK_EQ(run(4, 1000, 0, 1, 1, NULL, &one_on), 0);
	data_size = 512;
	CHECK_EQ(run(4, 1000, 0, 0, 1, NULL, &off), 0);
	CHECK_EQ(run(4, 1000, 0, 1, 1, NULL, &on), 0);
	CHECK_EQ(run(3, 300, 0, 1, 7, &hs, &r), 0);
	data_size = 0;
	one = change_bp(one_off.elapsed_cycles, one_on.elapsed_cycles);
	two = change_bp(off.elapsed_cycles, on.elapsed_cycles);
	printf("  4 groups: prefetch changes time by %lld bp with one object a message, %lld bp "
	       "with head and data\n", one, two);
	CHECK(two < one);
	CHECK(off.elapsed_cycles > one_off.elapsed_cycles); /* a second object costs time */
	CHECK_EQ(off.messages, 4000u);
	CHECK_EQ(off.slab.free_remote, off.messages); /* the head cache's counters */
	CHECK_EQ(hs.types[BLAB_EV_SLAB_CACHE_CREATE], 2);
	CHECK_EQ(hs.types[BLAB_EV_SLAB_ALLOC], 2 * 900);
	CHECK_EQ(hs.types[BLAB_EV_SLAB_REMOTE_FREE], 2 * 900);
	CHECK_EQ(hs.types[BLAB_EV_SLAB_NEW], hs.types[BLAB_EV_SLAB_DISCARD]); /* both shrunk */
}

static void bad_configs(void)
{
	struct blab_sim_config c;
	struct blab_sim_result r;
	char err[160];

	blab_sim_config_init(&c);
	c.workload = BLAB_WL_HACKBENCH;
	c.cpus = 4;
	c.hackbench.groups = 4;
	c.iterations = 1;
	CHECK_EQ(blab_sim_run(&c, &r, err, sizeof(err)), 0);
	c.hackbench.groups = 3; /* cpus must equal groups */
	CHECK_EQ(blab_sim_run(&c, &r, err, sizeof(err)), BLAB_ECPU);
	CHECK(strstr(err, "groups") != NULL);
	c.cpus = 1;
	c.hackbench.groups = 1; /* remote frees need two CPUs */
	CHECK_EQ(blab_sim_run(&c, &r, err, sizeof(err)), BLAB_EINVAL);
	c.hackbench.same_cpu = 1;
	c.hackbench.loops = 10;
	CHECK_EQ(blab_sim_run(&c, &r, err, sizeof(err)), 0);
	c.hackbench.loops = 0;
	CHECK_EQ(blab_sim_run(&c, &r, err, sizeof(err)), BLAB_ELIMIT);
	c.hackbench.loops = 10;
	c.hackbench.object_size = 4;
	CHECK_EQ(blab_sim_run(&c, &r, err, sizeof(err)), BLAB_ELIMIT);
	c.hackbench.object_size = 8192;
	CHECK_EQ(blab_sim_run(&c, &r, err, sizeof(err)), BLAB_ELIMIT);
	c.hackbench.object_size = 64;
	c.hackbench.data_size = 4; /* 0 (none) or 8..4096 */
	CHECK_EQ(blab_sim_run(&c, &r, err, sizeof(err)), BLAB_ELIMIT);
	CHECK(strstr(err, "data size") != NULL);
	c.hackbench.data_size = 8192;
	CHECK_EQ(blab_sim_run(&c, &r, err, sizeof(err)), BLAB_ELIMIT);
	c.hackbench.data_size = 0;
	c.hackbench.slub_prefetch = 2;
	CHECK_EQ(blab_sim_run(&c, &r, err, sizeof(err)), BLAB_EINVAL);
	c.hackbench.slub_prefetch = 0;
	c.cpus = c.hackbench.groups = 100;
	c.hackbench.loops = BLAB_HACKBENCH_MAX_LOOPS;
	CHECK_EQ(blab_sim_run(&c, &r, err, sizeof(err)), BLAB_ELIMIT);
	c.cpus = c.hackbench.groups = 0;
	CHECK(blab_sim_run(&c, &r, err, sizeof(err)) < 0);
	CHECK_EQ(blab_sim_workload_id("hackbench"), BLAB_WL_HACKBENCH);
	CHECK(!strcmp(blab_sim_workload_unit(BLAB_WL_HACKBENCH), "messages/s"));
}

int main(void)
{
	prefetch_needs_remote_frees();
	deterministic_and_logged();
	skb_head_and_data();
	bad_configs();
	return harness_report("test_hackbench");
}
