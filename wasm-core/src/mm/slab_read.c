/*
 * slab_read.c - a slab cache read back: which cache an object belongs to (virt_to_cache(),
 * what kfree() does first), each slab and who holds it, and a freelist in its order.
 *
 * What a problem posed on a cache must state for its answers to follow (src/exercise/), what
 * the op script's `slabinfo` prints, and what a test compares after a replay. Readers only.
 */
#include "slab.h"

static const struct kmem_cache *cache_at(const struct blab_zone *z, uint32_t id)
{
	if (!z || !z->slab || id >= BLAB_SLAB_MAX_CACHES || !z->slab->caches[id].used)
		return NULL;
	return &z->slab->caches[id];
}

/* the slab holding the page of addr, or NULL */
static const struct slab *slab_at(const struct blab_zone *z, uint64_t addr, uint32_t *sid)
{
	uint64_t pfn;
	uint32_t s;

	if (!z->slab || addr < PAGE_OFFSET || addr >= VMEMMAP_START)
		return NULL;
	pfn = (addr - PAGE_OFFSET) >> PAGE_SHIFT;
	if (pfn < z->start_pfn || pfn - z->start_pfn >= z->pages)
		return NULL;
	s = z->slab->page_slab[pfn_to_idx(z, pfn)];
	if (s == NO_SLAB || z->slab->slabs[s].dying)
		return NULL;
	if (sid)
		*sid = s;
	return &z->slab->slabs[s];
}

int blab_kmem_cache_of(const struct blab_zone *z, uint64_t addr, uint32_t *id)
{
	const struct slab *s;

	if (!z || !id)
		return BLAB_EINVAL;
	s = slab_at(z, addr, NULL);
	if (!s)
		return BLAB_ESLABOBJ;
	*id = s->cache;
	return 0;
}

/* where slab sid sits on the cache's partial list, the head 0 */
static uint32_t partial_pos(const struct blab_zone *z, const struct kmem_cache *c, uint32_t sid)
{
	uint32_t pos = 0;
	for (uint32_t s = c->partial_head; s != NO_SLAB && s != sid; s = z->slab->slabs[s].next)
		pos++;
	return pos;
}

int blab_kmem_cache_slabs(const struct blab_zone *z, uint32_t id, struct blab_slab_info *out,
			  uint32_t max, uint32_t *n)
{
	const struct kmem_cache *c = cache_at(z, id);
	uint32_t count = 0;

	if (!n || (max && !out))
		return BLAB_EINVAL;
	if (!c)
		return z ? BLAB_ESLABCACHE : BLAB_EINVAL;
	/* page_slab in pfn order finds each slab at its first page: the slabs by pfn */
	for (uint32_t i = 0; i < z->pages; i++) {
		uint32_t sid = z->slab->page_slab[i];
		const struct slab *s;
		struct blab_slab_info info = {0};
		uint32_t free = 0;

		if (sid == NO_SLAB || z->slab->slabs[sid].idx != i)
			continue;
		s = &z->slab->slabs[sid];
		if (s->cache != id || s->dying)
			continue;
		for (uint16_t o = s->freelist; o != FP_END && free <= s->objects; o = s->fp[o])
			free++;
		info.pfn = slab_pfn(z, s);
		info.base = frame_vaddr(info.pfn);
		info.objects = s->objects;
		info.inuse = s->inuse;
		info.cpu = s->frozen ? s->cpu : BLAB_CPU_NONE;
		info.on_partial = s->on_partial;
		info.partial_pos = s->on_partial ? partial_pos(z, c, sid) : 0;
		info.nr_free = free;
		if (count < max)
			out[count] = info;
		count++;
	}
	*n = count;
	return count > max ? BLAB_ELIMIT : 0;
}

int blab_kmem_freelist(const struct blab_zone *z, uint32_t id, unsigned cpu, uint64_t slab_pfn_,
		       uint16_t *objs, uint32_t max, uint32_t *n)
{
	const struct kmem_cache *c = cache_at(z, id);
	const struct slab *s;
	uint32_t count = 0;
	uint16_t o;

	if (!n || (max && !objs))
		return BLAB_EINVAL;
	if (!c)
		return z ? BLAB_ESLABCACHE : BLAB_EINVAL;
	*n = 0;
	if (cpu != BLAB_CPU_NONE) {
		const struct kmem_cache_cpu *cc;
		if (cpu >= z->cpus)
			return BLAB_ECPU;
		cc = &c->cpu_slab[cpu];
		if (cc->slab == NO_SLAB)
			return 0;
		s = &z->slab->slabs[cc->slab];
		o = cc->freelist;
	} else {
		uint32_t sid;
		s = slab_at(z, frame_vaddr(slab_pfn_), &sid);
		if (!s || s->cache != id || slab_pfn(z, s) != slab_pfn_)
			return BLAB_ESLABOBJ;
		o = s->freelist;
	}
	for (; o != FP_END; o = s->fp[o]) {
		if (count < max)
			objs[count] = o;
		if (++count > s->objects)
			return BLAB_ECHECK; /* a cycle: blab_check() says where */
	}
	*n = count;
	return count > max ? BLAB_ELIMIT : 0;
}
