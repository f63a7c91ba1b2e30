/*
 * fuzz_bytes.h - reading a fuzz input as numbers, for the targets that build a config from
 * it (fuzz_sim_config.c, fuzz_snapshot.c): past the end every byte reads as 0, so any input
 * makes a whole config.
 */
#ifndef BLAB_FUZZ_BYTES_H
#define BLAB_FUZZ_BYTES_H

#include <stddef.h>
#include <stdint.h>

struct bytes {
	const uint8_t *p;
	size_t n;
};

/* the next width bytes (1..4), big-endian */
static inline uint32_t take(struct bytes *b, unsigned width)
{
	uint32_t v = 0;
	for (unsigned i = 0; i < width; i++) {
		v = v << 8 | (b->n ? *b->p : 0);
		if (b->n) {
			b->p++;
			b->n--;
		}
	}
	return v;
}

#endif
