/* The run's one PRNG (blab_rng, shared by core and model): a seed fixes the sequence; below(n) stays in range and is unbiased. */
#include "harness.h"
#include "blab.h"

int main(void)
{
	struct blab_rng a, b, c;
	blab_rng_seed(&a, 1);
	blab_rng_seed(&b, 1);
	blab_rng_seed(&c, 2);
	int same = 0;
	for (int i = 0; i < 1000; i++) {
		uint64_t x = blab_rng_next(&a), y = blab_rng_next(&b), z = blab_rng_next(&c);
		CHECK_EQ(x, y);
		same += x == z;
	}
	CHECK_EQ(same, 0);

	uint32_t count[10] = { 0 };
	blab_rng_seed(&a, 3);
	for (int i = 0; i < 100000; i++) {
		uint64_t v = blab_rng_below(&a, 10);
		CHECK(v < 10);
		count[v < 10 ? v : 0]++;
	}
	for (int i = 0; i < 10; i++)
		CHECK(count[i] > 9500 && count[i] < 10500);
	CHECK_EQ(blab_rng_below(&a, 1), 0);
	return harness_report("test_model_rng");
}
