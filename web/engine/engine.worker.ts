// The engine worker: a classic (non-module) dedicated worker that owns the WASM core.
// Emscripten 3.1.6 with pthreads is only reliable loaded by importScripts() in a classic
// worker (see docs/architecture.md), so this file is built as an IIFE (vite.config.ts).
import { wasmBase as wasmBaseOf } from './wasm-base';
import { replayScript, simScenario, type BlabFactory } from './blab-module';
import type { EngineReply, EngineRequest } from './protocol';

declare function importScripts(...urls: string[]): void;
declare const createBlab: BlabFactory;

const scope = self as unknown as {
  onmessage: ((e: MessageEvent<EngineRequest>) => void) | null;
  postMessage(msg: EngineReply, transfer?: Transferable[]): void;
};

const wasmBase = wasmBaseOf(self.location.href);
let core: ReturnType<BlabFactory> | null = null;

function loadCore(): ReturnType<BlabFactory> {
  importScripts(`${wasmBase}blab.js`);
  return createBlab({
    locateFile: (file: string) => `${wasmBase}${file}`,
    mainScriptUrlOrBlob: `${wasmBase}blab.js`,
  });
}

scope.onmessage = (e) => {
  const req = e.data;
  void (async () => {
    try {
      core ??= loadCore();
      const m = await core;
      if (req.fault === 'crash') {
        // test-only: an uncaught error outside any handler, as a bug in the worker would be
        setTimeout(() => {
          throw new Error('test-only crash of the engine worker');
        });
        return;
      }
      // test-only: a real WebAssembly trap, a read far outside the core's memory
      if (req.fault === 'trap') m._blab_js_replay(0xfffffff0, 64);
      const result = req.kind === 'sim' ? simScenario(m, req.sim) : replayScript(m, req.script);
      scope.postMessage({ id: req.id, ok: true, result }, [result.events]);
    } catch (err) {
      // A trap in the core (or a failed load) leaves the module unusable: drop it, so the
      // next request starts a fresh one, and say what happened in plain words.
      core = null;
      const why = err instanceof Error ? err.message : String(err);
      scope.postMessage({ id: req.id, ok: false, error: `the allocator core stopped (${why}); it restarts on the next run` });
    }
  })();
};
