/*
 * events.h - the bounded event log: where a zone's records go (include/blab_events.h has the
 * record itself). The last free slot is kept for LOG_FULL, so a full log always ends with
 * that record and nothing is dropped silently. With a sink set, every record goes to it
 * instead and nothing is stored, so runs of any length fit.
 *
 * Records are stamped by whoever knows the clock (machine/machine.h, mach_emit); the log
 * only keeps them.
 */
#ifndef BLAB_BASE_EVENTS_H
#define BLAB_BASE_EVENTS_H

#include <stdint.h>
#include "blab.h"

struct blab_log {
	struct blab_event *ev; /* cap entries, or NULL */
	uint32_t len, cap;
	uint8_t mask;          /* OR of enum blab_event_class: the classes recorded */
	uint8_t full;          /* LOG_FULL was written: nothing more is kept */
	blab_event_sink sink;  /* when set, records go here instead of ev */
	void *sink_ctx;
};

/* Is a record of class cls kept somewhere? (Test this before building the record.) */
static inline int log_on(const struct blab_log *log, unsigned cls)
{
	return (log->mask & cls) && (log->sink || (!log->full && log->cap));
}

/* Can any record be kept at all? A log that cannot keep one never can again until cleared. */
static inline int log_quiet(const struct blab_log *log)
{
	return !log->mask || (!log->sink && (log->full || !log->cap));
}

static inline void log_push(struct blab_log *log, struct blab_event one)
{
	if (log->sink) {
		log->sink(log->sink_ctx, &one);
		return;
	}
	if (log->full || !log->cap)
		return;
	if (log->len + 1 == log->cap) {
		/* the reserved last slot: say where recording stopped */
		one = blab_event_make(one.time, one.pfn, BLAB_EV_LOG_FULL, 0, one.cpu, 0, 0, 0, 0, 0);
		log->full = 1;
	}
	log->ev[log->len++] = one;
}

#endif
