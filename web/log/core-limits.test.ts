// web/log/core-limits.ts is the C core's hard limits as `build/native/blab-schema --limits`
// prints them (make schema). The URL state, the scenario form and the player take their bounds
// from it, so this test is what keeps the browser's numbers the core's: it fails as soon as
// the two drift apart.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

describe('web/log/core-limits.ts', () => {
  it('is exactly what build/native/blab-schema --limits prints from the C core', () => {
    const fromCore = execFileSync('build/native/blab-schema', ['--limits'], { encoding: 'utf8' });
    expect(readFileSync('web/log/core-limits.ts', 'utf8')).toBe(fromCore);
  });
});
