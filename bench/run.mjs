// Runs the benchmarks, keeps every repetition, and writes bench/results.json plus a
// readable table. Each figure is reported as min / median / max over its repetitions.
import { execFileSync } from 'node:child_process';
import { writeFileSync, mkdirSync } from 'node:fs';
import { cpus } from 'node:os';
import { benchReal } from './real.mjs';
import { modelFigures } from './model.mjs';
import { browserImportFigures, importFigures } from './import.mjs';
import { jsonLogFigures } from './jsonlog.mjs';
import { runsFigures } from './runs.mjs';
import { firstLoadFigures } from './firstload.mjs';

const nproc = cpus().length;
const spread = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return { min: s[0], median: s[Math.floor(s.length / 2)], max: s[s.length - 1], runs: s.length };
};
const run = (cmd, args) => execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });

const results = { machine: { nproc, cpu: cpus()[0]?.model ?? 'unknown', node: process.version }, date: new Date().toISOString(), figures: [] };

// 1. The allocator core's order-0 alloc+free pair, plain machine, one thread.
for (const line of run('build/bench/core_fastpath', []).trim().split('\n')) {
  const r = JSON.parse(line);
  results.figures.push({ name: `core alloc+free pair, ${r.preset}, plain machine`, unit: 'ns', ...spread(r.ns_per_pair) });
  if (r.cpu_ns_per_pair) results.figures.push({ name: `core alloc+free pair, ${r.preset}, plain machine, thread CPU time`, unit: 'ns', ...spread(r.cpu_ns_per_pair) });
}

// 2. The real kernel's page_fault1 at 1..nproc tasks: the reference for the model.
const csv = run('build/bench/kernel_page_fault1', ['--tasks', `1..${nproc}`, '--samples', '5', '--warmup', '2', '--interval', '1']);
for (const row of csv.trim().split('\n').slice(1)) {
  const [tasks, score, perTask, linear, perCpu] = row.split(',').map(Number);
  results.figures.push({ name: `kernel page_fault1, ${tasks} task(s)`, unit: 'pages/s', median: score, per_task: perTask, linear, note: 'mean of 5 one-second samples after 2 warm-up samples' });
  if (perCpu) results.figures.push({ name: `kernel page_fault1, ${tasks} task(s), per task CPU s`, unit: 'pages/s', median: Math.round(perCpu), note: 'sum over tasks of pages / the task\'s own CPU time: the rate with a CPU each, on a shared machine' });
}

// 2b. The real machine: alloc+free pair and page_fault1 on real threads (bench/real.mjs).
results.figures.push(...benchReal(run, spread, nproc));

// 3. First load: what the browser fetches to show the front page and start the core, gzipped
// (bench/firstload.mjs: measured in Chromium, not listed).
await firstLoadFigures(results);

// 3b. Trace import: blab import over a ~300,000-line trace per format, native and WASM; then
// the browser, a 400,000-line perf trace through the workbench picker (its parse rate, end to
// end, and the longest main-thread task meanwhile).
importFigures(results, spread);
await browserImportFigures(results, spread);

// 3c. A JSON event log at the loader's record limit, read by the app's streaming reader, with
// JSON.parse beside it (bench/jsonlog.mjs).
await jsonLogFigures(results, spread);

// 4. The model machine: its speed native and in WASM, and the calibrated model vs the kernel.
modelFigures(results);

// 5. Kernel-sized runs: the compare view's default sweep in the browser's worker pool and
// natively with --jobs, each lesson's shipped tables and "Run live", Cancel (bench/runs.mjs).
await runsFigures(results);

mkdirSync('bench', { recursive: true });
writeFileSync('bench/results.json', JSON.stringify(results, null, 2) + '\n');
console.log(`machine: ${results.machine.cpu}, ${nproc} CPUs`);
for (const f of results.figures) {
  const range = f.min !== undefined ? `  (min ${f.min}, max ${f.max}, ${f.runs} runs)` : '';
  // the budget beside the figure: a floor for rates and ratios (x, ops/s), else a ceiling
  const limit = f.budget === undefined ? '' : `, budget ${/^(x|ops\/s|lines\/s)$/.test(f.unit) ? '>=' : '<='} ${f.budget}`;
  const verdict = f.met === undefined ? '' : f.met ? `  [met${limit}]` : `  [NOT met${limit}]`;
  console.log(`${f.name.padEnd(58)} ${String(f.median).padStart(10)} ${f.unit}${range}${verdict}`);
}
console.log('wrote bench/results.json');
