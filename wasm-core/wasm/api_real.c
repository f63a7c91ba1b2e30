/*
 * api_real.c - the real machine for JavaScript: one run of page_fault1 on Emscripten
 * pthreads (Web Workers over the module's SharedArrayBuffer), at most one per module.
 *
 * Nothing here blocks: a Web Worker must return to its event loop before the pthreads it
 * asked for can start, so the caller starts the run, polls blab_js_real_sample() from a
 * timer, asks it to stop, waits (polling) until every thread has finished, then calls
 * blab_js_real_finish(), which joins and checks the zone.
 */
#include <stdio.h>
#include <string.h>

#include "blab.h"
#include "blab_real.h"

static struct blab_run *js_run;
static unsigned js_threads;
static char js_err[200];

/* the doubles per thread that blab_js_real_sample() writes */
#define JS_REAL_FIELDS 9

unsigned blab_js_real_fields(void)
{
	return JS_REAL_FIELDS;
}

unsigned blab_js_real_max_threads(void)
{
	return BLAB_RUN_MAX_THREADS;
}

int blab_js_real_has_prefetch(void)
{
	return blab_run_has_prefetch();
}

const char *blab_js_real_error(void)
{
	return js_err;
}

/* 0, or a negative BLAB_E* code with the reason in blab_js_real_error() */
int blab_js_real_start(const char *preset, unsigned threads, unsigned pages)
{
	struct blab_run_config c;
	int ret;

	js_err[0] = 0;
	if (js_run) {
		snprintf(js_err, sizeof(js_err), "a run is already going: stop and finish it first");
		return BLAB_EBUSY;
	}
	blab_run_config_init(&c);
	if (!preset || blab_preset(preset, &c.strategy)) {
		snprintf(js_err, sizeof(js_err), "unknown preset '%.40s'", preset ? preset : "");
		return BLAB_EPRESET;
	}
	c.threads = threads;
	c.pages = pages;
	c.pin = 0; /* WebAssembly has no affinity */
	ret = blab_run_start(&c, &js_run, js_err, sizeof(js_err));
	if (ret)
		js_run = NULL;
	else
		js_threads = threads;
	return ret;
}

unsigned blab_js_real_started(void)
{
	return blab_run_started(js_run);
}

unsigned blab_js_real_finished(void)
{
	return blab_run_finished(js_run);
}

/*
 * ns since the threads went (0: not all started yet); out receives JS_REAL_FIELDS doubles
 * per thread: pages, then for zone->lock and lru_lock: acquisitions, contended, spin ns,
 * hold ns. Returns -1 when there is no run or out is too small.
 */
double blab_js_real_sample(double *out, unsigned cap)
{
	struct blab_run_thread t[BLAB_RUN_MAX_THREADS];
	uint64_t ns;

	if (!js_run || !out || cap < js_threads * JS_REAL_FIELDS)
		return -1;
	ns = blab_run_sample(js_run, t, js_threads);
	for (unsigned i = 0; i < js_threads; i++) {
		double *o = out + i * JS_REAL_FIELDS;
		o[0] = (double)t[i].pages;
		for (unsigned l = 0; l < 2; l++) {
			o[1 + 4 * l] = (double)t[i].lock[l].acquisitions;
			o[2 + 4 * l] = (double)t[i].lock[l].contended;
			o[3 + 4 * l] = (double)t[i].lock[l].spin_ns;
			o[4 + 4 * l] = (double)t[i].lock[l].hold_ns;
		}
	}
	return (double)ns;
}

uint32_t blab_js_real_batch(void)
{
	return blab_run_batch(js_run);
}

uint32_t blab_js_real_high(void)
{
	return blab_run_high(js_run);
}

void blab_js_real_stop(void)
{
	blab_run_stop(js_run);
}

/* Joins the threads (call once blab_js_real_finished() == threads), checks the zone and
 * frees the run: 0, or a negative code with the reason in blab_js_real_error(). */
int blab_js_real_finish(void)
{
	int ret;

	js_err[0] = 0;
	if (!js_run) {
		snprintf(js_err, sizeof(js_err), "no run to finish");
		return BLAB_EINVAL;
	}
	blab_run_stop(js_run);
	ret = blab_run_finish(js_run, js_err, sizeof(js_err));
	blab_run_free(js_run);
	js_run = NULL;
	js_threads = 0;
	return ret;
}
