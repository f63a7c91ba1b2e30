// changedPages(a, b): every page whose state differs between two steps lies in a returned range.
// Views repaint only those ranges, so a missed page would be a wrong picture.
import { describe, expect, it } from 'vitest';
import { decodeEvents } from './events';
import { Player } from './player';
import { synthLog } from '../testing/synth';

const log = decodeEvents(synthLog({ pages: 1024, cpus: 3, maxOrder: 6, pageblockOrder: 4, batch: 4, high: 12, seed: 11, rounds: 2, perRound: 20 }));

function pageArrays(p: Player) {
  const s = p.state;
  return [s.pageState, s.pageOrder, s.pageMt, s.pageCpu, s.pageFlags].map((a) => Array.from(a as Uint8Array));
}

describe('Player.changedPages', () => {
  it('covers every page that differs between two steps, forward and back', () => {
    const p = new Player(log, { keyframeInterval: 64 });
    let checked = 0;
    for (const [a, b] of [[0, 40], [100, 101], [300, 390], [390, 300], [800, 1200], [1500, 1499]] as const) {
      const before = pageArrays((p.seek(a), p));
      const after = pageArrays((p.seek(b), p));
      const ranges = p.changedPages(a, b)!;
      expect(ranges).not.toBeNull();
      const covered = new Uint8Array(1024);
      for (const [f, n] of ranges) covered.fill(1, f, f + n);
      for (let i = 0; i < 1024; i++) {
        const differs = before.some((arr, k) => arr[i] !== after[k]![i]);
        if (differs) {
          expect(covered[i], `page ${i} changed between steps ${a} and ${b}`).toBe(1);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(50); // the test saw real changes
  });
  it('gives up (null) past maxEvents, and nothing for the same step', () => {
    const p = new Player(log);
    expect(p.changedPages(0, 5000, 100)).toBeNull();
    expect(p.changedPages(700, 700)).toEqual([]);
  });
});
