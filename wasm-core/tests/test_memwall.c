/*
 * The memory wall on the model machine (blab_sim_result's mem_* counters and `binds`): with a
 * controller too small for the tasks' clear_page() traffic the run is bound by memory, carries
 * close to its limit and no more; without a limit (mem_channels 0) the same run is bound by
 * nothing of it; clear_page_rfo 0 halves the bytes a page; every figure is deterministic; and
 * page_fault1 out of step (--out-of-step) runs the same work as in step. A small machine keeps
 * it fast: 1 socket x 4 cores x 1 thread, its caches divided by 8.
 */
#include <string.h>

#include "blab_model.h"
#include "blab_sim.h"
#include "common.h"

static int run(const struct model_params *p, uint32_t cpus, uint8_t out_of_step,
	       uint32_t iterations, struct blab_sim_result *r)
{
	struct blab_sim_config c;
	char err[200];
	int ret;

	blab_sim_config_init(&c);
	c.workload = BLAB_WL_PAGE_FAULT1;
	c.cpus = cpus;
	c.pages = 1024;
	c.iterations = iterations;
	c.cache_scale = 8;
	c.out_of_step = out_of_step;
	c.model = p;
	CHECK_EQ(blab_preset("v5.18", &c.strategy), 0);
	ret = blab_sim_run(&c, r, err, sizeof(err));
	if (ret)
		fprintf(stderr, "blab_sim_run: %s\n", err);
	return ret;
}

static void small_machine(struct model_params *p)
{
	model_params_default(p);
	p->sockets = 1;
	p->cores_per_socket = 4;
	p->threads_per_core = 1;
}

static void test_bound_by_memory(void)
{
	struct model_params p;
	struct blab_sim_result wall, again, free_run, no_rfo;

	small_machine(&p);
	/* one channel of DDR-400 at 78 %: 2,496 MB/s, a tenth of what 4 tasks clear */
	p.mem_channels = 1;
	p.mem_mts = 400;
	CHECK_EQ(run(&p, 4, 0, 2, &wall), 0);
	CHECK_EQ(run(&p, 4, 0, 2, &again), 0);
	CHECK_EQ(memcmp(&wall, &again, sizeof(wall)), 0);
	fprintf(stderr, "  4 tasks, 2,496 MB/s: %llu pages/s, %llu MB/s, %u bp of the limit, waiting %u bp, binds %s\n",
		(unsigned long long)wall.score, (unsigned long long)wall.mem_mbs, wall.mem_util_bp,
		wall.mem_wait_bp, blab_sim_limit_name(wall.binds));
	CHECK_EQ(wall.mem_limit_mbs, 2496);
	CHECK_EQ(wall.binds, BLAB_LIMIT_MEMORY);
	CHECK(wall.mem_util_bp > 6000 && wall.mem_util_bp <= 10000); /* near, never past, its limit */
	CHECK(wall.mem_clear_wait > wall.mem_read_wait);       /* the clears wait, reads go first */
	/* at 8 KB a page the score cannot pass the limit's pages a second */
	CHECK(wall.score <= 2496ull * 1000000u / 8192u);

	p.clear_page_rfo = 0; /* a cleared line is its write-back alone: twice the pages */
	CHECK_EQ(run(&p, 4, 0, 2, &no_rfo), 0);
	CHECK(no_rfo.score > wall.score * 3 / 2);

	p.mem_channels = 0; /* no limit: the clears never wait */
	CHECK_EQ(run(&p, 4, 0, 2, &free_run), 0);
	CHECK_EQ(free_run.mem_limit_mbs, 0);
	CHECK_EQ(free_run.mem_util_bp, 0);
	CHECK_EQ(free_run.mem_clear_wait, 0);
	CHECK(free_run.binds != BLAB_LIMIT_MEMORY);
	CHECK(free_run.score > wall.score * 3);
}

static void test_out_of_step(void)
{
	struct model_params p;
	struct blab_sim_result in, out, out2;
	struct blab_sim_config c;
	char err[200];

	small_machine(&p);
	CHECK_EQ(run(&p, 4, 0, 3, &in), 0);
	CHECK_EQ(run(&p, 4, 1, 3, &out), 0);
	CHECK_EQ(run(&p, 4, 1, 3, &out2), 0);
	CHECK_EQ(memcmp(&out, &out2, sizeof(out)), 0);
	/* the same work, counted over the full rounds between the cut one and its tail */
	CHECK_EQ(out.pages_total, in.pages_total);
	CHECK_EQ(out.pages_total, 4u * 1024u * 3u);
	CHECK_EQ(out.pages_scored, 4u * 1024u);
	CHECK(in.pages_scored == 4u * 1024u * 2u);
	/* only page_fault1, and only with a round to cut */
	blab_sim_config_init(&c);
	c.cpus = 2;
	c.pages = 64;
	c.iterations = 2;
	c.out_of_step = 1;
	CHECK_EQ(blab_sim_run(&c, &out, err, sizeof(err)), BLAB_EINVAL);
	CHECK(strstr(err, "3 or more rounds") != NULL);
	c.iterations = 3;
	c.workload = BLAB_WL_TRUNC;
	CHECK_EQ(blab_sim_run(&c, &out, err, sizeof(err)), BLAB_EINVAL);
}

int main(void)
{
	test_bound_by_memory();
	test_out_of_step();
	return harness_report("test_memwall");
}
