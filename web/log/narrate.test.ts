// The lesson player's sentence for the current record: read off the record itself, with the
// cause first, in the kernel's words; and where a zone's set-up ends.
import { describe, expect, it } from 'vitest';
import { CPU_NONE, EV, FLAG, decodeEvents, encodeEvents, type EventRecord } from './events';
import { narrate } from './narrate';
import { describeEvent } from './describe';
import { afterSetup } from './setup';
import { expand, mergeBack, setup, START, zoneInit } from '../testing/zone16';

const log = (recs: Partial<EventRecord>[]) => decodeEvents(encodeEvents(recs));

describe('narrate', () => {
  it('tells a drain by the list that reached high, with the pages it returns', () => {
    const l = log([zoneInit, { type: EV.PCP_DRAIN, cpu: 3, arg0: 31, arg1: 186 }, { type: EV.PCP_DRAIN, cpu: 3, flags: FLAG.END, arg0: 31, arg1: 155 }]);
    expect(narrate(l, 1, { pcp: { high: 186, batch: 31 } })).toBe("CPU 3's list reached high = 186: free_pcppages_bulk() returns 31 pages to the buddy.");
    // without the run's high, the count the record carries
    expect(narrate(l, 1)).toBe("CPU 3's list reached high (count 186): free_pcppages_bulk() returns 31 pages to the buddy.");
    expect(narrate(l, 2)).toBe('CPU 3: free_pcppages_bulk() is done; the pcp list holds 155 pages again.');
  });

  it("tells drain_pages() and decay_pcp_high() by their own cause, and a 6.7+ free by the high nr_pcp_high() holds it to, never one high of the run", () => {
    const l = log([
      zoneInit,
      { type: EV.PCP_DRAIN, cpu: 0, path: 14, arg0: 1200, arg1: 4200 }, // BLAB_PATH_DECAY
      { type: EV.PCP_DRAIN, cpu: 1, path: 12, arg0: 40, arg1: 40 }, // BLAB_PATH_DRAIN
      { type: EV.PCP_DRAIN, cpu: 1, path: 4, arg0: 150, arg1: 150 }, // BLAB_PATH_FREE_FAST
    ]);
    expect(narrate(l, 1, { pcp: { high: 186 }, movingHigh: true })).toBe("decay_pcp_high() has lowered CPU 0's high below the 4,200 pages on its list: free_pcppages_bulk() returns 1,200 of them to the buddy.");
    expect(narrate(l, 2, { pcp: { high: 186 } })).toBe("drain_pages() empties CPU 1's pcp list: free_pcppages_bulk() returns its 40 pages to the buddy.");
    // 6.7's free_high free drains a list whatever its pcp->high: nr_pcp_high() returned 0
    expect(narrate(l, 3, { pcp: { high: 2 }, movingHigh: true })).toBe('CPU 1 frees a page onto a list of 150, at or over the high nr_pcp_high() holds it to now: free_pcppages_bulk() returns 150 pages to the buddy.');
    expect(describeEvent(l, 1)).toBe('cpu 0: decay_pcp_high(): free_pcppages_bulk() drains 1200 pages (count 4200, over the lowered high)');
    expect(describeEvent(l, 2)).toBe('cpu 1: drain_pages(): free_pcppages_bulk() drains all 40 pages (count 40)');
    // 6.10+ drains a list batch << 5 pages at a time
    const chunk = log([zoneInit, { type: EV.PCP_DRAIN, cpu: 1, path: 12, arg0: 2016, arg1: 5985 }]);
    expect(narrate(chunk, 1)).toBe("drain_pages() empties CPU 1's pcp list a chunk at a time (6.10+): free_pcppages_bulk() returns 2,016 of its 5,985 pages to the buddy, then pcp->lock is dropped and taken again for the rest.");
    expect(describeEvent(chunk, 1)).toBe('cpu 1: drain_pages(): free_pcppages_bulk() drains 2016 of the 5985 pages, one chunk under this pcp->lock hold');
    expect(describeEvent(l, 3)).toBe('cpu 1: free_pcppages_bulk() drains 150 pages (count 150 at or over high)');
  });

  it('tells a refill, a split and a merge from their fields', () => {
    const l = log([...setup, ...expand, ...mergeBack, { type: EV.RMQUEUE_BULK, cpu: 2, arg0: 31 }]);
    const split = l.type.indexOf(EV.SPLIT);
    expect(narrate(l, split)).toBe('CPU 0: expand() halves the order-4 block at pfn 0x100; its upper half, pfn 0x108, goes on free_area[3].');
    const merge = l.type.indexOf(EV.MERGE);
    expect(narrate(l, merge)).toBe('CPU 1: __free_one_page() finds the buddy of pfn 0x100, pfn 0x101 = 0x100 ^ (1 << 0), free: the two join into an order-1 block at pfn 0x100.');
    expect(narrate(l, l.length - 1)).toBe("CPU 2's pcp list has no page of order 0: rmqueue_bulk() takes zone->lock once and moves batch = 31 blocks from the buddy onto it.");
  });

  it("tells 2002's split by the lower half it lists and the upper half it cuts further", () => {
    const l = log([zoneInit, { type: EV.SPLIT, cpu: 0, pfn: START, order: 3, flags: FLAG.SPLIT_TOP }]);
    expect(narrate(l, 1)).toBe("CPU 0: expand() halves the order-4 block at pfn 0x100; its lower half, pfn 0x100, goes on free_area[3] (2002's expand() keeps the upper half, pfn 0x108).");
    expect(describeEvent(l, 1)).toBe('cpu 0: expand() halves the order-4 block at pfn 0x100; the lower half (pfn 0x100) goes to free_area[3]');
  });

  it('tells prefetch hits, late prefetches and wasted ones apart', () => {
    const l = log([
      zoneInit,
      { type: EV.ACCESS, cpu: 1, pfn: START + 2, flags: 5, arg0: 4 },
      { type: EV.ACCESS, cpu: 1, pfn: START + 3, flags: 6, arg0: 120 },
      { type: EV.PREFETCH_WASTED, cpu: 1, pfn: START + 4 },
      { type: EV.LOCK_ACQUIRE, cpu: 0, mt: 0, arg0: 900 },
    ]);
    expect(narrate(l, 1)).toMatch(/prefetch landed in time, a prefetch hit \(4 cycles\)/);
    expect(narrate(l, 2)).toMatch(/late prefetch: the CPU waits the remaining 120 cycles/);
    expect(narrate(l, 3)).toBe("CPU 1's prefetch of pfn 0x104 was wasted: the line was evicted before anyone read it.");
    expect(narrate(l, 4)).toBe('CPU 0 spun 900 cycles behind another CPU, then takes zone->lock.');
  });

  it('falls back to describe.ts as one capitalised sentence, and says so before the first record', () => {
    const l = log([...setup, ...expand]);
    expect(narrate(l, l.length - 1)).toBe('CPU 0: block pfn 0x100 order 0 handed to the caller.');
    expect(narrate(l, undefined)).toMatch(/^Nothing has happened yet/);
  });
});

describe('afterSetup', () => {
  it('ends after the set-up records (cpu 0xffff or path ZONE_INIT), before the first CPU acts', () => {
    const s = setup.map((r) => ({ ...r, cpu: CPU_NONE }));
    expect(afterSetup(log([...s, ...expand]))).toBe(s.length);
    expect(afterSetup(log([zoneInit]))).toBe(1);
  });
});
