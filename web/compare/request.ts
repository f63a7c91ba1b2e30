// How a compare's state becomes one run of the core: the workload's size, the configuration's
// preset and pcp overrides, through runRequest() (web/scenario/request.ts), the one place run
// parameters get their defaults. The diff table, the replays and the chart's sweep all go
// through here, so they run the same thing (the replays cut down) as every other page would
// for that configuration.
import type { SimRequest } from '../engine/blab-module';
import type { SimConfig } from '../lessons/lesson';
import { MEASURED_CLEAR_LINES, presetSlubPrefetch, runRequest, type RunParams } from '../scenario/request';
import { COMPARE_LIMITS, COMPARE_WORKLOADS, type CompareState, type CompareWorkloadSpec } from './url';

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
  return runRequest({
    workload: s.workload,
    preset: c.preset,
    cpus,
    pages: s.pages,
    seed,
    clearLines: MEASURED_CLEAR_LINES,
    cacheScale: w.cacheScale(s.pages),
    ...(s.workload === 'stress_highalloc' ? { attempts: s.attempts } : {}),
    ...(c.slubPrefetch !== undefined ? { slubPrefetch: c.slubPrefetch } : {}),
    ...(c.batch !== undefined ? { batch: c.batch } : {}),
    ...(c.high !== undefined ? { high: c.high } : {}),
  });
}

/** compareParams() as the engine takes it: counters only. */
export function compareRequest(s: CompareState, c: SimConfig, cpus: number, seed: number = s.seed): SimRequest {
  return { ...compareParams(s, c, cpus, seed), maxEvents: 0 };
}

/** The replayed run of configuration c: the same, cut down to a size the player steps through
 * page by page (replaySize, one round), clear_page() through COMPARE_CLEAR_LINES lines. */
export function replayParams(s: CompareState, c: SimConfig): RunParams {
  const w: CompareWorkloadSpec = COMPARE_WORKLOADS[s.workload];
  const pages = w.replaySize(s.cpus, s.pages);
  const p = { ...compareParams(s, c, s.cpus), pages, clearLines: COMPARE_CLEAR_LINES, cacheScale: w.cacheScale(pages) };
  // one round is enough to watch (the measured runs score the second); hackbench's and
  // stress_highalloc's iterations are their switches and attempts
  if (s.workload !== 'hackbench' && s.workload !== 'stress_highalloc') p.iterations = 1;
  return p;
}

/** replayParams() with its log, at most maxEvents records. */
export function replayRequest(s: CompareState, c: SimConfig, maxEvents: number): SimRequest {
  return { ...replayParams(s, c), maxEvents };
}
