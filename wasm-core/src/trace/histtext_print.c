/*
 * histtext_print.c - histograms read by histtext.c, printed: one fact a line for `blab
 * import`, and JSON for `blab import --json` and the browser (include/blab_histtext.h).
 */
#include <inttypes.h>

#include "base/textout.h"
#include "blab_histtext.h"
#include "blab_latency.h"

static const char *kind_name(unsigned kind)
{
	return kind == BLAB_HISTTEXT_FUNCLATENCY ? "funclatency"
	       : kind == BLAB_HISTTEXT_HIST      ? "hist"
						 : "lhist";
}

/* the model series a histogram compares with, "a,b" (or "-") / as JSON strings */
static void model_list(struct text_out *o, uint32_t mask, int json)
{
	int any = 0;

	for (unsigned s = 0; s < BLAB_LAT_NSERIES; s++)
		if (mask & BLAB_LAT_MASK(s)) {
			text_put(o, json ? "%s\"%s\"" : "%s%s", any ? "," : "", blab_latency_series_name(s));
			any = 1;
		}
	if (!any && !json)
		text_put(o, "-");
}

size_t blab_histtext_text(const struct blab_histtext *h, char *buf, size_t cap)
{
	struct text_out o = {buf, cap, 0};

	if (buf && cap)
		buf[0] = '\0';
	if (!h)
		return 0;
	text_put(&o, "histograms %u lines %u\n", h->nhists, h->lines);
	for (uint32_t i = 0; i < h->nhists; i++) {
		const struct blab_histtext_hist *c = &h->hist[i];
		text_put(&o, "histogram %u %s name %s unit %s line %u function %s model ", i + 1,
			 kind_name(c->kind), c->name[0] ? c->name : "-", c->unit[0] ? c->unit : "-",
			 c->line, c->function[0] ? c->function : "-");
		model_list(&o, c->model_mask, 0);
		text_put(&o, "\n");
		if (c->kind == BLAB_HISTTEXT_LHIST)
			text_put(&o, "step %" PRIu64 "\n", c->step);
		for (uint32_t b = 0; b < c->nbuckets; b++) {
			const struct blab_histtext_bucket *k = &c->bucket[b];
			if (k->below)
				text_put(&o, "bucket - %" PRIu64, k->hi);
			else if (k->above)
				text_put(&o, "bucket %" PRIu64 " -", k->lo);
			else
				text_put(&o, "bucket %" PRIu64 " %" PRIu64, k->lo, k->hi);
			text_put(&o, " count %" PRIu64 "\n", k->count);
		}
		text_put(&o, "total %" PRIu64 "\n", c->total);
	}
	return o.len;
}

size_t blab_histtext_json(const struct blab_histtext *h, char *buf, size_t cap)
{
	struct text_out o = {buf, cap, 0};

	if (buf && cap)
		buf[0] = '\0';
	if (!h) {
		text_put(&o, "null");
		return o.len;
	}
	text_put(&o, "{\"histograms\":[");
	for (uint32_t i = 0; i < h->nhists; i++) {
		const struct blab_histtext_hist *c = &h->hist[i];
		/* names are printable ASCII (copy_name()); a quote or backslash is escaped */
		text_put(&o, "%s{\"kind\":\"%s\",\"name\":\"", i ? "," : "", kind_name(c->kind));
		for (const char *p = c->name; *p; p++)
			text_put(&o, *p == '"' || *p == '\\' ? "\\%c" : "%c", *p);
		text_put(&o, "\",\"unit\":\"%s\",\"line\":%u,\"function\":\"%s\",\"model\":[",
			 c->unit, c->line, c->function);
		model_list(&o, c->model_mask, 1);
		text_put(&o, "],\"total\":%" PRIu64 ",\"step\":%" PRIu64 ",\"buckets\":[", c->total,
			 c->step);
		for (uint32_t b = 0; b < c->nbuckets; b++) {
			const struct blab_histtext_bucket *k = &c->bucket[b];
			text_put(&o, "%s[", b ? "," : "");
			if (k->below)
				text_put(&o, "null");
			else
				text_put(&o, "%" PRIu64, k->lo);
			if (k->above)
				text_put(&o, ",null");
			else
				text_put(&o, ",%" PRIu64, k->hi);
			text_put(&o, ",%" PRIu64 "]", k->count);
		}
		text_put(&o, "]}");
	}
	text_put(&o, "],\"lines\":%u}", h->lines);
	return o.len;
}
