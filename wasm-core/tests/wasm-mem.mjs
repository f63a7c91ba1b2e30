#!/usr/bin/env node
// The host memory bound in WebAssembly (docs/limits.md, "Host memory"): the browser asks
// blab_js_sim_mem_bytes() what a scenario needs and blab_js_mem_limit() what the heap has
// left, and blab_js_sim_run() refuses a run that does not fit before it allocates.
// Usage: node wasm-core/tests/wasm-mem.mjs   (after make wasm)
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
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
// blab_js_sim_run()'s request, laid out as web/scenario/core-schema.ts says (generated from
// include/blab_js.h): its uint32 fields in order, then the preset's name
const schema = readFileSync(join(root, 'web', 'scenario', 'core-schema.ts'), 'utf8');
const layout = /SIM_REQUEST = \{\s*fields: \[([^\]]*)\],\s*presetOffset: (\d+),\s*presetMax: (\d+),\s*bytes: (\d+)/.exec(schema);
if (!layout) throw new Error('SIM_REQUEST not found in web/scenario/core-schema.ts');
const fields = [...layout[1].matchAll(/"(\w+)"/g)].map((x) => x[1]);
const [presetOffset, bytes] = [Number(layout[2]), Number(layout[4])];
const request = (values) => {
  const p = m._malloc(bytes);
  m.HEAPU8.fill(0, p, p + bytes);
  const view = new DataView(m.HEAPU8.buffer, p, bytes);
  fields.forEach((f, i) => view.setUint32(i * 4, (values[f] ?? 0) >>> 0, true));
  m.stringToUTF8(values.preset ?? 'v4.16', p + presetOffset, 32);
  return p;
};
const withRequest = (values, fn) => {
  const p = request(values);
  try {
    return fn(p);
  } finally {
    m._free(p);
  }
};
const PF1 = 1;
const pf1 = (cpus, pages, maxEvents) => ({ workload: PF1, cpus, pages, iterations: 1, seed: 1, maxEvents });

const limit = m._blab_js_mem_limit();
check(limit > 100e6 && limit < 1100e6, `the heap left (${limit}) is inside the 1 GB heap`);
const small = withRequest(pf1(2, 256, 4096), (p) => m._blab_js_sim_mem_bytes(p));
check(small > 1e6 && small < limit, `a small run needs ${small} bytes, within ${limit}`);
const withLog = withRequest(pf1(2, 256, 1 << 20), (p) => m._blab_js_sim_mem_bytes(p));
check(withLog - small === ((1 << 20) - 4096) * 32 * 1.5, 'the event log counts 48 bytes a record');
check(withRequest(pf1(0, 256, 0), (p) => m._blab_js_sim_mem_bytes(p)) < 0, 'cpus 0: an error code');
const huge = withRequest(pf1(64, 65536, 1 << 26), (p) => m._blab_js_sim_mem_bytes(p));
check(huge > limit, `64 x 65536 pages with a 2^26-record log (${huge}) passes the heap`);
const zone = withRequest(pf1(2, 256, 0), (p) => m._blab_js_sim_zone_pages(p));
check(zone >= 512 && zone % 1024 === 0, `the zone of 2 x 256 pages has ${zone} pages (room for the pcp lists)`);

// the run that does not fit is refused with the figures, and the next one still runs
const run = (values) =>
  withRequest(values, (p) => {
    const r = m._blab_js_sim_run(p);
    const out = { status: m._blab_js_status(r), err: m.UTF8ToString(m._blab_js_err(r)) };
    m._blab_js_run_free(r);
    return out;
  });
const refused = run(pf1(64, 65536, 1 << 26));
check(refused.status === 2 && /needs .* MB of memory and its event log up to 3221\.2 MB; the WebAssembly heap has .* MB left/.test(refused.err),
  `refused with the figures: ${JSON.stringify(refused)}`);
const ok = run(pf1(2, 256, 4096));
check(ok.status === 0, `a small run after it: ${JSON.stringify(ok)}`);

if (fails) process.exit(1);
console.log('wasm-mem: ok');
process.exit(0); // the pthread pool's workers would keep Node running
