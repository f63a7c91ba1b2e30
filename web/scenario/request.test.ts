// The "how was this made" command is the run: each request the pages build (runRequest()) runs
// in the WASM core, its blabCommand() runs in the native blab, and the numbers must agree.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { simScenario, type BlabFactory, type BlabModule } from '../engine/blab-module';
import { blabCommand, MEASURED_CLEAR_LINES, runParameters, runRequest, scenarioRequest, sizedInput, RUN_DEFAULTS, type RunInput } from './request';
import { compareParams } from '../compare/compare-request';
import { defaultsFor } from '../compare/compare-url';
import { sweepParams } from '../engine/sweep';
import { simRequest } from '../lessons/compute';
import { parseLesson } from '../lessons/parse';
import { workloadEntry } from './workloads';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const modulePath = join(root, 'build', 'wasm', 'node', 'blab.js');
const native = join(root, 'build', 'native', 'blab');

let m: BlabModule;
beforeAll(async () => {
  for (const f of [modulePath, native]) if (!existsSync(f)) throw new Error(`${f} is missing: run "make native wasm" first`);
  m = await (createRequire(import.meta.url)(modulePath) as BlabFactory)({ noInitialRun: true });
});

/** What `blab sim ... --json` printed for the one run the command makes, and the score's unit. */
function runNative(cmd: string): Record<string, number> & { unit: string } {
  const [blab, ...args] = cmd.split(' ');
  expect(blab).toBe('blab');
  const out = JSON.parse(execFileSync(native, [...args, '--json'], { encoding: 'utf8' })) as {
    score_unit: string;
    rows?: { presets: Record<string, Record<string, number>> }[];
    runs?: Record<string, number>[];
  };
  const run = out.runs ? out.runs[0]! : Object.values(out.rows![0]!.presets)[0]!;
  return Object.assign(run, { unit: out.score_unit });
}

const CASES: [string, RunInput][] = [
  ['page_fault1, the preset\'s pcp', { workload: 'page_fault1', preset: 'v4.17', cpus: 4, pages: 256, seed: 1 }],
  ['page_fault1 with batch and high', { workload: 'page_fault1', preset: 'v4.16', cpus: 3, pages: 200, seed: 7, batch: 7, high: 42 }],
  ['parallel_free', { workload: 'parallel_free', preset: 'v5.18', cpus: 2, pages: 300, seed: 2 }],
  ['trunc', { workload: 'trunc', preset: 'v5.18', cpus: 1, pages: 512, seed: 1, clearLines: 4 }],
  ['stress_highalloc', { workload: 'stress_highalloc', preset: 'lu-rfc-p2', cpus: 3, pages: 2048, seed: 1, attempts: 4 }],
  ['mixed', { workload: 'mixed', preset: 'v4.16', cpus: 4, pages: 128, seed: 1 }],
  ['page_fault1 on 6.7, CONFIG_PCP_BATCH_SCALE_MAX=2, latency counted', { workload: 'page_fault1', preset: 'v6.7', cpus: 2, pages: 600, seed: 1, pcpBatchScaleMax: 2, latency: true }],
  ['hackbench, prefetch as the preset', { workload: 'hackbench', preset: 'v4.16', groups: 3, loops: 100, seed: 1 }],
  ['hackbench, prefetch off, same CPU, pcp set', { workload: 'hackbench', preset: 'v5.18', groups: 2, loops: 80, seed: 3, slubPrefetch: false, sameCpu: true, batch: 5, high: 30 }],
];

describe('runRequest() and blabCommand()', () => {
  it.each(CASES)('%s: the native command prints the numbers the browser run printed', (_name, input) => {
    const req = runRequest(input);
    const web = simScenario(m, { ...req, maxEvents: 0 });
    expect(web.stderr).toBe('');
    const s = web.stats!;
    const n = runNative(blabCommand(req));
    expect(n['score']).toBe(s.score);
    // the results card names the score's unit as the core does
    expect(workloadEntry(req.workload)!.unit).toBe(n.unit);
    expect(n['batch'] ?? s.batch).toBe(s.batch);
    expect(n['high'] ?? s.high).toBe(s.high);
    if (req.workload === 'hackbench') {
      expect(n['messages']).toBe(s.messages);
      expect(n['elapsed_cycles']).toBe(s.elapsed);
      expect(n['prefetch_hit']).toBe(s.slabPfHit);
      expect(n['free_remote']).toBe(s.slabFreeRemote);
    } else {
      expect(n['zone_acquisitions']).toBe(s.zoneAcq);
      expect(n['zone_lock_contention_bp']).toBe(s.zoneBp);
      expect(n['zone_hold_cycles']).toBe(s.zoneHold);
      expect(n['misses_under_zone_lock']).toBe(s.missesLocked);
      expect([n['prefetch_hit'], n['prefetch_late'], n['prefetch_wasted']]).toEqual([s.pfHit, s.pfLate, s.pfWasted]);
    }
    if (input.batch !== undefined) expect([s.batch, s.high]).toEqual([input.batch, input.high]);
    if (req.latency) {
      // blab sim --latency --json puts the same percentiles in the run's row
      const lat = n['latency'] as unknown as { alloc: { p99: number; max: number }; paths: { rmqueue_bulk: { count: number } } };
      expect([lat.alloc.p99, lat.alloc.max, lat.paths.rmqueue_bulk.count]).toEqual([s.latAllocP99, s.latAllocMax, s.latRefillCount]);
    }
  });

  it('names CONFIG_PCP_BATCH_SCALE_MAX only where it differs from the preset, and only on 6.7+', () => {
    const base = { workload: 'page_fault1', preset: 'v6.7', cpus: 2, pages: 64, seed: 1 } as const;
    expect(runRequest({ ...base, pcpBatchScaleMax: 5 })).not.toHaveProperty('pcpBatchScaleMax'); // the preset's: one point
    const r = runRequest({ ...base, pcpBatchScaleMax: 0, latency: true });
    expect(blabCommand(r)).toContain(' --pcp-batch-scale-max 0 --latency');
    expect(runParameters(r)).toContainEqual(['CONFIG_PCP_BATCH_SCALE_MAX', 0]);
    expect(runParameters(runRequest(base))).toContainEqual(['CONFIG_PCP_BATCH_SCALE_MAX', "5 (the preset's)"]);
    expect(runParameters(runRequest({ ...base, preset: 'v5.18' })).map(([k]) => k)).not.toContain('CONFIG_PCP_BATCH_SCALE_MAX');
  });

  it('fills every hidden default in one place, and names every parameter', () => {
    const r = runRequest({ workload: 'page_fault1', preset: 'v5.18', cpus: 4, pages: 1024, seed: 1 });
    expect(r).toEqual({ workload: 'page_fault1', preset: 'v5.18', cpus: 4, pages: 1024, iterations: RUN_DEFAULTS.rounds, seed: 1, clearLines: RUN_DEFAULTS.clearLines, cacheScale: 1 });
    expect(blabCommand(r)).toBe('blab sim --workload page_fault1 --cpus 4 --preset v5.18 --pages 1024 --iterations 2 --seed 1 --clear-lines 8');
    expect(blabCommand(r, [1, 2, 4])).toContain('--cpus 1,2,4 ');
    const names = runParameters(r).map(([k]) => k);
    expect(names).toEqual(['workload', 'preset', 'tasks', 'pages per task', 'rounds (the first a warm-up)', 'seed', 'clear_page() lines', 'pcp batch', 'pcp high']);
    expect(runParameters({ ...r, cacheScale: 8 }).map(([k]) => k)).toContain('L2 and LLC sizes divided by');
    // a measured run's scaled caches are in its command
    expect(blabCommand({ ...r, cacheScale: 32 })).toContain(' --cache-scale 32');
    // hackbench's switches from the preset: SLUB's freelist prefetch came in 3.3
    expect(runRequest({ workload: 'hackbench', preset: 'v2.6.25', groups: 2, loops: 10, seed: 1 })).toMatchObject({ slubPrefetch: false, sameCpu: false });
    const hb = runRequest({ workload: 'hackbench', preset: 'v4.16', groups: 2, loops: 10, seed: 1 });
    // hackbench's run says what it is by the core's names, and nothing of page_fault1's
    expect(hb).toEqual({ workload: 'hackbench', preset: 'v4.16', groups: 2, loops: 10, slubPrefetch: true, sameCpu: false, seed: 1, clearLines: RUN_DEFAULTS.clearLines, cacheScale: 1 });
    expect(blabCommand(hb)).toBe('blab sim --workload hackbench --groups 2 --loops 10 --slub-prefetch on --preset v4.16 --seed 1');
    expect(runParameters(hb).map(([k]) => k)).toEqual(['workload', 'preset', 'groups', 'messages per sender', 'SLUB freelist prefetch', 'seed', 'pcp batch', 'pcp high']);
    // the pages that sweep any workload over task counts name hackbench's own fields
    expect(sizedInput('hackbench', 4, 200)).toEqual({ workload: 'hackbench', groups: 4, loops: 200 });
    expect(sizedInput('trunc', 4, 200)).toEqual({ workload: 'trunc', cpus: 4, pages: 200 });
  });
});

describe('one configuration, one run, whichever page asks', () => {
  // page_fault1 on v4.17, 4 tasks of 1024 pages, seed 1: the workbench (a 4096-page zone over
  // 4 CPUs), the compare view, the throughput panel's sweep and a lesson table with no
  // parameters of its own used to differ in rounds and clear_page() lines, so one
  // configuration showed a different score in each. The pages that measure (compare, the
  // sweep, a table) run the whole clear_page() with the caches scaled to the pages per task;
  // the workbench's small scenario differs in those two only, and says so.
  it('the workbench, compare, the throughput sweep and a lesson table ask the core for the same run', () => {
    const workbench = scenarioRequest({ workload: 'page_fault1', preset: 'v4.17', cpus: 4, pages: 4096, seed: 1 });
    const compare = compareParams({ ...defaultsFor('page_fault1'), cpus: 4, pages: 1024 }, { label: 'v4.17', preset: 'v4.17' }, 4);
    const sweep = sweepParams({ presets: ['v4.17'], cpus: [4], pages: 1024, iterations: RUN_DEFAULTS.rounds, seed: 1 }, 'v4.17', 4);
    const lesson = parseLesson(
      'lessons/x.md',
      ['---', 'id: x', 'number: 9', 'title: x', 'summary: x', 'leaves_out: x', 'tables:', '  t:', '    caption: c', '    workload: page_fault1',
        '    pages: 1024', '    tasks: [4]', '    configs:', '      - { preset: v4.17 }', '---', '', '## One', '', 'text', ''].join('\n'),
    );
    const t = lesson.tables['t']!;
    const table: Partial<ReturnType<typeof simRequest>> = simRequest(t, t.configs[0]!, 4);
    delete table.maxEvents;
    expect(table).toEqual(sweep);
    // the compare view counts every call's latency too (its diff table's percentile rows)
    const { latency: compareCounts, ...compareRun } = compare;
    expect(compareCounts).toBe(true);
    expect(compareRun).toEqual(sweep);
    expect(sweep).toMatchObject({ clearLines: MEASURED_CLEAR_LINES, cacheScale: 32 }); // 1024 x 32 pages: will-it-scale's 128 MB
    // ... and in counting every call's latency, which changes no counter (test_latency.c)
    expect(workbench.latency).toBe(true);
    expect({ ...workbench, latency: undefined, clearLines: sweep.clearLines, cacheScale: sweep.cacheScale }).toEqual(sweep);
  });
});
