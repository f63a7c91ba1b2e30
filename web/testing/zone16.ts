// TEST FIXTURE ONLY: hand-reasoned logs for a 16-page zone (orders 0..4, pageblock_order 2,
// two CPUs). Never shown by the app as a result.

import { CPU_NONE, EV, FLAG, type EventRecord } from '../log/events';

export const MOVABLE = 1;
export const START = 0x100;

export const zoneInit: Partial<EventRecord> = {
  type: EV.ZONE_INIT,
  pfn: START,
  order: 4,
  flags: 2,
  arg0: 16,
  arg1: 2,
  cpu: CPU_NONE,
};

/** Set-up: four pageblocks MOVABLE, one free order-4 block. */
export const setup: Partial<EventRecord>[] = [
  zoneInit,
  ...[0, 4, 8, 12].map((o) => ({ type: EV.PAGEBLOCK_MT, pfn: START + o, mt: MOVABLE })),
  { type: EV.BUDDY_ADD, pfn: START, order: 4, mt: MOVABLE, flags: FLAG.TAIL },
];

/** cpu 0 allocates one order-0 page: expand() from order 4 down to 0. */
export const expand: Partial<EventRecord>[] = [
  { type: EV.BUDDY_DEL, pfn: START, order: 4, mt: MOVABLE, cpu: 0 },
  { type: EV.SPLIT, pfn: START, order: 3, cpu: 0 },
  { type: EV.BUDDY_ADD, pfn: START + 8, order: 3, mt: MOVABLE, cpu: 0 },
  { type: EV.SPLIT, pfn: START, order: 2, cpu: 0 },
  { type: EV.BUDDY_ADD, pfn: START + 4, order: 2, mt: MOVABLE, cpu: 0 },
  { type: EV.SPLIT, pfn: START, order: 1, cpu: 0 },
  { type: EV.BUDDY_ADD, pfn: START + 2, order: 1, mt: MOVABLE, cpu: 0 },
  { type: EV.SPLIT, pfn: START, order: 0, cpu: 0 },
  { type: EV.BUDDY_ADD, pfn: START + 1, order: 0, mt: MOVABLE, cpu: 0 },
  { type: EV.ALLOC, pfn: START, order: 0, cpu: 0 },
];

/** cpu 1 frees it straight to the buddy lists: __free_one_page() merges back to order 4. */
export const mergeBack: Partial<EventRecord>[] = [
  { type: EV.FREE, pfn: START, order: 0, cpu: 1 },
  { type: EV.LOCK_ACQUIRE, cpu: 1, mt: 0, arg0: 0 },
  { type: EV.MERGE, pfn: START, order: 0, cpu: 1, arg0: 1 },
  { type: EV.BUDDY_DEL, pfn: START + 1, order: 0, mt: MOVABLE, cpu: 1 },
  { type: EV.MERGE, pfn: START, order: 1, cpu: 1, arg0: 2 },
  { type: EV.BUDDY_DEL, pfn: START + 2, order: 1, mt: MOVABLE, cpu: 1 },
  { type: EV.MERGE, pfn: START, order: 2, cpu: 1, arg0: 4 },
  { type: EV.BUDDY_DEL, pfn: START + 4, order: 2, mt: MOVABLE, cpu: 1 },
  { type: EV.MERGE, pfn: START, order: 3, cpu: 1, arg0: 8 },
  { type: EV.BUDDY_DEL, pfn: START + 8, order: 3, mt: MOVABLE, cpu: 1 },
  { type: EV.BUDDY_ADD, pfn: START, order: 4, mt: MOVABLE, cpu: 1 },
  { type: EV.LOCK_RELEASE, cpu: 1, mt: 0, arg0: 40 },
];

export function withTimes(recs: Partial<EventRecord>[]): Partial<EventRecord>[] {
  return recs.map((r, i) => ({ time: i * 10, ...r }));
}
