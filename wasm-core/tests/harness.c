#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

int harness_shard(int argc, char **argv, unsigned *i, unsigned *n)
{
	char *end;
	unsigned long a, b;

	*i = 0;
	*n = 1;
	if (argc == 1)
		return 0;
	if (argc != 3 || strcmp(argv[1], "--shard") != 0)
		goto usage;
	a = strtoul(argv[2], &end, 10);
	if (end == argv[2] || *end != '/')
		goto usage;
	b = strtoul(end + 1, &end, 10);
	if (*end || b < 1 || b > 64 || a < 1 || a > b)
		goto usage;
	*i = (unsigned)(a - 1);
	*n = (unsigned)b;
	return 0;
usage:
	fprintf(stderr, "usage: %s [--shard I/N]   (1 <= I <= N <= 64)\n", argv[0]);
	return 2;
}

int harness_run(const char *name, const struct harness_part *parts, unsigned nparts, int argc,
		char **argv)
{
	unsigned i, n;
	int err = harness_shard(argc, argv, &i, &n);

	if (err)
		return err;
	for (unsigned k = 0; k < nparts; k++)
		if (k % n == i)
			parts[k].run();
	return harness_report(name);
}
