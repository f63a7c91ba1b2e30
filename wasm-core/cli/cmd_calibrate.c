/*
 * cmd_calibrate.c - `blab calibrate`: measure this machine and write a model parameter file
 * (the `key = value` format of src/model/params.c) that `blab sim --params FILE` reads.
 *
 * What it measures, and which keys it sets (docs/performance.md has the method and results):
 *   - clock: a chain of dependent adds, one per cycle, against the wall clock -> cpu_mhz
 *   - topology and cache geometry from /sys/devices/system/cpu (sockets, cores, threads,
 *     L1d / L2 / LLC sizes and ways)
 *   - load-to-use latency by pointer chasing: a random cyclic chain of 64-byte nodes over
 *     growing working sets, so every load depends on the one before and the hardware
 *     prefetchers cannot guess the next line -> l1_cycles, l2_cycles, llc_cycles, mem_cycles
 *   - a locked add on a line this thread owns -> atomic_cycles
 *   - two threads pinned to two cores passing a counter back and forth: half a round trip
 *     is one line transfer between cores -> xcore_cycles, lock_handoff_cycles
 *   - memset() of 4 KB pages spread over a buffer larger than the LLC (cold, like a page
 *     fresh from the free lists) -> clear_page_cycles
 *   - memory bandwidth: one thread per online CPU (64 at most), each on its own slice of a
 *     buffer far larger than the LLC, first storing (memset), then reading (a sum of every
 *     word); the reads' bytes a second over the sockets -> mem_channels = 1, mem_mts and
 *     mem_sustained_pct = 100 (measured: already what the machine sustains)
 *   - will-it-scale's page_fault1 loop, one task (map 128 MB anonymous, write a byte in each
 *     page, unmap), thread CPU time per page of the writes and of the munmap: less
 *     clear_page_cycles and what the model charges a page itself on each side
 *     (model_fault_costs_from_host()) -> fault_cycles, unmap_cycles
 * Everything else (fill_buffers, list_op_cycles, prefetch_issue_cycles, the other socket's
 * costs on a one-socket machine) keeps its default and says so in the file.
 *
 * Native only: in WebAssembly the loads go through bounds checks, the engine decides the
 * code, and threads cannot be pinned, so the numbers would describe the engine rather than
 * the machine.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "blab_model.h"

#ifndef __EMSCRIPTEN__
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

static int calibrate_help(FILE *f)
{
	fprintf(f,
"usage: blab calibrate [--out FILE] [--quick]\n"
"\n"
"Measures this machine and writes a model parameter file for blab sim --params:\n"
"the clock (a dependent add chain), the CPU topology and cache sizes (sysfs),\n"
"load latency by pointer chasing over growing working sets (L1, L2, LLC, memory),\n"
"a locked add, a cache line passed between two cores (two pinned threads),\n"
"memset() of a 4 KB page, memory bandwidth (every CPU storing to, then reading\n"
"from, its own part of a buffer far larger than the LLC), and a page fault loop\n"
"(map 128 MB, write a byte in each page, unmap: the fault and unmap costs, less\n"
"what the model charges a page itself). Keys it cannot measure keep their\n"
"defaults, marked so.\n"
"Takes about 11 s (--quick: about 4 s, noisier). Native only.\n"
"\n"
"  --out FILE   write the file there (default: standard output)\n"
"\n"
"example:\n"
"  blab calibrate --out this-machine.params\n"
"  blab sim --workload page_fault1 --cpus 1,2 --params this-machine.params\n");
	return 0;
}

#ifdef __EMSCRIPTEN__
int cmd_calibrate(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
			return calibrate_help(stdout);
	fprintf(stderr, "blab calibrate: native only: in WebAssembly every load is bounds-checked "
			"and threads cannot be pinned, so the figures would describe the engine, "
			"not this machine; run build/native/blab calibrate\n");
	return 2;
}
#else

#define SLICES 200

static double now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static int read_sysfs(const char *path, char *buf, size_t n)
{
	FILE *f = fopen(path, "r");
	size_t k;
	if (!f)
		return -1;
	k = fread(buf, 1, n - 1, f);
	fclose(f);
	buf[k] = 0;
	while (k && (buf[k - 1] == '\n' || buf[k - 1] == ' '))
		buf[--k] = 0;
	return k ? 0 : -1;
}

/* "32K", "1024K", "36608K", "2M" -> bytes; 0 when unreadable */
static uint64_t parse_size(const char *s)
{
	char *end;
	unsigned long long v = strtoull(s, &end, 10);
	if (end == s)
		return 0;
	if (*end == 'K')
		v <<= 10;
	else if (*end == 'M')
		v <<= 20;
	return v;
}

struct topo {
	uint32_t cpus, sockets, cores_per_socket, threads_per_core;
	uint64_t l1_bytes, l2_bytes, llc_bytes;
	uint32_t l1_ways, l2_ways, llc_ways;
};

/* From /sys/devices/system/cpu: packages, cores per package, threads per core, and cpu0's
 * data caches. Returns 0, or -1 when sysfs says too little. */
static int read_topology(struct topo *t)
{
	char path[160], buf[64];
	uint32_t pkg[1024], core[1024];

	memset(t, 0, sizeof(*t));
	for (uint32_t c = 0; c < 1024; c++) {
		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu%u/topology/physical_package_id", c);
		if (read_sysfs(path, buf, sizeof(buf)))
			break;
		pkg[c] = (uint32_t)strtoul(buf, NULL, 10);
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%u/topology/core_id", c);
		if (read_sysfs(path, buf, sizeof(buf)))
			return -1;
		core[c] = (uint32_t)strtoul(buf, NULL, 10);
		t->cpus = c + 1;
	}
	if (!t->cpus)
		return -1;
	/* distinct packages, and distinct (package, core) pairs */
	uint32_t npairs = 0;
	for (uint32_t c = 0; c < t->cpus; c++) {
		int newpkg = 1, newpair = 1;
		for (uint32_t d = 0; d < c; d++) {
			if (pkg[d] == pkg[c]) {
				newpkg = 0;
				if (core[d] == core[c])
					newpair = 0;
			}
		}
		t->sockets += (uint32_t)newpkg;
		npairs += (uint32_t)newpair;
	}
	t->cores_per_socket = npairs / t->sockets;
	t->threads_per_core = t->cpus / npairs;
	for (int i = 0; i < 8; i++) {
		char type[32], lvl[8], size[32], ways[16];
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cache/index%d/type", i);
		if (read_sysfs(path, type, sizeof(type)))
			break;
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cache/index%d/level", i);
		if (read_sysfs(path, lvl, sizeof(lvl)))
			continue;
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
		if (read_sysfs(path, size, sizeof(size)))
			continue;
		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu0/cache/index%d/ways_of_associativity", i);
		if (read_sysfs(path, ways, sizeof(ways)))
			continue;
		if (!strcmp(type, "Instruction"))
			continue;
		uint64_t bytes = parse_size(size);
		uint32_t w = (uint32_t)strtoul(ways, NULL, 10);
		if (lvl[0] == '1') {
			t->l1_bytes = bytes;
			t->l1_ways = w;
		} else if (lvl[0] == '2') {
			t->l2_bytes = bytes;
			t->l2_ways = w;
		} else if (lvl[0] == '3') {
			t->llc_bytes = bytes;
			t->llc_ways = w;
		}
	}
	return t->l1_bytes && t->l2_bytes ? 0 : -1;
}

/* The largest 64 * ways * 2^k that is <= bytes: the model wants a power-of-two set count. */
static uint32_t pow2_sets_bytes(uint64_t bytes, uint32_t ways)
{
	uint64_t sets = 1;
	if (!ways)
		return 0;
	while (64u * (uint64_t)ways * sets * 2 <= bytes)
		sets *= 2;
	return (uint32_t)(64u * ways * sets);
}

/* Cycles per iteration of a loop whose iterations depend on each other through one add:
 * one per cycle on every x86-64 core of the last twenty years. */
static double measure_mhz(uint64_t iters)
{
	uint64_t x = 0;
	double t0 = now_ns();
#if defined(__x86_64__)
	uint64_t n = iters;
	__asm__ volatile("1: add $1, %0\n\tsub $1, %1\n\tjnz 1b" : "+r"(x), "+r"(n));
#else
	for (uint64_t i = 0; i < iters; i++)
		__asm__ volatile("" : "+r"(x));
#endif
	double ns = now_ns() - t0;
	return (double)iters / ns * 1000.0;
}

static uint64_t rng_next(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* ns per dependent load over a random cyclic chain through `bytes` of 64-byte nodes. */
static double chase_ns(void *buf, uint64_t bytes, uint64_t loads)
{
	uint64_t n = bytes / 64, seed = 0x9e3779b97f4a7c15ull;
	uint32_t *perm = malloc(n * sizeof(*perm));
	char *base = buf;
	if (!perm || n < 2) {
		free(perm);
		return 0;
	}
	for (uint64_t i = 0; i < n; i++)
		perm[i] = (uint32_t)i;
	for (uint64_t i = n - 1; i > 0; i--) { /* Fisher-Yates: one cycle through all nodes */
		uint64_t j = rng_next(&seed) % (i + 1);
		uint32_t t = perm[i];
		perm[i] = perm[j];
		perm[j] = t;
	}
	for (uint64_t i = 0; i < n; i++)
		*(void **)(base + (uint64_t)perm[i] * 64) = base + (uint64_t)perm[(i + 1) % n] * 64;
	free(perm);
	void *p = base;
	for (uint64_t i = 0; i < n; i++) /* warm: one lap */
		p = *(void **)p;
	double best = 1e30;
	for (int rep = 0; rep < SLICES; rep++) {
		double t0 = now_ns();
		for (uint64_t i = 0; i < loads / SLICES; i++)
			p = *(void **)p;
		double ns = (now_ns() - t0) / (double)(loads / SLICES);
		if (ns < best)
			best = ns;
	}
	__asm__ volatile("" : : "r"(p));
	return best;
}

static double atomic_ns(uint64_t ops)
{
	static _Alignas(64) _Atomic uint64_t word;
	double best = 1e30;
	for (int rep = 0; rep < SLICES; rep++) {
		double t0 = now_ns();
		for (uint64_t i = 0; i < ops / SLICES; i++)
			atomic_fetch_add_explicit(&word, 1, memory_order_seq_cst);
		double ns = (now_ns() - t0) / (double)(ops / SLICES);
		if (ns < best)
			best = ns;
	}
	return best;
}

struct pingpong {
	_Alignas(64) _Atomic uint64_t turn;
	uint64_t rounds;
	int cpu;
};

/* a busy-wait step that does not starve the other thread's hardware sibling */
static inline void sched_spin(void)
{
#if defined(__x86_64__)
	__builtin_ia32_pause();
#endif
}

static void pin(int cpu)
{
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	(void)sched_setaffinity(0, sizeof(set), &set);
}

static void *pong(void *arg)
{
	struct pingpong *pp = arg;
	pin(pp->cpu);
	for (uint64_t i = 0; i < pp->rounds; i++) {
		while (atomic_load_explicit(&pp->turn, memory_order_acquire) != 2 * i + 1)
			sched_spin();
		atomic_store_explicit(&pp->turn, 2 * i + 2, memory_order_release);
	}
	return NULL;
}

/* ns for one line transfer between CPUs a and b (half a round trip); 0 if it cannot run */
static double pingpong_ns(int a, int b, uint64_t rounds)
{
	static struct pingpong pp;
	pthread_t th;
	cpu_set_t old;
	double ns;

	if (sched_getaffinity(0, sizeof(old), &old))
		return 0;
	atomic_store(&pp.turn, 0);
	pp.rounds = rounds;
	pp.cpu = b;
	if (pthread_create(&th, NULL, pong, &pp))
		return 0;
	pin(a);
	/* best slice of rounds/SLICES round trips: a slice in which either thread was
	 * descheduled is slow, never fast */
	ns = 1e30;
	for (uint64_t i = 0; i < rounds;) {
		uint64_t end = i + rounds / SLICES;
		double t0 = now_ns();
		for (; i < end && i < rounds; i++) {
			atomic_store_explicit(&pp.turn, 2 * i + 1, memory_order_release);
			while (atomic_load_explicit(&pp.turn, memory_order_acquire) != 2 * i + 2)
				sched_spin();
		}
		double s = (now_ns() - t0) / (double)(rounds / SLICES) / 2.0;
		if (s < ns)
			ns = s;
	}
	pthread_join(th, NULL);
	(void)sched_setaffinity(0, sizeof(old), &old);
	return ns;
}

/* ns per memset() of a 4 KB page, pages taken in turn from a buffer of `bytes` */
static double clear_page_ns(char *buf, uint64_t bytes, uint64_t pages)
{
	uint64_t n = bytes / 4096, k = 0;
	double best = 1e30;
	for (int rep = 0; rep < SLICES; rep++) {
		double t0 = now_ns();
		for (uint64_t i = 0; i < pages / SLICES; i++) {
			memset(buf + k * 4096, 0, 4096);
			__asm__ volatile("" : : "r"(buf) : "memory");
			k = k + 1 == n ? 0 : k + 1;
		}
		double ns = (now_ns() - t0) / (double)(pages / SLICES);
		if (ns < best)
			best = ns;
	}
	return best;
}

/* The memory bandwidth test: each thread stores to, then reads, its own slice. */
#define STREAM_THREADS 64
struct stream_arg {
	char *p;
	uint64_t bytes;
	int reads; /* 0: memset the slice; 1: read every word */
	_Atomic int *go;
	uint64_t sum;
};

static void *stream_one(void *v)
{
	struct stream_arg *a = v;
	while (!atomic_load_explicit(a->go, memory_order_acquire))
		sched_spin();
	if (!a->reads) {
		memset(a->p, 1, a->bytes);
		__asm__ volatile("" : : "r"(a->p) : "memory");
	} else {
		const volatile uint64_t *w = (const volatile uint64_t *)(void *)a->p;
		uint64_t s = 0;
		for (uint64_t i = 0; i < a->bytes / 8; i += 8) /* one word a line: the line is read */
			s += w[i];
		a->sum = s;
	}
	return NULL;
}

/* MB/s of `nthreads` threads storing (reads 0) or reading (1) buf's `bytes` at once: the best
 * of `reps` passes (another process can only make a pass slower); 0 when threads fail */
static double stream_mbs(char *buf, uint64_t bytes, int nthreads, int reads, int reps)
{
	pthread_t th[STREAM_THREADS];
	struct stream_arg arg[STREAM_THREADS];
	uint64_t slice = bytes / (uint64_t)nthreads & ~4095ull;
	double best = 0;
	for (int r = 0; r < reps; r++) {
		_Atomic int go = 0;
		int n = 0;
		for (; n < nthreads; n++) {
			arg[n] = (struct stream_arg){buf + (uint64_t)n * slice, slice, reads, &go, 0};
			if (pthread_create(&th[n], NULL, stream_one, &arg[n]))
				break;
		}
		double t0 = now_ns();
		atomic_store_explicit(&go, 1, memory_order_release);
		for (int k = 0; k < n; k++)
			pthread_join(th[k], NULL);
		double ns = now_ns() - t0;
		if (n < nthreads)
			return 0;
		double mbs = (double)slice * n / ns * 1000.0;
		if (mbs > best)
			best = mbs;
	}
	return best;
}

/* will-it-scale's page_fault1 on this machine, one task: map 128 MB of anonymous memory
 * (4 KB pages: no THP), write a byte in each page (each write a page fault that allocates and
 * clears a page), unmap. The thread's CPU time, so that time this thread spent descheduled
 * does not count, per page of the writes (*fault_ns) and of the munmap (*unmap_ns): the best
 * round of `rounds` for each. 0, or -1 with errno when the mapping fails. */
#define FAULT_LOOP_BYTES (128ull << 20)
static int fault_loop_ns(int rounds, double *fault_ns, double *unmap_ns)
{
	const uint64_t pages = FAULT_LOOP_BYTES / 4096;

	*fault_ns = *unmap_ns = 1e30;
	for (int r = 0; r < rounds; r++) {
		struct timespec a, b, c;
		volatile char *m = mmap(NULL, FAULT_LOOP_BYTES, PROT_READ | PROT_WRITE,
					MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (m == MAP_FAILED)
			return -1;
#ifdef MADV_NOHUGEPAGE
		(void)madvise((void *)m, FAULT_LOOP_BYTES, MADV_NOHUGEPAGE);
#endif
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a);
		for (uint64_t i = 0; i < pages; i++)
			m[i * 4096] = 1;
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b);
		if (munmap((void *)m, FAULT_LOOP_BYTES))
			return -1;
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c);
		double f = ((double)(b.tv_sec - a.tv_sec) * 1e9 + (double)(b.tv_nsec - a.tv_nsec)) /
			   (double)pages;
		double u = ((double)(c.tv_sec - b.tv_sec) * 1e9 + (double)(c.tv_nsec - b.tv_nsec)) /
			   (double)pages;
		if (f < *fault_ns)
			*fault_ns = f;
		if (u < *unmap_ns)
			*unmap_ns = u;
	}
	return 0;
}

/* ns -> whole ps; past MODEL_HOST_PS_MAX one more, which the derivation refuses */
static uint64_t to_ps(double ns)
{
	double ps = ns * 1000.0 + 0.5;
	return ps >= 0 && ps <= (double)MODEL_HOST_PS_MAX ? (uint64_t)ps : MODEL_HOST_PS_MAX + 1;
}

/* The fault loop -> fault_cycles and unmap_cycles in *p (its clock, clear_page_cycles and
 * latencies already measured), and the comment line that says how, into note. A loop that
 * cannot run or a figure the model cannot take keeps the keys at 0 (derived), with a warning. */
static void fault_costs(struct model_params *p, int quick, char *note, size_t len)
{
	double fault_ns, unmap_ns;
	char why[200];
	uint32_t fo = model_pf1_fault_other(p), uo = model_pf1_unmap_other(p);

	if (fault_loop_ns(quick ? 3 : 8, &fault_ns, &unmap_ns)) {
		snprintf(why, sizeof(why), "cannot map %llu MB: %s",
			 (unsigned long long)(FAULT_LOOP_BYTES >> 20), strerror(errno));
	} else if (model_fault_costs_from_host(p, to_ps(fault_ns), to_ps(unmap_ns), why,
					       sizeof(why)) == 0) {
		/* three lines: a parameter file's line holds 256 bytes at most */
		snprintf(note, len,
			 "# page fault loop (will-it-scale page_fault1, %llu MB, best of %d rounds, "
			 "thread CPU time):\n"
			 "#   write fault %.1f ns a page = %.0f cycles, less clear_page_cycles %u and "
			 "the model's own %u (allocation, LRU add) -> fault_cycles %u\n"
			 "#   munmap %.1f ns a page = %.0f cycles, less the model's own %u "
			 "(zap_pte_range's struct page, release_pages, the free) -> unmap_cycles %u\n",
			 (unsigned long long)(FAULT_LOOP_BYTES >> 20), quick ? 3 : 8, fault_ns,
			 fault_ns * p->cpu_mhz / 1000.0, p->clear_page_cycles, fo, p->fault_cycles,
			 unmap_ns, unmap_ns * p->cpu_mhz / 1000.0, uo, p->unmap_cycles);
		return;
	}
	fprintf(stderr, "blab calibrate: the page fault loop: %s; fault_cycles and unmap_cycles "
			"stay 0 (derived from list_op_cycles)\n", why);
	snprintf(note, len, "# page fault loop, not measured (fault_cycles and unmap_cycles kept "
		 "at 0: derived from list_op_cycles):\n#   %s\n", why);
}

static uint32_t cyc(double ns, double mhz, uint32_t max)
{
	double c = ns * mhz / 1000.0 + 0.5;
	if (c < 0)
		return 0;
	return c > (double)max ? max : (uint32_t)c;
}

static int calibrate(int quick, FILE *f);

int cmd_calibrate(int argc, char **argv)
{
	const char *out = NULL;
	int quick = 0, ret;
	char tmp[4096];
	FILE *f = NULL;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
			return calibrate_help(stdout);
		if (!strcmp(argv[i], "--quick")) {
			quick = 1;
		} else if (!strcmp(argv[i], "--out") && i + 1 < argc) {
			out = argv[++i];
		} else {
			fprintf(stderr, "blab calibrate: unknown option '%s'\n"
					"(blab calibrate --help for the options)\n",
				argv[i]);
			return 2;
		}
	}
	/* --out is written before the minutes of measuring, not after: a file beside it now,
	 * renamed over it at the end (so a failed run leaves an old --out as it was) */
	if (out) {
		struct stat st;
		int fd = -1;
		errno = 0;
		if (strlen(out) + 8 > sizeof(tmp))
			errno = ENAMETOOLONG;
		else if (stat(out, &st) == 0 && S_ISDIR(st.st_mode))
			errno = EISDIR;
		else if (snprintf(tmp, sizeof(tmp), "%s.XXXXXX", out) > 0 && (fd = mkstemp(tmp)) >= 0) {
			mode_t mask = umask(0); /* mkstemp makes it 0600; a file as fopen would */
			umask(mask);
			if (fchmod(fd, 0666 & ~mask) == 0)
				f = fdopen(fd, "w");
		}
		if (!f) {
			fprintf(stderr, "blab calibrate: cannot write %s: %s\n", out,
				strerror(errno ? errno : EIO));
			if (fd >= 0) {
				close(fd);
				unlink(tmp);
			}
			return 1;
		}
	}
	ret = calibrate(quick, f ? f : stdout);
	if (f) {
		if (fclose(f) && !ret) {
			fprintf(stderr, "blab calibrate: cannot write %s: %s\n", out, strerror(errno));
			ret = 1;
		}
		if (!ret && rename(tmp, out)) {
			fprintf(stderr, "blab calibrate: cannot write %s: %s\n", out, strerror(errno));
			ret = 1;
		}
		if (ret)
			unlink(tmp);
		else
			fprintf(stderr, "blab calibrate: wrote %s\n", out);
	}
	return ret;
}

/* measures, checks and writes the parameter file to f: 0, or 1 after a message */
static int calibrate(int quick, FILE *f)
{
	struct model_params p;
	struct topo t;
	char why[160];

	model_params_default(&p);
	if (read_topology(&t)) {
		fprintf(stderr, "blab calibrate: cannot read the CPU topology and caches from "
				"/sys/devices/system/cpu\n");
		return 1;
	}
	/* The machine may be shared: every figure is the best of many short slices, since
	 * another process can only make a slice slower. */
	uint64_t scale = quick ? 1 : 4;
	double mhz = 0;
	for (int i = 0; i < SLICES * (int)scale; i++) {
		double m = measure_mhz(500000ull);
		if (m > mhz)
			mhz = m;
	}

	/* working sets: half of each level, and memory at 8x the LLC (at least 256 MB) */
	uint64_t llc = t.llc_bytes ? t.llc_bytes : t.l2_bytes * 4;
	uint64_t mem_bytes = llc * 8 < (256ull << 20) ? (256ull << 20) : llc * 8;
	char *buf = mmap(NULL, mem_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1,
			 0);
	if (buf == MAP_FAILED) {
		fprintf(stderr, "blab calibrate: cannot map %llu bytes: %s\n",
			(unsigned long long)mem_bytes, strerror(errno));
		return 1;
	}
#ifdef MADV_HUGEPAGE
	(void)madvise(buf, mem_bytes, MADV_HUGEPAGE); /* fewer TLB misses in the chase */
#endif
	uint64_t loads = 2000000ull * scale;
	double l1_ns = chase_ns(buf, t.l1_bytes / 2, loads);
	double l2_ns = chase_ns(buf, t.l2_bytes / 2, loads);
	/* the LLC at 4x the L2: past the private caches, well inside the LLC (on a VM the
	 * LLC is the host's, shared with its other guests) */
	uint64_t llc_set = t.l2_bytes * 4 < llc / 2 ? t.l2_bytes * 4 : llc / 2;
	double llc_ns = t.llc_bytes ? chase_ns(buf, llc_set, loads / 2) : 0;
	double llc_half_ns = t.llc_bytes ? chase_ns(buf, llc / 2, loads / 4) : 0;
	double mem_ns = chase_ns(buf, mem_bytes, loads / 4);
	double atom_ns = atomic_ns(5000000ull * scale);
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	/* CPU 0 and the first CPU on another core (Linux numbers siblings after all cores) */
	double xfer_ns = ncpu > 1 ? pingpong_ns(0, (int)(ncpu > 1 ? 1 : 0), 200000ull * scale) : 0;
	double clr_ns = clear_page_ns(buf, mem_bytes, 20000ull * scale);
	int nth = ncpu < 1 ? 1 : ncpu > STREAM_THREADS ? STREAM_THREADS : (int)ncpu;
	double store_mbs = stream_mbs(buf, mem_bytes, nth, 0, (int)scale + 1);
	double read_mbs = stream_mbs(buf, mem_bytes, nth, 1, (int)scale + 1);
	munmap(buf, mem_bytes);

	/* the keys */
	p.sockets = t.sockets;
	p.cores_per_socket = t.cores_per_socket;
	p.threads_per_core = t.threads_per_core;
	p.cpu_mhz = (uint32_t)(mhz + 0.5);
	p.l1_bytes = pow2_sets_bytes(t.l1_bytes, t.l1_ways);
	p.l1_ways = t.l1_ways;
	p.l2_bytes = pow2_sets_bytes(t.l2_bytes, t.l2_ways);
	p.l2_ways = t.l2_ways;
	if (t.llc_bytes && t.llc_ways) {
		p.llc_bytes_per_core = (uint32_t)(t.llc_bytes / t.cores_per_socket);
		p.llc_ways = t.llc_ways;
	}
	p.l1_cycles = cyc(l1_ns, mhz, 1000);
	p.l2_cycles = cyc(l2_ns, mhz, 10000);
	if (llc_ns > 0)
		p.llc_cycles = cyc(llc_ns, mhz, 10000);
	p.mem_cycles = cyc(mem_ns, mhz, 100000);
	p.atomic_cycles = cyc(atom_ns, mhz, 10000);
	if (xfer_ns > 0) {
		p.xcore_cycles = cyc(xfer_ns, mhz, 100000);
		p.lock_handoff_cycles = p.xcore_cycles;
	}
	p.clear_page_cycles = cyc(clr_ns, mhz, 1000000);
	if (read_mbs > 0) {
		/* the reads' MB/s a socket as one channel of mem_mts x 8 bytes, all of it sustained */
		double mts = read_mbs / t.sockets / 8.0 + 0.5;
		p.mem_channels = 1;
		p.mem_mts = mts < 100 ? 100u : mts > 20000 ? 20000u : (uint32_t)mts;
		p.mem_sustained_pct = 100;
	}
	if (model_params_check(&p, why, sizeof(why))) {
		fprintf(stderr, "blab calibrate: the measured machine is outside the model: %s\n",
			why);
		return 1;
	}

	/* the fault loop last: it reads the clock, clear_page_cycles and the latencies above;
	 * its comment goes to a buffer, as the header is written before it */
	char note[1024];
	fault_costs(&p, quick, note, sizeof(note));
	char body[4096];
	size_t n = model_params_write(&p, body, sizeof(body));
	if (n >= sizeof(body)) {
		fprintf(stderr, "blab calibrate: parameter file too long\n");
		return 1;
	}
	time_t now = time(NULL);
	char date[32];
	strftime(date, sizeof(date), "%Y-%m-%d %H:%M UTC", gmtime(&now));
	fprintf(f, "# blab calibrate, %s%s\n", date, quick ? " (--quick)" : "");
	fprintf(f, "# topology (sysfs): %u CPUs = %u socket(s) x %u core(s) x %u thread(s)\n",
		t.cpus, t.sockets, t.cores_per_socket, t.threads_per_core);
	fprintf(f, "# caches (sysfs): L1d %llu B %u-way, L2 %llu B %u-way, LLC %llu B %u-way "
		   "(model: power-of-two L1/L2 sets, LLC split per core)\n",
		(unsigned long long)t.l1_bytes, t.l1_ways, (unsigned long long)t.l2_bytes,
		t.l2_ways, (unsigned long long)t.llc_bytes, t.llc_ways);
	fprintf(f, "# clock: %.0f MHz (dependent add chain)\n", mhz);
	fprintf(f, "# pointer chase, ns per load: %.2f at %llu KB, %.2f at %llu KB, %.2f at "
		   "%llu KB, %.2f at %llu MB\n",
		l1_ns, (unsigned long long)(t.l1_bytes / 2048), l2_ns,
		(unsigned long long)(t.l2_bytes / 2048), llc_ns,
		(unsigned long long)(llc_set / 1024), mem_ns,
		(unsigned long long)(mem_bytes >> 20));
	fprintf(f, "# pointer chase at half the LLC (%llu KB): %.2f ns per load\n",
		(unsigned long long)(llc / 2048), llc_half_ns);
	fprintf(f, "# locked add %.2f ns; line between CPU 0 and CPU 1 %.1f ns (half a "
		   "ping-pong); memset of a 4 KB page %.1f ns\n",
		atom_ns, xfer_ns, clr_ns);
	fprintf(f, "# memory, %d threads over %llu MB: stores %.0f MB/s, reads %.0f MB/s (with reads "
		   "for ownership the stores moved about twice their bytes); the reads a socket are "
		   "mem_mts x 8%s\n",
		nth, (unsigned long long)(mem_bytes >> 20), store_mbs, read_mbs,
		read_mbs > 0 ? "" : " (the threads did not start: defaults kept)");
	fputs(note, f);
	fprintf(f, "# not measured, defaults kept: fill_buffers, list_op_cycles, "
		   "prefetch_issue_cycles, llc_victim%s\n",
		t.sockets == 1 ? ", xsocket_cycles and lock_handoff_remote_cycles (one socket)" :
				 ", xsocket_cycles, lock_handoff_remote_cycles");
	fputs(body, f);
	return 0;
}
#endif
