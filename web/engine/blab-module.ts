// The typed face of the Emscripten module (wasm-core/wasm/api.c), shared by the engine
// worker in the browser and by Vitest in Node, so both call the core the same way.
import { parsePcpHistogram, type PcpHistogram } from '../log/pcphist-json';
import { parseLatency, type LatencyReport } from '../log/latency-json';
import { SIM_REQUEST, SIM_STATS } from '../scenario/core-schema';
import type { SimStats } from './simstats';
import type { HackbenchRun, PagesRun } from '../scenario/request';

/** What emscripten's MODULARIZE factory resolves to, narrowed to what we use. */
export interface BlabModule {
  HEAPU8: Uint8Array;
  _malloc(bytes: number): number;
  _free(ptr: number): void;
  _blab_js_replay(text: number, len: number): number;
  /** `blab exercise` with its arguments as one text, each NUL-ended (wasm/api.c) */
  _blab_js_exercise(args: number, len: number): number;
  /** one model-machine run from a request struct laid out as SIM_REQUEST (include/blab_js.h) */
  _blab_js_sim_run(request: number): number;
  /** the run's counters: SIM_STATS.length int64 values */
  _blab_js_stats(run: number): number;
  /** the address of the uint32 a run reads to stop early (Cancel): 0 runs, 1 stops */
  _blab_js_cancel_flag(): number;
  /** the pages of the zone that request would create, or a negative BLAB_E* code */
  _blab_js_sim_zone_pages(request: number): number;
  _blab_js_status(run: number): number;
  _blab_js_out(run: number): number;
  _blab_js_err(run: number): number;
  _blab_js_events(run: number): number;
  _blab_js_event_count(run: number): number;
  _blab_js_run_free(run: number): void;
  /** the run's refill and drain sizes as JSON (asked with histogram), else "" */
  _blab_js_hist(run: number): number;
  /** the run's latencies as JSON (asked with latency), else "" */
  _blab_js_latency(run: number): number;
  /** a funclatency / bpftrace histogram text read by the core: a string to free(), JSON or
   * "line N: why" by *status (api_latency.c) */
  _blab_js_histtext(text: number, len: number, status: number): number;
  _blab_js_event_size(): number;
  _blab_event_name(type: number): number;
  _blab_event_class(type: number): number;
  /** mm/vmstat.c's indices from nr_free[0..top] (uint32 at nrFree); int32 results at the out pointers */
  _blab_frag_index(nrFree: number, top: number, order: number, unusable: number, extfrag: number): number;
  _blab_sim_workload_count(): number;
  _blab_sim_workload_name(index: number): number;
  _blab_sim_workload_id(name: number): number;
  UTF8ToString(ptr: number): string;
}

export type BlabFactory = (options: Record<string, unknown>) => Promise<BlabModule>;

/** The result of one op script, as `blab replay` would print it, plus its event log. */
export interface ReplayResult {
  /** 0: every line ran; 1: a line failed (stderr says which and why); 2: could not run. */
  status: number;
  stdout: string;
  stderr: string;
  /** 32-byte records (docs/events.md), copied out of the WASM heap: safe to transfer. */
  events: ArrayBuffer;
  /** a model-machine run's counters (simScenario); absent for an op script */
  stats?: SimStats;
  /** refill and drain sizes per CPU, when the request asked for them */
  histogram?: PcpHistogram;
  /** each allocation's and free's latency, when the request asked (blab_js_latency()) */
  latency?: LatencyReport;
}

/** Bounded like the C side (BLAB_JS_MAX_SCRIPT): checked here too, for a clear message early. */
export const MAX_SCRIPT_BYTES = 1 << 20;

/**
 * One workload run on the model machine (blab_js_sim_run()): a run in the workload's own fields
 * (RunParams: hackbench's groups, loops, slubPrefetch, sameCpu; the others' cpus, pages,
 * iterations), what the engine keeps of it, and pcp settings a page may add.
 */
export type SimRequest = (
  | Omit<PagesRun, 'clearLines' | 'cacheScale'>
  | Omit<HackbenchRun, 'clearLines' | 'cacheScale'>
) & {
  /** the log keeps at most this many records, then ends with LOG_FULL; 0: no log (counters only) */
  maxEvents: number;
  /** 6.7+ presets: pcp high_max (0 or absent: the preset's) */
  highMax?: number;
  /** count every refill's and drain's size per CPU (ReplayResult.histogram) */
  histogram?: boolean;
  /** 6.7+ presets: CONFIG_PCP_BATCH_SCALE_MAX, 0..6 (absent: the preset's, 5) */
  pcpBatchScaleMax?: number;
  /** count each allocation's and free's latency (the core's blab_js_latency(), JSON) */
  latency?: boolean;
  /** a zone and an LRU list per node, as `blab sim --node-zones` (page_fault1, parallel_free) */
  nodeZones?: boolean;
  /** page_fault1's tasks out of step, as `blab sim --out-of-step` (3 or more rounds) */
  outOfStep?: boolean;
  /** frame lines clear_page() writes through the cache model, 1..64 (absent: 64) */
  clearLines?: number;
  /** L2 and LLC sizes divided by this, 1..64 and a power of two (absent: 1), as `blab sim
   * --cache-scale`: 4096 pages per task at 8 keep will-it-scale's 128 MB to cache ratio */
  cacheScale?: number;
  /** refuse, before it runs, a run whose zone would have more pages (the player's bound,
   * for a run whose log is shown); absent: no bound but the core's */
  maxZonePages?: number;
};

/** The workloads the core has, by name, in the order of its table (wasm-core/src/sim_workloads.c). */
export function coreWorkloads(m: BlabModule): string[] {
  const n = m._blab_sim_workload_count();
  return Array.from({ length: n }, (_, i) => m.UTF8ToString(m._blab_sim_workload_name(i)));
}

function workloadId(m: BlabModule, name: string): number {
  const bytes = new TextEncoder().encode(`${name}\0`);
  if (bytes.length > 64) throw new Error(`workload name too long: ${name.slice(0, 64)}…`);
  const ptr = m._malloc(bytes.length);
  if (!ptr) throw new Error('the core is out of memory (malloc of the workload name failed)');
  try {
    m.HEAPU8.set(bytes, ptr);
    return m._blab_sim_workload_id(ptr);
  } finally {
    m._free(ptr);
  }
}

/** The request struct's values by field name: each workload's own fields, the others 0. */
function requestFields(id: number, req: SimRequest): Record<(typeof SIM_REQUEST.fields)[number], number> {
  const hb = req.workload === 'hackbench' ? req : undefined;
  const pages = req.workload === 'hackbench' ? undefined : req;
  return {
    workload: id,
    cpus: pages?.cpus ?? 0,
    pages: pages?.pages ?? 0,
    iterations: pages?.iterations ?? 0,
    groups: hb?.groups ?? 0,
    loops: hb?.loops ?? 0,
    slubPrefetch: hb?.slubPrefetch ? 1 : 0,
    sameCpu: hb?.sameCpu ? 1 : 0,
    seed: req.seed >>> 0,
    maxEvents: req.maxEvents,
    batch: req.batch ?? 0,
    high: req.high ?? 0,
    highMax: req.highMax ?? 0,
    histogram: req.histogram ? 1 : 0,
    // the request carries N + 1, so that 0 can mean the preset's own
    pcpBatchScaleMax: req.pcpBatchScaleMax === undefined ? 0 : req.pcpBatchScaleMax + 1,
    latency: req.latency ? 1 : 0,
    nodeZones: req.nodeZones ? 1 : 0,
    outOfStep: req.outOfStep ? 1 : 0,
    clearLines: req.clearLines ?? 0,
    cacheScale: req.cacheScale ?? 0,
  };
}

export function simScenario(m: BlabModule, req: SimRequest): ReplayResult {
  const name = new TextEncoder().encode(req.preset);
  if (name.length >= SIM_REQUEST.presetMax) throw new Error(`preset name too long: ${req.preset.slice(0, 64)}…`);
  const reqPtr = m._malloc(SIM_REQUEST.bytes);
  if (!reqPtr) throw new Error('the core is out of memory (malloc of the request failed)');
  let run = 0;
  try {
    const id = workloadId(m, req.workload);
    if (!id) throw new Error(`the core has no workload "${req.workload.slice(0, 32)}"; it has ${coreWorkloads(m).join(', ')}`);
    const view = new DataView(m.HEAPU8.buffer, reqPtr, SIM_REQUEST.bytes);
    const values = requestFields(id, req);
    SIM_REQUEST.fields.forEach((f, i) => view.setUint32(i * 4, values[f] >>> 0, true));
    m.HEAPU8.fill(0, reqPtr + SIM_REQUEST.presetOffset, reqPtr + SIM_REQUEST.presetOffset + SIM_REQUEST.presetMax);
    m.HEAPU8.set(name, reqPtr + SIM_REQUEST.presetOffset);
    if (req.maxZonePages !== undefined) {
      const zone = m._blab_js_sim_zone_pages(reqPtr);
      if (zone > req.maxZonePages) {
        return {
          status: 2,
          stdout: '',
          stderr:
            `blab sim: this run's zone would have ${zone.toLocaleString('en')} pages; the player shows at most ` +
            `${req.maxZonePages.toLocaleString('en')} (fewer pages or CPUs)\n`,
          events: new ArrayBuffer(0),
        };
      }
    }
    run = m._blab_js_sim_run(reqPtr);
    if (!run) throw new Error('the core is out of memory (no run record)');
    const stats = new DataView(m.HEAPU8.buffer, m._blab_js_stats(run), SIM_STATS.length * 8);
    const out: Partial<SimStats> = {};
    SIM_STATS.forEach((k, i) => {
      // a number holds an int64 exactly up to 2^53: past it two counts could compare equal
      const v = stats.getBigInt64(i * 8, true);
      if (v > BigInt(Number.MAX_SAFE_INTEGER) || v < BigInt(Number.MIN_SAFE_INTEGER)) throw new Error(`the core's ${k} counter is ${v}, past 2^53`);
      out[k] = Number(v);
    });
    const hist = req.histogram ? m.UTF8ToString(m._blab_js_hist(run)) : '';
    const lat = req.latency ? m.UTF8ToString(m._blab_js_latency(run)) : '';
    return {
      ...takeRun(m, run),
      stats: out as SimStats,
      ...(hist ? { histogram: parsePcpHistogram(hist) } : {}),
      ...(lat ? { latency: parseLatency(lat) } : {}),
    };
  } finally {
    if (run) m._blab_js_run_free(run);
    m._free(reqPtr);
  }
}

/** Copies a finished run's text and records out of the WASM heap. */
function takeRun(m: BlabModule, run: number): ReplayResult {
  const size = m._blab_js_event_size();
  const count = m._blab_js_event_count(run);
  const at = m._blab_js_events(run);
  // slice() copies into a fresh, non-shared ArrayBuffer that can be transferred.
  const events = count && at ? m.HEAPU8.slice(at, at + count * size).buffer : new ArrayBuffer(0);
  return {
    status: m._blab_js_status(run),
    stdout: m.UTF8ToString(m._blab_js_out(run)),
    stderr: m.UTF8ToString(m._blab_js_err(run)),
    events,
  };
}

/** The input a histogram text may have (BLAB_HISTTEXT_MAX_INPUT): checked here too, for a clear message early. */
export const MAX_HISTTEXT_BYTES = 16 << 20;

/**
 * A BCC funclatency or bpftrace hist() / lhist() text read by the core's parser (the same C as
 * `blab import`): status 0 and the histograms as JSON in stdout, or status 1 and "line N: why"
 * in stderr. Nothing half read: the core returns all of it or an error.
 */
export function histText(m: BlabModule, text: string): ReplayResult {
  const empty = new ArrayBuffer(0);
  const bytes = new TextEncoder().encode(text);
  if (bytes.length > MAX_HISTTEXT_BYTES) return { status: 1, stdout: '', stderr: `the text is ${bytes.length.toLocaleString('en')} bytes; the limit is ${MAX_HISTTEXT_BYTES.toLocaleString('en')}`, events: empty };
  const textPtr = m._malloc(Math.max(1, bytes.length));
  const statusPtr = m._malloc(4);
  if (!textPtr || !statusPtr) throw new Error('the core is out of memory (malloc of the histogram text failed)');
  let out = 0;
  try {
    m.HEAPU8.set(bytes, textPtr);
    out = m._blab_js_histtext(textPtr, bytes.length, statusPtr);
    if (!out) throw new Error('the core is out of memory (reading the histogram)');
    const status = new DataView(m.HEAPU8.buffer, statusPtr, 4).getInt32(0, true);
    const s = m.UTF8ToString(out);
    return status === 0 ? { status: 0, stdout: s, stderr: '', events: empty } : { status: 1, stdout: '', stderr: s, events: empty };
  } finally {
    if (out) m._free(out);
    m._free(statusPtr);
    m._free(textPtr);
  }
}

export function replayScript(m: BlabModule, text: string): ReplayResult {
  const bytes = new TextEncoder().encode(text);
  if (bytes.length > MAX_SCRIPT_BYTES) {
    return {
      status: 2,
      stdout: '',
      stderr: `the script is ${bytes.length} bytes; the limit is ${MAX_SCRIPT_BYTES}\n`,
      events: new ArrayBuffer(0),
    };
  }
  const textPtr = m._malloc(Math.max(1, bytes.length));
  if (!textPtr) throw new Error('the core is out of memory (malloc of the script failed)');
  let run = 0;
  try {
    m.HEAPU8.set(bytes, textPtr);
    run = m._blab_js_replay(textPtr, bytes.length);
    if (!run) throw new Error('the core is out of memory (no run record)');
    return takeRun(m, run);
  } finally {
    if (run) m._blab_js_run_free(run);
    m._free(textPtr);
  }
}

/** Bounded like the C side (blab_js_exercise: 64 arguments, 4096 bytes). */
const MAX_EXERCISE_ARGS = 64;
const MAX_EXERCISE_BYTES = 4096;

/** `blab exercise ARGS` in the core: what the CLI would print for them, and its exit status. */
export function exerciseRun(m: BlabModule, args: readonly string[]): ReplayResult {
  const bytes = new TextEncoder().encode(args.map((a) => `${a}\0`).join(''));
  if (args.length > MAX_EXERCISE_ARGS || bytes.length > MAX_EXERCISE_BYTES || args.some((a) => a.includes('\0')))
    return { status: 2, stdout: '', stderr: `blab exercise: at most ${MAX_EXERCISE_ARGS} arguments, ${MAX_EXERCISE_BYTES} bytes, no NUL in them\n`, events: new ArrayBuffer(0) };
  const ptr = m._malloc(Math.max(1, bytes.length));
  if (!ptr) throw new Error('the core is out of memory (malloc of the arguments failed)');
  let run = 0;
  try {
    m.HEAPU8.set(bytes, ptr);
    run = m._blab_js_exercise(ptr, bytes.length);
    if (!run) throw new Error('the core is out of memory (no run record)');
    return takeRun(m, run);
  } finally {
    if (run) m._blab_js_run_free(run);
    m._free(ptr);
  }
}
