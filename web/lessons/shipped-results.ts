// Build time only (Node): the shipped runs' records as committed, lessons/results/<core hash>.jsonl,
// one record a line exactly as `blab sim --points` prints it. Computing every lesson table is
// the longest step of a fresh clone's build (hundreds of CPU seconds at kernel sizes), and a
// record depends only on the core's sources and its point, so the build copies the committed
// records into blab's own disk cache (build/results/<hash>/) before it runs the points: blab
// then reads them as cache hits, checking each record's key and form as it does for any cache
// file, and runs only the points the file lacks. A file for another core hash is never read.
// `make shipped-results` writes the file from a build's cache; web/compare/shipped-results.test.ts
// fails when it is missing, stale or incomplete, and runs a sample of its points again.
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readPointRecord } from '../engine/simstats.ts';

/** where the committed records live, under the repository */
export const SHIPPED_RESULTS_DIR = join('lessons', 'results');

/** the most a committed file may hold: well over the few megabytes every table takes */
const SHIPPED_FILE_MAX = 64 << 20;

/** The committed records' file for the core of this hash. */
export function shippedResultsFile(root: string, hash: string): string {
  return join(root, SHIPPED_RESULTS_DIR, `${hash}.jsonl`);
}

/** The name blab's disk cache gives a point's record: FNV-1a (64 bits) of the key, in hex, as
 * file_of() in wasm-core/cli/sim/sim_cache.c names it. */
export function cacheFileName(key: string): string {
  let h = 0xcbf29ce484222325n;
  for (const b of Buffer.from(key, 'utf8')) h = BigInt.asUintN(64, (h ^ BigInt(b)) * 0x100000001b3n);
  return `${h.toString(16).padStart(16, '0')}.json`;
}

/** Each record of a committed file by its key, in the file's order; throws naming the line. */
export function readShippedResults(file: string): Map<string, string> {
  const size = statSync(file).size;
  if (size > SHIPPED_FILE_MAX) throw new Error(`${file}: ${size} bytes, more than the ${SHIPPED_FILE_MAX} a file of shipped runs may hold`);
  const out = new Map<string, string>();
  readFileSync(file, 'utf8')
    .split('\n')
    .forEach((line, i) => {
      if (line === '') return;
      const where = `${file}:${i + 1}`;
      const { key } = readPointRecord(line, where);
      if (out.has(key)) throw new Error(`${where}: a second record for ${key.slice(0, 200)}`);
      out.set(key, `${line}\n`);
    });
  return out;
}

/** Copies the committed records of the points asked for into blab's cache for this core (those
 * the cache has already stay): how many it copied, and from which file (null: none committed for
 * this core). */
export function seedCache(root: string, hash: string, cacheDir: string, keys: readonly string[]): { seeded: number; file: string | null } {
  const file = shippedResultsFile(root, hash);
  if (!existsSync(file)) return { seeded: 0, file: null };
  const records = readShippedResults(file);
  const dir = join(cacheDir, hash);
  mkdirSync(dir, { recursive: true });
  let seeded = 0;
  for (const k of new Set(keys)) {
    const rec = records.get(k);
    const path = join(dir, cacheFileName(k));
    if (rec === undefined || existsSync(path)) continue;
    writeFileSync(path, rec);
    seeded++;
  }
  return { seeded, file };
}
