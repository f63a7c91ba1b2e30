// The browser's hard limits, in one place (docs/limits.md, "In the browser"). Each is checked
// where input enters the page, before any worker is asked, and each has its own message.
// limits.test.ts checks this table against the one in docs/limits.md.
import { URL_LIMITS } from './url';
import { LIMITS as PLAYER_LIMITS } from '../log/state';
import { MAX_RECORDS } from '../log/events';
import { CORE_LIMITS } from '../log/core-limits';

/** Imported kernel traces (the C parser has its own, larger bounds: blab_trace.h). */
export const IMPORT_LIMITS = {
  /** bytes of one trace file: a 300,000-line tracefs trace is ~38 MB */
  maxTraceBytes: 256 * 1024 * 1024,
  /** lines the parser reads (BLAB_TRACE_MAX_LINES is 2^26) */
  maxLines: 1 << 24,
  /**
   * kmem page events kept for the replay: each costs up to 2 x 32 bytes in the parser and again
   * in the replay array, inside the web build's fixed 512 MiB of WASM memory (docs/import.md)
   */
  maxEvents: 1_000_000,
  /** bytes read per chunk at most (chunk-reader.ts): one progress update each */
  chunkBytes: 1 << 20,
  /** bytes of pasted or dropped /proc/buddyinfo or /proc/zoneinfo text */
  maxSnapshotBytes: 1 << 20,
  /**
   * pages of a zone started from a snapshot; a larger one is cut (snapshot-script.ts). Half the
   * player's bound: the engine worker's fixed 512 MiB heap holds the core's struct page array
   * (64 B a page) beside the run, and a 4,194,304-page zone did not come back from it
   */
  maxSnapshotPages: PLAYER_LIMITS.maxPages / 2,
  /** bytes of a scenario file to import */
  maxScenarioFileBytes: 256 * 1024,
} as const;

/** Every browser limit, named as docs/limits.md names it. */
export const BROWSER_LIMITS = {
  'URL state length (characters)': URL_LIMITS.maxHashLength,
  'pages per zone (URL, scenario)': URL_LIMITS.maxPages,
  'CPUs (URL, scenario)': URL_LIMITS.maxCpus,
  'pages per replayed zone (player)': PLAYER_LIMITS.maxPages,
  'CPUs per replayed zone (player)': PLAYER_LIMITS.maxCpus,
  'events per log (player)': MAX_RECORDS,
  'trace file size (bytes)': IMPORT_LIMITS.maxTraceBytes,
  'trace lines': IMPORT_LIMITS.maxLines,
  'trace events (browser)': IMPORT_LIMITS.maxEvents,
  'snapshot text (bytes)': IMPORT_LIMITS.maxSnapshotBytes,
  'zoneinfo text (bytes)': CORE_LIMITS.zoneinfoMaxBytes,
  'pages of a snapshot zone (`/proc` snapshot panel)': IMPORT_LIMITS.maxSnapshotPages,
  'scenario file (bytes)': IMPORT_LIMITS.maxScenarioFileBytes,
} as const;

/** A refused input: says which limit and by how much. */
export class LimitError extends Error {
  override name = 'LimitError';
  constructor(
    readonly limit: keyof typeof BROWSER_LIMITS,
    readonly value: number,
    what: string,
  ) {
    super(`${what} is ${value.toLocaleString('en')}; the limit (${limit}) is ${BROWSER_LIMITS[limit].toLocaleString('en')}`);
  }
}

/** Throws LimitError when value is above the named limit. */
export function checkLimit(limit: keyof typeof BROWSER_LIMITS, value: number, what: string): void {
  if (!(value <= BROWSER_LIMITS[limit])) throw new LimitError(limit, value, what);
}
