// The slab reducer: freelists rebuilt from SLAB_* records in the core's order, bad records
// named, and a real hackbench log from the native core replayed to the end.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CPU_NONE, EV, decodeEvents, encodeEvents, type EventRecord } from './events';
import { Player } from './player';
import { OBJ, SLAB_MAX_OBJECTS, SLAB_STAT, SlabState, applySlabEvent } from './slabstate';

const SLAB_PFN = 0x1200;
const BASE = SLAB_PFN * 4096; // object address - PAGE_OFFSET of object 0
const SIZE = 1024; // 4 objects per order-0 slab

function run(records: Partial<EventRecord>[]): SlabState {
  const log = decodeEvents(encodeEvents([{ type: EV.ZONE_INIT, pfn: 0x1000, arg0: 4096, arg1: 2, order: 10, flags: 9 }, ...records]));
  const s = new SlabState(2, 8);
  for (let i = 1; i < log.length; i++) applySlabEvent(s, log, i);
  return s;
}

const create: Partial<EventRecord> = { type: EV.SLAB_CACHE_CREATE, pfn: 4, order: 0, arg0: 0, arg1: SIZE, cpu: CPU_NONE };
const newSlab: Partial<EventRecord>[] = [
  { type: EV.SLAB_NEW, pfn: SLAB_PFN, cpu: 0, arg0: 0, arg1: 4 },
  { type: EV.SLAB_CPU_SLAB, pfn: SLAB_PFN, cpu: 0, arg0: 0, flags: 0, arg1: 4 },
];
const alloc = (k: number, cpu = 0): Partial<EventRecord> => ({ type: EV.SLAB_ALLOC, pfn: BASE + k * SIZE, cpu, arg0: 0 });

describe('slab reducer', () => {
  it('pops a new slab in address order and pushes fast-path frees LIFO', () => {
    const s = run([create, ...newSlab, alloc(0), alloc(1), { type: EV.SLAB_FREE, pfn: BASE, cpu: 0, arg0: 0 }]);
    expect(s.cpuFreelist(0, 0)).toEqual([0, 2, 3]);
    expect(s.objState[1]).toBe(OBJ.ALLOCATED);
    expect(s.stat(0, SLAB_STAT.ALLOC_FAST)).toBe(2);
    expect(s.stat(0, SLAB_STAT.FREE_FAST)).toBe(1);
  });

  it('puts remote frees on the slab and a refill moves them to the CPU', () => {
    const s = run([
      create,
      ...newSlab,
      alloc(0),
      alloc(1),
      alloc(2),
      alloc(3),
      { type: EV.SLAB_REMOTE_FREE, pfn: BASE + SIZE, cpu: 1, arg0: 0, arg1: 0 },
      { type: EV.SLAB_REMOTE_FREE, pfn: BASE + 3 * SIZE, cpu: 1, arg0: 0, arg1: 0 },
    ]);
    expect(s.slabFreelist(0)).toEqual([3, 1]);
    expect(s.cpuFreelist(0, 0)).toEqual([]);
    expect(Array.from(s.lastRemote)).toEqual([1, 0, BASE + 3 * SIZE, 9]);
    const log = decodeEvents(encodeEvents([{ type: EV.ZONE_INIT }, { type: EV.SLAB_CPU_SLAB, pfn: SLAB_PFN, cpu: 0, arg0: 0, flags: 2 }]));
    applySlabEvent(s, log, 1);
    expect(s.cpuFreelist(0, 0)).toEqual([3, 1]);
    expect(s.objState[3]).toBe(OBJ.CPU_FREE);
  });

  it('names records that break the rules', () => {
    expect(() => run([alloc(0)])).toThrow(/cache 0 was never created/);
    expect(() => run([create, ...newSlab, alloc(1)])).toThrow(/not the head/);
    expect(() => run([create, ...newSlab, alloc(0), { type: EV.SLAB_FREE, pfn: BASE + 8, cpu: 0, arg0: 0 }])).toThrow(/not an object/);
    expect(() =>
      run([create, ...newSlab, alloc(0), { type: EV.SLAB_REMOTE_FREE, pfn: BASE, cpu: 1, arg0: 0 }, { type: EV.SLAB_REMOTE_FREE, pfn: BASE, cpu: 1, arg0: 0 }]),
    ).toThrow(/not handed out/);
    expect(() => run([create, ...newSlab, alloc(0), { type: EV.SLAB_DISCARD, pfn: SLAB_PFN, cpu: 0, arg0: 0 }])).toThrow(/still handed out/);
    expect(() => run([{ ...create, pfn: SLAB_MAX_OBJECTS + 1 }])).toThrow(/objects per slab/);
  });
});

const BLAB = 'build/native/blab';
// make test-web builds the native CLI first: a missing binary is a failure, not a skip
describe('slab reducer on the real core', () => {
  it('replays a hackbench log to the end: every object freed, every slab given back', () => {
    expect(existsSync(BLAB)).toBe(true);
    const dir = mkdtempSync(join(tmpdir(), 'blab-slab-'));
    try {
      const file = join(dir, 'hb.bin');
      // a bare skb head per message (--data-size 0): one object allocated and remote-freed per
      // message, 2 groups x 80 loops of them
      execFileSync(BLAB, ['sim', '--workload', 'hackbench', '--groups', '2', '--loops', '80', '--data-size', '0', '--slub-prefetch', 'on', '--events', file]);
      const log = decodeEvents(readFileSync(file));
      const p = new Player(log);
      let sawFreelist = false;
      let sawRemote = false;
      for (let step = 1; step <= log.length; step += 97) {
        p.seek(step);
        const s = p.state.slab;
        if (s.cpuFreelist(0, 0).length > 1) sawFreelist = true;
        if (s.lastRemote[3]! >= 0) sawRemote = true;
      }
      p.seek(log.length);
      const s = p.state.slab;
      expect(sawFreelist).toBe(true);
      expect(sawRemote).toBe(true);
      let allocs = 0;
      let remote = 0;
      let hits = 0;
      for (let cpu = 0; cpu < 2; cpu++) {
        allocs += s.stat(cpu, SLAB_STAT.ALLOC_FAST) + s.stat(cpu, SLAB_STAT.ALLOC_SLOW);
        remote += s.stat(cpu, SLAB_STAT.REMOTE_FREE);
        hits += s.stat(cpu, SLAB_STAT.PREFETCH_HIT);
      }
      expect(allocs).toBe(160);
      expect(remote).toBe(160);
      expect(hits).toBeGreaterThan(0);
      expect(Array.from(s.slabPfn).every((pfn) => pfn < 0)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
