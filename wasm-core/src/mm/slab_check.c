/*
 * slab_check.c - the slab layer's invariant checker. From the lists alone it rebuilds where
 * every object is and compares with the counters:
 *   each CPU's c->freelist runs through objects of its own cpu slab, marked as on a cpu
 *   freelist, without a cycle, and c->nr_free counts them; the cpu slab is frozen and owned
 *   by that CPU; the tid says which CPU it belongs to (tid % TID_STEP == cpu);
 *   each slab's own freelist runs through objects marked free in that slab, and
 *   inuse = objects - its length; every object is on exactly one freelist or handed out;
 *   the node's partial list is doubly linked, holds exactly the slabs marked on_partial
 *   (never a frozen one, never a full one) and nr_partial counts them; a slab on no list and
 *   not frozen is full; the cache's inuse and nr_slabs add up;
 *   every page of a slab maps back to it and is an allocated block of the page allocator.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "slab.h"

static int fail(char *msg, unsigned msglen, const char *fmt, ...)
{
	if (msg && msglen) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(msg, msglen, fmt, ap);
		va_end(ap);
	}
	return BLAB_ECHECK;
}

/* objects of one slab reached through lists: a bit per object, cleared per slab */
static int check_slab(const struct blab_zone *z, uint32_t id, const struct kmem_cache *c,
		      uint32_t sid, uint8_t *seen, char *msg, unsigned msglen)
{
	const struct slab_state *ss = z->slab;
	const struct slab *s = &ss->slabs[sid];
	uint32_t nfree = 0, ncpu = 0, nalloc = 0;
	const struct page *head;

	if (s->objects != c->objects)
		return fail(msg, msglen, "%s: slab %u has %u objects, the cache %u", c->name, sid,
			    s->objects, c->objects);
	if (s->idx >= z->pages || s->idx + (1u << c->order) > z->pages)
		return fail(msg, msglen, "%s: slab %u lies outside the zone", c->name, sid);
	head = zone_page(z, s->idx);
	if (!(head->flags & PG_alloc) || head->order != c->order)
		return fail(msg, msglen, "%s: slab pfn=0x%llx is not an allocated order-%u block",
			    c->name, (unsigned long long)slab_pfn(z, s), c->order);
	for (uint32_t i = 0; i < (1u << c->order); i++)
		if (ss->page_slab[s->idx + i] != sid)
			return fail(msg, msglen, "%s: page %u of slab pfn=0x%llx maps elsewhere",
				    c->name, i, (unsigned long long)slab_pfn(z, s));
	for (uint32_t o = 0; o < s->objects; o++)
		seen[o] = 0;
	for (uint16_t o = s->freelist; o != FP_END; o = s->fp[o]) {
		if (o >= s->objects || seen[o] || s->state[o] != OBJ_SLAB_FREE)
			return fail(msg, msglen,
				    "%s: slab pfn=0x%llx: freelist reaches object %u badly "
				    "(out of range, twice, or not marked slab-free)",
				    c->name, (unsigned long long)slab_pfn(z, s), o);
		seen[o] = 1;
		nfree++;
	}
	if (s->inuse != s->objects - nfree)
		return fail(msg, msglen, "%s: slab pfn=0x%llx: inuse %u, but %u of %u objects free",
			    c->name, (unsigned long long)slab_pfn(z, s), s->inuse, nfree, s->objects);
	if (s->frozen) {
		const struct kmem_cache_cpu *cc;
		if (s->cpu >= z->cpus || c->cpu_slab[s->cpu].slab != sid)
			return fail(msg, msglen, "%s: frozen slab pfn=0x%llx is no CPU's cpu slab",
				    c->name, (unsigned long long)slab_pfn(z, s));
		if (s->on_partial)
			return fail(msg, msglen, "%s: cpu slab pfn=0x%llx is on the partial list",
				    c->name, (unsigned long long)slab_pfn(z, s));
		cc = &c->cpu_slab[s->cpu];
		for (uint16_t o = cc->freelist; o != FP_END; o = s->fp[o]) {
			if (o >= s->objects || seen[o] || s->state[o] != OBJ_CPU_FREE)
				return fail(msg, msglen,
					    "%s: cpu %u freelist reaches object %u badly", c->name,
					    s->cpu, o);
			seen[o] = 1;
			ncpu++;
		}
		if (ncpu != cc->nr_free)
			return fail(msg, msglen, "%s: cpu %u: nr_free %u, freelist holds %u", c->name,
				    s->cpu, cc->nr_free, ncpu);
	} else if (!s->on_partial && s->inuse != s->objects) {
		return fail(msg, msglen, "%s: slab pfn=0x%llx on no list but not full (%u/%u)",
			    c->name, (unsigned long long)slab_pfn(z, s), s->inuse, s->objects);
	} else if (s->on_partial && s->inuse == s->objects) {
		return fail(msg, msglen, "%s: full slab pfn=0x%llx on the partial list", c->name,
			    (unsigned long long)slab_pfn(z, s));
	}
	for (uint32_t o = 0; o < s->objects; o++) {
		if (s->state[o] == OBJ_ALLOC) {
			if (seen[o])
				return fail(msg, msglen, "%s: object %u is handed out and free", c->name, o);
			nalloc++;
		} else if (!seen[o]) {
			return fail(msg, msglen,
				    "%s: slab pfn=0x%llx: free object %u is on no freelist", c->name,
				    (unsigned long long)slab_pfn(z, s), o);
		}
	}
	(void)id;
	return (int)nalloc;
}

int _blab_slab_check(const struct blab_zone *z, char *msg, unsigned msglen)
{
	const struct slab_state *ss = z->slab;
	uint8_t *seen = malloc(BLAB_SLAB_MAX_SIZE / BLAB_SLAB_MIN_SIZE + 4096u);
	int err = 0;

	if (!seen)
		return BLAB_ENOMEMHOST;
	for (uint32_t i = 0; i < z->pages && !err; i++) {
		uint32_t sid = ss->page_slab[i];
		if (sid == NO_SLAB)
			continue;
		if (sid >= ss->nslabs || ss->slabs[sid].cache == NO_SLAB || ss->slabs[sid].dying ||
		    i < ss->slabs[sid].idx || i >= ss->slabs[sid].idx + (1u << ss->caches[ss->slabs[sid].cache].order))
			err = fail(msg, msglen, "pfn=0x%llx maps to slab %u, which does not hold it",
				   (unsigned long long)idx_to_pfn(z, i), sid);
	}
	for (uint32_t id = 0; id < BLAB_SLAB_MAX_CACHES && !err; id++) {
		const struct kmem_cache *c = &ss->caches[id];
		uint32_t nslabs = 0, npartial = 0, inuse = 0, prev = NO_SLAB;
		if (!c->used)
			continue;
		for (unsigned cpu = 0; cpu < z->cpus && !err; cpu++) {
			const struct kmem_cache_cpu *cc = &c->cpu_slab[cpu];
			if (cc->tid % TID_STEP != cpu)
				err = fail(msg, msglen, "%s: cpu %u has tid %llu of another CPU", c->name,
					   cpu, (unsigned long long)cc->tid);
			else if (cc->slab == NO_SLAB && (cc->freelist != FP_END || cc->nr_free))
				err = fail(msg, msglen, "%s: cpu %u has a freelist but no cpu slab",
					   c->name, cpu);
			else if (cc->slab != NO_SLAB &&
				 (cc->slab >= ss->nslabs || ss->slabs[cc->slab].cache != id ||
				  !ss->slabs[cc->slab].frozen || ss->slabs[cc->slab].cpu != cpu))
				err = fail(msg, msglen, "%s: cpu %u's cpu slab is not frozen for it",
					   c->name, cpu);
		}
		for (uint32_t sid = c->partial_head; sid != NO_SLAB && !err;
		     sid = ss->slabs[sid].next) {
			if (sid >= ss->nslabs || ss->slabs[sid].cache != id ||
			    !ss->slabs[sid].on_partial || ss->slabs[sid].prev != prev ||
			    ++npartial > c->nr_slabs)
				err = fail(msg, msglen, "%s: the partial list is broken at slab %u",
					   c->name, sid);
			prev = sid;
		}
		if (!err && (npartial != c->nr_partial || prev != c->partial_tail))
			err = fail(msg, msglen, "%s: nr_partial %u, the list holds %u", c->name,
				   c->nr_partial, npartial);
		for (uint32_t sid = 0; sid < ss->nslabs && !err; sid++) {
			const struct slab *s = &ss->slabs[sid];
			int n;
			if (s->cache != id || s->idx == NO_SLAB || s->dying)
				continue; /* unused, waiting for its pages, or being given back */
			nslabs++;
			n = check_slab(z, id, c, sid, seen, msg, msglen);
			if (n < 0)
				err = n;
			else
				inuse += (uint32_t)n;
		}
		if (!err && nslabs != c->nr_slabs)
			err = fail(msg, msglen, "%s: nr_slabs %u, found %u", c->name, c->nr_slabs,
				   nslabs);
		if (!err && inuse != c->inuse)
			err = fail(msg, msglen, "%s: inuse %u, found %u objects handed out", c->name,
				   c->inuse, inuse);
	}
	free(seen);
	return err;
}

int blab_slab_check(const struct blab_zone *z, char *msg, unsigned msglen)
{
	if (msg && msglen)
		msg[0] = 0;
	if (!z)
		return BLAB_EINVAL;
	if (!z->slab)
		return 0;
	return _blab_slab_check(z, msg, msglen);
}
