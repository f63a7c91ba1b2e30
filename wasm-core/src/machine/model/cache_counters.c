/*
 * cache_counters.c - what the cache model counted, read out: per CPU and per code path (the
 * L1 hits answered inline by cache_access_mru() added back in), their total, the wasted
 * prefetches waiting for an event record, at the end of a run the prefetched lines
 * never used, and the memory controllers' traffic.
 */
#include <string.h>

#include "cache_private.h"

uint32_t cache_take_wasted(struct cache_model *m, struct cache_wasted *out, uint32_t max)
{
	uint32_t n = m->nwasted < max ? m->nwasted : max;
	for (uint32_t i = 0; i < n; i++)
		out[i] = m->wasted[i];
	for (uint32_t i = n; i < m->nwasted; i++)
		m->wasted[i - n] = m->wasted[i];
	m->nwasted -= n;
	return n;
}

uint64_t cache_finish_each(struct cache_model *m,
			   void (*fn)(void *ctx, const struct cache_wasted *w), void *ctx)
{
	uint64_t n = 0;
	for (uint32_t k = 0; k < m->ncores; k++) {
		struct cache_level *c = &m->l1[k];
		for (uint64_t i = 0; i < (uint64_t)c->nsets * c->assoc; i++)
			if (c->way[i].pfm.pf) {
				struct cache_wasted w;
				account_wasted(m, &c->way[i].pfm);
				c->way[i].pfm.pf = 0;
				c->pf_marks--;
				w.vaddr = c->way[i].line << MODEL_LINE_SHIFT;
				w.cpu = c->way[i].pfm.cpu;
				w.path = c->way[i].pfm.path;
				if (fn)
					fn(ctx, &w);
				n++;
			}
	}
	return n;
}

uint64_t cache_finish(struct cache_model *m)
{
	return cache_finish_each(m, NULL, NULL);
}

/* counters c plus `mru` L1 hits by reads and writes (cache_access_mru counts only those) */
static struct cache_counters with_mru(const struct cache_model *m, struct cache_counters c,
				      const uint64_t mru[2])
{
	c.access[CACHE_L1] += mru[0] + mru[1];
	c.writes += mru[1];
	c.cycles += (mru[0] + mru[1]) * m->p.l1_cycles;
	return c;
}

struct cache_counters cache_cpu_counters(const struct cache_model *m, uint32_t cpu)
{
	return with_mru(m, m->cnt_cpu[cpu], m->mru_cpu[cpu]);
}

struct cache_counters cache_path_counters(const struct cache_model *m, uint32_t path)
{
	return with_mru(m, m->cnt_path[path & 0xffu], m->mru_path[path & 0xffu]);
}

void cache_total(const struct cache_model *m, struct cache_counters *out)
{
	memset(out, 0, sizeof(*out));
	for (uint32_t c = 0; c < m->ncpus; c++) {
		const struct cache_counters s = cache_cpu_counters(m, c);
		for (int o = 0; o < CACHE_NR_OUTCOMES; o++)
			out->access[o] += s.access[o];
		out->writes += s.writes;
		out->cycles += s.cycles;
		out->prefetches += s.prefetches;
		out->pf_redundant += s.pf_redundant;
		out->pf_wasted += s.pf_wasted;
		out->cleared_lines += s.cleared_lines;
	}
}

void cache_mem_total(const struct cache_model *m, struct mem_ctl_counters *out,
		     uint64_t *busiest_bytes)
{
	memset(out, 0, sizeof(*out));
	*busiest_bytes = 0;
	for (uint32_t s = 0; s < m->nsockets; s++) {
		const struct mem_ctl_counters *c = &m->mc[s].c;
		uint64_t bytes = (c->read_lines + c->wb_lines + c->rfo_lines) * 64u;
		out->read_lines += c->read_lines;
		out->wb_lines += c->wb_lines;
		out->rfo_lines += c->rfo_lines;
		out->queue_cycles += c->queue_cycles;
		out->stall_cycles += c->stall_cycles;
		out->spilled += c->spilled;
		if (c->end > out->end)
			out->end = c->end;
		if (bytes > *busiest_bytes)
			*busiest_bytes = bytes;
	}
}
