/*
 * blab_model.h - the model machine's parameters: the machine `blab sim` models (topology,
 * cache sizes and latencies, lock and work costs), their defaults with sources, and the
 * `key = value` parameter file that `blab sim --params` reads and `blab calibrate` writes.
 * docs/model.md has the same table for humans. The model itself (cache, locks, scheduler)
 * is private to the core (src/machine/model/); this is all of it a caller sets.
 */
#ifndef BLAB_MODEL_H_PUBLIC
#define BLAB_MODEL_H_PUBLIC

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define BLAB_MODEL_MAX_CPUS 256u /* the model's virtual CPUs: BLAB_MAX_CPUS */

/*
 * Costs in cycles, sizes in bytes. model_params_default() documents every default and its
 * source; docs/model.md has the same table for humans.
 */
struct model_params {
	/* topology: CPU c sits on core c % (sockets * cores_per_socket), the Linux numbering
	 * on 2-socket Intel servers (all first threads, then all second threads). */
	uint32_t sockets;
	uint32_t cores_per_socket;
	uint32_t threads_per_core;
	uint32_t cpu_mhz; /* converts cycles to seconds for scores */

	/* caches: private L1d and L2 per core (shared by its SMT threads), LLC per socket */
	uint32_t l1_bytes, l1_ways, l1_cycles;
	uint32_t l2_bytes, l2_ways, l2_cycles;
	uint32_t llc_bytes_per_core, llc_ways, llc_cycles;
	uint32_t llc_victim; /* 1: LLC filled by L2 evictions (Skylake-SP); 0: by every miss */

	/* a line held Modified by another core: same socket / other socket */
	uint32_t xcore_cycles;
	uint32_t xsocket_cycles;
	uint32_t mem_cycles; /* local DRAM */
	uint32_t fill_buffers; /* L1 misses in flight per CPU (prefetches included); 0 = no limit */
	/* each socket's memory controller: channels x transfer rate (MT/s) x 8 bytes is its peak,
	 * of which mem_sustained_pct % is what it carries (docs/model.md, "Memory bandwidth");
	 * mem_channels 0 = no bandwidth limit */
	uint32_t mem_channels;
	uint32_t mem_mts;
	uint32_t mem_sustained_pct;
	/* 1: clear_page()'s stores read each line for ownership before they write it, as the
	 * model's other stores do, so a cleared line costs a read and a write-back; 0: they only
	 * invalidate it (a fast-string store of a whole line), the write-back alone */
	uint32_t clear_page_rfo;

	/* locks and plain work */
	uint32_t lock_handoff_cycles;        /* lock word moves to a core on the same socket */
	uint32_t lock_handoff_remote_cycles; /* ... to a core on the other socket */
	uint32_t atomic_cycles;              /* one locked read-modify-write, line already here */
	uint32_t clear_page_cycles;          /* clear_page() of a 4 KB frame */
	uint32_t list_op_cycles;             /* list_add/list_del pointer work, beyond the misses */
	uint32_t prefetch_issue_cycles;      /* issuing one prefetch instruction */
	/* a page fault's and an unmapped page's work outside what the model runs itself (the
	 * trap, page tables, mmap_lock, memcg, rmap; zap_pte_range, the TLB flush): 0 = derive
	 * from list_op_cycles (model_fault_cycles(), model_unmap_cycles()) */
	uint32_t fault_cycles;
	uint32_t unmap_cycles;
};

void model_params_default(struct model_params *p);
/* 0 if consistent, else -1 with a reason in err (no line number). */
int model_params_check(const struct model_params *p, char *err, size_t errlen);
/*
 * Parse a parameter file: lines `key = value` (value a decimal integer), `#` comments,
 * blank lines; at most MODEL_PARAMS_LINE_MAX bytes a line. Keys not listed are kept at
 * their current value in *p, so start from model_params_default(). Unknown keys, duplicate
 * keys, bad or out-of-range values and over-long lines are rejected: returns -1 and writes
 * "line N: why" into err. After the last line the whole set is checked
 * (model_params_check): a rule between keys that fails is reported on the line of the last
 * key of it that the file sets, with each key's value and where it came from
 * ("line 5: l1_bytes must be ... (l1_bytes = 32768 by default, l1_ways = 3 on line 5)").
 * A UTF-8 byte order mark before the first line is skipped. *p is only changed on success.
 */
#define MODEL_PARAMS_LINE_MAX 256
#define MODEL_PARAMS_FILE_MAX 16384 /* whole file: model_params_parse refuses more */
int model_params_parse(struct model_params *p, const char *text, size_t len, char *err,
		       size_t errlen);
/* Write every key as `key = value\n` (what `blab calibrate` will write). Returns the length
 * it needed (like snprintf); the output is complete when that is < cap. */
size_t model_params_write(const struct model_params *p, char *buf, size_t cap);

/*
 * blab calibrate's fault and unmap costs from a page-fault loop on the host (will-it-scale's
 * page_fault1: map 128 MB anonymous, write a byte in each page, unmap), measured per page:
 * fault_ps the write fault took (its clear_page() included), unmap_ps the munmap. At p's
 * cpu_mhz that is cycles, from which it takes what the model already charges a page on each
 * side (model_pf1_fault_other(), model_pf1_unmap_other(); clear_page_cycles on the fault
 * side) and sets p->fault_cycles and p->unmap_cycles to the rest. Pure arithmetic, no timing.
 * Returns 0, or -1 with the reason in err and *p unchanged: a measurement of 0 or over
 * MODEL_HOST_PS_MAX, or a rest below 1 cycle or over the key's 1000000.
 */
#define MODEL_HOST_PS_MAX 1000000000000ull /* 1 s a page: past it, no measurement of a fault */
int model_fault_costs_from_host(struct model_params *p, uint64_t fault_ps, uint64_t unmap_ps,
				char *err, size_t errlen);
/* What the model charges a page of page_fault1 (one task, steady state) besides fault_cycles
 * and clear_page_cycles in the fault (the allocation from the pcp and its share of the bulk
 * refill, the LRU add), and besides unmap_cycles in the munmap (zap_pte_range's struct page
 * write, release_pages(), the free to the pcp and its share of the bulk free): cycles, from
 * p's DRAM and LLC latencies (params.c says where the figures come from). */
uint32_t model_pf1_fault_other(const struct model_params *p);
uint32_t model_pf1_unmap_other(const struct model_params *p);

/* CPUs a run may use: the machine's, at most BLAB_MODEL_MAX_CPUS */
static inline uint32_t model_cpus_max(const struct model_params *p)
{
	uint32_t n = p->sockets * p->cores_per_socket * p->threads_per_core;
	return n < BLAB_MODEL_MAX_CPUS ? n : BLAB_MODEL_MAX_CPUS;
}

/* The cycles a page fault's entry work costs (the sim workloads' BLAB_COST_FAULT):
 * fault_cycles, or when it is 0, 250 x list_op_cycles (1000 at the defaults, an estimate
 * that scales with the other plain work) */
static inline uint32_t model_fault_cycles(const struct model_params *p)
{
	return p->fault_cycles ? p->fault_cycles : 250u * p->list_op_cycles;
}

/* ... and an unmapped page's (BLAB_COST_UNMAP): unmap_cycles, or 25 x list_op_cycles */
static inline uint32_t model_unmap_cycles(const struct model_params *p)
{
	return p->unmap_cycles ? p->unmap_cycles : 25u * p->list_op_cycles;
}

/* MB/s a socket's memory controller carries (channels x MT/s x 8 bytes x the sustained
 * fraction), 0 with no limit */
static inline uint64_t model_mem_limit_mbs(const struct model_params *p)
{
	return (uint64_t)p->mem_channels * p->mem_mts * 8u * p->mem_sustained_pct / 100u;
}

#ifdef __cplusplus
}
#endif
#endif
