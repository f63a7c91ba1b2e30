// Every prefetch has a fate the per-CPU counters show: a run of the real core (the native CLI,
// lesson 3's replay) is replayed, and at every step issued = pf_hit + pf_late + pf_wasted +
// redundant + unread with nothing negative; at the end nothing is unread (the core writes a
// PREFETCH_WASTED for each line still unread when the run ends) and the hits, late and wasted
// prefetches add up to the core's own counters. Skipped where the native build is not there.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeEvents } from './events';
import { Player } from './player';
import { prefetchFates } from './state';

const BLAB = 'build/native/blab';
const ARGS = ['sim', '--workload', 'page_fault1', '--preset', 'v4.17', '--cpus', '8', '--pages', '384', '--iterations', '1', '--seed', '1', '--clear-lines', '4'];

describe.skipIf(!existsSync(BLAB))('prefetch fates against the core', () => {
  it('accounts for every prefetch, step by step, and ends on the core\'s counters', () => {
    const dir = mkdtempSync(join(tmpdir(), 'blab-fates-'));
    try {
      const file = join(dir, 'run.ev');
      execFileSync(BLAB, [...ARGS, '--events', file]);
      const stats = JSON.parse(execFileSync(BLAB, [...ARGS, '--json'], { encoding: 'utf8' })).rows[0].presets['v4.17'];
      const b = readFileSync(file);
      const p = new Player(decodeEvents(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength)));
      const cpus = p.state.geo.cpus;
      for (let step = 0; step <= p.length; step += 997) {
        p.seek(step);
        for (let c = 0; c < cpus; c++) {
          const f = prefetchFates(p.state, c);
          expect(f.unread, `step ${step} cpu ${c}`).toBeGreaterThanOrEqual(0);
          expect(f.hit + f.late + f.wasted + f.redundant + f.unread).toBe(f.issued);
        }
      }
      p.seek(p.length);
      const all = Array.from({ length: cpus }, (_, c) => prefetchFates(p.state, c));
      const sum = (k: keyof (typeof all)[number]) => all.reduce((a, f) => a + f[k], 0);
      expect(sum('unread')).toBe(0);
      expect(sum('redundant')).toBeGreaterThan(0);
      expect([sum('hit'), sum('late'), sum('wasted')]).toEqual([stats.prefetch_hit, stats.prefetch_late, stats.prefetch_wasted]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
