// The browser's name rule is the core's: for every code point of the ranges it cares about
// (and their neighbours), nameProblem() refuses exactly what blab_name_ok() refuses.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { nameProblem } from './names';

interface NameModule {
  HEAPU8: Uint8Array;
  _malloc(n: number): number;
  _free(p: number): void;
  _blab_name_ok(name: number): number;
}

const modulePath = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'build', 'wasm', 'node', 'blab.js');
let m: NameModule;
beforeAll(async () => {
  if (!existsSync(modulePath)) throw new Error(`${modulePath} is missing: run "make wasm" first`);
  m = await (createRequire(import.meta.url)(modulePath) as (o: object) => Promise<NameModule>)({ noInitialRun: true });
});

function coreOk(name: string): boolean {
  const bytes = new TextEncoder().encode(`${name}\0`);
  const p = m._malloc(bytes.length);
  m.HEAPU8.set(bytes, p);
  try {
    return m._blab_name_ok(p) === 1;
  } finally {
    m._free(p);
  }
}

describe('names (a saved scenario, a slab cache)', () => {
  it('refuse what the core refuses, code point by code point', () => {
    const points: number[] = [];
    for (const [lo, hi] of [[0x01, 0xa0], [0x600, 0x620], [0x2000, 0x2070], [0xfef0, 0xffff], [0x1f600, 0x1f602]] as const) {
      for (let c = lo; c <= hi; c++) points.push(c);
    }
    for (const c of points) {
      const name = `a${String.fromCodePoint(c)}b`;
      expect(nameProblem(name) === null, `U+${c.toString(16)}`).toBe(coreOk(name));
    }
  });
  it('say which character', () => {
    expect(nameProblem('evil\u202egnp.exe')).toBe('it holds U+202E, a control, bidirectional or invisible character');
    expect(nameProblem('caché 🙂')).toBeNull();
    expect(nameProblem('half \ud800')).toMatch(/surrogate/);
  });
});
