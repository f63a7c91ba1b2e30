/*
 * The model machine: deterministic virtual CPUs, a cache model, a lock model and a scheduler.
 *
 * These modules know nothing about the allocator. They see 64-bit kernel virtual addresses,
 * CPU numbers, lock ids, code path ids and virtual cycle clocks, and they answer with cycles
 * and outcomes. The core's machine hooks (src/machine.h) call them:
 *
 *   mach_touch(z, cpu, vaddr, write, path) -> cache_access()   and clock += cycles
 *   mach_prefetch(z, cpu, vaddr, path)     -> cache_prefetch() and clock += prefetch_issue
 *   mach_lock / mach_unlock                -> lock_acquire() / lock_release()
 *   mach_work(z, cpu, cost)                -> clock += a cost from struct model_params
 *
 * and the simulation loop runs one resumable-op step of sched_peek()'s CPU at a time.
 * docs/model.md explains the structure, every parameter and what the model leaves out.
 *
 * Determinism: only fixed-width integers decide state and time; no host pointers, no floats.
 */
#ifndef BLAB_MODEL_H
#define BLAB_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "blab_model.h"

#define MODEL_MAX_CPUS 256
#define MODEL_NO_CPU 0xffffu
#define MODEL_LINE_SHIFT 6 /* 64-byte cache lines */

/* Kernel virtual addresses (x86-64, 4-level paging, no KASLR). */
#define MODEL_VMEMMAP_START 0xffffea0000000000ull /* struct page of pfn p: + p * 64 */
#define MODEL_PAGE_OFFSET 0xffff888000000000ull   /* page frame of pfn p:  + p * 4096 */
#define MODEL_PAGE_VADDR(pfn) (MODEL_VMEMMAP_START + (uint64_t)(pfn) * 64u)
#define MODEL_FRAME_VADDR(pfn) (MODEL_PAGE_OFFSET + (uint64_t)(pfn) * 4096u)

/* ---------------------------------------------------------------- parameters (params.c) */

/* struct model_params, its defaults, checks and file format: include/blab_model.h */

static inline uint32_t model_cpu_core(const struct model_params *p, uint32_t cpu)
{
	return cpu % (p->sockets * p->cores_per_socket);
}
static inline uint32_t model_cpu_socket(const struct model_params *p, uint32_t cpu)
{
	return model_cpu_core(p, cpu) / p->cores_per_socket;
}

/* ------------------------------------------------- cache model (cache.c and cache_*.c) */

enum cache_outcome {
	CACHE_L1 = 0,
	CACHE_L2 = 1,
	CACHE_LLC = 2,
	CACHE_REMOTE = 3, /* the line was Modified in another core's private cache */
	CACHE_MEM = 4,
	CACHE_PF_HIT = 5,  /* a prefetch had landed before this access */
	CACHE_PF_LATE = 6, /* a prefetch was still in flight: paid the rest */
	CACHE_NR_OUTCOMES = 7
};

struct cache_result {
	uint32_t outcome; /* enum cache_outcome */
	uint32_t cycles;
};

struct cache_counters {
	uint64_t access[CACHE_NR_OUTCOMES]; /* accesses by outcome */
	uint64_t writes;
	uint64_t cycles;         /* cycles paid by accesses */
	uint64_t prefetches;     /* prefetches that started a fill */
	uint64_t pf_redundant;   /* prefetches of a line already in L1 (nothing to do) */
	uint64_t pf_wasted;      /* prefetched lines evicted or invalidated before use */
	uint64_t cleared_lines;  /* frame lines written by cache_clear_page() */
};

/* A prefetched line that left L1 unused: the PREFETCH_WASTED event's content. */
struct cache_wasted {
	uint64_t vaddr; /* start of the line */
	uint16_t cpu;   /* CPU that prefetched it */
	uint8_t path;   /* code path that prefetched it */
};
/* one access or prefetch adds at most two, one cache_clear_page() at most 64 */
#define MODEL_WASTED_MAX 80

/* One way's content, as copied out of a level's arrays (the way a fill evicts). */
struct cache_way {
	uint64_t line; /* vaddr >> 6; 0 = empty (no kernel address has line number 0) */
	uint32_t ver;  /* directory version the copy was filled at; stale when different */
	uint8_t pf;    /* L1 only: filled by a prefetch, not used yet */
	uint8_t path;  /* L1 only: code path that issued that prefetch */
	uint8_t cpu;   /* L1 only: CPU that issued it */
};

/* L1 only, per way: the prefetch mark (struct cache_way's pf, path, cpu) */
struct cache_pfmark {
	uint8_t pf, path, cpu, spare;
};

/* One way of an L1 or L2 as a level keeps it: its line, the version it was filled at and
 * (L1 only; zero in L2) its prefetch mark side by side, so that a look at a way, the most
 * recent one's test above all, reads one host cache line instead of three arrays. */
struct cache_slot {
	uint64_t line; /* struct cache_way's line */
	uint32_t ver;  /* struct cache_way's ver */
	struct cache_pfmark pfm;
};

/* Per set: its LRU order, which ways hold what, and how far it has caught up with the
 * clear_page() fillers applied lazily (cache_clear.h, "clear_page() in bulk"). */
struct cache_set {
	/* True LRU order of a set of up to 16 ways: the way ranked r (0 = most recently
	 * used) in bits 4r..4r+3, the nibbles above the last rank 0xf, so that a touch is a
	 * shift and a fill of the LRU way a rotation (cache_lru.h, "LRU order"). Wider sets keep
	 * their ranks in cache_level.age instead. */
	uint64_t order;
	/* bit per way: holds a tracked line / holds anything (a tracked line or a
	 * clear_page() filler) */
	uint64_t tracked, used;
	/* sets of up to 16 ways, bit per rank: the way ranked r holds a filler */
	uint64_t filler_ranks;
	/* the clear_page() fillers this set has taken in: the LLC's aggregated stream, or the
	 * lazy clears of its group (L1, L2) */
	uint64_t synced;
	/* L2 with lazy clears: the lazy clear count of its group at which a filler would
	 * evict something other than a filler (0: never) */
	uint64_t deadline;
	/* sets of up to 16 ways: a one-byte hash of each way's line (cache_lru.h, "Set
	 * lookups"), so that a lookup compares eight ways per 64-bit word and reads the tag
	 * of a candidate only. With it a set's state is one 64-byte host cache line. */
	uint8_t fp[16];
};

struct cache_level {
	/* The ways, set-major (set * assoc + way), 64-byte aligned: a set of up to 16 ways
	 * is looked up through its hashes (cache_set.fp), so a lookup reads the slot of a
	 * candidate only, not every tag. */
	struct cache_slot *way;
	uint64_t *ready;        /* L1 only: cycle at which a prefetched line lands */
	struct cache_set *sets;
	/* sets of more than 16 ways: the LRU rank of each way inside its set (0 = most
	 * recently used), set-major as the ways */
	uint8_t *age;
	/* L1, L2 of at least 64 sets of up to 16 ways (lazy): lazy clear_page()s so far, per
	 * group of 64 sets (one page's lines). Other levels apply every clear at once and
	 * keep it all zero, so a look at a set tests one count, not whether there is one. */
	uint64_t *clears;
	uint32_t lazy;
	/* L2 with clears: per group, 32 masks of its sets by deadline % 32 */
	uint64_t *due;
	uint32_t pf_marks; /* L1: ways holding a prefetch mark */
	uint32_t nsets, assoc;
	uint32_t set_mask; /* nsets - 1 when nsets is a power of two, else 0 (hashed index) */
};

/* A line an LLC set holds: which, at what version, and when it was last used, counted in
 * the clear_page() fillers the set had taken in by then (the count's low 32 bits:
 * cache_llc.h, "The LLC") */
struct llc_line {
	uint64_t line;
	uint32_t used_at;
	uint32_t ver;
};

/* An LLC set: a 16-byte head and its lines, most recent first, in one block of whole host
 * cache lines, so that a look at a set with a few lines reads one */
struct llc_set {
	uint64_t synced;  /* the fillers it had taken in when last looked at */
	uint32_t nlines;  /* slots in use (the lines still in the set come first) */
	uint32_t pad;
	struct llc_line line[];
};

/* A socket's LLC: its sets, the clear_page() fillers counted, not stored */
struct cache_llc {
	struct llc_set *sets; /* `stride` bytes each, 64-byte aligned */
	uint32_t stride;
	/* the aggregated clear_page() stream: fillers put into this LLC so far */
	uint64_t fillers;
	/* ways no filler has taken yet: the stream's first fillers fill them and push nothing
	 * out; every filler after them pushes a dirty line out (llc_add_fillers) */
	uint64_t room;
	uint32_t nsets, assoc;
	uint32_t set_mask; /* as cache_level's */
};

/* What the directory knows of one line: 8 bytes, so a struct page's entry (indexed by pfn)
 * shares its host cache line with seven neighbours' */
struct cache_dir_page {
	uint32_t ver;
	uint16_t owner; /* CPU that holds it Modified, or MODEL_NO_CPU */
	/* the core whose write gave the line its version (MODEL_NO_CPU: none since the entry
	 * was made): that core's L2 copy and its socket's LLC copy, whatever version they were
	 * filled at, count as current (cache.c, "Coherence by versions") */
	uint16_t own_core;
};

/* a slot of the hashed part: which line it describes, and that line's entry */
struct cache_dir_entry {
	uint64_t line;
	struct cache_dir_page e;
};

/* ---------------------------------------------------- memory controllers (memctl.h) */

#define MEMCTL_EPOCH_SHIFT 10 /* an epoch of the calendar: 1024 cycles */
#define MEMCTL_EPOCHS 1024u   /* the calendar's span: 2^20 cycles */

struct mem_ctl_counters {
	uint64_t read_lines;   /* lines filled from DRAM: demand misses and prefetches */
	uint64_t wb_lines;     /* clear_page()'s dirty lines written back (pushed out of the LLC) */
	uint64_t rfo_lines;    /* the same lines read for ownership when cleared again */
	uint64_t queue_cycles; /* the reads' waits beyond mem_cycles */
	uint64_t stall_cycles; /* clear_page()s held beyond clear_page_cycles */
	uint64_t spilled;      /* requests that found their epoch full */
	uint64_t end;          /* the cycle the last of the traffic booked so far is carried */
};

/* A socket's memory controller (memctl.h): a calendar of epochs, each carrying cap bytes */
struct mem_ctl {
	uint32_t cap;   /* bytes an epoch carries at the sustained rate; 0: no limit */
	uint32_t svc16; /* one line's burst on one channel, in 1/16 cycles (the M/D/1 service) */
	uint32_t rfo;   /* clear_page_rfo: a write-back also reads the line back when cleared */
	uint64_t head;  /* the newest epoch booked */
	uint32_t used[MEMCTL_EPOCHS];  /* bytes booked in epoch e, at e % MEMCTL_EPOCHS */
	uint32_t reads[MEMCTL_EPOCHS]; /* of those, the reads' */
	struct mem_ctl_counters c;
};

struct cache_model {
	struct model_params p;
	uint32_t ncpus, ncores, nsockets; /* what this run uses */
	/* L1, L2 and LLC have model_params_default()'s 8, 16 and 11 ways: the access and
	 * clear paths (cache.c, cache_clear.c) run code compiled for them */
	uint32_t default_geom;
	uint16_t core_of[MODEL_MAX_CPUS];  /* model_cpu_core(), precomputed: no division */
	struct cache_level *l1_of[MODEL_MAX_CPUS]; /* each CPU's core's L1 */
	uint32_t l1_narrow; /* the L1 keeps its LRU order in a word (up to 16 ways) */
	uint8_t socket_of[MODEL_MAX_CPUS];
	uint8_t core_socket[MODEL_MAX_CPUS]; /* the socket of each core */
	uint64_t *fb;                      /* per CPU: fill_buffers completion times, a ring */
	uint8_t fb_head[MODEL_MAX_CPUS];
	struct cache_level *l1, *l2; /* per core */
	struct cache_llc *llc;       /* per socket */
	struct mem_ctl *mc;          /* per socket: its memory controller */
	/* lines of a frame each clear_page() filler stands for (64 / clear_lines): the
	 * stream's write-backs are counted in frame lines */
	uint32_t clear_stride;
	/* directory: struct page lines indexed densely by pfn, everything else hashed into a
	 * fixed-size direct-mapped table (a collision forgets the old line's history) */
	struct cache_dir_page *dir_pages;
	uint64_t dir_npages;
	uint64_t dir_base_line; /* the line of dir_pages[0]: struct page of the first dense pfn */
	struct cache_dir_entry *dir_hash;
	uint32_t dir_hash_mask;
	uint32_t dir_hash_live; /* hashed slots in use */
	/* hashed slots holding a line of a frame that may be cleared (cache_set_frames): 0 lets
	 * cache_clear_page skip the probe. Lines of struct zone, per-CPU data and locks live in
	 * the direct map too, but outside the zone's frames, so they do not count. */
	uint64_t dir_frame_live;
	uint64_t frame_lo_line, frame_hi_line;
	uint32_t ver_clock; /* versions come from one counter, so a forgotten line's copies go stale */
	uint64_t dir_forgotten;
	/* counters (read them with cache_cpu_counters, cache_path_counters): the accesses
	 * cache_access_mru() answers only as L1 hits by reads (0) and writes (1), the rest in
	 * full */
	uint64_t mru_cpu[MODEL_MAX_CPUS][2];
	uint64_t mru_path[256][2];
	struct cache_counters cnt_cpu[MODEL_MAX_CPUS];
	struct cache_counters cnt_path[256];
	/* wasted prefetches not yet taken by cache_take_wasted(); one access or prefetch adds at
	 * most two, so draining after each call never loses any */
	struct cache_wasted wasted[MODEL_WASTED_MAX];
	uint32_t nwasted;
	uint64_t wasted_lost; /* not recorded because nobody drained the list */
};

/*
 * ncpus: CPUs of this run (1..model_cpus_max). npages: struct page lines to track densely
 * (max pfn + 1; pages beyond are hashed). dir_hash_lines: capacity of the hashed directory,
 * rounded up to a power of two (0 = 65536). Returns 0, or -1 when parameters are bad or
 * memory is short. All memory is taken here; accesses never allocate.
 */
int cache_init(struct cache_model *m, const struct model_params *p, uint32_t ncpus,
	       uint64_t npages, uint32_t dir_hash_lines);
/* cache_init() whose dense directory covers pfns first_pfn .. first_pfn + npages - 1 only (a
 * zone that starts high must not pay 8 bytes for every pfn below it); other struct page
 * lines are hashed. */
int cache_init_at(struct cache_model *m, const struct model_params *p, uint32_t ncpus,
		  uint64_t first_pfn, uint64_t npages, uint32_t dir_hash_lines);
/* The host bytes cache_init() takes for these arguments (each part counted beside its
 * allocations, in cache_init.c, cache_lru.c, cache_llc.c and cache_dir.c, so that the host
 * memory bound and the cache cannot drift apart). */
uint64_t cache_mem_bytes(const struct model_params *p, uint32_t ncpus, uint64_t npages,
			 uint32_t dir_hash_lines);
void cache_free(struct cache_model *m);
/* Only frames first_pfn .. first_pfn + npfns - 1 are ever passed to cache_clear_page (the
 * zone's). Without this call every hashed line is taken for a possible frame line, which is
 * correct but keeps cache_clear_page on its slow path. */
void cache_set_frames(struct cache_model *m, uint64_t first_pfn, uint64_t npfns);

/* CPU cpu reads (write = 0) or writes the line holding vaddr at its clock `now`. The caller
 * adds .cycles to the CPU's clock. */
struct cache_result cache_access(struct cache_model *m, uint32_t cpu, uint64_t vaddr,
				 int write, uint64_t now, uint8_t path);
/* cache_access() for an access that cache_access_mru() did not answer */
struct cache_result cache_access_slow(struct cache_model *m, uint32_t cpu, uint64_t vaddr,
				      int write, uint64_t now, uint8_t path);

/* The directory entry of a line it knows already, or NULL. */
static inline const struct cache_dir_page *cache_dir_find(const struct cache_model *m,
							   uint64_t line)
{
	uint64_t i = line - m->dir_base_line;
	if (i < m->dir_npages)
		return &m->dir_pages[i];
	uint32_t h = (uint32_t)((line * 0x9E3779B97F4A7C15ull) >> 32) & m->dir_hash_mask;
	return m->dir_hash[h].line == line ? &m->dir_hash[h].e : NULL;
}

/*
 * The commonest access, answered inline: a line the directory knows, the most recent of its
 * L1 set (a set of up to 16 ways with no clear_page() filler pending), current, not a
 * prefetch, and not a write that takes ownership. cache_access()'s answer for it is an L1
 * hit that changes nothing but the counters (touching the most recent way is a no-op), and
 * allocator code touches one struct page several times running. Returns 1 (counted, the
 * cycles are l1_cycles) or 0: call cache_access_slow().
 */
static inline int cache_access_mru(struct cache_model *m, uint32_t cpu, uint64_t line,
				   int write, uint8_t path)
{
	const struct cache_dir_page *d = cache_dir_find(m, line);
	const struct cache_level *l1 = m->l1_of[cpu];
	uint32_t s1 = (uint32_t)line & l1->set_mask;

	if (!d || !m->l1_narrow)
		return 0;
	const struct cache_set *t = &l1->sets[s1];
	const struct cache_slot *w = &l1->way[(uint64_t)s1 * l1->assoc + (t->order & 0xfu)];
	if (l1->clears[s1 >> 6] != t->synced || w->line != line ||
	    w->ver != d->ver || w->pfm.pf || (write && d->owner != cpu))
		return 0;
	m->mru_cpu[cpu][write != 0]++;
	m->mru_path[path][write != 0]++;
	return 1;
}
/* prefetch() of the line holding vaddr at `now`: the line is put in the core's L1 as in
 * flight. Returns the cycles until it lands: 0 when the line was already in L1, the rest
 * when an earlier prefetch of it is still in flight. */
uint32_t cache_prefetch(struct cache_model *m, uint32_t cpu, uint64_t vaddr, uint64_t now,
			uint8_t path);
/*
 * clear_page() of the 4 KB frame at vaddr by CPU cpu: nlines (1..64) of its 64 lines, spread
 * evenly, are written. They go into the core's L1 and L2 as untracked lines (no directory
 * entry, never hit by cache_access), evicting what true LRU says, and what the L2 pushes out
 * goes on as usual; the LLC sees them only as an aggregated stream (docs/model.md). They use
 * no fill buffer; the caller charges clear_page_cycles, and this returns the cycles the clear
 * waits beyond that for its socket's memory controller to carry the dirty lines the stream
 * pushed out of the LLC (memctl_writeback()): 0 while the controller keeps up. A line of the
 * frame the directory knows (touched through cache_access) is written as an ordinary access.
 */
uint32_t cache_clear_page(struct cache_model *m, uint32_t cpu, uint64_t vaddr, uint32_t nlines,
			  uint64_t now, uint8_t path);
/* The memory controllers' counters summed over the sockets (`end`: the latest socket's), and
 * the busiest socket's bytes */
void cache_mem_total(const struct cache_model *m, struct mem_ctl_counters *out,
		     uint64_t *busiest_bytes);
/* Move up to max pending wasted prefetches (oldest first) to out; returns how many. The
 * core drains this after each cache_access()/cache_prefetch() to emit PREFETCH_WASTED. */
uint32_t cache_take_wasted(struct cache_model *m, struct cache_wasted *out, uint32_t max);
/* End of run: prefetched lines still unused count as wasted, each passed to fn (if not
 * NULL). Returns how many. */
uint64_t cache_finish_each(struct cache_model *m,
			   void (*fn)(void *ctx, const struct cache_wasted *w), void *ctx);
uint64_t cache_finish(struct cache_model *m);
/* Invariant checker: in every set the LRU ranks are a permutation of 0..ways-1 and no line
 * appears twice; no copy is newer than its directory entry; L1 prefetch marks only on
 * non-empty ways. Returns 0, or -1 with the first violation in err. O(cache size). */
int cache_check(const struct cache_model *m, char *err, size_t errlen);
/* Sum of the per-CPU counters. */
void cache_total(const struct cache_model *m, struct cache_counters *out);
/* The counters of one CPU, of one code path. */
struct cache_counters cache_cpu_counters(const struct cache_model *m, uint32_t cpu);
struct cache_counters cache_path_counters(const struct cache_model *m, uint32_t path);

/* ---------------------------------------------------------------- lock model (lock.c) */

/* Lock ids: node n's zone->lock, lru_lock and slab list_lock are n x MODEL_NODE_LOCKS +
 * LOCK_ZONE, + LOCK_LRU, + LOCK_SLAB_LIST; a machine with one zone has node 0's only. */
enum { LOCK_ZONE = 0, LOCK_LRU = 1, LOCK_SLAB_LIST = 2 };
#define MODEL_NODE_LOCKS 3
#define MODEL_MAX_NODES 8 /* one per socket at most (model_params_check: sockets <= 8) */
#define MODEL_MAX_LOCKS (MODEL_NODE_LOCKS * MODEL_MAX_NODES)

struct lock_counters {
	uint64_t acquisitions;
	uint64_t contended;    /* found the lock held or with waiters */
	uint64_t wait_cycles;  /* from asking to holding: spin + line transfer + atomic */
	uint64_t spin_cycles;  /* the contended part of wait_cycles: waiting for other holders */
	uint64_t hold_cycles;
};

struct model_lock {
	uint64_t free_at;     /* released at this time (0: never taken) */
	uint64_t held_since;  /* valid while holder != MODEL_NO_CPU */
	uint16_t holder;      /* MODEL_NO_CPU when free */
	uint16_t last_holder; /* where the lock's cache line is */
	/* FIFO of CPUs waiting while the lock is held across scheduler steps */
	uint16_t qhead, qlen;
	uint16_t queue[MODEL_MAX_CPUS];
	uint64_t arrived[MODEL_MAX_CPUS]; /* indexed by CPU */
	struct lock_counters c;
};

/*
 * Each CPU's pcp->lock (6.0+): taken by its own CPU around every pcp operation, with a
 * trylock, and by another CPU draining its lists. Small, with no per-CPU counters or queue:
 * a CPU asks for another's only when that CPU is not stopped inside it (the op layer
 * checks), so a request never has to queue.
 */
struct model_pcp_lock {
	uint64_t free_at, held_since;
	uint16_t holder, last_holder;
	uint64_t acquisitions, trylock_failed, spin_cycles;
};

struct lock_model {
	const struct model_params *p; /* costs and the CPU -> socket map; not owned */
	uint32_t nlocks, ncpus;
	struct model_lock lock[MODEL_MAX_LOCKS];
	struct lock_counters cpu[MODEL_MAX_CPUS][MODEL_MAX_LOCKS];
	struct model_pcp_lock pcp[MODEL_MAX_CPUS]; /* indexed by the owner CPU */
};

/* p must outlive lm. nlocks 1..MODEL_MAX_LOCKS. Returns 0 or -1. */
int lock_init(struct lock_model *lm, const struct model_params *p, uint32_t nlocks,
	      uint32_t ncpus);

/*
 * CPU cpu asks for lock id at time `now`. The scheduler calls this only when `now` is the
 * lowest clock of all CPUs, so calls arrive in time order and serving them in call order is
 * FIFO, as a queued spinlock is.
 * If the lock is free (possibly released in the future by a step that already ran), the CPU
 * holds it at max(now, free_at) + line transfer (when the last holder was another core) +
 * atomic: that time is stored in *held_at and the call returns 1.
 * If another CPU holds it right now (it stopped inside its critical section), the CPU is
 * queued and the call returns 0: park it; lock_release() will hand the lock over.
 */
int lock_acquire(struct lock_model *lm, uint32_t id, uint32_t cpu, uint64_t now,
		 uint64_t *held_at);
/*
 * Release at time now (>= the time it was taken). If CPUs are queued, the head gets the
 * lock: returns its CPU number and stores the time it holds the lock in *next_at (set that
 * CPU's clock to it and unpark it). Otherwise returns MODEL_NO_CPU.
 */
uint32_t lock_release(struct lock_model *lm, uint32_t id, uint32_t cpu, uint64_t now,
		      uint64_t *next_at);
/*
 * spin_trylock() of lock id by cpu at `now`: 1 with *held_at set when the lock is free at
 * that time (as lock_acquire, but never queued); 0, nothing changed, when another CPU holds
 * it across a step or a critical section that already ran ends after `now`.
 */
int lock_try(struct lock_model *lm, uint32_t id, uint32_t cpu, uint64_t now, uint64_t *held_at);
/* The pcp->lock of CPU owner, asked by cpu at `now`: lock_pcp_try fails as lock_try does;
 * lock_pcp_take waits for a critical section that already ran (its holder must not be
 * stopped inside it) and returns when cpu holds it; lock_pcp_release frees it. */
int lock_pcp_try(struct lock_model *lm, uint32_t owner, uint32_t cpu, uint64_t now,
		 uint64_t *held_at);
uint64_t lock_pcp_take(struct lock_model *lm, uint32_t owner, uint32_t cpu, uint64_t now);
void lock_pcp_release(struct lock_model *lm, uint32_t owner, uint32_t cpu, uint64_t now);
/* Invariant checker: holders, queues and counters are consistent. Returns 0 or -1. */
int lock_check(const struct lock_model *lm, char *err, size_t errlen);
/* spin cycles on lock id, in basis points (1/100 %) of total_cycles (all CPUs' cycles). */
uint32_t lock_contention_bp(const struct lock_model *lm, uint32_t id, uint64_t total_cycles);
/* the same for spin cycles summed over several locks (one per node) */
uint32_t lock_spin_bp(uint64_t spin, uint64_t total_cycles);

/* ---------------------------------------------------------------- scheduler (sched.c) */

enum { SCHED_RUNNABLE = 0, SCHED_PARKED = 1, SCHED_FINISHED = 2 };

struct sched {
	uint32_t ncpus, heap_len;
	uint64_t clock[MODEL_MAX_CPUS];
	uint16_t heap[MODEL_MAX_CPUS]; /* runnable CPUs, min-heap on (clock, cpu) */
	uint16_t pos[MODEL_MAX_CPUS];  /* index in heap; valid while runnable */
	uint8_t state[MODEL_MAX_CPUS];
};

/* ncpus 1..MODEL_MAX_CPUS, all runnable at clock 0. Returns 0 or -1. */
int sched_init(struct sched *s, uint32_t ncpus);
/* The runnable CPU with the lowest clock, ties to the lowest CPU number; MODEL_NO_CPU when
 * none is runnable. */
static inline uint32_t sched_peek(const struct sched *s)
{
	return s->heap_len ? s->heap[0] : MODEL_NO_CPU;
}
/* Set a runnable CPU's clock (usually forward, after it ran a step). */
void sched_set_clock(struct sched *s, uint32_t cpu, uint64_t clock);
void sched_park(struct sched *s, uint32_t cpu);
void sched_unpark(struct sched *s, uint32_t cpu, uint64_t clock);
void sched_finish(struct sched *s, uint32_t cpu);
/* Invariant checker: the heap holds exactly the runnable CPUs, in heap order, with pos[]
 * pointing back. Returns 0 or -1. */
int sched_check(const struct sched *s, char *err, size_t errlen);
/* The highest clock of all CPUs (the run's virtual duration). */
uint64_t sched_max_clock(const struct sched *s);

/* PRNG: the model has none of its own; a run's one seeded PRNG is the core's blab_rng
 * (include/blab.h, src/rng.c). */

/* ---------------------------------------------------------------- the machine (model_machine.c) */

/*
 * The pieces put together, in the shape the core's machine hooks want: each CPU's running
 * clock, advanced by touches, prefetches, locks and work; the scheduler's heap is told the
 * new clock when the CPU's step ends (model_step_end), since only the running CPU moves.
 */
/*
 * Store buffer (model_store): a store that misses does not stall the CPU; it waits in the
 * store buffer while its read-for-ownership is in flight (in a fill buffer, as cache.c
 * books it). x86 is TSO, so stores become visible in program order: each one drains no
 * earlier than the one before it. A locked instruction (lock acquire) and the releasing
 * store of spin_unlock wait for the buffer to drain; a load of a line whose store is still
 * in flight waits for it. Skylake's store buffer has 56 entries [intel-opt].
 */
#define MODEL_STORE_BUFFER 56
#define MODEL_STORE_PENDING 64 /* per CPU: lines with a store in flight, direct-mapped */

struct model_store_pending {
	uint64_t line;
	uint64_t done;
};

struct model_machine {
	struct model_params p;
	struct cache_model cache;
	struct lock_model locks;
	struct sched sched;
	uint32_t ncpus;
	uint64_t now[MODEL_MAX_CPUS];
	/* store buffer per CPU: when each of the last MODEL_STORE_BUFFER stores drains (a
	 * ring), when the newest drains, and the lines still in flight */
	uint64_t sb_ring[MODEL_MAX_CPUS][MODEL_STORE_BUFFER];
	uint8_t sb_head[MODEL_MAX_CPUS];
	uint64_t sb_drain[MODEL_MAX_CPUS];
	struct model_store_pending sb_pending[MODEL_MAX_CPUS][MODEL_STORE_PENDING];
	uint64_t store_misses; /* stores that missed L1 and went through the buffer */
};

/* p is copied; the lock model points at that copy, so do not move or copy *mm after init
 * (it is large: allocate it on the heap). npages, dir_hash_lines: as cache_init. nlocks: as
 * lock_init. Returns 0 or -1. */
int model_machine_init(struct model_machine *mm, const struct model_params *p, uint32_t ncpus,
		       uint64_t npages, uint32_t dir_hash_lines, uint32_t nlocks);
/* model_machine_init() for the pfns first_pfn .. first_pfn + npages - 1 (cache_init_at) */
int model_machine_init_at(struct model_machine *mm, const struct model_params *p,
			  uint32_t ncpus, uint64_t first_pfn, uint64_t npages,
			  uint32_t dir_hash_lines, uint32_t nlocks);
void model_machine_free(struct model_machine *mm);
/* The host bytes model_machine_init() takes for these arguments (the struct, each core's L1
 * and L2, each socket's LLC, fill buffers, the directory), for the memory bound checked
 * before anything is allocated (docs/limits.md, "Host memory"). p must pass
 * model_params_check(). */
uint64_t model_machine_mem_bytes(const struct model_params *p, uint32_t ncpus, uint64_t npages,
				 uint32_t dir_hash_lines);
/* All CPUs' cycles so far (the denominator of contention %). */
uint64_t model_machine_cycles(const struct model_machine *mm);

/* model_touch() when the load is the L1 hit cache_access_mru() answers and no store of the
 * CPU to the line is in flight: the clock moves on by l1_cycles. 0 when it is not one
 * (nothing changed): call model_touch(). */
static inline int model_touch_mru(struct model_machine *mm, uint32_t cpu, uint64_t line,
				  int write, uint8_t path)
{
	const struct model_store_pending *sp =
		&mm->sb_pending[cpu][line & (MODEL_STORE_PENDING - 1)];
	if ((sp->line == line && sp->done > mm->now[cpu]) ||
	    !cache_access_mru(&mm->cache, cpu, line, write, path))
		return 0;
	mm->now[cpu] += mm->p.l1_cycles;
	return 1;
}

/* A load (or a read-modify-write) of a line: the CPU waits for it. If this CPU's own store
 * to the line is still in flight, the load waits for that store's line first. */
static inline struct cache_result model_touch(struct model_machine *mm, uint32_t cpu,
					      uint64_t vaddr, int write, uint8_t path)
{
	uint64_t line = vaddr >> MODEL_LINE_SHIFT;
	const struct model_store_pending *sp =
		&mm->sb_pending[cpu][line & (MODEL_STORE_PENDING - 1)];
	struct cache_result r;

	if (sp->line == line && sp->done > mm->now[cpu])
		mm->now[cpu] = sp->done;
	/* the full path (callers try model_touch_mru first) */
	r = cache_access_slow(&mm->cache, cpu, vaddr, write, mm->now[cpu], path);
	mm->now[cpu] += r.cycles;
	return r;
}

/*
 * A load whose address does not come from a load still in flight (the buddy's struct page:
 * pfn ^ (1 << order)) and whose value only steers a well-predicted branch (page_is_buddy()):
 * an out-of-order core runs ahead of it, so an L2 hit (l2_cycles, well inside Skylake's
 * 224-entry reorder window) costs what an L1 hit does. Misses further out stall as any load.
 */
static inline struct cache_result model_touch_ahead(struct model_machine *mm, uint32_t cpu,
						    uint64_t vaddr, uint8_t path)
{
	struct cache_result r = model_touch(mm, cpu, vaddr, 0, path);

	if (r.outcome == CACHE_L2 && r.cycles > mm->p.l1_cycles) {
		mm->now[cpu] -= r.cycles - mm->p.l1_cycles;
		r.cycles = mm->p.l1_cycles;
	}
	return r;
}

/*
 * A store nothing waits on right away (expand()'s set_page_order and list_add on
 * page[size], a list neighbour's lru pointer): the line is fetched for ownership as by
 * model_touch(write), but the CPU pays only the L1 latency to put the store in its buffer,
 * unless the buffer is full (then it waits for the oldest entry). Returns the outcome and
 * the cycles the CPU paid.
 */
static inline struct cache_result model_store(struct model_machine *mm, uint32_t cpu,
					      uint64_t vaddr, uint8_t path)
{
	uint64_t line = vaddr >> MODEL_LINE_SHIFT;
	uint64_t start = mm->now[cpu], done;
	uint64_t *slot = &mm->sb_ring[cpu][mm->sb_head[cpu]];
	struct model_store_pending *sp = &mm->sb_pending[cpu][line & (MODEL_STORE_PENDING - 1)];
	struct cache_result r;

	if (*slot > start)
		start = *slot; /* buffer full: the oldest store must drain first */
	/* the full path (callers try model_store_mru first) */
	r = cache_access_slow(&mm->cache, cpu, vaddr, 1, start, path);
	done = start + r.cycles;
	if (done < mm->sb_drain[cpu])
		done = mm->sb_drain[cpu]; /* TSO: visible after every older store */
	mm->sb_drain[cpu] = done;
	*slot = done;
	mm->sb_head[cpu] = (uint8_t)((mm->sb_head[cpu] + 1u) % MODEL_STORE_BUFFER);
	if (r.outcome != CACHE_L1) {
		mm->store_misses++;
		sp->line = line;
		sp->done = done;
		r.cycles = (uint32_t)(start - mm->now[cpu]) + mm->p.l1_cycles;
	} else {
		r.cycles += (uint32_t)(start - mm->now[cpu]);
	}
	mm->now[cpu] += r.cycles;
	return r;
}

/* model_store() when the store is the L1 hit cache_access_mru() answers: it takes a slot
 * of the buffer (waiting for the oldest when full) and drains after the stores before it.
 * 0 when it is not one (nothing changed): call model_store(). */
static inline int model_store_mru(struct model_machine *mm, uint32_t cpu, uint64_t line,
				  uint8_t path)
{
	if (!cache_access_mru(&mm->cache, cpu, line, 1, path))
		return 0;
	uint64_t start = mm->now[cpu], done;
	uint8_t head = mm->sb_head[cpu];
	uint64_t *slot = &mm->sb_ring[cpu][head];
	if (*slot > start)
		start = *slot; /* buffer full: the oldest store must drain first */
	start += mm->p.l1_cycles;
	done = start > mm->sb_drain[cpu] ? start : mm->sb_drain[cpu];
	mm->sb_drain[cpu] = done;
	*slot = done;
	mm->sb_head[cpu] = (uint8_t)(head + 1u == MODEL_STORE_BUFFER ? 0 : head + 1u);
	mm->now[cpu] = start;
	return 1;
}

/* Wait until every buffered store of cpu is visible (a locked instruction, or the store
 * that releases a lock and must not pass the stores made under it). */
static inline void model_store_fence(struct model_machine *mm, uint32_t cpu)
{
	if (mm->sb_drain[cpu] > mm->now[cpu])
		mm->now[cpu] = mm->sb_drain[cpu];
}

/* Returns the cycles until the line lands (for the PREFETCH event); the CPU pays only the
 * issue cost. */
static inline uint32_t model_prefetch(struct model_machine *mm, uint32_t cpu, uint64_t vaddr,
				      uint8_t path)
{
	uint32_t land = cache_prefetch(&mm->cache, cpu, vaddr, mm->now[cpu], path);
	mm->now[cpu] += mm->p.prefetch_issue_cycles;
	return land;
}

static inline void model_work(struct model_machine *mm, uint32_t cpu, uint64_t cycles)
{
	mm->now[cpu] += cycles;
}

/* Take lock id. Returns 1 with the CPU's clock moved to when it holds the lock; or 0 when
 * it queued behind a holder that is stopped inside its critical section: the CPU is parked,
 * and once unparked it holds the lock (its clock then says when it got it). */
static inline int model_lock(struct model_machine *mm, uint32_t cpu, uint32_t id)
{
	uint64_t t;
	model_store_fence(mm, cpu); /* the lock's atomic RMW drains the store buffer */
	if (lock_acquire(&mm->locks, id, cpu, mm->now[cpu], &t)) {
		mm->now[cpu] = t;
		return 1;
	}
	sched_park(&mm->sched, cpu);
	return 0;
}

static inline void model_unlock(struct model_machine *mm, uint32_t cpu, uint32_t id)
{
	uint64_t t;
	uint32_t next;

	/* the releasing store becomes visible only after the stores made under the lock */
	model_store_fence(mm, cpu);
	next = lock_release(&mm->locks, id, cpu, mm->now[cpu], &t);
	if (next != MODEL_NO_CPU) {
		mm->now[next] = t;
		sched_unpark(&mm->sched, next, t);
	}
}

/* The CPU's step is over: the scheduler learns its clock. */
static inline void model_step_end(struct model_machine *mm, uint32_t cpu)
{
	sched_set_clock(&mm->sched, cpu, mm->now[cpu]);
}

#endif
