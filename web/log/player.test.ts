import { describe, expect, it } from 'vitest';
import { decodeEvents } from './events';
import { Player } from './player';
import type { ZoneState } from './state';
import { synthLog } from '../testing/synth';

function snapshot(s: ZoneState) {
  return { step: s.step, time: s.time, arrays: s.arrays().map((a) => Array.from(a as Uint8Array)) };
}

const log = decodeEvents(synthLog({ pages: 1024, cpus: 3, maxOrder: 6, pageblockOrder: 4, batch: 4, high: 12, seed: 7, rounds: 2, perRound: 20 }));

describe('Player keyframes', () => {
  it('builds a log of useful size with merges, drains and contention', () => {
    const p = new Player(log, { keyframeInterval: 64 });
    expect(p.length).toBeGreaterThan(1000);
    expect(p.findNext('merge', 0)).toBeDefined();
    expect(p.findNext('drain', 0)).toBeDefined();
    expect(p.findNext('contended', 0)).toBeDefined();
  });

  it('seek(step) equals applying every record from zero, for every step', () => {
    const fresh = new Player(log, { keyframeInterval: 1_000_000 }); // one keyframe: replay from zero
    const kf = new Player(log, { keyframeInterval: 64 });
    for (let step = 0; step <= log.length; step += 37) {
      fresh.seek(0);
      expect(snapshot(kf.seek(step))).toEqual(snapshot(fresh.seek(step)));
    }
  });

  it('step back N then forward N returns to an identical state', () => {
    const p = new Player(log, { keyframeInterval: 50 });
    for (const [at, n] of [[500, 1], [500, 49], [777, 50], [777, 51], [1000, 333], [log.length, 200]] as const) {
      const before = snapshot(p.seek(at));
      for (let k = 0; k < n; k++) p.stepBack();
      expect(p.step).toBe(at - n);
      for (let k = 0; k < n; k++) p.stepForward();
      expect(snapshot(p.state)).toEqual(before);
    }
  });

  it('clamps seeks to 0..length', () => {
    const p = new Player(log);
    expect(p.seek(-5).step).toBe(0);
    expect(p.seek(log.length + 10).step).toBe(log.length);
  });

  it('jumps to the next and previous event of a kind', () => {
    const p = new Player(log);
    const first = p.findNext('merge', 0)!;
    expect(log.type[first - 1]).toBe(10);
    p.seek(first);
    const second = p.findNext('merge')!;
    expect(second).toBeGreaterThan(first);
    p.seek(second);
    expect(p.findPrev('merge')).toBe(first);
    const c = p.findNext('contended', 0)!;
    expect(log.arg0[c - 1]).toBeGreaterThan(0);
  });

  it('shows a CPU spinning before a contended acquisition', () => {
    const p = new Player(log);
    const c = p.findNext('contended', 0)!; // step after the contended LOCK_ACQUIRE
    const cpu = log.cpu[c - 1]!;
    p.seek(c - 1); // the previous record; the spin began arg0 cycles before the acquire
    expect(p.lockState(cpu)).toBe('spinning');
    p.seek(c);
    expect(p.lockState(cpu)).toBe('holding');
  });

  it('bounds keyframe memory by choosing K from the budget', () => {
    const p = new Player(log, { keyframeBudget: 10 * 1024 });
    expect(p.K).toBeGreaterThanOrEqual(256);
  });

  it('reports pcp batch and high as observed in the log', () => {
    expect(new Player(log).observedPcp()).toEqual({ batch: 4, high: 12 });
  });
});

describe('observed pcp high', () => {
  it('ignores drain_pages() (path DRAIN), which empties a list whatever its count', async () => {
    const { encodeEvents, EV } = await import('./events');
    const { setup, withTimes } = await import('../testing/zone16');
    const l = decodeEvents(
      encodeEvents(
        withTimes([
          ...setup,
          { type: EV.RMQUEUE_BULK, cpu: 0, order: 1, arg0: 2 }, // batch >> 1: not batch
          { type: EV.RMQUEUE_BULK, cpu: 0, order: 0, arg0: 4 },
          { type: EV.PCP_DRAIN, cpu: 0, path: 12, arg0: 1, arg1: 1 },
          { type: EV.PCP_DRAIN, cpu: 0, path: 4, arg0: 4, arg1: 12 },
        ]),
      ),
    );
    expect(new Player(l).observedPcp()).toEqual({ batch: 4, high: 12 });
  });
});
