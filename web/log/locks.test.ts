import { describe, expect, it } from 'vitest';
import { EV, decodeEvents, encodeEvents } from './events';
import { countEndingBy, countStartingBy, firstEndingAfter, lockIntervals } from './locks';
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

  it("reads lru_lock's own intervals (lock id 1), which the lock timeline's second lane set draws", () => {
    const lru = lockIntervals(log, 2, 1);
    expect(Array.from(lru.hold[1]!)).toEqual([160, 170]);
    expect(Array.from(lru.hold[0]!)).toEqual([]);
    expect(Array.from(lru.spin[1]!)).toEqual([]);
    // a log with no list_lock (id 2) has no intervals for it: no lanes
    expect(lockIntervals(log, 2, 2).hold.every((h) => h.length === 0)).toBe(true);
  });

  it('counts acquisitions and contended ones up to a time', () => {
    const flat = Float64Array.from([0, 10, 20, 30, 40, 50]);
    expect(countStartingBy(flat, -1)).toBe(0);
    expect(countStartingBy(flat, 0)).toBe(1);
    expect(countStartingBy(flat, 25)).toBe(2);
    expect(countStartingBy(flat, 99)).toBe(3);
    expect(countEndingBy(flat, 9)).toBe(0);
    expect(countEndingBy(flat, 10)).toBe(1);
    expect(countEndingBy(flat, 49)).toBe(2);
    expect(countEndingBy(flat, 50)).toBe(3);
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
