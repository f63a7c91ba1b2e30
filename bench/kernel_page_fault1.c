/*
 * kernel_page_fault1 — the real kernel's fault rate, as the reference the model is
 * calibrated against.
 *
 * Each task runs will-it-scale's page_fault1 loop: map 128 MB of private anonymous
 * memory, write one byte in every page (each write is a page fault that allocates and
 * zeroes an order-0 page), unmap (every page goes back through the pcp lists). Tasks are
 * processes pinned one per CPU, started together. The parent samples every task's page
 * counter once per interval, skips the warm-up samples, and prints the average rate.
 *
 * Output (one CSV line per task count, after a header):
 *   tasks,score,per_task,linear
 * score = faulted pages per second summed over tasks; linear = tasks x the 1-task score.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_TASKS 256
#define LINE 128 /* one counter per cache line, so tasks do not false-share */

struct opts {
	int min_tasks, max_tasks;
	int samples, warmup;
	double interval;
	size_t map_bytes;
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: kernel_page_fault1 [--tasks N|A..B] [--samples S] [--warmup W]\n"
		"                          [--interval SECONDS] [--mb MB]\n"
		"  Runs will-it-scale's page_fault1 loop on the real kernel: each task maps MB of\n"
		"  anonymous memory (default 128), writes one byte per page, unmaps, repeats.\n"
		"  Defaults: --tasks 1..nproc --samples 5 --warmup 2 --interval 1 --mb 128\n");
}

static int parse_int(const char *s, int lo, int hi, int *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < lo || v > hi)
		return -1;
	*out = (int)v;
	return 0;
}

static int parse_args(int argc, char **argv, struct opts *o)
{
	int ncpu = (int)sysconf(_SC_NPROCESSORS_ONLN);

	o->min_tasks = 1;
	o->max_tasks = ncpu < 1 ? 1 : (ncpu > MAX_TASKS ? MAX_TASKS : ncpu);
	o->samples = 5;
	o->warmup = 2;
	o->interval = 1.0;
	o->map_bytes = (size_t)128 << 20;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		int mb;

		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			usage(stdout);
			exit(0);
		}
		if (!v) {
			fprintf(stderr, "kernel_page_fault1: %s needs a value\n", a);
			return -1;
		}
		i++;
		if (!strcmp(a, "--tasks")) {
			const char *dots = strstr(v, "..");
			if (dots) {
				char lo[16];
				size_t n = (size_t)(dots - v);
				if (n == 0 || n >= sizeof(lo))
					goto bad;
				memcpy(lo, v, n);
				lo[n] = 0;
				if (parse_int(lo, 1, MAX_TASKS, &o->min_tasks) ||
				    parse_int(dots + 2, 1, MAX_TASKS, &o->max_tasks) ||
				    o->min_tasks > o->max_tasks)
					goto bad;
			} else {
				if (parse_int(v, 1, MAX_TASKS, &o->min_tasks))
					goto bad;
				o->max_tasks = o->min_tasks;
			}
		} else if (!strcmp(a, "--samples")) {
			if (parse_int(v, 1, 600, &o->samples))
				goto bad;
		} else if (!strcmp(a, "--warmup")) {
			if (parse_int(v, 0, 600, &o->warmup))
				goto bad;
		} else if (!strcmp(a, "--interval")) {
			char *end;
			o->interval = strtod(v, &end);
			if (end == v || *end || !(o->interval >= 0.05 && o->interval <= 60))
				goto bad;
		} else if (!strcmp(a, "--mb")) {
			if (parse_int(v, 1, 4096, &mb))
				goto bad;
			o->map_bytes = (size_t)mb << 20;
		} else {
			fprintf(stderr, "kernel_page_fault1: unknown option %s\n", a);
			usage(stderr);
			return -1;
		}
		continue;
bad:
		fprintf(stderr, "kernel_page_fault1: bad value '%s' for %s\n", v, a);
		return -1;
	}
	return 0;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void sleep_s(double s)
{
	struct timespec ts = { (time_t)s, (long)((s - (double)(time_t)s) * 1e9) };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* CPU seconds (user + sys) a process has run so far, from /proc/PID/stat; -1 if unknown. */
static double task_cpu_s(pid_t pid)
{
	char path[64], buf[1024];
	unsigned long long ut, st;
	FILE *f;
	size_t n;
	char *p;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	p = strrchr(buf, ')'); /* the command name may hold spaces; fields 3.. follow it */
	if (!p || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &ut,
			 &st) != 2)
		return -1;
	return (double)(ut + st) / (double)sysconf(_SC_CLK_TCK);
}

/* The child: fault pages forever, publishing a running count. */
static void fault_loop(volatile uint64_t *counter, size_t map_bytes)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);

	for (;;) {
		char *m = mmap(NULL, map_bytes, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (m == MAP_FAILED)
			_exit(2);
		for (size_t off = 0; off < map_bytes; off += page) {
			m[off] = 0;
			(*counter)++;
		}
		munmap(m, map_bytes);
	}
}

static int run_tasks(const struct opts *o, int tasks, double *score, double *per_cpu)
{
	int ncpu = (int)sysconf(_SC_NPROCESSORS_ONLN);
	char *shared = mmap(NULL, (size_t)tasks * LINE, PROT_READ | PROT_WRITE,
			    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	pid_t pids[MAX_TASKS];
	uint64_t prev[MAX_TASKS], first[MAX_TASKS];
	double cpu0[MAX_TASKS];
	int go[2];
	double total = 0;

	if (shared == MAP_FAILED || pipe(go))
		return -1;
	memset(shared, 0, (size_t)tasks * LINE);

	for (int t = 0; t < tasks; t++) {
		pid_t pid = fork();
		if (pid < 0)
			return -1;
		if (pid == 0) {
			cpu_set_t set;
			char c;

			CPU_ZERO(&set);
			CPU_SET(t % (ncpu > 0 ? ncpu : 1), &set);
			sched_setaffinity(0, sizeof(set), &set); /* best effort */
			close(go[1]);
			if (read(go[0], &c, 1) < 0)
				_exit(3);
			fault_loop((volatile uint64_t *)(shared + (size_t)t * LINE), o->map_bytes);
		}
		pids[t] = pid;
	}
	close(go[0]);
	close(go[1]); /* EOF releases every child at once */

	for (int t = 0; t < tasks; t++)
		prev[t] = 0;
	for (int s = 0; s < o->warmup + o->samples; s++) {
		double t0 = now_s(), dt;
		uint64_t sum = 0;

		sleep_s(o->interval);
		dt = now_s() - t0;
		for (int t = 0; t < tasks; t++) {
			uint64_t v = *(volatile uint64_t *)(shared + (size_t)t * LINE);
			sum += v - prev[t];
			prev[t] = v;
		}
		fprintf(stderr, "tasks=%d %s sample %d: %.0f pages/s\n", tasks,
			s < o->warmup ? "warmup" : "measure", s, (double)sum / dt);
		if (s >= o->warmup)
			total += (double)sum / dt;
		if (s == o->warmup - 1 || (o->warmup == 0 && s == -1))
			for (int t = 0; t < tasks; t++) {
				first[t] = prev[t];
				cpu0[t] = task_cpu_s(pids[t]);
			}
	}
	/* pages per CPU second of each task, summed: what the tasks would do with a CPU each,
	 * whoever else shares the machine (the wall-clock score drops with the load) */
	*per_cpu = 0;
	for (int t = 0; t < tasks; t++) {
		double c = task_cpu_s(pids[t]) - cpu0[t];
		if (o->warmup == 0 || cpu0[t] < 0 || c <= 0) {
			*per_cpu = 0;
			break;
		}
		*per_cpu += (double)(prev[t] - first[t]) / c;
	}
	for (int t = 0; t < tasks; t++)
		kill(pids[t], SIGKILL);
	for (int t = 0; t < tasks; t++)
		waitpid(pids[t], NULL, 0);
	munmap(shared, (size_t)tasks * LINE);
	*score = total / o->samples;
	return 0;
}

int main(int argc, char **argv)
{
	struct opts o;
	double one = 0;

	if (parse_args(argc, argv, &o))
		return 1;
	printf("tasks,score,per_task,linear,per_cpu_second\n");
	fflush(stdout);
	for (int tasks = o.min_tasks; tasks <= o.max_tasks; tasks++) {
		double score, per_cpu;

		if (run_tasks(&o, tasks, &score, &per_cpu)) {
			perror("kernel_page_fault1");
			return 1;
		}
		if (tasks == o.min_tasks)
			one = score / tasks;
		printf("%d,%.0f,%.0f,%.0f,%.0f\n", tasks, score, score / tasks, one * tasks, per_cpu);
		fflush(stdout);
	}
	return 0;
}
