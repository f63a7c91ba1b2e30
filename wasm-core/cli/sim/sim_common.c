/* sim_common.c - argument checks and the --hash/--events sink of `blab sim` (sim_common.h) */
#include "sim_common.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "blab.h"

#define FNV1A_OFFSET 0xcbf29ce484222325ull
#define FNV1A_PRIME 0x100000001b3ull

int sim_usage_error(const char *help, const char *fmt, const char *arg)
{
	char msg[1024], shown[6 * sizeof(msg)];
	snprintf(msg, sizeof(msg), fmt, arg);
	blab_text_escape(shown, sizeof(shown), msg); /* it echoes arguments: nothing hidden */
	fprintf(stderr, "blab sim: %s\n(%s for the options)\n", shown, help);
	return 2;
}

static void sim_sink_event(void *ctx, const struct blab_event *e)
{
	struct sim_sink *s = ctx;
	const unsigned char *b = (const unsigned char *)e;
	for (size_t i = 0; i < sizeof(*e); i++) {
		s->hash ^= b[i];
		s->hash *= FNV1A_PRIME;
	}
	if (s->f) {
		if (s->written < BLAB_MAX_LOG_EVENTS) {
			fwrite(e, sizeof(*e), 1, s->f);
			s->written++;
		} else {
			s->dropped++;
		}
	}
}

void sim_sink_attach(struct blab_sim_config *cfg, struct sim_sink *s, FILE *f)
{
	s->hash = FNV1A_OFFSET;
	s->f = f;
	s->written = 0;
	s->dropped = 0;
	cfg->log_mask = BLAB_EVC_ALL;
	cfg->sink = sim_sink_event;
	cfg->sink_ctx = s;
}

void sim_sink_report(const struct sim_sink *s)
{
	if (s->dropped)
		fprintf(stderr,
			"blab sim: --events: kept the first %llu records, %llu more not written\n",
			(unsigned long long)s->written, (unsigned long long)s->dropped);
}

FILE *sim_events_open(const char *path)
{
	FILE *f = fopen(path, "wb");
	if (!f)
		fprintf(stderr, "blab sim: cannot write %s: %s\n", path, strerror(errno));
	return f;
}

int sim_events_close(FILE *f, const char *path)
{
	int bad = ferror(f), e = 0; /* an earlier fwrite() that failed leaves only this flag */

	errno = 0;
	if (fclose(f))
		e = errno;
	if (!bad && !e)
		return 0;
	fprintf(stderr, "blab sim: cannot write %s: %s\n", path, e ? strerror(e) : "a write failed");
	return -1;
}
