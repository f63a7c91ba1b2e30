// The real machine's worker: a classic dedicated worker (like the engine worker, so that it
// can importScripts() emscripten's loader) with its own instance of the WASM core. Its
// pthreads are more Web Workers over that instance's SharedArrayBuffer: one per CPU of the
// zone. It posts every second's per-worker scores as they come.
import { wasmBase as wasmBaseOf } from './wasm-base';
import type { BlabFactory } from './blab-module';
import type { RealReply, RealRequest } from './real-protocol';
import { runReal, summarise, type RealModule, type ThreadCounters } from './real-run';

declare function importScripts(...urls: string[]): void;
declare const createBlab: BlabFactory;

const scope = self as unknown as {
  onmessage: ((e: MessageEvent<RealRequest>) => void) | null;
  postMessage(msg: RealReply): void;
};

const wasmBase = wasmBaseOf(self.location.href);
let core: Promise<RealModule> | null = null;
const ZERO_LOCK = { acquisitions: 0, contended: 0, spinNs: 0, holdNs: 0 };
const ZERO: ThreadCounters = { pages: 0, zone: ZERO_LOCK, lru: ZERO_LOCK };
let running = false;
let stopAsked = false;

function loadCore(): Promise<RealModule> {
  importScripts(`${wasmBase}blab.js`);
  return createBlab({
    locateFile: (file: string) => `${wasmBase}${file}`,
    mainScriptUrlOrBlob: `${wasmBase}blab.js`,
  }) as unknown as Promise<RealModule>;
}

function post(msg: RealReply): void {
  scope.postMessage(msg);
}

scope.onmessage = (e) => {
  const req = e.data;
  if (req.kind === 'stop') {
    stopAsked = true;
    return;
  }
  if (running) {
    post({ kind: 'error', error: 'a run is already going' });
    return;
  }
  running = true;
  stopAsked = false;
  void (async () => {
    try {
      core ??= loadCore();
      const m = await core;
      post({ kind: 'ready', prefetch: m._blab_js_real_has_prefetch() !== 0, maxThreads: m._blab_js_real_max_threads() });
      let last: ThreadCounters[] | null = null;
      let lastNs = 0;
      const report = await runReal(
        m,
        req.options,
        (sample, t) => {
          // each worker's share of this second spent spinning on zone->lock
          const ns = 1e9 * sample.second;
          const spin = last ? summarise(last, t, ns - lastNs, 'zone').spinPctPerWorker : summarise(t.map(() => ZERO), t, ns, 'zone').spinPctPerWorker;
          last = t;
          lastNs = ns;
          post({ kind: 'second', sample, spinPctPerWorker: spin });
        },
        () => stopAsked,
      );
      post({ kind: 'done', report });
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      post({ kind: 'error', error: why });
    } finally {
      running = false;
    }
  })();
};
