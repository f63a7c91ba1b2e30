/*
 * Model parameters: one table of costs and sizes, its defaults, and the `key = value` file
 * format that `blab calibrate` will write.
 *
 * Defaults describe a 2-socket Skylake-SP server like the Xeon Platinum 8180 used for the
 * zone->lock RFC (seed 004): 2 sockets x 28 cores x 2 threads = 112 CPUs at 2.5 GHz.
 * Sources (numbers rounded to whole cycles at 2.5 GHz):
 *  [wikichip]  en.wikichip.org, intel/microarchitectures/skylake_(server): L1d 32 KiB 8-way,
 *              L2 1 MiB 16-way, L3 1.375 MiB/core 11-way, non-inclusive.
 *  [anandtech] AnandTech 11544, "Skylake-EP vs EPYC", lmbench random load latency:
 *              L1 4 cycles, L2 14 cycles, L3 ~55 cycles, DRAM 96-98 ns.
 *  [lat]       classic Intel figures (also in d2l.ai "CPU cache latencies"): a line shared or
 *              modified in another core of the same socket 25-29 ns; on the other socket
 *              100-300 cycles.
 *  [intel-opt] Intel 64 and IA-32 Architectures Optimization Reference Manual, Skylake
 *              microarchitecture: 12 L1D line fill buffers (10 on Haswell/Broadwell).
 *  [agner]     Agner Fog, instruction tables, Skylake: LOCK CMPXCHG ~18-20 cycles.
 *  [ark]       Intel ARK, Xeon Platinum 8180: 6 memory channels, DDR4-2666.
 *  [stream]    AnandTech 11544, "Memory Subsystem: Bandwidth": Intel's STREAM Triad on two
 *              8180s, 199 GB/s of the 256 GB/s peak (78 %); the same page quotes 128 GB/s
 *              for two E5-2699 v4 (4 x DDR4-2400, 154 GB/s peak: 83 %) and AMD's own
 *              250 GB/s for two EPYC 7601 (307 GB/s: 81 %).
 *  [rfo]       John McCalpin (Intel forums, "Question about normal store and non-temporal
 *              store"): ordinary stores read the line, modify it and write it back later.
 *              The Intel SDM (vol. 3, 8.2.4) lets fast-string stores invalidate a whole line
 *              instead; docs/model.md ("Memory bandwidth") says why the model reads it.
 *  [est]       our estimate, to be replaced by `blab calibrate`; see docs/model.md.
 */
#include <stdio.h>
#include <string.h>

#include "model.h"

struct param_desc {
	const char *key;
	size_t off;
	uint32_t min, max;
};

#define P(k, lo, hi) { #k, offsetof(struct model_params, k), lo, hi }
static const struct param_desc params[] = {
	P(sockets, 1, 8),
	P(cores_per_socket, 1, 128),
	P(threads_per_core, 1, 8),
	P(cpu_mhz, 1, 100000),
	P(l1_bytes, 128, 1u << 24),
	P(l1_ways, 1, 64),
	P(l1_cycles, 0, 1000),
	P(l2_bytes, 128, 1u << 28),
	P(l2_ways, 1, 64),
	P(l2_cycles, 0, 10000),
	P(llc_bytes_per_core, 128, 1u << 28),
	P(llc_ways, 1, 64),
	P(llc_cycles, 0, 10000),
	P(llc_victim, 0, 1),
	P(xcore_cycles, 0, 100000),
	P(xsocket_cycles, 0, 100000),
	P(mem_cycles, 0, 100000),
	P(fill_buffers, 0, 64),
	P(mem_channels, 0, 32),
	P(mem_mts, 100, 20000),
	P(mem_sustained_pct, 1, 100),
	P(clear_page_rfo, 0, 1),
	P(lock_handoff_cycles, 0, 100000),
	P(lock_handoff_remote_cycles, 0, 100000),
	P(atomic_cycles, 0, 10000),
	P(clear_page_cycles, 0, 1000000),
	P(list_op_cycles, 0, 10000),
	P(prefetch_issue_cycles, 0, 1000),
	P(fault_cycles, 0, 1000000),
	P(unmap_cycles, 0, 1000000),
};
#undef P
#define NPARAMS (sizeof(params) / sizeof(params[0]))

static uint32_t *field(struct model_params *p, const struct param_desc *d)
{
	return (uint32_t *)((char *)p + d->off);
}

void model_params_default(struct model_params *p)
{
	memset(p, 0, sizeof(*p));
	p->sockets = 2;           /* 2S Skylake-SP, as in seeds 000 and 004 */
	p->cores_per_socket = 28; /* Xeon Platinum 8180 [wikichip] */
	p->threads_per_core = 2;  /* Hyper-Threading: 112 CPUs */
	p->cpu_mhz = 2500;        /* 8180 base clock */

	p->l1_bytes = 32 * 1024; /* [wikichip] */
	p->l1_ways = 8;          /* [wikichip] */
	p->l1_cycles = 4;        /* [anandtech] */
	p->l2_bytes = 1024 * 1024; /* [wikichip] */
	p->l2_ways = 16;           /* [wikichip] */
	p->l2_cycles = 14;         /* [anandtech] */
	p->llc_bytes_per_core = 1408 * 1024; /* 1.375 MiB [wikichip] */
	p->llc_ways = 11;                    /* [wikichip] */
	p->llc_cycles = 55;                  /* [anandtech] ~22 ns */
	p->llc_victim = 1; /* Skylake-SP L3 is a non-inclusive victim cache [wikichip] */

	p->xcore_cycles = 70;    /* 25-29 ns [lat] */
	p->xsocket_cycles = 300; /* upper end of 100-300 cycles [lat], ~120 ns over UPI */
	p->mem_cycles = 240;     /* 96 ns [anandtech] */
	p->fill_buffers = 12;    /* L1D line fill buffers, Skylake [intel-opt] */
	p->mem_channels = 6;     /* per socket [ark] */
	p->mem_mts = 2666;       /* DDR4-2666 [ark]: 6 x 2666 x 8 = 128 GB/s a socket */
	p->mem_sustained_pct = 78; /* STREAM Triad on two 8180s [stream]: 100 GB/s a socket */
	p->clear_page_rfo = 1;   /* the store path the model has: read for ownership [rfo] */

	p->lock_handoff_cycles = 70;         /* = xcore_cycles: the lock word moves core to core */
	p->lock_handoff_remote_cycles = 300; /* = xsocket_cycles */
	p->atomic_cycles = 20;               /* [agner] */
	p->clear_page_cycles = 1000; /* [est] 4 KB at ~10 GB/s single-core store bandwidth */
	p->list_op_cycles = 4;       /* [est] a few dependent stores, lines already present */
	p->prefetch_issue_cycles = 1; /* [est] one instruction, does not block */
	/* [est] 0: derived from list_op_cycles, 1000 and 100 cycles at the defaults, so that
	 * scaling list_op_cycles still scales all the plain work; blab calibrate measures them */
	p->fault_cycles = 0;
	p->unmap_cycles = 0;
}

static void put_err(char *err, size_t errlen, unsigned line, const char *why, const char *key)
{
	if (err && errlen)
		snprintf(err, errlen, "line %u: %s%s%s", line, why, key ? ": " : "",
			 key ? key : "");
}

static int is_pow2(uint32_t x)
{
	return x && !(x & (x - 1));
}

/* The rules that tie keys together, each with the keys it involves: a file that breaks one
 * is refused on the line of the last of those keys it sets. */
static const struct rule {
	const char *why;
	const char *keys[3];
} rules[] = {
	/* a machine may have more CPUs than a run can use (an 8-socket 8180 has 448; runs take
	 * CPUs 0..255), but every core of the first 256 CPUs needs its own caches */
	{"sockets * cores_per_socket exceeds 256 cores", {"sockets", "cores_per_socket"}},
	{"l1_bytes must be 64 * l1_ways * a power of two sets", {"l1_bytes", "l1_ways"}},
	{"l2_bytes must be 64 * l2_ways * a power of two sets", {"l2_bytes", "l2_ways"}},
	{"llc too large", {"llc_bytes_per_core", "cores_per_socket", "llc_ways"}},
	{"llc smaller than one set", {"llc_bytes_per_core", "cores_per_socket", "llc_ways"}},
};
#define NRULES (sizeof(rules) / sizeof(rules[0]))

/* the index of the first rule p breaks, or -1 (every key already in its range) */
static int broken_rule(const struct model_params *p)
{
	uint64_t llc = (uint64_t)p->llc_bytes_per_core * p->cores_per_socket;

	if ((uint64_t)p->sockets * p->cores_per_socket > MODEL_MAX_CPUS)
		return 0;
	if (p->l1_bytes % (64u * p->l1_ways) || !is_pow2(p->l1_bytes / (64u * p->l1_ways)))
		return 1;
	if (p->l2_bytes % (64u * p->l2_ways) || !is_pow2(p->l2_bytes / (64u * p->l2_ways)))
		return 2;
	if (llc > (uint64_t)64 * p->llc_ways * 0xffffffffu)
		return 3;
	if (llc < (uint64_t)64 * p->llc_ways)
		return 4;
	return -1;
}

int model_params_check(const struct model_params *p, char *err, size_t errlen)
{
	const char *why = NULL;
	int r;

	for (size_t i = 0; i < NPARAMS && !why; i++) {
		uint32_t v = *field((struct model_params *)p, &params[i]);
		if (v < params[i].min || v > params[i].max)
			why = params[i].key;
	}
	if (why) {
		if (err && errlen)
			snprintf(err, errlen, "%s out of range", why);
		return -1;
	}
	if ((r = broken_rule(p)) >= 0) {
		if (err && errlen)
			snprintf(err, errlen, "%s", rules[r].why);
		return -1;
	}
	return 0;
}

static size_t key_index(const char *key)
{
	size_t d;
	for (d = 0; d < NPARAMS; d++)
		if (!strcmp(params[d].key, key))
			break;
	return d;
}

/* "line N: why (key = v on line N, key2 = v2 by default, ...)": N is the last line that set
 * one of the rule's keys (some key of it was set, or the defaults would break it too) */
static void put_rule_err(char *err, size_t errlen, const struct model_params *q, int r,
			 const unsigned *line, unsigned lastline)
{
	char keys[160] = "";
	unsigned last = 0;

	for (int k = 0; k < 3 && rules[r].keys[k]; k++) {
		size_t d = key_index(rules[r].keys[k]);
		size_t n = strlen(keys);
		if (line[d] > last)
			last = line[d];
		if (line[d])
			snprintf(keys + n, sizeof(keys) - n, "%s%s = %u on line %u", n ? ", " : "",
				 params[d].key, *field((struct model_params *)q, &params[d]), line[d]);
		else
			snprintf(keys + n, sizeof(keys) - n, "%s%s = %u by default", n ? ", " : "",
				 params[d].key, *field((struct model_params *)q, &params[d]));
	}
	if (err && errlen) /* (no key of the rule set: *p broke it before; the file's end) */
		snprintf(err, errlen, "line %u: %s (%s)", last ? last : lastline, rules[r].why, keys);
}

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

int model_params_parse(struct model_params *p, const char *text, size_t len, char *err,
		       size_t errlen)
{
	struct model_params q;
	unsigned seen[NPARAMS]; /* the line that set each key, 0: not set */
	unsigned lineno = 0;
	size_t i = 0;
	int r;

	memset(seen, 0, sizeof(seen));
	if (!p) {
		put_err(err, errlen, 0, "no parameters to fill", NULL);
		return -1;
	}
	q = *p;
	if (!text && len) {
		put_err(err, errlen, 0, "no text", NULL);
		return -1;
	}
	if (len > MODEL_PARAMS_FILE_MAX) {
		put_err(err, errlen, 0, "file larger than 16384 bytes", NULL);
		return -1;
	}
	if (len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3))
		i = 3; /* a UTF-8 byte order mark some editors put first: not part of a key */
	while (i < len) {
		size_t start = i, end;
		lineno++;
		while (i < len && text[i] != '\n')
			i++;
		end = i;
		if (i < len)
			i++; /* skip '\n' */
		if (end - start > MODEL_PARAMS_LINE_MAX) {
			put_err(err, errlen, lineno, "line longer than 256 bytes", NULL);
			return -1;
		}
		char buf[MODEL_PARAMS_LINE_MAX + 1];
		memcpy(buf, text + start, end - start);
		buf[end - start] = 0;
		for (size_t k = 0; k < end - start; k++)
			if (buf[k] == 0) {
				put_err(err, errlen, lineno, "NUL byte", NULL);
				return -1;
			}
		char *hash = strchr(buf, '#');
		if (hash)
			*hash = 0;
		char *s = buf;
		while (is_space(*s))
			s++;
		if (!*s)
			continue;
		char *eq = strchr(s, '=');
		if (!eq) {
			put_err(err, errlen, lineno, "expected key = value", NULL);
			return -1;
		}
		char *kend = eq;
		while (kend > s && is_space(kend[-1]))
			kend--;
		*kend = 0;
		if (!*s) {
			put_err(err, errlen, lineno, "missing key", NULL);
			return -1;
		}
		size_t d = key_index(s);
		if (d == NPARAMS) {
			put_err(err, errlen, lineno, "unknown key", s);
			return -1;
		}
		if (seen[d]) {
			put_err(err, errlen, lineno, "duplicate key", s);
			return -1;
		}
		seen[d] = lineno;
		char *v = eq + 1;
		while (is_space(*v))
			v++;
		char *vend = v + strlen(v);
		while (vend > v && is_space(vend[-1]))
			vend--;
		if (vend == v) {
			put_err(err, errlen, lineno, "missing value for", s);
			return -1;
		}
		uint64_t val = 0;
		for (char *c = v; c < vend; c++) {
			if (*c < '0' || *c > '9') {
				put_err(err, errlen, lineno, "value is not a decimal integer for", s);
				return -1;
			}
			val = val * 10 + (uint64_t)(*c - '0');
			if (val > 0xffffffffull)
				break;
		}
		if (val < params[d].min || val > params[d].max) {
			char why[96];
			snprintf(why, sizeof(why), "value out of range [%u, %u] for", params[d].min,
				 params[d].max);
			put_err(err, errlen, lineno, why, s);
			return -1;
		}
		*field(&q, &params[d]) = (uint32_t)val;
	}
	/* every value passed its range above, so only a rule between keys can fail */
	if ((r = broken_rule(&q)) >= 0) {
		put_rule_err(err, errlen, &q, r, seen, lineno);
		return -1;
	}
	*p = q;
	return 0;
}

size_t model_params_write(const struct model_params *p, char *buf, size_t cap)
{
	size_t n = 0;
	int full = 0;
	for (size_t i = 0; i < NPARAMS; i++) {
		char line[MODEL_PARAMS_LINE_MAX];
		int k = snprintf(line, sizeof(line), "%s = %u\n", params[i].key,
				 *field((struct model_params *)p, &params[i]));
		if (k > 0) {
			if (!full && n + (size_t)k < cap)
				memcpy(buf + n, line, (size_t)k);
			else
				full = 1;
			n += (size_t)k;
		}
	}
	if (cap)
		buf[n < cap ? n : cap - 1] = 0;
	return n;
}

/*
 * The model's own per-page charges in page_fault1 outside the fault and unmap costs. Measured
 * on the model itself (v4.17, one task, 32768 pages, fault_cycles = unmap_cycles = 1,
 * clear_page_cycles = 0, no memory limit; each side's cycles over its pages, at the default
 * machine and at a calibrated 2-core one, with mem_cycles and llc_cycles moved in turn): the
 * fault side pays 0.44 of a DRAM miss, 0.07 of an LLC hit and about 70 cycles of list and lock
 * work a page; the unmap side 0.73 of a miss, 0.24 of an LLC hit and about 85 cycles. The
 * struct page lines are what miss: 128 MB of clears push them out between a page's fault and
 * its unmap, and the bulk refill and bulk free touch the buddies' lines. Within about 10
 * cycles of the model at both machines; a page costs the kernel thousands.
 */
uint32_t model_pf1_fault_other(const struct model_params *p)
{
	return (uint32_t)(((uint64_t)p->mem_cycles * 44 + (uint64_t)p->llc_cycles * 7) / 100 + 70);
}

uint32_t model_pf1_unmap_other(const struct model_params *p)
{
	return (uint32_t)(((uint64_t)p->mem_cycles * 73 + (uint64_t)p->llc_cycles * 24) / 100 + 85);
}

/* one side's cost: ps at mhz, less `less`, in [1, max]; -1 with err when outside */
static int host_cost(uint64_t ps, uint32_t mhz, uint64_t less, const char *what,
		     const char *key, uint32_t max, uint32_t *out, char *err, size_t errlen)
{
	uint64_t cyc;

	if (!ps || ps > MODEL_HOST_PS_MAX) {
		if (err && errlen)
			snprintf(err, errlen, "%s: %llu ps a page is outside (0, %llu]", what,
				 (unsigned long long)ps, MODEL_HOST_PS_MAX);
		return -1;
	}
	cyc = (ps * mhz + 500000) / 1000000; /* ps x MHz / 10^6, rounded: <= 10^17 */
	if (cyc <= less || cyc - less > max) {
		if (err && errlen)
			snprintf(err, errlen,
				 "%s: %llu cycles a page at %u MHz, less the model's own %llu, "
				 "leaves %s outside [1, %u]",
				 what, (unsigned long long)cyc, mhz, (unsigned long long)less, key,
				 max);
		return -1;
	}
	*out = (uint32_t)(cyc - less);
	return 0;
}

int model_fault_costs_from_host(struct model_params *p, uint64_t fault_ps, uint64_t unmap_ps,
				char *err, size_t errlen)
{
	uint32_t fault, unmap;
	size_t f = key_index("fault_cycles"), u = key_index("unmap_cycles");

	if (!p || model_params_check(p, err, errlen)) {
		if (!p && err && errlen)
			snprintf(err, errlen, "no parameters");
		return -1;
	}
	if (host_cost(fault_ps, p->cpu_mhz,
		      (uint64_t)p->clear_page_cycles + model_pf1_fault_other(p), "the fault",
		      "fault_cycles", params[f].max, &fault, err, errlen) ||
	    host_cost(unmap_ps, p->cpu_mhz, model_pf1_unmap_other(p), "the munmap",
		      "unmap_cycles", params[u].max, &unmap, err, errlen))
		return -1;
	p->fault_cycles = fault;
	p->unmap_cycles = unmap;
	return 0;
}
