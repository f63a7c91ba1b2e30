// The page's side of the import worker: one import at a time, progress callbacks, cancel.
// Cancel (and a crashed worker) terminates the worker; the next import starts a fresh one.
import type { EventLogColumns } from '../log/events';
import type { ImportReply, ImportRequest } from './protocol';
import type { TraceResult } from './trace-core';
import type { ZoneinfoReport } from './zoneinfo-core';

export class ImportCancelled extends Error {
  override name = 'ImportCancelled';
  constructor() {
    super('import cancelled');
  }
}

export interface ImportDone {
  result: TraceResult;
  bytes: number;
  elapsedMs: number;
  columns?: EventLogColumns;
  replayError?: string;
}

export class ImportClient {
  private worker: Worker | null = null;
  private reject: ((e: Error) => void) | null = null;

  get busy(): boolean {
    return this.reject !== null;
  }

  importTrace(file: Blob, name: string, onProgress: (bytes: number, total: number) => void): Promise<ImportDone> {
    if (this.busy) return Promise.reject(new Error('an import is already running: cancel it first'));
    const w = new Worker(new URL('./import.worker.ts', import.meta.url), { type: 'classic', name: 'buddylab-import' });
    this.worker = w;
    return new Promise<ImportDone>((resolve, reject) => {
      this.reject = reject;
      w.onmessage = (e: MessageEvent<ImportReply>) => {
        const r = e.data;
        if (r.kind === 'progress') onProgress(r.bytes, r.total);
        else if (r.kind === 'done') {
          this.stop();
          resolve({
            result: r.result,
            bytes: r.bytes,
            elapsedMs: r.elapsedMs,
            ...(r.columns ? { columns: r.columns } : {}),
            ...(r.replayError ? { replayError: r.replayError } : {}),
          });
        } else {
          this.stop();
          reject(new Error(r.kind === 'failed' ? r.error : `unexpected reply ${r.kind}`));
        }
      };
      w.onerror = (e: ErrorEvent) => {
        e.preventDefault();
        this.stop();
        reject(new Error(`the import worker crashed (${e.message || 'no message'}); try again`));
      };
      w.postMessage({ kind: 'trace', file, name } satisfies ImportRequest);
    });
  }

  /** A /proc/zoneinfo read by the core in the worker: its report, or the core's "line N: why". */
  zoneinfo(text: string, nodeCpus = 0): Promise<ZoneinfoReport> {
    if (this.busy) return Promise.reject(new Error('an import is already running: cancel it first'));
    const w = new Worker(new URL('./import.worker.ts', import.meta.url), { type: 'classic', name: 'buddylab-import' });
    this.worker = w;
    return new Promise<ZoneinfoReport>((resolve, reject) => {
      this.reject = reject;
      w.onmessage = (e: MessageEvent<ImportReply>) => {
        const r = e.data;
        this.stop();
        if (r.kind === 'zoneinfo') resolve(r.report);
        else reject(new Error(r.kind === 'failed' ? r.error : `unexpected reply ${r.kind}`));
      };
      w.onerror = (e: ErrorEvent) => {
        e.preventDefault();
        this.stop();
        reject(new Error(`the import worker crashed (${e.message || 'no message'}); try again`));
      };
      w.postMessage({ kind: 'zoneinfo', text, nodeCpus } satisfies ImportRequest);
    });
  }

  /** Stops the running import at once; its promise rejects with ImportCancelled. */
  cancel(): void {
    const reject = this.reject;
    this.stop();
    reject?.(new ImportCancelled());
  }

  private stop(): void {
    this.worker?.terminate();
    this.worker = null;
    this.reject = null;
  }
}
