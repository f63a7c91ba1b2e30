/*
 * text.c - names and echoed input that cannot disguise themselves. A message that repeats
 * what a user typed ("unknown preset 'x'") and a name the core keeps (a slab cache's) must
 * show what they hold: a bidirectional override (U+202E) turns the rest of a terminal line
 * around, a control character moves the cursor, a zero-width character or a byte order
 * mark is invisible. Names refuse them; echoes spell them out (\u{202E}, \x1b).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "blab.h"
#include "textout.h"

/* the code point of the UTF-8 sequence at s (its length in *len), or -1 when it is not one */
static long utf8_at(const unsigned char *s, size_t *len)
{
	unsigned n = s[0] >= 0xf0 ? 3 : s[0] >= 0xe0 ? 2 : s[0] >= 0xc2 ? 1 : 0;
	long cp = s[0] & (0x3f >> n);

	if (s[0] < 0x80) {
		*len = 1;
		return s[0];
	}
	if (!n || s[0] > 0xf4)
		return -1; /* a continuation byte, an overlong lead (c0, c1) or past U+10FFFF */
	for (unsigned i = 1; i <= n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return -1;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((n == 2 && cp < 0x800) || (n == 3 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return -1; /* overlong, or a surrogate */
	*len = n + 1;
	return cp;
}

/* characters that change how text around them is shown, or are not shown at all */
static int hidden(long cp)
{
	return cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) || /* C0, DEL, C1 controls */
	       cp == 0x061c ||                           /* ARABIC LETTER MARK */
	       (cp >= 0x200b && cp <= 0x200f) ||         /* zero width, LRM, RLM */
	       (cp >= 0x202a && cp <= 0x202e) ||         /* embeddings and overrides */
	       (cp >= 0x2060 && cp <= 0x2069) ||         /* word joiner .. isolates */
	       cp == 0xfeff;                             /* byte order mark */
}

int blab_name_ok(const char *name)
{
	const unsigned char *s = (const unsigned char *)name;
	size_t len;
	long cp;

	if (!name)
		return 0;
	for (; *s; s += len)
		if ((cp = utf8_at(s, &len)) < 0 || hidden(cp))
			return 0;
	return 1;
}

size_t blab_text_escape(char *dst, size_t cap, const char *src)
{
	const unsigned char *s = (const unsigned char *)src;
	size_t n = 0, w = 0, len; /* n: the escaped length; w: what fits in dst */
	char esc[16];

	if (cap)
		dst[0] = 0;
	if (!src)
		return 0;
	for (; *s; s += len) {
		long cp = utf8_at(s, &len);
		const char *piece = (const char *)s;
		size_t plen = len;
		if (cp < 0) {
			snprintf(esc, sizeof(esc), "\\x%02x", s[0]);
			len = 1;
			piece = esc;
			plen = strlen(esc);
		} else if (hidden(cp)) {
			snprintf(esc, sizeof(esc), cp < 0x80 ? "\\x%02lx" : "\\u{%04lX}", cp);
			piece = esc;
			plen = strlen(esc);
		}
		if (w == n && n + plen < cap) {
			memcpy(dst + n, piece, plen);
			w += plen;
			dst[w] = 0;
		}
		n += plen;
	}
	return n;
}

void text_put(struct text_out *o, const char *fmt, ...)
{
	va_list ap;
	int n;
	char *dst = o->buf && o->len < o->cap ? o->buf + o->len : NULL;
	size_t room = dst ? o->cap - o->len : 0;

	va_start(ap, fmt);
	n = vsnprintf(dst, room, fmt, ap);
	va_end(ap);
	if (n > 0)
		o->len += (size_t)n;
}
