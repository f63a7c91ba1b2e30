// The committed records of the shipped runs (lessons/results/<core hash>.jsonl), which a fresh
// clone's build copies into its cache instead of running every point: they must be this core's,
// hold exactly the points the build asks for, and be what the core computes now (a sample of
// them is run again here, byte for byte; a different sample for each core). The copy itself:
// blab reads a seeded record as its own cache file.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { coreHash } from '../../scripts/core-hash.mjs';
import { readLessons } from '../lessons/vite-plugin';
import { pointSets, precompute } from '../lessons/precompute';
import { cacheFileName, readShippedResults, SHIPPED_RESULTS_DIR, shippedResultsFile } from '../lessons/shipped-results';
import { otherShippedSets } from './shipped-sets';

const root = join(import.meta.dirname, '..', '..');
const blab = join(root, 'build', 'native', 'blab');
const hash = coreHash(root);
const dirs: string[] = [];
const tempDir = (prefix: string): string => {
  const d = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(d);
  return d;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const K1 = 'workload=page_fault1 preset=v4.16 cpus=2 pages=64 iterations=2 seed=1 batch=0 high=0 clear_lines=8 cache_scale=64';
const K2 = 'workload=page_fault1 preset=v4.17 cpus=2 pages=64 iterations=2 seed=2 batch=0 high=0 clear_lines=8 cache_scale=64';

/** every point the build ships, as vite.config.ts asks for them */
function shippedKeys(): string[] {
  const sets = pointSets(
    readLessons(root).map((r) => r.lesson),
    otherShippedSets(),
  );
  return [...new Set(sets.flatMap((s) => s.keys))];
}

const file = shippedResultsFile(root, hash);

describe('the committed records of the shipped runs', () => {
  it("are this core's, one file, holding every point the build ships and no other", () => {
    const why = `${SHIPPED_RESULTS_DIR}/ has no records for core ${hash}: run make shipped-results and commit the file`;
    expect(existsSync(file), why).toBe(true);
    expect(readdirSync(join(root, SHIPPED_RESULTS_DIR)).filter((f) => f.endsWith('.jsonl'))).toEqual([`${hash}.jsonl`]);
    const have = [...readShippedResults(file).keys()].sort();
    expect(have, `${file} is not the build's set of points: run make shipped-results`).toEqual(shippedKeys().sort());
  });

  it('are what the core computes now: a sample of them run again, byte for byte', () => {
    const records = readShippedResults(file);
    const keys = [...records.keys()].sort();
    // every 32nd point, from an offset the core hash picks, so each core checks other points
    const stride = 32;
    const sample = keys.filter((_, i) => i % stride === Number.parseInt(hash.slice(0, 8), 16) % stride);
    expect(sample.length).toBeGreaterThan(keys.length / stride - 1);
    const dir = tempDir('blab-sample-');
    const points = join(dir, 'points.txt');
    writeFileSync(points, sample.map((k) => `${k}\n`).join(''));
    const out = execFileSync(blab, ['sim', '--points', points, '--jobs', String(availableParallelism())], { encoding: 'utf8', maxBuffer: 1 << 26 });
    const lines = out.split('\n').filter((l) => l !== '');
    expect(lines.length).toBe(sample.length);
    lines.forEach((line, i) => expect(`${line}\n`, sample[i]).toBe(records.get(sample[i]!)));
  }, 600_000);
});

describe('seeding the build cache from committed records', () => {
  it("names a record's file as blab's cache does, so blab reads a seeded record as its own", async () => {
    const cacheDir = tempDir('blab-results-');
    const sets = [{ id: 'page', keys: [K1, K2] }];
    const first = await precompute(sets, { blab, cacheDir, coreHash: hash, jobs: 1 });
    expect(first.report).toMatch(/2 points: 2 run, 0 from the cache/);
    expect(readdirSync(join(cacheDir, hash)).sort()).toEqual([cacheFileName(K1), cacheFileName(K2)].sort());

    // a repository whose committed file holds the two records: a fresh cache takes both from it
    const repo = tempDir('blab-repo-');
    const records = execFileSync(blab, ['sim', '--points', join(cacheDir, 'shipped-points.txt'), '--cache', cacheDir], { encoding: 'utf8' });
    mkdirSync(join(repo, SHIPPED_RESULTS_DIR), { recursive: true });
    writeFileSync(shippedResultsFile(repo, hash), records);
    const fresh = tempDir('blab-results-');
    const seeded = await precompute(sets, { blab, cacheDir: fresh, coreHash: hash, jobs: 1, root: repo });
    expect(seeded.report).toMatch(/2 points: 0 run, 2 from the cache, .*; 2 copied into the cache from /);
    expect(seeded.bySet).toEqual(first.bySet);

    // a file for another core is not read
    const other = tempDir('blab-results-');
    const none = await precompute(sets, { blab, cacheDir: other, coreHash: hash, jobs: 1, root: tempDir('blab-repo-') });
    expect(none.report).toMatch(/2 points: 2 run, 0 from the cache/);
  }, 120_000);

  it('refuses a damaged file by its line', () => {
    const repo = tempDir('blab-repo-');
    mkdirSync(join(repo, SHIPPED_RESULTS_DIR), { recursive: true });
    const f = shippedResultsFile(repo, hash);
    writeFileSync(f, '{"key":"a=1","stats":{}}\n');
    expect(() => readShippedResults(f)).toThrow(`${f}:1 (a=1): the counter score is missing`);
    writeFileSync(f, 'not json\n');
    expect(() => readShippedResults(f)).toThrow(`${f}:1: not a JSON record`);
    const line = readFileSync(file, 'utf8').split('\n')[0]!;
    writeFileSync(f, `${line}\n\n${line}\n`);
    expect(() => readShippedResults(f)).toThrow(`${f}:3: a second record for `);
  });
});
