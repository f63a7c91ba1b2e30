// The typed face of the Emscripten module (wasm-core/wasm/api.c), shared by the engine
// worker in the browser and by Vitest in Node, so both call the core the same way.

/** What emscripten's MODULARIZE factory resolves to, narrowed to what we use. */
export interface BlabModule {
  HEAPU8: Uint8Array;
  _malloc(bytes: number): number;
  _free(ptr: number): void;
  _blab_js_replay(text: number, len: number): number;
  _blab_js_sim(workload: number, cpus: number, pages: number, iterations: number, seed: number, preset: number, maxEvents: number): number;
  _blab_js_sim_ex(
    workload: number, cpus: number, pages: number, iterations: number, seed: number, preset: number,
    maxEvents: number, batch: number, high: number, clearLines: number,
  ): number;
  /** the pages of the zone that run would create, or a negative BLAB_E* code */
  _blab_js_sim_zone_pages(
    workload: number, cpus: number, pages: number, iterations: number, preset: number, batch: number, high: number,
  ): number;
  _blab_js_status(run: number): number;
  _blab_js_out(run: number): number;
  _blab_js_err(run: number): number;
  _blab_js_events(run: number): number;
  _blab_js_event_count(run: number): number;
  _blab_js_run_free(run: number): void;
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
}

/** Bounded like the C side (BLAB_JS_MAX_SCRIPT): checked here too, for a clear message early. */
export const MAX_SCRIPT_BYTES = 1 << 20;

/** One workload run on the model machine (blab sim), as the scenario panel asks for it. */
export interface SimRequest {
  /** the core's workload name (web/scenario/workloads.ts; blab_sim_workload_id() resolves it) */
  workload: string;
  /** page_fault1: tasks, one CPU each; hackbench: groups, one CPU each */
  cpus: number;
  /** pages each task maps (the zone holds cpus x pages); hackbench: messages per sender */
  pages: number;
  /** hackbench: flags, bit 0 = SLUB freelist prefetch, bit 1 = same-CPU control */
  iterations: number;
  seed: number;
  preset: string;
  /** the log keeps at most this many records, then ends with LOG_FULL; 0: no log (counters only) */
  maxEvents: number;
  /** pcp batch / high overrides (0 or absent: the preset's, for a 96 GB node) */
  batch?: number;
  high?: number;
  /** frame lines clear_page() writes through the cache model, 1..64 (absent: 64) */
  clearLines?: number;
  /** refuse, before it runs, a run whose zone would have more pages (the player's bound,
   * for a run whose log is shown); absent: no bound but the core's */
  maxZonePages?: number;
}

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

export function simScenario(m: BlabModule, req: SimRequest): ReplayResult {
  const name = new TextEncoder().encode(`${req.preset}\0`);
  if (name.length > 64) throw new Error(`preset name too long: ${req.preset.slice(0, 64)}…`);
  const namePtr = m._malloc(name.length);
  if (!namePtr) throw new Error('the core is out of memory (malloc of the preset name failed)');
  let run = 0;
  try {
    const id = workloadId(m, req.workload);
    if (!id) throw new Error(`the core has no workload "${req.workload.slice(0, 32)}"; it has ${coreWorkloads(m).join(', ')}`);
    m.HEAPU8.set(name, namePtr);
    if (req.maxZonePages !== undefined) {
      const zone = m._blab_js_sim_zone_pages(id, req.cpus, req.pages, req.iterations, namePtr, req.batch ?? 0, req.high ?? 0);
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
    run = m._blab_js_sim_ex(
      id, req.cpus, req.pages, req.iterations, req.seed >>> 0, namePtr,
      req.maxEvents, req.batch ?? 0, req.high ?? 0, req.clearLines ?? 0,
    );
    if (!run) throw new Error('the core is out of memory (no run record)');
    return takeRun(m, run);
  } finally {
    if (run) m._blab_js_run_free(run);
    m._free(namePtr);
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
