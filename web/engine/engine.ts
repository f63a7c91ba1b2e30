// The scenario panel's engine: a scenario becomes one blab sim run on the model machine in
// the engine worker (the real C core as WebAssembly), and its event log comes back.
// Which workloads exist, and how a scenario maps onto each, is web/scenario/workloads.ts.

import type { Scenario } from '../scenario/url';
import type { ReplayResult, SimRequest } from './blab-module';
import { EngineClient } from './engine-client';
import { checkedStats } from './point';
import { scenarioRequest, type RunParams } from '../scenario/request';
import type { EngineFault } from './engine-protocol';
import type { SimStats } from './simstats';
import { LIMITS as PLAYER_LIMITS } from '../log/state';
import type { LatencyReport } from '../log/latency-json';

export interface EngineRun {
  /** the event log: 32-byte records, docs/events.md */
  log: ArrayBuffer;
  /** pcp high and batch as the core configured them (the run's counters) */
  pcp?: { high: number; batch: number };
  /** the run exactly as the core made it (blabCommand() reproduces it) */
  request: RunParams;
  /** every counter of the run */
  stats: SimStats;
  /** each allocation's and free's latency (the workbench's runs count them) */
  latency?: LatencyReport;
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
    const request = scenarioRequest(s);
    // the log is shown: a zone past the player's bound is refused before the run, not after it
    const r = await client.sim({ ...request, maxEvents: MAX_SIM_EVENTS, maxZonePages: PLAYER_LIMITS.maxPages });
    const stats = checkedStats(r);
    return { log: r.events, request, stats, pcp: { batch: stats.batch, high: stats.high }, ...(r.latency ? { latency: r.latency } : {}) };
  },
  /** A kernel's latency histogram text (funclatency, bpftrace) read by the core's parser. */
  histText(text: string): Promise<ReplayResult> {
    return client.histText(text);
  },
};
