#!/usr/bin/env node
// The host memory bound in WebAssembly (docs/limits.md, "Host memory"): the browser asks
// blab_js_sim_mem_bytes() what a scenario needs and blab_js_mem_limit() what the heap has
// left, and blab_js_sim_ex() refuses a run that does not fit before it allocates.
// Usage: node wasm-core/tests/wasm-mem.mjs   (after make wasm)
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const createBlab = createRequire(import.meta.url)(join(root, 'build', 'wasm', 'node', 'blab.js'));
const m = await createBlab({ noInitialRun: true });
let fails = 0;
const check = (ok, what) => {
  if (!ok) {
    console.log(`FAIL: ${what}`);
    fails++;
  }
};
const cstr = (s) => {
  const n = m.lengthBytesUTF8(s) + 1;
  const p = m._malloc(n);
  m.stringToUTF8(s, p, n);
  return p;
};
const preset = cstr('v4.16');
const PF1 = 1;

const limit = m._blab_js_mem_limit();
check(limit > 100e6 && limit < 1100e6, `the heap left (${limit}) is inside the 1 GB heap`);
const small = m._blab_js_sim_mem_bytes(PF1, 2, 256, 1, preset, 4096, 0, 0, 0);
check(small > 1e6 && small < limit, `a small run needs ${small} bytes, within ${limit}`);
const withLog = m._blab_js_sim_mem_bytes(PF1, 2, 256, 1, preset, 1 << 20, 0, 0, 0);
check(withLog - small === ((1 << 20) - 4096) * 32 * 1.5, 'the event log counts 48 bytes a record');
check(m._blab_js_sim_mem_bytes(PF1, 0, 256, 1, preset, 0, 0, 0, 0) < 0, 'cpus 0: an error code');
const huge = m._blab_js_sim_mem_bytes(PF1, 64, 65536, 1, preset, 1 << 26, 0, 0, 0);
check(huge > limit, `64 x 65536 pages with a 2^26-record log (${huge}) passes the heap`);

// the run that does not fit is refused with the figures, and the next one still runs
const run = (cpus, pages, events) => {
  const r = m._blab_js_sim_ex(PF1, cpus, pages, 1, 1, preset, events, 0, 0, 0);
  const out = { status: m._blab_js_status(r), err: m.UTF8ToString(m._blab_js_err(r)) };
  m._blab_js_run_free(r);
  return out;
};
const refused = run(64, 65536, 1 << 26);
check(refused.status === 2 && /needs .* MB of memory and its event log up to 3221\.2 MB; the WebAssembly heap has .* MB left/.test(refused.err),
  `refused with the figures: ${JSON.stringify(refused)}`);
const ok = run(2, 256, 4096);
check(ok.status === 0, `a small run after it: ${JSON.stringify(ok)}`);

if (fails) process.exit(1);
console.log('wasm-mem: ok');
process.exit(0); // the pthread pool's workers would keep Node running
