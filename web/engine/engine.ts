// The scenario panel's engine: a scenario becomes one blab sim run on the model machine in
// the engine worker (the real C core as WebAssembly), and its event log comes back.
// Workloads the core does not have yet say so instead of pretending.

import type { Scenario } from '../player/url';
import { EngineClient } from './engine-client';
import type { EngineFault } from './protocol';

export interface EngineRun {
  /** the event log: 32-byte records, docs/events.md */
  log: ArrayBuffer;
  /** pcp high and batch as the core configured them, if it says */
  pcp?: { high: number; batch: number };
  /** what the core printed about the run (score, contention) */
  summary: string;
}

/** Records a browser run keeps (64 MB); past it the log ends with LOG_FULL. */
export const MAX_SIM_EVENTS = 1 << 21;

const client = new EngineClient();

/** Presets older than the 2011 change (3.3): SLUB's fast path did not prefetch then. */
const BEFORE_SLUB_PREFETCH = new Set(['v2.5.44', 'v2.5.45', 'v2.6.25']);
/** Messages per sender in a browser hackbench run: a few slabs' worth, a log of ~10^5 records. */
export const HACKBENCH_LOOPS = 200;

/** hackbench (docs/slab.md): one group per CPU, remote frees, prefetch as the preset's kernel had it. */
async function runHackbench(s: Scenario): Promise<EngineRun> {
  const groups = Math.max(2, Math.min(112, s.cpus));
  const prefetch = BEFORE_SLUB_PREFETCH.has(s.preset) ? 0 : 1;
  const r = await client.sim({ workload: 'hackbench', cpus: groups, pages: HACKBENCH_LOOPS, iterations: prefetch, seed: s.seed, preset: s.preset, maxEvents: MAX_SIM_EVENTS });
  if (r.status !== 0) throw new Error(r.stderr.trim() || `the core stopped with status ${r.status}`);
  const m = /batch (\d+), high (\d+)/.exec(r.stdout);
  const summary = `hackbench, ${groups} groups x ${HACKBENCH_LOOPS} messages, freelist prefetch ${prefetch ? 'on' : 'off'}: ${r.stdout.trim()}`;
  return { log: r.events, summary, ...(m ? { pcp: { batch: Number(m[1]), high: Number(m[2]) } } : {}) };
}

export const engine = {
  /** Test-only hook (docs/reliability.md): the next run traps in the core or crashes the worker. */
  injectFault(fault: EngineFault): void {
    client.injectFault(fault);
  },
  get connected(): boolean {
    return EngineClient.unsupported() === null;
  },
  async runScenario(s: Scenario): Promise<EngineRun> {
    if (s.workload === 'hackbench') return runHackbench(s);
    if (s.workload !== 'page_fault1')
      throw new Error(`The core runs page_fault1 so far; ${s.workload} comes with a later issue.`);
    // The zone holds every task's mapping: each of the s.cpus tasks maps s.pages / s.cpus pages.
    const pages = Math.max(1, Math.floor(s.pages / s.cpus));
    const r = await client.sim({ workload: 'page_fault1', cpus: s.cpus, pages, iterations: 1, seed: s.seed, preset: s.preset, maxEvents: MAX_SIM_EVENTS });
    if (r.status !== 0) throw new Error(r.stderr.trim() || `the core stopped with status ${r.status}`);
    const m = /batch (\d+), high (\d+)/.exec(r.stdout);
    return { log: r.events, summary: r.stdout.trim(), ...(m ? { pcp: { batch: Number(m[1]), high: Number(m[2]) } } : {}) };
  },
};
