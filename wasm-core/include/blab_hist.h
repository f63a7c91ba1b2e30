/*
 * blab_hist.h - how many pages each pcp refill and drain moved, per CPU: the sizes of
 * rmqueue_bulk() refills and free_pcppages_bulk() drains, counted exactly (size -> how many
 * times), for a run of the model (blab_sim_config.hist) and for an imported kernel trace
 * (blab_trace_hist()), so the two can be drawn over each other (docs/modern-pcp.md,
 * "Histograms").
 *
 * A trace shows a refill as a run of mm_page_alloc_zone_locked events with percpu_refill=1
 * on one CPU, and a drain as a run of mm_page_pcpu_drain events; the model counts the same
 * things: the pages one rmqueue_bulk() put on the list, and the pages one drain (a free that
 * reached high, drain_pages(), decay_pcp_high()) gave back, however many zone->lock holds
 * it took (6.19 frees in chunks of batch: a trace cannot see where one chunk ends).
 */
#ifndef BLAB_HIST_H
#define BLAB_HIST_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum blab_hist_kind {
	BLAB_HIST_REFILL = 0, /* rmqueue_bulk(): pages put on a pcp list */
	BLAB_HIST_DRAIN = 1,  /* free_pcppages_bulk(): pages given back to the buddy lists */
	BLAB_HIST_KINDS = 2,
};

/* Bounds (docs/limits.md): distinct (kind, cpu, size) bins, and the CPU numbers kept. A
 * size past the bins is counted in `dropped`, not lost silently. */
#define BLAB_HIST_MAX_BINS 65536u
#define BLAB_HIST_MAX_CPUS 1024u

struct blab_hist_bin {
	uint16_t kind; /* enum blab_hist_kind */
	uint16_t cpu;
	uint32_t size; /* pages */
	uint64_t count;
};

struct blab_hist;

struct blab_hist *blab_hist_new(void); /* NULL: out of memory */
void blab_hist_free(struct blab_hist *h);
void blab_hist_clear(struct blab_hist *h);
/* One refill or drain of `size` pages (size 0 is not counted). 0, BLAB_EINVAL (bad kind or
 * cpu), or BLAB_ELIMIT when the bins are full (counted in dropped). */
int blab_hist_add(struct blab_hist *h, unsigned kind, unsigned cpu, uint32_t size);
/* Events counted, and those that found no bin. */
uint64_t blab_hist_total(const struct blab_hist *h, unsigned kind);
uint64_t blab_hist_dropped(const struct blab_hist *h);
/* The bins in order (kind, cpu, size); writes at most cap and returns how many there are. */
size_t blab_hist_bins(const struct blab_hist *h, struct blab_hist_bin *out, size_t cap);
/*
 * The histogram as text ("refill cpu 0: 63 x17, 126 x10, ...", one line per kind and CPU,
 * `prefix` before each) or as a JSON object ({"refill":{"0":[[63,17],[126,10]]},
 * "drain":{...},"dropped":0}); like snprintf, returns the length needed.
 */
size_t blab_hist_text(const struct blab_hist *h, const char *prefix, char *buf, size_t cap);
size_t blab_hist_json(const struct blab_hist *h, char *buf, size_t cap);

#ifdef __cplusplus
}
#endif
#endif
