/* errors.c - one sentence per error code, for people. */
#include "blab.h"

const char *blab_strerror(int err)
{
	switch (err) {
	case BLAB_OK: return "success";
	case BLAB_EINVAL: return "invalid argument";
	case BLAB_ECPU: return "cpu out of range";
	case BLAB_EPFN: return "pfn outside the zone";
	case BLAB_EORDER: return "order out of range";
	case BLAB_EALIGN: return "pfn not aligned to its order";
	case BLAB_EDOUBLEFREE: return "double free: the block is already on a free list";
	case BLAB_EWRONGORDER: return "wrong order: the block was allocated with another order";
	case BLAB_ETAIL: return "pfn is a tail page of an allocated block, not its head";
	case BLAB_EONPCP: return "pfn sits on a per-cpu list: it is free already";
	case BLAB_ENOTALLOC: return "pfn lies inside a free block: it was never allocated";
	case BLAB_ENOMEM: return "out of memory: no free block of that order";
	case BLAB_EWMARK: return "allocation refused: free pages would drop below the low watermark";
	case BLAB_EMT: return "migratetype cannot be allocated";
	case BLAB_ELIMIT: return "a hard limit was exceeded (see docs/limits.md)";
	case BLAB_EPRESET: return "unknown preset";
	case BLAB_ESTRATEGY: return "inconsistent strategy switches";
	case BLAB_ECHECK: return "invariant violated";
	case BLAB_EBUSY: return "busy: an operation is in flight";
	case BLAB_ELOCKED: return "lock held by another cpu";
	case BLAB_ENOMEMHOST: return "the host is out of memory";
	case BLAB_ELOGFULL: return "the event log is full";
	case BLAB_ESNAPSHOT: return "the snapshot's free blocks and pcp pages do not fit the zone";
	case BLAB_EHOSTMEM: return "the configuration needs more host memory than the limit";
	case BLAB_ESLABCACHE: return "no such slab cache";
	case BLAB_ESLABOBJ: return "not an object of this slab cache";
	default: return "unknown error";
	}
}
