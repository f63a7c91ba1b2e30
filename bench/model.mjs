// The model machine's figures for `make bench` (called by bench/run.mjs):
//  - simulated page operations (allocations + frees) per host CPU second on the reference
//    sweep below, native and WASM (Node), each over repeated runs; the native rate against
//    the baseline build's (budget: 3x), side by side: the baseline commit named in
//    bench/model-baseline.json is built from this repository's history (build/baseline-COMMIT,
//    once) and its runs alternate with this build's, so both see the same machine; the rate
//    recorded in that file is the figure when the history is not there (a shallow clone);
//    the baseline has no memory controllers, so it is set against this build without them
//    (mem_channels = 0: the same model, the same table), and what the controllers cost is
//    this build with them against without (budget: 10 %); and WASM over native (budget: 0.7x);
//  - the seeds' full-size run: page_fault1 at 112 CPUs with 128 MB per task, host seconds (one run);
//  - the calibrated model (blab calibrate on this machine) against the real kernel's
//    page_fault1 at 1 and 2 tasks, measured earlier in the same bench run.
// Host time is CPU time (user + sys from /usr/bin/time) minus the same binary's start-up,
// because the development machine is shared and wall time there measures the neighbours.
//
// `node bench/model.mjs --baseline BLAB COMMIT` measures BLAB (a build of COMMIT) on the
// reference sweep and writes bench/model-baseline.json: the yardstick the budget is against.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';

const NATIVE = 'build/native/blab';
const WASM = ['node', 'wasm-core/cli/blab.mjs'];
// The reference sweep: both presets of seed 000 at 1 and 112 tasks, 4096 pages a task,
// caches scaled to the pages (issue "kernel-sized runs"). The 112-task runs are nearly all
// of the time.
export const REFERENCE = ['sim', '--workload', 'page_fault1', '--cpus', '1,112', '--preset', 'v4.16,v4.17',
  '--pages', '4096', '--cache-scale', '8', '--bench'];
const BASELINE = 'bench/model-baseline.json';
const SPEEDUP_BUDGET = 3;
const WASM_BUDGET = 0.7;

const spread = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return { min: s[0], median: s[Math.floor(s.length / 2)], max: s[s.length - 1], runs: s.length };
};

// Runs argv under /usr/bin/time; returns { cpu seconds, stdout, stderr }.
function timed(argv) {
  const r = spawnSync('/usr/bin/time', ['-f', 'cputime %U %S', ...argv], { encoding: 'utf8', maxBuffer: 1 << 26 });
  if (r.status !== 0) throw new Error(`${argv.join(' ')} failed (${r.status}): ${r.stderr}`);
  const m = /cputime ([\d.]+) ([\d.]+)/.exec(r.stderr);
  if (!m) throw new Error(`no CPU time from /usr/bin/time for ${argv.join(' ')}`);
  return { cpu: Number(m[1]) + Number(m[2]), stdout: r.stdout, stderr: r.stderr };
}

// Simulated page ops per CPU second of the reference sweep for each binary (argv prefixes;
// `extra`, per binary, arguments after the sweep's), their runs taking turns (run i of every
// binary, then run i + 1), so that a change in the machine's load falls on all of them alike.
function simSpeeds(prefixes, reps, extra = []) {
  const startup = prefixes.map((prefix) => Math.min(...[0, 1, 2].map(() => timed([...prefix, 'presets']).cpu)));
  const res = prefixes.map((_, k) => ({ rates: [], out: '', startup: startup[k] }));
  for (let i = 0; i < reps; i++) {
    prefixes.forEach((prefix, k) => {
      const r = timed([...prefix, ...REFERENCE, ...(extra[k] ?? [])]);
      const ops = Number(/bench: (\d+) simulated page operations/.exec(r.stderr)?.[1]);
      if (!ops) throw new Error(`no bench line from ${prefix.join(' ')}: ${r.stderr}`);
      res[k].rates.push(Math.round(ops / Math.max(r.cpu - startup[k], 0.01)));
      res[k].out = r.stdout;
    });
  }
  return res;
}
const simSpeed = (prefix, reps) => simSpeeds([prefix], reps)[0];

/**
 * A release build of the core at `commit`, from this repository's history (its wasm-core
 * folder as it was, built with its own CMake), kept in build/baseline-COMMIT; null when the
 * history lacks the commit (a shallow clone).
 */
function baselineBinary(commit) {
  const dir = `build/baseline-${commit}`;
  const bin = `${dir}/build/blab`;
  if (existsSync(bin)) return bin;
  if (spawnSync('git', ['cat-file', '-e', `${commit}^{commit}`]).status !== 0) return null;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const tar = spawnSync('git', ['archive', commit, 'wasm-core'], { maxBuffer: 1 << 28 });
  if (tar.status !== 0) return null;
  execFileSync('tar', ['-x', '-C', dir], { input: tar.stdout });
  execFileSync('cmake', ['-S', `${dir}/wasm-core`, '-B', `${dir}/build`, '-DCMAKE_BUILD_TYPE=Release'], { stdio: 'ignore' });
  execFileSync('cmake', ['--build', `${dir}/build`, '-j', String(cpus().length), '--target', 'blab'], { stdio: 'ignore' });
  return existsSync(bin) ? bin : null;
}

const reference = `blab ${REFERENCE.join(' ')}`;

/** The sweep's tables without the memory controllers' (a build before them prints none). */
export function withoutMemoryTable(out) {
  return out.replace(/\npreset +tasks +memGB\/s[^\n]*\n(?:[^\n]+\n)*/, '\n');
}

export function modelFigures(results) {
  const figs = results.figures;
  const base = existsSync(BASELINE) ? JSON.parse(readFileSync(BASELINE, 'utf8')) : null;
  const baseBin = base ? baselineBinary(base.commit) : null;
  // the baseline build has no memory controllers: it is compared with this build's without
  // them (mem_channels = 0, the same model it ran), and their cost is this build's own figure
  mkdirSync('build/bench', { recursive: true });
  const noMemory = 'build/bench/no-memory.params';
  writeFileSync(noMemory, '# make bench: the model without its memory controllers\nmem_channels = 0\n');
  const off = ['--params', noMemory];
  let nat;
  let natOff;
  let old = null;
  if (baseBin) [nat, old, natOff] = simSpeeds([[NATIVE], [baseBin], [NATIVE]], 5, [[], [], off]);
  else [nat, natOff] = simSpeeds([[NATIVE], [NATIVE]], 5, [[], off]);
  const nativeS = spread(nat.rates);
  figs.push({ name: 'model machine, native: simulated page ops / CPU s', unit: 'ops/s', ...nativeS,
    note: `${reference}; CPU time minus start-up (${nat.startup.toFixed(2)} s)` });
  // what the memory controllers cost: the sweep with them against without, runs taking turns
  const cost = spread(nat.rates.map((r, i) => Math.round((1 - r / natOff.rates[i]) * 1000) / 10));
  figs.push({ name: 'model machine, native: the memory controllers\' cost on the reference sweep (%)', unit: '%', ...cost, budget: 10, met: cost.median <= 10,
    note: `how much slower the sweep runs with them than without (--params with mem_channels = 0), run i against run i; budget: 10 %` });
  if (old) {
    if (withoutMemoryTable(old.out) !== withoutMemoryTable(natOff.out)) throw new Error(`the baseline build ${base.commit} prints another table than this build without its memory controllers: the speed-up compares different work`);
    const ratios = spread(natOff.rates.map((r, i) => Math.round((r / old.rates[i]) * 100) / 100));
    figs.push({ name: `model machine, native, vs ${base.commit} side by side (x)`, unit: 'x', ...ratios, budget: SPEEDUP_BUDGET, met: ratios.median >= SPEEDUP_BUDGET,
      baseline_rate: spread(old.rates).median,
      note: `run i of this build without its memory controllers (mem_channels = 0: the model ${base.commit} ran) over run i of ${base.commit} (built from the history in ${baseBin}), the runs taking turns; both print the same table` });
  } else if (base) {
    const offS = spread(natOff.rates);
    const x = Math.round((offS.median / base.median) * 100) / 100;
    figs.push({ name: `model machine, native, vs ${base.commit} (x)`, unit: 'x', median: x,
      min: Math.round((offS.min / base.median) * 100) / 100, max: Math.round((offS.max / base.median) * 100) / 100,
      runs: offS.runs, budget: SPEEDUP_BUDGET, met: x >= SPEEDUP_BUDGET,
      note: `this build without its memory controllers (mem_channels = 0) over ${base.median} ops / CPU s, ${BASELINE} (${base.date}; a recorded figure, since this clone's history lacks ${base.commit}, so machine load moves this ratio)` });
  }
  const wasm = existsSync('build/wasm/node/blab.js') ? simSpeed(WASM, 3) : null;
  if (wasm) {
    const wasmS = spread(wasm.rates);
    const ratios = wasm.rates.map((w, i) => w / nat.rates[i]);
    const r = spread(ratios.map((x) => Math.round(x * 100) / 100));
    figs.push({ name: 'model machine, WASM (Node): simulated page ops / CPU s', unit: 'ops/s', ...wasmS, note: `start-up ${wasm.startup.toFixed(2)} s subtracted` });
    figs.push({ name: 'model machine, WASM / native speed', unit: 'x', ...r, budget: WASM_BUDGET, met: r.median >= WASM_BUDGET, note: 'run i of WASM over run i of native' });
    figs.push({ name: 'model machine, native and WASM print the same table', unit: '', median: nat.out === wasm.out ? 'yes' : 'NO', met: nat.out === wasm.out });
  }

  // The seeds' full size: 112 CPUs x 32768 pages (128 MB) per task, two rounds, one run.
  const big = timed([NATIVE, 'sim', '--workload', 'page_fault1', '--cpus', '112', '--preset', 'v4.17', '--bench']);
  const bigOps = Number(/bench: (\d+) simulated page operations/.exec(big.stderr)?.[1]);
  figs.push({ name: 'model: page_fault1, 112 CPUs x 128 MB, native', unit: 'CPU s', median: big.cpu, ops_per_s: Math.round(bigOps / big.cpu), note: 'one run; blab sim --workload page_fault1 --cpus 112 --preset v4.17' });

  // Calibration: this machine's parameters, then the model at 1 and 2 tasks.
  const params = 'build/bench/calibrated.params';
  timed([NATIVE, 'calibrate', '--out', params]);
  const cal = JSON.parse(timed([NATIVE, 'sim', '--workload', 'page_fault1', '--cpus', '1,2', '--preset', 'v4.16,v4.17,v5.18', '--params', params, '--json']).stdout);
  const def = JSON.parse(timed([NATIVE, 'sim', '--workload', 'page_fault1', '--cpus', '1,2', '--preset', 'v4.17', '--json']).stdout);
  for (const row of cal.rows) {
    // the kernel's rate per CPU second of its tasks (the rate with a CPU each) when known:
    // on a shared machine the wall-clock rate measures the neighbours too
    const kernelWall = figs.find((f) => f.name === `kernel page_fault1, ${row.tasks} task(s)`)?.median;
    const kernel = figs.find((f) => f.name === `kernel page_fault1, ${row.tasks} task(s), per task CPU s`)?.median ?? kernelWall;
    const model = row.presets['v4.17'].score;
    const dflt = def.rows.find((r) => r.tasks === row.tasks).presets['v4.17'].score;
    const ratio = kernel ? Math.round((model / kernel) * 100) / 100 : null;
    figs.push({
      name: `calibrated model page_fault1 v4.17, ${row.tasks} task(s)`, unit: 'pages/s', median: model,
      default_params: dflt, kernel, kernel_wall: kernelWall, model_over_kernel: ratio,
      met: ratio !== null && ratio <= 2 && ratio >= 0.5,
      presets: Object.fromEntries(Object.entries(row.presets).map(([k, v]) => [k, v.score])),
      note: `blab sim --params ${params} (blab calibrate); kernel = pages per task CPU s; budget: within a factor of 2`,
    });
  }
}

// node bench/model.mjs --baseline BLAB COMMIT: record BLAB's rate as the yardstick.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [flag, blab, commit] = process.argv.slice(2);
  if (flag !== '--baseline' || !blab || !commit) {
    console.error('usage: node bench/model.mjs --baseline BLAB COMMIT   (BLAB: a release build of COMMIT)');
    process.exit(2);
  }
  const load = loadavg()[0];
  const s = simSpeed([blab], 7);
  const rec = { commit, command: reference, unit: 'simulated page ops / CPU s', ...spread(s.rates), rates: s.rates,
    startup_cpu_s: s.startup, date: new Date().toISOString(),
    machine: { cpu: cpus()[0]?.model ?? 'unknown', nproc: cpus().length, loadavg_at_start: load },
    how: 'CPU time (user + sys, /usr/bin/time) of each run minus the binary\'s start-up; median of the runs' };
  writeFileSync(BASELINE, JSON.stringify(rec, null, 2) + '\n');
  console.log(`${BASELINE}: ${commit} median ${rec.median} ops / CPU s (min ${rec.min}, max ${rec.max}, ${rec.runs} runs)`);
}
