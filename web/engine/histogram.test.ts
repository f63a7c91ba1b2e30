// A run's refill and drain sizes, asked of the WASM core: page_fault1 at 2 tasks on the 6.7+
// presets climbs 63, 126, 252, 504, 1008, 2016 on each CPU (the notes' 6.18 trace shows the
// same), and the core's histogram of an imported trace equals `blab import --json`'s.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { histBins } from '../log/pcphist-json';
import { TraceImport, type TraceModule } from '../import/trace-core';
import { simScenario } from './blab-module';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const modulePath = join(root, 'build', 'wasm', 'node', 'blab.js');

let m: TraceModule;
beforeAll(async () => {
  if (!existsSync(modulePath)) throw new Error(`${modulePath} is missing: run "make wasm" first`);
  const factory = createRequire(import.meta.url)(modulePath) as (o: Record<string, unknown>) => Promise<TraceModule>;
  m = await factory({ noInitialRun: true });
});

describe('pcp histograms from the WASM core', () => {
  it('page_fault1 at 2 tasks: 6.7+ refills climb to 2016 on both CPUs; older ones are batch', () => {
    for (const preset of ['v6.7', 'v6.16', 'v6.19']) {
      const r = simScenario(m, { workload: 'page_fault1', cpus: 2, pages: 4096, iterations: 2, seed: 1, preset, maxEvents: 0, histogram: true });
      expect(r.status).toBe(0);
      for (const cpu of [0, 1]) {
        const sizes = histBins(r.histogram!, 'refill', cpu).map(([s]) => s);
        expect(sizes).toEqual(expect.arrayContaining([63, 126, 252, 504, 1008, 2016]));
      }
      expect(r.stats!.highMax).toBeGreaterThan(r.stats!.high);
    }
    const old = simScenario(m, { workload: 'page_fault1', cpus: 2, pages: 4096, iterations: 2, seed: 1, preset: 'v5.18', maxEvents: 0, histogram: true });
    expect(histBins(old.histogram!, 'refill').map(([s]) => s)).toEqual([63]);
    const none = simScenario(m, { workload: 'page_fault1', cpus: 2, pages: 1024, iterations: 1, seed: 1, preset: 'v6.7', maxEvents: 0 });
    expect(none.histogram).toBeUndefined();
  });

  it("counts an imported trace's runs as blab import --json does", () => {
    const file = join(root, 'wasm-core', 'tests', 'traces', 'pf1.perf.txt');
    const t = new TraceImport(m);
    let got;
    try {
      t.feed(new Uint8Array(readFileSync(file)));
      got = t.finish();
    } finally {
      t.dispose();
    }
    const cli = JSON.parse(execFileSync(join(root, 'build', 'native', 'blab'), ['import', file, '--json'], { encoding: 'utf8' }));
    const toObject = (k: 'refill' | 'drain') =>
      Object.fromEntries([...got!.histogram![k]].map(([cpu, sizes]) => [String(cpu), [...sizes].sort((a, b) => a[0] - b[0])]));
    expect(toObject('refill')).toEqual(cli.histogram.refill);
    expect(toObject('drain')).toEqual(cli.histogram.drain);
    expect(histBins(got!.histogram!, 'refill').map(([s]) => s)).toEqual([63, 126, 252]); // the fixture's windows (docs/import.md)
  });
});
