// A throughput sweep: page_fault1 on the model machine for every (preset, task count) pair, one
// blab_js_sim_run() each in the engine worker, gathered into the series the throughput chart
// draws (web/views/throughput.ts). Runs one at a time, so progress can be shown and a sweep
// can be stopped between runs.

import { CORE_LIMITS } from '../log/core-limits';
import type { ReplayResult, SimRequest } from './blab-module';
import { runRequest, type RunParams } from '../scenario/request';

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
  /** pages each task maps per round */
  pages: number;
  /** rounds; the first is a warm-up when there are two or more */
  iterations: number;
  seed: number;
}

/** Bounds of a sweep from the browser (docs/limits.md): it runs in the page's one worker. */
export const SWEEP_LIMITS = {
  maxPresets: 8,
  maxCpuCounts: 12,
  /** the default model machine has 2 sockets x 28 cores x 2 threads */
  maxCpus: CORE_LIMITS.modelCpus,
  /** page faults over the whole sweep (all presets, all task counts, all rounds) */
  maxFaults: 1 << 24,
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
  const f = sweepFaults(s);
  if (f > SWEEP_LIMITS.maxFaults) {
    throw new Error(`the sweep would simulate ${f.toLocaleString('en')} page faults; the limit is ${SWEEP_LIMITS.maxFaults.toLocaleString('en')} (fewer pages or task counts)`);
  }
}

/** One point of the sweep as a run (runRequest(): the same defaults as every other page). */
export function sweepParams(spec: SweepSpec, preset: string, cpus: number): RunParams {
  return runRequest({ workload: 'page_fault1', preset, cpus, pages: spec.pages, rounds: spec.iterations, seed: spec.seed });
}

export type SimFn = (req: SimRequest) => Promise<ReplayResult>;

export interface SweepProgress {
  done: number;
  total: number;
  series: ThroughputSeries[];
  /** per preset and task count, zone->lock contention in percent */
  contention: Map<string, number>;
}

/**
 * Runs the sweep preset by preset, task count by task count; calls onProgress after each run
 * with the series so far. `shouldStop` is asked between runs.
 */
export async function runSweep(
  sim: SimFn,
  spec: SweepSpec,
  onProgress: (p: SweepProgress) => void = () => {},
  shouldStop: () => boolean = () => false,
): Promise<SweepProgress> {
  checkSweep(spec);
  const series: ThroughputSeries[] = spec.presets.map((label) => ({ label, points: [] }));
  const progress: SweepProgress = { done: 0, total: spec.presets.length * spec.cpus.length, series, contention: new Map() };
  for (let i = 0; i < spec.presets.length; i++) {
    for (const cpus of spec.cpus) {
      if (shouldStop()) return progress;
      const preset = spec.presets[i]!;
      // max_events 2: the sweep needs the numbers only, so the log stops at once (LOG_FULL)
      const r = await sim({ ...sweepParams(spec, preset, cpus), maxEvents: 2 });
      if (r.status !== 0) throw new Error(`${preset} at ${cpus} tasks: ${r.stderr.trim() || `the core stopped with status ${r.status}`}`);
      if (!r.stats) throw new Error(`${preset} at ${cpus} tasks: the core returned no counters`);
      series[i]!.points.push({ tasks: cpus, score: r.stats.score });
      progress.contention.set(`${preset}/${cpus}`, r.stats.zoneBp / 100);
      progress.done++;
      onProgress(progress);
    }
  }
  return progress;
}
