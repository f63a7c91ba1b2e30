/*
 * The lock model: queued spinlocks (qspinlock) served in arrival order.
 *
 * The scheduler lets a CPU ask for a lock only when its clock is the lowest of all CPUs, so
 * requests reach lock_acquire() in time order. A lock is then mostly described by the time
 * it is free again (`free_at`): a step that takes and drops the lock before it stops leaves
 * free_at in the future, and a later request (earlier in wall order, later in virtual time)
 * starts spinning at its own clock and gets the lock at free_at. Serving in call order is
 * FIFO by arrival, as the MCS queue in a qspinlock is.
 *
 * When a CPU stops while it holds a lock (its op takes a second lock, or the scheduler runs
 * someone else inside the critical section), a request cannot know free_at yet: the CPU is
 * queued and parked, and lock_release() hands the lock to the head of the queue.
 *
 * Costs: getting the lock costs one atomic (`atomic_cycles`), plus moving the lock's cache
 * line when the last holder was another core (`lock_handoff_cycles`, or
 * `lock_handoff_remote_cycles` across sockets). Everything between asking and holding is
 * wait_cycles; the part spent behind other holders (and the handoff after them) is
 * spin_cycles, which contention % is made of (perf shows it as
 * native_queued_spin_lock_slowpath).
 */
#include <stdio.h>
#include <string.h>

#include "model.h"

int lock_init(struct lock_model *lm, const struct model_params *p, uint32_t nlocks,
	      uint32_t ncpus)
{
	memset(lm, 0, sizeof(*lm));
	if (!p || nlocks == 0 || nlocks > MODEL_MAX_LOCKS || ncpus == 0 ||
	    ncpus > MODEL_MAX_CPUS)
		return -1;
	lm->p = p;
	lm->nlocks = nlocks;
	lm->ncpus = ncpus;
	for (uint32_t i = 0; i < nlocks; i++) {
		lm->lock[i].holder = MODEL_NO_CPU;
		lm->lock[i].last_holder = MODEL_NO_CPU;
	}
	for (uint32_t c = 0; c < ncpus; c++) {
		lm->pcp[c].holder = MODEL_NO_CPU;
		lm->pcp[c].last_holder = (uint16_t)c; /* the line starts in its owner's cache */
	}
	return 0;
}

static uint64_t transfer(const struct lock_model *lm, uint32_t from, uint32_t to)
{
	const struct model_params *p = lm->p;
	if (from == MODEL_NO_CPU || model_cpu_core(p, from) == model_cpu_core(p, to))
		return 0;
	return model_cpu_socket(p, from) == model_cpu_socket(p, to) ? p->lock_handoff_cycles
								    : p->lock_handoff_remote_cycles;
}

/* CPU cpu, which asked at `asked`, gets lock l no earlier than `free`. */
static uint64_t grant(struct lock_model *lm, struct model_lock *l, uint32_t id, uint32_t cpu,
		      uint64_t asked, uint64_t free)
{
	int contended = free > asked;
	uint64_t start = contended ? free : asked;
	uint64_t handoff = transfer(lm, l->last_holder, cpu);
	uint64_t held = start + handoff + lm->p->atomic_cycles;
	uint64_t spin = contended ? free - asked + handoff : 0;
	struct lock_counters *c[2] = { &l->c, &lm->cpu[cpu][id] };

	for (int i = 0; i < 2; i++) {
		c[i]->acquisitions++;
		c[i]->contended += (uint64_t)contended;
		c[i]->wait_cycles += held - asked;
		c[i]->spin_cycles += spin;
	}
	l->holder = (uint16_t)cpu;
	l->last_holder = (uint16_t)cpu;
	l->held_since = held;
	return held;
}

int lock_acquire(struct lock_model *lm, uint32_t id, uint32_t cpu, uint64_t now,
		 uint64_t *held_at)
{
	struct model_lock *l = &lm->lock[id];

	if (l->holder != MODEL_NO_CPU) {
		/* held across a scheduler step: queue behind the holder and earlier waiters */
		uint16_t tail = (uint16_t)((l->qhead + l->qlen) % MODEL_MAX_CPUS);
		l->queue[tail] = (uint16_t)cpu;
		l->arrived[cpu] = now;
		l->qlen++;
		return 0;
	}
	*held_at = grant(lm, l, id, cpu, now, l->free_at);
	return 1;
}

int lock_try(struct lock_model *lm, uint32_t id, uint32_t cpu, uint64_t now, uint64_t *held_at)
{
	struct model_lock *l = &lm->lock[id];

	if (l->holder != MODEL_NO_CPU || l->free_at > now)
		return 0;
	*held_at = grant(lm, l, id, cpu, now, now);
	return 1;
}

int lock_pcp_try(struct lock_model *lm, uint32_t owner, uint32_t cpu, uint64_t now,
		 uint64_t *held_at)
{
	struct model_pcp_lock *l = &lm->pcp[owner];

	if (l->holder != MODEL_NO_CPU || l->free_at > now) {
		l->trylock_failed++;
		return 0;
	}
	*held_at = lock_pcp_take(lm, owner, cpu, now);
	return 1;
}

uint64_t lock_pcp_take(struct lock_model *lm, uint32_t owner, uint32_t cpu, uint64_t now)
{
	struct model_pcp_lock *l = &lm->pcp[owner];
	uint64_t start = l->free_at > now ? l->free_at : now;
	uint64_t handoff = 0;

	if (l->last_holder != MODEL_NO_CPU &&
	    model_cpu_core(lm->p, l->last_holder) != model_cpu_core(lm->p, cpu))
		handoff = model_cpu_socket(lm->p, l->last_holder) == model_cpu_socket(lm->p, cpu)
				  ? lm->p->lock_handoff_cycles
				  : lm->p->lock_handoff_remote_cycles;
	l->spin_cycles += start - now;
	l->acquisitions++;
	l->holder = (uint16_t)cpu;
	l->last_holder = (uint16_t)cpu;
	l->held_since = start + handoff + lm->p->atomic_cycles;
	return l->held_since;
}

void lock_pcp_release(struct lock_model *lm, uint32_t owner, uint32_t cpu, uint64_t now)
{
	struct model_pcp_lock *l = &lm->pcp[owner];

	(void)cpu;
	l->holder = MODEL_NO_CPU;
	l->free_at = now;
}

uint32_t lock_release(struct lock_model *lm, uint32_t id, uint32_t cpu, uint64_t now,
		      uint64_t *next_at)
{
	struct model_lock *l = &lm->lock[id];
	uint64_t hold = now > l->held_since ? now - l->held_since : 0;

	l->c.hold_cycles += hold;
	lm->cpu[cpu][id].hold_cycles += hold;
	l->holder = MODEL_NO_CPU;
	l->free_at = now;
	if (l->qlen == 0)
		return MODEL_NO_CPU;
	uint32_t next = l->queue[l->qhead];
	l->qhead = (uint16_t)((l->qhead + 1) % MODEL_MAX_CPUS);
	l->qlen--;
	*next_at = grant(lm, l, id, next, l->arrived[next], now);
	return next;
}

uint32_t lock_contention_bp(const struct lock_model *lm, uint32_t id, uint64_t total_cycles)
{
	return lock_spin_bp(lm->lock[id].c.spin_cycles, total_cycles);
}

uint32_t lock_spin_bp(uint64_t spin, uint64_t total_cycles)
{
	if (total_cycles == 0)
		return 0;
	/* spin * 10000 / total without overflow for any realistic run */
	if (spin > UINT64_MAX / 10000)
		return (uint32_t)(spin / (total_cycles / 10000 ? total_cycles / 10000 : 1));
	return (uint32_t)(spin * 10000 / total_cycles);
}

int lock_check(const struct lock_model *lm, char *err, size_t errlen)
{
	for (uint32_t i = 0; i < lm->nlocks; i++) {
		const struct model_lock *l = &lm->lock[i];
		const char *why = NULL;
		uint64_t acq = 0, hold = 0;
		for (uint32_t c = 0; c < lm->ncpus; c++) {
			acq += lm->cpu[c][i].acquisitions;
			hold += lm->cpu[c][i].hold_cycles;
		}
		if (l->holder != MODEL_NO_CPU && l->holder >= lm->ncpus)
			why = "holder is not a CPU";
		else if (l->qlen && l->holder == MODEL_NO_CPU)
			why = "CPUs queued on a free lock";
		else if (l->qlen > lm->ncpus)
			why = "queue longer than the CPUs";
		else if (acq != l->c.acquisitions || hold != l->c.hold_cycles)
			why = "per-CPU counters do not add up to the lock's";
		else if (l->c.contended > l->c.acquisitions || l->c.spin_cycles > l->c.wait_cycles)
			why = "contended or spin exceed their totals";
		for (uint32_t q = 0; q < l->qlen && !why; q++) {
			uint16_t cpu = l->queue[(l->qhead + q) % MODEL_MAX_CPUS];
			if (cpu >= lm->ncpus || cpu == l->holder)
				why = "queue holds a bad CPU";
		}
		if (why) {
			if (err && errlen)
				snprintf(err, errlen, "lock %u: %s", i, why);
			return -1;
		}
	}
	for (uint32_t c = 0; c < lm->ncpus; c++)
		if (lm->pcp[c].holder != MODEL_NO_CPU && lm->pcp[c].holder >= lm->ncpus) {
			if (err && errlen)
				snprintf(err, errlen, "pcp->lock of cpu %u: holder is not a CPU", c);
			return -1;
		}
	return 0;
}
