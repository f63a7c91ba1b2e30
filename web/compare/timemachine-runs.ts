// What the time machine runs, without the page: every kernel preset at a few task counts, each
// one page_fault1 point at will-it-scale's proportions (4096 pages per task, the caches scaled
// to keep 128 MB's footprint against them, clear_page() through all 64 lines). No DOM and no
// styles here, because the build imports it too: vite.config.ts hands these points to the
// lessons plugin, which has the native core compute them, so the page shows them at once.
import type { SimRequest } from '../engine/blab-module';
import { pointKey, willItScaleCacheScale, type PointsRunner } from '../engine/point.ts';
import { bindingLimit, type SimStats } from '../engine/simstats.ts';
import { CORE_PRESETS } from '../scenario/core-schema.ts';
import { MEASURED_CLEAR_LINES, runRequest } from '../scenario/request.ts';

export const TIME_MACHINE = {
  tasks: [1, 16, 112],
  /** pages each task maps per round: as many as the lessons' and compare's measured runs */
  pages: 4096,
  iterations: 2,
  seed: 1,
  limits: { maxTasks: 112, maxCounts: 4, minPages: 64, maxPages: 4096 },
} as const;

/** The name its runs ship under in `virtual:lesson-results` (beside the lessons' ids). */
export const TIME_MACHINE_SET = 'timemachine';

/** The kernels in release order: every preset named after one (not the RFC's). */
export function timelinePresets(): string[] {
  return CORE_PRESETS.map((p) => p.name).filter((n) => /^v\d/.test(n));
}

export interface TimeSpec {
  tasks: number[];
  pages: number;
}

export interface TimePoint {
  preset: string;
  tasks: number;
  /** pages faulted per second of virtual time, all tasks, scored rounds */
  score: number;
  /** zone->lock spin in the scored rounds, % of those rounds' CPU time: the same window as
   * the score (the warm-up splits every page out of high-order blocks under the lock, which
   * a minutes-long benchmark does once) */
  contention: number;
  /** the same over the whole run, warm-up included */
  wholeRunContention: number;
  /** the limit that binds the run, as the core decides it (zone->lock, lru_lock, memory
   * bandwidth, or none), and the memory controllers' busiest socket's share of its limit, % */
  binds: string;
  memUtil: number;
}

/** ?timemachine[&tasks=1,16,112][&pages=4096], checked against the bounds; throws saying why. */
export function parseTimeSpec(search: string): TimeSpec {
  const q = new URLSearchParams(search);
  const L = TIME_MACHINE.limits;
  const tasksText = q.get('tasks');
  const tasks = tasksText === null ? [...TIME_MACHINE.tasks] : tasksText.split(',').map((t) => Number(t.trim()));
  if (!tasks.length || tasks.length > L.maxCounts || !tasks.every((t) => Number.isInteger(t) && t >= 1 && t <= L.maxTasks)) {
    throw new Error(`tasks: 1 to ${L.maxCounts} whole numbers, each 1..${L.maxTasks}`);
  }
  const pagesText = q.get('pages');
  const pages = pagesText === null ? TIME_MACHINE.pages : Number(pagesText);
  if (!Number.isInteger(pages) || pages < L.minPages || pages > L.maxPages) throw new Error(`pages: a whole number, ${L.minPages}..${L.maxPages}`);
  return { tasks: [...new Set(tasks)].sort((a, b) => a - b), pages };
}

/** The run of one kernel at one task count: counters only. */
export function timeMachineRequest(spec: TimeSpec, preset: string, tasks: number): SimRequest {
  const p = runRequest({
    workload: 'page_fault1',
    cpus: tasks,
    pages: spec.pages,
    rounds: TIME_MACHINE.iterations,
    seed: TIME_MACHINE.seed,
    preset,
    clearLines: MEASURED_CLEAR_LINES,
    cacheScale: willItScaleCacheScale(spec.pages),
  });
  return { ...p, maxEvents: 0 };
}

/** Every (kernel, tasks) run, kernel by kernel in release order. */
export function timeMachinePoints(spec: TimeSpec): { preset: string; tasks: number; req: SimRequest }[] {
  return timelinePresets().flatMap((preset) => spec.tasks.map((tasks) => ({ preset, tasks, req: timeMachineRequest(spec, preset, tasks) })));
}

/** The points' keys for the build (web/lessons/precompute.ts): the default page's runs. */
export function timeMachineKeys(spec: TimeSpec = parseTimeSpec('')): string[] {
  return timeMachinePoints(spec).map((p) => pointKey(p.req));
}

export function timePoint(preset: string, tasks: number, s: SimStats): TimePoint {
  const b = bindingLimit(s);
  return { preset, tasks, score: s.score, contention: s.scoredZoneBp / 100, wholeRunContention: s.zoneBp / 100, binds: b.name === 'none' ? 'none' : b.text, memUtil: s.memUtilBp / 100 };
}

/** Every (preset, tasks) run through `run` (the pool in the page, one core in a test); onPoints
 * with every point so far, in release order, as each arrives. */
export async function runTimeMachine(run: PointsRunner, spec: TimeSpec, onPoints: (points: TimePoint[]) => void = () => {}): Promise<TimePoint[]> {
  const todo = timeMachinePoints(spec);
  const got: (TimePoint | undefined)[] = new Array(todo.length);
  const sofar = () => got.filter((p): p is TimePoint => p !== undefined);
  await run(
    todo.map((p) => p.req),
    (i, stats) => {
      got[i] = timePoint(todo[i]!.preset, todo[i]!.tasks, stats);
      onPoints(sofar());
    },
  );
  return sofar();
}
