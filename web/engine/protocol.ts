// Messages between the page and the engine worker. The worker owns the core; the page
// only ever sees results (text and event records), never the module.
import type { ReplayResult, SimRequest } from './blab-module';

export type EngineRequest =
  | { id: number; kind: 'replay'; script: string }
  | { id: number; kind: 'sim'; sim: SimRequest };

export type EngineReply =
  | { id: number; ok: true; result: ReplayResult }
  | { id: number; ok: false; error: string };
