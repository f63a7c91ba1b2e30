/*
 * cmd_zoneinfo.c - `blab zoneinfo FILE|- [--cpus N] [--json]`: a machine's /proc/zoneinfo
 * next to the pcp sizes every preset's kernel would give its zones (blab_zoneinfo.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blab_zoneinfo.h"
#include "cli.h"
#include "cli_io.h"

static void zoneinfo_help(FILE *f)
{
	fprintf(f,
"usage: blab zoneinfo FILE|- [--cpus N] [--json]\n"
"\n"
"Reads a /proc/zoneinfo (of any kernel: before 6.7 each CPU's pageset shows count, high\n"
"and batch; from 6.7 also high_min and high_max) and prints, for every zone and every\n"
"preset, the pcp sizes that kernel computes from the zone's managed pages, its low\n"
"watermark and its node's CPUs:\n"
"  batch     zone_batchsize(): managed / 1024 / 4, capped (1 MB since 4.18), rounded\n"
"            down to 2^n - 1; at least 1 from 5.14\n"
"  high      6 x batch before 5.14; zone_highsize() after: the low watermark over the\n"
"            node's CPUs, at least 4 x batch\n"
"  high_min  6.7+: that zone_highsize(); high_max: managed / 8 over the node's CPUs\n"
"next to what the kernel printed (the first CPU's pageset; the range of the moving 6.7\n"
"high over all CPUs), with every difference named and the presets that match it.\n"
"\n"
"  --cpus N   the CPUs of each zone's node (default: every CPU the file lists, spread\n"
"             over its nodes: exact with one node)\n"
"  --json     the same as one JSON object\n"
"\n"
"  blab zoneinfo /proc/zoneinfo\n"
"  blab sim --workload page_fault1 --zoneinfo /proc/zoneinfo --zone Normal ...\n"
"\n"
"A file that is not a zoneinfo, or is cut short, is refused with its line and why (exit\n"
"status 1); at most %u bytes, lines of at most %u bytes, %u zones, %u CPUs.\n",
		BLAB_ZONEINFO_MAX_BYTES, BLAB_ZONEINFO_MAX_LINE, BLAB_ZONEINFO_MAX_ZONES,
		BLAB_ZONEINFO_MAX_CPUS);
}

/* FILE or - into a buffer of at most BLAB_ZONEINFO_MAX_BYTES + 1 bytes: one byte more lets
 * the parser refuse a longer file with the same words as the browser's; NULL after a
 * message on stderr (cli_io.h: open and read errors with the path and why) */
char *cli_read_zoneinfo(const char *cmd, const char *name, size_t *len)
{
	FILE *in = cli_open_read(cmd, name);
	char *buf;

	if (!in)
		return NULL;
	buf = malloc(BLAB_ZONEINFO_MAX_BYTES + 1);
	if (!buf) {
		fprintf(stderr, "%s: out of memory\n", cmd);
		if (in != stdin)
			fclose(in);
		return NULL;
	}
	*len = fread(buf, 1, BLAB_ZONEINFO_MAX_BYTES + 1, in);
	if (cli_close_read(cmd, name, in)) {
		free(buf);
		return NULL;
	}
	return buf;
}

int cmd_zoneinfo(int argc, char **argv)
{
	const char *file = NULL;
	unsigned long cpus = 0;
	int json = 0, ret = 0, err;
	struct blab_zoneinfo *zi;
	char why[200], *text, *out;
	size_t len, need;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			zoneinfo_help(stdout);
			return 0;
		} else if (!strcmp(argv[i], "--json")) {
			json = 1;
		} else if (!strcmp(argv[i], "--cpus")) {
			if (i + 1 == argc) {
				fprintf(stderr, "blab zoneinfo: --cpus needs a value\n");
				return 2;
			}
			/* digits only: strtoul alone would take " 4", "+4" and "-1" (as 2^64 - 1) */
			const char *v = argv[++i];
			size_t nd = strspn(v, "0123456789");
			cpus = nd && nd == strlen(v) && nd <= 5 ? strtoul(v, NULL, 10) : 0;
			if (!cpus || cpus > BLAB_ZONEINFO_MAX_CPUS) {
				fprintf(stderr, "blab zoneinfo: --cpus wants 1..%u, not '%s'\n",
					BLAB_ZONEINFO_MAX_CPUS, argv[i]);
				return 2;
			}
		} else if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr, "blab zoneinfo: unknown option '%s' (blab zoneinfo --help)\n",
				argv[i]);
			return 2;
		} else if (file) {
			fprintf(stderr, "blab zoneinfo: one file only ('%s', then '%s')\n", file, argv[i]);
			return 2;
		} else {
			file = argv[i];
		}
	}
	if (!file) {
		zoneinfo_help(stderr);
		return 2;
	}
	if (!(text = cli_read_zoneinfo("blab zoneinfo", file, &len)))
		return 1;
	err = blab_zoneinfo_parse(text, len, &zi, why, sizeof(why));
	free(text);
	if (err) {
		fprintf(stderr, "blab zoneinfo: %s: %s\n", file, why);
		return 1;
	}
	need = blab_zoneinfo_report(zi, (unsigned)cpus, json, NULL, 0);
	out = malloc(need + 1);
	if (!out) {
		fprintf(stderr, "blab zoneinfo: out of memory\n");
		ret = 1;
	} else {
		blab_zoneinfo_report(zi, (unsigned)cpus, json, out, need + 1);
		fputs(out, stdout);
		free(out);
	}
	blab_zoneinfo_free(zi);
	return ret;
}
