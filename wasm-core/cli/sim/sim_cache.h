/*
 * sim_cache.h - blab sim --cache DIR: finished runs kept on disk, one file per run holding its
 * record (blab_sim_point_record(): its key and every counter), keyed by the core build hash (a
 * subfolder, DIR/HASH/) and the run's key, so a sweep asked for again (a
 * rebuild of the lessons' tables, a shard run twice) runs nothing it ran before, and a new core
 * never reads an old core's numbers. Safe for several threads and processes at once: a file is
 * written whole under another name and renamed into place.
 */
#ifndef BLAB_CLI_SIM_CACHE_H
#define BLAB_CLI_SIM_CACHE_H

#include <stddef.h>

#define SIM_CACHE_PATH_MAX 4096u
#define SIM_CACHE_RECORD_MAX (1u << 16) /* a cached run's record; larger files are not read */

struct sim_cache {
	char dir[SIM_CACHE_PATH_MAX]; /* DIR/HASH */
};

/* Creates DIR/HASH (and DIR) if missing. 0, or -1 with the reason in err. */
int sim_cache_open(struct sim_cache *c, const char *dir, const char *hash, char *err, size_t n);

/* The record kept for key (malloc'd, the caller frees it), or NULL: none, another key's (a
 * hash collision), or not exactly a record of key (blab_sim_point_record_ok: damaged). */
char *sim_cache_get(const struct sim_cache *c, const char *key);

/* Keeps key's record. 0, or -1 (the caller warns; the run's result stands). */
int sim_cache_put(const struct sim_cache *c, const char *key, const char *record);

#endif
