// How a compare's state becomes one run of the core: the workload's size, the configuration's
// preset and pcp overrides, through runRequest() (web/scenario/request.ts), the one place run
// parameters get their defaults. The diff table, the replays and the chart's sweep all go
// through here, so they run the same thing as every other page would for that configuration.
import type { SimRequest } from '../engine/blab-module';
import type { SimConfig } from '../lessons/lesson';
import { presetSlubPrefetch, runRequest, type RunParams } from '../scenario/request';
import type { CompareState } from './url';

/** hackbench's switches: SLUB freelist prefetch (the configuration's, else the preset's). */
export function slubPrefetchOf(c: SimConfig): boolean {
  return c.slubPrefetch ?? presetSlubPrefetch(c.preset);
}

/** The run of configuration c at `cpus` (the replay's, or a sweep point's). */
export function compareParams(s: CompareState, c: SimConfig, cpus: number): RunParams {
  return runRequest({
    workload: s.workload,
    preset: c.preset,
    cpus,
    pages: s.pages,
    seed: s.seed,
    ...(s.workload === 'stress_highalloc' ? { attempts: s.attempts } : {}),
    ...(c.slubPrefetch !== undefined ? { slubPrefetch: c.slubPrefetch } : {}),
    ...(c.batch !== undefined ? { batch: c.batch } : {}),
    ...(c.high !== undefined ? { high: c.high } : {}),
  });
}

/** compareParams() as the engine takes it; maxEvents 0: counters only. */
export function compareRequest(s: CompareState, c: SimConfig, cpus: number, maxEvents: number): SimRequest {
  return { ...compareParams(s, c, cpus), maxEvents };
}
