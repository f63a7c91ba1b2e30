// Messages between the page and the import worker (import.worker.ts).
import type { TraceResult } from './trace-core';

export type ImportRequest = { kind: 'trace'; file: Blob; name: string };

export type ImportReply =
  | { kind: 'progress'; bytes: number; total: number }
  | { kind: 'done'; result: TraceResult; bytes: number; elapsedMs: number }
  | { kind: 'failed'; error: string };
