// A throughput sweep: page_fault1 on the model machine for every (preset, task count) pair, one
// counters-only run each (the worker pool runs them side by side), gathered into the series the
// throughput chart draws (web/views/throughput.ts) as they arrive.

import { CORE_LIMITS } from '../log/core-limits';
import type { SimRequest } from './blab-module';
import { willItScaleCacheScale, type PointsRunner } from './point';
import type { SimStats } from './simstats';
import { MEASURED_CLEAR_LINES, runRequest, type RunParams } from '../scenario/request';

/** One measured point: `score` (pages faulted per second, all tasks together) at `tasks` tasks. */
export interface ThroughputPoint {
  tasks: number;
  score: number;
}

/** One line of the chart, e.g. one preset swept over task counts (what a sweep produces). */
export interface ThroughputSeries {
  label: string;
  points: ThroughputPoint[];
}

export interface SweepSpec {
  presets: string[];
  /** task counts, one task per model CPU */
  cpus: number[];
  /** pages each task maps per round; the caches are scaled to keep will-it-scale's 128 MB
   * footprint-to-cache ratio (willItScaleCacheScale) */
  pages: number;
  /** rounds; the first is a warm-up when there are two or more */
  iterations: number;
  seed: number;
}

/** Bounds of a sweep from the browser (docs/limits.md). */
export const SWEEP_LIMITS = {
  maxPresets: 8,
  maxCpuCounts: 12,
  /** seed 000's 4-socket Skylake: past the default machine's 112 CPUs (2 sockets x 28 cores
   * x 2 threads) the model machine has 4 sockets, as blab sim grows it */
  maxCpus: 2 * CORE_LIMITS.modelCpus,
  /** page faults over the whole sweep (all presets, all task counts, all rounds) */
  maxFaults: 1 << 26,
} as const;

/** Parses "1,2,4,8" into ascending, distinct task counts; throws naming the bad item. */
export function parseCpuList(text: string): number[] {
  const items = text.split(',').map((t) => t.trim()).filter((t) => t !== '');
  if (items.length === 0) throw new Error('give at least one task count, e.g. 1,2,4,8');
  if (items.length > SWEEP_LIMITS.maxCpuCounts) {
    throw new Error(`${items.length} task counts; the limit is ${SWEEP_LIMITS.maxCpuCounts}`);
  }
  const out = items.map((t, i) => {
    if (!/^[0-9]{1,4}$/.test(t)) throw new Error(`task count ${i + 1} ("${t.slice(0, 12)}") is not a whole number`);
    const v = Number(t);
    if (v < 1 || v > SWEEP_LIMITS.maxCpus) throw new Error(`task count ${v} is outside 1..${SWEEP_LIMITS.maxCpus}`);
    return v;
  });
  return [...new Set(out)].sort((a, b) => a - b);
}

/** Faults the sweep will simulate; checked against SWEEP_LIMITS.maxFaults before it starts. */
export function sweepFaults(s: SweepSpec): number {
  return s.presets.length * s.cpus.reduce((n, c) => n + c, 0) * s.pages * s.iterations;
}

export function checkSweep(s: SweepSpec): void {
  if (s.presets.length === 0) throw new Error('choose at least one preset');
  if (s.presets.length > SWEEP_LIMITS.maxPresets) throw new Error(`${s.presets.length} presets; the limit is ${SWEEP_LIMITS.maxPresets}`);
  if (s.cpus.length === 0) throw new Error('give at least one task count');
  const most = Math.max(...s.cpus) * s.pages;
  if (most > 1 << 22) throw new Error(`${Math.max(...s.cpus)} tasks x ${s.pages} pages is ${most.toLocaleString('en')} pages; the core's zone holds at most ${(1 << 22).toLocaleString('en')}`);
  const f = sweepFaults(s);
  if (f > SWEEP_LIMITS.maxFaults) {
    throw new Error(`the sweep would simulate ${f.toLocaleString('en')} page faults; the limit is ${SWEEP_LIMITS.maxFaults.toLocaleString('en')} (fewer pages or task counts)`);
  }
}

/** One point of the sweep as a run (runRequest(): the same defaults as every other page):
 * clear_page() through the whole page, the caches scaled for the pages per task. */
export function sweepParams(spec: SweepSpec, preset: string, cpus: number): RunParams {
  return runRequest({
    workload: 'page_fault1', preset, cpus, pages: spec.pages, rounds: spec.iterations, seed: spec.seed,
    clearLines: MEASURED_CLEAR_LINES, cacheScale: willItScaleCacheScale(spec.pages),
  });
}

/** Every run of a sweep, preset by preset, task count by task count: counters only. */
export function sweepRequests(spec: SweepSpec): SimRequest[] {
  return spec.presets.flatMap((preset) => spec.cpus.map((cpus) => ({ ...sweepParams(spec, preset, cpus), maxEvents: 0 })));
}

export interface SweepProgress {
  done: number;
  total: number;
  series: ThroughputSeries[];
  /** per preset and task count ("v4.16/56"): each run's counters */
  stats: Map<string, SimStats>;
}

/**
 * Runs the sweep (all its points handed to `run` at once: the worker pool runs them side by
 * side) and calls onProgress as each point arrives, with the series so far in task order.
 */
export async function runSweep(run: PointsRunner, spec: SweepSpec, onProgress: (p: SweepProgress) => void = () => {}): Promise<SweepProgress> {
  checkSweep(spec);
  const reqs = sweepRequests(spec);
  const series: ThroughputSeries[] = spec.presets.map((label) => ({ label, points: [] }));
  const progress: SweepProgress = { done: 0, total: reqs.length, series, stats: new Map() };
  await run(reqs, (index, s) => {
    const r = reqs[index]!;
    const tasks = spec.cpus[index % spec.cpus.length]!;
    const line = series[Math.floor(index / spec.cpus.length)]!;
    line.points.push({ tasks, score: s.score });
    line.points.sort((a, b) => a.tasks - b.tasks);
    progress.stats.set(`${r.preset}/${tasks}`, s);
    progress.done++;
    onProgress(progress);
  });
  return progress;
}
