// The seam where the WASM engine plugs in. Today there is no engine in the page: runScenario()
// says so, and the app shows that message instead of pretending to simulate.
//
// The lead's wiring: a dedicated worker owns the Emscripten module (docs/architecture.md), runs
// the scenario, and posts back the log as an ArrayBuffer of 32-byte records (transferred, not
// copied). Replace `connected` and `runScenario` below; the app then passes the buffer to
// App.loadEventLog(), which decodes, validates and replays it.

import type { Scenario } from '../player/url';

export interface EngineRun {
  /** the event log: 32-byte records, docs/events.md */
  log: ArrayBuffer;
  /** pcp high and batch as the core configured them, if it says */
  pcp?: { high: number; batch: number };
}

export class EngineNotConnected extends Error {
  override name = 'EngineNotConnected';
  constructor() {
    super(
      'The WASM engine is not connected yet, so this build cannot run a scenario. ' +
        'Load an event log recorded by the core (blab sim) to replay it.',
    );
  }
}

export const engine = {
  connected: false,
  async runScenario(scenario: Scenario): Promise<EngineRun> {
    void scenario;
    throw new EngineNotConnected();
  },
};
