// The typed face of the trace importer in the WASM core (wasm-core/include/blab_trace.h,
// exported by wasm-core/wasm/exports-trace.txt). The import worker and the Vitest contract test
// both go through TraceImport, so the browser parses a file exactly as `blab import` does.
import type { BlabModule } from '../engine/blab-module';
import { decodeEvents, type EventLogColumns } from '../log/events';
import { parsePcpHistogram, type PcpHistogram } from '../log/pcphist-json';
import { IMPORT_LIMITS } from '../scenario/limits';

/** The trace functions of the module, on top of what the engine uses. */
export interface TraceModule extends BlabModule {
  _blab_trace_new(flags: number): number;
  _blab_trace_free(t: number): void;
  _blab_trace_set_limits(t: number, maxLinesLo: number, maxLinesHi: number, maxEventsLo: number, maxEventsHi: number): number;
  _blab_trace_reserve(t: number, recordsLo: number, recordsHi: number): number;
  _blab_trace_feed(t: number, data: number, len: number): number;
  _blab_trace_finish(t: number): number;
  _blab_trace_error(t: number): number;
  _blab_trace_summary(t: number, buf: number, cap: number): number;
  _blab_trace_replay(t: number, out: number, cap: number): number;
  _blab_trace_records(t: number): number;
  _blab_trace_hist(t: number): number;
  _blab_hist_json(h: number, buf: number, cap: number): number;
}

const KEEP_EVENTS = 1;
const RECORD_BYTES = 32;
/** No kmem event line is shorter than this ("[0] 1: mm_page_free: pfn=1 order=0" and a newline
 * is 37 bytes): a file of N bytes holds at most N / 32 events, each up to two records. */
const SHORTEST_EVENT_LINE = 32;

/** BLAB_TRACE_E* (blab_trace.h) */
export const TRACE_ERR = { EMPTY: -1, NOEVENTS: -2, LIMIT: -3, NOMEM: -4, INVAL: -5 } as const;

export interface TraceResult {
  /** 0 or a TRACE_ERR code */
  status: number;
  /** blab_trace_error(): why the parse failed or stopped, "" when it did not */
  error: string;
  /** what `blab import` prints (docs/import.md), empty when there was nothing to summarise */
  summary: string;
  /** the replay as 32-byte records (TRACE_ZONE first); empty when there are no events */
  events: ArrayBuffer;
  /** every refill and drain run's exact size per CPU, as the model's runs count them */
  histogram?: PcpHistogram;
}

/** One streaming parse inside the core. Call feed() per chunk, then finish(), then dispose(). */
export class TraceImport {
  private t: number;
  private buf = 0;
  private bufSize = 0;
  /** performance.now() when blab_trace_finish() returned: where the parse ended */
  finishedAt = 0;

  /** `fileBytes`: the input's size, when known, to reserve the replay's room for up front */
  constructor(
    private readonly m: TraceModule,
    fileBytes = 0,
  ) {
    this.t = m._blab_trace_new(KEEP_EVENTS);
    if (!this.t) throw new Error('the core is out of memory (blab_trace_new failed)');
    // uint64_t arguments reach JS as two 32-bit halves in this Emscripten (no BigInt).
    const rc = m._blab_trace_set_limits(this.t, IMPORT_LIMITS.maxLines, 0, IMPORT_LIMITS.maxEvents, 0);
    if (rc !== 0) throw new Error(`blab_trace_set_limits failed (${rc})`);
    // the most records the file can hold (the core clamps it to its event bound): the kept
    // array is then never copied as it grows, and the heap pages it does not fill cost nothing
    const records = Math.min(2 * IMPORT_LIMITS.maxEvents, 2 * Math.ceil(fileBytes / SHORTEST_EVENT_LINE));
    // (refused for want of memory, the array grows as it fills, as it did before)
    if (records > 0) m._blab_trace_reserve(this.t, records, 0);
  }

  /** Feeds one chunk; false when a bound was hit and the rest should not be read. */
  feed(chunk: Uint8Array): boolean {
    if (chunk.length === 0) return true;
    if (chunk.length > this.bufSize) {
      if (this.buf) this.m._free(this.buf);
      this.buf = this.m._malloc(chunk.length);
      this.bufSize = this.buf ? chunk.length : 0;
      if (!this.buf) throw new Error('the core is out of memory (malloc of a chunk failed)');
    }
    this.m.HEAPU8.set(chunk, this.buf);
    return this.m._blab_trace_feed(this.t, this.buf, chunk.length) >= 0;
  }

  finish(): TraceResult {
    let events = new ArrayBuffer(0);
    const result = this.finishWith((records) => (events = records.slice().buffer));
    return { ...result, events };
  }

  /**
   * finish(), with the replay decoded straight out of the core's heap into the player's columns
   * (the import worker's path): the records are read where the core keeps them
   * (blab_trace_records()), not copied first. `events` is empty.
   */
  finishDecoded(): { result: TraceResult; columns?: EventLogColumns; replayError?: string } {
    let columns: EventLogColumns | undefined;
    let replayError: string | undefined;
    const result = this.finishWith((records) => {
      try {
        columns = decodeEvents(records).columns();
      } catch (e) {
        replayError = e instanceof Error ? e.message : String(e);
      }
    }, true);
    return { result, ...(columns ? { columns } : {}), ...(replayError ? { replayError } : {}) };
  }

  /** blab_trace_finish(), the summary, and the replay's records handed to `use` while they are
   * in the heap (the view is valid only inside it): with `inPlace`, where the core keeps them,
   * else a copy blab_trace_replay() writes */
  private finishWith(use: (records: Uint8Array) => void, inPlace = false): TraceResult {
    const m = this.m;
    const status = m._blab_trace_finish(this.t);
    this.finishedAt = performance.now();
    const error = m.UTF8ToString(m._blab_trace_error(this.t));
    let summary = '';
    const need = m._blab_trace_summary(this.t, 0, 0);
    if (need > 0) {
      const p = m._malloc(need + 1);
      if (!p) throw new Error('the core is out of memory (summary)');
      try {
        m._blab_trace_summary(this.t, p, need + 1);
        summary = m.UTF8ToString(p);
      } finally {
        m._free(p);
      }
    }
    const n = status === 0 || status === TRACE_ERR.LIMIT ? m._blab_trace_replay(this.t, 0, 0) : 0;
    const kept = n > 0 && inPlace ? m._blab_trace_records(this.t) : 0;
    if (kept) {
      // (the records outlive this call: they are the trace's until dispose())
      use(m.HEAPU8.subarray(kept, kept + n * RECORD_BYTES));
    } else if (n > 0) {
      const p = m._malloc(n * RECORD_BYTES);
      if (!p) throw new Error(`the core is out of memory (${n} replay records)`);
      try {
        const got = m._blab_trace_replay(this.t, p, n);
        use(m.HEAPU8.subarray(p, p + Math.min(got, n) * RECORD_BYTES));
      } finally {
        m._free(p);
      }
    }
    return { status, error, summary, events: new ArrayBuffer(0), ...this.histogram() };
  }

  /** blab_hist_json() of the trace's histogram, once the parse is finished */
  private histogram(): { histogram?: PcpHistogram } {
    const m = this.m;
    const h = m._blab_trace_hist(this.t);
    const need = h ? m._blab_hist_json(h, 0, 0) : 0;
    if (!need) return {};
    const p = m._malloc(need + 1);
    if (!p) throw new Error('the core is out of memory (histogram)');
    try {
      m._blab_hist_json(h, p, need + 1);
      return { histogram: parsePcpHistogram(m.UTF8ToString(p)) };
    } finally {
      m._free(p);
    }
  }

  dispose(): void {
    if (this.buf) this.m._free(this.buf);
    this.buf = 0;
    if (this.t) this.m._blab_trace_free(this.t);
    this.t = 0;
  }
}
