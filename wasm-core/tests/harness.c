#include <stdio.h>
#include "harness.h"

int harness_failures;

void harness_fail(const char *file, int line, const char *expr, const char *detail)
{
	harness_failures++;
	fprintf(stderr, "FAIL %s:%d: %s%s%s\n", file, line, expr, detail ? "  -- " : "",
		detail ? detail : "");
}

int harness_report(const char *name)
{
	if (harness_failures) {
		fprintf(stderr, "%s: %d check(s) failed\n", name, harness_failures);
		return 1;
	}
	printf("%s: all checks passed\n", name);
	return 0;
}
