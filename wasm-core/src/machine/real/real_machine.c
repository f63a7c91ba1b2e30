/*
 * real_machine.c - set-up and tear-down of the real machine's locks and per-CPU counters.
 * The lock and clear_page themselves are static inline in real.h; machine.h's hooks reach
 * them through the _mach_real_* functions at the end (prim.h).
 */
#include <stdlib.h>
#include <string.h>

#include "machine/prim.h"
#include "real.h"

int real_machine_init(struct real_machine *rm, uint32_t ncpus, int time_locks)
{
	uintptr_t p;

	memset(rm, 0, sizeof(*rm));
	if (!ncpus)
		return -1;
	/* 64-byte aligned per-CPU blocks; aligned_alloc would do, but its size rule differs
	 * between C libraries, so align by hand */
	rm->cpu_mem = calloc(1, (size_t)ncpus * sizeof(struct real_cpu) + 64);
	if (!rm->cpu_mem)
		return -1;
	p = ((uintptr_t)rm->cpu_mem + 63u) & ~(uintptr_t)63u;
	rm->cpu = (struct real_cpu *)p;
	rm->ncpus = ncpus;
	rm->time_locks = time_locks ? 1 : 0;
	for (unsigned i = 0; i < REAL_NLOCKS; i++)
		real_spin_init(&rm->lock[i]);
	for (uint32_t c = 0; c < ncpus; c++) {
		for (unsigned i = 0; i < REAL_NLOCKS; i++) {
			atomic_init(&rm->cpu[c].lock[i].acquisitions, 0);
			atomic_init(&rm->cpu[c].lock[i].contended, 0);
			atomic_init(&rm->cpu[c].lock[i].spin_ns, 0);
			atomic_init(&rm->cpu[c].lock[i].hold_ns, 0);
		}
		atomic_init(&rm->cpu[c].pages, 0);
		real_spin_init(&rm->cpu[c].pcp_lock);
	}
	return 0;
}

void real_machine_free(struct real_machine *rm)
{
	free(rm->cpu_mem);
	memset(rm, 0, sizeof(*rm));
}

/* ---- behind machine.h's hooks ---- */

int _mach_real_init(struct blab_machine *m, unsigned cpus, int timed)
{
	struct real_machine *rm = malloc(sizeof(*rm));

	if (!rm || real_machine_init(rm, cpus, timed)) {
		free(rm);
		return -1;
	}
	m->impl = rm;
	return 0;
}

uint64_t _mach_real_mem_bytes(unsigned cpus)
{
	/* the struct, and the per-CPU array real_machine_init() aligns to 64 bytes (and what
	 * malloc adds to it: a large one is mapped whole pages) */
	return sizeof(struct real_machine) + (uint64_t)(cpus + 1) * sizeof(struct real_cpu) + 4096u;
}

void _mach_real_free(struct blab_machine *m)
{
	real_machine_free(mach_real(m));
	free(m->impl);
}

/* prefetch() of the struct page of pfn: its host address, when it is one of the zone's */
void _mach_real_prefetch(struct blab_machine *m, uint64_t pfn)
{
	if (pfn < m->host_first_pfn || pfn - m->host_first_pfn >= m->host_npages)
		return;
#if REAL_HAVE_PREFETCH
	__builtin_prefetch((const char *)m->host_pages + (pfn - m->host_first_pfn) * m->host_page_stride,
			   1, 3);
#endif
}

uint64_t _mach_real_now(void)
{
	return real_clock_ns();
}

/* CPU owner's pcp->lock (prim.h), or NULL past the machine's CPUs */
static struct real_spinlock *real_pcp_lock(struct real_machine *rm, unsigned lockid)
{
	unsigned owner = lockid - MACH_LOCK_PCP;

	return owner < rm->ncpus ? &rm->cpu[owner].pcp_lock : NULL;
}

void _mach_real_lock(struct blab_machine *m, unsigned cpu, unsigned lockid)
{
	struct real_machine *rm = mach_real(m);
	struct real_spinlock *l;

	if (cpu >= rm->ncpus)
		return;
	if (!mach_lock_is_pcp(lockid)) {
		if (lockid < REAL_NLOCKS)
			real_lock(rm, cpu, lockid);
	} else if ((l = real_pcp_lock(rm, lockid))) {
		real_spin_lock(l);
	}
}

int _mach_real_trylock(struct blab_machine *m, unsigned cpu, unsigned lockid)
{
	struct real_machine *rm = mach_real(m);
	struct real_spinlock *l;

	if (cpu >= rm->ncpus)
		return 0;
	if (!mach_lock_is_pcp(lockid))
		return lockid < REAL_NLOCKS && real_trylock(rm, cpu, lockid);
	return (l = real_pcp_lock(rm, lockid)) && real_spin_trylock(l);
}

void _mach_real_unlock(struct blab_machine *m, unsigned cpu, unsigned lockid)
{
	struct real_machine *rm = mach_real(m);
	struct real_spinlock *l;

	if (cpu >= rm->ncpus)
		return;
	if (!mach_lock_is_pcp(lockid)) {
		if (lockid < REAL_NLOCKS)
			real_unlock(rm, cpu, lockid);
	} else if ((l = real_pcp_lock(rm, lockid))) {
		real_spin_unlock(l);
	}
}

void _mach_real_clear_page(struct blab_machine *m, unsigned cpu)
{
	struct real_machine *rm = mach_real(m);

	if (cpu < rm->ncpus)
		real_clear_page(rm, cpu);
}
