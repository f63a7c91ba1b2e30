// The page's side of the engine: sends an op script to the worker, gets back the result.
// If the worker dies, every pending request fails with a plain message and the next
// request starts a new worker, so the app recovers without a reload.
import type { ReplayResult, SimRequest } from './blab-module';
import type { EngineFault, EngineReply, EngineRequest } from './engine-protocol';

type Pending = { resolve: (r: ReplayResult) => void; reject: (e: Error) => void };

export class EngineClient {
  /** pool: one of a SimPool's workers (named buddylab-pool, so tests and tools can tell them
   * from the page's own engine worker) */
  constructor(private readonly role: 'engine' | 'pool' = 'engine') {}

  private worker: Worker | null = null;
  /** the core's cancel flag in its shared memory, once the worker said where */
  private cancelFlag: { words: Int32Array; index: number } | null = null;
  private nextId = 1;
  private pending = new Map<number, Pending>();
  private fault: EngineFault | undefined;

  /** Test-only hook: the next request traps in the WASM core ('trap') or kills the worker ('crash'). */
  injectFault(fault: EngineFault): void {
    this.fault = fault;
  }

  /** Why the browser cannot run the core, or null when it can. */
  static unsupported(): string | null {
    if (typeof Worker === 'undefined') return 'this browser has no Web Workers';
    if (typeof SharedArrayBuffer === 'undefined' || !globalThis.crossOriginIsolated)
      return 'the page is not cross-origin isolated, so the simulator (WebAssembly with threads) cannot start here: reload the page once (its service worker isolates it from the second load on)';
    return null;
  }

  replay(script: string): Promise<ReplayResult> {
    return this.request((id) => ({ id, kind: 'replay', script }));
  }

  /** A latency histogram's text (BCC funclatency, bpftrace hist / lhist) read by the core. */
  histText(text: string): Promise<ReplayResult> {
    return this.request((id) => ({ id, kind: 'histtext', text }));
  }

  /** One workload run on the model machine (blab sim). */
  sim(sim: SimRequest): Promise<ReplayResult> {
    return this.request((id) => ({ id, kind: 'sim', sim }));
  }

  private request(make: (id: number) => EngineRequest): Promise<ReplayResult> {
    const why = EngineClient.unsupported();
    if (why) return Promise.reject(new Error(why));
    const worker = this.ensureWorker();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      const req = make(id);
      if (this.fault) req.fault = this.fault;
      this.fault = undefined;
      worker.postMessage(req);
    });
  }

  dispose(): void {
    this.fail('the engine was stopped');
  }

  /**
   * Stops the model-machine run in progress within a few milliseconds (it ends with status 2,
   * "cancelled") and keeps the worker and its loaded core for the next run. False when the
   * core has not said where its flag is yet: then only dispose() stops it.
   */
  cancelRun(): boolean {
    if (!this.cancelFlag) return false;
    Atomics.store(this.cancelFlag.words, this.cancelFlag.index, 1);
    return true;
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    // two call sites, because Vite reads a worker's options statically
    const w =
      this.role === 'pool'
        ? new Worker(new URL('./engine.worker.ts', import.meta.url), { type: 'classic', name: 'buddylab-pool' })
        : new Worker(new URL('./engine.worker.ts', import.meta.url), { type: 'classic', name: 'buddylab-engine' });
    w.onmessage = (e: MessageEvent<EngineReply>) => {
      const reply = e.data;
      if ('kind' in reply) {
        this.cancelFlag = { words: new Int32Array(reply.memory), index: reply.at >> 2 };
        return;
      }
      const p = this.pending.get(reply.id);
      if (!p) return;
      this.pending.delete(reply.id);
      if (reply.ok) p.resolve(reply.result);
      else p.reject(new Error(reply.error));
    };
    w.onerror = (e: ErrorEvent) => {
      e.preventDefault();
      this.fail(`the engine worker crashed: ${e.message || 'no message'}; it will restart on the next run`);
    };
    this.worker = w;
    return w;
  }

  private fail(message: string): void {
    this.worker?.terminate();
    this.worker = null;
    this.cancelFlag = null;
    for (const p of this.pending.values()) p.reject(new Error(message));
    this.pending.clear();
  }
}
