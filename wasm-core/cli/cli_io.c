/* cli_io.c - reading files and closing standard output, with the reason (cli_io.h) */
#include "cli_io.h"

#include <errno.h>
#include <string.h>

#include "blab.h"

/* a path as a message shows it: control and bidirectional characters spelled out */
static const char *shown(const char *path)
{
	static char buf[4 * 4096 + 8];
	blab_text_escape(buf, sizeof(buf), path);
	return buf;
}

FILE *cli_open_read(const char *cmd, const char *path)
{
	FILE *f;

	if (strcmp(path, "-") == 0)
		return stdin;
	f = fopen(path, "rb");
	if (!f) {
		const char *why = strerror(errno);
		fprintf(stderr, "%s: cannot open %s: %s\n", cmd, shown(path), why);
	}
	return f;
}

int cli_close_read(const char *cmd, const char *path, FILE *f)
{
	/* errno still holds the failed read's reason: nothing since has touched it */
	int e = errno, bad = ferror(f);

	if (f != stdin)
		fclose(f);
	if (!bad)
		return 0;
	fprintf(stderr, "%s: cannot read %s: %s\n", cmd, strcmp(path, "-") ? shown(path) : "standard input",
		e ? strerror(e) : "read error");
	return -1;
}

int cli_read_file(const char *cmd, const char *path, char *buf, size_t cap, size_t *len)
{
	FILE *f = cli_open_read(cmd, path);
	size_t n = 0, k;

	*len = 0;
	if (!f)
		return -1;
	errno = 0;
	/* one byte past cap tells "too large" from "exactly cap" */
	while (n < cap && (k = fread(buf + n, 1, cap - n, f)) > 0)
		n += k;
	if (n == cap && !ferror(f)) {
		char extra;
		if (fread(&extra, 1, 1, f) == 1) {
			if (f != stdin)
				fclose(f);
			fprintf(stderr, "%s: %s is larger than %zu bytes\n", cmd, shown(path), cap);
			return -1;
		}
	}
	if (cli_close_read(cmd, path, f))
		return -1;
	*len = n;
	return 0;
}

int cli_exit(int status)
{
	int e = 0, bad;

	errno = 0;
	if (fflush(stdout) == EOF)
		e = errno;
	bad = ferror(stdout); /* an earlier write failed too; its errno is gone */
	if (fclose(stdout) == EOF && !e)
		e = errno;
	if (!e && !bad)
		return status;
	if (e)
		fprintf(stderr, "blab: cannot write standard output: %s\n", strerror(e));
	else
		fprintf(stderr, "blab: cannot write standard output (a write failed)\n");
	return status ? status : 1;
}
