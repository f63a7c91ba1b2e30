// A pool of engine workers (one WebAssembly core each) that runs sweep points side by side
// (and, ahead of them, any run whose event log a page replays: replay()).
// Points are independent (point.ts), so the pool may run them in any order on any worker and a
// sweep's counters are the same as one worker running them one after another (the e2e test
// compares the two). The longest points go first, so the last one finishes soonest.
// Cancel terminates every worker at once: a WebAssembly run cannot be interrupted from
// outside, and a terminated worker stops within milliseconds; the next point starts a fresh one.
import type { ReplayResult, SimRequest } from './blab-module';
import { EngineClient } from './engine-client';
import { checkedStats, pointKey, pointWork } from './point';
import type { ResultsCache } from './results-cache';
import type { SimStats } from './simstats';

/** Where a point's counters came from. */
export type PointSource = 'run' | 'cache' | 'given';

export interface PointDone {
  /** the request's index in what run() was given (a key asked for twice settles both) */
  index: number;
  key: string;
  /** every counter of the run */
  stats: SimStats;
  source: PointSource;
}

export interface PoolProgress {
  /** distinct points settled (given, cached or run) of all */
  done: number;
  total: number;
  elapsedMs: number;
  /** an estimate of the time left, from the work done so far; null before any point has run */
  etaMs: number | null;
}

export interface RunOptions {
  onPoint?: (p: PointDone) => void;
  onProgress?: (p: PoolProgress) => void;
  /** counters already known by key (a lesson's shipped results): used without running */
  known?: ReadonlyMap<string, SimStats>;
  /** false: run every point even where the cache has it ("Run live"); results are still kept */
  readCache?: boolean;
  /** points with a higher priority start first (default 0), e.g. a chart's before a table's
   * extra seeds; among equals the longest starts first */
  priority?: (index: number) => number;
}

/** Thrown by run() when cancel() stopped it. */
export class PoolCancelled extends Error {
  override name = 'PoolCancelled';
  constructor() {
    super('cancelled');
  }
}

/** One worker's side as the pool uses it: the engine client in the browser, the module in Vitest. */
export interface PointRunner {
  sim(req: SimRequest): Promise<ReplayResult>;
  /** stops the run in progress and keeps the worker; false when it cannot (then dispose()) */
  cancelRun?(): boolean;
  /** stops the worker now; the next sim() starts a fresh one */
  dispose(): void;
}

/** Workers for this browser: one per hardware thread, at most 8 (each core instance reserves
 * its own 512 MB of WebAssembly memory). */
export function defaultPoolSize(): number {
  const n = typeof navigator === 'undefined' ? 2 : navigator.hardwareConcurrency || 2;
  return Math.max(1, Math.min(8, n));
}

interface Job {
  req: SimRequest;
  priority: number;
  work: number;
  /** the worker's answer (a point checks its counters, a replay takes it whole) */
  done: (r: ReplayResult) => void;
  reject: (e: Error) => void;
}

export class SimPool {
  private readonly runners: PointRunner[];
  private queue: Job[] = [];
  private running: (Job | null)[];
  private inflight = new Map<string, Promise<SimStats>>();
  private generation = 0;

  constructor(
    readonly size: number = defaultPoolSize(),
    private readonly cache: ResultsCache | null = null,
    makeRunner: (i: number) => PointRunner = () => new EngineClient('pool'),
  ) {
    if (!Number.isInteger(size) || size < 1) throw new Error(`a pool needs at least one worker, not ${size}`);
    this.runners = Array.from({ length: size }, (_, i) => makeRunner(i));
    this.running = this.runners.map(() => null);
  }

  /** Points waiting or running now, over every run() in progress. */
  get busy(): number {
    return this.queue.length + this.running.filter(Boolean).length;
  }

  /**
   * Runs every request (counters only; maxEvents is forced to 0) and resolves with their
   * counters in the order asked. A point that fails rejects the run with the core's message.
   */
  async run(reqs: readonly SimRequest[], opts: RunOptions = {}): Promise<SimStats[]> {
    const t0 = performance.now();
    const out: (SimStats | undefined)[] = new Array(reqs.length);
    const byKey = new Map<string, number[]>();
    reqs.forEach((r, i) => {
      const k = pointKey(r);
      const list = byKey.get(k);
      if (list) list.push(i);
      else byKey.set(k, [i]);
    });
    const total = byKey.size;
    let done = 0;
    let finished = false;
    let workDone = 0;
    let workLeft = 0;
    const progress = () => {
      const elapsedMs = performance.now() - t0;
      opts.onProgress?.({ done, total, elapsedMs, etaMs: workDone > 0 ? (workLeft * elapsedMs) / workDone : null });
    };
    const settle = (key: string, stats: SimStats, source: PointSource) => {
      if (finished) return;
      done++;
      for (const index of byKey.get(key)!) {
        out[index] = stats;
        opts.onPoint?.({ index, key, stats, source });
      }
    };

    let todo = [...byKey.keys()];
    if (opts.known) {
      for (const k of todo) {
        const v = opts.known.get(k);
        if (v !== undefined) settle(k, v, 'given');
      }
      todo = todo.filter((k) => !opts.known!.has(k));
    }
    if (this.cache && opts.readCache !== false && todo.length) {
      const hit = await this.cache.getMany(todo);
      for (const [k, v] of hit) settle(k, v, 'cache');
      todo = todo.filter((k) => !hit.has(k));
    }
    const first = (k: string) => byKey.get(k)![0]!;
    const reqOf = (k: string) => reqs[first(k)]!;
    for (const k of todo) workLeft += pointWork(reqOf(k));
    progress();
    try {
      const all = Promise.all(
        todo.map((k) =>
          this.point(k, reqOf(k), opts.priority?.(first(k)) ?? 0).then((stats) => {
            const w = pointWork(reqOf(k));
            workDone += w;
            workLeft -= w;
            settle(k, stats, 'run');
            progress();
            void this.cache?.put(k, stats);
          }),
        ),
      );
      // every point is queued before any starts, so the longest start first
      this.pump();
      await all;
    } finally {
      finished = true;
    }
    return out as SimStats[];
  }

  /**
   * One run with its event log, on the first worker free, ahead of any point waiting: the
   * compare view's small replays, so that the workers the measured runs need next have loaded
   * their core meanwhile, and two replays run side by side. cancel() rejects it as it does
   * the points.
   */
  replay(req: SimRequest): Promise<ReplayResult> {
    return new Promise<ReplayResult>((resolve, reject) => {
      this.enqueue({ req, priority: Number.POSITIVE_INFINITY, work: pointWork(req), done: resolve, reject });
      this.pump();
    });
  }

  /**
   * Stops everything now: every run() rejects with PoolCancelled, each busy worker's run stops
   * within milliseconds (its cancel flag; a worker that cannot is terminated), idle workers
   * stay loaded for the next run.
   */
  cancel(): void {
    this.generation++;
    const err = new PoolCancelled();
    const jobs = [...this.queue, ...this.running.filter((j): j is Job => j !== null)];
    this.queue = [];
    this.running.forEach((job, i) => {
      if (job && !this.runners[i]!.cancelRun?.()) this.runners[i]!.dispose();
    });
    this.running.fill(null);
    this.inflight.clear();
    for (const j of jobs) j.reject(err);
  }

  /** Stops everything and every worker (the page is going away). */
  dispose(): void {
    this.cancel();
    for (const r of this.runners) r.dispose();
  }

  /** One point's counters; a key already queued or running (for another run()) is shared. The
   * caller pumps the queue once it has queued all its points. */
  private point(key: string, req: SimRequest, priority: number): Promise<SimStats> {
    let p = this.inflight.get(key);
    if (!p) {
      p = new Promise<SimStats>((resolve, reject) => {
        const done = (r: ReplayResult) => {
          try {
            resolve(checkedStats(r));
          } catch (e) {
            reject(e instanceof Error ? e : new Error(String(e)));
          }
        };
        this.enqueue({ req: { ...req, maxEvents: 0 }, priority, work: pointWork(req), done, reject });
      });
      this.inflight.set(key, p);
      const forget = () => {
        if (this.inflight.get(key) === p) this.inflight.delete(key);
      };
      p.then(forget, forget);
    }
    return p;
  }

  private enqueue(job: Job): void {
    // by priority, then longest first: the sweep's last point then finishes as early as it can
    const before = (a: Job, b: Job) => a.priority > b.priority || (a.priority === b.priority && a.work > b.work);
    let i = this.queue.findIndex((j) => before(job, j));
    if (i < 0) i = this.queue.length;
    this.queue.splice(i, 0, job);
  }

  private pump(): void {
    for (let i = 0; i < this.runners.length && this.queue.length; i++) {
      if (this.running[i]) continue;
      const job = this.queue.shift()!;
      this.running[i] = job;
      const gen = this.generation;
      const finish = (fn: () => void) => {
        if (gen !== this.generation) return; // cancelled: the job was rejected already
        this.running[i] = null;
        fn();
        this.pump();
      };
      this.runners[i]!.sim(job.req).then(
        (r) => finish(() => job.done(r)),
        (e: unknown) => finish(() => job.reject(e instanceof Error ? e : new Error(String(e)))),
      );
    }
  }
}
