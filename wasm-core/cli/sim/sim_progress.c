/* sim_progress.c - the progress line of sim_progress.h */
#include <stdio.h>
#include <unistd.h>

#include "sim_progress.h"

#define REDRAW_NS 250000000ll /* four lines a second at most */

static long long ns_between(const struct timespec *a, const struct timespec *b)
{
	return (long long)(b->tv_sec - a->tv_sec) * 1000000000ll + (b->tv_nsec - a->tv_nsec);
}

static void show(void *ctx, uint64_t done, uint64_t total)
{
	struct sim_progress *p = ctx;
	struct timespec now;
	double s;

	clock_gettime(CLOCK_MONOTONIC, &now);
	if (p->shown && ns_between(&p->last, &now) < REDRAW_NS)
		return;
	p->last = now;
	s = (double)ns_between(&p->start, &now) / 1e9;
	if (total && done <= total && done) {
		double left = s * (double)(total - done) / (double)done;
		fprintf(stderr, "\r\033[Kblab sim: %s, %u tasks: %llu of %llu pages (%.0f%%), %.0f s, "
			"~%.0f s to go", p->preset, p->cpus, (unsigned long long)done,
			(unsigned long long)total, 100.0 * (double)done / (double)total, s, left);
	} else {
		fprintf(stderr, "\r\033[Kblab sim: %s, %u tasks: %.0f s", p->preset, p->cpus, s);
	}
	fflush(stderr);
	p->shown = 1;
}

void sim_progress_attach(struct blab_sim_config *cfg, struct sim_progress *p,
			 const char *preset, unsigned cpus)
{
	p->preset = preset;
	p->cpus = cpus;
	p->shown = 0;
	clock_gettime(CLOCK_MONOTONIC, &p->start);
	p->last = p->start;
#ifdef __EMSCRIPTEN__
	/* Emscripten's NODERAWFS marks fds 0-2 as terminals whatever Node's really are, so
	 * isatty() says yes into a pipe too: the WASM twin never draws the line */
	return;
#endif
	if (!isatty(STDERR_FILENO))
		return;
	cfg->progress = show;
	cfg->progress_ctx = p;
}

void sim_progress_done(struct sim_progress *p)
{
	if (!p->shown)
		return;
	fprintf(stderr, "\r\033[K");
	fflush(stderr);
	p->shown = 0;
}
