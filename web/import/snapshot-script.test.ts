// The snapshot panel's op script (snapshot-script.ts) from the committed /proc fixtures, and
// that script run by the real core (the Node WASM build, as the engine worker runs it): the
// player ends with the file's nr_free and pcp counts, every page placed, no two free buddies
// side by side. The layout rule itself is the core's (test_snapshot.c checks it there).
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { replayScript, type BlabFactory, type BlabModule } from '../engine/blab-module';
import { decodeEvents } from '../log/events';
import { Player } from '../log/player';
import { PAGE } from '../log/state';
import { prng } from '../testing/prng';
import { parseBuddyinfo, parseZoneinfo, type ZoneinfoZone } from './procfs-parse';
import { SNAPSHOT_SCRIPT_LIMITS, SnapshotScriptError, snapshotScript } from './snapshot-script';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const modulePath = join(root, 'build', 'wasm', 'node', 'blab.js');
const buddy = parseBuddyinfo(readFileSync(join(root, 'web/testing/procfs/buddyinfo.txt'), 'utf8'));
const zones = parseZoneinfo(readFileSync(join(root, 'web/testing/procfs/zoneinfo.txt'), 'utf8'));
const B = (zone: string) => buddy.find((x) => x.zone === zone)!;
const Z = (zone: string) => zones.find((x) => x.zone === zone)!;

let m: BlabModule;
beforeAll(async () => {
  if (!existsSync(modulePath)) throw new Error(`${modulePath} is missing: run "make wasm" first`);
  m = await (createRequire(import.meta.url)(modulePath) as BlabFactory)({ noInitialRun: true });
});

function runInCore(script: string) {
  const r = replayScript(m, script);
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  const p = new Player(decodeEvents(r.events));
  p.seek(p.length);
  return { r, p };
}

/** no two free blocks of one order are buddies: the kernel would have merged them */
function noFreeBuddies(p: Player): void {
  const s = p.state;
  for (let i = 0; i < s.geo.pages; i++) {
    if (s.pageState[i] !== PAGE.BUDDY || !(s.pageFlags[i]! & 1)) continue;
    const o = s.pageOrder[i]!;
    if (o === s.geo.maxOrder) continue;
    const buddyIdx = ((i + s.geo.startPfn) ^ (1 << o)) - s.geo.startPfn;
    if (buddyIdx < 0 || buddyIdx >= s.geo.pages) continue;
    const mergeable = s.pageState[buddyIdx] === PAGE.BUDDY && s.pageOrder[buddyIdx] === o && s.pageFlags[buddyIdx]! & 1;
    expect(mergeable, `pfn ${i + s.geo.startPfn} order ${o}`).toBeFalsy();
  }
}

describe('the snapshot op script', () => {
  it("this machine's DMA32: the zone line carries span, start, CPUs and pcp batch/high; nr_free as buddyinfo's columns", () => {
    const s = snapshotScript(B('DMA32'), Z('DMA32'), 'v5.18');
    const lines = s.script.split('\n');
    expect(lines[1]).toMatch(/^zone pages=1044480 start_pfn=4096 cpus=2 preset=v5.18 batch=63 high=4392 log=\d+$/);
    expect(lines[2]).toBe(`snapshot nr_free=${B('DMA32').nrFree.join(',')}`);
    expect(lines.some((l) => l.startsWith('snapshot pcp='))).toBe(false); // both lists empty
    expect(s.cutFrom).toBeUndefined();
  });

  it('DMA32 in the core: the player ends with the snapshot nr_free, every page placed, buddies apart', () => {
    const { p } = runInCore(snapshotScript(B('DMA32'), Z('DMA32'), 'v5.18').script);
    expect(p.state.geo.startPfn).toBe(4096);
    expect(p.state.geo.pages).toBe(1044480);
    expect(B('DMA32').nrFree.map((_, o) => p.state.nrFreeOrder(o))).toEqual(B('DMA32').nrFree);
    expect(p.state.pageState.includes(PAGE.UNKNOWN)).toBe(false);
    noFreeBuddies(p);
  }, 30_000);

  it('Normal (5,505,024 pages) is cut to 2,097,152 pages, and keeps its pcp counts', () => {
    const s = snapshotScript(B('Normal'), Z('Normal'), 'v5.18');
    expect(s.pages).toBe(SNAPSHOT_SCRIPT_LIMITS.maxPages);
    expect(s.cutFrom).toBe(5505024);
    expect(s.script).toContain('# the zone spans 5505024 pages; cut to its first 2097152');
    expect(s.script).toContain('\nsnapshot pcp=0:18679,1:16228\n');
    const { p } = runInCore(s.script);
    expect(B('Normal').nrFree.map((_, o) => p.state.nrFreeOrder(o))).toEqual(B('Normal').nrFree);
    expect(Array.from(p.state.pcpCount)).toEqual([18679, 16228]);
  }, 30_000);

  it('without zoneinfo: one CPU from pfn 0, a zone big enough for the core to lay out', () => {
    const s = snapshotScript(B('DMA'), undefined, 'v4.16');
    expect(s.script.split('\n')[1]).toMatch(/^zone pages=\d+ start_pfn=0 cpus=1 preset=v4.16 log=\d+$/);
    const { p } = runInCore(s.script + 'alloc order=3 cpu=0\ncheck\n');
    expect(p.state.nrFreeOrder(10)).toBe(3);
  });

  it('random snapshots run in the core with the same nr_free and pcp counts (seeded)', () => {
    const r = prng(11);
    for (let i = 0; i < 20; i++) {
      const orders = 1 + r.int(11);
      const nrFree = Array.from({ length: orders }, () => r.int(40));
      const pcp = Array.from({ length: 1 + r.int(4) }, (_, cpu) => ({ cpu, count: r.int(50), high: 100, batch: 10 }));
      const zi = r.int(2) ? ({ ...Z('DMA32'), startPfn: r.int(5000), spanned: 150000, pcp } as ZoneinfoZone) : undefined;
      const { p } = runInCore(snapshotScript({ node: 0, zone: 'Normal', nrFree, line: 1 }, zi, 'v5.18').script);
      expect(nrFree.map((_, o) => p.state.nrFreeOrder(o))).toEqual(nrFree);
      if (zi) expect(Array.from(p.state.pcpCount)).toEqual(pcp.map((c) => c.count));
      noFreeBuddies(p);
    }
  }, 60_000);

  it('256 CPUs of pcp counts are split over lines the op-script parser takes', () => {
    const pcp = Array.from({ length: 256 }, (_, cpu) => ({ cpu, count: 100 + cpu, high: 2000, batch: 63 }));
    const zi = { ...Z('DMA32'), startPfn: 0, spanned: 1 << 20, pcp } as ZoneinfoZone;
    const s = snapshotScript(B('DMA32'), zi, 'v5.18');
    const pcpLines = s.script.split('\n').filter((l) => l.startsWith('snapshot pcp='));
    expect(pcpLines.length).toBeGreaterThan(1);
    for (const l of s.script.split('\n')) expect(l.length).toBeLessThanOrEqual(1024);
    const { p } = runInCore(s.script);
    expect(Array.from(p.state.pcpCount)).toEqual(pcp.map((c) => c.count));
  }, 30_000);

  it('refuses what the core cannot hold, saying why; the core refuses what does not fit', () => {
    const nrFree = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2];
    expect(() => snapshotScript({ node: 0, zone: 'Normal', nrFree, line: 1 }, undefined, 'v5.18')).toThrow(/2 free blocks of order 11: the core models orders 0..10/);
    const many = { ...Z('DMA32'), pcp: [{ cpu: 300, count: 0, high: 0, batch: 1 }] } as ZoneinfoZone;
    expect(() => snapshotScript(B('DMA32'), many, 'v5.18')).toThrow(SnapshotScriptError);
    const small = { ...Z('DMA32'), startPfn: 0, spanned: 10, pcp: [] } as ZoneinfoZone;
    const r = replayScript(m, snapshotScript({ node: 0, zone: 'DMA', nrFree: [0, 0, 0, 0, 1], line: 1 }, small, 'v5.18').script);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/snapshot: the free blocks .* need 16 pages, but the zone has pages=10/);
  });
});
