// The sweep's parsers, and a small sweep run on the real WASM core: the chart's numbers are the
// core's own counters, never computed here.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { simScenario, type BlabFactory, type BlabModule } from './blab-module';
import { SWEEP_LIMITS, checkSweep, parseCpuList, runSweep, sweepParams, sweepRequests } from './sweep';
import { serialPoints } from './point';
import { describeThroughput, linearSeries } from '../views/throughput';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const modulePath = join(root, 'build', 'wasm', 'node', 'blab.js');
let m: BlabModule;
beforeAll(async () => {
  if (!existsSync(modulePath)) throw new Error(`${modulePath} is missing: run "make wasm" first`);
  m = await (createRequire(import.meta.url)(modulePath) as BlabFactory)({ noInitialRun: true });
});

describe('parseCpuList', () => {
  it('sorts and de-duplicates', () => {
    expect(parseCpuList(' 8, 1,2 ,4,2')).toEqual([1, 2, 4, 8]);
  });
  it('names the bad item', () => {
    expect(() => parseCpuList('1,x,4')).toThrow('task count 2 ("x") is not a whole number');
    expect(() => parseCpuList('0')).toThrow(`task count 0 is outside 1..${SWEEP_LIMITS.maxCpus}`);
    expect(() => parseCpuList('')).toThrow(/at least one/);
    expect(() => parseCpuList(Array.from({ length: 13 }, (_, i) => i + 1).join(','))).toThrow(/13 task counts; the limit is 12/);
  });
});

describe('checkSweep', () => {
  it('refuses a sweep past the fault bound before running anything', () => {
    expect(() => checkSweep({ presets: ['v4.16', 'v4.17', 'v5.18', 'v5.18-prefetch'], cpus: [56, 112], pages: 32768, iterations: 4, seed: 1 })).toThrow(
      /would simulate 88,080,384 page faults; the limit is 67,108,864/,
    );
    expect(() => checkSweep({ presets: ['v4.16'], cpus: [224], pages: 32768, iterations: 1, seed: 1 })).toThrow(/the core's zone holds at most 4,194,304/);
    expect(() => checkSweep({ presets: [], cpus: [1], pages: 1, iterations: 1, seed: 1 })).toThrow(/at least one preset/);
  });
});

describe('linearSeries', () => {
  it('is the 1-task score times tasks, at every task count any series has', () => {
    const a = { label: 'a', points: [{ tasks: 1, score: 100 }, { tasks: 4, score: 350 }] };
    const b = { label: 'b', points: [{ tasks: 2, score: 180 }] };
    expect(linearSeries(a, [a, b])!.points).toEqual([
      { tasks: 1, score: 100 },
      { tasks: 2, score: 200 },
      { tasks: 4, score: 400 },
    ]);
    expect(linearSeries(b)).toBeUndefined();
    expect(describeThroughput([a])).toBe('Throughput, score vs tasks: a 350 at 4 tasks, 88% of linear');
  });
});

describe('runSweep on the WASM core', () => {
  const run = () => serialPoints(async (req) => simScenario(m, req));
  it('gives one point per (preset, tasks), each the score the core counted for that run', async () => {
    const seen: number[] = [];
    const spec = { presets: ['v4.16', 'v5.18'], cpus: [1, 2], pages: 64, iterations: 2, seed: 1 };
    const res = await runSweep(run(), spec, (p) => seen.push(p.done));
    expect(seen).toEqual([1, 2, 3, 4]);
    expect(res.series.map((s) => s.label)).toEqual(['v4.16', 'v5.18']);
    for (const s of res.series) {
      expect(s.points.map((p) => p.tasks)).toEqual([1, 2]);
      for (const p of s.points) {
        const r = simScenario(m, { ...sweepParams(spec, s.label, p.tasks), maxEvents: 0 });
        const direct = r.stats!;
        expect(p.score).toBe(direct.score);
        expect(p.score).toBeGreaterThan(0);
        expect(res.stats.get(`${s.label}/${p.tasks}`)).toEqual(direct);
      }
    }
  });
  it('runs at the seeds\' sizes: the caches scaled to the pages, the whole clear_page(), no log', () => {
    const [r] = sweepRequests({ presets: ['v4.16'], cpus: [112], pages: 4096, iterations: 2, seed: 3 });
    expect(r).toEqual({ workload: 'page_fault1', cpus: 112, pages: 4096, iterations: 2, seed: 3, preset: 'v4.16', maxEvents: 0, clearLines: 64, cacheScale: 8 });
  });
  it('reports a core error with its reason', async () => {
    await expect(runSweep(run(), { presets: ['no-such'], cpus: [1], pages: 16, iterations: 1, seed: 1 })).rejects.toThrow(/blab sim: unknown preset/);
  });
});
