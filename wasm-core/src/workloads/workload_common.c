/* workload_common.c - what the per-task workloads share (workload_common.h) */
#include <stdio.h>
#include <stdlib.h>

#include "machine/machine.h"
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

/*
 * Where the model machine finds the node's lruvec: 4.16's pglist_data keeps lru_lock and
 * the lruvec (the LRU list heads) after the zones, behind padding, so a page past
 * buddy.c's free_area lines (node_pgdat_vaddr(z): node 0's at PAGE_OFFSET + 0x7ffc0000,
 * 968 bytes) and below the zone's frames (PAGE_OFFSET + 4 GB). Two lines: the list heads,
 * and the per-LRU size counters (lru_zone_size, which update_lru_size() rewrites for every
 * page on or off the list). Each node has its own (z->node).
 */
#define LRUVEC_LISTS_VADDR(z) (node_pgdat_vaddr(z) + 0x1000u)
#define LRUVEC_SIZE_VADDR(z) (LRUVEC_LISTS_VADDR(z) + 64u)
#define LRU_OFF 0xfffffffeu /* the links of a page that is not on the list */

int sim_lru_init(struct sim_lru *l, uint32_t zone_pages)
{
	l->head = zone_pages;
	l->link = malloc(((size_t)zone_pages + 1) * sizeof(*l->link));
	if (!l->link) {
		sim_lru_free(l);
		return -1;
	}
	for (uint32_t i = 0; i < zone_pages; i++)
		l->link[i].prev = l->link[i].next = LRU_OFF;
	l->link[l->head].prev = l->link[l->head].next = l->head;
	return 0;
}

void sim_lru_free(struct sim_lru *l)
{
	free(l->link);
	l->link = NULL;
}

int sim_node_lrus_init(const struct sim_run *run, struct sim_lru lru[BLAB_SIM_MAX_NODES])
{
	for (uint32_t n = 0; n < sim_nodes(run); n++) {
		const struct blab_zone *z = run->nodes ? run->node_zone[n] : run->z;
		if (z && sim_lru_init(&lru[n], z->pages))
			return -1;
	}
	return 0;
}

void sim_node_lrus_free(struct sim_lru lru[BLAB_SIM_MAX_NODES])
{
	for (uint32_t n = 0; n < BLAB_SIM_MAX_NODES; n++)
		sim_lru_free(&lru[n]);
}

/* the line a list_add/list_del rewrites for neighbour nb: its struct page, or the head */
static void lru_store_neighbour(struct blab_zone *z, unsigned cpu, const struct sim_lru *l,
				uint32_t nb)
{
	if (nb == l->head)
		mach_store_line(&z->machine, cpu, LRUVEC_LISTS_VADDR(z), BLAB_PATH_NONE);
	else
		mach_store_line(&z->machine, cpu, page_vaddr(idx_to_pfn(z, nb)), BLAB_PATH_NONE);
}

void sim_lru_add_batch(struct blab_zone *z, unsigned cpu, struct sim_lru *l,
		       const uint32_t *pfns, uint32_t first, uint32_t n)
{
	mach_lock(&z->machine, cpu, BLAB_LOCK_LRU);
	for (uint32_t j = first; j < first + n; j++) {
		uint32_t idx = pfns[j], old = l->link[l->head].next;
		/* SetPageLRU, page->lru */
		mach_touch_page(&z->machine, cpu, idx_to_pfn(z, idx), 1, BLAB_PATH_NONE);
		/* list_add: head->next is loaded, the old first page's lru.prev rewritten */
		mach_touch_line(&z->machine, cpu, LRUVEC_LISTS_VADDR(z), 1, BLAB_PATH_NONE);
		lru_store_neighbour(z, cpu, l, old);
		mach_touch_line(&z->machine, cpu, LRUVEC_SIZE_VADDR(z), 1, BLAB_PATH_NONE);
		mach_work(&z->machine, cpu, BLAB_COST_LIST_OP);
		l->link[idx].next = old;
		l->link[idx].prev = l->head;
		l->link[old].prev = idx;
		l->link[l->head].next = idx;
	}
	mach_unlock(&z->machine, cpu, BLAB_LOCK_LRU);
}

void sim_lru_release_batch(struct blab_zone *z, unsigned cpu, struct sim_lru *l,
			   const uint32_t *pfns, uint32_t first, uint32_t n)
{
	mach_lock(&z->machine, cpu, BLAB_LOCK_LRU);
	for (uint32_t j = first; j < first + n; j++) {
		uint32_t idx = pfns[j], p = l->link[idx].prev, nx = l->link[idx].next;
		/* PageLRU test and __ClearPageLRU, then list_del reads page->lru */
		mach_touch_page(&z->machine, cpu, idx_to_pfn(z, idx), 1, BLAB_PATH_NONE);
		if (p == LRU_OFF)
			continue; /* never went on the list (not reached for these workloads) */
		lru_store_neighbour(z, cpu, l, p);
		lru_store_neighbour(z, cpu, l, nx);
		mach_touch_line(&z->machine, cpu, LRUVEC_SIZE_VADDR(z), 1, BLAB_PATH_NONE);
		mach_work(&z->machine, cpu, BLAB_COST_LIST_OP);
		l->link[p].next = nx;
		l->link[nx].prev = p;
		l->link[idx].prev = l->link[idx].next = LRU_OFF;
	}
	mach_unlock(&z->machine, cpu, BLAB_LOCK_LRU);
}

void sim_lru_migrated(struct sim_lru *l, uint32_t old_idx, uint32_t new_idx)
{
	uint32_t p = l->link[old_idx].prev, nx = l->link[old_idx].next;

	if (p == LRU_OFF)
		return;
	l->link[new_idx].prev = p;
	l->link[new_idx].next = nx;
	l->link[p].next = new_idx;
	l->link[nx].prev = new_idx;
	l->link[old_idx].prev = l->link[old_idx].next = LRU_OFF;
}

void sim_lru_batch(struct blab_zone *z, unsigned cpu, const uint32_t *pfns, uint32_t first,
		   uint32_t n)
{
	mach_lock(&z->machine, cpu, BLAB_LOCK_LRU);
	for (uint32_t j = first; j < first + n; j++) {
		mach_touch_page(&z->machine, cpu, idx_to_pfn(z, pfns[j]), 1, BLAB_PATH_NONE);
		mach_work(&z->machine, cpu, BLAB_COST_LIST_OP);
	}
	mach_unlock(&z->machine, cpu, BLAB_LOCK_LRU);
}

int sim_free_pages_step(struct blab_zone *z, unsigned cpu, struct blab_op *op, uint8_t *active,
			const uint32_t *pfns, uint32_t n, uint32_t *k)
{
	while (*k < n) {
		int ret;

		if (!*active) {
			/* the caller's pages are one list free (release_pages() ->
			 * free_unref_page_list(); 6.10+ free_unref_folios() of a folio batch, 31):
			 * 6.0+ takes pcp->lock for its first page and keeps it, taking it again
			 * every SWAP_CLUSTER_MAX pages */
			unsigned gfp = *k % SIM_SWAP_CLUSTER_MAX ? BLAB_GFP_PCP_HELD : 0;
			blab_op_free(op, cpu, idx_to_pfn(z, pfns[*k]), 0, gfp);
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
		mach_touch_page(&z->machine, cpu, idx_to_pfn(z, pfns[j]), 1, BLAB_PATH_NONE);
		mach_work(&z->machine, cpu, BLAB_COST_UNMAP);
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

uint32_t sim_contention_bp(uint64_t spin, uint64_t cycles)
{
	return cycles ? (uint32_t)((unsigned __int128)spin * 10000u / cycles) : 0;
}

void sim_score_add(struct blab_sim_result *r, uint64_t n, uint64_t cycles, uint32_t cpu_mhz)
{
	if (!cycles)
		return;
	/* 128-bit: n x MHz x 10^9 overflows 64 bits on long runs */
	r->score += (uint64_t)((unsigned __int128)n * cpu_mhz * 1000000u / cycles);
	r->score_milli += (uint64_t)((unsigned __int128)n * cpu_mhz * 1000000000u / cycles);
}

void sim_round_timed_start(struct blab_zone *z, unsigned cpu, struct sim_rounds *rd)
{
	rd->start = mach_now(&z->machine, cpu);
	blab_mark(z, cpu, 1, rd->round);
}

int sim_round_timed_end(struct blab_zone *z, unsigned cpu, const struct blab_sim_config *c,
			struct sim_rounds *rd, uint32_t pages)
{
	if (rd->round > 0 || c->iterations == 1) {
		rd->scored_pages += pages;
		rd->scored_cycles += mach_now(&z->machine, cpu) - rd->start;
	}
	return ++rd->round >= c->iterations;
}

void sim_rounds_finish(const struct sim_run *run, const struct sim_rounds *rd,
		       uint64_t pages_done, struct blab_sim_result *r)
{
	r->pages_total += pages_done;
	r->pages_scored += rd->scored_pages;
	sim_score_add(r, rd->scored_pages, rd->scored_cycles, run->mp->cpu_mhz);
}
