// The real machine's figures for make bench (called by bench/run.mjs):
//   - alloc+free pair on the real machine, 1 thread: pcp fast path (v4.16, v5.18) and no pcp
//     (v2.5.44), native and WebAssembly (Node), lock timing off; v2.5.44 also timed
//   - page_fault1 on real threads at 1..nproc threads, v2.5.44 and v4.16, native and WASM,
//     REPEATS runs each (blab run: 1 s warm-up, SECONDS measured seconds per run)
const REPEATS = 3;
const SECONDS = 3;

export function benchReal(run, spread, nproc) {
  const figures = [];
  const pairs = (cmd, args, where) => {
    for (const line of run(cmd, args).trim().split('\n')) {
      const r = JSON.parse(line);
      const how = r.preset === 'v2.5.44' ? 'no pcp, zone->lock every page' : 'pcp fast path';
      // the plain machine's pair, run last by the same program: the control for a busy host
      const machine = r.machine === 'plain' ? 'plain machine (control)' : 'real machine';
      const name = `${machine} alloc+free pair, ${r.preset} (${how}), ${where}${r.timed ? ', lock timing on' : ''}`;
      const budgeted = r.machine !== 'plain' && r.preset !== 'v2.5.44' && where === 'native' && !r.timed;
      figures.push({ name, unit: 'ns', ...spread(r.ns_per_pair), ...(budgeted ? { budget: 25, met: spread(r.ns_per_pair).median <= 25 } : {}) });
      if (r.cpu_ns_per_pair) figures.push({ name: `${name}, thread CPU time`, unit: 'ns', ...spread(r.cpu_ns_per_pair), note: 'CLOCK_THREAD_CPUTIME_ID: the pair without the time the thread spent off its CPU' });
    }
  };
  pairs('build/bench/real_fastpath', [], 'native');
  pairs('build/bench/real_fastpath', ['--timed'], 'native');
  pairs('node', ['build/bench/wasm/blab.js'], 'WASM (Node)');

  const threads = `1..${nproc}`;
  const runs = (cmd, pre, where) => {
    const scores = new Map(); // "tasks preset" -> [score per repeat]
    for (let i = 0; i < REPEATS; i++) {
      const out = run(cmd, [...pre, 'run', '--threads', threads, '--preset', 'v2.5.44,v4.16', '--seconds', String(SECONDS), '--warmup', '1']);
      const lines = out.trim().split('\n');
      const head = lines.findIndex((l) => l.startsWith('tasks,'));
      const cols = lines[head].split(',');
      for (const row of lines.slice(head + 1)) {
        const v = row.split(',');
        for (let c = 1; c < cols.length; c += 2) {
          const key = `${v[0]} ${cols[c]}`;
          scores.set(key, [...(scores.get(key) ?? []), Number(v[c])]);
        }
      }
    }
    for (const [key, xs] of scores) {
      const [tasks, preset] = key.split(' ');
      figures.push({ name: `real machine page_fault1, ${preset}, ${tasks} thread(s), ${where}`, unit: 'pages/s', ...spread(xs), note: `blab run, ${SECONDS} s after 1 s warm-up, per repeat` });
    }
  };
  runs('build/native/blab', [], 'native');
  runs('node', ['wasm-core/cli/blab.mjs'], 'WASM (Node)');
  return figures;
}
