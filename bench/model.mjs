// The model machine's figures for `make bench` (called by bench/run.mjs):
//  - simulated page operations (allocations + frees) per host CPU second, native and WASM
//    (Node), their ratio, each over repeated runs; against DESIGN.md's budgets;
//  - the seeds' full-size run: page_fault1 at 112 CPUs with 128 MB per task (will-it-scale's
//    mapping, seed 000's machine), host seconds (one run);
//  - the calibrated model (blab calibrate on this machine) against the real kernel's
//    page_fault1 at 1 and 2 tasks, measured earlier in the same bench run.
// Host time is CPU time (user + sys from /usr/bin/time) minus the same binary's start-up,
// because the development machine is shared and wall time there measures the neighbours.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';

const NATIVE = 'build/native/blab';
const WASM = ['node', 'wasm-core/cli/blab.mjs'];
const SIM = ['sim', '--workload', 'page_fault1', '--cpus', '1,16', '--preset', 'v4.17', '--pages', '8192', '--bench'];
const REPS = 5;

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

// Simulated page ops per CPU second for one binary (argv prefix), REPS runs.
function simSpeed(prefix) {
  const startup = Math.min(...[0, 1, 2].map(() => timed([...prefix, 'presets']).cpu));
  const rates = [];
  let out;
  for (let i = 0; i < REPS; i++) {
    const r = timed([...prefix, ...SIM]);
    const ops = Number(/bench: (\d+) simulated page operations/.exec(r.stderr)?.[1]);
    if (!ops) throw new Error(`no bench line from ${prefix.join(' ')}: ${r.stderr}`);
    rates.push(Math.round(ops / Math.max(r.cpu - startup, 0.01)));
    out = r.stdout;
  }
  return { rates, out, startup };
}

export function modelFigures(results) {
  const figs = results.figures;
  const nat = simSpeed([NATIVE]);
  const wasm = existsSync('build/wasm/node/blab.js') ? simSpeed(WASM) : null;
  const nativeS = spread(nat.rates);
  const note = `blab ${SIM.join(' ')}; CPU time minus start-up (${nat.startup.toFixed(2)} s native)`;
  figs.push({ name: 'model machine, native: simulated page ops / CPU s', unit: 'ops/s', ...nativeS, budget: 20e6, met: nativeS.median >= 20e6, note });
  if (wasm) {
    const wasmS = spread(wasm.rates);
    const ratios = wasm.rates.map((w, i) => w / nat.rates[i]);
    const r = spread(ratios.map((x) => Math.round(x * 100) / 100));
    figs.push({ name: 'model machine, WASM (Node): simulated page ops / CPU s', unit: 'ops/s', ...wasmS, note: `start-up ${wasm.startup.toFixed(2)} s subtracted` });
    figs.push({ name: 'model machine, WASM / native speed', unit: 'x', ...r, budget: 0.7, met: r.median >= 0.7, note: 'run i of WASM over run i of native' });
    figs.push({ name: 'model machine, native and WASM print the same table', unit: '', median: nat.out === wasm.out ? 'yes' : 'NO', met: nat.out === wasm.out });
  }

  // The seeds' full size: 112 CPUs x 32768 pages (128 MB) per task, two rounds, one run.
  const big = timed([NATIVE, 'sim', '--workload', 'page_fault1', '--cpus', '112', '--preset', 'v4.17', '--bench']);
  const bigOps = Number(/bench: (\d+) simulated page operations/.exec(big.stderr)?.[1]);
  figs.push({ name: 'model: page_fault1, 112 CPUs x 128 MB, native', unit: 'CPU s', median: big.cpu, ops_per_s: Math.round(bigOps / big.cpu), note: 'one run; blab sim --workload page_fault1 --cpus 112 --preset v4.17' });

  // Calibration: this machine's parameters, then the model at 1 and 2 tasks.
  mkdirSync('build/bench', { recursive: true });
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
