/*
 * pcp_tune.c - how big a pcp list is allowed to get, and how much one refill or drain moves:
 * the kernel's sizing formulas of every era, and the decisions mm/page_alloc.c makes on one
 * per_cpu_pages (nr_pcp_alloc, nr_pcp_high, nr_pcp_free, the free_high heuristic,
 * decay_pcp_high). Nothing here touches a list or a lock: pcp.c moves the pages.
 *
 * The eras (docs/modern-pcp.md has the worked numbers):
 *   <= 5.13  batch from zone_batchsize(), high = 6 * batch; refills and drains of batch.
 *   5.14     high from zone_highsize(): the low watermark split over the node's CPUs
 *            (b92ca18e8ca5); a drain of batch << free_factor, the factor growing while frees
 *            follow frees (3b12e7e97938).
 *   6.7      high moves between high_min (the old zone_highsize()) and high_max (managed / 8
 *            over the CPUs): each refill raises it (90b41691b988, 51a755c56dc0), a free
 *            that finds the list full raises it to what the frees since the last allocation
 *            need, decay_pcp_high() lowers it by an eighth about once a second. Refills grow
 *            as batch << alloc_factor and drains are free_count, the pages freed since
 *            allocations last halved it. How far the factor, free_count and a hard drain
 *            may go is a build option, CONFIG_PCP_BATCH_SCALE_MAX (0..6, default 5:
 *            52166607ecc9, which found larger refills made some allocations wait too
 *            long): the strategy's pcp_batch_scale_max.
 */
#include "mm.h"

/* ---- sizes ---- */

static uint32_t rounddown_pow_of_two(uint32_t x)
{
	uint32_t r = 1;
	while (r <= x / 2)
		r <<= 1;
	return r;
}

uint32_t blab_zone_batchsize(uint64_t managed_pages, unsigned batch_era)
{
	/* ~0.1% of the zone, capped at 256 KB (2002), 512 KB, or 1 MB (4.18 d8a759b57035) */
	uint64_t cap = batch_era == 0 ? 64 : batch_era == 1 ? 128 : 256;
	uint64_t batch = managed_pages >> 10;
	if (batch > cap)
		batch = cap;
	batch /= 4;
	if (batch < 1)
		batch = 1;
	if (batch_era == 0)
		return (uint32_t)batch; /* 2.5.45: no 2^n - 1 clamp yet */
	/* 2^n - 1 avoids cache-colour aliasing between tasks refilling alternately */
	return rounddown_pow_of_two((uint32_t)(batch + batch / 2)) - 1;
}

uint32_t blab_zone_highsize(uint64_t total, uint32_t batch, unsigned cpus)
{
	/* 5.14+: what the zone may hold, split across the node's cpus, at least 4 batches */
	uint64_t high = total / (cpus ? cpus : 1);
	uint64_t floor = (uint64_t)batch * 4;
	if (high < floor)
		high = floor;
	return high > 0xffffffffu ? 0xffffffffu : (uint32_t)high;
}

int blab_pcp_sizes(const struct blab_strategy *s, uint64_t managed, uint64_t low, unsigned cpus,
		   struct blab_pcp_sizes *out)
{
	uint32_t zb;

	if (!s || !out)
		return BLAB_EINVAL;
	if (s->pcp > BLAB_PCP_LIFO || s->high_mode > BLAB_HIGH_AUTO || s->batch_era > 2)
		return BLAB_ESTRATEGY;
	out->batch = out->high = out->high_min = out->high_max = 0;
	if (s->pcp == BLAB_PCP_NONE)
		return 0;
	zb = blab_zone_batchsize(managed, s->batch_era);
	out->batch = s->batch ? s->batch : (zb ? zb : 1); /* a zero batch would stall refills */
	if (s->pcp == BLAB_PCP_HOTCOLD) {
		out->high = s->high ? s->high : 6 * out->batch;
	} else if (s->high_mode == BLAB_HIGH_6BATCH) {
		/* pageset_set_batch(): high = 6 * zone_batchsize(), which may be 0 */
		out->high = s->high ? s->high : 6 * (s->batch ? s->batch : zb);
	} else {
		out->high = s->high ? s->high : blab_zone_highsize(low, out->batch, cpus);
		if (s->high_mode == BLAB_HIGH_AUTO) {
			out->high_min = out->high;
			out->high_max = s->high_max ? s->high_max
						    : blab_zone_highsize(managed / 8, out->batch, cpus);
			if (out->high_max < out->high_min)
				out->high_max = out->high_min;
		}
	}
	return 0;
}

/* ---- decisions on one per_cpu_pages ---- */

static uint32_t clamp_u32(uint64_t v, uint32_t lo, uint32_t hi)
{
	/* the kernel's clamp(): max with lo first, then min with hi, so hi wins if hi < lo */
	if (v < lo)
		v = lo;
	return v > hi ? hi : (uint32_t)v;
}

/* 6.7+: pcp->high back inside [high_min, high_max] (the range may have changed) */
static uint32_t pcp_high_clamped(struct per_cpu_pages *pcp)
{
	pcp->high = clamp_u32(pcp->high, pcp->high_min, pcp->high_max);
	return pcp->high;
}

/*
 * nr_pcp_alloc(): the blocks a refill of `order` takes. Up to 6.6: batch, scaled down by the
 * order on the high-order lists (at least 2, unless batch is 1). 6.7: first high grows by the
 * refill (unless ZONE_BELOW_HIGH is set), then an order-0 refill is
 * batch << alloc_factor, the factor growing while refills follow refills, but never more than
 * leaves batch of room under high.
 */
uint32_t nr_pcp_alloc(const struct blab_zone *z, struct per_cpu_pages *pcp, unsigned order)
{
	uint32_t base = pcp->batch, count = base, high;

	if (z->s.alloc_factor) {
		high = z->s.high_mode == BLAB_HIGH_AUTO ? pcp_high_clamped(pcp) : pcp->high;
		if (high < base)
			return 1; /* a boot pageset or a zone too small for a list */
		if (!order)
			count = base << pcp->alloc_factor;
		if (pcp->high_min != pcp->high_max && !zone_below_high(z)) {
			uint64_t raised = (uint64_t)high + count;
			high = pcp->high = raised < pcp->high_max ? (uint32_t)raised : pcp->high_max;
		}
		if (!order) {
			int64_t room = (int64_t)high - pcp->count - base;
			uint32_t max_nr = room > (int64_t)base ? (uint32_t)room : base;
			if (count <= max_nr && pcp->alloc_factor < z->s.pcp_batch_scale_max)
				pcp->alloc_factor++;
			if (count > max_nr)
				count = max_nr;
		}
	}
	if (order && count > 1)
		count = (count >> order) > 2 ? count >> order : 2;
	return count;
}

/*
 * The free_high heuristic (free_unref_page_commit): should this free of `order` drain the
 * list hard? 5.18 (f26b3fa04611): a high-order free while free_factor is up. 6.7: the
 * second high-order free in a row once free_count reached batch (when the CPU's cache slice
 * is more than 3 batches, PCPF_FREE_HIGH_BATCH, the kernel also waits for count >= batch,
 * zone_pcp_update_cacheinfo(); the model machine's slice, 38.5 MB / 56 CPUs, is less, so
 * that flag stays clear); 6.16
 * (c544a952ba61): once free_count reached batch + high_min / 2.
 */
int pcp_free_high(const struct blab_zone *z, struct per_cpu_pages *pcp, unsigned order)
{
	int high_order = order && order <= BLAB_PCP_MAX_ORDER, free_high = 0;
	uint32_t threshold = pcp->batch;

	switch (z->s.free_high) {
	case BLAB_FREE_HIGH_ALL:
		return pcp->free_factor && high_order;
	case BLAB_FREE_HIGH_HALF_MIN:
		threshold += pcp->high_min / 2;
		/* fall through */
	case BLAB_FREE_HIGH_BATCH:
		if (high_order) {
			free_high = pcp->free_count >= threshold &&
				    (pcp->flags & PCPF_PREV_FREE_HIGH_ORDER);
			pcp->flags |= PCPF_PREV_FREE_HIGH_ORDER;
		} else {
			pcp->flags &= (uint8_t)~PCPF_PREV_FREE_HIGH_ORDER;
		}
		return free_high;
	default:
		return 0;
	}
}

/*
 * nr_pcp_high(): the count at which a free drains. A free_high free drains whatever is
 * there (0). 6.7: a list that filled up while the zone has room gets a high that holds the
 * frees since the last allocation plus batch (the next frees then stay); while
 * ZONE_BELOW_HIGH is set (op.c sets and clears it) high shrinks by those frees instead and
 * the list drains whenever it holds high_min pages or more.
 * While kswapd reclaims (ZONE_RECLAIM_ACTIVE) the kernel lowers pcp->high by
 * max(free_count, batch) and drains at min(4 * batch, pcp->high); the model has no reclaim.
 */
uint32_t nr_pcp_high(const struct blab_zone *z, struct per_cpu_pages *pcp, int free_high)
{
	uint32_t high, fc;

	if (z->s.high_mode != BLAB_HIGH_AUTO)
		return free_high ? 0 : pcp->high;
	high = pcp_high_clamped(pcp);
	if (!high)
		return 0;
	if (free_high) {
		uint32_t cut = pcp->batch << z->s.pcp_batch_scale_max;
		pcp->high = high > pcp->high_min + cut ? high - cut : pcp->high_min;
		return 0;
	}
	if (pcp->high_min == pcp->high_max)
		return high;
	if (zone_below_high(z)) {
		fc = pcp->free_count > pcp->batch ? pcp->free_count : pcp->batch;
		pcp->high = high > pcp->high_min + fc ? high - fc : pcp->high_min;
		return pcp->count > pcp->high_min ? pcp->count : pcp->high_min;
	}
	if (pcp->count >= high) {
		uint64_t need = (uint64_t)pcp->free_count + pcp->batch;
		if (pcp->high < need)
			pcp->high = clamp_u32(need, pcp->high_min, pcp->high_max);
	}
	return high;
}

/*
 * nr_pcp_free(): the pages a free that reached `high` gives back. Up to 5.13: batch. 5.14:
 * batch << free_factor, the factor growing while the drains stay under high - batch, clamped
 * to [batch, high - batch] so batch pages stay; a free_high free (5.18) takes everything.
 * 6.7: free_count clamped the same way; a free_high free takes at most
 * batch << CONFIG_PCP_BATCH_SCALE_MAX. Below
 * batch of high (a tiny zone): 1.
 */
uint32_t nr_pcp_free(const struct blab_zone *z, struct per_cpu_pages *pcp, uint32_t high,
		     int free_high)
{
	uint32_t batch = pcp->batch, max_nr_free;
	uint64_t nr;

	switch (z->s.free_factor) {
	case BLAB_FREE_FACTOR:
		if (free_high)
			return pcp->count;
		if (high < batch)
			return 1;
		max_nr_free = high - batch;
		nr = (uint64_t)batch << pcp->free_factor;
		if (nr < max_nr_free)
			pcp->free_factor++;
		return clamp_u32(nr, batch, max_nr_free);
	case BLAB_FREE_COUNT:
		if (free_high) {
			uint32_t cap = batch << z->s.pcp_batch_scale_max;
			return pcp->count < cap ? pcp->count : cap;
		}
		if (high < batch)
			return 1;
		return clamp_u32(pcp->free_count, batch, high - batch);
	default:
		return batch;
	}
}

/*
 * decay_pcp_high() (6.7): what the vmstat worker does for each CPU about once a second.
 * high above high_min comes down by an eighth, but by no more than leaves
 * batch << CONFIG_PCP_BATCH_SCALE_MAX pages above it; what the list holds above the new high is to be drained (the return value).
 */
uint32_t decay_pcp_high(const struct blab_zone *z, struct per_cpu_pages *pcp)
{
	if (z->s.high_mode != BLAB_HIGH_AUTO)
		return 0;
	if (pcp->high > pcp->high_min) {
		uint32_t cut = pcp->batch << z->s.pcp_batch_scale_max;
		uint32_t a = pcp->count > cut ? pcp->count - cut : 0;
		uint32_t b = pcp->high - pcp->high / 8;
		uint32_t h = a > b ? a : b;
		pcp->high = h > pcp->high_min ? h : pcp->high_min;
	}
	return pcp->count > pcp->high ? pcp->count - pcp->high : 0;
}
