// The page's side of the import worker: one import (a trace, an event log or a zoneinfo) at a
// time, progress callbacks, cancel.
// Cancel (and a crashed worker) terminates the worker; the next import starts a fresh one.
import type { EventLogColumns } from '../log/events';
import type { ImportReply, ImportRequest } from './import-protocol';
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
  /** the C parser's part of elapsedMs (the rest: loading the core, decoding the replay) */
  parseMs: number;
  columns?: EventLogColumns;
  replayError?: string;
}

export interface LogDone {
  label?: string;
  columns: EventLogColumns;
  bytes: number;
  elapsedMs: number;
}

export class ImportClient {
  private worker: Worker | null = null;
  private reject: ((e: Error) => void) | null = null;

  get busy(): boolean {
    return this.reject !== null;
  }

  importTrace(file: Blob, name: string, onProgress: (bytes: number, total: number) => void): Promise<ImportDone> {
    return this.ask({ kind: 'trace', file, name }, onProgress).then((r) => {
      if (r.kind !== 'done') throw new Error(`the import worker answered ${r.kind} to a trace`);
      return {
        result: r.result,
        bytes: r.bytes,
        elapsedMs: r.elapsedMs,
        parseMs: r.parseMs,
        ...(r.columns ? { columns: r.columns } : {}),
        ...(r.replayError ? { replayError: r.replayError } : {}),
      };
    });
  }

  /** Reads an event log the app wrote (binary records or JSON) off the page's thread. */
  loadLog(file: Blob, name: string, format: 'binary' | 'json', onProgress: (bytes: number, total: number) => void): Promise<LogDone> {
    return this.ask({ kind: 'log', file, name, format }, onProgress).then((r) => {
      if (r.kind !== 'log-done') throw new Error(`the import worker answered ${r.kind} to an event log`);
      return { columns: r.columns, bytes: r.bytes, elapsedMs: r.elapsedMs, ...(r.label !== undefined ? { label: r.label } : {}) };
    });
  }

  /** A /proc/zoneinfo read by the core in the worker: its report, or the core's "line N: why". */
  zoneinfo(text: string, nodeCpus = 0): Promise<ZoneinfoReport> {
    return this.ask({ kind: 'zoneinfo', text, nodeCpus }, () => {}).then((r) => {
      if (r.kind !== 'zoneinfo') throw new Error(`the import worker answered ${r.kind} to a zoneinfo`);
      return r.report;
    });
  }

  private ask(req: ImportRequest, onProgress: (bytes: number, total: number) => void): Promise<Exclude<ImportReply, { kind: 'progress' | 'failed' }>> {
    if (this.busy) return Promise.reject(new Error('an import is already running: cancel it first'));
    const w = new Worker(new URL('./import.worker.ts', import.meta.url), { type: 'classic', name: 'buddylab-import' });
    this.worker = w;
    return new Promise((resolve, reject) => {
      this.reject = reject;
      w.onmessage = (e: MessageEvent<ImportReply>) => {
        const r = e.data;
        if (r.kind === 'progress') onProgress(r.bytes, r.total);
        else if (r.kind === 'failed') {
          this.stop();
          reject(new Error(r.error));
        } else {
          this.stop();
          resolve(r);
        }
      };
      w.onerror = (e: ErrorEvent) => {
        e.preventDefault();
        this.stop();
        reject(new Error(`the import worker crashed (${e.message || 'no message'}); try again`));
      };
      w.postMessage(req);
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
