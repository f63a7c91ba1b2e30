// web/log/core-limits.ts is the C core's `blab limits --ts`, written by `make core-limits`.
// The URL state, the scenario form and the player take their bounds from it, so this test is
// what keeps the browser's numbers the core's: it fails as soon as the two drift apart.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CORE_LIMITS } from './core-limits';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const blab = join(root, 'build', 'native', 'blab');

describe('the core limits the browser imports', () => {
  it('are what the core says (make core-limits rewrites the file)', () => {
    if (!existsSync(blab)) throw new Error(`${blab} is missing: run "make native" first`);
    const fromCore = execFileSync(blab, ['limits', '--ts'], { encoding: 'utf8' });
    expect(readFileSync(join(root, 'web', 'log', 'core-limits.ts'), 'utf8')).toBe(fromCore);
    const json = JSON.parse(execFileSync(blab, ['limits'], { encoding: 'utf8' })) as Record<string, number>;
    expect(json).toEqual({ ...CORE_LIMITS });
  });
});
