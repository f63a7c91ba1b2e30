// The reducer's part of skip-merge and compaction (docs/skipmerge.md): merge-skipped pages
// are flagged on the free list; COMPACT_* records move the compaction state the memory map
// animates; records that contradict it are rejected.
import { describe, expect, it } from 'vitest';
import { EV, FLAG, LogError, decodeEvents, encodeEvents, type EventRecord } from '../engine/events';
import { Player } from './player';
import { COMPACTION, PAGE, PF } from './state';
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
    expect(p.state.compaction[COMPACTION.ACTIVE]).toBe(0);
    expect(p.state.compaction[COMPACTION.LAST_RESULT]).toBe(-1);
    p.seek(begin + 1);
    expect(p.state.compaction[COMPACTION.ACTIVE]).toBe(1);
    expect(p.state.compaction[COMPACTION.CPU]).toBe(1);
    expect(p.state.compaction[COMPACTION.ORDER]).toBe(4);
    expect(p.state.compaction[COMPACTION.SCAN_PFN]).toBe(-1);
    p.seek(p.length - 1);
    expect(p.state.compaction[COMPACTION.SCAN_PFN]).toBe(START);
    expect(p.state.compaction[COMPACTION.MERGED]).toBe(1);
    p.seek(p.length);
    expect(p.state.compaction[COMPACTION.ACTIVE]).toBe(0);
    expect(p.state.compaction[COMPACTION.LAST_RESULT]).toBe(1);
    expect(p.state.nrFreeOrder(4)).toBe(1);
    // seeking back restores the compaction state from the keyframes too
    p.seek(begin + 1);
    expect(p.state.compaction[COMPACTION.ACTIVE]).toBe(1);
  });

  it('records a migration from source to destination', () => {
    const migrate: Partial<EventRecord>[] = [
      { type: EV.COMPACT_BEGIN, order: 2, cpu: 0, arg0: 1 },
      { type: EV.COMPACT_MIGRATE, pfn: START, order: 0, cpu: 0, mt: MOVABLE, arg0: 9 },
    ];
    const p = play([...setup, ...expand, ...migrate]);
    p.seek(p.length);
    expect(p.state.compaction[COMPACTION.MIGRATE_FROM]).toBe(START);
    expect(p.state.compaction[COMPACTION.MIGRATE_TO]).toBe(START + 9);
    expect(p.state.compaction[COMPACTION.MIGRATED]).toBe(1);
  });

  it('rejects compaction records that contradict the state', () => {
    const base = [...setup, ...expand];
    expect(() => play([...base, { type: EV.COMPACT_SCAN, pfn: START, cpu: 0 }])).toThrow(LogError);
    expect(() =>
      play([...base, { type: EV.COMPACT_BEGIN, order: 2, cpu: 0 }, { type: EV.COMPACT_BEGIN, order: 2, cpu: 1 }]),
    ).toThrow(/already runs/);
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
