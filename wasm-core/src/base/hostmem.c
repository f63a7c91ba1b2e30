/*
 * hostmem.c - how much host memory a zone or a run may take when its config says nothing
 * (docs/limits.md, "Host memory"). Each config's memory is computed before anything is
 * allocated and refused past the limit: natively a run that fits the range checks could
 * otherwise need more than the machine has (and swap, or meet the OOM killer), and in
 * WebAssembly, whose memory does not grow, more than the heap.
 */
#include <stdio.h>

#include "blab.h"

#ifdef __EMSCRIPTEN__
#include <emscripten/heap.h>
#include <malloc.h>
#include <unistd.h>
#else
#include <unistd.h>
#endif

uint64_t blab_mem_limit_default(void)
{
#ifdef __EMSCRIPTEN__
	/* what malloc can still hand out: the heap above the break, and the free chunks
	 * below it (the memory has a fixed size: ALLOW_MEMORY_GROWTH=0) */
	uint64_t heap = emscripten_get_heap_size();
	uint64_t brk = (uint64_t)(uintptr_t)sbrk(0);
	struct mallinfo mi = mallinfo();
	return (heap > brk ? heap - brk : 0) + (uint64_t)mi.fordblks;
#else
	long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
	if (pages <= 0 || size <= 0)
		return UINT64_MAX; /* the OS will not say: no bound but its own */
	return (uint64_t)pages * (uint64_t)size / 2;
#endif
}

uint64_t blab_mem_limit(uint64_t configured)
{
	return configured ? configured : blab_mem_limit_default();
}

char *blab_mem_text(char *buf, size_t len, uint64_t bytes)
{
	/* 10^6: the unit people read off a machine's memory, one decimal */
	snprintf(buf, len, "%llu.%llu MB", (unsigned long long)(bytes / 1000000u),
		 (unsigned long long)(bytes % 1000000u / 100000u));
	return buf;
}
