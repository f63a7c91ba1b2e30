// The player: the state at any step is apply(keyframe, events[k..step]).
//
// On load the whole log is replayed once: that validates every transition (a bad log fails
// here, naming its record, not later in the middle of a lecture) and stores a keyframe every
// K events. seek(step) restores the nearest keyframe at or before step and applies the rest,
// so stepping back is exactly as correct as stepping forward.

import { nextTask } from './yield';
import { EV, FLAG, pathId, type EventLog } from './events';

/** drain_pages()'s path */
const PATH_DRAIN = pathId('DRAIN');
/** rmqueue_bulk()'s and free_pcppages_bulk()'s merge under zone->lock */
const PATH_RMQUEUE_BULK = pathId('RMQUEUE_BULK');
const PATH_BULK_MERGE = pathId('BULK_MERGE');
/** how far back a CPU's previous record is looked for (imported runs interleave CPUs) */
const RUN_LOOKBACK = 256;
import { LOCK_STAT, MAX_LOCKS, ZoneState, applyEvent, geometryFromLog } from './state';
import { SLAB_SLOTS, logHasSlab } from './slabstate';

export interface PlayerOptions {
  /** events between keyframes; default chosen from the log size and a memory budget */
  keyframeInterval?: number;
  /** bytes all keyframes together may take (default 96 MiB) */
  keyframeBudget?: number;
  /** internal to Player.build(): set up only, the caller replays the records */
  deferBuild?: boolean;
}

/**
 * An imported trace has no PCP_DRAIN or RMQUEUE_BULK records: its mm_page_pcpu_drain events
 * replay as PCP_DEL + BUDDY_ADD on the BULK_MERGE path, its percpu_refill=1
 * mm_page_alloc_zone_locked events as BUDDY_DEL on RMQUEUE_BULK + PCP_ADD. A drain (refill)
 * starts at the first record of a CPU's run of them, as `blab import` counts drain_batches.
 */
function importedRunStart(l: EventLog, i: number, type: number, path: number): boolean {
  if (l.type[0] !== EV.TRACE_ZONE || l.type[i] !== type || l.path[i] !== path) return false;
  const cpu = l.cpu[i];
  for (let j = i - 1; j > 0 && j >= i - RUN_LOOKBACK; j--) if (l.cpu[j] === cpu) return l.path[j] !== path;
  return true;
}

/** Kinds of event the player can jump to. */
export const JUMP_KINDS = {
  merge: { label: 'MERGE (__free_one_page)', test: (l: EventLog, i: number) => l.type[i] === EV.MERGE },
  split: { label: 'SPLIT (expand)', test: (l: EventLog, i: number) => l.type[i] === EV.SPLIT },
  drain: {
    label: 'PCP_DRAIN (free_pcppages_bulk)',
    test: (l: EventLog, i: number) =>
      (l.type[i] === EV.PCP_DRAIN && (l.flags[i]! & FLAG.END) === 0) || importedRunStart(l, i, EV.PCP_DEL, PATH_BULK_MERGE),
  },
  refill: {
    label: 'RMQUEUE_BULK (rmqueue_bulk)',
    test: (l: EventLog, i: number) =>
      (l.type[i] === EV.RMQUEUE_BULK && (l.flags[i]! & FLAG.END) === 0) || importedRunStart(l, i, EV.BUDDY_DEL, PATH_RMQUEUE_BULK),
  },
  contended: {
    label: 'contended LOCK_ACQUIRE',
    test: (l: EventLog, i: number) => l.type[i] === EV.LOCK_ACQUIRE && l.arg0[i]! > 0,
  },
  // a prefetch that fetched a line (arg1 = 1: the line was in L1 already, nothing to watch)
  prefetch: {
    label: 'PREFETCH that fetches a line (prefetch_buddy)',
    test: (l: EventLog, i: number) => l.type[i] === EV.PREFETCH && l.arg1[i] === 0 && (l.flags[i]! & FLAG.SLAB_OBJECT) === 0,
  },
  // the slab layer (hackbench): a pop off c->freelist, a free onto another CPU's slab, and the
  // freelist prefetch
  slab_alloc: {
    label: 'SLAB_ALLOC (slab_alloc)',
    test: (l: EventLog, i: number) => l.type[i] === EV.SLAB_ALLOC,
  },
  remote_free: {
    label: 'SLAB_REMOTE_FREE (__slab_free)',
    test: (l: EventLog, i: number) => l.type[i] === EV.SLAB_REMOTE_FREE,
  },
  slab_prefetch: {
    label: 'SLAB_FREELIST_PREFETCH (prefetch_freepointer)',
    test: (l: EventLog, i: number) => l.type[i] === EV.SLAB_FREELIST_PREFETCH,
  },
} as const;
export type JumpKind = keyof typeof JUMP_KINDS;

export type CpuLockState = 'running' | 'spinning' | 'holding';

export class Player {
  readonly log: EventLog;
  readonly K: number;
  private readonly keyframes: ZoneState[] = [];
  private readonly cur: ZoneState;
  /** per CPU: indices of its zone->lock acquisitions, ascending (for "spinning") */
  private readonly acquires: number[][];

  constructor(log: EventLog, opts: PlayerOptions = {}) {
    this.log = log;
    const geo = geometryFromLog(log);
    const s = new ZoneState(geo, logHasSlab(log) ? SLAB_SLOTS : 0);
    const budget = opts.keyframeBudget ?? 96 * 1024 * 1024;
    const maxFrames = Math.max(2, Math.floor(budget / s.snapshotBytes()));
    this.K = Math.max(1, opts.keyframeInterval ?? Math.max(256, Math.ceil(log.length / maxFrames)));
    this.acquires = Array.from({ length: geo.cpus }, () => []);
    this.cur = s; // at the end of the log once built
    if (opts.deferBuild) return;
    this.buildRange(0, log.length);
  }

  /** Replays records [from, to) into the current state, storing keyframes on the way. */
  private buildRange(from: number, to: number): void {
    const { log, cur: s } = this;
    for (let i = from; i < to; i++) {
      if (i % this.K === 0) this.keyframes.push(s.clone());
      applyEvent(s, log, i);
      if (log.type[i] === EV.LOCK_ACQUIRE && log.mt[i] === 0) this.acquires[log.cpu[i]!]!.push(i);
    }
    if (to === log.length && log.length % this.K === 0) this.keyframes.push(s.clone());
  }

  /**
   * The same player as `new Player(log)`, built in slices of about `sliceMs` with a macrotask
   * between them, so that a large log (an imported trace) never blocks the page for long.
   * `onProgress(done, total)` after each slice; `signal` aborts (the promise rejects).
   */
  static async build(
    log: EventLog,
    opts: PlayerOptions & { sliceMs?: number; signal?: AbortSignal; onProgress?: (done: number, total: number) => void } = {},
  ): Promise<Player> {
    const p = new Player(log, { ...opts, deferBuild: true });
    const sliceMs = opts.sliceMs ?? 30;
    let i = 0;
    let chunk = 1024;
    while (i < log.length) {
      const t0 = performance.now();
      const to = Math.min(log.length, i + chunk);
      p.buildRange(i, to);
      i = to;
      // aim each slice at sliceMs, whatever the machine's speed
      const took = performance.now() - t0;
      chunk = Math.max(256, Math.min(1 << 20, Math.round(chunk * (took > 0 ? Math.min(4, sliceMs / took) : 4))));
      opts.onProgress?.(i, log.length);
      if (i < log.length) {
        await nextTask();
        if (opts.signal?.aborted) throw new Error('building the player was cancelled');
      }
    }
    if (log.length === 0) p.buildRange(0, 0);
    return p;
  }

  /** Number of steps: step 0 is before the first record, step `length` after the last. */
  get length(): number {
    return this.log.length;
  }

  get step(): number {
    return this.cur.step;
  }

  /** The current state. Views read it; they must not change it. */
  get state(): ZoneState {
    return this.cur;
  }

  /** Moves to `step` (clamped to 0..length) and returns the state there. */
  seek(step: number): ZoneState {
    const target = Math.max(0, Math.min(this.length, Math.floor(step)));
    const from = this.cur.step;
    if (!(target >= from && target - from <= this.K)) {
      const kf = this.keyframes[Math.floor(target / this.K)]!;
      this.cur.copyFrom(kf);
    }
    for (let i = this.cur.step; i < target; i++) applyEvent(this.cur, this.log, i);
    return this.cur;
  }

  stepForward(n = 1): ZoneState {
    return this.seek(this.cur.step + n);
  }

  stepBack(n = 1): ZoneState {
    return this.seek(this.cur.step - n);
  }

  /**
   * The step just after the next event of `kind` (so that event is the current one), or
   * undefined when there is none after the current step.
   */
  findNext(kind: JumpKind, from = this.cur.step): number | undefined {
    const t = JUMP_KINDS[kind].test;
    for (let i = from; i < this.length; i++) if (t(this.log, i)) return i + 1;
    return undefined;
  }

  /** The step of the previous event of `kind` before the current one. */
  findPrev(kind: JumpKind, from = this.cur.step): number | undefined {
    const t = JUMP_KINDS[kind].test;
    for (let i = from - 2; i >= 0; i--) if (t(this.log, i)) return i + 1;
    return undefined;
  }

  /**
   * Pages whose state may differ between step `a` and step `b` (either order), as
   * [first page index, page count] ranges: the blocks of the state events between the two
   * steps, which are the only records that move pages. Null when more than `maxEvents` records
   * lie between them: then the caller should treat every page as changed. Views use it to
   * repaint only what changed; it reads the log alone, so it is as exact as the player.
   */
  changedPages(a: number, b: number, maxEvents = 4096): [number, number][] | null {
    const lo = Math.max(0, Math.min(a, b));
    const hi = Math.min(this.length, Math.max(a, b));
    if (hi - lo > maxEvents) return null;
    const l = this.log;
    const start = this.cur.geo.startPfn;
    const pages = this.cur.geo.pages;
    const out: [number, number][] = [];
    for (let i = lo; i < hi; i++) {
      const t = l.type[i]!;
      if (t < EV.BUDDY_ADD || t > EV.FREE) continue; // state events that move blocks: 3..8
      const first = l.pfn[i]! - start;
      const n = 2 ** l.order[i]!;
      if (first >= pages || first + n <= 0) continue;
      const f = Math.max(0, first);
      out.push([f, Math.min(pages, first + n) - f]);
    }
    return out;
  }

  /** The record applied last (the "current event"), or undefined at step 0. */
  currentIndex(): number | undefined {
    return this.cur.step > 0 ? this.cur.step - 1 : undefined;
  }

  /**
   * zone->lock state of a CPU at the current step. Holding comes from the state; spinning from
   * the CPU's next acquisition, whose arg0 says how long it spun before it got the lock.
   */
  lockState(cpu: number): CpuLockState {
    if (this.cur.lockHeld[cpu * MAX_LOCKS]) return 'holding';
    const acq = this.acquires[cpu];
    if (!acq || acq.length === 0) return 'running';
    // first acquisition at or after the current step
    let lo = 0;
    let hi = acq.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (acq[mid]! < this.cur.step) lo = mid + 1;
      else hi = mid;
    }
    const next = acq[lo];
    if (next === undefined) return 'running';
    const spun = this.log.arg0[next]!;
    const startedSpinning = this.log.time[next]! - spun;
    return spun > 0 && this.cur.time >= startedSpinning ? 'spinning' : 'running';
  }

  /** zone->lock totals for one CPU at the current step. */
  lockStats(cpu: number) {
    const b = cpu * 4;
    const s = this.cur.lockStats;
    return {
      acquisitions: s[b + LOCK_STAT.ACQ]!,
      contended: s[b + LOCK_STAT.CONTENDED]!,
      spinCycles: s[b + LOCK_STAT.SPIN]!,
      holdCycles: s[b + LOCK_STAT.HOLD]!,
    };
  }

  /** pcp `batch` and `high` as the log shows them (first refill's batch; lowest drain trigger). */
  observedPcp(): { batch: number | undefined; high: number | undefined } {
    let batch: number | undefined;
    let high: number | undefined;
    const l = this.log;
    for (let i = 0; i < l.length; i++) {
      // arg0 of a refill is batch >> order: only an order-0 refill states batch itself
      if (l.type[i] === EV.RMQUEUE_BULK && !(l.flags[i]! & FLAG.END) && l.order[i] === 0 && batch === undefined) {
        batch = l.arg0[i];
      }
      // a drain triggered by a free starts at count >= high; drain_pages() (path DRAIN) empties
      // the list whatever its count, so it says nothing about high
      if (l.type[i] === EV.PCP_DRAIN && !(l.flags[i]! & FLAG.END) && l.path[i] !== PATH_DRAIN) {
        high = Math.min(high ?? Infinity, l.arg1[i]!);
      }
    }
    return { batch, high };
  }
}
