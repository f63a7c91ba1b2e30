#include "harness.h"

#include <stdio.h>

int harness_failed;
int harness_checks;

void harness_fail(const char *file, int line, const char *expr, unsigned long long a,
		  unsigned long long b, int has_values)
{
	harness_failed++;
	if (has_values)
		fprintf(stderr, "%s:%d: FAIL %s (%llu != %llu)\n", file, line, expr, a, b);
	else
		fprintf(stderr, "%s:%d: FAIL %s\n", file, line, expr);
}

int harness_summary(const char *name)
{
	printf("%s: %d checks, %d failed\n", name, harness_checks, harness_failed);
	return harness_failed ? 1 : 0;
}
