/*
 * api_latency.c - latency histograms from the browser: a BCC funclatency or bpftrace hist() /
 * lhist() text read by the core's own parser (include/blab_histtext.h), as `blab import --json`
 * reads it, and which of the model's calls a kernel function's name compares with. A model
 * run's own latency comes back with the run (blab_js_latency() in api.c).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blab_histtext.h"
#include "blab_latency.h"

/*
 * text: len bytes (at most BLAB_HISTTEXT_MAX_INPUT, checked by the parser). Returns a string
 * the caller frees with free(): the histograms as JSON when *status is 0 (blab_histtext_json),
 * else "line N: why" (*status the BLAB_E* code). NULL: out of memory.
 */
char *blab_js_histtext(const char *text, uint32_t len, int32_t *status)
{
	struct blab_histtext *h;
	char why[300], *out;
	size_t need;
	int rc = blab_histtext_parse(text, len, &h, why, sizeof(why));

	if (status)
		*status = rc;
	if (rc) {
		out = malloc(strlen(why) + 1);
		if (out)
			memcpy(out, why, strlen(why) + 1);
		return out;
	}
	need = blab_histtext_json(h, NULL, 0);
	out = malloc(need + 1);
	if (out)
		blab_histtext_json(h, out, need + 1);
	blab_histtext_free(h);
	return out;
}

/* The model's series a kernel function's latency compares with, as a mask of
 * 1 << enum blab_lat_series (blab_latency_mask_for_function()); 0 for none or a NULL name. */
uint32_t blab_js_latency_mask(const char *function)
{
	return blab_latency_mask_for_function(function, NULL);
}
