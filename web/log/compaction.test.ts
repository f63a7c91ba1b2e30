// The reducer's part of skip-merge and compaction (docs/skipmerge.md): merge-skipped pages
// are flagged on the free list; COMPACT_* records move the compaction state the memory map
// animates; records that contradict it are rejected.
import { describe, expect, it } from 'vitest';
import { EV, FLAG, LogError, decodeEvents, encodeEvents, type EventRecord } from './events';
import { Player } from './player';
import { PAGE, PF, type ZoneState } from './state';
import { MOVABLE, START, expand, setup, withTimes } from '../testing/zone16';

const play = (recs: Partial<EventRecord>[]) => new Player(decodeEvents(encodeEvents(withTimes(recs))));

/** cpu 0 frees its page without merging (Lu RFC 2/4), then compaction merges it back */
const skipFree: Partial<EventRecord>[] = [
  { type: EV.FREE, pfn: START, order: 0, cpu: 0 },
  { type: EV.BUDDY_ADD, pfn: START, order: 0, mt: MOVABLE, cpu: 0, flags: FLAG.MERGE_SKIPPED },
];
const compactMerge: Partial<EventRecord>[] = [
  { type: EV.COMPACT_BEGIN, order: 4, cpu: 1, arg0: 0, arg1: 1 },
  { type: EV.BUDDY_DEL, pfn: START, order: 0, mt: MOVABLE, cpu: 1 },
  { type: EV.BUDDY_DEL, pfn: START + 1, order: 0, mt: MOVABLE, cpu: 1 },
  { type: EV.MERGE, pfn: START, order: 0, cpu: 1, arg0: 1 },
  { type: EV.BUDDY_DEL, pfn: START + 2, order: 1, mt: MOVABLE, cpu: 1 },
  { type: EV.MERGE, pfn: START, order: 1, cpu: 1, arg0: 2 },
  { type: EV.BUDDY_DEL, pfn: START + 4, order: 2, mt: MOVABLE, cpu: 1 },
  { type: EV.MERGE, pfn: START, order: 2, cpu: 1, arg0: 4 },
  { type: EV.BUDDY_DEL, pfn: START + 8, order: 3, mt: MOVABLE, cpu: 1 },
  { type: EV.MERGE, pfn: START, order: 3, cpu: 1, arg0: 8 },
  { type: EV.BUDDY_ADD, pfn: START, order: 4, mt: MOVABLE, cpu: 1 },
  { type: EV.COMPACT_SCAN, pfn: START, cpu: 1, arg0: 1, arg1: 4 },
  { type: EV.COMPACT_END, order: 4, cpu: 1, arg0: 1, arg1: 0 },
];

describe('skip-merge and compaction in the reducer', () => {
  it('flags a merge-skipped page and keeps it at order 0 beside its free buddy', () => {
    const p = play([...setup, ...expand, ...skipFree]);
    p.seek(p.length);
    expect(p.state.page(START)).toMatchObject({ state: PAGE.BUDDY, order: 0 });
    expect(p.state.pageFlags[0]! & PF.MERGE_SKIPPED).toBe(PF.MERGE_SKIPPED);
    expect(p.state.pageFlags[1]! & PF.MERGE_SKIPPED).toBe(0);
    expect(p.state.nrFreeOrder(0)).toBe(2);
  });

  it('follows a compaction from begin to end', () => {
    const p = play([...setup, ...expand, ...skipFree, ...compactMerge]);
    const begin = setup.length + expand.length + skipFree.length;
    p.seek(begin);
    expect(p.state.compactionOf(1)).toMatchObject({ active: false, lastResult: -1 });
    expect(p.state.runningCompactions()).toEqual([]);
    p.seek(begin + 1);
    expect(p.state.compactionOf(1)).toMatchObject({ cpu: 1, active: true, order: 4, scanPfn: -1 });
    expect(p.state.compactionOf(0)!.active).toBe(false);
    expect(p.state.runningCompactions().map((c) => c.cpu)).toEqual([1]);
    p.seek(p.length - 1);
    expect(p.state.compactionOf(1)).toMatchObject({ scanPfn: START, merged: 1 });
    p.seek(p.length);
    expect(p.state.compactionOf(1)).toMatchObject({ active: false, lastResult: 1 });
    expect(p.state.compactionOf(0)!.lastResult).toBe(-1);
    expect(p.state.nrFreeOrder(4)).toBe(1);
    // seeking back restores the compaction state from the keyframes too
    p.seek(begin + 1);
    expect(p.state.compactionOf(1)!.active).toBe(true);
    expect(p.state.compactionOf(2)).toBeUndefined();
  });

  it('records a migration from source to destination', () => {
    const migrate: Partial<EventRecord>[] = [
      { type: EV.COMPACT_BEGIN, order: 2, cpu: 0, arg0: 1 },
      { type: EV.COMPACT_MIGRATE, pfn: START, order: 0, cpu: 0, mt: MOVABLE, arg0: 9 },
    ];
    const p = play([...setup, ...expand, ...migrate]);
    p.seek(p.length);
    expect(p.state.compactionOf(0)).toMatchObject({ migrateFrom: START, migrateTo: START + 9, migrated: 1 });
  });

  it('rejects compaction records that contradict the state', () => {
    const base = [...setup, ...expand];
    expect(() => play([...base, { type: EV.COMPACT_SCAN, pfn: START, cpu: 0 }])).toThrow(LogError);
    // one compaction per CPU at a time (the core marks the CPU's pageset busy)
    expect(() =>
      play([...base, { type: EV.COMPACT_BEGIN, order: 2, cpu: 1 }, { type: EV.COMPACT_BEGIN, order: 3, cpu: 1 }]),
    ).toThrow(/compaction already runs on cpu 1/);
    expect(() =>
      play([
        ...base,
        { type: EV.COMPACT_BEGIN, order: 2, cpu: 0 },
        { type: EV.COMPACT_MIGRATE, pfn: START, order: 0, cpu: 0, arg0: 16 },
      ]),
    ).toThrow(/outside the zone/);
    expect(() =>
      play([...base, { type: EV.COMPACT_BEGIN, order: 2, cpu: 0 }, { type: EV.COMPACT_END, order: 2, cpu: 1 }]),
    ).toThrow(/no compaction runs on cpu 1/);
  });
});

/**
 * Two CPUs compacting at overlapping times, as the huge-page tasks of `mixed` do: cpu 1 merges
 * the merge-skipped page back (compactMerge) while cpu 0's compaction, begun first, scans and
 * ends after it. Each keeps its own record.
 */
const overlapping: Partial<EventRecord>[] = [
  { type: EV.COMPACT_BEGIN, order: 3, cpu: 0, arg0: 0, arg1: 1 },
  compactMerge[0]!, // cpu 1 begins while cpu 0 runs
  { type: EV.COMPACT_SCAN, pfn: START + 8, cpu: 0, arg0: 0, arg1: 4 },
  ...compactMerge.slice(1, -1), // cpu 1 merges and scans
  { type: EV.COMPACT_SCAN, pfn: START + 12, cpu: 0, arg0: 0, arg1: 4 },
  compactMerge.at(-1)!, // cpu 1 ends, with a block
  { type: EV.COMPACT_END, order: 3, cpu: 0, arg0: 1, arg1: 0 },
];

function snapshot(s: ZoneState) {
  return { step: s.step, time: s.time, arrays: s.arrays().map((a) => Array.from(a as Uint8Array)) };
}

describe('compactions on several CPUs at once', () => {
  const recs = [...setup, ...expand, ...skipFree, ...overlapping];
  const begin = setup.length + expand.length + skipFree.length;

  it('keeps one compaction per CPU, each begun and ended on its own', () => {
    const p = play(recs);
    p.seek(begin + 2);
    expect(p.state.runningCompactions().map((c) => [c.cpu, c.order])).toEqual([
      [0, 3],
      [1, 4],
    ]);
    p.seek(begin + 3);
    expect(p.state.compactionOf(0)).toMatchObject({ active: true, scanPfn: START + 8, merged: 0 });
    expect(p.state.compactionOf(1)).toMatchObject({ active: true, scanPfn: -1 });
    p.seek(recs.length - 2); // cpu 1's scan done, cpu 0 scanned on
    expect(p.state.compactionOf(0)).toMatchObject({ active: true, scanPfn: START + 12 });
    expect(p.state.compactionOf(1)).toMatchObject({ active: true, scanPfn: START, merged: 1 });
    p.seek(recs.length - 1); // cpu 1 ended; cpu 0 still runs
    expect(p.state.runningCompactions().map((c) => c.cpu)).toEqual([0]);
    expect(p.state.compactionOf(1)).toMatchObject({ active: false, lastResult: 1 });
    p.seek(recs.length);
    expect(p.state.runningCompactions()).toEqual([]);
    expect(p.state.compactionOf(0)).toMatchObject({ active: false, lastResult: 1, scanPfn: START + 12 });
    expect(p.state.nrFreeOrder(4)).toBe(1);
  });

  it('gives, at every step, forward or back, the state a fresh replay to that step gives', () => {
    const log = decodeEvents(encodeEvents(withTimes(recs)));
    // K = 1: every step its own keyframe; K = 4: keyframes with records applied after them
    for (const k of [1, 4, 1_000_000]) {
      const p = new Player(log, { keyframeInterval: k });
      const expected = Array.from({ length: log.length + 1 }, (_, step) => snapshot(new Player(log).seek(step)));
      for (let step = log.length; step >= 0; step--) expect(snapshot(p.seek(step)), `K ${k}, back to ${step}`).toEqual(expected[step]);
      for (let step = 0; step <= log.length; step++) expect(snapshot(p.seek(step)), `K ${k}, forward to ${step}`).toEqual(expected[step]);
      for (let step = log.length; step > 0; step--) {
        p.seek(step);
        expect(snapshot(p.stepBack()), `K ${k}, one back from ${step}`).toEqual(expected[step - 1]);
        expect(snapshot(p.stepForward()), `K ${k}, one on from ${step - 1}`).toEqual(expected[step]);
      }
    }
  });

  it('rejects an end on a CPU that never began, while another CPU compacts', () => {
    expect(() =>
      play([...setup, ...expand, { type: EV.COMPACT_BEGIN, order: 2, cpu: 0 }, { type: EV.COMPACT_END, order: 2, cpu: 1 }]),
    ).toThrow(/no compaction runs on cpu 1/);
  });
});
