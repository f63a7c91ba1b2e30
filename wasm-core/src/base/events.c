/*
 * events.c - the names of event types, their classes and the code paths, from the X-macro
 * tables of include/blab_events.h (the log itself is base/events.h).
 */
#include "blab.h"

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
