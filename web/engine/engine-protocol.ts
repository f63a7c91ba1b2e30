// Messages between the page and the engine worker. The worker owns the core; the page
// only ever sees results (text and event records), never the module.
import type { ReplayResult, SimRequest } from './blab-module';

/** Test-only (docs/reliability.md): make this request trap in the core, or crash the worker. */
export type EngineFault = 'trap' | 'crash';

export type EngineRequest = (
  | { id: number; kind: 'replay'; script: string }
  | { id: number; kind: 'sim'; sim: SimRequest }
  /** a funclatency / bpftrace histogram text for the core's parser (blab-module.ts histText) */
  | { id: number; kind: 'histtext'; text: string }
) & { fault?: EngineFault };

export type EngineReply =
  | { id: number; ok: true; result: ReplayResult }
  | { id: number; ok: false; error: string }
  /** once the core is loaded: its shared memory and where its cancel flag sits, so the page can
   * stop a run at once (a terminated worker takes Chromium seconds to stop) */
  | { kind: 'cancel-flag'; memory: SharedArrayBuffer; at: number };
