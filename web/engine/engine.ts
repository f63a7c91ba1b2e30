// The scenario panel's engine: a scenario becomes one blab sim run on the model machine in
// the engine worker (the real C core as WebAssembly), and its event log comes back.
// Which workloads exist, and how a scenario maps onto each, is web/scenario/workloads.ts.

import type { Scenario } from '../scenario/url';
import type { ReplayResult, SimRequest } from './blab-module';
import { EngineClient } from './engine-client';
import { workloadEntry } from '../scenario/workloads';
import type { EngineFault } from './protocol';

export interface EngineRun {
  /** the event log: 32-byte records, docs/events.md */
  log: ArrayBuffer;
  /** pcp high and batch as the core configured them (the run's counters) */
  pcp?: { high: number; batch: number };
  /** what the core printed about the run (score, contention) */
  summary: string;
}

/** Records a browser run keeps (64 MB); past it the log ends with LOG_FULL. */
export const MAX_SIM_EVENTS = 1 << 21;

const client = new EngineClient();

export const engine = {
  /** Test-only hook (docs/reliability.md): the next run traps in the core or crashes the worker. */
  injectFault(fault: EngineFault): void {
    client.injectFault(fault);
  },
  get connected(): boolean {
    return EngineClient.unsupported() === null;
  },
  /** One blab sim run exactly as asked (the throughput sweep uses it for its numbers). */
  sim(req: SimRequest): Promise<ReplayResult> {
    return client.sim(req);
  },
  async runScenario(s: Scenario): Promise<EngineRun> {
    const w = workloadEntry(s.workload);
    if (!w) throw new Error(`unknown workload ${s.workload}`);
    const req = w.request(s.pages, s.cpus, s.preset);
    const r = await client.sim({ workload: w.name, ...req, seed: s.seed, preset: s.preset, maxEvents: MAX_SIM_EVENTS });
    if (r.status !== 0) throw new Error(r.stderr.trim() || `the core stopped with status ${r.status}`);
    const summary = w.summary ? w.summary(req, r.stdout.trim()) : r.stdout.trim();
    return { log: r.events, summary, ...(r.stats ? { pcp: { batch: r.stats.batch, high: r.stats.high } } : {}) };
  },
};
