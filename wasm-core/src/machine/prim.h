/*
 * prim.h - what every machine is and provides, as mimalloc's prim.h is for its platforms:
 * struct blab_machine (its kind, clock, locks and event log), the kernel's addresses that
 * machines see, and the functions each machine behind machine.h's hooks defines
 * (_mach_model_* in machine/model/hooks.c, _mach_real_* in machine/real/real_machine.c).
 * Those backends include this header; the allocator includes machine.h, which includes it.
 *
 * Addresses are the kernel's, not the host's (x86-64, 4-level paging, no KASLR): struct
 * page of pfn p at VMEMMAP_START + p * 64, its frame at PAGE_OFFSET + p * 4096. Host
 * pointers never reach a machine, so native and WASM compute the same cache behaviour.
 */
#ifndef BLAB_MACHINE_PRIM_H
#define BLAB_MACHINE_PRIM_H

#include <stdint.h>
#include "blab.h"
#include "base/events.h"

#define PAGE_SHIFT 12
#define VMEMMAP_START 0xffffea0000000000ull
#define PAGE_OFFSET 0xffff888000000000ull

static inline uint64_t page_vaddr(uint64_t pfn)
{
	return VMEMMAP_START + pfn * 64u;
}
static inline uint64_t frame_vaddr(uint64_t pfn)
{
	return PAGE_OFFSET + (pfn << PAGE_SHIFT);
}

/*
 * A struct page line is reported by its pfn. Any other line (a slab object, a page frame, a
 * per-CPU or socket line) by its address minus PAGE_OFFSET, flagged BLAB_EVF_SLAB: the full
 * 64-bit address would not fit the 53 bits a JavaScript number holds exactly.
 */
static inline int line_is_page(uint64_t vaddr)
{
	return vaddr >= VMEMMAP_START && vaddr - VMEMMAP_START < BLAB_MAX_START_PFN * 64u;
}
static inline uint64_t line_event_pfn(uint64_t vaddr)
{
	if (line_is_page(vaddr))
		return (vaddr - VMEMMAP_START) / 64u;
	return vaddr - PAGE_OFFSET;
}
static inline unsigned line_event_flags(uint64_t vaddr)
{
	return line_is_page(vaddr) ? 0 : BLAB_EVF_SLAB;
}

/* cost classes for mach_work() */
enum blab_cost {
	BLAB_COST_LIST_OP = 0, /* a list_add / list_del */
	BLAB_COST_BUDDY_CALC = 1,
	BLAB_COST_CALL = 2,
	BLAB_COST_CLEAR_PAGE = 3, /* clear_page() of a 4 KB frame (its lines: mach_clear_page) */
	BLAB_COST_FAULT = 4,      /* page fault entry + handle_mm_fault bookkeeping (sim workloads) */
	BLAB_COST_UNMAP = 5,      /* zap_pte_range + release_pages work per page (sim workloads) */
	BLAB_COST_NR
};

#define MACH_NLOCKS 3 /* per zone: BLAB_LOCK_ZONE, _LRU, _SLAB_LIST */
/*
 * pcp->lock (6.0, 4b23a68f9536): CPU c's is lock id MACH_LOCK_PCP + c. One per CPU of the
 * machine, shared by that CPU's lists in every zone (each CPU of a run allocates from one
 * zone). Its own CPU takes it with a trylock around every pcp operation; another CPU takes
 * it to drain the lists remotely (443c2accd1b6). It is never written to the event log: the
 * lock timeline draws zone->lock and lru_lock, and an uncontended pcp->lock is only cycles.
 */
#define MACH_LOCK_PCP MACH_NLOCKS
static inline int mach_lock_is_pcp(unsigned lockid)
{
	return lockid >= MACH_LOCK_PCP;
}

struct model_machine; /* machine/model/model.h */
struct real_machine;  /* machine/real/real.h */

struct blab_machine {
	uint8_t kind;         /* enum blab_machine_kind */
	/* model: this zone's BLAB_LOCK_* are the model's lock ids lock_base + BLAB_LOCK_* (node x
	 * MODEL_NODE_LOCKS), and impl is another zone's machine, not freed with this one
	 * (mach_init_shared); both 0 for a zone with its own machine */
	uint8_t lock_base;
	uint8_t impl_shared;
	void *impl;           /* the model's or the real machine's state; NULL for plain */
	/* model: each CPU's virtual clock, the model's own array (nclocks CPUs), and what each
	 * cost class of mach_work() adds to it (from the model's parameters) */
	uint64_t *clock;
	uint32_t nclocks;
	uint32_t work_cycles[BLAB_COST_NR];
	uint64_t now;         /* plain: op number (counted by the op layer, mach_op_begin) */
	uint16_t lock_owner[MACH_NLOCKS]; /* plain: BLAB_CPU_NONE when free */
	uint64_t lock_taken_at[MACH_NLOCKS];
	uint16_t *pcp_owner;  /* plain: each CPU's pcp->lock holder (BLAB_CPU_NONE: free) */
	uint32_t npcp;        /* plain: CPUs with a pcp->lock */
	uint64_t misses_zone_locked; /* model: cache misses while this zone's lock was held */
	uint64_t parked;             /* model: lock requests that had to park (expected 0) */
	/* real: where the struct pages live on the host, for prefetch() */
	const void *host_pages;
	uint64_t host_first_pfn;
	uint32_t host_npages;
	uint32_t host_page_stride; /* bytes from one struct page to the next (the zone's) */
	struct blab_log log;  /* records are stamped with this machine's clock */
};

static inline struct model_machine *mach_model(const struct blab_machine *m)
{
	return (struct model_machine *)m->impl;
}
static inline struct real_machine *mach_real(const struct blab_machine *m)
{
	return (struct real_machine *)m->impl;
}

/* A record stamped `time` into m's log (a backend knows its clock; the allocator's records
 * go through machine.h's MACH_EMIT, which stamps them with mach_now()). */
static inline void mach_log_event(struct blab_machine *m, uint64_t time, unsigned type,
				  uint64_t pfn, unsigned order, unsigned cpu, unsigned mt,
				  unsigned path, unsigned flags, uint32_t arg0, uint32_t arg1)
{
	if (!m->log.sink && (m->log.full || !m->log.cap))
		return;
	log_push(&m->log, blab_event_make(time, pfn, type, order, cpu, mt, path, flags, arg0,
					  arg1));
}

/* ---- behind the hooks: machine/model/hooks.c and machine/real/real_machine.c ---- */

void _mach_model_touch(struct blab_machine *m, unsigned cpu, uint64_t vaddr, int write,
		       unsigned path);
void _mach_model_touch_ahead(struct blab_machine *m, unsigned cpu, uint64_t vaddr,
			     unsigned path);
void _mach_model_touch_line(struct blab_machine *m, unsigned cpu, uint64_t vaddr, int write,
			    unsigned path);
void _mach_model_store(struct blab_machine *m, unsigned cpu, uint64_t vaddr, unsigned path);
void _mach_model_prefetch(struct blab_machine *m, unsigned cpu, uint64_t vaddr, unsigned path);
void _mach_model_lock(struct blab_machine *m, unsigned cpu, unsigned lockid);
int _mach_model_trylock(struct blab_machine *m, unsigned cpu, unsigned lockid);
void _mach_model_unlock(struct blab_machine *m, unsigned cpu, unsigned lockid);
int _mach_model_lock_busy(const struct blab_machine *m, unsigned cpu, unsigned lockid);
void _mach_model_clear_page(struct blab_machine *m, unsigned cpu, uint64_t pfn, unsigned lines,
			    unsigned path);

int _mach_model_init(struct blab_machine *m, const struct model_params *p, unsigned cpus,
		     uint64_t first_pfn, uint64_t pages);
int _mach_model_check_shared(const struct model_machine *mm, unsigned node, unsigned cpus,
			     uint64_t first_pfn, uint64_t pages);
void _mach_model_init_shared(struct blab_machine *m, struct model_machine *mm, unsigned node);
void _mach_model_free(struct blab_machine *m);
/* the host bytes _mach_model_init() takes for these arguments (model_machine_mem_bytes()) */
uint64_t _mach_model_mem_bytes(const struct model_params *p, unsigned cpus, uint64_t pages);

void _mach_real_prefetch(struct blab_machine *m, uint64_t pfn);
uint64_t _mach_real_now(void);
void _mach_real_lock(struct blab_machine *m, unsigned cpu, unsigned lockid);
int _mach_real_trylock(struct blab_machine *m, unsigned cpu, unsigned lockid);
void _mach_real_unlock(struct blab_machine *m, unsigned cpu, unsigned lockid);
void _mach_real_clear_page(struct blab_machine *m, unsigned cpu);
int _mach_real_init(struct blab_machine *m, unsigned cpus, int timed);
/* the host bytes _mach_real_init() takes for `cpus` */
uint64_t _mach_real_mem_bytes(unsigned cpus);
void _mach_real_free(struct blab_machine *m);

#endif
