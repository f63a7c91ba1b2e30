/*
 * fuzz_opscript.c - libFuzzer target: the op-script parser and executor (blab replay).
 *
 * The input is split into lines exactly as cli/blab.c cmd_replay() reads a file: up to the
 * newline, at most BLAB_SCRIPT_MAX_LINE characters (more is the "line longer than" error),
 * and a NUL byte is an error. Unlike replay, the run goes on after a bad line: a rejected line
 * must leave the zone as it was, so the invariant checker runs after every line, good or
 * bad, and a violation aborts (a real bug).
 *
 * One harness-only bound: a zone line asking for more than FUZZ_MAX_PAGES pages (but within
 * BLAB_MAX_PAGES) or a log of more than FUZZ_MAX_LOG events is skipped, because a 1 GiB
 * struct page array is legal (docs/limits.md) but would make every execution take seconds
 * and trip -rss_limit_mb. Values past the real limits still go through to be rejected.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "blab.h"

#define FUZZ_MAX_PAGES (1u << 14)
#define FUZZ_MAX_LOG (1u << 16)

static FILE *devnull;

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	devnull = fopen("/dev/null", "w");
	if (!devnull)
		abort();
	return 0;
}

/* opscript.c's number syntax (decimal, or 0x hex; no sign or spaces) through strtoull: only
 * used to skip huge zones, so it need not be the core's parser; -1 when not such a number */
static int parse(const char *p, uint64_t *out)
{
	int hex = p[0] == '0' && (p[1] == 'x' || p[1] == 'X');
	char *end;

	if (!(p[0] >= '0' && p[0] <= '9'))
		return -1;
	errno = 0;
	*out = strtoull(p, &end, hex ? 16 : 10);
	return errno || end == p + (hex ? 2 : 0) || *end ? -1 : 0;
}

/* 1 when a zone line asks for a legal but huge zone or log (see the top comment) */
static int too_big_for_fuzzing(const char *line)
{
	char buf[BLAB_SCRIPT_MAX_LINE + 1];
	const char *ws = " \t\r\n\v\f";
	char *save = NULL, *tok, *hash;
	int first = 1, zone = 0, big = 0;

	snprintf(buf, sizeof(buf), "%s", line);
	if ((hash = strchr(buf, '#')))
		*hash = 0;
	for (tok = strtok_r(buf, ws, &save); tok; tok = strtok_r(NULL, ws, &save)) {
		uint64_t v;
		if (first) {
			zone = strcmp(tok, "zone") == 0;
			first = 0;
			continue;
		}
		if (!zone)
			return 0;
		if (strncmp(tok, "pages=", 6) == 0 && parse(tok + 6, &v) == 0 &&
		    v > FUZZ_MAX_PAGES && v <= BLAB_MAX_PAGES)
			big = 1;
		if (strncmp(tok, "log=", 4) == 0 && parse(tok + 4, &v) == 0 && v > FUZZ_MAX_LOG &&
		    v <= BLAB_MAX_LOG_EVENTS)
			big = 1;
	}
	return big;
}

static void check_or_die(struct blab_script *s, unsigned lineno, const char *line)
{
	struct blab_zone *z = blab_script_zone(s);
	char msg[256];
	if (z && blab_check(z, msg, sizeof(msg))) {
		fprintf(stderr, "fuzz_opscript: invariant violated after line %u '%s': %s\n", lineno,
			line, msg);
		abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char line[BLAB_SCRIPT_MAX_LINE + 2];
	struct blab_script *s = blab_script_new(devnull, devnull);
	unsigned lineno = 0;
	size_t pos = 0;

	if (!s)
		abort();
	while (pos < size) {
		/* cmd_replay(): getc() up to the newline, at most BLAB_SCRIPT_MAX_LINE + 1 bytes */
		size_t len = 0;
		int nl = 0, nul = 0;
		while (pos < size && len <= BLAB_SCRIPT_MAX_LINE) {
			char c = (char)data[pos++];
			if (c == '\n') {
				nl = 1;
				break;
			}
			nul |= c == 0;
			line[len++] = c;
		}
		line[len] = 0;
		lineno++;
		if (len > BLAB_SCRIPT_MAX_LINE || nul) {
			/* replay stops here; the API must refuse a long line too; we go on */
			if (!nul && blab_script_line(s, line, lineno) == 0)
				abort();
			check_or_die(s, lineno, "(long line or NUL)");
			if (!nl)
				while (pos < size && data[pos++] != '\n')
					;
			continue;
		}
		if (too_big_for_fuzzing(line))
			continue;
		blab_script_line(s, line, lineno);
		check_or_die(s, lineno, line);
	}
	blab_script_free(s);
	return 0;
}
