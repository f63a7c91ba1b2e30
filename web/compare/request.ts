// How a compare's state becomes one run of the core (blab_js_sim_run(), wasm-core/wasm/api.c):
// what each workload's cpus, size and iterations mean there. The diff table, the replays and
// the chart's sweep all go through here, so they run the same thing.
import type { SimRequest } from '../engine/blab-module';
import type { SimConfig } from '../lessons/lesson';
import { presetSlubPrefetch, type CompareState } from './url';

/** Frame lines clear_page() passes through the cache model in compare runs (docs/sim.md: 8 is near the seeds, 5x faster than 64). */
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

/** One run of configuration c at `cpus` (the replay's, or a sweep point's); maxEvents 0: counters only. */
export function compareRequest(s: CompareState, c: SimConfig, cpus: number, maxEvents: number): SimRequest {
  return {
    workload: s.workload,
    cpus,
    pages: s.pages,
    iterations: iterations(s, c),
    seed: s.seed,
    preset: c.preset,
    maxEvents,
    clearLines: COMPARE_CLEAR_LINES,
    ...(c.batch !== undefined ? { batch: c.batch } : {}),
    ...(c.high !== undefined ? { high: c.high } : {}),
  };
}
