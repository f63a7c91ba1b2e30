// The playback clock on fake timers: performance.now() is Vitest's fake clock, and animation
// frames are queued by hand and run at the fake time, so every advance is exact.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createPlayback, type PlaybackOptions } from './playback';
import { playbackKey } from './playback-keys';

let frames: FrameRequestCallback[] = [];

/** Lets `ms` pass on the fake clock, then runs the animation frames queued until then. */
function frame(ms: number): void {
  vi.advanceTimersByTime(ms);
  const due = frames;
  frames = [];
  for (const f of due) f(performance.now());
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['performance', 'setTimeout', 'Date'] });
  frames = [];
  vi.stubGlobal('requestAnimationFrame', (f: FrameRequestCallback) => frames.push(f));
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

/** A replay of `length` positions that records what it was asked to show. */
function replay(length: number, o: Partial<PlaybackOptions> = {}) {
  const r = { pos: 0, shown: [] as number[], changes: [] as boolean[] };
  const pb = createPlayback({
    position: () => r.pos,
    end: () => length,
    show: (p) => {
      r.pos = p;
      r.shown.push(p);
    },
    onPlayingChange: (p) => r.changes.push(p),
    ...o,
  });
  return { r, pb };
}

describe('playback clock', () => {
  it('plays whole records at rate x speed, carrying the fraction a frame earns', () => {
    const { r, pb } = replay(100, { rate: 50, whole: true, speeds: [0.25, 1, 2], speedIndex: 1 });
    pb.play();
    expect(pb.playing).toBe(true);
    expect(r.changes).toEqual([true]);
    frame(20); // 50/s x 20 ms = 1 record
    expect(r.pos).toBe(1);
    pb.setSpeed(2);
    frame(20);
    expect(r.pos).toBe(3);
    pb.setSpeed(0);
    // a quarter of a record per frame: nothing moves for three frames, then one record
    frame(20);
    frame(20);
    frame(20);
    expect(r.pos).toBe(3);
    expect(r.shown).toEqual([1, 3]);
    frame(20);
    expect(r.pos).toBe(4);
  });

  it('plays continuous positions (virtual time) and stops at the end, once', () => {
    const { r, pb } = replay(1000, { rate: 10_000 });
    pb.play();
    frame(30);
    expect(r.pos).toBeCloseTo(300, 9);
    frame(50);
    expect(r.pos).toBeCloseTo(800, 9);
    frame(50); // 500 more: clamped to the end, and the clock stops there
    expect(r.pos).toBe(1000);
    expect(pb.playing).toBe(false);
    expect(r.changes).toEqual([true, false]);
    expect(frames).toEqual([]);
  });

  it('counts at most 250 ms of a late frame (a tab that was hidden)', () => {
    const { r, pb } = replay(10_000, { rate: 1000 });
    pb.play();
    frame(5000);
    expect(r.pos).toBe(250);
  });

  it('starts again from the beginning when played at the end', () => {
    const { r, pb } = replay(10, { rate: 100, whole: true });
    r.pos = 10;
    pb.play();
    expect(r.shown).toEqual([0]);
    frame(20);
    expect(r.pos).toBe(2);
  });

  it('pauses, and a frame asked for before the pause does nothing', () => {
    const { r, pb } = replay(100, { rate: 50, whole: true });
    pb.toggle();
    frame(20);
    pb.toggle();
    expect(pb.playing).toBe(false);
    frame(20);
    frame(20);
    expect(r.pos).toBe(1);
    expect(r.changes).toEqual([true, false]);
  });

  it('runs one clock when play, pause and play come within one frame', () => {
    const { r, pb } = replay(100, { rate: 50, whole: true });
    pb.play();
    pb.pause();
    pb.play();
    expect(frames.length).toBe(2);
    frame(20);
    expect(frames.length).toBe(1); // the first play's frame ended its clock
    frame(20);
    expect(r.pos).toBe(2);
  });

  it('keeps a frame carry across a seek while playing, as a record clock should', () => {
    const { r, pb } = replay(100, { rate: 25, whole: true });
    pb.play();
    frame(20); // half a record
    pb.seek(40);
    frame(20);
    expect(r.pos).toBe(41);
  });

  it('scrubs and steps within 0..end, and keeps the speed within the list', () => {
    const { r, pb } = replay(10, { speeds: [1, 2, 4], speedIndex: 1 });
    pb.seek(7);
    expect(r.pos).toBe(7);
    pb.stepBy(5);
    expect(r.pos).toBe(10);
    pb.stepBy(-30);
    expect(r.pos).toBe(0);
    pb.seek(-1);
    expect(r.pos).toBe(0);
    expect(pb.speed).toBe(2);
    pb.setSpeed(9);
    expect([pb.speedIndex, pb.speed]).toEqual([2, 4]);
    pb.setSpeed(-1);
    expect([pb.speedIndex, pb.speed]).toEqual([0, 1]);
  });

  it('never plays a replay without a rate (a lesson run is stepped, not played)', () => {
    const { r, pb } = replay(10);
    pb.play();
    frame(100);
    expect(pb.playing).toBe(false);
    expect(r.changes).toEqual([]);
    expect(frames).toEqual([]);
  });
});

describe('jumps and keys, the same on every page', () => {
  /** a replay of 30 positions with events of kind "refill" at 3, 9 and 20 */
  function withRefills() {
    const at = [3, 9, 20];
    const ref = { pos: 0 };
    const made = replay(30, {
      find: (dir, kind) => (kind !== 'refill' ? undefined : dir > 0 ? at.find((p) => p > ref.pos) : [...at].reverse().find((p) => p < ref.pos)),
    });
    Object.defineProperty(ref, 'pos', { get: () => made.r.pos });
    return made;
  }

  it('jumps to the next and previous event of a kind, and says when none is left', () => {
    const { r, pb } = withRefills();
    expect(pb.jump(1, 'refill')).toBe(true);
    expect(r.pos).toBe(3);
    pb.jump(1, 'refill');
    pb.jump(1, 'refill');
    expect(r.pos).toBe(20);
    expect(pb.jump(1, 'refill')).toBe(false);
    expect(r.pos).toBe(20);
    expect(pb.jump(-1, 'refill')).toBe(true);
    expect(r.pos).toBe(9);
    expect(pb.jump(1, 'merge')).toBe(false);
    expect(r.pos).toBe(9);
  });

  it('a replay with no find() jumps nowhere', () => {
    const { r, pb } = replay(30);
    expect(pb.jump(1, 'refill')).toBe(false);
    expect(r.shown).toEqual([]);
  });

  it("answers the workbench's keys through the controller, and leaves form fields their keys", () => {
    const { r, pb } = withRefills();
    const jumped: [boolean, number, string][] = [];
    const speeds: number[] = [];
    const key = (k: string, extra: Partial<KeyboardEvent> = {}) =>
      playbackKey({ key: k, shiftKey: false, ctrlKey: false, metaKey: false, altKey: false, target: null, ...extra } as KeyboardEvent, pb, {
        jumpKind: () => 'refill',
        jumped: (f, d, kind) => jumped.push([f, d, kind]),
        speed: (i) => speeds.push(i),
      });
    expect(key('ArrowRight')).toBe(true);
    expect(r.pos).toBe(1);
    expect(key('ArrowRight', { shiftKey: true })).toBe(true);
    expect(r.pos).toBe(11);
    expect(key('[')).toBe(true);
    expect(r.pos).toBe(9);
    expect(key(']')).toBe(true);
    expect(r.pos).toBe(20);
    expect(key(']')).toBe(true);
    expect(jumped.at(-1)).toEqual([false, 1, 'refill']);
    expect(key('d')).toBe(true);
    expect(jumped.at(-1)).toEqual([false, 1, 'drain']);
    expect(key('End')).toBe(true);
    expect(r.pos).toBe(30);
    expect(key('Home')).toBe(true);
    expect(r.pos).toBe(0);
    expect(key('=')).toBe(true);
    expect(speeds).toEqual([1]);
    expect(key('x')).toBe(false);
    expect(key('ArrowRight', { ctrlKey: true })).toBe(false);
    const input = { closest: (sel: string) => (sel.includes('input') ? {} : null) };
    expect(key('ArrowRight', { target: input as unknown as EventTarget })).toBe(false);
    const button = { closest: (sel: string) => (sel === 'button' ? {} : null) };
    expect(key(' ', { target: button as unknown as EventTarget })).toBe(false);
    expect(r.pos).toBe(0);
  });
});
