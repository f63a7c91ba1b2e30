// Trace import speed for `make bench` (called by bench/run.mjs): `blab import` over a
// ~300,000-line trace in each text format, natively and as WebAssembly in Node, in lines per
// host CPU second over repeated runs. The input is a committed fixture recorded on this
// machine (wasm-core/tests/traces/), concatenated: the parser reads line by line and does not
// require time to increase, so the copies measure the same work as one long recording.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';

const REPS = 3;
const TARGET_LINES = 300_000;
const FORMATS = [
  { name: 'perf script', fixture: 'wasm-core/tests/traces/pf1.perf.txt' },
  { name: 'tracefs', fixture: 'wasm-core/tests/traces/pf1.tracefs.txt' },
];

// A fixture repeated until it has at least TARGET_LINES lines; returns the path and the count.
function bigTrace(fixture) {
  const text = readFileSync(fixture, 'utf8');
  const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  const copies = Math.ceil(TARGET_LINES / lines);
  mkdirSync('build/bench', { recursive: true });
  const out = `build/bench/${fixture.split('/').pop().replace('.txt', '')}.x${copies}.txt`;
  writeFileSync(out, text.repeat(copies));
  return { path: out, lines: lines * copies };
}

// CPU seconds (user + sys) of one run, via /usr/bin/time; the run must succeed.
function cpuSeconds(argv) {
  const r = spawnSync('/usr/bin/time', ['-f', 'cputime %U %S', ...argv], { encoding: 'utf8', maxBuffer: 1 << 26 });
  if (r.status !== 0) throw new Error(`${argv.join(' ')} failed (${r.status}): ${r.stderr.slice(0, 400)}`);
  const m = /cputime ([\d.]+) ([\d.]+)/.exec(r.stderr);
  if (!m) throw new Error(`no CPU time for ${argv.join(' ')}`);
  return Number(m[1]) + Number(m[2]);
}

export function importFigures(results, spread) {
  const engines = [
    { name: 'native', argv: ['build/native/blab', 'import'] },
    { name: 'WASM (Node)', argv: ['node', 'wasm-core/cli/blab.mjs', 'import'] },
  ];
  for (const f of FORMATS) {
    const t = bigTrace(f.fixture);
    for (const e of engines) {
      const rates = [];
      for (let i = 0; i < REPS; i++) rates.push(Math.round(t.lines / Math.max(cpuSeconds([...e.argv, t.path]), 0.001)));
      results.figures.push({
        name: `trace import, ${f.name}, ${t.lines} lines, ${e.name}`,
        unit: 'lines/s',
        ...spread(rates),
        note: 'lines per host CPU second of `blab import FILE` (start-up included)',
      });
    }
  }
}

// The same parser in the browser, the way a user gets there: the built app (dist/) in headless
// Debian Chromium, the workbench's file picker, a perf script trace of the 400,000-line class
// (pf1-2tasks.perf.txt, 14,352 lines recorded on this machine, 28 copies: 401,856 lines, 55 MB).
// The time is the page's own, from the picker's change event to "N events imported" (the
// worker's parse, the replay's decoding and the page's building of it), so lines per second of
// wall time; with it the longest main-thread task the page had meanwhile (PerformanceObserver
// 'longtask'), which must stay under 50 ms for the page to keep answering.
export const BROWSER_TRACE = { fixture: 'wasm-core/tests/traces/pf1-2tasks.perf.txt', copies: 28 };
const BROWSER_REPS = 3;
const BROWSER_BUDGET = 1_000_000; // lines/s

export async function browserImportFigures(results, spread) {
  const { launchChromium, startPreview } = await import('./preview.mjs');
  const text = readFileSync(BROWSER_TRACE.fixture, 'utf8');
  const lines = (text.split('\n').length - 1) * BROWSER_TRACE.copies;
  mkdirSync('build/bench', { recursive: true });
  const path = `build/bench/browser-import.x${BROWSER_TRACE.copies}.txt`;
  writeFileSync(path, text.repeat(BROWSER_TRACE.copies));
  const server = await startPreview();
  const browser = await launchChromium();
  const rates = [];
  const parseRates = [];
  const workerCpu = [];
  const longestCpu = [];
  const longest = [];
  try {
    for (let i = 0; i < BROWSER_REPS; i++) {
      const page = await browser.newPage();
      await page.goto(`${server.url}/?workbench`);
      await page.locator('#trace-file').waitFor({ state: 'attached', timeout: 60_000 });
      await page.evaluate(() => {
        const w = window;
        w.importProbe = { longTasks: [], t0: 0, t1: 0, phases: [] };
        new PerformanceObserver((l) => l.getEntries().forEach((e) => w.importProbe.longTasks.push(e.duration))).observe({ entryTypes: ['longtask'] });
        document.querySelector('#trace-file').addEventListener('change', () => (w.importProbe.t0 = performance.now()), { capture: true });
        const status = document.querySelector('#import-status');
        new MutationObserver(() => {
          const said = status.textContent.replace(/reading .*: [\d.]+ MB of .*/, 'reading');
          if (w.importProbe.phases.at(-1)?.[0] !== said) w.importProbe.phases.push([said, Math.round(performance.now() - w.importProbe.t0), Math.round(Math.max(0, ...w.importProbe.longTasks))]);
          if (!w.importProbe.t1 && /events imported/.test(status.textContent)) w.importProbe.t1 = performance.now();
        }).observe(status, { childList: true, characterData: true, subtree: true });
      });
      await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline'] });
      await page.locator('#trace-file').setInputFiles(path);
      await page.waitForFunction(() => window.importProbe.t1 > 0, null, { timeout: 300_000 });
      const traceText = (await browser.stopTracing()).toString('utf8');
      if (process.env.IMPORT_TRACE_OUT) writeFileSync(process.env.IMPORT_TRACE_OUT, traceText);
      const trace = JSON.parse(traceText);
      workerCpu.push(importWorkerCpuMs(trace));
      longestCpu.push(Math.round(longestMainTaskCpuMs(trace)));
      const p = await page.evaluate(() => window.importProbe);
      const said = await page.locator('#import-status').textContent();
      const m = /lines parsed at ([\d.]+) (M|K) lines\/s/.exec(said ?? '');
      if (!m) throw new Error(`the import status gives no parse rate: ${said}`);
      parseRates.push(Math.round(Number(m[1]) * (m[2] === 'M' ? 1e6 : 1e3)));
      rates.push(Math.round(lines / ((p.t1 - p.t0) / 1000)));
      longest.push(Math.round(Math.max(0, ...p.longTasks)));
      if (process.env.IMPORT_PHASES) console.log(JSON.stringify(p.phases), JSON.stringify(p.longTasks.map(Math.round)));
      await page.close();
    }
  } finally {
    await browser.close();
    server.stop();
  }
  const parse = spread(parseRates);
  results.figures.push({
    name: `trace import in the browser, perf script, ${lines} lines, the parse`,
    unit: 'lines/s',
    ...parse,
    budget: BROWSER_BUDGET,
    met: parse.median >= BROWSER_BUDGET,
    note: "the import worker's C parser in WebAssembly, first chunk read to blab_trace_finish(), wall time (the rate the page's status line gives)",
  });
  results.figures.push({
    name: `trace import in the browser, perf script, ${lines} lines, per import worker CPU s`,
    unit: 'lines/s',
    ...spread(workerCpu.map((ms) => Math.round(lines / (ms / 1000)))),
    budget: BROWSER_BUDGET,
    met: spread(workerCpu.map((ms) => lines / (ms / 1000))).median >= BROWSER_BUDGET,
    note: "lines per CPU second of the import worker's thread (Chrome trace tdur): the core's start-up, the parse and the replay's decoding, not slowed by other processes on a shared machine",
  });
  results.figures.push({
    name: `trace import in the browser, perf script, ${lines} lines, end to end`,
    unit: 'lines/s',
    ...spread(rates),
    note: 'from the file picker to "events imported": the core loaded, the parse, the replay decoded and built in slices',
  });
  results.figures.push({
    name: 'trace import in the browser, longest main-thread task',
    unit: 'ms',
    ...spread(longest),
    budget: 50,
    met: spread(longest).max <= 50,
    note: 'PerformanceObserver longtask over the same imports',
  });
  results.figures.push({
    name: 'trace import in the browser, longest main-thread task, CPU',
    unit: 'ms',
    ...spread(longestCpu),
    budget: 50,
    met: spread(longestCpu).max <= 50,
    note: "the same task's thread time (Chrome trace tdur): what the page itself spent, whatever else ran on the machine",
  });
}

/** The longest main-thread task's CPU ms (tdur) in a Chrome trace: the page's own work, which a
 * loaded machine stretches in wall time but does not add to. */
function longestMainTaskCpuMs(trace) {
  const events = trace.traceEvents ?? trace;
  const main = new Set(events.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`));
  let most = 0;
  for (const e of events) if (e.name === 'RunTask' && e.ph === 'X' && main.has(`${e.pid}:${e.tid}`)) most = Math.max(most, (e.tdur ?? 0) / 1000);
  return most;
}

/** CPU ms of the busiest dedicated worker in a Chrome trace: the sum of its tasks' thread time
 * (tdur, µs). The import worker is the one that parses; the engine's workers idle meanwhile. */
function importWorkerCpuMs(trace) {
  const events = trace.traceEvents ?? trace;
  const workers = new Set(events.filter((e) => e.name === 'thread_name' && /DedicatedWorker/.test(e.args?.name ?? '')).map((e) => `${e.pid}:${e.tid}`));
  const cpu = new Map();
  for (const e of events)
    if (e.name === 'RunTask' && e.ph === 'X' && workers.has(`${e.pid}:${e.tid}`)) cpu.set(`${e.pid}:${e.tid}`, (cpu.get(`${e.pid}:${e.tid}`) ?? 0) + (e.tdur ?? 0));
  const busiest = Math.max(0, ...cpu.values());
  if (!busiest) throw new Error('the Chrome trace has no dedicated worker task with a thread time (tdur)');
  return busiest / 1000;
}

// node bench/import.mjs --browser: the browser figures alone (dist/ must be built)
if (process.argv[1]?.endsWith('bench/import.mjs') && process.argv.includes('--browser')) {
  const spreadOf = (xs) => {
    const s = [...xs].sort((a, b) => a - b);
    return { min: s[0], median: s[Math.floor(s.length / 2)], max: s[s.length - 1], runs: s.length };
  };
  const r = { figures: [] };
  await browserImportFigures(r, spreadOf);
  for (const f of r.figures) console.log(JSON.stringify(f));
}
