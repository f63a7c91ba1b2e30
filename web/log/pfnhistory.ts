// A page's history: every record of the log in which a pfn took part (its block was allocated,
// freed, split, merged, moved onto or off a pcp list by a refill or a drain, onto or off a free
// list), built once per log and asked for one pfn at a time.
//
// A record names a block (head pfn, order), so the index keys records by block, not by page:
// the pfn p belongs to the block of order k headed at p & ~(2^k - 1), so a question about p
// looks up one key per order. Memory is one 8-byte entry per block record, whatever the
// blocks' sizes (an order-10 MERGE is one entry, not 1024).
import { EV, type EventLog } from './events';

/** What a page went through at one record, in the kernel's words. */
export type PfnEventKind =
  | 'alloc'
  | 'free'
  | 'split'
  | 'merge'
  | 'refill'
  | 'drain'
  | 'pcp add'
  | 'pcp del'
  | 'buddy add'
  | 'buddy del'
  | 'unknown before the trace';

export interface PfnEvent {
  /** the record's index; the step after it is index + 1 */
  index: number;
  kind: PfnEventKind;
  /** the block the record names: its head pfn and order */
  head: number;
  order: number;
  cpu: number;
}

/** BLAB_PATH_RMQUEUE_BULK; and free_pcppages_bulk()'s paths (picking, merging) and
 * drain_pages(): a page leaving a pcp list on one of them is drained (events.ts PATHS) */
const PATH_RMQUEUE_BULK = 3;
const DRAIN_PATHS = new Set([5, 6, 12]);
/** the largest order a record may name (the key keeps 5 bits for it) */
const ORDER_BITS = 5;
/** record indices up to 2^24 (the largest log, docs/limits.md) */
const INDEX_SCALE = 2 ** 24;

/** The block a record moves, and what it is for the pages in it; undefined for other records. */
function blockOf(log: EventLog, i: number): { kind: PfnEventKind; head: number; order: number } | undefined {
  const t = log.type[i]!;
  const pfn = log.pfn[i]!;
  const o = log.order[i]!;
  const path = log.path[i]!;
  switch (t) {
    case EV.ALLOC:
      return { kind: 'alloc', head: pfn, order: o };
    case EV.FREE:
      return { kind: 'free', head: pfn, order: o };
    case EV.SPLIT:
      // the order o + 1 block at pfn is halved: every page of it took part
      return { kind: 'split', head: pfn, order: o + 1 };
    case EV.MERGE: {
      // pfn's order-o block and its buddy become the order o + 1 block at the lower of the two
      const buddy = log.pfn[0]! + log.arg0[i]!;
      return { kind: 'merge', head: Math.min(pfn, buddy), order: o + 1 };
    }
    case EV.PCP_ADD:
      return { kind: path === PATH_RMQUEUE_BULK ? 'refill' : 'pcp add', head: pfn, order: o };
    case EV.PCP_DEL:
      return { kind: DRAIN_PATHS.has(path) ? 'drain' : 'pcp del', head: pfn, order: o };
    case EV.BUDDY_ADD:
      return { kind: 'buddy add', head: pfn, order: o };
    case EV.BUDDY_DEL:
      return { kind: 'buddy del', head: pfn, order: o };
    case EV.TRACE_UNKNOWN:
      return { kind: 'unknown before the trace', head: pfn, order: o };
    default:
      return undefined;
  }
}

export class PfnHistory {
  /** (block key * 2^24 + record index), sorted: a block's records are one run, in log order */
  private readonly entries: Float64Array;
  private readonly start: number;
  private readonly maxOrder: number;

  constructor(readonly log: EventLog) {
    const n = log.length;
    this.start = n ? log.pfn[0]! : 0;
    const e = new Float64Array(n);
    let k = 0;
    let top = 0;
    for (let i = 1; i < n; i++) {
      const b = blockOf(log, i);
      if (!b || b.head < this.start || b.order >= 1 << ORDER_BITS) continue;
      if (b.order > top) top = b.order;
      e[k++] = this.key(b.head, b.order) * INDEX_SCALE + i;
    }
    this.maxOrder = top;
    this.entries = e.slice(0, k).sort();
  }

  private key(head: number, order: number): number {
    return (head - this.start) * (1 << ORDER_BITS) + order;
  }

  /** First entry at or after value (binary search). */
  private lower(value: number): number {
    let lo = 0;
    let hi = this.entries.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.entries[mid]! < value) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Every record the page at `pfn` took part in, in log order. */
  of(pfn: number): PfnEvent[] {
    if (!Number.isInteger(pfn) || pfn < this.start) return [];
    const out: PfnEvent[] = [];
    for (let o = 0; o <= this.maxOrder; o++) {
      const head = pfn - (pfn % 2 ** o);
      if (head < this.start) break;
      const key = this.key(head, o);
      for (let j = this.lower(key * INDEX_SCALE); j < this.entries.length; j++) {
        const v = this.entries[j]!;
        if (Math.floor(v / INDEX_SCALE) !== key) break;
        const i = v % INDEX_SCALE;
        const b = blockOf(this.log, i)!;
        out.push({ index: i, kind: b.kind, head: b.head, order: b.order, cpu: this.log.cpu[i]! });
      }
    }
    return out.sort((a, b) => a.index - b.index);
  }
}

/** The history index of a log, built on the first question and kept while the log lives. */
const built = new WeakMap<EventLog, PfnHistory>();
export function pfnHistory(log: EventLog): PfnHistory {
  let h = built.get(log);
  if (!h) built.set(log, (h = new PfnHistory(log)));
  return h;
}
