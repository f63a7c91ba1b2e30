// The form's switches are the core's: for every preset, the nonzero fields that
// `build/native/blab presets NAME` prints, in its order.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { CORE_PRESETS } from './core-schema';
import { presetHint, presetSwitches } from './preset-switches';

describe('preset switches', () => {
  it('are what blab presets NAME prints, for every preset', () => {
    for (const p of CORE_PRESETS) {
      const out = execFileSync('build/native/blab', ['presets', p.name], { encoding: 'utf8' });
      const fromCli = [...out.matchAll(/^ {2}([a-z_]+) +(\d+)$/gm)].map((m) => [m[1]!, Number(m[2])] as [string, number]).filter(([, v]) => v !== 0);
      expect(presetSwitches(p.name), p.name).toEqual(fromCli);
    }
  });

  it("name each modern preset's own mechanism in the hint", () => {
    expect(presetHint('v6.19')).toContain('bulk_chunk 1');
    expect(presetHint('v6.16')).toContain('free_high 3');
    expect(presetHint('v6.7')).toMatch(/high_mode 2, .*alloc_factor 1/);
    expect(presetHint('v6.0')).toContain('pcp_lock 1');
    expect(presetHint('v5.14')).toMatch(/high_mode 1, .*free_factor 1/);
    // 2002: pcp 0 (none) is no switch; the buddy bitmap and 2.5's expand() are
    expect(presetHint('v2.5.44')).toMatch(/Switches: buddy_map 1, expand_top 1\.$/);
    expect(presetHint('v2.5.45')).toMatch(/Switches: pcp 1, buddy_map 1, expand_top 1\.$/);
    expect(presetHint('v9.9')).toBe('');
  });
});
