#!/usr/bin/env node
// make soak: a long randomized run (docs/reliability.md, "Soak"), not part of make test.
// A seeded generator makes scenarios; every one runs natively (build/native/blab) and on the
// WASM twin (node wasm-core/cli/blab.mjs), and must
//   - model machine (blab sim --hash: every event record digested): print the same bytes
//     on both, exit 0 for a scenario inside the limits (blab_sim_run() checks every zone's
//     invariants, the lock and cache models after the run), a refusal for one outside;
//   - op scripts (blab replay, allocations, drains, compactions, a `check` after each):
//     print the same bytes on both and end with `check: ok` or a refusal;
//   - real threads (blab run, 2..4 threads for a second, every preset in turn): exit 0 on
//     both (blab_run_finish() checks that every page came back and blab_check()).
// Time is split between the phases; each loops until its share is spent.
//
//   node scripts/soak.mjs [--seconds 600] [--seed N] [--native B] [--wasm "node ..."]
//
// A failure prints the command (rerun it by hand) and the first lines that differ; the exit
// status is 1 when anything failed.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  return i >= 0 && i + 1 < args.length ? args[i + 1] : dflt;
};
const SECONDS = Number(opt('--seconds', '600'));
const SEED = Number(opt('--seed', String(Date.now() % 1000000)));
const NATIVE = opt('--native', 'build/native/blab').split(' ');
const WASM = opt('--wasm', 'node wasm-core/cli/blab.mjs').split(' ');

// xorshift32: the generator of this script only (the core has its own xoshiro256**)
let state = SEED >>> 0 || 1;
const next = () => {
  state ^= state << 13;
  state >>>= 0;
  state ^= state >>> 17;
  state ^= state << 5;
  state >>>= 0;
  return state / 4294967296;
};
const int = (lo, hi) => lo + Math.floor(next() * (hi - lo + 1));
const pick = (xs) => xs[int(0, xs.length - 1)];
const some = (xs, n) => [...xs].sort(() => next() - 0.5).slice(0, n);

const exec = (cmd, argv, timeout = 120000) => {
  const r = spawnSync(cmd[0], [...cmd.slice(1), ...argv], { encoding: 'utf8', timeout, maxBuffer: 64 << 20 });
  return { out: `${r.stdout}${r.stderr}`, status: r.status ?? (r.signal ? `signal ${r.signal}` : 'timeout') };
};
const quote = (argv) => argv.map((a) => (/^[\w.,=/:-]+$/.test(a) ? a : `'${a}'`)).join(' ');

const presets = exec(NATIVE, ['presets']).out.trim().split('\n').map((l) => l.split(' ')[0]);
const tally = {};
const failures = [];
const fail = (phase, argv, why, a, b) => {
  failures.push(phase);
  console.log(`soak: FAIL (${phase}): blab ${quote(argv)}\n  ${why}`);
  if (a !== undefined) {
    const x = a.split('\n');
    const y = (b ?? '').split('\n');
    const at = x.findIndex((l, i) => l !== y[i]);
    console.log(`  native: ${x.slice(at, at + 3).join(' | ')}\n  wasm:   ${y.slice(at, at + 3).join(' | ')}`);
  }
};
const count = (phase, key) => {
  tally[phase] ??= {};
  tally[phase][key] = (tally[phase][key] ?? 0) + 1;
};

// ---- model machine: a scenario of `blab sim` ----
function scenario() {
  const w = pick(['page_fault1', 'page_fault1', 'parallel_free', 'trunc', 'stress_highalloc', 'mixed', 'hackbench']);
  const a = ['sim', '--workload', w, '--hash', '--seed', String(int(0, 1e9))];
  if (w === 'hackbench') {
    const same = next() < 0.3;
    a.push('--groups', some([2, 3, 4, 6, 8], int(1, 2)).sort((x, y) => x - y).join(','));
    a.push('--loops', String(int(10, 300)), '--object-size', String(int(8, 4096)), '--preset', pick(presets));
    if (same) a.push('--same-cpu');
    if (next() < 0.5) a.push('--slub-prefetch', pick(['off', 'on']));
  } else {
    const hi = w === 'stress_highalloc' || w === 'mixed';
    const nodes = (w === 'page_fault1' || w === 'parallel_free') && next() < 0.2;
    const cpus = nodes ? [int(2, 8), int(57, 70)] : some(w === 'mixed' ? [2, 3, 4, 6] : [1, 2, 3, 4, 8], int(1, 2));
    a.push('--cpus', [...new Set(cpus)].sort((x, y) => x - y).join(','));
    a.push('--preset', some(presets, int(1, 3)).join(','));
    a.push('--pages', String(w === 'stress_highalloc' ? int(2048, 4096) : int(16, nodes ? 64 : 512)));
    a.push('--iterations', String(w === 'stress_highalloc' ? int(1, 4) : int(1, 3)));
    a.push('--clear-lines', String(pick([1, 4, 16, 64])));
    if (nodes) a.push('--node-zones');
    if (next() < 0.2) a.push('--cache-scale', String(pick([2, 4, 8])));
    if (hi) a.push('--hi-order', String(int(2, 9)), '--compact', pick(['none', 'merge', 'full']));
    if (w === 'stress_highalloc') a.push('--delay-us', String(int(0, 50)));
  }
  if (next() < 0.3) a.push(pick(['--csv', '--json']));
  return a;
}

// one in ten: a scenario past a limit, which both must refuse the same way
function bad() {
  const a = scenario();
  const i = a.indexOf(pick(['--pages', '--iterations', '--clear-lines', '--seed', '--loops']));
  if (i > 0) a[i + 1] = pick(['-1', 'x', '', '18446744073709551616']); /* past every bound */
  else a.push(pick(['--bogus', '--cpus']));
  return a;
}

function model() {
  const broken = next() < 0.1;
  const argv = broken ? bad() : scenario();
  const n = exec(NATIVE, argv);
  const w = exec(WASM, argv);
  count('model', broken ? 'refusals' : 'runs');
  if (n.out !== w.out || n.status !== w.status) return fail('model', argv, `native and WASM differ (exit ${n.status} / ${w.status})`, n.out, w.out);
  if (!broken && n.status !== 0) return fail('model', argv, `exit ${n.status}: ${n.out.split('\n').find((l) => l.startsWith('blab')) ?? ''}`);
  if (broken && n.status === 0) return fail('model', argv, 'a scenario past a limit ran');
  if (/invariant|missing/.test(n.out)) return fail('model', argv, 'an invariant message');
}

// ---- op scripts: allocations, drains and compactions, checked after every op ----
let dir;
function opscript() {
  const cpus = int(1, 4);
  const lines = [`zone pages=${int(64, 4096)} cpus=${cpus} preset=${pick(presets)}`];
  for (let k = int(20, 200); k > 0; k--) {
    const cpu = int(0, cpus - 1);
    const op = pick(['alloc', 'alloc', 'alloc', 'drain', 'compact', 'buddyinfo', 'pcp', 'fragindex']);
    if (op === 'alloc') lines.push(`alloc order=${int(0, 5)} cpu=${cpu}${next() < 0.2 ? ' compact=merge' : ''}`);
    else if (op === 'drain') lines.push(`drain cpu=${next() < 0.3 ? 'all' : cpu}`);
    else if (op === 'compact') lines.push(`compact order=${int(1, 6)} cpu=${cpu} mode=${pick(['merge', 'migrate'])}`);
    else lines.push(op);
    lines.push('check');
  }
  const file = join(dir, 'soak.ops');
  writeFileSync(file, `${lines.join('\n')}\n`);
  const argv = ['replay', file];
  const n = exec(NATIVE, argv);
  const w = exec(WASM, argv);
  count('replay', 'scripts');
  if (n.out !== w.out || n.status !== w.status) return fail('replay', argv, 'native and WASM differ', n.out, w.out);
  if (n.status !== 0) return fail('replay', argv, `exit ${n.status}: ${n.out.split('\n').filter((l) => l.startsWith('line')).join(' ')}`);
}

// ---- real threads: every preset in turn ----
let turn = 0;
function real(cmd, phase) {
  const argv = ['run', '--threads', String(int(2, 4)), '--preset', presets[turn++ % presets.length],
    '--seconds', '1', '--warmup', '0', '--pages', String(pick([64, 512, 4096]))];
  const r = exec(cmd, argv);
  count(phase, 'runs');
  if (r.status !== 0) return fail(phase, argv, `exit ${r.status}: ${r.out.split('\n').filter((l) => l.startsWith('blab')).join(' ')}`);
  const over = /stopped ([\d.]+) s after the deadline/.exec(r.out);
  if (over) tally[phase].worst_stop_s = Math.max(tally[phase].worst_stop_s ?? 0, Number(over[1]));
}

const phases = [
  ['model', 0.4, model],
  ['replay', 0.1, opscript],
  ['real (native)', 0.3, () => real(NATIVE, 'real (native)')],
  ['real (WASM)', 0.2, () => real(WASM, 'real (WASM)')],
];
dir = mkdtempSync(join(tmpdir(), 'soak-'));
console.log(`soak: seed ${SEED}, ${SECONDS} s, presets ${presets.join(' ')}`);
const t0 = Date.now();
for (const [name, share, step] of phases) {
  const end = Date.now() + SECONDS * 1000 * share;
  while (Date.now() < end) step();
  console.log(`soak: ${name}: ${JSON.stringify(tally[name] ?? {})}`);
}
rmSync(dir, { recursive: true, force: true });
console.log(`soak: ${((Date.now() - t0) / 1000).toFixed(0)} s, ${failures.length} failure(s)`);
process.exit(failures.length ? 1 : 0);
