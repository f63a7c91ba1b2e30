// The engine worker: a classic (non-module) dedicated worker that owns the WASM core.
// Emscripten 3.1.6 with pthreads is only reliable loaded by importScripts() in a classic
// worker (see docs/architecture.md), so this file is built as an IIFE (vite.config.ts).
import { wasmBase as wasmBaseOf } from './wasm-base';
import { histText, replayScript, simScenario, type BlabFactory } from './blab-module';
import type { EngineReply, EngineRequest } from './engine-protocol';

declare function importScripts(...urls: string[]): void;
declare const createBlab: BlabFactory;

const scope = self as unknown as {
  onmessage: ((e: MessageEvent<EngineRequest>) => void) | null;
  postMessage(msg: EngineReply, transfer?: Transferable[]): void;
};

const wasmBase = wasmBaseOf(self.location.href);
let core: ReturnType<BlabFactory> | null = null;
/** the core's cancel flag, as 32-bit words of its shared memory and the flag's index */
let cancelFlag: { words: Int32Array; index: number } | null = null;

async function loadCore(): ReturnType<BlabFactory> {
  importScripts(`${wasmBase}blab.js`);
  const m = await createBlab({
    locateFile: (file: string) => `${wasmBase}${file}`,
    mainScriptUrlOrBlob: `${wasmBase}blab.js`,
  });
  // the pthreads build's memory is a SharedArrayBuffer: the page may write the flag into it
  const memory = m.HEAPU8.buffer;
  const at = m._blab_js_cancel_flag();
  if (typeof SharedArrayBuffer !== 'undefined' && memory instanceof SharedArrayBuffer) {
    cancelFlag = { words: new Int32Array(memory), index: at >> 2 };
    scope.postMessage({ kind: 'cancel-flag', memory, at });
  }
  return m;
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
      // a Cancel meant for the run before this one is over
      if (cancelFlag) Atomics.store(cancelFlag.words, cancelFlag.index, 0);
      const result = req.kind === 'sim' ? simScenario(m, req.sim) : req.kind === 'histtext' ? histText(m, req.text) : replayScript(m, req.script);
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
