// The build's precomputed tables: the native blab runs each point (blab sim --points) and prints
// its record, every counter the browser's WebAssembly core counts for it, a second build takes
// every point from the disk cache, and a blab built from other sources is refused.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simScenario, type BlabFactory, type BlabModule } from '../engine/blab-module';
import { CORE_HASH } from '../engine/core-hash';
import { pointRequest } from '../engine/point';
import { coreHash } from '../../scripts/core-hash.mjs';
import { parseLesson } from './parse';
import { lessonKeys, parsePointsOutput, pointSets, precompute } from './precompute';
import type { Lesson, LessonTable } from './lesson';

const root = join(import.meta.dirname, '..', '..');
const blab = join(root, 'build', 'native', 'blab');
const modulePath = join(root, 'build', 'wasm', 'node', 'blab.js');
let m: BlabModule;
const dirs: string[] = [];
beforeAll(async () => {
  for (const f of [blab, modulePath]) if (!existsSync(f)) throw new Error(`${f} is missing: run "make native wasm" first`);
  m = await (createRequire(import.meta.url)(modulePath) as BlabFactory)({ noInitialRun: true });
});
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** Lesson 2 with its tables cut to a few small runs (the real ones are the build's). */
function smallLesson(): Lesson {
  const l = parseLesson('lessons/02-hotcold.md', readFileSync(join(root, 'lessons', '02-hotcold.md'), 'utf8'));
  const cut = (t: LessonTable): LessonTable => {
    if (t.workload === 'hackbench') throw new Error('lesson 2 has no hackbench table');
    return { ...t, pages: 256, cacheScale: 64, tasks: t.tasks.slice(0, 2), seeds: 2 };
  };
  return { ...l, tables: Object.fromEntries(Object.entries(l.tables).map(([k, t]) => [k, cut(t)])) };
}

const K1 = 'workload=page_fault1 preset=v4.16 cpus=2 pages=64 iterations=2 seed=1 batch=0 high=0 clear_lines=8 cache_scale=64';
const K2 = 'workload=hackbench preset=v4.16 groups=2 loops=20 slub_prefetch=0 same_cpu=0 seed=1 batch=0 high=0 clear_lines=64 cache_scale=1';

describe('the core build hash', () => {
  it('is the same for the app, the native blab and the sources', () => {
    expect(CORE_HASH).toMatch(/^[0-9a-f]{16}$/);
    expect(CORE_HASH).toBe(coreHash(root));
    expect(execFileSync(blab, ['version'], { encoding: 'utf8' })).toBe(`blab core ${CORE_HASH}\n`);
  });
});

describe('precomputed lesson tables', () => {
  it('reads blab sim --points records back into counters by key, refusing a damaged one by its line', () => {
    const a = simScenario(m, pointRequest(K1)).stats!;
    const b = simScenario(m, pointRequest(K2)).stats!;
    const text = `${JSON.stringify({ key: K1, stats: a })}\n${JSON.stringify({ key: K2, stats: b })}\n`;
    expect([...parsePointsOutput(text)]).toEqual([
      [K1, a],
      [K2, b],
    ]);
    const cut: Partial<typeof b> = { ...b };
    delete cut.missesLocked;
    expect(() => parsePointsOutput(`${JSON.stringify({ key: K1, stats: a })}\n${JSON.stringify({ key: K2, stats: cut })}\n`)).toThrow(
      `blab sim --points, line 2 (${K2}): the counter missesLocked is missing`,
    );
    expect(() => parsePointsOutput('point a=1\nscore 1\n')).toThrow(/^blab sim --points, line 1: not a JSON record/);
  });

  it('runs every point natively with the counters the WebAssembly core counts, then from the cache', async () => {
    const l = smallLesson();
    const keys = lessonKeys(l);
    // (tasks 1, 2 of one table and 1, 8 of the other: 1 is shared) x 2 configs x 2 seeds
    expect(keys.length).toBe(3 * 2 * 2);
    // another page's set beside the lesson's: one point of its own
    const sets = pointSets([l], [{ id: 'page', keys: [K1] }]);
    const cacheDir = mkdtempSync(join(tmpdir(), 'blab-results-'));
    dirs.push(cacheDir);
    const first = await precompute(sets, { blab, cacheDir, coreHash: CORE_HASH, jobs: 2 });
    expect(first.report).toMatch(/13 points: 13 run, 0 from the cache/);
    const outputs = first.bySet.get(l.id)!;
    expect(Object.keys(outputs).sort()).toEqual([...keys].sort());
    for (const k of keys) expect(outputs[k], k).toEqual(simScenario(m, pointRequest(k)).stats);
    expect(first.bySet.get('page')).toEqual({ [K1]: simScenario(m, pointRequest(K1)).stats });
    const again = await precompute(sets, { blab, cacheDir, coreHash: CORE_HASH, jobs: 1 });
    expect(again.report).toMatch(/13 points: 0 run, 13 from the cache/);
    expect(again.bySet.get(l.id)).toEqual(outputs);
    // the points the build asked for are kept beside the cache (make bench times them cold)
    expect(readFileSync(join(cacheDir, 'shipped-points.txt'), 'utf8').trim().split('\n').sort()).toEqual([...keys, K1].sort());
  }, 120_000);

  it('refuses two sets of one name', () => {
    const l = smallLesson();
    expect(() => pointSets([l], [{ id: l.id, keys: [K1] }])).toThrow(`two sets of shipped runs are called "${l.id}"`);
  });

  it('refuses a blab built from other core sources', async () => {
    await expect(precompute(pointSets([smallLesson()]), { blab, cacheDir: tmpdir(), coreHash: '0123456789abcdef' })).rejects.toThrow(
      /was built from other core sources \(core [0-9a-f]{16}; the sources are 0123456789abcdef\): rebuild it with make native/,
    );
  });

  it("blab sim --points says which line is bad, and why", () => {
    const dir = mkdtempSync(join(tmpdir(), 'blab-points-'));
    dirs.push(dir);
    const file = join(dir, 'p.txt');
    writeFileSync(file, '# a comment\n\nworkload=page_fault1 preset=v4.16 cpus=8 pages=64 iterations=2 seed=1 batch=0 high=0 clear_lines=64 cache_scale=99\n');
    expect(() => execFileSync(blab, ['sim', '--points', file], { encoding: 'utf8', stdio: 'pipe' })).toThrow(/p\.txt:3: cache_scale: more than 64/);
  });
});
