// A sweep point: one model-machine run that keeps no event log, only its counters (a SimStats
// record). Points are independent of each other (the model is deterministic and shares nothing
// between runs), so a sweep may run them in any order, on any number of workers, or take them
// from a cache: the key below names everything that decides a point's output.
import type { ReplayResult, SimRequest } from './blab-module';
import { workloadEntry } from '../scenario/workloads.ts';
import type { SimStats } from './simstats';

/** The core's defaults for the arguments a request may leave out (wasm-core/wasm/api.c). */
const DEFAULT_CLEAR_LINES = 64;

/**
 * A point's identity: every argument of blab_js_sim_run() that changes its counters, in a fixed
 * order, each workload's own fields by their names (hackbench: groups, loops, slub_prefetch,
 * same_cpu), with defaults spelt out (so "absent" and "the default" are the same point). The
 * same text is what `blab sim --points` reads natively, one point per line
 * (blab_sim_point_parse(), wasm-core/src/workloads/sim_point.c).
 */
export function pointKey(req: SimRequest): string {
  const clear = req.clearLines || DEFAULT_CLEAR_LINES;
  const scale = req.cacheScale || 1;
  const own =
    req.workload === 'hackbench'
      ? `groups=${req.groups} loops=${req.loops} slub_prefetch=${req.slubPrefetch ? 1 : 0} same_cpu=${req.sameCpu ? 1 : 0}`
      : `cpus=${req.cpus} pages=${req.pages} iterations=${req.iterations}`;
  return (
    `workload=${req.workload} preset=${req.preset} ${own} seed=${req.seed >>> 0} batch=${req.batch ?? 0} high=${req.high ?? 0} ` +
    `clear_lines=${clear} cache_scale=${scale}` +
    // the optional fields, last, only when set (so every earlier key keeps its spelling)
    (req.pcpBatchScaleMax !== undefined ? ` pcp_batch_scale_max=${req.pcpBatchScaleMax}` : '') +
    (req.latency ? ' latency=1' : '') +
    (req.nodeZones ? ' node_zones=1' : '') +
    (req.outOfStep ? ' out_of_step=1' : '')
  );
}

/** The fields of a key in order, with the bound of each (blab_sim_point_parse()'s; seeds are
 * the browser's, 32 bits): the workload's own first, then every workload's. */
const OWN_FIELDS = { pages: [['cpus', 256], ['pages', 1 << 20], ['iterations', 1000]], hackbench: [['groups', 112], ['loops', 1_000_000], ['slub_prefetch', 1], ['same_cpu', 1]] } as const;
const COMMON_FIELDS = [['seed', 0xffffffff], ['batch', 1 << 16], ['high', 1 << 16], ['clear_lines', 64], ['cache_scale', 64]] as const;
/** a key spells out these defaults (64 and 1), so a 0 would be another spelling of the same
 * point; the native parser refuses it too */
const AT_LEAST_ONE: ReadonlySet<string> = new Set(['clear_lines', 'cache_scale']);
/** BLAB_SIM_POINT_KEY_MAX - 1 (its NUL): room for the optional fields after cache_scale */
const KEY_MAX = 255;
/** CONFIG_PCP_BATCH_SCALE_MAX's range (mm/Kconfig) */
const SCALE_MAX = 6;

/** The request a key names (counters only: maxEvents 0); throws saying which field and why. */
export function pointRequest(key: string): SimRequest {
  const bad = (why: string) => new Error(`point key "${key.slice(0, 120)}": ${why}`);
  if (key.length > KEY_MAX) throw bad(`longer than ${KEY_MAX} characters`);
  const words = key.split(' ');
  let at = 0;
  const take = (name: string): string => {
    const w = words[at++];
    if (w === undefined) throw bad(`it ends before ${name}=`);
    if (!w.startsWith(`${name}=`)) throw bad(`expected ${name}= at "${w.slice(0, 24)}"`);
    return w.slice(name.length + 1);
  };
  const workload = take('workload');
  const entry = workloadEntry(workload);
  if (!entry) throw bad(`unknown workload "${workload.slice(0, 32)}"`);
  const preset = take('preset');
  if (!/^[A-Za-z0-9._-]{1,31}$/.test(preset)) throw bad('preset: 1 to 31 of A-Z a-z 0-9 . _ -');
  const num = (name: string, max: number): number => {
    const v = take(name);
    if (!/^\d{1,10}$/.test(v)) throw bad(`${name}: "${v.slice(0, 16)}" is not a decimal number`);
    const n = Number(v);
    if (n > max) throw bad(`${name}: more than ${max}`);
    if (n < 1 && AT_LEAST_ONE.has(name)) throw bad(`${name}: less than 1`);
    return n;
  };
  const own = Object.fromEntries((entry.name === 'hackbench' ? OWN_FIELDS.hackbench : OWN_FIELDS.pages).map(([f, max]) => [f, num(f, max)]));
  const c = Object.fromEntries(COMMON_FIELDS.map(([f, max]) => [f, num(f, max)])) as Record<(typeof COMMON_FIELDS)[number][0], number>;
  // the optional fields in their order, as blab_sim_point_parse() reads them
  const scale = words[at]?.startsWith('pcp_batch_scale_max=') ? num('pcp_batch_scale_max', SCALE_MAX) : undefined;
  // latency=1, node_zones=1, out_of_step=1: each only when set, so =0 would be a second spelling
  const flag = (name: string, without: string): boolean => {
    if (!words[at]?.startsWith(`${name}=`)) return false;
    if (num(name, 1) !== 1) throw bad(`${name}: less than 1 (a key without ${name}= ${without})`);
    return true;
  };
  const latency = flag('latency', 'counts none');
  const nodeZones = flag('node_zones', 'runs without it');
  const outOfStep = flag('out_of_step', 'runs without it');
  if (at < words.length) throw bad(`unexpected "${words.slice(at).join(' ').slice(0, 24)}" after cache_scale`);
  const common = {
    preset,
    seed: c.seed,
    maxEvents: 0,
    ...(c.batch ? { batch: c.batch } : {}),
    ...(c.high ? { high: c.high } : {}),
    clearLines: c.clear_lines,
    cacheScale: c.cache_scale,
    ...(scale !== undefined ? { pcpBatchScaleMax: scale } : {}),
    ...(latency ? { latency: true } : {}),
    ...(nodeZones ? { nodeZones: true } : {}),
    ...(outOfStep ? { outOfStep: true } : {}),
  };
  return entry.name === 'hackbench'
    ? { workload: 'hackbench', groups: own['groups']!, loops: own['loops']!, slubPrefetch: own['slub_prefetch'] === 1, sameCpu: own['same_cpu'] === 1, ...common }
    : { workload: entry.name, cpus: own['cpus']!, pages: own['pages']!, iterations: own['iterations']!, ...common };
}

/**
 * How much host work a point is, in the workload's own unit, for ordering a sweep (longest
 * first) and for the time-left estimate: page faults for the order-0 workloads, messages for
 * hackbench, pages scanned at most for stress_highalloc.
 */
export function pointWork(req: SimRequest): number {
  switch (req.workload) {
    case 'hackbench':
      return req.groups * req.loops;
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

/** Runs many points and reports each one's counters as they arrive (SimPool.run in the browser). */
export type PointsRunner = (reqs: readonly SimRequest[], onPoint: (index: number, stats: SimStats) => void) => Promise<unknown>;

/** One point after another on one core: Vitest's runner, and the reference a pool must equal. */
export function serialPoints(run: (req: SimRequest) => Promise<ReplayResult>): PointsRunner {
  return async (reqs, onPoint) => {
    for (let i = 0; i < reqs.length; i++) onPoint(i, checkedStats(await run(reqs[i]!)));
  };
}

/** A run's counters, or its error as the core said it. */
export function checkedStats(r: ReplayResult): SimStats {
  if (r.status !== 0) throw new Error(r.stderr.trim() || `the core stopped with status ${r.status}`);
  if (!r.stats) throw new Error('the core returned no counters for the run');
  return r.stats;
}
