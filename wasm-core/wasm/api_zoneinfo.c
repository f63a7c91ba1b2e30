/*
 * api_zoneinfo.c - a /proc/zoneinfo from the browser (the zoneinfo panel): the same parser and
 * report as `blab zoneinfo --json` (include/blab_zoneinfo.h), so the page has no second reader.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "blab_zoneinfo.h"

/*
 * text: len bytes (at most BLAB_ZONEINFO_MAX_BYTES, checked by the parser); node_cpus: the
 * node's CPUs, 0 for the file's. Returns a string the caller frees with free(): the report as
 * JSON when *status is 0, else "line N: why" (*status the BLAB_E* code). NULL: out of memory.
 */
char *blab_js_zoneinfo(const char *text, uint32_t len, uint32_t node_cpus, int32_t *status)
{
	struct blab_zoneinfo *zi;
	char why[200], *out;
	size_t need;
	int rc = blab_zoneinfo_parse(text, len, &zi, why, sizeof(why));

	if (status)
		*status = rc;
	if (rc) {
		size_t n = 0;
		while (why[n])
			n++;
		out = malloc(n + 1);
		if (out)
			snprintf(out, n + 1, "%s", why);
		return out;
	}
	need = blab_zoneinfo_report(zi, node_cpus, 1, NULL, 0);
	out = malloc(need + 1);
	if (out)
		blab_zoneinfo_report(zi, node_cpus, 1, out, need + 1);
	blab_zoneinfo_free(zi);
	return out;
}
