// Vitest's two projects (vitest.config.ts) say honestly which tests need the core: a test in
// `unit` (make check, no build) names no build/ program or module, and each test listed as
// `core` exists and does name one (a test that needs no build belongs in the fast tier).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CORE_TESTS } from '../vitest.config.ts';

/** Code without its comments (the rough cut is enough: a build path in a string is what counts). */
const code = (text) => text.replace(/(^|\s)\/\/.*$/gm, '$1').replace(/(^|\s)\/\*[\s\S]*?\*\//g, '$1');

/** build/native/..., build/wasm/..., or join(..., 'build', 'wasm' | 'native', ...) */
export const NEEDS_BUILD = /\bbuild\/(native|wasm)\b|['"`]build['"`]\s*,\s*['"`](native|wasm)['"`]/;

function testFiles(dir, out = []) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) testFiles(p, out);
    else if (/\.test\.(ts|mjs)$/.test(e.name)) out.push(p);
  }
  return out;
}

describe('test tiers', () => {
  const all = [...testFiles('web'), ...testFiles('scripts')].sort();
  const core = new Set(CORE_TESTS);

  it('no unit test reaches a build/ program or module', () => {
    // (this file's own samples below name build paths on purpose)
    const unit = all.filter((f) => !core.has(f) && f !== 'scripts/test-tiers.test.mjs');
    expect(unit.length).toBeGreaterThan(20);
    expect(unit.filter((f) => NEEDS_BUILD.test(code(readFileSync(f, 'utf8'))))).toEqual([]);
  });

  it('every core test exists and reaches a build/ program or module', () => {
    expect(CORE_TESTS.filter((f) => !all.includes(f))).toEqual([]);
    expect(CORE_TESTS.filter((f) => !NEEDS_BUILD.test(code(readFileSync(f, 'utf8'))))).toEqual([]);
  });

  it('tells a build path from a comment', () => {
    expect(NEEDS_BUILD.test(code("const m = join(root, 'build', 'wasm', 'node', 'blab.js');"))).toBe(true);
    expect(NEEDS_BUILD.test(code("execFileSync('build/native/blab', ['sim']);"))).toBe(true);
    expect(NEEDS_BUILD.test(code('// a stand-in for build/native/blab\nconst x = 1;'))).toBe(false);
    expect(NEEDS_BUILD.test(code('/* build/wasm/node/blab.js */ run();'))).toBe(false);
    expect(NEEDS_BUILD.test(code("// tests/golden/*.ops\nconst m = 'build/wasm/node/blab.js';"))).toBe(true);
  });
});
