/*
 * fuzz_exercise.c - libFuzzer target: the exercise generator's two parsers (src/exercise/).
 *
 * The first byte picks one:
 *   even: a typed answer (ex_answer.c) held to a canonical one. Bytes 1..4 pick the form,
 *         the buddyinfo width and the choices; the rest is "ANSWER\nTYPED". Oracle: 0, 1 or
 *         2, and a refused answer (2) always says what form is expected.
 *   odd:  `blab exercise` arguments (ex_main.c), the rest split at NULs. The result kind and
 *         sheets are left out (their runs take seconds, not a fuzzer's milliseconds). Oracle:
 *         exit status 0 or 2, and a refusal is one line on stderr; status 1 is a problem the
 *         generator could not make, a bug.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exercise/exercise.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void answer(const uint8_t *data, size_t size)
{
	struct ex_question q;
	char buf[1024], say[256];
	char *typed;
	size_t n;
	int r;

	if (size < 5)
		return;
	memset(&q, 0, sizeof(q));
	q.form = (uint8_t)(data[1] % EX_FORMS);
	q.width = (uint8_t)(1 + data[2] % 16);
	q.nchoices = (uint8_t)(2 + data[3] % (EX_MAX_CHOICES - 1));
	data += 5;
	size -= 5;
	n = size < sizeof(buf) - 1 ? size : sizeof(buf) - 1;
	memcpy(buf, data, n);
	buf[n] = 0;
	typed = strchr(buf, '\n');
	if (typed)
		*typed++ = 0;
	else
		typed = buf;
	ex_puts(&q.answer, buf);
	r = ex_check(&q, typed, say, sizeof(say));
	if (r != 0 && r != 1 && r != 2 && r != BLAB_ECHECK)
		abort();
	if (r == 2 && !say[0])
		abort(); /* a refused answer is told its form */
	ex_buf_free(&q.answer);
}

static void arguments(const uint8_t *data, size_t size)
{
	char buf[512], *argv[34], *errp = NULL;
	size_t n = size < sizeof(buf) - 1 ? size : sizeof(buf) - 1, errl = 0;
	int argc = 1, rc;
	FILE *out, *err;

	memcpy(buf, data, n);
	buf[n] = 0;
	argv[0] = "exercise";
	for (size_t at = 0; at <= n && argc < 33; at += strlen(buf + at) + 1) {
		argv[argc++] = buf + at;
		if (!strcmp(buf + at, "result") || strstr(buf + at, "sheet") || strstr(buf + at, "--kind"))
			return;
	}
	argv[argc] = NULL;
	out = fopen("/dev/null", "w");
	err = open_memstream(&errp, &errl);
	if (!out || !err)
		abort();
	rc = blab_exercise_main(argc, argv, out, err);
	fclose(out);
	fclose(err);
	if (rc != 0 && rc != 2)
		abort(); /* the generator failed on arguments it accepted */
	if (rc == 2 && (!errl || !strchr(errp, '\n')))
		abort(); /* a refusal says why */
	free(errp);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	if (data[0] & 1)
		arguments(data + 1, size - 1);
	else
		answer(data, size);
	return 0;
}
