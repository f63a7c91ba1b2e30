// The zone state the views draw, and the reducer that moves it forward one record at a time.
//
// Everything here is derived from state events only (docs/events.md: "every change of where a
// page sits is an event"); the player never guesses. A transition the contract forbids (taking
// a block off a list it is not on, freeing a page nobody holds) is a LogError naming the record.
//
// All state lives in typed arrays so that a keyframe is a handful of memcpy's.

import {
  CPU_NONE,
  EV,
  FLAG,
  LogError,
  MIGRATETYPES,
  NR_MIGRATETYPES,
  NR_OUTCOMES,
  eventName,
  type EventLog,
} from './events';
import { CORE_LIMITS } from './core-limits';
import { SlabState, applySlabEvent } from './slabstate';

/** Where one page is. */
export const PAGE = {
  /** never mentioned by the log (a hole, or before set-up) */
  UNKNOWN: 0,
  /** on free_area[order].free_list[mt] */
  BUDDY: 1,
  /** on CPU cpu's pcp list */
  PCP: 2,
  /** handed to a caller */
  ALLOCATED: 3,
  /** taken off a list or given back, and not yet put anywhere: the allocator holds it */
  TRANSIT: 4,
} as const;
export type PageState = (typeof PAGE)[keyof typeof PAGE];
export const PAGE_STATE_NAMES = ['unknown', 'free (buddy)', 'pcp list', 'allocated', 'in transit'] as const;

/** Per-page flag bits. */
export const PF = {
  HEAD: 1, // first page of its block
  MERGE_SKIPPED: 2, // BUDDY_ADD with merge skipped
  COLD: 4, // on the cold pcp list
  TAIL: 8, // added at the tail of its list
} as const;

/**
 * Fields of one CPU's compaction in ZoneState.compaction (cpu * COMPACTION.FIELDS + field).
 * Several CPUs may compact at once (each huge-page task of `mixed` does): each has its own
 * COMPACT_BEGIN .. COMPACT_END, so each keeps its own record. Per CPU: whether a compaction
 * runs there and for which order; the pageblock its scanner reached (pfn, -1 before the
 * first); its last migration's source and destination pfns (-1 when none yet); the pages it
 * merged and migrated so far; and the outcome of the CPU's last finished run (1 block made,
 * 0 not, -1 none yet).
 */
export const COMPACTION = {
  ACTIVE: 0,
  ORDER: 1,
  SCAN_PFN: 2,
  MIGRATE_FROM: 3,
  MIGRATE_TO: 4,
  MERGED: 5,
  MIGRATED: 6,
  LAST_RESULT: 7,
  FIELDS: 8,
} as const;

/** One CPU's compaction, as read from ZoneState.compaction (ZoneState.compactionOf()). */
export interface CompactionRun {
  cpu: number;
  active: boolean;
  order: number;
  /** pageblock the scanner reached (its first pfn), -1 before the first */
  scanPfn: number;
  /** the last migration's source and destination pfns, -1 when none yet */
  migrateFrom: number;
  migrateTo: number;
  merged: number;
  migrated: number;
  /** the CPU's last finished run: 1 made a block, 0 did not, -1 none yet */
  lastResult: number;
}
export const MAX_LOCKS = 3;

/** Zone geometry, from the ZONE_INIT record. */
export interface ZoneGeometry {
  readonly startPfn: number;
  readonly pages: number;
  readonly cpus: number;
  readonly maxOrder: number;
  readonly pageblockOrder: number;
  /**
   * An imported kernel trace (TRACE_ZONE): where each page sat when the recording began is
   * unknown, so the replay is lenient (applyImported below).
   */
  readonly imported?: boolean;
}

/** pageblock_order shown for an imported trace: 9 on x86-64 with 4 KiB pages (the trace does not say). */
export const IMPORTED_PAGEBLOCK_ORDER = 9;

/** Hard limits (docs/limits.md); a ZONE_INIT beyond them is rejected. The views hold a zone of
 * the core's largest model run (cpus x pages mapped pages) and the core's CPUs. */
export const LIMITS = {
  maxPages: CORE_LIMITS.simMaxMapped,
  maxCpus: CORE_LIMITS.maxCpus,
  maxOrder: 20,
} as const;

function geometryFromTrace(log: EventLog): ZoneGeometry {
  const maxOrder = log.order[0]!;
  const g: ZoneGeometry = {
    startPfn: log.pfn[0]!,
    pages: log.arg0[0]!,
    cpus: Math.max(1, log.arg1[0]!),
    maxOrder,
    pageblockOrder: Math.min(IMPORTED_PAGEBLOCK_ORDER, maxOrder),
    imported: true,
  };
  if (g.pages < 1 || g.pages > LIMITS.maxPages) {
    throw new LogError(
      0,
      `TRACE_ZONE: the trace touches ${g.pages} pages (pfn ${g.startPfn} onwards); ` +
        `the views hold at most ${LIMITS.maxPages} (docs/limits.md). The summary above is complete; ` +
        'record fewer CPUs or a shorter run to replay it',
    );
  }
  if (g.cpus > LIMITS.maxCpus) throw new LogError(0, `TRACE_ZONE: ${g.cpus} CPUs is above ${LIMITS.maxCpus}`);
  if (g.maxOrder > LIMITS.maxOrder) throw new LogError(0, `TRACE_ZONE: top order ${g.maxOrder} is above ${LIMITS.maxOrder}`);
  return g;
}

export function geometryFromLog(log: EventLog): ZoneGeometry {
  if (log.length > 0 && log.type[0] === EV.TRACE_ZONE) return geometryFromTrace(log);
  if (log.length === 0 || log.type[0] !== EV.ZONE_INIT) {
    throw new LogError(0, 'the first record must be ZONE_INIT (or TRACE_ZONE)');
  }
  const g: ZoneGeometry = {
    startPfn: log.pfn[0]!,
    pages: log.arg0[0]!,
    cpus: log.arg1[0]!,
    maxOrder: log.order[0]!,
    pageblockOrder: log.flags[0]!,
  };
  if (g.pages < 1 || g.pages > LIMITS.maxPages) {
    throw new LogError(0, `ZONE_INIT: ${g.pages} pages is outside 1..${LIMITS.maxPages}`);
  }
  if (g.cpus < 1 || g.cpus > LIMITS.maxCpus) {
    throw new LogError(0, `ZONE_INIT: ${g.cpus} CPUs is outside 1..${LIMITS.maxCpus}`);
  }
  if (g.maxOrder > LIMITS.maxOrder) {
    throw new LogError(0, `ZONE_INIT: top order ${g.maxOrder} is above ${LIMITS.maxOrder}`);
  }
  if (g.pageblockOrder > g.maxOrder) {
    throw new LogError(0, `ZONE_INIT: pageblock_order ${g.pageblockOrder} is above the top order ${g.maxOrder}`);
  }
  return g;
}

/** The whole replayable state. Every field is a typed array or a number: cheap to snapshot. */
/** A CPU's cache counters in ZoneState.cache, cpu * CACHE.WIDTH + slot: the accesses by outcome
 * (0 .. NR_OUTCOMES - 1, ACCESS_OUTCOMES), then the prefetches issued, wasted (evicted unread)
 * and redundant (the line was already in L1). A prefetch's fate: a hit or late read (the
 * outcomes), wasted, redundant, or still unread (in flight, or landed and waiting). */
export const CACHE = { ISSUED: NR_OUTCOMES, WASTED: NR_OUTCOMES + 1, REDUNDANT: NR_OUTCOMES + 2, WIDTH: NR_OUTCOMES + 3 } as const;

/** A CPU's prefetches by fate; `unread` is what no record has settled yet. */
export function prefetchFates(s: { cache: Float64Array }, cpu: number) {
  const b = cpu * CACHE.WIDTH;
  const [issued, hit, late, wasted, redundant] = [CACHE.ISSUED, 5, 6, CACHE.WASTED, CACHE.REDUNDANT].map((k) => s.cache[b + k]!) as [number, number, number, number, number];
  return { issued, hit, late, wasted, redundant, unread: issued - hit - late - wasted - redundant };
}

export class ZoneState {
  readonly geo: ZoneGeometry;
  readonly nrOrders: number;
  readonly nrPageblocks: number;
  /** events applied so far (the step) */
  step = 0;
  /** time of the last applied record */
  time = 0;

  // per page (index = pfn - startPfn)
  readonly pageState: Uint8Array;
  readonly pageOrder: Uint8Array;
  readonly pageMt: Uint8Array;
  readonly pageCpu: Uint16Array;
  readonly pageFlags: Uint8Array;
  // per pageblock
  readonly pageblockMt: Uint8Array;
  // free_area[order].nr_free per migratetype: index order * NR_MIGRATETYPES + mt
  readonly nrFree: Int32Array;
  // per CPU: pcp count in pages, and the cold part of it
  readonly pcpCount: Int32Array;
  readonly pcpCold: Int32Array;
  // per CPU: pcp high as the last PCP_HIGH record set it (6.7+ presets); 0: none seen, the
  // list's high is the zone's fixed one
  readonly pcpHigh: Uint32Array;
  // per CPU per lock: held?
  readonly lockHeld: Uint8Array;
  // per CPU: acquisitions, contended acquisitions, cycles spun, cycles held (zone->lock only)
  readonly lockStats: Float64Array;
  // per CPU: access outcomes (NR_OUTCOMES), then prefetches issued, prefetches wasted
  readonly cache: Float64Array;
  /** the slab layer (log/slabstate.ts); room for slabs only when the log has slab records */
  readonly slab: SlabState;
  // per CPU: its compaction (COMPACT_* records), COMPACTION.FIELDS each: see COMPACTION above
  readonly compaction: Float64Array;

  constructor(geo: ZoneGeometry, slabSlots = 0) {
    this.geo = geo;
    this.nrOrders = geo.maxOrder + 1;
    const pb = 2 ** geo.pageblockOrder;
    this.nrPageblocks = Math.floor((geo.startPfn + geo.pages - 1) / pb) - Math.floor(geo.startPfn / pb) + 1;
    const n = geo.pages;
    this.pageState = new Uint8Array(n);
    this.pageOrder = new Uint8Array(n);
    this.pageMt = new Uint8Array(n);
    this.pageCpu = new Uint16Array(n).fill(CPU_NONE);
    this.pageFlags = new Uint8Array(n);
    this.pageblockMt = new Uint8Array(this.nrPageblocks);
    this.nrFree = new Int32Array(this.nrOrders * NR_MIGRATETYPES);
    this.pcpCount = new Int32Array(geo.cpus);
    this.pcpCold = new Int32Array(geo.cpus);
    this.pcpHigh = new Uint32Array(geo.cpus);
    this.lockHeld = new Uint8Array(geo.cpus * MAX_LOCKS);
    this.lockStats = new Float64Array(geo.cpus * 4);
    this.cache = new Float64Array(geo.cpus * CACHE.WIDTH);
    this.slab = new SlabState(geo.cpus, slabSlots);
    this.compaction = new Float64Array(geo.cpus * COMPACTION.FIELDS);
    for (let c = 0; c < geo.cpus; c++) this.compaction[c * COMPACTION.FIELDS + COMPACTION.LAST_RESULT] = -1;
  }

  /** The typed arrays, in a fixed order: what a keyframe copies. */
  arrays(): (Uint8Array | Uint16Array | Uint32Array | Int32Array | Float64Array)[] {
    return [
      this.pageState,
      this.pageOrder,
      this.pageMt,
      this.pageCpu,
      this.pageFlags,
      this.pageblockMt,
      this.nrFree,
      this.pcpCount,
      this.pcpCold,
      this.pcpHigh,
      this.lockHeld,
      this.lockStats,
      this.cache,
      ...this.slab.arrays(),
      this.compaction,
    ];
  }

  /** Bytes one snapshot of this state takes. */
  snapshotBytes(): number {
    return this.arrays().reduce((s, a) => s + a.byteLength, 0);
  }

  clone(): ZoneState {
    const c = new ZoneState(this.geo, this.slab.slots);
    c.copyFrom(this);
    return c;
  }

  copyFrom(o: ZoneState): void {
    const dst = this.arrays();
    const src = o.arrays();
    for (let i = 0; i < dst.length; i++) (dst[i] as Uint8Array).set(src[i] as Uint8Array);
    this.step = o.step;
    this.time = o.time;
  }

  /** nr_free of one order, all migratetypes together (what /proc/buddyinfo prints). */
  nrFreeOrder(order: number): number {
    let s = 0;
    for (let mt = 0; mt < NR_MIGRATETYPES; mt++) s += this.nrFree[order * NR_MIGRATETYPES + mt]!;
    return s;
  }

  /** Free pages in the buddy lists. */
  freePages(): number {
    let s = 0;
    for (let o = 0; o < this.nrOrders; o++) s += this.nrFreeOrder(o) * 2 ** o;
    return s;
  }

  pageblockIndex(pfn: number): number {
    const pb = 2 ** this.geo.pageblockOrder;
    return Math.floor(pfn / pb) - Math.floor(this.geo.startPfn / pb);
  }

  /** CPU `cpu`'s compaction (running or not), or undefined for a CPU the zone lacks. */
  compactionOf(cpu: number): CompactionRun | undefined {
    if (!Number.isInteger(cpu) || cpu < 0 || cpu >= this.geo.cpus) return undefined;
    const c = this.compaction;
    const b = cpu * COMPACTION.FIELDS;
    return {
      cpu,
      active: c[b + COMPACTION.ACTIVE] !== 0,
      order: c[b + COMPACTION.ORDER]!,
      scanPfn: c[b + COMPACTION.SCAN_PFN]!,
      migrateFrom: c[b + COMPACTION.MIGRATE_FROM]!,
      migrateTo: c[b + COMPACTION.MIGRATE_TO]!,
      merged: c[b + COMPACTION.MERGED]!,
      migrated: c[b + COMPACTION.MIGRATED]!,
      lastResult: c[b + COMPACTION.LAST_RESULT]!,
    };
  }

  /** The compactions running now, one per CPU that runs one, in CPU order. */
  runningCompactions(): CompactionRun[] {
    const out: CompactionRun[] = [];
    for (let cpu = 0; cpu < this.geo.cpus; cpu++) {
      if (this.compaction[cpu * COMPACTION.FIELDS + COMPACTION.ACTIVE]) out.push(this.compactionOf(cpu)!);
    }
    return out;
  }

  /** Fields of one page, for hover panels and tests. */
  page(pfn: number) {
    const i = pfn - this.geo.startPfn;
    if (!Number.isInteger(i) || i < 0 || i >= this.geo.pages) return undefined;
    const state = this.pageState[i]! as PageState;
    return {
      pfn,
      state,
      stateName: PAGE_STATE_NAMES[state],
      order: this.pageOrder[i]!,
      mt: this.pageMt[i]!,
      cpu: this.pageCpu[i]!,
      flags: this.pageFlags[i]!,
      pageblock: this.pageblockIndex(pfn),
      pageblockMt: this.pageblockMt[this.pageblockIndex(pfn)]!,
    };
  }
}

const STAT_ACQ = 0;
const STAT_CONTENDED = 1;
const STAT_SPIN = 2;
const STAT_HOLD = 3;
export const LOCK_STAT = { ACQ: STAT_ACQ, CONTENDED: STAT_CONTENDED, SPIN: STAT_SPIN, HOLD: STAT_HOLD } as const;

function fail(i: number, log: EventLog, detail: string): never {
  throw new LogError(i, `${eventName(log.type[i]!)} pfn ${log.pfn[i]} order ${log.order[i]}: ${detail}`);
}

/** Checks a block's bounds and alignment; returns its first page index. */
function blockIndex(s: ZoneState, log: EventLog, i: number): number {
  const pfn = log.pfn[i]!;
  const order = log.order[i]!;
  const g = s.geo;
  if (order > g.maxOrder) fail(i, log, `order is above the top order ${g.maxOrder}`);
  const size = 2 ** order;
  if (pfn % size !== 0) fail(i, log, `pfn is not aligned to ${size} pages`);
  const first = pfn - g.startPfn;
  if (first < 0 || first + size > g.pages) {
    fail(i, log, `block is outside the zone (pfn ${g.startPfn}..${g.startPfn + g.pages - 1})`);
  }
  return first;
}

function checkCpu(s: ZoneState, log: EventLog, i: number): number {
  const cpu = log.cpu[i]!;
  if (cpu >= s.geo.cpus) fail(i, log, `cpu ${cpu} is not one of the zone's ${s.geo.cpus} CPUs`);
  return cpu;
}

function checkMt(log: EventLog, i: number): number {
  const mt = log.mt[i]!;
  if (mt >= NR_MIGRATETYPES) fail(i, log, `migratetype ${mt} is not one of 0..${NR_MIGRATETYPES - 1}`);
  return mt;
}

function setBlock(
  s: ZoneState,
  first: number,
  order: number,
  state: PageState,
  mt: number,
  cpu: number,
  flags: number,
): void {
  if (order === 0) {
    // one page: plain stores (fill() on a one-element range costs several times more)
    s.pageState[first] = state;
    s.pageOrder[first] = 0;
    s.pageMt[first] = mt;
    s.pageCpu[first] = cpu;
    s.pageFlags[first] = flags | PF.HEAD;
    return;
  }
  const end = first + 2 ** order;
  s.pageState.fill(state, first, end);
  s.pageOrder.fill(order, first, end);
  s.pageMt.fill(mt, first, end);
  s.pageCpu.fill(cpu, first, end);
  s.pageFlags.fill(flags & ~PF.HEAD, first, end);
  s.pageFlags[first] = flags | PF.HEAD;
}

/** Every page of the block must be in one of `allowed` states; names the first that is not. */
function requireAll(s: ZoneState, log: EventLog, i: number, first: number, allowed: number[], what: string): void {
  const end = first + 2 ** log.order[i]!;
  for (let p = first; p < end; p++) {
    const st = s.pageState[p]!;
    if (!allowed.includes(st)) {
      fail(i, log, `page pfn ${p + s.geo.startPfn} is ${PAGE_STATE_NAMES[st as PageState]}, expected ${what}`);
    }
  }
}

/**
 * Takes every page of [first, end) off whatever list the replay last saw it on, undoing the
 * counters of the whole block it belonged to; pages of that old block outside the range go
 * back to unknown (a real kernel merged or split it where no tracepoint fires).
 */
function forgetRange(s: ZoneState, first: number, end: number): void {
  for (let p = first; p < end; p++) {
    // most trace records are order 0 on pages the replay has not placed: nothing to undo
    if (s.pageState[p] !== PAGE.BUDDY && s.pageState[p] !== PAGE.PCP) continue;
    const st = s.pageState[p]!;
    if (st !== PAGE.BUDDY && st !== PAGE.PCP) continue;
    const size = 2 ** s.pageOrder[p]!;
    const head = Math.floor((p + s.geo.startPfn) / size) * size - s.geo.startPfn;
    const h = head >= 0 && (s.pageFlags[head]! & PF.HEAD) && s.pageState[head] === st ? head : p;
    const hEnd = Math.min(s.geo.pages, h + size);
    if (st === PAGE.BUDDY) {
      const k = s.pageOrder[h]! * NR_MIGRATETYPES + s.pageMt[h]!;
      if (s.nrFree[k]! > 0) s.nrFree[k]! -= 1;
    } else {
      const cpu = s.pageCpu[h]!;
      if (cpu < s.geo.cpus) s.pcpCount[cpu] = Math.max(0, s.pcpCount[cpu]! - size);
    }
    for (let q = h; q < hEnd; q++) {
      if (q < first || q >= end) {
        s.pageState[q] = PAGE.UNKNOWN;
        s.pageFlags[q] = 0;
        s.pageCpu[q] = CPU_NONE;
      } else {
        s.pageState[q] = PAGE.TRANSIT;
      }
    }
  }
}

/**
 * The lenient replay of an imported trace (docs/events.md, "Imported traces"): the trace never
 * says where a page sat when it began, nor where a freed page went, so a record moves its block
 * from wherever the replay last saw it. Bounds, CPUs and migratetypes are still checked.
 */
function applyImported(s: ZoneState, log: EventLog, i: number): boolean {
  const type = log.type[i]!;
  switch (type) {
    case EV.TRACE_ZONE:
      if (i !== 0) fail(i, log, 'TRACE_ZONE may only be the first record');
      return true;
    case EV.BUDDY_ADD:
    case EV.BUDDY_DEL:
    case EV.PCP_ADD:
    case EV.PCP_DEL:
    case EV.ALLOC:
    case EV.FREE: {
      const first = blockIndex(s, log, i);
      const order = log.order[i]!;
      const n = 2 ** order;
      const mt = type === EV.BUDDY_ADD || type === EV.BUDDY_DEL || type === EV.PCP_ADD ? checkMt(log, i) : s.pageMt[first]!;
      const cpu = type === EV.PCP_ADD || type === EV.PCP_DEL || type === EV.ALLOC ? checkCpu(s, log, i) : CPU_NONE;
      forgetRange(s, first, first + n);
      if (type === EV.BUDDY_ADD) {
        setBlock(s, first, order, PAGE.BUDDY, mt, CPU_NONE, 0);
        s.nrFree[order * NR_MIGRATETYPES + mt]! += 1;
      } else if (type === EV.PCP_ADD) {
        setBlock(s, first, order, PAGE.PCP, mt, cpu, log.flags[i]! & FLAG.TAIL ? PF.TAIL : 0);
        s.pcpCount[cpu]! += n;
      } else if (type === EV.ALLOC) {
        setBlock(s, first, order, PAGE.ALLOCATED, log.mt[i]! < NR_MIGRATETYPES ? log.mt[i]! : mt, cpu, 0);
      } else {
        setBlock(s, first, order, PAGE.TRANSIT, mt, CPU_NONE, 0);
      }
      return true;
    }
    case EV.ZONE_INIT:
    case EV.PAGEBLOCK_MT:
    case EV.LOCK_ACQUIRE:
    case EV.LOCK_RELEASE:
      fail(i, log, 'a record of the model, not of an imported trace');
      break;
    default:
      return false;
  }
  return false;
}

/** A lock taken or dropped: one holder at a time; zone->lock's acquisitions, contention, spin
 * and hold counted per CPU. */
function applyLock(s: ZoneState, log: EventLog, i: number, acquire: boolean): void {
  const cpu = checkCpu(s, log, i);
  const lock = log.mt[i]!;
  if (lock >= MAX_LOCKS) fail(i, log, `lock id ${lock} is not one of 0..${MAX_LOCKS - 1}`);
  const k = cpu * MAX_LOCKS + lock;
  if (acquire) {
    if (s.lockHeld[k]) fail(i, log, `cpu ${cpu} already holds lock ${lock}`);
    for (let c = 0; c < s.geo.cpus; c++) {
      if (s.lockHeld[c * MAX_LOCKS + lock]) fail(i, log, `lock ${lock} is already held by cpu ${c}`);
    }
    s.lockHeld[k] = 1;
    if (lock === 0) {
      const spun = log.arg0[i]!;
      s.lockStats[cpu * 4 + STAT_ACQ]! += 1;
      if (spun > 0) s.lockStats[cpu * 4 + STAT_CONTENDED]! += 1;
      s.lockStats[cpu * 4 + STAT_SPIN]! += spun;
    }
  } else {
    if (!s.lockHeld[k]) fail(i, log, `cpu ${cpu} releases lock ${lock} it does not hold`);
    s.lockHeld[k] = 0;
    if (lock === 0) s.lockStats[cpu * 4 + STAT_HOLD]! += log.arg0[i]!;
  }
}

/** A cache access (counted by where it was served) or a prefetch, used or wasted, per CPU. */
function applyCacheRecord(s: ZoneState, log: EventLog, i: number, type: number): void {
  const cpu = checkCpu(s, log, i);
  const base = cpu * CACHE.WIDTH;
  if (type === EV.ACCESS) {
    const outcome = log.flags[i]! & FLAG.OUTCOME_MASK;
    if (outcome >= NR_OUTCOMES) fail(i, log, `access outcome ${outcome} is not one of 0..${NR_OUTCOMES - 1}`);
    s.cache[base + outcome]! += 1;
  } else if (type === EV.PREFETCH) {
    s.cache[base + CACHE.ISSUED]! += 1;
    // arg1 = 1: the line was already in this CPU's L1 (docs/events.md): nothing fetched
    if (log.arg1[i]) s.cache[base + CACHE.REDUNDANT]! += 1;
  } else {
    s.cache[base + CACHE.WASTED]! += 1;
  }
}

/** Applies record i of the log to s (s.step must equal i). */
export function applyEvent(s: ZoneState, log: EventLog, i: number): void {
  const type = log.type[i]!;
  if (s.geo.imported && applyImported(s, log, i)) {
    s.time = log.time[i]!;
    s.step = i + 1;
    return;
  }
  switch (type) {
    case EV.ZONE_INIT:
      if (i !== 0) fail(i, log, 'ZONE_INIT may only be the first record');
      break;
    case EV.TRACE_ZONE:
      fail(i, log, 'TRACE_ZONE may only be the first record');
      break;
    case EV.PAGEBLOCK_MT: {
      const pfn = log.pfn[i]!;
      const mt = checkMt(log, i);
      // pfn is the pageblock's aligned start, which precedes the zone when the zone starts
      // mid-pageblock: the block only has to overlap the zone.
      const pbPages = 2 ** s.geo.pageblockOrder;
      if (pfn % pbPages !== 0) fail(i, log, `pageblock pfn is not aligned to ${pbPages} pages`);
      if (pfn + pbPages <= s.geo.startPfn || pfn >= s.geo.startPfn + s.geo.pages) fail(i, log, 'pageblock is outside the zone');
      s.pageblockMt[s.pageblockIndex(pfn)] = mt;
      break;
    }
    case EV.BUDDY_ADD: {
      const first = blockIndex(s, log, i);
      const mt = checkMt(log, i);
      requireAll(s, log, i, first, [PAGE.UNKNOWN, PAGE.TRANSIT], 'in transit (off every list)');
      const f = log.flags[i]!;
      const flags = (f & FLAG.TAIL ? PF.TAIL : 0) | (f & FLAG.MERGE_SKIPPED ? PF.MERGE_SKIPPED : 0);
      setBlock(s, first, log.order[i]!, PAGE.BUDDY, mt, CPU_NONE, flags);
      s.nrFree[log.order[i]! * NR_MIGRATETYPES + mt]! += 1;
      break;
    }
    case EV.BUDDY_DEL: {
      const first = blockIndex(s, log, i);
      const mt = checkMt(log, i);
      const order = log.order[i]!;
      if (
        s.pageState[first] !== PAGE.BUDDY ||
        !(s.pageFlags[first]! & PF.HEAD) ||
        s.pageOrder[first] !== order ||
        s.pageMt[first] !== mt
      ) {
        fail(
          i,
          log,
          `block is not on free_area[${order}].free_list[${MIGRATETYPES[mt]}]` +
            (s.pageState[first] === PAGE.BUDDY
              ? ` (pfn is in a free block of order ${s.pageOrder[first]}, ${MIGRATETYPES[s.pageMt[first]!] ?? '?'})`
              : ` (pfn is ${PAGE_STATE_NAMES[s.pageState[first] as PageState]})`),
        );
      }
      setBlock(s, first, order, PAGE.TRANSIT, mt, CPU_NONE, 0);
      s.nrFree[order * NR_MIGRATETYPES + mt]! -= 1;
      break;
    }
    case EV.PCP_ADD: {
      const first = blockIndex(s, log, i);
      const cpu = checkCpu(s, log, i);
      const mt = checkMt(log, i);
      requireAll(s, log, i, first, [PAGE.TRANSIT], 'in transit (off every list)');
      const f = log.flags[i]!;
      const cold = (f & FLAG.COLD) !== 0;
      setBlock(s, first, log.order[i]!, PAGE.PCP, mt, cpu, (cold ? PF.COLD : 0) | (f & FLAG.TAIL ? PF.TAIL : 0));
      const n = 2 ** log.order[i]!;
      s.pcpCount[cpu]! += n;
      if (cold) s.pcpCold[cpu]! += n;
      break;
    }
    case EV.PCP_DEL: {
      const first = blockIndex(s, log, i);
      const cpu = checkCpu(s, log, i);
      const order = log.order[i]!;
      if (
        s.pageState[first] !== PAGE.PCP ||
        !(s.pageFlags[first]! & PF.HEAD) ||
        s.pageOrder[first] !== order ||
        s.pageCpu[first] !== cpu
      ) {
        fail(i, log, `block is not on cpu ${cpu}'s pcp list`);
      }
      const n = 2 ** order;
      s.pcpCount[cpu]! -= n;
      if (s.pageFlags[first]! & PF.COLD) s.pcpCold[cpu]! -= n;
      setBlock(s, first, order, PAGE.TRANSIT, s.pageMt[first]!, CPU_NONE, 0);
      break;
    }
    case EV.ALLOC: {
      const first = blockIndex(s, log, i);
      // Set-up may hand out reserved pages that never were on a list (cpu = none).
      const allowed: number[] = log.cpu[i] === CPU_NONE ? [PAGE.TRANSIT, PAGE.UNKNOWN] : [PAGE.TRANSIT];
      requireAll(s, log, i, first, allowed, 'just taken off a buddy or pcp list');
      setBlock(s, first, log.order[i]!, PAGE.ALLOCATED, s.pageMt[first]!, log.cpu[i]!, 0);
      break;
    }
    case EV.FREE: {
      const first = blockIndex(s, log, i);
      requireAll(s, log, i, first, [PAGE.ALLOCATED], 'allocated');
      setBlock(s, first, log.order[i]!, PAGE.TRANSIT, s.pageMt[first]!, CPU_NONE, 0);
      break;
    }
    case EV.PCP_HIGH: {
      const cpu = checkCpu(s, log, i);
      if (log.arg1[i] !== s.pcpHigh[cpu]) fail(i, log, `cpu ${cpu}'s high was ${s.pcpHigh[cpu]}, the record says ${log.arg1[i]}`);
      s.pcpHigh[cpu] = log.arg0[i]!;
      break;
    }
    case EV.LOCK_ACQUIRE:
    case EV.LOCK_RELEASE:
      applyLock(s, log, i, type === EV.LOCK_ACQUIRE);
      break;
    case EV.ACCESS:
    case EV.PREFETCH:
    case EV.PREFETCH_WASTED:
      applyCacheRecord(s, log, i, type);
      if (type === EV.ACCESS && s.slab.slots) applySlabEvent(s.slab, log, i);
      break;
    case EV.SLAB_CACHE_CREATE:
    case EV.SLAB_ALLOC:
    case EV.SLAB_FREE:
    case EV.SLAB_REMOTE_FREE:
    case EV.SLAB_FREELIST_PREFETCH:
    case EV.SLAB_NEW:
    case EV.SLAB_DISCARD:
    case EV.SLAB_CPU_SLAB:
    case EV.SLAB_PARTIAL:
      if (!s.slab.slots) fail(i, log, 'a slab record in a state made without room for slabs');
      applySlabEvent(s.slab, log, i);
      break;
    case EV.COMPACT_BEGIN:
    case EV.COMPACT_SCAN:
    case EV.COMPACT_MIGRATE:
    case EV.COMPACT_END:
      applyCompaction(s, log, i);
      break;
    default:
      // Explanatory events change nothing: they say why the state events around them happen.
      break;
  }
  s.time = log.time[i]!;
  s.step = i + 1;
}

/**
 * Compaction's progress (docs/skipmerge.md): where each CPU's scanner is and what it moved,
 * for the views to animate. Each CPU compacts at most once at a time (the core marks its
 * pageset busy from COMPACT_BEGIN to COMPACT_END), but any number of CPUs may at once. The
 * pages themselves change through the state records around these.
 */
function applyCompaction(s: ZoneState, log: EventLog, i: number): void {
  const type = log.type[i]!;
  const cpu = checkCpu(s, log, i);
  const c = s.compaction;
  const b = cpu * COMPACTION.FIELDS;
  if (type === EV.COMPACT_BEGIN) {
    if (c[b + COMPACTION.ACTIVE]) fail(i, log, `compaction already runs on cpu ${cpu}`);
    const last = c[b + COMPACTION.LAST_RESULT]!;
    c.fill(0, b, b + COMPACTION.FIELDS);
    c[b + COMPACTION.ACTIVE] = 1;
    c[b + COMPACTION.ORDER] = log.order[i]!;
    c[b + COMPACTION.SCAN_PFN] = -1;
    c[b + COMPACTION.MIGRATE_FROM] = -1;
    c[b + COMPACTION.MIGRATE_TO] = -1;
    c[b + COMPACTION.LAST_RESULT] = last;
    return;
  }
  if (!c[b + COMPACTION.ACTIVE]) fail(i, log, `no compaction runs on cpu ${cpu}`);
  if (type === EV.COMPACT_SCAN) {
    c[b + COMPACTION.SCAN_PFN] = log.pfn[i]!;
    c[b + COMPACTION.MERGED]! += log.arg0[i]!;
  } else if (type === EV.COMPACT_MIGRATE) {
    const to = s.geo.startPfn + log.arg0[i]!;
    if (log.arg0[i]! >= s.geo.pages) fail(i, log, `migration target ${to} is outside the zone`);
    c[b + COMPACTION.MIGRATE_FROM] = log.pfn[i]!;
    c[b + COMPACTION.MIGRATE_TO] = to;
    c[b + COMPACTION.MIGRATED]! += 2 ** log.order[i]!;
  } else {
    c[b + COMPACTION.ACTIVE] = 0;
    c[b + COMPACTION.LAST_RESULT] = log.arg0[i]! ? 1 : 0;
  }
}
