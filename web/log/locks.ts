// Lock intervals per CPU (zone->lock by default; any lock id of the log), read off the log once: when each CPU spun and when it held the
// lock. The lock timeline view draws these; the player's state says where "now" is.

import { EV, type EventLog } from './events';

export interface LockIntervals {
  /** per CPU, flat [start, end, start, end, ...] in time units, ascending */
  readonly spin: Float64Array[];
  readonly hold: Float64Array[];
  /** time of the last record */
  readonly end: number;
  /** mean cycles from one acquisition to the next on the zone (0 when there are none) */
  readonly meanGap: number;
}

export function lockIntervals(log: EventLog, cpus: number, lock = 0): LockIntervals {
  const spin: number[][] = Array.from({ length: cpus }, () => []);
  const hold: number[][] = Array.from({ length: cpus }, () => []);
  const since = new Float64Array(cpus).fill(-1);
  let acquisitions = 0;
  let first = Infinity;
  let last = -Infinity;
  for (let i = 0; i < log.length; i++) {
    const t = log.type[i]!;
    if ((t !== EV.LOCK_ACQUIRE && t !== EV.LOCK_RELEASE) || log.mt[i] !== lock) continue;
    const cpu = log.cpu[i]!;
    if (cpu >= cpus) continue; // the player has already rejected such a log
    const time = log.time[i]!;
    if (t === EV.LOCK_ACQUIRE) {
      const spun = log.arg0[i]!;
      if (spun > 0) spin[cpu]!.push(time - spun, time);
      since[cpu] = time;
      acquisitions++;
      first = Math.min(first, time);
      last = Math.max(last, time);
    } else if (since[cpu]! >= 0) {
      hold[cpu]!.push(since[cpu]!, time);
      since[cpu] = -1;
    }
  }
  const end = log.length ? log.time[log.length - 1]! : 0;
  // a lock still held at the end of the log is held until the end
  for (let c = 0; c < cpus; c++) if (since[c]! >= 0) hold[c]!.push(since[c]!, Math.max(end, since[c]!));
  return {
    spin: spin.map((a) => Float64Array.from(a)),
    hold: hold.map((a) => Float64Array.from(a)),
    end,
    meanGap: acquisitions > 1 ? (last - first) / (acquisitions - 1) : 0,
  };
}

/** Index of the first interval (pair index) whose end is >= t. */
export function firstEndingAfter(flat: Float64Array, t: number): number {
  let lo = 0;
  let hi = flat.length / 2;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (flat[mid * 2 + 1]! < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** How many intervals start at or before t (starts ascend: acquisitions up to t). */
export function countStartingBy(flat: Float64Array, t: number): number {
  let lo = 0;
  let hi = flat.length / 2;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (flat[mid * 2]! <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** How many intervals end at or before t (a spin ends when the lock is got: contended acquisitions up to t). */
export function countEndingBy(flat: Float64Array, t: number): number {
  let lo = 0;
  let hi = flat.length / 2;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (flat[mid * 2 + 1]! <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
