/*
 * events.c - the bounded event log.  The last free slot is kept for LOG_FULL, so a full log
 * always ends with that record and nothing is dropped silently.
 */
#include <string.h>
#include "internal.h"
#include "machine.h"

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
	struct blab_event *e, one;

	if (z->sink) {
		memset(&one, 0, sizeof(one));
		one.time = mach_now(z, cpu);
		one.pfn = pfn;
		one.type = (uint8_t)type;
		one.order = (uint8_t)order;
		one.cpu = (uint16_t)cpu;
		one.mt = (uint8_t)mt;
		one.path = (uint8_t)path;
		one.flags = (uint16_t)flags;
		one.arg0 = arg0;
		one.arg1 = arg1;
		z->sink(z->sink_ctx, &one);
		return;
	}
	if (z->log_full || !z->log_cap)
		return;
	e = &z->log[z->log_len++];
	memset(e, 0, sizeof(*e));
	e->time = mach_now(z, cpu);
	if (z->log_len == z->log_cap) {
		/* the reserved last slot: say where recording stopped */
		e->type = BLAB_EV_LOG_FULL;
		e->cpu = (uint16_t)cpu;
		e->pfn = pfn;
		z->log_full = 1;
		return;
	}
	e->pfn = pfn;
	e->type = (uint8_t)type;
	e->order = (uint8_t)order;
	e->cpu = (uint16_t)cpu;
	e->mt = (uint8_t)mt;
	e->path = (uint8_t)path;
	e->flags = (uint16_t)flags;
	e->arg0 = arg0;
	e->arg1 = arg1;
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
