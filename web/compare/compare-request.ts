// How a compare's state becomes one run of the core: the workload's size, the configuration's
// preset and pcp overrides, through runRequest() (web/scenario/request.ts), the one place run
// parameters get their defaults. The diff table, the replays and the chart's sweep all go
// through here, so they run the same thing (the replays cut down) as every other page would
// for that configuration.
import type { SimRequest } from '../engine/blab-module';
import type { SimConfig } from '../lessons/lesson';
import { MEASURED_CLEAR_LINES, presetSlubPrefetch, runRequest, type RunParams } from '../scenario/request.ts';
import { COMPARE_LIMITS, COMPARE_WORKLOADS, type CompareState, type CompareWorkloadSpec } from './compare-url.ts';

/** Frame lines clear_page() passes through the cache model in the replayed runs (docs/sim.md:
 * 8 is near the seeds, 5x faster than 64); the measured runs clear all 64. */
export const COMPARE_CLEAR_LINES = 8;

/** hackbench's switches: SLUB freelist prefetch (the configuration's, else the preset's). */
export function slubPrefetchOf(c: SimConfig): boolean {
  return c.slubPrefetch ?? presetSlubPrefetch(c.preset);
}

/** Seeds of the measured runs at `cpus`: the state's and the ones after it. */
export function measuredSeeds(s: CompareState): number[] {
  return Array.from({ length: COMPARE_LIMITS.seeds }, (_, k) => (s.seed + k) >>> 0);
}

/**
 * One measured run of configuration c at `cpus` tasks (a diff-table seed, or a chart point):
 * the state's size, clear_page() through all 64 lines as the kernel clears, the caches scaled
 * for that size.
 */
export function compareParams(s: CompareState, c: SimConfig, cpus: number, seed: number = s.seed): RunParams {
  const w: CompareWorkloadSpec = COMPARE_WORKLOADS[s.workload];
  const common = {
    preset: c.preset,
    seed,
    clearLines: MEASURED_CLEAR_LINES,
    cacheScale: w.cacheScale(s.pages),
    ...(c.batch !== undefined ? { batch: c.batch } : {}),
    ...(c.high !== undefined ? { high: c.high } : {}),
    ...(c.pcpBatchScaleMax !== undefined ? { pcpBatchScaleMax: c.pcpBatchScaleMax } : {}),
    // every run counts its calls' latency: the diff table's percentile rows, the latency view
    latency: true,
  };
  // the state's cpus and size are hackbench's groups and messages per sender (compare-url.ts)
  const wl = s.workload;
  return wl === 'hackbench'
    ? runRequest({ workload: wl, groups: cpus, loops: s.pages, ...common, ...(c.slubPrefetch !== undefined ? { slubPrefetch: c.slubPrefetch } : {}) })
    : runRequest({ workload: wl, cpus, pages: s.pages, ...common, ...(wl === 'stress_highalloc' ? { attempts: s.attempts } : {}) });
}

/** compareParams() as the engine takes it: counters only. */
export function compareRequest(s: CompareState, c: SimConfig, cpus: number, seed: number = s.seed): SimRequest {
  return { ...compareParams(s, c, cpus, seed), maxEvents: 0 };
}

/** The replayed run of configuration c: the same, cut down to a size the player steps through
 * page by page (replaySize, one round), clear_page() through COMPARE_CLEAR_LINES lines. */
export function replayParams(s: CompareState, c: SimConfig): RunParams {
  const w: CompareWorkloadSpec = COMPARE_WORKLOADS[s.workload];
  const size = w.replaySize(s.cpus, s.pages);
  const p = compareParams(s, c, s.cpus);
  const cut = { clearLines: COMPARE_CLEAR_LINES, cacheScale: w.cacheScale(size) };
  if (p.workload === 'hackbench') return { ...p, loops: size, ...cut };
  // one round is enough to watch (the measured runs score the second); stress_highalloc's
  // iterations are its attempts
  return { ...p, pages: size, ...cut, ...(p.workload !== 'stress_highalloc' ? { iterations: 1 } : {}) };
}

/** replayParams() with its log, at most maxEvents records. */
export function replayRequest(s: CompareState, c: SimConfig, maxEvents: number): SimRequest {
  return { ...replayParams(s, c), maxEvents };
}
