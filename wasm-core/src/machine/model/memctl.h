/*
 * memctl.h - a socket's memory controller: the DRAM bandwidth every line fill from memory and
 * every write-back shares, and the wait a read meets as the controller fills.
 *
 * The controller carries `cap` bytes an epoch of MEMCTL_EPOCH cycles: channels x transfer
 * rate x 8 bytes at the sustained fraction of that peak (docs/model.md, "Memory bandwidth").
 * Traffic is booked in the epoch its CPU's clock is in. The model runs a CPU's whole step at
 * once, so requests come in the order the scheduler runs steps, not in time order; a calendar
 * of epochs (a ring of MEMCTL_EPOCHS) takes them in any order within its span, where one
 * queue served first come first served would make a CPU whose clock is behind wait for
 * traffic that lies in its future.
 *
 * Reads go first, as a DRAM controller schedules them: writes wait in its write queue and
 * are drained around the reads. A read is booked in its epoch whatever the epoch holds (when
 * the epoch is full, the last of the writes in it moves on to the next), and
 * waits as in a queue with non-preemptive priority (Cobham's formula for M/D/1: the residual
 * burst of whatever is on the channel, u x burst / 2, over 1 - the reads' own load). Writes
 * (clear_page()'s write-backs and reads for ownership, which stand behind the stores of the
 * clearing core) take what room the epoch has left and go on into the next epochs; they are
 * carried when the last of their bytes is. Integer arithmetic on fixed-width types only.
 */
#ifndef BLAB_MEMCTL_H
#define BLAB_MEMCTL_H

#include "model.h"

#define MEMCTL_EPOCH (1u << MEMCTL_EPOCH_SHIFT)

/* The calendar reaches epoch e: the epochs after the newest so far are emptied as it moves. */
static inline void memctl_advance(struct mem_ctl *mc, uint64_t e)
{
	uint64_t from = mc->head + 1u;
	if (e - mc->head >= MEMCTL_EPOCHS)
		from = e - MEMCTL_EPOCHS + 1u;
	for (uint64_t k = from; k <= e; k++) {
		mc->used[k % MEMCTL_EPOCHS] = 0;
		mc->reads[k % MEMCTL_EPOCHS] = 0;
	}
	mc->head = e;
}

/* The epoch of cycle t in the calendar (moving it on when t is past its newest epoch; a cycle
 * older than its span is booked in its oldest epoch). */
static inline uint64_t memctl_epoch(struct mem_ctl *mc, uint64_t t)
{
	uint64_t e = t >> MEMCTL_EPOCH_SHIFT;
	if (e > mc->head)
		memctl_advance(mc, e);
	else if (mc->head - e >= MEMCTL_EPOCHS)
		e = mc->head - MEMCTL_EPOCHS + 1u;
	return e;
}

/*
 * Book `bytes` of writes at cycle t: the room t's epoch has left, then the next epochs'.
 * Returns t when they fit t's epoch, else the cycle at which the epoch that took the last of
 * them has carried them (its start plus its booked share of MEMCTL_EPOCH).
 */
static inline uint64_t memctl_book(struct mem_ctl *mc, uint64_t t, uint32_t bytes)
{
	uint64_t e = memctl_epoch(mc, t);
	uint32_t *u = &mc->used[e % MEMCTL_EPOCHS];
	if (*u <= mc->cap && bytes <= mc->cap - *u) {
		*u += bytes;
		if (t > mc->c.end)
			mc->c.end = t;
		return t;
	}
	mc->c.spilled++;
	for (;;) {
		uint32_t room = *u < mc->cap ? mc->cap - *u : 0;
		if (bytes <= room) {
			*u += bytes;
			break;
		}
		if (room)
			*u = mc->cap;
		bytes -= room;
		if (++e > mc->head)
			memctl_advance(mc, e);
		u = &mc->used[e % MEMCTL_EPOCHS];
	}
	uint64_t done = (e << MEMCTL_EPOCH_SHIFT) +
			(((uint64_t)*u << MEMCTL_EPOCH_SHIFT) / mc->cap);
	done = done > t ? done : t;
	if (done > mc->c.end)
		mc->c.end = done;
	return done;
}

/*
 * A line filled from DRAM at cycle t (a demand miss or a prefetch): the cycles it waits
 * beyond the idle latency, mem_cycles. Reads go first: the wait is the rest of the burst on
 * the channel (u, the epoch's load with everything booked, at most 1) over what the reads
 * before it leave free (1 - r, r their share, below 1): Cobham's u x S / 2 / (1 - r), S one
 * line's burst on one channel. 0 with no limit (cap 0).
 */
static inline uint32_t memctl_read(struct mem_ctl *mc, uint64_t t)
{
	uint64_t wait;

	if (!mc->cap)
		return 0;
	mc->c.read_lines++;
	uint64_t e = memctl_epoch(mc, t);
	uint32_t i = (uint32_t)(e % MEMCTL_EPOCHS);
	if (mc->reads[i] > mc->cap - 64u || mc->cap < 64u) {
		/* the reads alone fill the epoch (a cap of 2 GB an epoch is never reached): the
		 * read waits for room as writes do */
		wait = memctl_book(mc, t, 64u) - t;
	} else {
		/* u x S / 2 / (1 - r) in cycles: used / cap x svc16 / 16 / 2 / ((cap - reads) / cap);
		 * used may pass cap (reads booked over writes), u does not pass 1 */
		uint64_t used = mc->used[i] < mc->cap ? mc->used[i] : mc->cap;
		wait = used * mc->svc16 / (32u * (uint64_t)(mc->cap - mc->reads[i]));
		mc->reads[i] += 64u;
		if (mc->used[i] + 64u <= mc->cap) {
			mc->used[i] += 64u;
		} else { /* it goes before the writes booked here: the last 64 bytes move on */
			uint64_t spilled = mc->c.spilled; /* a write moved on, not a request that waited */
			mc->used[i] = mc->cap;
			(void)memctl_book(mc, (e + 1u) << MEMCTL_EPOCH_SHIFT, 64u);
			mc->c.spilled = spilled;
		}
	}
	mc->c.queue_cycles += wait;
	return wait > 0xffffffffu ? 0xffffffffu : (uint32_t)wait;
}

/*
 * `lines` dirty lines of clear_page()'s stream pushed out of the LLC at cycle t: each is
 * written back, and (clear_page_rfo) when its frame is cleared again it is read for
 * ownership first, the store path the model has for every store (docs/model.md). Returns
 * when the controller has carried them (t when they fit t's epoch). Nothing with no limit.
 */
static inline uint64_t memctl_writeback(struct mem_ctl *mc, uint64_t t, uint64_t lines)
{
	if (!mc->cap || !lines)
		return t;
	mc->c.wb_lines += lines;
	mc->c.rfo_lines += mc->rfo ? lines : 0u;
	uint64_t bytes = lines * (mc->rfo ? 128u : 64u);
	return memctl_book(mc, t, bytes > 0x7fffffffu ? 0x7fffffffu : (uint32_t)bytes);
}

/* The controller of each socket for these parameters, empty (memctl.c). */
void memctl_init(struct mem_ctl *mc, const struct model_params *p);

#endif
