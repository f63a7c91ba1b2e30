/*
 * fuzz_opscript.c - libFuzzer target for the op-script language (blab replay).
 * Each input is a script: lines run in order until one is refused; after every accepted
 * line the zone must pass the invariant checker. Zones above 4096 pages are skipped to
 * keep each input fast (the parser's own limit is tested by the goldens).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "blab.h"

static FILE *devnull;

static int zone_too_big(const char *line)
{
	const char *p = strstr(line, "pages=");
	if (!p)
		return 0;
	p += 6;
	return strtoull(p, NULL, 0) > 4096;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char line[BLAB_SCRIPT_MAX_LINE + 2];
	struct blab_script *s;
	size_t i = 0;
	unsigned lineno = 0;

	if (!devnull)
		devnull = fopen("/dev/null", "w");
	s = blab_script_new(devnull, devnull);
	if (!s)
		return 0;
	while (i < size && lineno < 2000) {
		size_t len = 0;
		while (i < size && data[i] != '\n' && len < sizeof(line) - 1)
			line[len++] = (char)data[i++];
		if (i < size && data[i] == '\n')
			i++;
		line[len] = 0;
		lineno++;
		if (zone_too_big(line))
			break;
		if (blab_script_line(s, line, lineno))
			break;
		if (blab_script_zone(s)) {
			char msg[256];
			if (blab_check(blab_script_zone(s), msg, sizeof(msg))) {
				fprintf(stderr, "invariant violated after line %u: %s\n", lineno, msg);
				abort();
			}
		}
	}
	blab_script_free(s);
	return 0;
}
