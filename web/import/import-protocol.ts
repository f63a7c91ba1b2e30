// Messages between the page and the import worker (import.worker.ts): kernel traces, and the
// event logs the app itself wrote, both read in slices off the page's thread, and a zoneinfo.
import type { EventLogColumns } from '../log/events';
import type { TraceResult } from './trace-core';
import type { ZoneinfoReport } from './zoneinfo-core';

export type ImportRequest =
  | { kind: 'trace'; file: Blob; name: string }
  /** an event log the app wrote (binary records, docs/events.md, or its JSON form) */
  | { kind: 'log'; file: Blob; name: string; format: 'binary' | 'json' }
  /** a /proc/zoneinfo, read by the core (zoneinfo-core.ts); nodeCpus 0: the file's */
  | { kind: 'zoneinfo'; text: string; nodeCpus: number };

export type ImportReply =
  | { kind: 'progress'; bytes: number; total: number }
  | {
      kind: 'done';
      /** its `events` are empty: the replay comes decoded, in `columns` */
      result: TraceResult;
      bytes: number;
      elapsedMs: number;
      /** of it, the C parser's part: from the first chunk read to blab_trace_finish() */
      parseMs: number;
      /** the replay, decoded in the worker (EventLog.columns()) */
      columns?: EventLogColumns;
      /** why the replay could not be decoded */
      replayError?: string;
    }
  /** a decoded event log: its label (JSON logs carry one) and its columns */
  | { kind: 'log-done'; label?: string; columns: EventLogColumns; bytes: number; elapsedMs: number }
  | { kind: 'zoneinfo'; report: ZoneinfoReport }
  | { kind: 'failed'; error: string };
