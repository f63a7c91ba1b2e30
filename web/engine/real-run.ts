// The real machine through the WASM module (wasm-core/wasm/api_real.c): page_fault1 on
// Emscripten pthreads, one Web Worker per CPU of the zone. Shared by the real worker in the
// browser and by Vitest in Node, so both drive the core the same way.
//
// Nothing blocks: start, then poll samples from a timer (the threads only start once the
// calling worker is back in its event loop), stop, wait until every thread has finished,
// finish (join and check the zone).

/** The module's real-machine entry points, narrowed to what we use. */
export interface RealModule {
  HEAPU8: Uint8Array;
  HEAPF64: Float64Array;
  _malloc(bytes: number): number;
  _free(ptr: number): void;
  _blab_js_real_fields(): number;
  _blab_js_real_max_threads(): number;
  _blab_js_real_has_prefetch(): number;
  _blab_js_real_error(): number;
  _blab_js_real_start(preset: number, threads: number, pages: number): number;
  _blab_js_real_started(): number;
  _blab_js_real_finished(): number;
  _blab_js_real_sample(out: number, cap: number): number;
  _blab_js_real_batch(): number;
  _blab_js_real_high(): number;
  _blab_js_real_stop(): void;
  _blab_js_real_finish(): number;
  UTF8ToString(ptr: number): string;
}

export interface LockCounters {
  acquisitions: number;
  contended: number;
  spinNs: number;
  holdNs: number;
}

export interface ThreadCounters {
  pages: number;
  zone: LockCounters;
  lru: LockCounters;
}

/** One second of a run: pages/s of each worker (will-it-scale's per-task sample). */
export interface RealSecond {
  second: number;
  warmup: boolean;
  perWorker: number[];
}

/** Lock statistics over the measured seconds (docs/real.md). */
export interface LockSummary {
  acquisitionsPerPage: number;
  contendedPct: number;
  /** share of all workers' time spent spinning */
  spinPct: number;
  holdNsMean: number;
  /** per worker: share of its time spent spinning on zone->lock */
  spinPctPerWorker: number[];
}

export interface RealReport {
  preset: string;
  workers: number;
  batch: number;
  high: number;
  prefetch: boolean;
  seconds: RealSecond[];
  /** mean of the measured seconds' totals, pages/s */
  average: number;
  zoneLock: LockSummary;
  lruLock: LockSummary;
}

export interface RealOptions {
  preset: string;
  workers: number;
  /** pages each task maps per round */
  pages: number;
  seconds: number;
  warmup: number;
}

/** How long to wait for all workers to start (a browser loads one script per worker). */
const START_TIMEOUT_MS = 60_000;
const POLL_MS = 50;

function decode(m: RealModule, at: number, n: number): ThreadCounters[] {
  const fields = m._blab_js_real_fields();
  const base = at >> 3;
  const out: ThreadCounters[] = [];
  for (let i = 0; i < n; i++) {
    const o = base + i * fields;
    const h = m.HEAPF64;
    const lock = (k: number): LockCounters => ({
      acquisitions: h[o + 1 + 4 * k] ?? 0,
      contended: h[o + 2 + 4 * k] ?? 0,
      spinNs: h[o + 3 + 4 * k] ?? 0,
      holdNs: h[o + 4 + 4 * k] ?? 0,
    });
    out.push({ pages: h[o] ?? 0, zone: lock(0), lru: lock(1) });
  }
  return out;
}

export function summarise(a: ThreadCounters[], b: ThreadCounters[], windowNs: number, which: 'zone' | 'lru'): LockSummary {
  let acq = 0, con = 0, spin = 0, hold = 0, pages = 0;
  const per: number[] = [];
  b.forEach((t, i) => {
    const s = t[which], p = a[i]?.[which];
    const dSpin = s.spinNs - (p?.spinNs ?? 0);
    acq += s.acquisitions - (p?.acquisitions ?? 0);
    con += s.contended - (p?.contended ?? 0);
    spin += dSpin;
    hold += s.holdNs - (p?.holdNs ?? 0);
    pages += t.pages - (a[i]?.pages ?? 0);
    per.push(windowNs > 0 ? (100 * dSpin) / windowNs : 0);
  });
  return {
    acquisitionsPerPage: pages ? acq / pages : 0,
    contendedPct: acq ? (100 * con) / acq : 0,
    spinPct: windowNs > 0 && b.length ? (100 * spin) / (windowNs * b.length) : 0,
    holdNsMean: acq ? hold / acq : 0,
    spinPctPerWorker: per,
  };
}

function lastError(m: RealModule): string {
  return m.UTF8ToString(m._blab_js_real_error()) || 'the real machine failed without a message';
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * Runs page_fault1 on `workers` pthreads for warmup + seconds seconds; calls onSecond after
 * each second with every worker's pages/s. Throws with the core's message on bad options
 * or a failed run (the zone is checked at the end).
 */
export async function runReal(m: RealModule, o: RealOptions, onSecond?: (s: RealSecond, t: ThreadCounters[]) => void, shouldStop?: () => boolean): Promise<RealReport> {
  const name = new TextEncoder().encode(`${o.preset}\0`);
  if (name.length > 64) throw new Error(`preset name too long: ${o.preset.slice(0, 64)}…`);
  if (!Number.isInteger(o.seconds) || o.seconds < 1 || o.seconds > 3600) throw new Error('seconds must be a whole number 1..3600');
  if (!Number.isInteger(o.warmup) || o.warmup < 0 || o.warmup > 60) throw new Error('warm-up must be a whole number 0..60');
  const namePtr = m._malloc(name.length);
  if (!namePtr) throw new Error('the core is out of memory (malloc of the preset name failed)');
  m.HEAPU8.set(name, namePtr);
  const ret = m._blab_js_real_start(namePtr, o.workers, o.pages);
  m._free(namePtr);
  if (ret !== 0) throw new Error(lastError(m));

  const fields = m._blab_js_real_fields();
  const cap = o.workers * fields;
  const buf = m._malloc(cap * 8);
  let finished = false;
  try {
    if (!buf) throw new Error('the core is out of memory (sample buffer)');
    const sample = (): { ns: number; t: ThreadCounters[] } => {
      const ns = m._blab_js_real_sample(buf, cap);
      return { ns, t: decode(m, buf, o.workers) };
    };
    const startedAt = Date.now();
    let s = sample();
    while (s.ns <= 0) {
      if (Date.now() - startedAt > START_TIMEOUT_MS) throw new Error(`only ${m._blab_js_real_started()} of ${o.workers} workers started within ${START_TIMEOUT_MS / 1000} s`);
      await sleep(POLL_MS);
      s = sample();
    }
    const seconds: RealSecond[] = [];
    let prev = { ns: 0, t: s.t.map(() => ({ pages: 0, zone: zeroLock(), lru: zeroLock() })) };
    let warm = prev;
    const total = o.warmup + o.seconds;
    for (let k = 1; k <= total; k++) {
      while ((s = sample()).ns < k * 1e9) {
        if (shouldStop?.()) throw new Error('stopped');
        await sleep(Math.min(POLL_MS, Math.max(1, (k * 1e9 - s.ns) / 1e6)));
      }
      const dt = (s.ns - prev.ns) / 1e9;
      const sec: RealSecond = { second: k, warmup: k <= o.warmup, perWorker: s.t.map((t, i) => Math.round((t.pages - (prev.t[i]?.pages ?? 0)) / dt)) };
      seconds.push(sec);
      onSecond?.(sec, s.t);
      if (k === o.warmup) warm = s;
      prev = s;
    }
    const measured = seconds.filter((x) => !x.warmup);
    const average = measured.reduce((acc, x) => acc + x.perWorker.reduce((a, b) => a + b, 0), 0) / measured.length;
    const window = prev.ns - warm.ns;
    const report: RealReport = {
      preset: o.preset,
      workers: o.workers,
      batch: m._blab_js_real_batch(),
      high: m._blab_js_real_high(),
      prefetch: m._blab_js_real_has_prefetch() !== 0,
      seconds,
      average,
      zoneLock: summarise(warm.t, prev.t, window, 'zone'),
      lruLock: summarise(warm.t, prev.t, window, 'lru'),
    };
    await finish(m, o.workers);
    finished = true;
    return report;
  } finally {
    if (!finished) await finish(m, o.workers).catch(() => undefined);
    if (buf) m._free(buf);
  }
}

function zeroLock(): LockCounters {
  return { acquisitions: 0, contended: 0, spinNs: 0, holdNs: 0 };
}

/** Stops the workers, waits (polling) until each has unmapped its pages, joins and checks. */
async function finish(m: RealModule, workers: number): Promise<void> {
  m._blab_js_real_stop();
  const t0 = Date.now();
  while (m._blab_js_real_finished() < Math.min(workers, m._blab_js_real_started()) && Date.now() - t0 < START_TIMEOUT_MS) await sleep(POLL_MS);
  if (m._blab_js_real_finish() !== 0) throw new Error(lastError(m));
}
