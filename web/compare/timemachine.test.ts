// The time machine's parts: the kernels in release order without the RFC, its URL, and a real
// sweep of two task counts through the WASM core (the Node build), drawn into a chart.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { simScenario, type BlabFactory } from '../engine/blab-module';
import { pointKey, serialPoints } from '../engine/point';
import { bindsSummary, describeTimeMachine } from './timemachine';
import { parseTimeSpec, runTimeMachine, timeMachineKeys, timeMachinePoints, timelinePresets } from './timemachine-runs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const modulePath = join(root, 'build', 'wasm', 'node', 'blab.js');

describe('time machine', () => {
  it('says which limit binds the points at the most tasks, kernel by kernel in release order', () => {
    const pt = (preset: string, tasks: number, binds: string) => ({ preset, tasks, score: 1, contention: 0, wholeRunContention: 0, binds, memUtil: 0 });
    const presets = ['v4.16', 'v4.17', 'v5.18', 'v6.7'];
    const lock = presets.map((p) => pt(p, 112, 'zone->lock'));
    expect(bindsSummary([...lock, pt('v4.16', 1, 'none')], presets, [1, 112])).toBe('At 112 tasks zone->lock binds every kernel.');
    const mixed = [pt('v4.16', 112, 'zone->lock'), pt('v4.17', 112, 'zone->lock'), pt('v5.18', 112, 'memory bandwidth'), pt('v6.7', 112, 'none')];
    expect(bindsSummary(mixed, presets, [1, 112])).toBe(
      'At 112 tasks zone->lock binds v4.16 .. v4.17, memory bandwidth binds v5.18, nothing (no wait takes a tenth of the CPUs’ time) binds v6.7.',
    );
    expect(bindsSummary([], presets, [1, 112])).toBe('');
  });

  it('puts every kernel preset on one axis, in release order, and no RFC', () => {
    const p = timelinePresets();
    expect(p[0]).toBe('v2.5.44');
    expect(p.at(-1)).toBe('v6.19');
    expect(p).toEqual(expect.arrayContaining(['v4.16', 'v5.14', 'v6.0', 'v6.7', 'v6.16']));
    expect(p.some((n) => n.startsWith('lu-'))).toBe(false);
  });

  it('reads its URL within bounds, and says what is wrong', () => {
    expect(parseTimeSpec('?timemachine')).toEqual({ tasks: [1, 16, 112], pages: 4096 });
    expect(parseTimeSpec('?timemachine&tasks=2,1&pages=256')).toEqual({ tasks: [1, 2], pages: 256 });
    expect(() => parseTimeSpec('?timemachine&tasks=113')).toThrow(/1\.\.112/);
    expect(() => parseTimeSpec('?timemachine&tasks=1,2,3,4,5')).toThrow(/1 to 4/);
    expect(() => parseTimeSpec('?timemachine&pages=8')).toThrow(/64\.\.4096/);
  });

  it('runs at will-it-scale proportions, and ships the default page’s runs under their keys', () => {
    const pts = timeMachinePoints(parseTimeSpec('?timemachine'));
    expect(pts.length).toBe(timelinePresets().length * 3);
    // 4096 pages a task: the caches scaled by 8 to keep 128 MB's footprint against them, all 64
    // lines of each page cleared, the kernel's own pcp sizes (no batch / high override)
    expect(pointKey(pts.find((p) => p.preset === 'v4.17' && p.tasks === 112)!.req)).toBe(
      'workload=page_fault1 preset=v4.17 cpus=112 pages=4096 iterations=2 seed=1 batch=0 high=0 clear_lines=64 cache_scale=8',
    );
    expect(timeMachineKeys()).toEqual(pts.map((p) => pointKey(p.req)));
  });

  it('runs every kernel in the WASM core and describes the result', async () => {
    if (!existsSync(modulePath)) throw new Error(`${modulePath} is missing: run "make wasm" first`);
    const m = await (createRequire(import.meta.url)(modulePath) as BlabFactory)({ noInitialRun: true });
    let calls = 0;
    const pts = await runTimeMachine(
      serialPoints((req) => Promise.resolve(simScenario(m, req))),
      { tasks: [1, 4], pages: 128 },
      () => calls++,
    );
    expect(pts.length).toBe(timelinePresets().length * 2);
    expect(calls).toBe(pts.length);
    // no pcp lists: every page takes zone->lock, so 4 tasks spin on it; the pcp kernels barely
    const v2544 = pts.find((p) => p.preset === 'v2.5.44' && p.tasks === 4)!;
    const v619 = pts.find((p) => p.preset === 'v6.19' && p.tasks === 4)!;
    expect(v2544.contention).toBeGreaterThan(v619.contention);
    // score and contention of the same window: the scored rounds, not the warm-up
    const s = simScenario(m, timeMachinePoints({ tasks: [4], pages: 128 }).find((p) => p.preset === 'v2.5.44')!.req).stats!;
    expect(v2544.contention).toBe(s.scoredZoneBp / 100);
    expect(v2544.wholeRunContention).toBe(s.zoneBp / 100);
    expect(describeTimeMachine(pts, timelinePresets(), [1, 4])).toMatch(/^page_fault1 on the model machine across the kernels, scored rounds\. 1 task: .* on v2\.5\.44, .* on v6\.19; 4 tasks:/);
  });
});
