/* harness.h - a tiny assertion harness: CHECK(cond), CHECK_EQ(a, b), a failure count. */
#ifndef BLAB_HARNESS_H
#define BLAB_HARNESS_H
#include <stdint.h>
#include <stdio.h>

extern int harness_failures;
void harness_fail(const char *file, int line, const char *expr, const char *detail);
int harness_report(const char *name);

/*
 * Shares of a long test, so that ctest runs them side by side (CMakeLists.txt registers NAME
 * as NAME_1of4 .. NAME_4of4, each run as `NAME --shard I/4`). harness_shard() reads the
 * arguments: share I of N, as *i = I - 1 and *n = N; no arguments is the whole test (0 of 1).
 * A test then runs item k (a preset, a part) when k % n == i: every item in exactly one share,
 * with the same inputs as in the whole run. Anything else on the command line is refused.
 */
int harness_shard(int argc, char **argv, unsigned *i, unsigned *n);

/* a test made of named parts, run in order; harness_run() runs those of the share asked for */
struct harness_part {
	const char *name;
	void (*run)(void);
};
int harness_run(const char *name, const struct harness_part *parts, unsigned nparts, int argc,
		char **argv);

#define CHECK(cond)                                                          \
	do {                                                                 \
		if (!(cond))                                                 \
			harness_fail(__FILE__, __LINE__, #cond, NULL);       \
	} while (0)

#define CHECK_EQ(a, b)                                                       \
	do {                                                                 \
		long long _a = (long long)(a), _b = (long long)(b);          \
		if (_a != _b) {                                              \
			char _d[96];                                         \
			snprintf(_d, sizeof(_d), "%lld != %lld", _a, _b);    \
			harness_fail(__FILE__, __LINE__, #a " == " #b, _d);  \
		}                                                            \
	} while (0)

#endif
