/*
 * ex_seed.c - the seeds of a class: each sheet problem's from the class seed, and each
 * student's own from a name or an ID, so every student gets other numbers and the same
 * student always the same ones (docs/exercises.md). Both are integer-only, so the CLI and
 * the browser compute the same seed.
 */
#include <string.h>
#include "exercise.h"

int64_t blab_exercise_student_seed(uint64_t class_seed, const char *name)
{
	char norm[BLAB_EXERCISE_NAME_MAX + 1], head[24];
	size_t n = 0;
	uint32_t h = 2166136261u; /* FNV-1a, 32 bits */
	int blank = 0;

	if (!name || class_seed > BLAB_EXERCISE_SEED_MAX || !blab_name_ok(name))
		return -1;
	for (const char *p = name; *p; p++) {
		char c = *p;
		if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
			blank = n > 0; /* blanks before the name are dropped, inner runs become one */
			continue;
		}
		if (blank) {
			if (n == BLAB_EXERCISE_NAME_MAX)
				return -1;
			norm[n++] = ' ';
			blank = 0;
		}
		if (n == BLAB_EXERCISE_NAME_MAX)
			return -1;
		norm[n++] = (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c;
	}
	if (!n)
		return -1;
	snprintf(head, sizeof(head), "%llu:", (unsigned long long)class_seed);
	for (const char *p = head; *p; p++) {
		h ^= (unsigned char)*p;
		h *= 16777619u;
	}
	for (size_t i = 0; i < n; i++) {
		h ^= (unsigned char)norm[i];
		h *= 16777619u;
	}
	return (int64_t)h;
}

uint64_t blab_exercise_item_seed(uint64_t class_seed, uint32_t i)
{
	struct blab_rng r;
	blab_rng_seed(&r, (class_seed << 32) | i);
	return blab_rng_next(&r) >> 32;
}
