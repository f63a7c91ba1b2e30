// How a compare's state becomes one run of the core (blab_js_sim_run(), wasm-core/wasm/api.c):
// what each workload's cpus, size and iterations mean there. The diff table, the replays and
// the chart's sweep all go through here, so they run the same thing (the replays cut down).
import type { SimRequest } from '../engine/blab-module';
import type { SimConfig } from '../lessons/lesson';
import { COMPARE_LIMITS, COMPARE_WORKLOADS, presetSlubPrefetch, type CompareState, type CompareWorkloadSpec } from './url';

/** Frame lines clear_page() passes through the cache model in the replayed runs (docs/sim.md: 8 is near the seeds, 5x faster than 64); the measured runs clear all 64. */
export const COMPARE_CLEAR_LINES = 8;

/** hackbench's switches: bit 0 = SLUB freelist prefetch (the configuration's, else the preset's). */
export function slubPrefetchOf(c: SimConfig): boolean {
  return c.slubPrefetch ?? presetSlubPrefetch(c.preset);
}

function iterations(s: CompareState, c: SimConfig): number {
  switch (s.workload) {
    case 'hackbench':
      return slubPrefetchOf(c) ? 1 : 0;
    case 'stress_highalloc':
      return s.attempts; // the core's iterations are its order-9 attempts
    default:
      return 2; // the first round is a warm-up
  }
}

/** Seeds of the measured runs at `cpus`: the state's and the ones after it. */
export function measuredSeeds(s: CompareState): number[] {
  return Array.from({ length: COMPARE_LIMITS.seeds }, (_, k) => (s.seed + k) >>> 0);
}

/**
 * One measured run of configuration c at `cpus` tasks (a diff-table seed, or a chart point):
 * the state's size, clear_page() through all 64 lines as the kernel clears, the caches scaled
 * for that size; counters only.
 */
export function compareRequest(s: CompareState, c: SimConfig, cpus: number, seed: number = s.seed): SimRequest {
  const w: CompareWorkloadSpec = COMPARE_WORKLOADS[s.workload];
  return {
    workload: s.workload,
    cpus,
    pages: s.pages,
    iterations: iterations(s, c),
    seed,
    preset: c.preset,
    maxEvents: 0,
    cacheScale: w.cacheScale(s.pages),
    ...(c.batch !== undefined ? { batch: c.batch } : {}),
    ...(c.high !== undefined ? { high: c.high } : {}),
  };
}

/** The replayed run of configuration c: the same, cut down to a size the player steps through
 * page by page (replaySize, one round), clear_page() through COMPARE_CLEAR_LINES lines, with
 * its log. */
export function replayRequest(s: CompareState, c: SimConfig, maxEvents: number): SimRequest {
  const w: CompareWorkloadSpec = COMPARE_WORKLOADS[s.workload];
  const pages = w.replaySize(s.cpus, s.pages);
  const req = { ...compareRequest(s, c, s.cpus), pages, maxEvents, clearLines: COMPARE_CLEAR_LINES, cacheScale: w.cacheScale(pages) };
  // one round is enough to watch (the measured runs score the second); hackbench's and
  // stress_highalloc's iterations are their switches and attempts
  if (s.workload !== 'hackbench' && s.workload !== 'stress_highalloc') req.iterations = 1;
  return req;
}
