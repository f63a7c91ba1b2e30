// The real-machine panel: page_fault1 on N Web Workers (Emscripten pthreads over one
// SharedArrayBuffer), each a CPU of the zone with its own pcp lists, zone->lock a real
// spinlock. Live: every worker's pages/s each second, then the average and lock statistics.
// Without cross-origin isolation there is no SharedArrayBuffer and no threads: the panel
// says so plainly and offers the single-threaded model machine (blab sim) instead.

import './real.css';
import { EngineClient } from '../engine/engine-client';
import { PRESETS, type Preset } from '../scenario/url';
import { el } from '../ui/dom';
import type { Panel } from './panel';
import type { RealReply, RealRequest } from '../engine/real-protocol';
import type { RealReport } from '../engine/real-run';

/** Workers a user may ask for: 1 .. hardwareConcurrency, at most this many. */
export const MAX_WORKERS = 16;
/** Pages each worker maps per round (will-it-scale maps 128 MB; 8 MB keeps rounds short). */
export const PAGES_PER_WORKER = 2048;

export const NO_PREFETCH_NOTE =
  'WebAssembly has no prefetch instruction, so prefetch_buddy() does nothing here; natively, blab run issues __builtin_prefetch.';

/** Which machine the panel can run: real threads need a cross-origin-isolated page. */
export function chooseMachine(isolated: boolean, hasSharedMemory: boolean): 'real' | 'model' {
  return isolated && hasSharedMemory ? 'real' : 'model';
}

export function workerLimit(hardwareConcurrency: number | undefined): number {
  const n = Number.isInteger(hardwareConcurrency) && (hardwareConcurrency ?? 0) > 0 ? (hardwareConcurrency as number) : 1;
  return Math.min(n, MAX_WORKERS);
}

/** Whole number in [lo, hi] from a form field, or an error naming the field. */
export function parseField(name: string, text: string, lo: number, hi: number): number {
  const t = text.trim();
  if (!/^\d+$/.test(t)) throw new Error(`${name}: give a whole number ${lo}..${hi}`);
  const v = Number(t);
  if (v < lo || v > hi) throw new Error(`${name}: ${v} is outside ${lo}..${hi}`);
  return v;
}

const fmt = (n: number): string => Math.round(n).toLocaleString('en-US');

export function createRealPanel(): Panel {
  const isolated = globalThis.crossOriginIsolated === true;
  const machine = chooseMachine(isolated, typeof SharedArrayBuffer !== 'undefined');
  const limit = workerLimit(globalThis.navigator?.hardwareConcurrency);

  const sec = el('section', { class: 'real', id: 'real', 'aria-labelledby': 'real-title' });
  const workers = el('input', { id: 'real-workers', type: 'number', min: 1, max: limit, value: Math.min(4, limit), inputmode: 'numeric' });
  const preset = el('select', { id: 'real-preset' });
  for (const [name, what] of Object.entries(PRESETS)) preset.append(el('option', { value: name, text: what }));
  preset.value = 'v4.16' satisfies Preset;
  const seconds = el('input', { id: 'real-seconds', type: 'number', min: 1, max: 60, value: 3, inputmode: 'numeric' });
  const run = el('button', { type: 'button', class: 'primary', id: 'real-run', text: machine === 'real' ? 'Run on real threads' : 'Run on the model machine' });
  const stop = el('button', { type: 'button', id: 'real-stop', text: 'Stop', disabled: true });
  const status = el('p', { class: 'hint', id: 'real-status', role: 'status', 'aria-live': 'polite' });
  const table = el('table', { class: 'real-scores', id: 'real-scores' });
  const live = el('p', { class: 'hint', id: 'real-live' });
  const locks = el('pre', { class: 'real-locks', id: 'real-locks', tabindex: 0 });

  sec.append(
    el('h2', { id: 'real-title', text: 'Real machine: your CPU' }),
    el('p', {
      class: 'hint',
      text: `page_fault1 on real threads: each worker is a CPU of the zone with its own pcp lists; zone->lock is a ticket spinlock. Scores are pages faulted per second (1..${limit} workers on this device).`,
    }),
    el('p', { class: 'hint', id: 'real-prefetch', text: NO_PREFETCH_NOTE }),
    el('label', { for: 'real-workers', text: `Workers (1..${limit})` }),
    workers,
    el('label', { for: 'real-preset', text: 'Preset' }),
    preset,
    el('label', { for: 'real-seconds', text: 'Seconds (1..60, after 1 s of warm-up)' }),
    seconds,
    el('div', { class: 'real-buttons' }, run, stop),
    status,
    table,
    live,
    locks,
  );

  if (machine === 'model') {
    sec.append(
      el('p', {
        class: 'warn',
        id: 'real-isolation',
        text: 'This page is not cross-origin isolated, so the browser gives it no SharedArrayBuffer and WebAssembly threads cannot run: no real-machine measurements here. Falling back to the single-threaded model machine (blab sim), which simulates the workers as virtual CPUs. Reload the page once: its service worker isolates it from the second load on.',
      }),
    );
  }

  let worker: Worker | null = null;
  const setRunning = (on: boolean): void => {
    run.disabled = on;
    stop.disabled = !on || machine !== 'real';
  };

  const drawHeader = (n: number): HTMLTableSectionElement => {
    table.replaceChildren();
    const head = el('tr', {}, el('th', { scope: 'col', text: 'second' }));
    for (let i = 0; i < n; i++) head.append(el('th', { scope: 'col', text: `worker ${i}` }));
    head.append(el('th', { scope: 'col', text: 'total' }));
    const body = el('tbody');
    table.append(el('caption', { text: 'pages/s per worker, each second' }), el('thead', {}, head), body);
    return body;
  };

  const showReport = (r: RealReport): void => {
    const z = r.zoneLock, l = r.lruLock;
    locks.textContent = [
      `preset ${r.preset}, ${r.workers} worker${r.workers === 1 ? '' : 's'}, pcp batch ${r.batch} high ${r.high}`,
      `average: ${fmt(r.average)} pages/s`,
      `zone->lock: ${z.acquisitionsPerPage.toFixed(4)} acquisitions/page, ${z.contendedPct.toFixed(1)}% contended, spin ${z.spinPct.toFixed(2)}% of worker time, hold ${fmt(z.holdNsMean)} ns mean`,
      `lru_lock:   ${l.acquisitionsPerPage.toFixed(4)} acquisitions/page, ${l.contendedPct.toFixed(1)}% contended, spin ${l.spinPct.toFixed(2)}% of worker time`,
      ...z.spinPctPerWorker.map((p, i) => `  worker ${i}: zone->lock spin ${p.toFixed(2)}%`),
      r.prefetch ? 'prefetch: __builtin_prefetch' : 'prefetch: none (WebAssembly has no prefetch instruction)',
    ].join('\n');
  };

  const runReal = (n: number, secs: number): void => {
    const body = drawHeader(n);
    worker ??= new Worker(new URL('../engine/real.worker.ts', import.meta.url), { type: 'classic', name: 'buddylab-real' });
    worker.onmessage = (e: MessageEvent<RealReply>) => {
      const m = e.data;
      if (m.kind === 'ready') {
        status.textContent = `starting ${n} worker${n === 1 ? '' : 's'}…`;
      } else if (m.kind === 'second') {
        const s = m.sample;
        const row = el('tr', { class: s.warmup ? 'warmup' : 'measured' }, el('th', { scope: 'row', text: s.warmup ? `${s.second} (warm-up)` : String(s.second) }));
        s.perWorker.forEach((v, i) => row.append(el('td', { class: 'score', 'data-worker': i, title: `zone->lock spin ${(m.spinPctPerWorker[i] ?? 0).toFixed(1)}%`, text: fmt(v) })));
        row.append(el('td', { text: fmt(s.perWorker.reduce((a, b) => a + b, 0)) }));
        body.append(row);
        status.textContent = `second ${s.second} of ${secs + 1}`;
        // live lock statistics: each worker's share of this second spent spinning on zone->lock
        live.textContent = `second ${s.second}: zone->lock spin per worker ${m.spinPctPerWorker.map((p) => `${p.toFixed(1)}%`).join(', ')}`;
      } else if (m.kind === 'done') {
        showReport(m.report);
        status.textContent = 'done: every page came back and the zone checks out';
        setRunning(false);
      } else if (m.error === 'stopped') {
        status.textContent = 'stopped before the end';
        setRunning(false);
      } else {
        status.textContent = `the run failed: ${m.error}`;
        setRunning(false);
      }
    };
    worker.onerror = (e: ErrorEvent) => {
      e.preventDefault();
      status.textContent = `the real-machine worker crashed: ${e.message || 'no message'}`;
      worker?.terminate();
      worker = null;
      setRunning(false);
    };
    const req: RealRequest = { kind: 'start', options: { preset: preset.value, workers: n, pages: PAGES_PER_WORKER, seconds: secs, warmup: 1 } };
    worker.postMessage(req);
  };

  const runModel = async (n: number): Promise<void> => {
    table.replaceChildren();
    try {
      const r = await new EngineClient().sim({ workload: 'page_fault1', cpus: n, pages: PAGES_PER_WORKER, iterations: 2, seed: 1, preset: preset.value, maxEvents: 2 });
      locks.textContent = r.stdout.trim() || r.stderr.trim();
      status.textContent = r.status === 0 ? 'done on the model machine (virtual CPUs, virtual time)' : `the model machine stopped: ${r.stderr.trim()}`;
    } catch (err) {
      status.textContent = `the model machine cannot run either: ${err instanceof Error ? err.message : String(err)}`;
    } finally {
      setRunning(false);
    }
  };

  run.addEventListener('click', () => {
    let n: number, secs: number;
    try {
      n = parseField('Workers', workers.value, 1, limit);
      secs = parseField('Seconds', seconds.value, 1, 60);
    } catch (err) {
      status.textContent = err instanceof Error ? err.message : String(err);
      return;
    }
    locks.textContent = '';
    live.textContent = '';
    setRunning(true);
    if (machine === 'real') runReal(n, secs);
    else void runModel(n);
  });
  stop.addEventListener('click', () => {
    const req: RealRequest = { kind: 'stop' };
    worker?.postMessage(req);
  });
  return { root: sec };
}
