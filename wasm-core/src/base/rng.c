/*
 * rng.c - the one seeded PRNG of a run: xoshiro256** seeded through splitmix64.
 * Integer-only, so native and WASM draw the same numbers.
 */
#include "blab.h"

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t r = (*x += 0x9e3779b97f4a7c15ull);
	r = (r ^ (r >> 30)) * 0xbf58476d1ce4e5b9ull;
	r = (r ^ (r >> 27)) * 0x94d049bb133111ebull;
	return r ^ (r >> 31);
}

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

void blab_rng_seed(struct blab_rng *r, uint64_t seed)
{
	for (int i = 0; i < 4; i++)
		r->s[i] = splitmix64(&seed);
}

uint64_t blab_rng_next(struct blab_rng *r)
{
	uint64_t *s = r->s;
	uint64_t result = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;
	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

/* Lemire's multiply-shift with rejection: unbiased, no division in the common case. */
uint32_t blab_rng_below(struct blab_rng *r, uint32_t n)
{
	if (n == 0)
		return 0;
	uint64_t m = (uint64_t)(uint32_t)(blab_rng_next(r) >> 32) * n;
	uint32_t lo = (uint32_t)m;
	if (lo < n) {
		uint32_t t = (uint32_t)(-n) % n;
		while (lo < t) {
			m = (uint64_t)(uint32_t)(blab_rng_next(r) >> 32) * n;
			lo = (uint32_t)m;
		}
	}
	return (uint32_t)(m >> 32);
}
