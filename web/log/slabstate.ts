// The slab layer's replayable state: caches, the slabs alive, where every object of them is
// (handed out, on a CPU's freelist, on its slab's own freelist) and each freelist in order,
// rebuilt from the SLAB_* records alone (docs/events.md "Slab"). The freelists are replayed
// with the core's rules: a new slab's objects in address order, fast-path frees pushed on the
// CPU's list, remote frees on the slab's, a refill moving the slab's list to the CPU, a
// deactivation pushing the CPU's list back one by one. Typed arrays, like ZoneState, so a
// keyframe is a few copies.

import { CPU_NONE, EV, FLAG, LogError, eventName, type EventLog } from './events';

export const SLAB_MAX_CACHES = 16;
/** slabs tracked at once; a log with more alive at one time is rejected (docs/limits.md) */
export const SLAB_SLOTS = 256;
/** objects per slab tracked: 4096 / 8, the most an order-0 slab holds */
export const SLAB_MAX_OBJECTS = 512;
export const OBJ = { NONE: 0, SLAB_FREE: 1, CPU_FREE: 2, ALLOCATED: 3 } as const;
const END = 0xffff;
const SLAB_PATH_ALLOC_FAST = 30; // BLAB_PATH_SLAB_ALLOC_FAST: get_freepointer() of the fast path
const PAGE_SIZE = 4096;

/** Per-CPU counters, index cpu * NSTAT + STAT.* */
export const SLAB_STAT = {
  ALLOC_FAST: 0,
  ALLOC_SLOW: 1,
  FREE_FAST: 2,
  REMOTE_FREE: 3, // frees this CPU made onto a slab's own freelist
  PREFETCH: 4,
  PREFETCH_HIT: 5, // the next access of a prefetched free pointer found it landed
  PREFETCH_LATE: 6,
} as const;
const NSTAT = 7;

export class SlabState {
  readonly cpus: number;
  readonly slots: number;
  // caches
  readonly cacheUsed = new Uint8Array(SLAB_MAX_CACHES);
  readonly cacheSize = new Uint32Array(SLAB_MAX_CACHES);
  readonly cacheObjects = new Uint16Array(SLAB_MAX_CACHES);
  readonly cacheOrder = new Uint8Array(SLAB_MAX_CACHES);
  readonly cacheFlags = new Uint8Array(SLAB_MAX_CACHES);
  // slabs, by slot
  readonly slabPfn: Float64Array; // first pfn; -1 = free slot
  readonly slabCache: Uint8Array;
  readonly slabFree: Uint16Array; // slab->freelist head (object index) or END
  readonly slabOwner: Uint16Array; // the CPU whose cpu slab it is, or CPU_NONE
  readonly slabPartial: Uint8Array;
  // objects, slot * SLAB_MAX_OBJECTS + index
  readonly objState: Uint8Array;
  readonly objNext: Uint16Array; // the free pointer, as the core keeps it
  /** the CPU that wrote the object's free pointer last (new_slab(), a free): its line is there */
  readonly objWriter: Uint16Array;
  // per CPU x cache: cpu slab slot (-1 none) and c->freelist head
  readonly cpuSlab: Int32Array;
  readonly cpuFree: Uint16Array;
  // per CPU
  readonly stats: Float64Array;
  /** per CPU: object (address - PAGE_OFFSET) of the last freelist prefetch, -1 none; and its outcome (0 pending, 1 hit, 2 late) */
  readonly lastPrefetch: Float64Array;
  readonly lastPrefetchOutcome: Uint8Array;
  /** the last remote free: [from cpu, owner cpu or CPU_NONE, object, step]; step -1 = none */
  readonly lastRemote = new Float64Array([0, 0, 0, -1]);

  constructor(cpus: number, slots: number) {
    this.cpus = cpus;
    this.slots = slots;
    this.slabPfn = new Float64Array(slots).fill(-1);
    this.slabCache = new Uint8Array(slots);
    this.slabFree = new Uint16Array(slots).fill(END);
    this.slabOwner = new Uint16Array(slots).fill(CPU_NONE);
    this.slabPartial = new Uint8Array(slots);
    this.objState = new Uint8Array(slots * SLAB_MAX_OBJECTS);
    this.objNext = new Uint16Array(slots * SLAB_MAX_OBJECTS).fill(END);
    this.objWriter = new Uint16Array(slots * SLAB_MAX_OBJECTS).fill(CPU_NONE);
    this.cpuSlab = new Int32Array(cpus * SLAB_MAX_CACHES).fill(-1);
    this.cpuFree = new Uint16Array(cpus * SLAB_MAX_CACHES).fill(END);
    this.stats = new Float64Array(cpus * NSTAT);
    this.lastPrefetch = new Float64Array(cpus).fill(-1);
    this.lastPrefetchOutcome = new Uint8Array(cpus);
  }

  arrays(): (Uint8Array | Uint16Array | Uint32Array | Int32Array | Float64Array)[] {
    return [
      this.cacheUsed,
      this.cacheSize,
      this.cacheObjects,
      this.cacheOrder,
      this.cacheFlags,
      this.slabPfn,
      this.slabCache,
      this.slabFree,
      this.slabOwner,
      this.slabPartial,
      this.objState,
      this.objNext,
      this.objWriter,
      this.cpuSlab,
      this.cpuFree,
      this.stats,
      this.lastPrefetch,
      this.lastPrefetchOutcome,
      this.lastRemote,
    ];
  }

  stat(cpu: number, which: number): number {
    return this.stats[cpu * NSTAT + which]!;
  }

  /** Slot of the slab starting at pfn (-1: a free slot), or -1. */
  slotOf(pfn: number): number {
    for (let i = 0; i < this.slots; i++) if (this.slabPfn[i] === pfn) return i;
    return -1;
  }

  /** The objects on cpu's freelist of cache, in list order (what the next allocations pop). */
  cpuFreelist(cpu: number, cache: number): number[] {
    const slot = this.cpuSlab[cpu * SLAB_MAX_CACHES + cache]!;
    const out: number[] = [];
    if (slot < 0) return out;
    for (let o = this.cpuFree[cpu * SLAB_MAX_CACHES + cache]!; o !== END && out.length <= SLAB_MAX_OBJECTS; ) {
      out.push(o);
      o = this.objNext[slot * SLAB_MAX_OBJECTS + o]!;
    }
    return out;
  }

  /** A slab's own freelist, in order. */
  slabFreelist(slot: number): number[] {
    const out: number[] = [];
    for (let o = this.slabFree[slot]!; o !== END && out.length <= SLAB_MAX_OBJECTS; ) {
      out.push(o);
      o = this.objNext[slot * SLAB_MAX_OBJECTS + o]!;
    }
    return out;
  }

  /** The slot and index of an object (address - PAGE_OFFSET), or undefined. */
  locate(obj: number): { slot: number; index: number; cache: number } | undefined {
    const page = Math.floor(obj / PAGE_SIZE);
    for (let i = 0; i < this.slots; i++) {
      const pfn = this.slabPfn[i]!;
      if (pfn < 0) continue;
      const c = this.slabCache[i]!;
      const pages = 2 ** this.cacheOrder[c]!;
      if (page >= pfn && page < pfn + pages) {
        const off = obj - pfn * PAGE_SIZE;
        const size = this.cacheSize[c]!;
        if (off % size !== 0 || off / size >= this.cacheObjects[c]!) return undefined;
        return { slot: i, index: off / size, cache: c };
      }
    }
    return undefined;
  }
}

/** Does the log have slab records (so the state needs room for slabs)? */
export function logHasSlab(log: EventLog): boolean {
  for (let i = 0; i < log.length; i++) if (log.type[i] === EV.SLAB_CACHE_CREATE) return true;
  return false;
}

function fail(log: EventLog, i: number, detail: string): never {
  throw new LogError(i, `${eventName(log.type[i]!)} pfn ${log.pfn[i]}: ${detail}`);
}

function cacheOf(s: SlabState, log: EventLog, i: number): number {
  const c = log.arg0[i]!;
  if (c >= SLAB_MAX_CACHES || !s.cacheUsed[c]) fail(log, i, `cache ${c} was never created`);
  return c;
}

function cpuOf(s: SlabState, log: EventLog, i: number): number {
  const cpu = log.cpu[i]!;
  if (cpu >= s.cpus) fail(log, i, `cpu ${cpu} is not one of the zone's ${s.cpus} CPUs`);
  return cpu;
}

function objectOf(s: SlabState, log: EventLog, i: number, cache: number) {
  const at = s.locate(log.pfn[i]!);
  if (!at || at.cache !== cache) fail(log, i, `not an object of a live slab of cache ${cache}`);
  return at;
}

function slabOf(s: SlabState, log: EventLog, i: number): number {
  const slot = s.slotOf(log.pfn[i]!);
  if (slot < 0) fail(log, i, 'no live slab starts there');
  return slot;
}

/** Moves slab slot's own freelist onto cpu's freelist (new slab, partial, refill). */
function freeze(s: SlabState, cpu: number, cache: number, slot: number): void {
  for (let o = s.slabFree[slot]!; o !== END; o = s.objNext[slot * SLAB_MAX_OBJECTS + o]!) {
    s.objState[slot * SLAB_MAX_OBJECTS + o] = OBJ.CPU_FREE;
  }
  s.cpuSlab[cpu * SLAB_MAX_CACHES + cache] = slot;
  s.cpuFree[cpu * SLAB_MAX_CACHES + cache] = s.slabFree[slot]!;
  s.slabFree[slot] = END;
  s.slabOwner[slot] = cpu;
}

/** Applies a SLAB_* record (and the ACCESS records that settle a freelist prefetch). */
export function applySlabEvent(s: SlabState, log: EventLog, i: number): void {
  const type = log.type[i]!;
  switch (type) {
    case EV.SLAB_CACHE_CREATE: {
      const c = log.arg0[i]!;
      const objects = log.pfn[i]!;
      if (c >= SLAB_MAX_CACHES) fail(log, i, `cache id ${c} is not one of 0..${SLAB_MAX_CACHES - 1}`);
      if (s.cacheUsed[c]) fail(log, i, `cache ${c} exists already`);
      if (objects < 1 || objects > SLAB_MAX_OBJECTS) fail(log, i, `${objects} objects per slab is outside 1..${SLAB_MAX_OBJECTS}`);
      if (log.arg1[i]! < 8 || log.order[i]! > 3) fail(log, i, 'object size below 8 or slab order above 3');
      s.cacheUsed[c] = 1;
      s.cacheSize[c] = log.arg1[i]!;
      s.cacheObjects[c] = objects;
      s.cacheOrder[c] = log.order[i]!;
      s.cacheFlags[c] = log.flags[i]!;
      break;
    }
    case EV.SLAB_NEW: {
      const c = cacheOf(s, log, i);
      const cpu = cpuOf(s, log, i);
      if (s.slotOf(log.pfn[i]!) >= 0) fail(log, i, 'a live slab starts there already');
      const slot = s.slotOf(-1);
      if (slot < 0) fail(log, i, `more than ${s.slots} slabs alive at once`);
      const n = s.cacheObjects[c]!;
      s.slabPfn[slot] = log.pfn[i]!;
      s.slabCache[slot] = c;
      s.slabPartial[slot] = 0;
      for (let o = 0; o < SLAB_MAX_OBJECTS; o++) {
        s.objState[slot * SLAB_MAX_OBJECTS + o] = o < n ? OBJ.SLAB_FREE : OBJ.NONE;
        s.objNext[slot * SLAB_MAX_OBJECTS + o] = o + 1 < n ? o + 1 : END;
        s.objWriter[slot * SLAB_MAX_OBJECTS + o] = cpu;
      }
      s.slabFree[slot] = 0;
      s.slabOwner[slot] = cpu;
      break;
    }
    case EV.SLAB_CPU_SLAB: {
      const c = cacheOf(s, log, i);
      const cpu = cpuOf(s, log, i);
      const slot = slabOf(s, log, i);
      const how = log.flags[i]!;
      const k = cpu * SLAB_MAX_CACHES + c;
      if (how <= 2) {
        if (how !== 2 && s.cpuSlab[k]! >= 0) fail(log, i, `cpu ${cpu} still has a cpu slab`);
        if (how === 2 && s.cpuSlab[k] !== slot) fail(log, i, `not cpu ${cpu}'s cpu slab`);
        freeze(s, cpu, c, slot);
      } else if (how === 3) {
        if (s.cpuSlab[k] !== slot) fail(log, i, `not cpu ${cpu}'s cpu slab`);
        // deactivate_slab(): each object of c->freelist pushed back on the slab's freelist
        for (let o = s.cpuFree[k]!; o !== END; ) {
          const next = s.objNext[slot * SLAB_MAX_OBJECTS + o]!;
          s.objNext[slot * SLAB_MAX_OBJECTS + o] = s.slabFree[slot]!;
          s.objWriter[slot * SLAB_MAX_OBJECTS + o] = cpu;
          s.slabFree[slot] = o;
          s.objState[slot * SLAB_MAX_OBJECTS + o] = OBJ.SLAB_FREE;
          o = next;
        }
        s.cpuSlab[k] = -1;
        s.cpuFree[k] = END;
        s.slabOwner[slot] = CPU_NONE;
      } else {
        fail(log, i, `unknown cpu slab change ${how}`);
      }
      break;
    }
    case EV.SLAB_ALLOC: {
      const c = cacheOf(s, log, i);
      const cpu = cpuOf(s, log, i);
      const at = objectOf(s, log, i, c);
      const k = cpu * SLAB_MAX_CACHES + c;
      if (s.cpuSlab[k] !== at.slot || s.cpuFree[k] !== at.index) fail(log, i, `not the head of cpu ${cpu}'s freelist`);
      s.cpuFree[k] = s.objNext[at.slot * SLAB_MAX_OBJECTS + at.index]!;
      s.objState[at.slot * SLAB_MAX_OBJECTS + at.index] = OBJ.ALLOCATED;
      s.stats[cpu * NSTAT + (log.flags[i]! & FLAG.SLAB_SLOW ? SLAB_STAT.ALLOC_SLOW : SLAB_STAT.ALLOC_FAST)]! += 1;
      break;
    }
    case EV.SLAB_FREE: {
      const c = cacheOf(s, log, i);
      const cpu = cpuOf(s, log, i);
      const at = objectOf(s, log, i, c);
      const k = cpu * SLAB_MAX_CACHES + c;
      if (s.objState[at.slot * SLAB_MAX_OBJECTS + at.index] !== OBJ.ALLOCATED) fail(log, i, 'the object is not handed out');
      if (s.cpuSlab[k] !== at.slot) fail(log, i, `not an object of cpu ${cpu}'s cpu slab`);
      s.objNext[at.slot * SLAB_MAX_OBJECTS + at.index] = s.cpuFree[k]!;
      s.objWriter[at.slot * SLAB_MAX_OBJECTS + at.index] = cpu;
      s.cpuFree[k] = at.index;
      s.objState[at.slot * SLAB_MAX_OBJECTS + at.index] = OBJ.CPU_FREE;
      s.stats[cpu * NSTAT + SLAB_STAT.FREE_FAST]! += 1;
      break;
    }
    case EV.SLAB_REMOTE_FREE: {
      const c = cacheOf(s, log, i);
      const cpu = cpuOf(s, log, i);
      const at = objectOf(s, log, i, c);
      if (s.objState[at.slot * SLAB_MAX_OBJECTS + at.index] !== OBJ.ALLOCATED) fail(log, i, 'the object is not handed out');
      s.objNext[at.slot * SLAB_MAX_OBJECTS + at.index] = s.slabFree[at.slot]!;
      s.objWriter[at.slot * SLAB_MAX_OBJECTS + at.index] = cpu;
      s.slabFree[at.slot] = at.index;
      s.objState[at.slot * SLAB_MAX_OBJECTS + at.index] = OBJ.SLAB_FREE;
      s.stats[cpu * NSTAT + SLAB_STAT.REMOTE_FREE]! += 1;
      s.lastRemote[0] = cpu;
      s.lastRemote[1] = log.arg1[i]!;
      s.lastRemote[2] = log.pfn[i]!;
      s.lastRemote[3] = i;
      break;
    }
    case EV.SLAB_PARTIAL: {
      cacheOf(s, log, i);
      const slot = slabOf(s, log, i);
      s.slabPartial[slot] = log.flags[i]! & FLAG.PARTIAL_DEL ? 0 : 1;
      break;
    }
    case EV.SLAB_DISCARD: {
      cacheOf(s, log, i);
      const slot = slabOf(s, log, i);
      for (let o = 0; o < SLAB_MAX_OBJECTS; o++) {
        if (s.objState[slot * SLAB_MAX_OBJECTS + o] === OBJ.ALLOCATED) fail(log, i, `object ${o} is still handed out`);
      }
      s.slabPfn[slot] = -1;
      s.slabFree[slot] = END;
      s.slabOwner[slot] = CPU_NONE;
      s.slabPartial[slot] = 0;
      s.objState.fill(OBJ.NONE, slot * SLAB_MAX_OBJECTS, (slot + 1) * SLAB_MAX_OBJECTS);
      break;
    }
    case EV.SLAB_FREELIST_PREFETCH: {
      const cpu = cpuOf(s, log, i);
      s.stats[cpu * NSTAT + SLAB_STAT.PREFETCH]! += 1;
      s.lastPrefetch[cpu] = log.pfn[i]!;
      s.lastPrefetchOutcome[cpu] = 0;
      break;
    }
    case EV.ACCESS: {
      // the next allocation's read of a prefetched free pointer: outcome 5 hit, 6 late
      const cpu = log.cpu[i]!;
      if (cpu >= s.cpus || log.path[i] !== SLAB_PATH_ALLOC_FAST || !(log.flags[i]! & FLAG.SLAB_OBJECT)) break;
      const outcome = log.flags[i]! & FLAG.OUTCOME_MASK;
      if (outcome === 5 || outcome === 6) {
        s.stats[cpu * NSTAT + (outcome === 5 ? SLAB_STAT.PREFETCH_HIT : SLAB_STAT.PREFETCH_LATE)]! += 1;
        if (s.lastPrefetch[cpu]! >= 0 && s.lastPrefetchOutcome[cpu] === 0) {
          s.lastPrefetchOutcome[cpu] = outcome === 5 ? 1 : 2;
        }
      }
      break;
    }
    default:
      break;
  }
}
