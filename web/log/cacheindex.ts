// The cache records of a log (ACCESS, PREFETCH, PREFETCH_WASTED), indexed per CPU once, so a
// view can ask "the last n cache records of cpu c before this step" at every frame.

import { EV, FLAG, NR_OUTCOMES, type EventLog } from './events';

/** What one strip cell shows: an access outcome (0..7), or a prefetch issued / wasted. */
export const STRIP = {
  PREFETCH: NR_OUTCOMES,
  WASTED: NR_OUTCOMES + 1,
} as const;

export function stripKind(log: EventLog, i: number): number {
  const t = log.type[i]!;
  if (t === EV.ACCESS) return log.flags[i]! & FLAG.OUTCOME_MASK;
  return t === EV.PREFETCH ? STRIP.PREFETCH : STRIP.WASTED;
}

export class CacheIndex {
  /** per CPU: indices of its cache records, ascending */
  private readonly perCpu: Int32Array[];

  constructor(readonly log: EventLog, cpus: number) {
    const lists: number[][] = Array.from({ length: cpus }, () => []);
    for (let i = 0; i < log.length; i++) {
      const t = log.type[i]!;
      if (t !== EV.ACCESS && t !== EV.PREFETCH && t !== EV.PREFETCH_WASTED) continue;
      lists[log.cpu[i]!]?.push(i);
    }
    this.perCpu = lists.map((l) => Int32Array.from(l));
  }

  /** True when the log has any cache record (the log mask may leave them out). */
  get present(): boolean {
    return this.perCpu.some((l) => l.length > 0);
  }

  /** The last `n` cache record indices of `cpu` before `step`, oldest first. */
  recent(cpu: number, step: number, n: number): number[] {
    const l = this.perCpu[cpu];
    if (!l) return [];
    let lo = 0;
    let hi = l.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (l[mid]! < step) lo = mid + 1;
      else hi = mid;
    }
    return Array.from(l.subarray(Math.max(0, lo - n), lo));
  }
}
