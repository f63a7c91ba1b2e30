// Messages between the page and the import worker (import.worker.ts).
import type { EventLogColumns } from '../log/events';
import type { TraceResult } from './trace-core';
import type { ZoneinfoReport } from './zoneinfo-core';

export type ImportRequest =
  | { kind: 'trace'; file: Blob; name: string }
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
      /** the replay, decoded in the worker (EventLog.columns()) */
      columns?: EventLogColumns;
      /** why the replay could not be decoded */
      replayError?: string;
    }
  | { kind: 'zoneinfo'; report: ZoneinfoReport }
  | { kind: 'failed'; error: string };
