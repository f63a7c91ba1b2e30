/*
 * events.c - the bounded event log.  The last free slot is kept for LOG_FULL, so a full log
 * always ends with that record and nothing is dropped silently.
 */
#include <string.h>
#include "mm/mm.h"
#include "machine/machine.h"

static const struct {
	const char *name;
	uint8_t cls;
} ev_table[BLAB_EV_MAX_CORE + 1] = {
#define BLAB_X(name, num, cls) [num] = {#name, BLAB_EVC_##cls},
	BLAB_EVENT_TYPES(BLAB_X)
#undef BLAB_X
};

const char *blab_event_name(unsigned type)
{
	return type <= BLAB_EV_MAX_CORE ? ev_table[type].name : NULL;
}

unsigned blab_event_class(unsigned type)
{
	return type <= BLAB_EV_MAX_CORE ? ev_table[type].cls : 0;
}

const char *blab_path_name(unsigned path)
{
	static const char *const names[BLAB_PATH_COUNT] = {
#define BLAB_X(name, num, desc) [num] = #name,
		BLAB_PATHS(BLAB_X)
#undef BLAB_X
	};
	return path < BLAB_PATH_COUNT ? names[path] : NULL;
}

unsigned _blab_event_class_bit(unsigned type)
{
	return blab_event_class(type);
}

void _blab_emit(struct blab_zone *z, unsigned type, uint64_t pfn, unsigned order, unsigned cpu,
		unsigned mt, unsigned path, unsigned flags, uint32_t arg0, uint32_t arg1)
{
	struct blab_event one;

	if (!z->sink && (z->log_full || !z->log_cap))
		return;
	one = blab_event_make(mach_now(z, cpu), pfn, type, order, cpu, mt, path, flags, arg0, arg1);
	if (z->sink) {
		z->sink(z->sink_ctx, &one);
		return;
	}
	if (z->log_len + 1 == z->log_cap) {
		/* the reserved last slot: say where recording stopped */
		one = blab_event_make(one.time, pfn, BLAB_EV_LOG_FULL, 0, cpu, 0, 0, 0, 0, 0);
		z->log_full = 1;
	}
	z->log[z->log_len++] = one;
}

const struct blab_event *blab_log(const struct blab_zone *z, uint32_t *count)
{
	if (!z) {
		if (count)
			*count = 0;
		return NULL;
	}
	if (count)
		*count = z->log_len;
	return z->log;
}

int blab_log_full(const struct blab_zone *z)
{
	return z ? z->log_full : 0;
}

void blab_log_clear(struct blab_zone *z)
{
	if (!z)
		return;
	z->log_len = 0;
	z->log_full = 0;
}

void blab_mark(struct blab_zone *z, unsigned cpu, uint32_t id, uint32_t value)
{
	if (!z)
		return;
	EMIT(z, BLAB_EVC_EXPLAIN, BLAB_EV_MARK, 0, 0, cpu, 0, 0, 0, id, value);
}

void blab_set_sink(struct blab_zone *z, blab_event_sink fn, void *ctx)
{
	if (!z)
		return;
	z->sink = fn;
	z->sink_ctx = fn ? ctx : NULL;
}
