#!/usr/bin/env node
// make shipped-results: writes lessons/results/<core hash>.jsonl, the records of every run the
// build ships (each lesson table's, the time machine's, the default compare's), from the cache
// the last build filled (build/results/<hash>/, the points it asked for in
// build/results/shipped-points.txt), and removes the files of other core hashes. A fresh clone's
// build copies them into its cache instead of running every point again
// (web/lessons/shipped-results.ts); commit the file after a change to the core or to a table.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { coreHash } from './core-hash.mjs';

const root = join(fileURLToPath(import.meta.url), '..', '..');
const hash = coreHash(root);
const blab = join(root, 'build', 'native', 'blab');
const points = join(root, 'build', 'results', 'shipped-points.txt');
for (const [f, how] of [[blab, 'make native'], [points, 'make web-build']])
  if (!existsSync(f)) {
    console.error(`shipped-results: ${f} is missing: run ${how} first`);
    process.exit(1);
  }
const version = execFileSync(blab, ['version'], { encoding: 'utf8' });
if (!version.includes(`core ${hash}`)) {
  console.error(`shipped-results: ${blab} was built from other core sources (${version.trim()}; the sources are ${hash}): run make native`);
  process.exit(1);
}
// every point from the build's cache (or run now, if the build was of other lessons)
const out = execFileSync(blab, ['sim', '--points', points, '--cache', join(root, 'build', 'results')], {
  encoding: 'utf8',
  maxBuffer: 1 << 28,
  stdio: ['ignore', 'pipe', 'pipe'],
});
const dir = join(root, 'lessons', 'results');
mkdirSync(dir, { recursive: true });
const file = join(dir, `${hash}.jsonl`);
writeFileSync(file, out);
for (const f of readdirSync(dir)) if (f.endsWith('.jsonl') && f !== `${hash}.jsonl`) rmSync(join(dir, f));
console.log(`shipped-results: wrote ${file} (${out.split('\n').length - 1} records); commit it`);
