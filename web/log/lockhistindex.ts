// Hold and wait times of a lock, as histograms over power-of-two bins, for any step: read off
// the log once, then answered by binary search, so the views can ask at every frame.
//
// Wait = LOCK_ACQUIRE's arg0 (cycles spun before the lock was granted); hold = LOCK_RELEASE's
// arg0 (cycles from taking to dropping it). Both are in the log's time units.

import { EV, type EventLog } from './events';

/** Bin k holds values in [2^(k-1), 2^k) for k >= 1; bin 0 holds 0. The last bin is open-ended. */
export const NR_BINS = 24;

export function binOf(v: number): number {
  if (v <= 0) return 0;
  return Math.min(NR_BINS - 1, Math.floor(Math.log2(v)) + 1);
}

/** The lower edge of bin k (0, 1, 2, 4, 8, ...). */
export const binLow = (k: number) => (k === 0 ? 0 : 2 ** (k - 1));

export interface LockHistogram {
  /** records counted per bin */
  counts: number[];
  /** how many records, and the sum of their values */
  n: number;
  total: number;
}

export interface LockHistogramsAt {
  wait: LockHistogram;
  hold: LockHistogram;
  /** acquisitions that spun (wait > 0) */
  contended: number;
}

interface Series {
  /** per bin: record indices, ascending */
  byBin: Int32Array[];
  /** all record indices ascending, and the running sum of values up to and including each */
  index: Int32Array;
  cumsum: Float64Array;
}

function lowerBound(a: Int32Array, x: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (a[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function build(log: EventLog, type: number, lock: number): Series {
  const idx: number[] = [];
  const bins: number[][] = Array.from({ length: NR_BINS }, () => []);
  for (let i = 0; i < log.length; i++) {
    if (log.type[i] !== type || log.mt[i] !== lock) continue;
    idx.push(i);
    bins[binOf(log.arg0[i]!)]!.push(i);
  }
  const index = Int32Array.from(idx);
  const cumsum = new Float64Array(index.length);
  let s = 0;
  for (let k = 0; k < index.length; k++) cumsum[k] = s += log.arg0[index[k]!]!;
  return { byBin: bins.map((b) => Int32Array.from(b)), index, cumsum };
}

function at(s: Series, step: number): LockHistogram {
  const n = lowerBound(s.index, step);
  return { counts: s.byBin.map((b) => lowerBound(b, step)), n, total: n ? s.cumsum[n - 1]! : 0 };
}

/** Histograms of one lock (0 = zone->lock, 1 = lru_lock, ...), answered for any step. */
export class LockHistograms {
  private readonly wait: Series;
  private readonly hold: Series;

  constructor(log: EventLog, readonly lock: number) {
    this.wait = build(log, EV.LOCK_ACQUIRE, lock);
    this.hold = build(log, EV.LOCK_RELEASE, lock);
  }

  /** True when the log has any acquisition of this lock. */
  get present(): boolean {
    return this.wait.index.length > 0;
  }

  /** Everything recorded before `step` (records 0 .. step-1). */
  at(step: number): LockHistogramsAt {
    const wait = at(this.wait, step);
    return { wait, hold: at(this.hold, step), contended: wait.n - wait.counts[0]! };
  }
}
