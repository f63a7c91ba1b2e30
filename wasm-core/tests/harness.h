/* harness.h - a tiny assertion harness: CHECK(cond), CHECK_EQ(a, b), a failure count. */
#ifndef BLAB_HARNESS_H
#define BLAB_HARNESS_H
#include <stdint.h>
#include <stdio.h>

extern int harness_failures;
void harness_fail(const char *file, int line, const char *expr, const char *detail);
int harness_report(const char *name);

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
