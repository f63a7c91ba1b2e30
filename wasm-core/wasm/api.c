/*
 * api.c - the entry points JavaScript calls (the engine worker, and Vitest in Node).
 *
 * JavaScript cannot hand the core a FILE, and should not parse text the core already
 * parses, so an op script is run here as a whole and its results are kept in one
 * struct blab_js_run: what `blab replay` would have printed on stdout and stderr, the exit
 * status it would have returned, and a copy of the zone's event log. The caller reads the
 * pieces through the accessors below and frees the run.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blab.h"

struct blab_js_run {
	int32_t status;   /* 0: every line ran; 1: a line failed ("line N: why" in err) */
	uint32_t nevents;
	char *out, *err;  /* NUL-terminated, from open_memstream */
	size_t out_len, err_len;
	struct blab_event *events;
};

/* Op scripts from the browser are bounded like files given to the CLI (docs/limits.md). */
#define BLAB_JS_MAX_SCRIPT (1u << 20)

static int run_lines(struct blab_script *s, const char *text, uint32_t len)
{
	unsigned lineno = 0;
	uint32_t pos = 0;

	while (pos < len) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		uint32_t end = nl ? (uint32_t)(nl - text) : len;

		if (blab_script_bytes(s, text + pos, end - pos, ++lineno))
			return 1;
		pos = end + 1;
	}
	return 0;
}

struct blab_js_run *blab_js_replay(const char *text, uint32_t len)
{
	struct blab_js_run *r = calloc(1, sizeof(*r));
	FILE *out, *err;
	struct blab_script *s;

	if (!r)
		return NULL;
	out = open_memstream(&r->out, &r->out_len);
	err = open_memstream(&r->err, &r->err_len);
	s = (out && err) ? blab_script_new(out, err) : NULL;
	if (!s) {
		r->status = 2;
		goto done;
	}
	if (!text && len) {
		fprintf(err, "blab: no script text\n");
		r->status = 2;
	} else if (len > BLAB_JS_MAX_SCRIPT) {
		fprintf(err, "blab: the script is %u bytes; the limit is %u\n", len, BLAB_JS_MAX_SCRIPT);
		r->status = 2;
	} else {
		r->status = run_lines(s, text, len);
	}
	if (blab_script_zone(s)) {
		uint32_t count = 0;
		const struct blab_event *log = blab_log(blab_script_zone(s), &count);

		r->events = count ? malloc((size_t)count * sizeof(*log)) : NULL;
		if (r->events) {
			memcpy(r->events, log, (size_t)count * sizeof(*log));
			r->nevents = count;
		}
	}
	blab_script_free(s);
done:
	if (out)
		fclose(out); /* the buffers stay, owned by r */
	if (err)
		fclose(err);
	return r;
}

int32_t blab_js_status(const struct blab_js_run *r) { return r ? r->status : 2; }
const char *blab_js_out(const struct blab_js_run *r) { return r && r->out ? r->out : ""; }
const char *blab_js_err(const struct blab_js_run *r) { return r && r->err ? r->err : ""; }
const struct blab_event *blab_js_events(const struct blab_js_run *r) { return r ? r->events : NULL; }
uint32_t blab_js_event_count(const struct blab_js_run *r) { return r ? r->nevents : 0; }

void blab_js_run_free(struct blab_js_run *r)
{
	if (!r)
		return;
	free(r->out);
	free(r->err);
	free(r->events);
	free(r);
}

/* The record size JavaScript must decode with; a test compares it with docs/events.md. */
uint32_t blab_js_event_size(void) { return (uint32_t)sizeof(struct blab_event); }
