// The event log decoder: docs/events.md is the contract, this file follows it to the byte.
//
// A log is an array of 32-byte little-endian records. We decode it once into a struct of
// typed arrays (EventLog) so that a million-record log costs ~26 MB, not a million objects,
// and the player can scan it quickly (next MERGE, next contended lock, ...).

import { nextTask } from './yield';

export const RECORD_SIZE = 32;

/** Offsets inside one record (docs/events.md, "Record layout"). */
export const OFF = {
  time: 0,
  pfn: 8,
  type: 16,
  order: 17,
  cpu: 18,
  mt: 20,
  path: 21,
  flags: 22,
  arg0: 24,
  arg1: 28,
} as const;

export type EventClass = 'state' | 'explain' | 'lock' | 'cache';

export interface EventTypeInfo {
  readonly id: number;
  readonly name: string;
  readonly cls: EventClass;
}

/** The type table, in the order of blab_events.h. */
export const EVENT_TYPES: readonly EventTypeInfo[] = [
  { id: 1, name: 'ZONE_INIT', cls: 'state' },
  { id: 2, name: 'PAGEBLOCK_MT', cls: 'state' },
  { id: 3, name: 'BUDDY_ADD', cls: 'state' },
  { id: 4, name: 'BUDDY_DEL', cls: 'state' },
  { id: 5, name: 'PCP_ADD', cls: 'state' },
  { id: 6, name: 'PCP_DEL', cls: 'state' },
  { id: 7, name: 'ALLOC', cls: 'state' },
  { id: 8, name: 'FREE', cls: 'state' },
  { id: 9, name: 'SPLIT', cls: 'explain' },
  { id: 10, name: 'MERGE', cls: 'explain' },
  { id: 11, name: 'RMQUEUE_BULK', cls: 'explain' },
  { id: 12, name: 'PCP_DRAIN', cls: 'explain' },
  { id: 13, name: 'LOCK_ACQUIRE', cls: 'lock' },
  { id: 14, name: 'LOCK_RELEASE', cls: 'lock' },
  { id: 15, name: 'ACCESS', cls: 'cache' },
  { id: 16, name: 'PREFETCH', cls: 'cache' },
  { id: 17, name: 'PREFETCH_WASTED', cls: 'cache' },
  { id: 18, name: 'FALLBACK', cls: 'explain' },
  { id: 19, name: 'ALLOC_FAIL', cls: 'explain' },
  { id: 20, name: 'MARK', cls: 'explain' },
  { id: 21, name: 'LOG_FULL', cls: 'explain' },
  { id: 22, name: 'PCP_HIGH', cls: 'state' },
  { id: 30, name: 'SLAB_CACHE_CREATE', cls: 'state' },
  { id: 31, name: 'SLAB_ALLOC', cls: 'state' },
  { id: 32, name: 'SLAB_FREE', cls: 'state' },
  { id: 33, name: 'SLAB_REMOTE_FREE', cls: 'state' },
  { id: 34, name: 'SLAB_FREELIST_PREFETCH', cls: 'cache' },
  { id: 35, name: 'SLAB_NEW', cls: 'state' },
  { id: 36, name: 'SLAB_DISCARD', cls: 'state' },
  { id: 37, name: 'SLAB_CPU_SLAB', cls: 'state' },
  { id: 38, name: 'SLAB_PARTIAL', cls: 'state' },
  // skip-merge and compaction (docs/skipmerge.md)
  { id: 40, name: 'COMPACT_BEGIN', cls: 'explain' },
  { id: 41, name: 'COMPACT_SCAN', cls: 'explain' },
  { id: 42, name: 'COMPACT_MIGRATE', cls: 'explain' },
  { id: 43, name: 'COMPACT_END', cls: 'explain' },
  { id: 44, name: 'RMQUEUE_CLUSTER', cls: 'explain' },
];

/**
 * Records only an imported kernel trace has (BLAB_TRACE_EVENT_TYPES, docs/events.md
 * "Imported traces"): kept apart from the core's table, as the C header keeps them.
 */
export const TRACE_EVENT_TYPES: readonly EventTypeInfo[] = [
  { id: 80, name: 'TRACE_ZONE', cls: 'state' },
  { id: 81, name: 'TRACE_UNKNOWN', cls: 'state' },
  { id: 82, name: 'TRACE_FREE_BATCHED', cls: 'explain' },
  { id: 83, name: 'TRACE_EXTFRAG', cls: 'explain' },
];

export const EV = {
  ZONE_INIT: 1,
  PAGEBLOCK_MT: 2,
  BUDDY_ADD: 3,
  BUDDY_DEL: 4,
  PCP_ADD: 5,
  PCP_DEL: 6,
  ALLOC: 7,
  FREE: 8,
  SPLIT: 9,
  MERGE: 10,
  RMQUEUE_BULK: 11,
  PCP_DRAIN: 12,
  LOCK_ACQUIRE: 13,
  LOCK_RELEASE: 14,
  ACCESS: 15,
  PREFETCH: 16,
  PREFETCH_WASTED: 17,
  FALLBACK: 18,
  ALLOC_FAIL: 19,
  MARK: 20,
  LOG_FULL: 21,
  PCP_HIGH: 22,
  TRACE_ZONE: 80,
  TRACE_UNKNOWN: 81,
  TRACE_FREE_BATCHED: 82,
  TRACE_EXTFRAG: 83,
  SLAB_CACHE_CREATE: 30,
  SLAB_ALLOC: 31,
  SLAB_FREE: 32,
  SLAB_REMOTE_FREE: 33,
  SLAB_FREELIST_PREFETCH: 34,
  SLAB_NEW: 35,
  SLAB_DISCARD: 36,
  SLAB_CPU_SLAB: 37,
  SLAB_PARTIAL: 38,
  COMPACT_BEGIN: 40,
  COMPACT_SCAN: 41,
  COMPACT_MIGRATE: 42,
  COMPACT_END: 43,
  RMQUEUE_CLUSTER: 44,
} as const;

const BY_ID: (EventTypeInfo | undefined)[] = [];
for (const t of [...EVENT_TYPES, ...TRACE_EVENT_TYPES]) BY_ID[t.id] = t;

export function eventName(id: number): string {
  return BY_ID[id]?.name ?? `type ${id}`;
}

export const MIGRATETYPES = ['UNMOVABLE', 'MOVABLE', 'RECLAIMABLE', 'HIGHATOMIC', 'CMA', 'ISOLATE'] as const;
export const NR_MIGRATETYPES = MIGRATETYPES.length;
export const LOCK_NAMES = ['zone->lock', 'lru_lock', 'list_lock'] as const;
export const ACCESS_OUTCOMES = [
  'L1 hit',
  'L2 hit',
  'LLC hit',
  'remote hit',
  'memory',
  'prefetch hit',
  'late prefetch',
  'plain', // the plain machine: the access happened, there is no cache model to cost it
] as const;
export const NR_OUTCOMES = ACCESS_OUTCOMES.length;
export const CPU_NONE = 0xffff;

/** Code paths (the `path` field), as BLAB_PATHS in blab_events.h names them. */
export const PATHS: readonly { id: number; name: string; where: string }[] = [
  { id: 0, name: 'NONE', where: 'none' },
  { id: 1, name: 'ZONE_INIT', where: 'zone set-up (memblock freeing)' },
  { id: 2, name: 'ALLOC_FAST', where: 'pcp alloc fast path (__rmqueue_pcplist)' },
  { id: 3, name: 'RMQUEUE_BULK', where: 'rmqueue_bulk' },
  { id: 4, name: 'FREE_FAST', where: 'pcp free fast path (free_unref_page_commit)' },
  { id: 5, name: 'BULK_PICK', where: 'free_pcppages_bulk: pick pages' },
  { id: 6, name: 'BULK_MERGE', where: 'free_pcppages_bulk: merge under zone->lock' },
  { id: 7, name: 'FREE_ONE_PAGE', where: '__free_one_page' },
  { id: 8, name: 'EXPAND', where: 'expand' },
  { id: 9, name: 'RMQUEUE', where: 'rmqueue without pcp (__rmqueue under zone->lock)' },
  { id: 10, name: 'FALLBACK', where: '__rmqueue_fallback' },
  { id: 11, name: 'FREE_DIRECT', where: 'free_one_page without pcp' },
  { id: 12, name: 'DRAIN', where: 'drain_pages' },
  { id: 13, name: 'COMPACT', where: 'compaction (merge skipped pages, migrate)' },
  { id: 14, name: 'DECAY', where: 'decay_pcp_high (the vmstat worker, about once a second)' },
  { id: 30, name: 'SLAB_ALLOC_FAST', where: 'slab_alloc fast path (c->freelist)' },
  { id: 31, name: 'SLAB_ALLOC_SLOW', where: '___slab_alloc slow path' },
  { id: 32, name: 'SLAB_FREE_FAST', where: 'slab_free fast path (c->freelist)' },
  { id: 33, name: 'SLAB_FREE_SLOW', where: "__slab_free to the slab's own freelist" },
  { id: 34, name: 'SLAB_NEW', where: 'new_slab: build the freelist of a fresh slab' },
  { id: 35, name: 'SLAB_DEACTIVATE', where: 'deactivate_slab / flush / discard_slab' },
];

// Path ids have gaps (each layer has its own range), so look them up by id.
const PATH_BY_ID = new Map(PATHS.map((p) => [p.id, p]));

/** A path's id by its name in PATHS (the contract test holds the names to blab_events.h). */
export const pathId = (name: string): number => PATHS.find((p) => p.name === name)!.id;

/** Where in the allocator a record was written, in words; undefined for NONE or unknown ids. */
export function pathWhere(id: number): string | undefined {
  return id > 0 ? PATH_BY_ID.get(id)?.where : undefined;
}

/** Flag bits, per type (docs/events.md). */
export const FLAG = {
  TAIL: 1, // BUDDY_ADD, PCP_ADD
  MERGE_SKIPPED: 2, // BUDDY_ADD
  COLD: 2, // PCP_ADD
  SPLIT_TOP: 1, // SPLIT: the lower half is listed, the upper one kept (2.4/2.5 expand())
  END: 1, // RMQUEUE_BULK, PCP_DRAIN
  OUTCOME_MASK: 0xf, // ACCESS
  WRITE: 0x10, // ACCESS
  SLAB_OBJECT: 0x8000, // ACCESS, PREFETCH, PREFETCH_WASTED: pfn = address - PAGE_OFFSET
  SLAB_SLOW: 1, // SLAB_ALLOC
  SLAB_TO_PARTIAL: 1, // SLAB_REMOTE_FREE
  SLAB_EMPTY: 2, // SLAB_REMOTE_FREE
  PARTIAL_DEL: 1, // SLAB_PARTIAL
} as const;

/** A SPLIT record's two halves (their first pfns) and which of them is listed. */
export interface SplitHalves {
  /** the half expand() puts on free_area[order] */
  listed: number;
  /** the half it cuts further or hands out */
  kept: number;
  /** the listed half's side of the block, the kept one's is the other */
  side: 'upper' | 'lower';
}

/**
 * A SPLIT record's halves. Since 2.6 the upper half is listed; the 2002 presets list the lower
 * one and keep the upper (FLAG.SPLIT_TOP).
 */
export function splitHalves(log: EventLog, i: number): SplitHalves {
  const pfn = log.pfn[i]!;
  const size = 2 ** log.order[i]!;
  return log.flags[i]! & FLAG.SPLIT_TOP ? { listed: pfn, kept: pfn + size, side: 'lower' } : { listed: pfn + size, kept: pfn, side: 'upper' };
}

/** One record, as plain numbers. `time` and `pfn` are exact below 2^53. */
export interface EventRecord {
  time: number;
  pfn: number;
  type: number;
  order: number;
  cpu: number;
  mt: number;
  path: number;
  flags: number;
  arg0: number;
  arg1: number;
}

/** A thrown decode or replay error, naming the record it is about. */
export class LogError extends Error {
  constructor(
    readonly index: number,
    detail: string,
  ) {
    super(index >= 0 ? `record ${index}: ${detail}` : detail);
    this.name = 'LogError';
  }
}

/** Hard limit on records in one log (docs/limits.md): 2^24 records = 512 MiB of input. */
export const MAX_RECORDS = 1 << 24;

export interface EventLogColumns {
  time: Float64Array;
  pfn: Float64Array;
  type: Uint8Array;
  order: Uint8Array;
  cpu: Uint16Array;
  mt: Uint8Array;
  path: Uint8Array;
  flags: Uint16Array;
  arg0: Uint32Array;
  arg1: Uint32Array;
}

/** A decoded log: one typed array per field, index = record number. */
export class EventLog {
  readonly length: number;
  readonly time: Float64Array;
  readonly pfn: Float64Array;
  readonly type: Uint8Array;
  readonly order: Uint8Array;
  readonly cpu: Uint16Array;
  readonly mt: Uint8Array;
  readonly path: Uint8Array;
  readonly flags: Uint16Array;
  readonly arg0: Uint32Array;
  readonly arg1: Uint32Array;

  constructor(length: number, columns?: EventLogColumns) {
    this.length = length;
    if (columns && Object.values(columns).some((a) => a.length !== length)) throw new RangeError(`EventLog: every column must have ${length} entries`);
    const c = columns ?? columnsIn(length);
    this.time = c.time;
    this.pfn = c.pfn;
    this.type = c.type;
    this.order = c.order;
    this.cpu = c.cpu;
    this.mt = c.mt;
    this.path = c.path;
    this.flags = c.flags;
    this.arg0 = c.arg0;
    this.arg1 = c.arg1;
  }

  /**
   * The typed arrays, to post a decoded log from a worker (transfer their buffers) and rebuild
   * it on the page with new EventLog(length, columns): no second decode on the main thread.
   * Columns from another thread are trusted only after the player replays them (it checks
   * every record); the type table is checked again here.
   */
  columns(): EventLogColumns {
    const { time, pfn, type, order, cpu, mt, path, flags, arg0, arg1 } = this;
    return { time, pfn, type, order, cpu, mt, path, flags, arg0, arg1 };
  }

  static fromColumns(c: EventLogColumns): EventLog {
    const log = new EventLog(c.type.length, c);
    for (let i = 0; i < log.length; i++) {
      if (BY_ID[log.type[i]!] === undefined) throw new LogError(i, `unknown event type ${log.type[i]}`);
    }
    const first = log.type[0];
    if (first !== EV.ZONE_INIT && first !== EV.TRACE_ZONE) throw new LogError(0, 'the first record must be ZONE_INIT (or TRACE_ZONE)');
    return log;
  }

  get(i: number): EventRecord {
    if (!Number.isInteger(i) || i < 0 || i >= this.length) {
      throw new RangeError(`event index ${i} is outside 0..${this.length - 1}`);
    }
    return {
      time: this.time[i]!,
      pfn: this.pfn[i]!,
      type: this.type[i]!,
      order: this.order[i]!,
      cpu: this.cpu[i]!,
      mt: this.mt[i]!,
      path: this.path[i]!,
      flags: this.flags[i]!,
      arg0: this.arg0[i]!,
      arg1: this.arg1[i]!,
    };
  }
}

/** The columns of `length` records carved out of one ArrayBuffer of 32 bytes a record, widest
 * first so each is aligned: one allocation, and one buffer to transfer between threads. */
function columnsIn(length: number): EventLogColumns {
  const buf = new ArrayBuffer(length * RECORD_SIZE);
  let at = 0;
  const take = <T>(make: new (b: ArrayBuffer, offset: number, n: number) => T, bytes: number): T => {
    const a = new make(buf, at, length);
    at += bytes * length;
    return a;
  };
  const time = take(Float64Array, 8);
  const pfn = take(Float64Array, 8);
  const arg0 = take(Uint32Array, 4);
  const arg1 = take(Uint32Array, 4);
  const cpu = take(Uint16Array, 2);
  const flags = take(Uint16Array, 2);
  return { time, pfn, arg0, arg1, cpu, flags, type: take(Uint8Array, 1), order: take(Uint8Array, 1), mt: take(Uint8Array, 1), path: take(Uint8Array, 1) };
}

/** The distinct buffers under some columns: what a postMessage transfers (a buffer listed
 * twice is refused). */
export function columnBuffers(c: EventLogColumns): ArrayBuffer[] {
  return [...new Set(Object.values(c).map((a: ArrayBufferView) => a.buffer as ArrayBuffer))];
}

const TWO_32 = 4294967296;
/** Typed views read the records in the host's byte order: the fast decode needs little-endian. */
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

function readU64(view: DataView, at: number, index: number, field: string): number {
  const lo = view.getUint32(at, true);
  const hi = view.getUint32(at + 4, true);
  if (hi >= 0x200000) {
    throw new LogError(index, `${field} = ${hi} * 2^32 + ${lo} does not fit in 53 bits`);
  }
  return lo + hi * TWO_32;
}

/** Decodes `count` records from `view` (starting at byte `at`) into `log` from record `first` on. */
function decodeRecords(view: DataView, at: number, log: EventLog, first: number, count: number): void {
  if (LITTLE_ENDIAN && (view.byteOffset + at) % 4 === 0) {
    decodeAligned(new Uint8Array(view.buffer, view.byteOffset + at, count * RECORD_SIZE), log, first, count);
    return;
  }
  for (let k = 0; k < count; k++, at += RECORD_SIZE) {
    const i = first + k;
    const type = view.getUint8(at + OFF.type);
    if (BY_ID[type] === undefined) {
      throw new LogError(i, `unknown event type ${type}`);
    }
    if (i === 0 && type !== EV.ZONE_INIT && type !== EV.TRACE_ZONE) {
      throw new LogError(0, `the first record must be ZONE_INIT (or TRACE_ZONE), found ${eventName(type)}`);
    }
    log.time[i] = readU64(view, at + OFF.time, i, 'time');
    log.pfn[i] = readU64(view, at + OFF.pfn, i, 'pfn');
    log.type[i] = type;
    log.order[i] = view.getUint8(at + OFF.order);
    log.cpu[i] = view.getUint16(at + OFF.cpu, true);
    log.mt[i] = view.getUint8(at + OFF.mt);
    log.path[i] = view.getUint8(at + OFF.path);
    log.flags[i] = view.getUint16(at + OFF.flags, true);
    log.arg0[i] = view.getUint32(at + OFF.arg0, true);
    log.arg1[i] = view.getUint32(at + OFF.arg1, true);
  }
}

/**
 * decodeRecords() through typed views of the bytes, each field one indexed load: the same
 * values, checks and errors as the DataView path, at a fraction of its cost (a DataView call
 * per field was most of an imported trace's decode).
 */
function decodeAligned(bytes: Uint8Array, log: EventLog, first: number, count: number): void {
  const u32 = new Uint32Array(bytes.buffer, bytes.byteOffset, count * 8);
  const u16 = new Uint16Array(bytes.buffer, bytes.byteOffset, count * 16);
  const { time, pfn, type: types, order, cpu, mt, path, flags, arg0, arg1 } = log;
  for (let k = 0; k < count; k++) {
    const i = first + k;
    const w = k * 8;
    const b = k * RECORD_SIZE;
    const type = bytes[b + OFF.type]!;
    if (BY_ID[type] === undefined) throw new LogError(i, `unknown event type ${type}`);
    if (i === 0 && type !== EV.ZONE_INIT && type !== EV.TRACE_ZONE) {
      throw new LogError(0, `the first record must be ZONE_INIT (or TRACE_ZONE), found ${eventName(type)}`);
    }
    const timeHi = u32[w + 1]!;
    if (timeHi >= 0x200000) throw new LogError(i, `time = ${timeHi} * 2^32 + ${u32[w]} does not fit in 53 bits`);
    const pfnHi = u32[w + 3]!;
    if (pfnHi >= 0x200000) throw new LogError(i, `pfn = ${pfnHi} * 2^32 + ${u32[w + 2]} does not fit in 53 bits`);
    time[i] = u32[w]! + timeHi * TWO_32;
    pfn[i] = u32[w + 2]! + pfnHi * TWO_32;
    types[i] = type;
    order[i] = bytes[b + OFF.order]!;
    cpu[i] = u16[k * 16 + OFF.cpu / 2]!;
    mt[i] = bytes[b + OFF.mt]!;
    path[i] = bytes[b + OFF.path]!;
    flags[i] = u16[k * 16 + OFF.flags / 2]!;
    arg0[i] = u32[w + OFF.arg0 / 4]!;
    arg1[i] = u32[w + OFF.arg1 / 4]!;
  }
}

/** The size checks of a whole log of `bytes` bytes: the record count, or a LogError. */
function recordCount(bytes: number): number {
  if (bytes === 0) throw new LogError(-1, 'the event log is empty: expected at least a ZONE_INIT record');
  if (bytes % RECORD_SIZE !== 0) {
    const whole = Math.floor(bytes / RECORD_SIZE);
    throw new LogError(
      whole,
      `the log is ${bytes} bytes, not a multiple of ${RECORD_SIZE}: record ${whole} is cut short (${bytes % RECORD_SIZE} bytes)`,
    );
  }
  const n = bytes / RECORD_SIZE;
  if (n > MAX_RECORDS) {
    throw new LogError(-1, `the log has ${n} records; the limit is ${MAX_RECORDS}`);
  }
  return n;
}

/**
 * Decodes a whole log. Throws LogError when the length is not a multiple of 32, a record has an
 * unknown type, or the first record is neither ZONE_INIT nor (an imported trace) TRACE_ZONE. State transitions are checked later, by
 * the player (it knows where every page is).
 */
export function decodeEvents(source: ArrayBuffer | ArrayBufferView): EventLog {
  const { view, log } = emptyLogFor(source);
  decodeRecords(view, 0, log, 0, log.length);
  return log;
}

/** A view of the bytes and an empty log of as many records, after the size checks. */
function emptyLogFor(source: ArrayBuffer | ArrayBufferView): { view: DataView; log: EventLog } {
  const view =
    source instanceof ArrayBuffer
      ? new DataView(source)
      : new DataView(source.buffer, source.byteOffset, source.byteLength);
  return { view, log: new EventLog(recordCount(view.byteLength)) };
}

/**
 * decodeEvents() in slices of about `sliceMs`, a macrotask between them, so that a large log
 * (a compare column's replay) never blocks the page for long: the same checks, errors and
 * result as decodeEvents().
 */
export async function decodeEventsInSlices(source: ArrayBuffer | ArrayBufferView, sliceMs = 30): Promise<EventLog> {
  const { view, log } = emptyLogFor(source);
  const n = log.length;
  let chunk = 4096;
  for (let i = 0; i < n; ) {
    const t0 = performance.now();
    const count = Math.min(chunk, n - i);
    decodeRecords(view, i * RECORD_SIZE, log, i, count);
    i += count;
    // aim each slice at sliceMs, whatever the machine's speed (as Player.build does)
    const took = performance.now() - t0;
    chunk = Math.max(1024, Math.min(1 << 20, Math.round(chunk * (took > 0 ? Math.min(4, sliceMs / took) : 4))));
    if (i < n) await nextTask();
  }
  return log;
}

/**
 * decodeEvents() for a log that arrives in pieces (a file read slice by slice in a worker): the
 * typed arrays are the only copy of the log, so a 2^24-record file never sits in memory twice.
 * Same checks, same errors, same result as decodeEvents() on the whole file.
 */
export class BinaryLogReader {
  private readonly log: EventLog;
  private readonly carry = new Uint8Array(RECORD_SIZE);
  private carried = 0;
  private next = 0;
  private seen = 0;

  /** `totalBytes`: the file's size, checked before anything is read */
  constructor(private readonly totalBytes: number) {
    this.log = new EventLog(recordCount(totalBytes));
  }

  feed(chunk: Uint8Array): void {
    if (this.seen + chunk.length > this.totalBytes) throw new LogError(-1, `the log grew while it was read (more than ${this.totalBytes} bytes)`);
    this.seen += chunk.length;
    let at = 0;
    if (this.carried > 0) {
      // a record cut by the chunk boundary: completed from this chunk first
      const take = Math.min(RECORD_SIZE - this.carried, chunk.length);
      this.carry.set(chunk.subarray(0, take), this.carried);
      this.carried += take;
      at = take;
      if (this.carried < RECORD_SIZE) return;
      decodeRecords(new DataView(this.carry.buffer), 0, this.log, this.next++, 1);
      this.carried = 0;
    }
    const whole = Math.floor((chunk.length - at) / RECORD_SIZE);
    decodeRecords(new DataView(chunk.buffer, chunk.byteOffset, chunk.byteLength), at, this.log, this.next, whole);
    this.next += whole;
    at += whole * RECORD_SIZE;
    this.carry.set(chunk.subarray(at), 0);
    this.carried = chunk.length - at;
  }

  /** The decoded log, once every byte has been fed. */
  finish(): EventLog {
    if (this.seen !== this.totalBytes) throw new LogError(this.next, `the log ended after ${this.seen} of ${this.totalBytes} bytes`);
    return this.log;
  }
}

/** Test and tooling helper: the exact inverse of decodeEvents for in-range values. */
export function encodeEvents(records: readonly Partial<EventRecord>[]): ArrayBuffer {
  const buf = new ArrayBuffer(records.length * RECORD_SIZE);
  const view = new DataView(buf);
  records.forEach((r, i) => {
    const at = i * RECORD_SIZE;
    const u64 = (off: number, v: number) => {
      view.setUint32(at + off, v % TWO_32, true);
      view.setUint32(at + off + 4, Math.floor(v / TWO_32), true);
    };
    u64(OFF.time, r.time ?? i);
    u64(OFF.pfn, r.pfn ?? 0);
    view.setUint8(at + OFF.type, r.type ?? 0);
    view.setUint8(at + OFF.order, r.order ?? 0);
    view.setUint16(at + OFF.cpu, r.cpu ?? CPU_NONE, true);
    view.setUint8(at + OFF.mt, r.mt ?? 0);
    view.setUint8(at + OFF.path, r.path ?? 0);
    view.setUint16(at + OFF.flags, r.flags ?? 0, true);
    view.setUint32(at + OFF.arg0, r.arg0 ?? 0, true);
    view.setUint32(at + OFF.arg1, r.arg1 ?? 0, true);
  });
  return buf;
}
