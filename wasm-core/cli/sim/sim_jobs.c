/* sim_jobs.c - independent runs on N threads (sim_jobs.h) */
#include "sim_jobs.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

struct pool {
	atomic_size_t next;
	size_t n;
	void (*run)(size_t i, void *ctx);
	void *ctx;
};

static void *worker(void *arg)
{
	struct pool *p = arg;
	for (;;) {
		size_t i = atomic_fetch_add(&p->next, 1);
		if (i >= p->n)
			return NULL;
		p->run(i, p->ctx);
	}
}

int sim_jobs_run(size_t n, unsigned jobs, void (*run)(size_t i, void *ctx), void *ctx)
{
	struct pool p = {.n = n, .run = run, .ctx = ctx};
	pthread_t tid[SIM_JOBS_MAX];
	unsigned started = 0;
	int rc = 0;

	atomic_init(&p.next, 0);
	if (jobs > SIM_JOBS_MAX)
		jobs = SIM_JOBS_MAX;
	if (jobs > n)
		jobs = (unsigned)n;
	/* this thread is one of the workers: jobs - 1 more */
	for (unsigned t = 1; t < jobs; t++) {
		if (pthread_create(&tid[started], NULL, worker, &p)) {
			rc = -1;
			break;
		}
		started++;
	}
	worker(&p);
	for (unsigned t = 0; t < started; t++)
		pthread_join(tid[t], NULL);
	return rc;
}
