/*
 * The scheduler of virtual CPUs: always the runnable CPU with the lowest clock, ties to the
 * lowest CPU number, kept in a binary min-heap on (clock, cpu): O(log N) per step.
 */
#include <stdio.h>
#include <string.h>

#include "model.h"

static inline int before(const struct sched *s, uint32_t a, uint32_t b)
{
	return s->clock[a] < s->clock[b] || (s->clock[a] == s->clock[b] && a < b);
}

static inline void place(struct sched *s, uint32_t i, uint16_t cpu)
{
	s->heap[i] = cpu;
	s->pos[cpu] = (uint16_t)i;
}

static void sift_up(struct sched *s, uint32_t i)
{
	uint16_t cpu = s->heap[i];
	while (i > 0) {
		uint32_t parent = (i - 1) / 2;
		if (!before(s, cpu, s->heap[parent]))
			break;
		place(s, i, s->heap[parent]);
		i = parent;
	}
	place(s, i, cpu);
}

static void sift_down(struct sched *s, uint32_t i)
{
	uint16_t cpu = s->heap[i];
	for (;;) {
		uint32_t l = 2 * i + 1, best = i;
		uint16_t bcpu = cpu;
		if (l < s->heap_len && before(s, s->heap[l], bcpu)) {
			best = l;
			bcpu = s->heap[l];
		}
		if (l + 1 < s->heap_len && before(s, s->heap[l + 1], bcpu)) {
			best = l + 1;
			bcpu = s->heap[l + 1];
		}
		if (best == i)
			break;
		place(s, i, bcpu);
		i = best;
	}
	place(s, i, cpu);
}

int sched_init(struct sched *s, uint32_t ncpus)
{
	memset(s, 0, sizeof(*s));
	if (ncpus == 0 || ncpus > MODEL_MAX_CPUS)
		return -1;
	s->ncpus = ncpus;
	s->heap_len = ncpus;
	for (uint32_t c = 0; c < ncpus; c++)
		place(s, c, (uint16_t)c); /* all clocks 0: CPU order is a valid heap */
	return 0;
}

void sched_set_clock(struct sched *s, uint32_t cpu, uint64_t clock)
{
	uint64_t old = s->clock[cpu];
	s->clock[cpu] = clock;
	if (s->state[cpu] != SCHED_RUNNABLE)
		return;
	if (clock > old)
		sift_down(s, s->pos[cpu]);
	else if (clock < old)
		sift_up(s, s->pos[cpu]);
}

static void remove_at(struct sched *s, uint32_t i)
{
	uint32_t last = --s->heap_len;
	if (i == last)
		return;
	uint16_t moved = s->heap[last];
	place(s, i, moved);
	sift_down(s, i);
	sift_up(s, s->pos[moved]);
}

void sched_park(struct sched *s, uint32_t cpu)
{
	if (s->state[cpu] != SCHED_RUNNABLE)
		return;
	remove_at(s, s->pos[cpu]);
	s->state[cpu] = SCHED_PARKED;
}

void sched_unpark(struct sched *s, uint32_t cpu, uint64_t clock)
{
	if (s->state[cpu] != SCHED_PARKED)
		return;
	s->clock[cpu] = clock;
	s->state[cpu] = SCHED_RUNNABLE;
	place(s, s->heap_len++, (uint16_t)cpu);
	sift_up(s, s->pos[cpu]);
}

void sched_finish(struct sched *s, uint32_t cpu)
{
	if (s->state[cpu] == SCHED_RUNNABLE)
		remove_at(s, s->pos[cpu]);
	s->state[cpu] = SCHED_FINISHED;
}

uint64_t sched_max_clock(const struct sched *s)
{
	uint64_t m = 0;
	for (uint32_t c = 0; c < s->ncpus; c++)
		if (s->clock[c] > m)
			m = s->clock[c];
	return m;
}

int sched_check(const struct sched *s, char *err, size_t errlen)
{
	const char *why = NULL;
	uint32_t runnable = 0;
	for (uint32_t c = 0; c < s->ncpus; c++)
		runnable += s->state[c] == SCHED_RUNNABLE;
	if (runnable != s->heap_len)
		why = "heap size differs from the runnable CPUs";
	for (uint32_t i = 0; i < s->heap_len && !why; i++) {
		uint16_t cpu = s->heap[i];
		if (cpu >= s->ncpus || s->state[cpu] != SCHED_RUNNABLE || s->pos[cpu] != i)
			why = "heap entry and pos[] disagree";
		else if (i > 0 && before(s, cpu, s->heap[(i - 1) / 2]))
			why = "heap order broken";
	}
	if (why) {
		if (err && errlen)
			snprintf(err, errlen, "sched: %s", why);
		return -1;
	}
	return 0;
}
