/*
 * cache_check.c - the cache model's invariant checker (cache_check(), run after every
 * operation by the debug builds): in every L1 and L2 set the LRU order is a permutation,
 * filler_ranks, the tracked / used masks and the line hashes agree with the ways, no line
 * appears twice, no copy is newer than any version handed out, prefetch marks sit on L1's
 * tracked lines only, and a lazily cleared set agrees with its group's count and deadline;
 * in every LLC set the lines are distinct, tracked and in recency order; every directory
 * entry's version and owner are in range.
 */
#include <stdio.h>

#include "cache_llc.h"
#include "cache_lru.h"

/* Set s of a level: its LRU order a permutation (the nibbles past the last rank 0xf), its
 * filler_ranks, and for lazy clears its place against its group's count and deadline. Why
 * not, or NULL. rank[w] gets each way's rank. */
static const char *set_check(const struct cache_level *c, uint64_t s, uint8_t *rank)
{
	const struct cache_set *t = &c->sets[s];
	const struct cache_slot *w = c->way + s * c->assoc;
	uint64_t seen = 0, fillers = 0;
	if (c->assoc > NARROW_WAYS) {
		for (uint32_t i = 0; i < c->assoc; i++) {
			rank[i] = c->age[s * c->assoc + i];
			if (rank[i] >= c->assoc || (seen & (1ull << rank[i])))
				return "LRU ranks are not a permutation";
			seen |= 1ull << rank[i];
		}
		return NULL;
	}
	for (uint32_t r = 0; r < NARROW_WAYS; r++) {
		uint32_t way = (uint32_t)(t->order >> (4u * r)) & 0xfu;
		if (r >= c->assoc) {
			if (way != 0xfu)
				return "LRU ranks are not a permutation";
		} else if (way >= c->assoc || (seen & (1ull << way))) {
			return "LRU ranks are not a permutation";
		} else {
			seen |= 1ull << way;
			rank[way] = (uint8_t)r;
			fillers |= (uint64_t)(w[way].line == FILLER_LINE) << r;
		}
	}
	if (fillers != t->filler_ranks)
		return "filler_ranks disagrees with the ways";
	if (t->synced > c->clears[s >> 6])
		return "a set is ahead of its group's clears";
	if (c->due) {
		/* the deadline: the first lazy clear whose filler would evict something other
		 * than a filler, filed in exactly one slot, and one a lazy clear can reach */
		uint64_t others = ~t->filler_ranks & rank_bits(c->assoc);
		uint64_t want = others ? t->synced + c->assoc -
						 (63u - (uint32_t)__builtin_clzll(others))
				       : 0;
		uint64_t now = c->clears[s >> 6];
		const uint64_t *due = c->due + (s >> 6) * DUE_SLOTS;
		for (uint32_t j = 0; j < DUE_SLOTS; j++)
			if (((due[j] >> (s & 63u)) & 1u) != (want && j == want % DUE_SLOTS))
				return "the due masks disagree with the deadline";
		if (t->deadline != want || (want && (want <= now || want > now + 16u)))
			return "a deadline that a lazy clear passed or cannot reach";
	}
	return NULL;
}

static int level_check(const struct cache_model *m, const struct cache_level *c, int is_l1,
		       const char *name, uint32_t k, char *err, size_t errlen)
{
	uint64_t marks = 0;
	for (uint64_t s = 0; s < c->nsets; s++) {
		const struct cache_set *t = &c->sets[s];
		const struct cache_slot *x = c->way + s * c->assoc;
		uint8_t rank[64];
		const char *why = set_check(c, s, rank);
		if (why) {
			if (err && errlen)
				snprintf(err, errlen, "%s %u set %llu: %s", name, k,
					 (unsigned long long)s, why);
			return -1;
		}
		for (uint32_t i = 0; i < c->assoc; i++) {
			const struct cache_pfmark *f = &x[i].pfm;
			for (uint32_t j = 0; j < i && !why; j++)
				if (is_tracked(x[i].line) && x[j].line == x[i].line)
					why = "a line appears twice in a set";
			if (!why && x[i].line && x[i].ver > m->ver_clock)
				why = "a copy is newer than any version handed out";
			if (!why && ((!is_l1 && (f->pf || f->path || f->cpu)) ||
				     (f->pf && !is_tracked(x[i].line))))
				why = "prefetch mark outside L1 or on an empty way";
			if (!why && (((t->tracked >> i) & 1) != (uint64_t)is_tracked(x[i].line) ||
				     ((t->used >> i) & 1) != (x[i].line != 0)))
				why = "tracked/used masks disagree with the ways";
			if (why) {
				if (err && errlen)
					snprintf(err, errlen, "%s %u set %llu way %u: %s", name, k,
						 (unsigned long long)s, i, why);
				return -1;
			}
			marks += f->pf;
		}
		for (uint32_t i = 0; c->assoc <= NARROW_WAYS && i < c->assoc; i++)
			if (t->fp[i] != way_fp(x[i].line)) {
				if (err && errlen)
					snprintf(err, errlen, "%s %u set %llu way %u: %s", name, k,
						 (unsigned long long)s, i,
						 "its line's hash (fp) disagrees with the line");
				return -1;
			}
	}
	if (is_l1 && marks != c->pf_marks) {
		if (err && errlen)
			snprintf(err, errlen, "%s %u: %llu prefetch marks, %u counted", name, k,
				 (unsigned long long)marks, c->pf_marks);
		return -1;
	}
	return 0;
}

/* An LLC: in each set's slots distinct tracked lines, no newer than any version handed out,
 * most recent first (used_at never grows along the slots, nor passes what the set has
 * taken in). */
static int llc_check(const struct cache_model *m, const struct cache_llc *c, uint32_t k,
		     char *err, size_t errlen)
{
	for (uint32_t s = 0; s < c->nsets; s++) {
		const struct llc_set *t = llc_set_at(c, s);
		const struct llc_line *l = t->line;
		const char *why = t->nlines > c->assoc ? "more lines than ways"
				  : t->synced > llc_taken(c, s) ? "a set ahead of the stream"
								: NULL;
		for (uint32_t i = 0; i < t->nlines && !why; i++) {
			for (uint32_t j = 0; j < i && !why; j++)
				if (l[j].line == l[i].line)
					why = "a line appears twice in a set";
			if (why)
				break;
			if (!is_tracked(l[i].line))
				why = "an empty or filler slot";
			else if (l[i].ver > m->ver_clock)
				why = "a copy is newer than any version handed out";
			else if ((uint32_t)t->synced - l[i].used_at >= 0x80000000u ||
				 (i && l[i - 1u].used_at - l[i].used_at >= 0x80000000u))
				why = "slots out of recency order";
		}
		if (why) {
			if (err && errlen)
				snprintf(err, errlen, "LLC %u set %u: %s", k, s, why);
			return -1;
		}
	}
	return 0;
}

int cache_check(const struct cache_model *m, char *err, size_t errlen)
{
	for (uint32_t k = 0; k < m->ncores; k++)
		if (level_check(m, &m->l1[k], 1, "L1", k, err, errlen) ||
		    level_check(m, &m->l2[k], 0, "L2", k, err, errlen))
			return -1;
	for (uint32_t s = 0; s < m->nsockets; s++)
		if (llc_check(m, &m->llc[s], s, err, errlen))
			return -1;
	for (uint64_t i = 0; i < m->dir_npages; i++) {
		const struct cache_dir_page *d = &m->dir_pages[i];
		if (d->ver > m->ver_clock || (d->owner != MODEL_NO_CPU && d->owner >= m->ncpus) ||
		    (d->own_core != MODEL_NO_CPU && d->own_core >= m->ncores)) {
			if (err && errlen)
				snprintf(err, errlen, "directory pfn %llu: bad version or owner",
					 (unsigned long long)(m->dir_base_line - VMEMMAP_LINE + i));
			return -1;
		}
	}
	if (m->nwasted > MODEL_WASTED_MAX) {
		if (err && errlen)
			snprintf(err, errlen, "wasted list overflows");
		return -1;
	}
	return 0;
}
