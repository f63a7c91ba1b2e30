/* sim_cache.c - finished runs on disk (sim_cache.h) */
#include "sim_cache.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "blab_sim.h"

/* mkdir -p */
static int make_dirs(const char *path, char *err, size_t n)
{
	char p[SIM_CACHE_PATH_MAX];
	size_t len = strlen(path);

	if (len == 0 || len >= sizeof(p)) {
		snprintf(err, n, "the cache folder's name is empty or longer than %u characters",
			 SIM_CACHE_PATH_MAX - 1);
		return -1;
	}
	memcpy(p, path, len + 1);
	for (char *s = p + 1; ; s++) {
		if (*s != '/' && *s != '\0')
			continue;
		char c = *s;
		*s = '\0';
		if (mkdir(p, 0777) && errno != EEXIST) {
			snprintf(err, n, "cannot create %s: %s", p, strerror(errno));
			return -1;
		}
		*s = c;
		if (!c)
			break;
	}
	struct stat st;
	if (stat(path, &st) || !S_ISDIR(st.st_mode)) {
		snprintf(err, n, "%s is not a folder", path);
		return -1;
	}
	return 0;
}

int sim_cache_open(struct sim_cache *c, const char *dir, const char *hash, char *err, size_t n)
{
	int k = snprintf(c->dir, sizeof(c->dir), "%s/%s", dir, hash);
	if (k < 0 || (size_t)k >= sizeof(c->dir)) {
		snprintf(err, n, "the cache folder's name is longer than %u characters",
			 SIM_CACHE_PATH_MAX - 40);
		return -1;
	}
	return make_dirs(c->dir, err, n);
}

/* FNV-1a, 64 bits: the file name of a key (the record in it names the key itself) */
static void file_of(const struct sim_cache *c, const char *key, char *path, size_t n)
{
	uint64_t h = 14695981039346656037ull;
	for (const unsigned char *s = (const unsigned char *)key; *s; s++)
		h = (h ^ *s) * 1099511628211ull;
	snprintf(path, n, "%s/%016llx.json", c->dir, (unsigned long long)h);
}

char *sim_cache_get(const struct sim_cache *c, const char *key)
{
	char path[SIM_CACHE_PATH_MAX + 32];
	size_t got;
	char *buf;
	FILE *f;

	file_of(c, key, path, sizeof(path));
	f = fopen(path, "rb");
	if (!f)
		return NULL;
	buf = malloc(SIM_CACHE_RECORD_MAX + 1);
	got = buf ? fread(buf, 1, SIM_CACHE_RECORD_MAX + 1, f) : 0;
	fclose(f);
	if (!buf || got > SIM_CACHE_RECORD_MAX || !blab_sim_point_record_ok(buf, got, key)) {
		free(buf);
		return NULL;
	}
	buf[got] = '\0';
	return buf;
}

int sim_cache_put(const struct sim_cache *c, const char *key, const char *record)
{
	static atomic_uint serial;
	char path[SIM_CACHE_PATH_MAX + 32], tmp[SIM_CACHE_PATH_MAX + 96];
	FILE *f;
	int bad;

	file_of(c, key, path, sizeof(path));
	snprintf(tmp, sizeof(tmp), "%s.%ld.%u.tmp", path, (long)getpid(), atomic_fetch_add(&serial, 1));
	f = fopen(tmp, "wb");
	if (!f)
		return -1;
	bad = fputs(record, f) < 0;
	bad |= fclose(f) != 0;
	if (bad || rename(tmp, path)) {
		remove(tmp);
		return -1;
	}
	return 0;
}
