// Build time only (Node): every lesson table's runs (and any other page's fixed set of points,
// such as the time machine's), computed by the native blab before the app is bundled, so a
// lesson's tables show at once; the page's "Run live" runs them again in
// WebAssembly and compares every counter. `blab sim --points` runs the points on every core
// (--jobs), prints each as a record (its key and every counter by the names of SIM_STATS, one
// JSON line) and keeps each record in a disk cache keyed by the core build hash and the point
// (--cache), so a rebuild with the same core runs nothing; a fresh clone's cache starts from the
// committed records of this core (shipped-results.ts), so it runs only what they lack. The
// records are read here as the page reads them (readPointRecord(): every counter present and
// whole, nothing extra).
import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { pointKey } from '../engine/point.ts';
import type { Lesson } from './lesson.ts';
import { tablePoints } from './compute.ts';
import { readPointRecord, type SimStats } from '../engine/simstats.ts';
import { seedCache } from './shipped-results.ts';

/** The file, in the cache directory, that lists the points the last build shipped. */
export const SHIPPED_POINTS = 'shipped-points.txt';

export interface PrecomputeOptions {
  /** the native blab (build/native/blab) */
  blab: string;
  /** where the native results cache lives (build/results) */
  cacheDir: string;
  /** the core build hash the app is built with: blab must say the same */
  coreHash: string;
  /** the repository, whose lessons/results/<hash>.jsonl seeds the cache (none: not seeded) */
  root?: string;
  jobs?: number;
}

/** A set of points shipped together: a lesson's (its id), or another page's. */
export interface PointSet {
  id: string;
  keys: readonly string[];
}

export interface Precomputed {
  /** per set id (a lesson's id, or another page's set): each run's counters by point key */
  bySet: Map<string, Record<string, SimStats>>;
  /** what blab said on stderr about the work (points run, points from its cache, seconds) */
  report: string;
}

/** Every point a lesson's tables need, once each. */
export function lessonKeys(l: Lesson): string[] {
  return [...new Set(Object.values(l.tables).flatMap((t) => tablePoints(t).map((p) => pointKey(p.req))))];
}

function run(cmd: string, args: string[]): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile(cmd, args, { maxBuffer: 1 << 28 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${cmd} ${args.join(' ')}: ${stderr.trim() || err.message}`));
      else resolve({ stdout, stderr });
    });
  });
}

/** `blab sim --points` output, one record a line, as counters by key; throws naming the line. */
export function parsePointsOutput(text: string): Map<string, SimStats> {
  const out = new Map<string, SimStats>();
  text.split('\n').forEach((line, i) => {
    if (line === '') return;
    const r = readPointRecord(line, `blab sim --points, line ${i + 1}`);
    out.set(r.key, r.stats);
  });
  return out;
}

/** Every lesson's set of points, then the others; throws on a set id used twice. */
export function pointSets(lessons: readonly Lesson[], others: readonly PointSet[] = []): PointSet[] {
  const sets = [...lessons.map((l) => ({ id: l.id, keys: lessonKeys(l) })), ...others];
  const ids = new Set<string>();
  for (const s of sets) {
    if (ids.has(s.id)) throw new Error(`two sets of shipped runs are called "${s.id}" (a lesson id is taken by another page's set)`);
    ids.add(s.id);
  }
  return sets;
}

export async function precompute(sets: readonly PointSet[], o: PrecomputeOptions): Promise<Precomputed> {
  const version = (await run(o.blab, ['version'])).stdout;
  const m = /core ([0-9a-f]{16})/.exec(version);
  if (!m || m[1] !== o.coreHash)
    throw new Error(`${o.blab} was built from other core sources (${m ? `core ${m[1]}` : 'no core hash'}; the sources are ${o.coreHash}): rebuild it with make native`);
  const keys = [...new Set(sets.flatMap((s) => s.keys))];
  const bySet = new Map<string, Record<string, SimStats>>();
  if (keys.length === 0) return { bySet, report: 'no set has a point' };
  mkdirSync(o.cacheDir, { recursive: true });
  // kept beside the cache: the points this build asked for
  const file = join(o.cacheDir, SHIPPED_POINTS);
  writeFileSync(file, keys.map((k) => `${k}\n`).join(''));
  const seeded = o.root === undefined ? null : seedCache(o.root, o.coreHash, o.cacheDir, keys);
  const jobs = String(o.jobs ?? availableParallelism());
  const { stdout, stderr } = await run(o.blab, ['sim', '--points', file, '--jobs', jobs, '--cache', o.cacheDir]);
  const outputs = parsePointsOutput(stdout);
  for (const s of sets) {
    const rec: Record<string, SimStats> = {};
    for (const k of s.keys) {
      const v = outputs.get(k);
      if (v === undefined) throw new Error(`blab sim --points printed nothing for "${k}"`);
      rec[k] = v;
    }
    bySet.set(s.id, rec);
  }
  const from = seeded?.file ? `; ${seeded.seeded} copied into the cache from ${seeded.file}` : '';
  return { bySet, report: `${stderr.trim()}${from}` };
}
