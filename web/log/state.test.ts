import { describe, expect, it } from 'vitest';
import { CPU_NONE, EV, FLAG, NR_OUTCOMES, decodeEvents, encodeEvents, type EventRecord } from './events';
import { Player } from './player';
import { CACHE, PAGE, PF, prefetchFates } from './state';
import { MOVABLE, START, expand, mergeBack, setup, withTimes } from '../testing/zone16';

const play = (recs: Partial<EventRecord>[]) => new Player(decodeEvents(encodeEvents(withTimes(recs))));
const buddyinfo = (p: Player) => Array.from({ length: 5 }, (_, o) => p.state.nrFreeOrder(o));

describe('page-state reducer', () => {
  it('sets up a 16-page zone as one free order-4 block', () => {
    const p = play(setup);
    p.seek(p.length);
    expect(buddyinfo(p)).toEqual([0, 0, 0, 0, 1]);
    expect(p.state.freePages()).toBe(16);
    expect(p.state.page(START)).toMatchObject({ state: PAGE.BUDDY, order: 4, mt: MOVABLE });
    expect(p.state.page(START + 15)).toMatchObject({ state: PAGE.BUDDY, order: 4 });
    expect(p.state.pageFlags[0]! & PF.HEAD).toBe(PF.HEAD);
    expect(p.state.pageFlags[1]! & PF.HEAD).toBe(0);
    expect(Array.from(p.state.pageblockMt)).toEqual([1, 1, 1, 1]);
  });

  it('expands an order-4 block down to order 0', () => {
    const p = play([...setup, ...expand]);
    p.seek(p.length);
    // one free block at each of orders 0..3, pfn START allocated
    expect(buddyinfo(p)).toEqual([1, 1, 1, 1, 0]);
    expect(p.state.freePages()).toBe(15);
    expect(p.state.page(START)).toMatchObject({ state: PAGE.ALLOCATED, order: 0, cpu: 0 });
    expect(p.state.page(START + 1)).toMatchObject({ state: PAGE.BUDDY, order: 0 });
    expect(p.state.page(START + 3)).toMatchObject({ state: PAGE.BUDDY, order: 1 });
    expect(p.state.page(START + 7)).toMatchObject({ state: PAGE.BUDDY, order: 2 });
    expect(p.state.page(START + 8)).toMatchObject({ state: PAGE.BUDDY, order: 3 });
  });

  it('shows pages in transit between BUDDY_DEL and the next state event', () => {
    const p = play([...setup, ...expand]);
    p.seek(setup.length + 1); // just after BUDDY_DEL of the order-4 block
    expect(buddyinfo(p)).toEqual([0, 0, 0, 0, 0]);
    expect(p.state.page(START + 9)!.state).toBe(PAGE.TRANSIT);
  });

  it('merges back to order 4 and tracks zone->lock', () => {
    const p = play([...setup, ...expand, ...mergeBack]);
    p.seek(p.length - 1); // before LOCK_RELEASE
    expect(buddyinfo(p)).toEqual([0, 0, 0, 0, 1]);
    expect(p.lockState(1)).toBe('holding');
    expect(p.lockState(0)).toBe('running');
    p.seek(p.length);
    expect(p.lockState(1)).toBe('running');
    expect(p.lockStats(1)).toEqual({ acquisitions: 1, contended: 0, spinCycles: 0, holdCycles: 40 });
  });

  it('counts pcp pages per CPU, hot and cold', () => {
    const p = play([
      ...setup,
      ...expand,
      { type: EV.FREE, pfn: START, order: 0, cpu: 0 },
      { type: EV.PCP_ADD, pfn: START, order: 0, cpu: 1, mt: MOVABLE, flags: FLAG.COLD },
    ]);
    p.seek(p.length);
    expect(Array.from(p.state.pcpCount)).toEqual([0, 1]);
    expect(Array.from(p.state.pcpCold)).toEqual([0, 1]);
    expect(p.state.page(START)).toMatchObject({ state: PAGE.PCP, cpu: 1 });
  });

  it('marks merge-skipped blocks', () => {
    const p = play([
      ...setup,
      ...expand,
      { type: EV.FREE, pfn: START, order: 0, cpu: 0 },
      { type: EV.BUDDY_ADD, pfn: START, order: 0, mt: MOVABLE, cpu: 0, flags: FLAG.MERGE_SKIPPED },
    ]);
    p.seek(p.length);
    expect(buddyinfo(p)).toEqual([2, 1, 1, 1, 0]);
    expect(p.state.pageFlags[0]! & PF.MERGE_SKIPPED).toBe(PF.MERGE_SKIPPED);
  });

  it('counts cache outcomes and prefetches', () => {
    const p = play([
      ...setup,
      { type: EV.ACCESS, pfn: START, cpu: 1, flags: 4 | FLAG.WRITE, arg0: 200 },
      { type: EV.ACCESS, pfn: START, cpu: 1, flags: 5, arg0: 4 },
      { type: EV.PREFETCH, pfn: START, cpu: 1, arg0: 180 },
      { type: EV.PREFETCH_WASTED, pfn: START, cpu: 1 },
      // arg1 = 1: the line was in L1 already, a redundant prefetch
      { type: EV.PREFETCH, pfn: START, cpu: 1, arg0: 0, arg1: 1 },
    ]);
    p.seek(p.length);
    // per CPU: one counter per access outcome (NR_OUTCOMES), then prefetches issued, wasted, redundant
    const per = CACHE.WIDTH;
    expect(per).toBe(NR_OUTCOMES + 3);
    expect(Array.from(p.state.cache.subarray(per, 2 * per))).toEqual([0, 0, 0, 0, 1, 1, 0, 0, 2, 1, 1]);
    // issued 2: one wasted, one redundant, the hit (outcome 5) was of an earlier line
    expect(prefetchFates(p.state, 1)).toEqual({ issued: 2, hit: 1, late: 0, wasted: 1, redundant: 1, unread: -1 });
  });
});

describe('invalid transitions are errors naming the record', () => {
  const bad = (recs: Partial<EventRecord>[], msg: RegExp) => expect(() => play(recs)).toThrow(msg);

  it('BUDDY_DEL of a block not on that list', () => {
    bad([...setup, { type: EV.BUDDY_DEL, pfn: START, order: 3, mt: MOVABLE, cpu: 0 }], /^record 6: BUDDY_DEL pfn 256 order 3: block is not on free_area\[3\]\.free_list\[MOVABLE\] \(pfn is in a free block of order 4, MOVABLE\)/);
  });
  it('BUDDY_DEL with the wrong migratetype', () => {
    bad([...setup, { type: EV.BUDDY_DEL, pfn: START, order: 4, mt: 0, cpu: 0 }], /record 6: .*free_list\[UNMOVABLE\]/);
  });
  it('BUDDY_ADD of a page already free', () => {
    bad([...setup, { type: EV.BUDDY_ADD, pfn: START + 4, order: 2, mt: MOVABLE }], /record 6: .*pfn 260 is free \(buddy\), expected in transit/);
  });
  it('FREE of a page nobody holds', () => {
    bad([...setup, ...expand, { type: EV.FREE, pfn: START + 1, order: 0, cpu: 0 }], /record 16: FREE .* expected allocated/);
  });
  it('ALLOC of a page still on a list', () => {
    bad([...setup, { type: EV.ALLOC, pfn: START, order: 0, cpu: 0 }], /record 6: ALLOC .*just taken off/);
  });
  it('PCP_DEL from the wrong CPU', () => {
    bad(
      [...setup, ...expand, { type: EV.FREE, pfn: START, cpu: 0 }, { type: EV.PCP_ADD, pfn: START, cpu: 0, mt: MOVABLE }, { type: EV.PCP_DEL, pfn: START, cpu: 1, mt: MOVABLE }],
      /record 18: PCP_DEL .*not on cpu 1's pcp list/,
    );
  });
  it('a misaligned block or one outside the zone', () => {
    bad([...setup, { type: EV.BUDDY_DEL, pfn: START + 2, order: 2, mt: MOVABLE }], /record 6: .*not aligned to 4 pages/);
    bad([...setup, { type: EV.PAGEBLOCK_MT, pfn: START + 16, mt: 0 }], /record 6: .*outside the zone/);
    bad([...setup, { type: EV.BUDDY_DEL, pfn: START, order: 5, mt: MOVABLE }], /record 6: .*above the top order 4/);
  });
  it('a CPU the zone does not have, a second lock holder, a release without a hold', () => {
    bad([...setup, { type: EV.ACCESS, cpu: 2 }], /record 6: .*cpu 2 is not one of the zone's 2 CPUs/);
    bad([...setup, { type: EV.LOCK_ACQUIRE, cpu: 0 }, { type: EV.LOCK_ACQUIRE, cpu: 1 }], /record 7: .*already held by cpu 0/);
    bad([...setup, { type: EV.LOCK_RELEASE, cpu: 0 }], /record 6: .*does not hold/);
  });
  it('a second ZONE_INIT and zones beyond the limits', () => {
    bad([...setup, { type: EV.ZONE_INIT, arg0: 16, arg1: 1 }], /record 6: .*only be the first/);
    bad([{ type: EV.ZONE_INIT, arg0: 2 ** 30, arg1: 1, order: 10, flags: 9 }], /record 0: ZONE_INIT: 1073741824 pages/);
    bad([{ type: EV.ZONE_INIT, arg0: 16, arg1: 0, order: 4 }], /record 0: ZONE_INIT: 0 CPUs/);
    bad([{ type: EV.ZONE_INIT, arg0: 16, arg1: 1, order: 4, flags: 5 }], /pageblock_order 5 is above/);
  });
  it('allows set-up to hand out reserved pages (cpu none) but not a CPU', () => {
    expect(() => play([...setup.slice(0, 5), { type: EV.ALLOC, pfn: START, order: 0, cpu: CPU_NONE }])).not.toThrow();
    bad([...setup.slice(0, 5), { type: EV.ALLOC, pfn: START, order: 0, cpu: 0 }], /record 5: ALLOC/);
  });
});
