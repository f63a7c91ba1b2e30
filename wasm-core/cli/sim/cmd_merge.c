/*
 * cmd_merge.c - `blab merge SHARD...`: the shards of one study (blab sim ... --shard I/N, each
 * written by its own process or machine) put back together: it checks they are the shards of
 * one study, each I of 1..N once and every run once, and prints what the study run in one
 * process prints, byte for byte (docs/sim.md, "Fan-out"): each run's record, in order. Nothing
 * is printed when anything is missing, repeated or malformed (a record that is not exactly its
 * point's, every counter in order): the message names the file and line.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blab_sim.h"
#include "../cli.h"
#include "sim_shard.h"

#define SHARD_FILE_MAX (256u << 20)
#define RUNS_MAX 1000000u

struct run {
	const char *key;  /* NUL-ended, inside its file's text */
	const char *text; /* its record, up to the next run's "point" line */
	size_t len;
	const char *file;
	unsigned line;    /* of its "point" line */
};

static int merge_help(FILE *f)
{
	fprintf(f,
"usage: blab merge SHARD...\n"
"\n"
"Puts the shards of one study back together: each SHARD is what `blab sim --points FILE\n"
"--shard I/N` printed (FILE and N the same for all, I from 1 to N, each once). Prints what\n"
"`blab sim --points FILE` prints, byte for byte: each point's record, one JSON line.\n"
"Shards can run anywhere: GNU parallel,\n"
"a Slurm job array (docs/sim.md, \"Fan-out\"):\n"
"\n"
"  seq 1 4 | parallel 'blab sim --points study.txt --shard {}/4 > shard-{}.txt'\n"
"  blab merge shard-*.txt > study-out.txt\n");
	return 0;
}

static char *read_all(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	size_t n;

	if (!f) {
		fprintf(stderr, "blab merge: cannot read %s: %s\n", path, strerror(errno));
		return NULL;
	}
	buf = malloc(SHARD_FILE_MAX + 1);
	n = buf ? fread(buf, 1, SHARD_FILE_MAX + 1, f) : 0;
	fclose(f);
	if (!buf || n > SHARD_FILE_MAX) {
		fprintf(stderr, "blab merge: %s is larger than %u bytes\n", path, SHARD_FILE_MAX);
		free(buf);
		return NULL;
	}
	if (memchr(buf, '\0', n)) {
		fprintf(stderr, "blab merge: %s is not text (a NUL byte)\n", path);
		free(buf);
		return NULL;
	}
	buf[n] = '\0';
	*len = n;
	return buf;
}

/* A shard's first line: which share of how many runs it is. */
static int read_header(const char *path, const char *text, struct sim_shard *sh,
		       unsigned long *total)
{
	char magic[32], kind[16], frac[32];

	if (!strchr(text, '\n') || sscanf(text, "%31s %15s %31s %lu", magic, kind, frac, total) != 4 ||
	    strcmp(magic, SIM_SHARD_MAGIC) || strcmp(kind, "points") || sim_shard_parse(frac, sh) ||
	    *total > RUNS_MAX) {
		fprintf(stderr, "blab merge: %s:1: not a shard of blab sim --points (\"" SIM_SHARD_MAGIC
				" points I/N RUNS\")\n", path);
		return -1;
	}
	return 0;
}

/* A shard's runs after its first line: "point INDEX KEY", then the run's record. */
static int read_runs(const char *path, char *text, const struct sim_shard *sh,
		     unsigned long total, struct run *runs)
{
	char *s, *nl = strchr(text, '\n');
	unsigned line = 1;
	struct run *cur = NULL;

	for (s = nl + 1; *s; s = nl + 1, line++) {
		unsigned long idx;
		int keyat = 0;
		nl = strchr(s, '\n');
		if (!nl) {
			fprintf(stderr, "blab merge: %s:%u: the last line has no end (a shard cut short?)\n",
				path, line + 1);
			return -1;
		}
		*nl = '\0';
		if (strncmp(s, "point ", 6)) {
			if (!cur) {
				fprintf(stderr, "blab merge: %s:%u: a run's record before any \"point\" line\n",
					path, line + 1);
				return -1;
			}
			*nl = '\n';
			cur->len = (size_t)(nl + 1 - cur->text);
			continue;
		}
		if (sscanf(s, "point %lu %n", &idx, &keyat) != 1 || !keyat || idx >= total ||
		    idx % sh->n != sh->i - 1) {
			fprintf(stderr, "blab merge: %s:%u: \"%.60s\" is not a run of shard %u/%u of %lu\n",
				path, line + 1, s, sh->i, sh->n, total);
			return -1;
		}
		cur = &runs[idx];
		if (cur->key) {
			fprintf(stderr, "blab merge: %s:%u: run %lu is in %s already\n", path, line + 1, idx,
				cur->file);
			return -1;
		}
		cur->key = s + keyat;
		cur->text = nl + 1;
		cur->len = 0;
		cur->file = path;
		cur->line = line + 1;
	}
	return 0;
}

int cmd_merge(int argc, char **argv)
{
	char **texts;
	struct run *runs = NULL;
	unsigned char *seen = NULL;
	unsigned long total = 0;
	unsigned n = 0;
	int ret = 1;

	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		merge_help(argc < 2 ? stderr : stdout);
		return argc < 2 ? 2 : 0;
	}
	texts = calloc((size_t)argc, sizeof(*texts));
	runs = calloc(RUNS_MAX, sizeof(*runs));
	seen = calloc(SIM_SHARD_MAX + 1, 1);
	if (!texts || !runs || !seen) {
		fprintf(stderr, "blab merge: out of memory\n");
		goto out;
	}
	for (int f = 1; f < argc; f++) {
		struct sim_shard sh;
		unsigned long t;
		size_t len;
		if (!(texts[f] = read_all(argv[f], &len)) || read_header(argv[f], texts[f], &sh, &t))
			goto out;
		if (f == 1) {
			n = sh.n;
			total = t;
		} else if (sh.n != n || t != total) {
			fprintf(stderr, "blab merge: %s is shard %u/%u of %lu runs, %s one of %u of %lu: "
					"not the same study\n", argv[f], sh.i, sh.n, t, argv[1], n, total);
			goto out;
		}
		if (seen[sh.i]++) {
			fprintf(stderr, "blab merge: shard %u/%u is given twice (%s)\n", sh.i, n, argv[f]);
			goto out;
		}
		if (read_runs(argv[f], texts[f], &sh, t, runs))
			goto out;
	}
	for (unsigned i = 1; i <= n; i++)
		if (!seen[i]) {
			fprintf(stderr, "blab merge: shard %u/%u is missing\n", i, n);
			goto out;
		}
	for (unsigned long k = 0; k < total; k++) {
		if (!runs[k].key || !runs[k].len) {
			fprintf(stderr, "blab merge: run %lu (shard %lu/%u) is %s: a shard cut short?\n", k,
				k % n + 1, n, runs[k].key ? "without its record" : "missing");
			goto out;
		}
		if (!blab_sim_point_record_ok(runs[k].text, runs[k].len, runs[k].key)) {
			fprintf(stderr, "blab merge: %s:%u: run %lu's record is not one line of its point's "
					"counters (blab sim --points writes them)\n", runs[k].file,
				runs[k].line + 1, k);
			goto out;
		}
	}
	for (unsigned long k = 0; k < total; k++)
		fwrite(runs[k].text, 1, runs[k].len, stdout);
	ret = fflush(stdout) ? 1 : 0;
out:
	if (texts)
		for (int f = 1; f < argc; f++)
			free(texts[f]);
	free(texts);
	free(runs);
	free(seen);
	return ret;
}
