import { describe, expect, it } from 'vitest';
import { decodeEvents, encodeEvents, EV } from '../log/events';
import { Player } from '../log/player';
import { expand, mergeBack, setup, withTimes } from '../testing/zone16';
import { describeEvent } from '../log/describe';
import { buddyinfoText, cpuStatsText, prefetchFatesText, pagetypeText, zoneinfoText } from './procfs';
import { compactionLine } from './memmap';
import { gridColumns } from './memmap-image';

const log = decodeEvents(encodeEvents(withTimes([...setup, ...expand, ...mergeBack])));
const p = new Player(log);

describe('text panels', () => {
  it('prints /proc/buddyinfo as the kernel does (%6lu per order)', () => {
    p.seek(setup.length + expand.length);
    expect(buddyinfoText(p)).toBe('Node 0, zone   Normal      1      1      1      1      0');
    p.seek(log.length);
    expect(buddyinfoText(p)).toBe('Node 0, zone   Normal      0      0      0      0      1');
  });

  it('prints free pages per migratetype, zoneinfo and per-CPU stats', () => {
    p.seek(setup.length + expand.length);
    expect(pagetypeText(p).split('\n')[2]).toBe('MOVABLE            1     1     1     1     0');
    const zi = zoneinfoText(p, { high: 186, batch: 31, source: 'test' });
    expect(zi).toContain('pages free     15');
    expect(zi).toContain('start_pfn:           256 (0x100)');
    expect(zi).toContain('              high:  186');
    p.seek(log.length);
    expect(cpuStatsText(p).split('\n')[2]).toMatch(/^1 +running +1 +0 +0 +40$/);
  });

  it('puts every value of the "zone->lock and cache, per CPU" tables under its own heading', () => {
    p.seek(log.length);
    const locks = cpuStatsText(p);
    const [fates, cache] = prefetchFatesText(p).split('\n\n');
    for (const table of [locks, cache!.split('\n').slice(1).join('\n'), fates!.split('\n').slice(1).join('\n')]) {
      const [head, ...rows] = table.split('\n');
      const heads = head!.trim().split(/ +/);
      // each heading's right edge is where its column's values end (the first column: its left edge)
      const ends = [...head!.matchAll(/\S+/g)].map((m) => m.index + m[0].length);
      for (const r of rows) {
        const cells = [...r.matchAll(/\S+/g)];
        expect(cells.length, r).toBe(heads.length);
        cells.slice(1).forEach((c, i) => expect(c.index + c[0].length, `${heads[i + 1]} in "${r}"`).toBe(ends[i + 1]));
      }
    }
    // no access of this log was on the plain machine: no 'plain' column
    expect(cache!.split('\n')[1]).toBe('cpu  L1  L2  LLC  remote  memory');
    // every prefetch's fate, the columns adding up to issued
    expect(fates!.split('\n')[1]).toBe('cpu  issued  pf_hit  pf_late  pf_wasted  redundant  unread');
  });
});

describe('event descriptions use the kernel words', () => {
  const at = (type: number) => {
    for (let i = 0; i < log.length; i++) if (log.type[i] === type) return describeEvent(log, i);
    throw new Error('no such event');
  };
  it.each([
    [EV.ZONE_INIT, 'zone set-up: 16 pages from pfn 0x100, 2 CPUs, MAX_PAGE_ORDER 4, pageblock_order 2'],
    [EV.SPLIT, 'cpu 0: expand() halves the order-4 block at pfn 0x100; the upper half (pfn 0x108) goes to free_area[3]'],
    [EV.MERGE, 'cpu 1: __free_one_page() merges pfn 0x100 with its buddy (pfn ^ (1 << 0)) into an order-1 block'],
    [EV.BUDDY_DEL, 'cpu 0: block pfn 0x100 order 4 taken off free_area[4].free_list[MOVABLE]'],
    [EV.LOCK_ACQUIRE, 'cpu 1 takes zone->lock (uncontended)'],
    [EV.LOCK_RELEASE, 'cpu 1 drops zone->lock after holding it 40 cycles'],
  ])('type %i', (type, text) => {
    expect(at(type)).toBe(text);
  });
});

describe('mem_map grid', () => {
  it('uses a power-of-two column count near sqrt(pages)', () => {
    expect(gridColumns(16)).toBe(4);
    expect(gridColumns(4096)).toBe(64);
    expect(gridColumns(262144)).toBe(512);
    expect(gridColumns(1000)).toBe(32);
  });
});

describe('mem_map hover text', () => {
  it('names PageBuddy on the head page only, and the buddy pfn', async () => {
    const { pageDescription } = await import('./memmap');
    p.seek(setup.length + expand.length);
    expect(pageDescription(p.state, 0x108)).toEqual([
      'pfn 0x108 (264) · struct page at vmemmap + 0x4200',
      'state: free (buddy)',
      'PageBuddy, buddy_order = 3: on free_area[3].free_list[MOVABLE]',
      'buddy of the block: pfn 0x100 (pfn ^ (1 << 3))',
      'pageblock 2: MOVABLE',
    ]);
    expect(pageDescription(p.state, 0x10a)[2]).toBe(
      'inside the free order-3 block at pfn 0x108 (PageBuddy is on its first page only)',
    );
    expect(pageDescription(p.state, 0x100)[2]).toBe('order 0, allocated by cpu 0');
    expect(pageDescription(p.state, 0x200)).toEqual(['pfn 0x200 is outside the zone']);
  });
});

describe('the compaction line under mem_map', () => {
  it('names every CPU compacting, its order, scanner and counts; empty when none runs', () => {
    const recs = withTimes([
      ...setup,
      ...expand,
      { type: EV.COMPACT_BEGIN, order: 3, cpu: 0, arg0: 1 },
      { type: EV.COMPACT_BEGIN, order: 4, cpu: 1, arg0: 1 },
      { type: EV.COMPACT_SCAN, pfn: 0x104, cpu: 1, arg0: 2, arg1: 4 },
      { type: EV.COMPACT_END, order: 3, cpu: 0, arg0: 0 },
    ]);
    const q = new Player(decodeEvents(encodeEvents(recs)));
    const base = setup.length + expand.length;
    expect(compactionLine(q.seek(base))).toBe('');
    expect(compactionLine(q.seek(base + 3))).toBe(
      'compacting on 2 CPUs: cpu 0 (order 3, scanner not started, 0 merged, 0 migrated); ' +
        'cpu 1 (order 4, scanner at pageblock 0x104, 2 merged, 0 migrated)',
    );
    expect(compactionLine(q.seek(base + 4))).toBe('compacting on 1 CPU: cpu 1 (order 4, scanner at pageblock 0x104, 2 merged, 0 migrated)');
  });
});
