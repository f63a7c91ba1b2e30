// A run's counters as a record, both sides of the C/TypeScript line: the native `blab sim
// --points` record names exactly SIM_STATS (generated from the same BLAB_JS_SIM_STATS table), in
// its order, with the values the WebAssembly core counts for the same point; and a stored or
// shipped record with a counter missing, extra or not a whole number is refused, naming the
// point and the field.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIM_STATS } from '../scenario/core-schema';
import { simScenario, type BlabFactory, type BlabModule } from './blab-module';
import { pointRequest } from './point';
import { readPointRecord, readSimStats, statsDiffer } from './simstats';

const root = join(import.meta.dirname, '..', '..');
const blab = join(root, 'build', 'native', 'blab');
const modulePath = join(root, 'build', 'wasm', 'node', 'blab.js');
let m: BlabModule;
let dir: string;
beforeAll(async () => {
  for (const f of [blab, modulePath]) if (!existsSync(f)) throw new Error(`${f} is missing: run "make native wasm" first`);
  m = await (createRequire(import.meta.url)(modulePath) as BlabFactory)({ noInitialRun: true });
  dir = mkdtempSync(join(tmpdir(), 'blab-records-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const KEYS = [
  'workload=page_fault1 preset=v4.17 cpus=4 pages=128 iterations=2 seed=1 batch=0 high=0 clear_lines=8 cache_scale=32',
  'workload=hackbench preset=v4.16 groups=3 loops=50 slub_prefetch=1 same_cpu=0 seed=2 batch=0 high=0 clear_lines=64 cache_scale=1',
  'workload=page_fault1 preset=v5.17 cpus=60 pages=16 iterations=3 seed=3 batch=0 high=0 clear_lines=4 cache_scale=8 node_zones=1 out_of_step=1',
];

describe('a point record', () => {
  it('natively names every counter of SIM_STATS, in order, with the WebAssembly core\'s values', () => {
    const file = join(dir, 'points.txt');
    writeFileSync(file, KEYS.map((k) => `${k}\n`).join(''));
    const lines = execFileSync(blab, ['sim', '--points', file], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trimEnd().split('\n');
    expect(lines).toHaveLength(KEYS.length);
    lines.forEach((line, i) => {
      const raw = JSON.parse(line) as { key: string; stats: Record<string, number> };
      expect(Object.keys(raw)).toEqual(['key', 'stats']);
      expect(Object.keys(raw.stats)).toEqual([...SIM_STATS]);
      const rec = readPointRecord(line, `line ${i + 1}`);
      expect(rec.key).toBe(KEYS[i]);
      const web = simScenario(m, pointRequest(KEYS[i]!)).stats!;
      expect(statsDiffer(rec.stats, web)).toBeNull();
      // the browser writes the same record, byte for byte (compare's "Runs as records")
      expect(JSON.stringify({ key: KEYS[i], stats: web })).toBe(line);
    });
  });

  it('is refused with a counter missing, extra or not a whole number, naming the point and the field', () => {
    const good = simScenario(m, pointRequest(KEYS[0]!)).stats!;
    const missing: Partial<typeof good> = { ...good };
    delete missing.zoneAcq;
    expect(() => readSimStats(missing, 'the shipped run "p"')).toThrow('the shipped run "p": the counter zoneAcq is missing');
    expect(() => readSimStats({ ...good, zoneAcquired: 1 }, 'the shipped run "p"')).toThrow('the shipped run "p": "zoneAcquired" is not one of the core\'s counters (SIM_STATS)');
    expect(() => readSimStats({ ...good, score: 1.5 }, 'p')).toThrow('p: the counter score is 1.5, not a whole number below 2^53');
    expect(() => readSimStats({ ...good, score: '7' }, 'p')).toThrow('p: the counter score is "7", not a whole number below 2^53');
    expect(() => readSimStats({ ...good, score: 2 ** 53 }, 'p')).toThrow(/score is 9007199254740992, not a whole number/);
    expect(() => readSimStats([1, 2], 'p')).toThrow('p: the counters are not an object');
    expect(readSimStats(JSON.parse(JSON.stringify(good)), 'p')).toEqual(good);
    expect(() => readPointRecord('{"key":"k","stats":{}', 'line 3')).toThrow(/^line 3: not a JSON record/);
    expect(() => readPointRecord('{"stats":{}}', 'line 3')).toThrow('line 3: the record has no "key"');
    expect(() => readPointRecord(JSON.stringify({ key: 'k', stats: good, text: 'x' }), 'line 3')).toThrow('line 3: the record has "text" beside "key" and "stats"');
    expect(() => readPointRecord(JSON.stringify({ key: 'k', stats: missing }), 'line 3')).toThrow('line 3 (k): the counter zoneAcq is missing');
  });

  it('differs where any one counter differs', () => {
    const a = simScenario(m, pointRequest(KEYS[0]!)).stats!;
    expect(statsDiffer(a, { ...a })).toBeNull();
    expect(statsDiffer(a, { ...a, pcpUnrefilled: a.pcpUnrefilled + 1 })).toBe('pcpUnrefilled');
  });
});
