/*
 * textout.h - text printed into a caller's buffer that may be too small: the printers of the
 * size histograms (hist.c) and of the zoneinfo report (trace/zoneinfo.c) write through it,
 * and a first pass with no buffer measures what the second needs (snprintf's contract).
 */
#ifndef BLAB_BASE_TEXTOUT_H
#define BLAB_BASE_TEXTOUT_H

#include <stddef.h>

struct text_out {
	char *buf;      /* NULL: only count */
	size_t cap;     /* bytes of buf, its NUL included */
	size_t len;     /* bytes the whole text needs, without the NUL: may pass cap */
};

/* Appends printf(fmt, ...) where it fits (always NUL-terminated), and counts all of it. */
void text_put(struct text_out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
