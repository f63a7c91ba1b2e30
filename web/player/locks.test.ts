import { describe, expect, it } from 'vitest';
import { EV, decodeEvents, encodeEvents } from '../engine/events';
import { firstEndingAfter, lockIntervals } from './locks';
import { setup } from '../testing/zone16';

describe('zone->lock intervals', () => {
  const log = decodeEvents(
    encodeEvents([
      ...setup.map((r, i) => ({ ...r, time: i })),
      { type: EV.LOCK_ACQUIRE, cpu: 0, time: 100, arg0: 0 },
      { type: EV.LOCK_RELEASE, cpu: 0, time: 150, arg0: 50 },
      { type: EV.LOCK_ACQUIRE, cpu: 1, time: 150, arg0: 30 }, // spun 120..150
      { type: EV.LOCK_ACQUIRE, cpu: 1, time: 160, mt: 1, arg0: 0 }, // lru_lock: not zone->lock
      { type: EV.LOCK_RELEASE, cpu: 1, time: 170, mt: 1, arg0: 10 },
      { type: EV.MARK, time: 200 },
    ]),
  );
  const iv = lockIntervals(log, 2);

  it('reads hold and spin intervals per CPU', () => {
    expect(Array.from(iv.hold[0]!)).toEqual([100, 150]);
    expect(Array.from(iv.spin[0]!)).toEqual([]);
    expect(Array.from(iv.spin[1]!)).toEqual([120, 150]);
    // still held at the end of the log: held until the last record
    expect(Array.from(iv.hold[1]!)).toEqual([150, 200]);
    expect(iv.end).toBe(200);
    expect(iv.meanGap).toBe(50);
  });

  it('finds the first interval ending at or after a time', () => {
    const flat = Float64Array.from([0, 10, 20, 30, 40, 50]);
    expect(firstEndingAfter(flat, -5)).toBe(0);
    expect(firstEndingAfter(flat, 10)).toBe(0);
    expect(firstEndingAfter(flat, 11)).toBe(1);
    expect(firstEndingAfter(flat, 45)).toBe(2);
    expect(firstEndingAfter(flat, 51)).toBe(3);
  });
});
