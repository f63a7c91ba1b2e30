/* workload_common.c - what the per-task workloads share (workload_common.h) */
#include <stdio.h>
#include <stdlib.h>

#include "machine.h"
#include "workload_common.h"

int sim_op_step(struct blab_zone *z, struct blab_op *op, uint8_t *active)
{
	int ret = blab_op_step(z, op);

	if (ret == BLAB_STEP_LOCK)
		return ret;
	if (ret != BLAB_STEP_DONE)
		return ret < 0 ? ret : BLAB_EINVAL;
	*active = 0;
	return BLAB_STEP_DONE;
}

int sim_op_step_may_fail(struct blab_zone *z, struct blab_op *op, uint8_t *active)
{
	int ret = blab_op_step(z, op);

	if (ret == BLAB_STEP_LOCK)
		return ret;
	*active = 0;
	if (ret == BLAB_ENOMEM || ret == BLAB_STEP_DONE) {
		op->err = ret;
		return BLAB_STEP_DONE;
	}
	return ret < 0 ? ret : BLAB_EINVAL;
}

void sim_lru_batch(struct blab_zone *z, unsigned cpu, const uint32_t *pfns, uint32_t first,
		   uint32_t n)
{
	mach_lock(z, cpu, BLAB_LOCK_LRU);
	for (uint32_t j = first; j < first + n; j++) {
		mach_touch_page(z, cpu, idx_to_pfn(z, pfns[j]), 1, BLAB_PATH_NONE);
		mach_work(z, cpu, BLAB_COST_LIST_OP);
	}
	mach_unlock(z, cpu, BLAB_LOCK_LRU);
}

int sim_free_pages_step(struct blab_zone *z, unsigned cpu, struct blab_op *op, uint8_t *active,
			const uint32_t *pfns, uint32_t n, uint32_t *k)
{
	while (*k < n) {
		int ret;

		if (!*active) {
			blab_op_free(op, cpu, idx_to_pfn(z, pfns[*k]), 0, 0);
			*active = 1;
		}
		ret = sim_op_step(z, op, active);
		if (ret != BLAB_STEP_DONE)
			return ret;
		(*k)++;
	}
	return BLAB_STEP_DONE;
}

void sim_unmap_pages(struct blab_zone *z, unsigned cpu, const uint32_t *pfns, uint32_t n)
{
	for (uint32_t j = 0; j < n; j++) {
		mach_touch_page(z, cpu, idx_to_pfn(z, pfns[j]), 1, BLAB_PATH_NONE);
		mach_work(z, cpu, BLAB_COST_UNMAP);
	}
}

uint64_t sim_zone_pages_per_task(const struct blab_sim_config *c)
{
	return (uint64_t)c->cpus * c->pages;
}

void *sim_tasks_alloc(const struct blab_sim_config *c, size_t task_size, uint32_t **pfns)
{
	void *tasks = calloc(c->cpus, task_size);

	*pfns = malloc((size_t)c->cpus * c->pages * sizeof(**pfns));
	if (!tasks || !*pfns) {
		free(tasks);
		free(*pfns);
		*pfns = NULL;
		return NULL;
	}
	return tasks;
}

int sim_out_of_host_memory(char *err, size_t errlen)
{
	if (err && errlen)
		snprintf(err, errlen, "out of host memory");
	return BLAB_ENOMEMHOST;
}

uint64_t sim_pages_per_second(uint64_t pages, uint64_t cycles, uint32_t cpu_mhz)
{
	if (!cycles)
		return 0;
	/* 128-bit: pages x MHz x 10^6 overflows 64 bits on long runs */
	return (uint64_t)((unsigned __int128)pages * cpu_mhz * 1000000u / cycles);
}

void sim_round_timed_start(struct blab_zone *z, unsigned cpu, struct sim_rounds *rd)
{
	rd->start = mach_now(z, cpu);
	blab_mark(z, cpu, 1, rd->round);
}

int sim_round_timed_end(struct blab_zone *z, unsigned cpu, const struct blab_sim_config *c,
			struct sim_rounds *rd, uint32_t pages)
{
	if (rd->round > 0 || c->iterations == 1) {
		rd->scored_pages += pages;
		rd->scored_cycles += mach_now(z, cpu) - rd->start;
	}
	return ++rd->round >= c->iterations;
}

void sim_rounds_finish(const struct sim_run *run, const struct sim_rounds *rd,
		       uint64_t pages_done, struct blab_sim_result *r)
{
	r->pages_total += pages_done;
	r->pages_scored += rd->scored_pages;
	r->score += sim_pages_per_second(rd->scored_pages, rd->scored_cycles, run->mp->cpu_mhz);
}
