/* Minimal test harness (model branch stand-in; the core's harness replaces it). */
#ifndef BLAB_TEST_HARNESS_H
#define BLAB_TEST_HARNESS_H
#include <stdint.h>

extern int harness_failed;
extern int harness_checks;
void harness_fail(const char *file, int line, const char *expr, unsigned long long a,
		  unsigned long long b, int has_values);
int harness_summary(const char *name);

#define CHECK(cond)                                                                            \
	do {                                                                                   \
		harness_checks++;                                                              \
		if (!(cond))                                                                   \
			harness_fail(__FILE__, __LINE__, #cond, 0, 0, 0);                      \
	} while (0)
#define CHECK_EQ(a, b)                                                                         \
	do {                                                                                   \
		unsigned long long a_ = (unsigned long long)(a), b_ = (unsigned long long)(b); \
		harness_checks++;                                                              \
		if (a_ != b_)                                                                  \
			harness_fail(__FILE__, __LINE__, #a " == " #b, a_, b_, 1);             \
	} while (0)
#endif
