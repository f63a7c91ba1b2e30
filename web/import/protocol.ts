// Messages between the page and the import worker (import.worker.ts).
import type { EventLogColumns } from '../log/events';
import type { TraceResult } from './trace-core';

export type ImportRequest = { kind: 'trace'; file: Blob; name: string };

export type ImportReply =
  | { kind: 'progress'; bytes: number; total: number }
  | {
      kind: 'done';
      /** its `events` are empty: the replay comes decoded, in `columns` */
      result: TraceResult;
      bytes: number;
      elapsedMs: number;
      /** the replay, decoded in the worker (EventLog.columns()) */
      columns?: EventLogColumns;
      /** why the replay could not be decoded */
      replayError?: string;
    }
  | { kind: 'failed'; error: string };
