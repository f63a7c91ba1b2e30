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
