/* The scheduler: lowest clock first, ties by CPU number, park/unpark/finish, 256 CPUs. */
#include <string.h>

#include "harness.h"
#include "machine/model/model.h"
#include "blab.h"

static void test_order_and_ties(void)
{
	struct sched s;
	CHECK_EQ(sched_init(&s, 4), 0);
	CHECK_EQ(sched_peek(&s), 0); /* all at 0: lowest number */
	sched_set_clock(&s, 0, 10);
	CHECK_EQ(sched_peek(&s), 1);
	sched_set_clock(&s, 1, 10);
	sched_set_clock(&s, 2, 5);
	sched_set_clock(&s, 3, 10);
	CHECK_EQ(sched_peek(&s), 2);
	sched_set_clock(&s, 2, 10);
	CHECK_EQ(sched_peek(&s), 0); /* four-way tie */
	sched_park(&s, 0);
	CHECK_EQ(sched_peek(&s), 1);
	sched_set_clock(&s, 1, 11);
	CHECK_EQ(sched_peek(&s), 2);
	sched_unpark(&s, 0, 3);
	CHECK_EQ(sched_peek(&s), 0);
	sched_finish(&s, 0);
	CHECK_EQ(sched_peek(&s), 2);
	sched_set_clock(&s, 2, 4); /* backwards works too */
	CHECK_EQ(sched_peek(&s), 2);
	CHECK_EQ(sched_max_clock(&s), 11);
	sched_finish(&s, 1);
	sched_finish(&s, 2);
	sched_park(&s, 3);
	CHECK_EQ(sched_peek(&s), MODEL_NO_CPU);
	CHECK_EQ(s.state[0], SCHED_FINISHED);
	CHECK_EQ(s.state[3], SCHED_PARKED);
	CHECK_EQ(sched_init(&s, 0), -1);
	CHECK_EQ(sched_init(&s, 257), -1);
}

/* Against a linear scan: 256 CPUs, random steps, parks and unparks. */
static uint32_t slow_peek(const struct sched *s)
{
	uint32_t best = MODEL_NO_CPU;
	for (uint32_t c = 0; c < s->ncpus; c++)
		if (s->state[c] == SCHED_RUNNABLE &&
		    (best == MODEL_NO_CPU || s->clock[c] < s->clock[best]))
			best = c;
	return best;
}

static void test_256_random(void)
{
	struct sched s;
	struct blab_rng r;
	uint32_t ran[256] = { 0 };
	CHECK_EQ(sched_init(&s, 256), 0);
	blab_rng_seed(&r, 7);
	for (int i = 0; i < 200000; i++) {
		uint32_t cpu = sched_peek(&s);
		CHECK_EQ(cpu, slow_peek(&s));
		if (i % 997 == 0)
			CHECK_EQ(sched_check(&s, NULL, 0), 0);
		uint64_t x = blab_rng_next(&r);
		if (cpu != MODEL_NO_CPU) {
			ran[cpu]++;
			/* small steps make many ties */
			sched_set_clock(&s, cpu, s.clock[cpu] + (x % 4));
			if ((x >> 8) % 16 == 0)
				sched_park(&s, cpu);
		}
		uint32_t other = (uint32_t)((x >> 16) % 256);
		if (s.state[other] == SCHED_PARKED && (x >> 32) % 2 == 0)
			sched_unpark(&s, other, s.clock[other] + (x >> 40) % 8);
	}
	for (int c = 0; c < 256; c++)
		CHECK(ran[c] > 0);
}

static void test_drain_order(void)
{
	struct sched s;
	CHECK_EQ(sched_init(&s, 256), 0);
	for (uint32_t c = 0; c < 256; c++)
		sched_set_clock(&s, c, ((c * 37) % 256) / 4); /* groups of four equal clocks */
	uint64_t last_clock = 0;
	uint32_t last_cpu = 0, n = 0;
	for (uint32_t cpu; (cpu = sched_peek(&s)) != MODEL_NO_CPU; n++) {
		if (n)
			CHECK(s.clock[cpu] > last_clock ||
			      (s.clock[cpu] == last_clock && cpu > last_cpu));
		last_clock = s.clock[cpu];
		last_cpu = cpu;
		sched_finish(&s, cpu);
	}
	CHECK_EQ(n, 256);
	CHECK_EQ(last_clock, 63);
}

static void test_checker(void)
{
	struct sched s;
	char err[80] = "";
	CHECK_EQ(sched_init(&s, 8), 0);
	for (uint32_t c = 0; c < 8; c++)
		sched_set_clock(&s, c, 100 - c);
	CHECK_EQ(sched_check(&s, err, sizeof(err)), 0);
	uint16_t t = s.heap[0];
	s.heap[0] = s.heap[1];
	s.heap[1] = t;
	CHECK_EQ(sched_check(&s, err, sizeof(err)), -1);
	CHECK_EQ(strcmp(err, "sched: heap entry and pos[] disagree"), 0);
	s.pos[s.heap[0]] = 0;
	s.pos[s.heap[1]] = 1;
	CHECK_EQ(sched_check(&s, err, sizeof(err)), -1);
	CHECK_EQ(strcmp(err, "sched: heap order broken"), 0);
}

int main(void)
{
	test_checker();
	test_order_and_ties();
	test_256_random();
	test_drain_order();
	return harness_report("test_model_sched");
}
