/*
 * sim_points.c - `blab sim --points FILE [--jobs N] [--cache DIR] [--shard I/N]` (options from
 * sim_args.c's table): runs each point of FILE (one key a line, as web/engine/point.ts writes
 * them; blank lines and # comments skipped) and prints each point's record, one line of JSON
 * with its key and every counter (blab_sim_point_record()), in the file's order: the counters
 * the browser's blab_js_sim_run() gives for the same point, by the same names. This is how the
 * build precomputes the lessons' tables (web/lessons/precompute.ts), on every core with --jobs,
 * and with --cache a rebuild with the same core runs nothing again (the cache keeps the
 * records). --shard I/N runs every N-th point from the I-th and prints them as a shard
 * (sim_shard.h) that `blab merge` puts back in order: a study fanned out over GNU parallel or a
 * Slurm job array.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <blab_core_hash.h> /* generated: cmake/core_hash.cmake */
#include "blab_sim.h"
#include "sim_cache.h"
#include "sim_args.h"
#include "sim_jobs.h"
#include "sim_shard.h"
#include "cmd_sim.h"

#define POINTS_FILE_MAX (16u << 20)
#define POINTS_MAX 20000u /* lines are compared pairwise for repeats */

struct point_job {
	struct blab_sim_point p;
	char key[BLAB_SIM_POINT_KEY_MAX];
	unsigned line;
	int mine;     /* this shard runs it (always without --shard) */
	long first;   /* the index of the first line of this shard with the same key, or -1 */
	char *record; /* the run's record (malloc'd), one line of JSON */
	char err[200];
	int cached;
};

struct points {
	struct point_job *job;
	size_t n;
	const struct sim_cache *cache; /* NULL: no --cache */
	uint64_t mem_limit;            /* each run's (--mem-limit, $BLAB_MEM_LIMIT; 0: the core's) */
	int cache_failed;
};

static void run_point(size_t i, void *ctx)
{
	struct points *ps = ctx;
	struct point_job *j = &ps->job[i];
	struct blab_sim_config cfg;
	struct blab_sim_result res;
	struct blab_latency *lat = NULL;
	int len, rc;

	if (!j->mine || j->first >= 0)
		return; /* another shard's, or printed from the first line with this key */
	if (ps->cache && (j->record = sim_cache_get(ps->cache, j->key))) {
		j->cached = 1;
		return;
	}
	if (blab_sim_point_config(&j->p, &cfg, j->err, sizeof(j->err)))
		return;
	cfg.mem_limit = ps->mem_limit;
	if (blab_sim_point_latency(&j->p, &cfg, &lat)) {
		snprintf(j->err, sizeof(j->err), "out of memory for the latency recorder");
		return;
	}
	cfg.latency = lat;
	rc = blab_sim_run(&cfg, &res, j->err, sizeof(j->err));
	blab_latency_free(lat);
	if (rc) {
		if (!j->err[0])
			snprintf(j->err, sizeof(j->err), "the run failed");
		return;
	}
	len = blab_sim_point_record(NULL, 0, j->key, &res);
	j->record = malloc((size_t)len + 1);
	if (!j->record) {
		snprintf(j->err, sizeof(j->err), "out of memory");
		return;
	}
	blab_sim_point_record(j->record, (size_t)len + 1, j->key, &res);
	if (ps->cache && sim_cache_put(ps->cache, j->key, j->record))
		ps->cache_failed = 1;
}

/* FILE's points, one a line; errors say FILE:LINE. The shard's are marked `mine` (all of them
 * when sh->n is 0). 0, or -1 (said on stderr). */
static int read_points(const char *path, struct points *ps, const struct sim_shard *sh)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	char *text, *s;
	size_t n;
	unsigned line = 0;

	if (!f) {
		fprintf(stderr, "blab sim: --points: cannot read %s: %s\n", path, strerror(errno));
		return -1;
	}
	text = malloc(POINTS_FILE_MAX + 1);
	n = text ? fread(text, 1, POINTS_FILE_MAX + 1, f) : 0;
	if (f != stdin)
		fclose(f);
	if (!text || n > POINTS_FILE_MAX) {
		fprintf(stderr, "blab sim: --points: %s is larger than %u bytes\n", path, POINTS_FILE_MAX);
		free(text);
		return -1;
	}
	text[n] = '\0';
	ps->job = calloc(POINTS_MAX, sizeof(*ps->job));
	if (!ps->job) {
		fprintf(stderr, "blab sim: out of memory\n");
		free(text);
		return -1;
	}
	for (s = text; *s;) {
		char *nl = strchr(s, '\n');
		char why[160];
		if (nl)
			*nl = '\0';
		line++;
		if (nl && nl > s && nl[-1] == '\r')
			nl[-1] = '\0';
		if (*s && *s != '#') {
			struct point_job *j;
			if (ps->n == POINTS_MAX) {
				fprintf(stderr, "blab sim: %s:%u: more than %u points\n", path, line, POINTS_MAX);
				free(text);
				return -1;
			}
			j = &ps->job[ps->n];
			if (blab_sim_point_parse(s, &j->p, why, sizeof(why))) {
				fprintf(stderr, "blab sim: %s:%u: %s\n", path, line, why);
				free(text);
				return -1;
			}
			blab_sim_point_key(&j->p, j->key, sizeof(j->key));
			j->line = line;
			j->mine = sim_shard_mine(sh, ps->n);
			j->first = -1;
			for (size_t k = 0; k < ps->n && j->first < 0 && j->mine; k++)
				if (ps->job[k].mine && ps->job[k].first < 0 && !strcmp(ps->job[k].key, j->key))
					j->first = (long)k;
			ps->n++;
		}
		if (!nl)
			break;
		s = nl + 1;
	}
	free(text);
	return 0;
}

int cmd_sim_points(const struct sim_args *a)
{
	const char *file = a->points, *cache_dir = a->cache;
	unsigned long jobs = (unsigned long)a->jobs;
	struct sim_shard shard = a->shard;
	struct sim_cache cache;
	struct points ps = {0};
	struct timespec t0, t1;
	size_t ran = 0, cached = 0, failed = 0;
	char err[300];
	int ret = 0;

	ps.mem_limit = a->mem_limit;
	if (cache_dir) {
		if (sim_cache_open(&cache, cache_dir, BLAB_CORE_HASH, err, sizeof(err))) {
			fprintf(stderr, "blab sim: --cache: %s\n", err);
			return 1;
		}
		ps.cache = &cache;
	}
	if (read_points(file, &ps, &shard)) {
		free(ps.job);
		return 2;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (sim_jobs_run(ps.n, (unsigned)jobs, run_point, &ps))
		fprintf(stderr, "blab sim: warning: not every --jobs thread started; the others ran "
				"their points\n");
	clock_gettime(CLOCK_MONOTONIC, &t1);
	for (size_t i = 0; i < ps.n; i++) {
		struct point_job *j = &ps.job[i];
		if (!j->mine || j->first >= 0)
			continue;
		if (!j->record) {
			fprintf(stderr, "blab sim: %s:%u: %s: %s\n", file, j->line, j->key, j->err);
			failed++;
		} else if (j->cached) {
			cached++;
		} else {
			ran++;
		}
	}
	if (failed) {
		ret = 1;
	} else {
		if (shard.n)
			printf(SIM_SHARD_MAGIC " points %u/%u %zu\n", shard.i, shard.n, ps.n);
		for (size_t i = 0; i < ps.n; i++) {
			const struct point_job *j = &ps.job[i];
			const char *record = ps.job[j->first >= 0 ? j->first : (long)i].record;
			if (!j->mine)
				continue;
			if (shard.n)
				printf("point %zu %s\n", i, j->key);
			fputs(record, stdout);
		}
		size_t mine = 0;
		for (size_t i = 0; i < ps.n; i++)
			mine += ps.job[i].mine != 0;
		if (shard.n)
			fprintf(stderr, "blab sim: shard %u/%u: %zu of %zu points\n", shard.i, shard.n,
				mine, ps.n);
		fprintf(stderr, "blab sim: %zu point%s: %zu run, %zu from the cache, %.2f s, %lu job%s%s\n",
			mine, mine == 1 ? "" : "s", ran, cached,
			(double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9, jobs,
			jobs == 1 ? "" : "s",
			ps.cache_failed ? "; warning: some results could not be written to the cache" : "");
	}
	for (size_t i = 0; i < ps.n; i++)
		free(ps.job[i].record);
	free(ps.job);
	return ret;
}
