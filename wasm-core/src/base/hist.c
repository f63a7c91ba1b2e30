/*
 * hist.c - exact size histograms of pcp refills and drains per CPU (include/blab_hist.h).
 *
 * One open-addressing table keyed by (kind, cpu, size), grown by doubling up to
 * BLAB_HIST_MAX_BINS entries; the printers sort the bins, so the output does not depend on
 * the table's order. Refill sizes are few (batch << 0..5 and what a full list leaves), drain
 * sizes of a 6.7+ kernel can be any number up to 2016: both fit.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blab.h"
#include "blab_hist.h"
#include "textout.h"

struct blab_hist {
	uint64_t *key;   /* 0: empty; else kind << 42 | cpu << 32 | size, size > 0 */
	uint64_t *count;
	size_t cap, used;
	uint64_t total[BLAB_HIST_KINDS];
	uint64_t dropped;
};

struct blab_hist *blab_hist_new(void)
{
	return calloc(1, sizeof(struct blab_hist));
}

void blab_hist_free(struct blab_hist *h)
{
	if (!h)
		return;
	free(h->key);
	free(h->count);
	free(h);
}

void blab_hist_clear(struct blab_hist *h)
{
	if (!h)
		return;
	if (h->cap) {
		memset(h->key, 0, h->cap * sizeof(*h->key));
		memset(h->count, 0, h->cap * sizeof(*h->count));
	}
	h->used = 0;
	memset(h->total, 0, sizeof(h->total));
	h->dropped = 0;
}

static size_t slot_of(uint64_t key, size_t cap)
{
	key ^= key >> 29;
	key *= 0xbf58476d1ce4e5b9ull;
	key ^= key >> 32;
	return (size_t)key & (cap - 1);
}

/* the table at twice the size (cap a power of two, at least 64); -1 out of memory */
static int grow(struct blab_hist *h)
{
	size_t ncap = h->cap ? h->cap * 2 : 64;
	uint64_t *nk = calloc(ncap, sizeof(*nk)), *nc = calloc(ncap, sizeof(*nc));

	if (!nk || !nc) {
		free(nk);
		free(nc);
		return -1;
	}
	for (size_t i = 0; i < h->cap; i++) {
		size_t j;
		if (!h->key[i])
			continue;
		for (j = slot_of(h->key[i], ncap); nk[j]; j = (j + 1) & (ncap - 1))
			;
		nk[j] = h->key[i];
		nc[j] = h->count[i];
	}
	free(h->key);
	free(h->count);
	h->key = nk;
	h->count = nc;
	h->cap = ncap;
	return 0;
}

int blab_hist_add(struct blab_hist *h, unsigned kind, unsigned cpu, uint32_t size)
{
	uint64_t key;
	size_t j;

	if (!h || kind >= BLAB_HIST_KINDS || cpu >= BLAB_HIST_MAX_CPUS)
		return BLAB_EINVAL;
	if (!size)
		return 0;
	h->total[kind]++;
	key = (uint64_t)kind << 42 | (uint64_t)cpu << 32 | size;
	if (h->cap) {
		for (j = slot_of(key, h->cap); h->key[j]; j = (j + 1) & (h->cap - 1))
			if (h->key[j] == key) {
				h->count[j]++;
				return 0;
			}
	}
	/* a new bin: the table stays at most half full */
	if (h->used >= BLAB_HIST_MAX_BINS || ((h->used + 1) * 2 > h->cap && grow(h))) {
		h->dropped++;
		return BLAB_ELIMIT;
	}
	for (j = slot_of(key, h->cap); h->key[j]; j = (j + 1) & (h->cap - 1))
		;
	h->key[j] = key;
	h->count[j] = 1;
	h->used++;
	return 0;
}

uint64_t blab_hist_total(const struct blab_hist *h, unsigned kind)
{
	return h && kind < BLAB_HIST_KINDS ? h->total[kind] : 0;
}

uint64_t blab_hist_dropped(const struct blab_hist *h)
{
	return h ? h->dropped : 0;
}

static int bin_cmp(const void *a, const void *b)
{
	const struct blab_hist_bin *x = a, *y = b;

	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	if (x->cpu != y->cpu)
		return x->cpu < y->cpu ? -1 : 1;
	return x->size < y->size ? -1 : x->size > y->size;
}

size_t blab_hist_bins(const struct blab_hist *h, struct blab_hist_bin *out, size_t cap)
{
	struct blab_hist_bin *all;
	size_t n = 0;

	if (!h || !h->used)
		return 0;
	all = malloc(h->used * sizeof(*all));
	if (!all)
		return 0;
	for (size_t i = 0; i < h->cap; i++) {
		if (!h->key[i])
			continue;
		all[n].kind = (uint16_t)(h->key[i] >> 42);
		all[n].cpu = (uint16_t)((h->key[i] >> 32) & 0x3ff);
		all[n].size = (uint32_t)h->key[i];
		all[n].count = h->count[i];
		n++;
	}
	qsort(all, n, sizeof(*all), bin_cmp);
	if (out)
		memcpy(out, all, (n < cap ? n : cap) * sizeof(*all));
	free(all);
	return n;
}

/* ---- printers ---- */


static const char *const kind_names[BLAB_HIST_KINDS] = {"refill", "drain"};

/* the bins, sorted, or NULL with *n 0 (none, or out of memory) */
static struct blab_hist_bin *sorted_bins(const struct blab_hist *h, size_t *n)
{
	struct blab_hist_bin *b;

	*n = blab_hist_bins(h, NULL, 0);
	if (!*n)
		return NULL;
	b = malloc(*n * sizeof(*b));
	if (!b || blab_hist_bins(h, b, *n) != *n) {
		free(b);
		*n = 0;
		return NULL;
	}
	return b;
}

size_t blab_hist_text(const struct blab_hist *h, const char *prefix, char *buf, size_t cap)
{
	struct text_out o = {buf, cap, 0};
	size_t n;
	struct blab_hist_bin *b = sorted_bins(h, &n);

	if (cap)
		buf[0] = 0;
	for (size_t i = 0; i < n; i++) {
		int first = i == 0 || b[i].kind != b[i - 1].kind || b[i].cpu != b[i - 1].cpu;
		int last = i + 1 == n || b[i + 1].kind != b[i].kind || b[i + 1].cpu != b[i].cpu;
		if (first)
			text_put(&o, "%s%s cpu %u:", prefix ? prefix : "", kind_names[b[i].kind], b[i].cpu);
		text_put(&o, " %u x%llu%s", b[i].size, (unsigned long long)b[i].count, last ? "\n" : ",");
	}
	if (h && h->dropped)
		text_put(&o, "%sdropped %llu (more than %u distinct sizes)\n", prefix ? prefix : "",
		    (unsigned long long)h->dropped, BLAB_HIST_MAX_BINS);
	free(b);
	return o.len;
}

size_t blab_hist_json(const struct blab_hist *h, char *buf, size_t cap)
{
	struct text_out o = {buf, cap, 0};
	size_t n, i = 0;
	struct blab_hist_bin *b = sorted_bins(h, &n);

	if (cap)
		buf[0] = 0;
	text_put(&o, "{");
	for (unsigned k = 0; k < BLAB_HIST_KINDS; k++) {
		int cpus = 0;
		text_put(&o, "%s\"%s\":{", k ? "," : "", kind_names[k]);
		while (i < n && b[i].kind == k) {
			unsigned cpu = b[i].cpu;
			text_put(&o, "%s\"%u\":[", cpus++ ? "," : "", cpu);
			for (int first = 1; i < n && b[i].kind == k && b[i].cpu == cpu; i++, first = 0)
				text_put(&o, "%s[%u,%llu]", first ? "" : ",", b[i].size,
				    (unsigned long long)b[i].count);
			text_put(&o, "]");
		}
		text_put(&o, "}");
	}
	text_put(&o, ",\"dropped\":%llu}", (unsigned long long)blab_hist_dropped(h));
	free(b);
	return o.len;
}
