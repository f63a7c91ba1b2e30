/*
 * fuzz_text.c - libFuzzer target: names and echoed input (src/text.c). Any bytes as a name
 * and as text a message echoes.
 *
 * Oracle, beyond ASan/UBSan: the escaped text is always a name blab_name_ok() accepts
 * (nothing hidden or reversed is left in it); a name blab_name_ok() accepts escapes to
 * itself; the returned length is what a large enough buffer gets; a short buffer is cut on a
 * character boundary and NUL-terminated.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "blab.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char in[512], out[8 * sizeof(in)], cut[24];
	size_t n = size < sizeof(in) - 1 ? size : sizeof(in) - 1, len, cutlen;

	memcpy(in, data, n);
	in[n] = 0; /* a C string ends at its first NUL, as the callers' names do */
	len = blab_text_escape(out, sizeof(out), in);
	if (len != strlen(out) || len >= sizeof(out))
		abort();
	if (!blab_name_ok(out))
		abort(); /* the escape let something hidden through */
	if (blab_name_ok(in) && strcmp(in, out))
		abort(); /* a clean name changed */
	cutlen = blab_text_escape(cut, sizeof(cut), in);
	if (cutlen != len || strlen(cut) >= sizeof(cut) || strncmp(cut, out, strlen(cut)))
		abort(); /* a cut copy is a prefix of the whole */
	return 0;
}
