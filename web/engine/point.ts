// A sweep point: one model-machine run that keeps no event log, only the counters the core
// prints. Points are independent of each other (the model is deterministic and shares nothing
// between runs), so a sweep may run them in any order, on any number of workers, or take them
// from a cache: the key below names everything that decides a point's output.
import type { ReplayResult, SimRequest } from './blab-module';

/** The core's defaults for the arguments a request may leave out (wasm-core/wasm/api.c). */
const DEFAULT_CLEAR_LINES = 64;

/**
 * A point's identity: every argument of blab_js_sim_ex() that changes what it prints, in a
 * fixed order, with defaults spelt out (so "absent" and "the default" are the same point).
 * The same text is what `blab sim --points` reads natively, one point per line.
 */
export function pointKey(req: SimRequest): string {
  const clear = req.clearLines || DEFAULT_CLEAR_LINES;
  const scale = req.cacheScale || 1;
  return (
    `workload=${req.workload} preset=${req.preset} cpus=${req.cpus} pages=${req.pages} ` +
    `iterations=${req.iterations} seed=${req.seed >>> 0} batch=${req.batch ?? 0} high=${req.high ?? 0} ` +
    `clear_lines=${clear} cache_scale=${scale}`
  );
}

const KEY = /^workload=([a-z0-9_]{1,32}) preset=([A-Za-z0-9._-]{1,31}) cpus=(\d{1,3}) pages=(\d{1,7}) iterations=(\d{1,4}) seed=(\d{1,10}) batch=(\d{1,5}) high=(\d{1,5}) clear_lines=(\d{1,2}) cache_scale=(\d{1,2})$/;

/** The request a key names (counters only: maxEvents 0); throws quoting a malformed key. */
export function pointRequest(key: string): SimRequest {
  const m = KEY.exec(key);
  if (!m) throw new Error(`"${key.slice(0, 120)}" is not a point key (workload=.. preset=.. cpus=.. pages=.. iterations=.. seed=.. batch=.. high=.. clear_lines=.. cache_scale=..)`);
  const n = (i: number) => Number(m[i]);
  return {
    workload: m[1]!,
    preset: m[2]!,
    cpus: n(3),
    pages: n(4),
    iterations: n(5),
    seed: n(6),
    maxEvents: 0,
    ...(n(7) ? { batch: n(7) } : {}),
    ...(n(8) ? { high: n(8) } : {}),
    clearLines: n(9),
    cacheScale: n(10),
  };
}

/**
 * How much host work a point is, in the workload's own unit, for ordering a sweep (longest
 * first) and for the time-left estimate: page faults for the order-0 workloads, messages for
 * hackbench (its iterations are switches), pages scanned at most for stress_highalloc.
 */
export function pointWork(req: SimRequest): number {
  switch (req.workload) {
    case 'hackbench':
      return req.cpus * req.pages;
    case 'stress_highalloc':
      return req.pages * Math.max(1, req.iterations);
    default:
      return req.cpus * req.pages * Math.max(1, req.iterations);
  }
}

/** will-it-scale maps 128 MB per task: 32768 pages. */
const WILL_IT_SCALE_PAGES = 32768;

/** The cache scale that gives `pages` per task will-it-scale's 128 MB footprint-to-cache ratio
 * (a power of two, 1..64, as blab sim --cache-scale takes it): 8 for 4096 pages. */
export function willItScaleCacheScale(pages: number): number {
  let scale = 1;
  while (scale < 64 && pages * scale * 2 <= WILL_IT_SCALE_PAGES) scale *= 2;
  return scale;
}

/** Runs many points and reports each output as it arrives (SimPool.run in the browser). */
export type PointsRunner = (reqs: readonly SimRequest[], onPoint: (index: number, stdout: string) => void) => Promise<unknown>;

/** One point after another on one core: Vitest's runner, and the reference a pool must equal. */
export function serialPoints(run: (req: SimRequest) => Promise<ReplayResult>): PointsRunner {
  return async (reqs, onPoint) => {
    for (let i = 0; i < reqs.length; i++) onPoint(i, checkedStdout(await run(reqs[i]!)));
  };
}

/** A run's output, or its error as the core said it. */
export function checkedStdout(r: ReplayResult): string {
  if (r.status !== 0) throw new Error(r.stderr.trim() || `the core stopped with status ${r.status}`);
  return r.stdout;
}
