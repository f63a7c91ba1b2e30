/*
 * page_fault1 and parallel_free with a zone per node (blab_sim_config.node_zones):
 * deterministic; on one socket the same run as with one zone; on two sockets every CPU takes
 * only its own node's zone->lock and lru_lock and touches only its own node's pages, the
 * per-node counters add up to the sums and to the event log; other workloads refuse it; the
 * internal creation path (_blab_zone_create_on) refuses what does not fit the shared machine.
 * parallel_free's runs also end with every node's LRU list empty (the workload fails the run
 * with BLAB_ECHECK otherwise), and its free-half contention is the nodes' locks' spin from the
 * last barrier on, as the event log's LOCK_ACQUIRE records add it up.
 *
 * A small topology keeps it fast: 2 sockets x 2 cores x 1 thread, so CPUs 0-1 sit on node 0
 * and 2-3 on node 1 (model_cpu_socket).
 */
#include <stdlib.h>
#include <string.h>

#include "blab_sim.h"
#include "common.h"
#include "machine/model/model.h"

#define NCPUS 4

struct nsink {
	uint64_t h, n;
	const struct model_params *p;
	/* zones in ZONE_INIT order: node 0's first */
	uint32_t nzones;
	uint64_t zone_start[BLAB_SIM_MAX_NODES], zone_pages[BLAB_SIM_MAX_NODES];
	uint64_t lock_acq[MODEL_MAX_LOCKS];
	uint64_t foreign_lock;  /* a CPU took another node's lock */
	uint64_t foreign_page;  /* a CPU's allocator event names a page outside its node's zone */
	uint64_t own_page;      /* allocator events checked */
	/* parallel_free's last round (2 iterations): from the first timed-start mark of round
	 * 1 (its time is the barrier's release), the spin of each kind of lock (zone->lock,
	 * lru_lock), every node's summed, as the LOCK_ACQUIRE records give it */
	int free_half;
	uint64_t release, free_spin[MODEL_NODE_LOCKS];
};

static void sink(void *ctx, const struct blab_event *e)
{
	struct nsink *s = ctx;

	s->h = fnv1a_event(s->h, e);
	s->n++;
	if (e->type == BLAB_EV_ZONE_INIT && s->nzones < BLAB_SIM_MAX_NODES) {
		s->zone_start[s->nzones] = e->pfn;
		s->zone_pages[s->nzones] = e->arg0;
		s->nzones++;
	}
	if (e->cpu >= NCPUS)
		return; /* zone set-up */
	if (e->type == BLAB_EV_MARK && e->arg0 == 1 && e->arg1 == 1 && !s->free_half) {
		s->free_half = 1;
		s->release = e->time;
	}
	if (s->free_half && e->type == BLAB_EV_LOCK_ACQUIRE)
		s->free_spin[e->mt % MODEL_NODE_LOCKS] += e->arg0;
	if (e->type == BLAB_EV_LOCK_ACQUIRE && e->mt < MODEL_MAX_LOCKS) {
		s->lock_acq[e->mt]++;
		if (e->mt / MODEL_NODE_LOCKS != model_cpu_socket(s->p, e->cpu))
			s->foreign_lock++;
	}
	if (e->type == BLAB_EV_ALLOC || e->type == BLAB_EV_FREE || e->type == BLAB_EV_PCP_ADD ||
	    e->type == BLAB_EV_PCP_DEL || e->type == BLAB_EV_BUDDY_ADD ||
	    e->type == BLAB_EV_BUDDY_DEL) {
		uint32_t n = model_cpu_socket(s->p, e->cpu);
		if (n >= s->nzones || e->pfn < s->zone_start[n] ||
		    e->pfn >= s->zone_start[n] + s->zone_pages[n])
			s->foreign_page++;
		else
			s->own_page++;
	}
}

static void small_machine(struct model_params *mp, uint32_t sockets)
{
	model_params_default(mp);
	mp->sockets = sockets;
	mp->cores_per_socket = 2;
	mp->threads_per_core = 1;
}

static int run_wl(uint32_t workload, const struct model_params *mp, const char *preset,
		  uint32_t cpus, uint64_t seed, uint8_t node_zones, struct nsink *s,
		  struct blab_sim_result *r)
{
	struct blab_sim_config c;
	char err[200];
	int ret;

	blab_sim_config_init(&c);
	c.workload = workload;
	c.cpus = cpus;
	c.pages = 200;
	c.iterations = 2;
	c.seed = seed;
	c.clear_lines = 4;
	c.model = mp;
	c.node_zones = node_zones;
	CHECK_EQ(blab_preset(preset, &c.strategy), 0);
	memset(s, 0, sizeof(*s));
	s->h = FNV1A_OFFSET;
	s->p = mp;
	c.log_mask = BLAB_EVC_ALL;
	c.sink = sink;
	c.sink_ctx = s;
	ret = blab_sim_run(&c, r, err, sizeof(err));
	if (ret)
		fprintf(stderr, "blab_sim_run %s %u: %s\n", preset, cpus, err);
	return ret;
}

static int run(const struct model_params *mp, const char *preset, uint32_t cpus, uint64_t seed,
	       uint8_t node_zones, struct nsink *s, struct blab_sim_result *r)
{
	return run_wl(BLAB_WL_PAGE_FAULT1, mp, preset, cpus, seed, node_zones, s, r);
}

/*
 * parallel_free: the pages of the tasks of both nodes are freed at one barrier; each CPU
 * stays on its own node's zone, locks and LRU list.
 */
/* A two-node run: two zones, every CPU only on its own node's locks and pages, both nodes
 * working, and the per-node counts equal to the event log's */
static void check_two_nodes(const struct nsink *s, const struct blab_sim_result *a)
{
	CHECK_EQ(a->zones, 2);
	CHECK_EQ(s->nzones, 2);
	CHECK_EQ(s->foreign_lock, 0);
	CHECK_EQ(s->foreign_page, 0);
	CHECK(s->own_page > 0);
	for (unsigned n = 0; n < 2; n++) {
		CHECK(a->node_zone_acq[n] > 0);
		CHECK(a->node_lru_acq[n] > 0);
		CHECK_EQ(a->node_zone_acq[n], s->lock_acq[n * MODEL_NODE_LOCKS + LOCK_ZONE]);
		CHECK_EQ(a->node_lru_acq[n], s->lock_acq[n * MODEL_NODE_LOCKS + LOCK_LRU]);
	}
}

static void parallel_free(const struct model_params *one, const struct model_params *two)
{
	struct nsink s1, s2;
	struct blab_sim_result a, b;

	CHECK_EQ(run_wl(BLAB_WL_PARALLEL_FREE, two, "v4.16", NCPUS, 7, 1, &s1, &a), 0);
	CHECK_EQ(run_wl(BLAB_WL_PARALLEL_FREE, two, "v4.16", NCPUS, 7, 1, &s2, &b), 0);
	CHECK(s1.n > 1000);
	CHECK_EQ(s1.h == s2.h, 1);
	CHECK_EQ(s1.n, s2.n);
	CHECK_EQ(memcmp(&a, &b, sizeof(a)), 0);
	check_two_nodes(&s1, &a);
	CHECK_EQ(a.pages_total, NCPUS * 200 * 2);
	/* the free half's contention: both nodes' spin from the release on, over every CPU's
	 * cycles from the release to its end, as recomputed from the event log */
	{
		uint64_t cycles = a.cycles_total - (uint64_t)NCPUS * s1.release;
		CHECK(s1.free_half);
		CHECK(s1.free_spin[LOCK_ZONE] > 0);
		CHECK(s1.free_spin[LOCK_LRU] > 0);
		CHECK_EQ(a.free_zone_contention_bp, s1.free_spin[LOCK_ZONE] * 10000 / cycles);
		CHECK_EQ(a.free_lru_contention_bp, s1.free_spin[LOCK_LRU] * 10000 / cycles);
	}

	/* one zone on the same machine: every CPU on node 0's locks, another run */
	CHECK_EQ(run_wl(BLAB_WL_PARALLEL_FREE, two, "v4.16", NCPUS, 7, 0, &s2, &b), 0);
	CHECK_EQ(b.zones, 1);
	CHECK(s1.h != s2.h);
	CHECK_EQ(s2.lock_acq[MODEL_NODE_LOCKS + LOCK_ZONE], 0);
	CHECK_EQ(s2.lock_acq[MODEL_NODE_LOCKS + LOCK_LRU], 0);
	CHECK(s2.free_half);
	CHECK_EQ(b.free_zone_contention_bp,
		 s2.free_spin[LOCK_ZONE] * 10000 / (b.cycles_total - (uint64_t)NCPUS * s2.release));

	/* one socket: the zone per node is the one zone, the same run byte for byte */
	CHECK_EQ(run_wl(BLAB_WL_PARALLEL_FREE, one, "v4.16", 2, 5, 1, &s1, &a), 0);
	CHECK_EQ(run_wl(BLAB_WL_PARALLEL_FREE, one, "v4.16", 2, 5, 0, &s2, &b), 0);
	CHECK_EQ(s1.h == s2.h, 1);
	CHECK_EQ(s1.n, s2.n);
	CHECK_EQ(memcmp(&a, &b, sizeof(a)), 0);
}

static void refusals(void)
{
	struct blab_sim_config c;
	struct blab_sim_result r;
	char err[200];

	for (uint32_t i = 0; i < blab_sim_workload_count(); i++) {
		const char *name = blab_sim_workload_name(i);
		blab_sim_config_init(&c);
		c.workload = blab_sim_workload_id(name);
		c.cpus = 2;
		c.pages = 64;
		c.node_zones = 1;
		c.hackbench.groups = 2;
		c.hackbench.loops = 10;
		if (c.workload == BLAB_WL_PAGE_FAULT1 || c.workload == BLAB_WL_PARALLEL_FREE)
			continue;
		err[0] = 0;
		CHECK_EQ(blab_sim_run(&c, &r, err, sizeof(err)), BLAB_EINVAL);
		/* names the workload and says why */
		CHECK(strstr(err, name) != NULL);
		CHECK(strstr(err, "one zone") != NULL);
	}
	blab_sim_config_init(&c);
	c.cpus = 2;
	c.pages = 64;
	c.node_zones = 2;
	CHECK_EQ(blab_sim_run(&c, &r, err, sizeof(err)), BLAB_EINVAL);
	CHECK(strstr(err, "node_zones") != NULL);
}

/* the creation path that lets zones share one model machine checks what it is given */
static void create_on(void)
{
	struct model_params mp;
	struct model_machine *mm = malloc(sizeof(*mm));
	struct blab_zone_config zc;
	struct blab_zone *z = NULL, *z1 = NULL;

	small_machine(&mp, 2);
	CHECK(mm != NULL);
	CHECK_EQ(model_machine_init_at(mm, &mp, NCPUS, 0x100000, 4096, 0, 2 * MODEL_NODE_LOCKS), 0);
	blab_zone_config_init(&zc);
	zc.machine = BLAB_MACHINE_MODEL;
	zc.cpus = NCPUS;
	zc.pages = 2048;
	zc.start_pfn = 0x100000;
	CHECK_EQ(_blab_zone_create_on(&zc, NULL, 0, &z), BLAB_EINVAL);
	CHECK_EQ(_blab_zone_create_on(NULL, mm, 0, &z), BLAB_EINVAL);
	CHECK_EQ(_blab_zone_create_on(&zc, mm, 2, &z), BLAB_EINVAL); /* no locks for node 2 */
	zc.cpus = 2;
	CHECK_EQ(_blab_zone_create_on(&zc, mm, 0, &z), BLAB_ECPU);
	zc.cpus = NCPUS;
	zc.machine = BLAB_MACHINE_PLAIN;
	CHECK_EQ(_blab_zone_create_on(&zc, mm, 0, &z), BLAB_EINVAL);
	zc.machine = BLAB_MACHINE_MODEL;
	zc.start_pfn = 0x100000 - 1024; /* below the dense directory */
	CHECK_EQ(_blab_zone_create_on(&zc, mm, 0, &z), BLAB_ELIMIT);
	zc.start_pfn = 0x100000 + 3072; /* runs past it */
	CHECK_EQ(_blab_zone_create_on(&zc, mm, 1, &z), BLAB_ELIMIT);
	CHECK(z == NULL);
	zc.start_pfn = 0x100000;
	CHECK_EQ(_blab_zone_create_on(&zc, mm, 0, &z), 0);
	zc.start_pfn = 0x100000 + 2048;
	CHECK_EQ(_blab_zone_create_on(&zc, mm, 1, &z1), 0);
	CHECK_EQ(zone_ok(z), 1);
	CHECK_EQ(zone_ok(z1), 1);
	/* node 1's zone->lock is its own lock id, node 0's untouched by it */
	{
		struct blab_op op;
		blab_op_alloc(&op, 2, 0, BLAB_MT_MOVABLE, 0);
		while (blab_op_step(z1, &op) == BLAB_STEP_LOCK)
			;
		CHECK(op.pfn >= 0x100000 + 2048 && op.pfn < 0x100000 + 4096);
		CHECK(mm->locks.lock[MODEL_NODE_LOCKS + LOCK_ZONE].c.acquisitions > 0);
		CHECK_EQ(mm->locks.lock[LOCK_ZONE].c.acquisitions, 0);
	}
	/* destroying the zones leaves the machine to its owner */
	blab_zone_destroy(z);
	blab_zone_destroy(z1);
	CHECK_EQ(mm->ncpus, NCPUS);
	model_machine_free(mm);
	free(mm);
}

int main(void)
{
	struct model_params one, two;
	struct nsink s1, s2;
	struct blab_sim_result a, b;

	small_machine(&one, 1);
	small_machine(&two, 2);

	/* same arguments and seed: the same event stream and result, byte for byte */
	CHECK_EQ(run(&two, "v4.16", NCPUS, 3, 1, &s1, &a), 0);
	CHECK_EQ(run(&two, "v4.16", NCPUS, 3, 1, &s2, &b), 0);
	CHECK(s1.n > 1000);
	CHECK_EQ(s1.h == s2.h, 1);
	CHECK_EQ(s1.n, s2.n);
	CHECK_EQ(memcmp(&a, &b, sizeof(a)), 0);

	/* two nodes: two zones, disjoint, node 1's above node 0's; every CPU only ever took its
	 * own node's locks and pages; both nodes worked, and the per-node counts add up to the
	 * log and (below) to the sums */
	check_two_nodes(&s1, &a);
	CHECK(s1.zone_start[1] >= s1.zone_start[0] + s1.zone_pages[0]);
	CHECK_EQ(a.node_zone_acq[0] + a.node_zone_acq[1], a.zone_acq);
	CHECK_EQ(a.node_lru_acq[0] + a.node_lru_acq[1], a.lru_acq);
	CHECK_EQ(a.pages_total, NCPUS * 200 * 2);

	/* the same machine with one zone: one lock id for everybody, so another run */
	CHECK_EQ(run(&two, "v4.16", NCPUS, 3, 0, &s2, &b), 0);
	CHECK_EQ(b.zones, 1);
	CHECK(s1.h != s2.h);
	CHECK_EQ(s2.lock_acq[MODEL_NODE_LOCKS + LOCK_ZONE], 0);
	CHECK_EQ(b.node_zone_acq[0], b.zone_acq);

	/* one socket: a zone per node is the one zone, the same run byte for byte */
	CHECK_EQ(run(&one, "v4.17", 2, 5, 1, &s1, &a), 0);
	CHECK_EQ(run(&one, "v4.17", 2, 5, 0, &s2, &b), 0);
	CHECK_EQ(s1.h == s2.h, 1);
	CHECK_EQ(s1.n, s2.n);
	CHECK_EQ(memcmp(&a, &b, sizeof(a)), 0);
	/* two sockets with CPUs on node 0 only: node 1 gets no zone, and node 0's is the one
	 * zone of the plain run */
	CHECK_EQ(run(&two, "v4.17", 2, 5, 1, &s1, &a), 0);
	CHECK_EQ(run(&two, "v4.17", 2, 5, 0, &s2, &b), 0);
	CHECK_EQ(a.zones, 1);
	CHECK_EQ(s1.h == s2.h, 1);
	CHECK_EQ(memcmp(&a, &b, sizeof(a)), 0);

	parallel_free(&one, &two);
	refusals();
	create_on();
	return harness_report("test_node_zones");
}
