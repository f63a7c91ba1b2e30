// The app's copy of the core's tables (core-schema.ts) must be what the core prints now: a
// preset, a request field or a counter added, renamed or reordered in C fails here until
// `make schema` rewrites the file. And the app's view of them must hold: every preset the core
// has is in the scenario menu, and a run's counters arrive by name.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CORE_PRESETS, SIM_STATS } from './core-schema';
import { PRESETS } from './url';

describe('core-schema.ts', () => {
  it('is exactly what build/native/blab-schema prints from the C core', () => {
    const fromCore = execFileSync('build/native/blab-schema', { encoding: 'utf8' });
    expect(readFileSync('web/scenario/core-schema.ts', 'utf8')).toBe(fromCore);
  });

  it('lists every preset `blab presets` lists, in its order', () => {
    const names = execFileSync('build/native/blab', ['presets'], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .map((l) => l.split(/\s+/)[0]);
    expect(CORE_PRESETS.map((p) => p.name)).toEqual(names);
    expect(Object.keys(PRESETS)).toEqual(names);
    expect(PRESETS['v5.17']).toMatch(/^v5\.17: /);
  });

  it('names each counter once', () => {
    expect(new Set(SIM_STATS).size).toBe(SIM_STATS.length);
  });
});
