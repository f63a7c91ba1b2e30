/*
 * memctl.c - a socket's memory controller made: the bytes an epoch carries and one line's
 * burst on one channel, from the machine's parameters (memctl.h says how it books traffic).
 */
#include <string.h>

#include "memctl.h"

void memctl_init(struct mem_ctl *mc, const struct model_params *p)
{
	memset(mc, 0, sizeof(*mc));
	if (!p->mem_channels)
		return; /* no limit: every read costs mem_cycles, writes nothing */
	/* MB/s are bytes a microsecond, cpu_mhz cycles a microsecond */
	uint64_t mbs = (uint64_t)p->mem_channels * p->mem_mts * 8u * p->mem_sustained_pct / 100u;
	uint64_t cap = mbs * MEMCTL_EPOCH / p->cpu_mhz;
	mc->cap = cap < 1u ? 1u : cap > 0x7fffffffu ? 0x7fffffffu : (uint32_t)cap;
	/* 64 bytes at mem_mts x 8 bytes a microsecond, in 1/16 cycles */
	uint64_t svc16 = 128ull * p->cpu_mhz / p->mem_mts;
	mc->svc16 = svc16 > 0xffffffffu ? 0xffffffffu : (uint32_t)svc16;
	mc->rfo = p->clear_page_rfo;
}

