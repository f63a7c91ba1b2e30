import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decodeEvents } from '../engine/events';
import { Player } from '../player/player';
import { PAGE } from '../player/state';
import { prng } from '../testing/prng';
import { parseBuddyinfo, parseZoneinfo } from './procfs-parse';
import { SnapshotLayoutError, buildSnapshotZone } from './snapshot-zone';

const buddy = parseBuddyinfo(readFileSync('web/testing/procfs/buddyinfo.txt', 'utf8'));
const zones = parseZoneinfo(readFileSync('web/testing/procfs/zoneinfo.txt', 'utf8'));

function play(input: Parameters<typeof buildSnapshotZone>[0]) {
  const z = buildSnapshotZone(input);
  const p = new Player(decodeEvents(z.log));
  p.seek(p.length);
  return { z, p };
}

/** no two free blocks of one order are buddies: the kernel would have merged them */
function noFreeBuddies(p: Player): void {
  const s = p.state;
  for (let i = 0; i < s.geo.pages; i++) {
    if (s.pageState[i] !== PAGE.BUDDY || !(s.pageFlags[i]! & 1)) continue;
    const o = s.pageOrder[i]!;
    if (o === s.geo.maxOrder) continue;
    const buddy = ((i + s.geo.startPfn) ^ (1 << o)) - s.geo.startPfn;
    if (buddy < 0 || buddy >= s.geo.pages) continue;
    const mergeable = s.pageState[buddy] === PAGE.BUDDY && s.pageOrder[buddy] === o && s.pageFlags[buddy]! & 1;
    expect(mergeable, `pfn ${i + s.geo.startPfn} order ${o}`).toBeFalsy();
  }
}

describe('a zone from a snapshot', () => {
  it("this machine's DMA32: the player ends with the file's nr_free and pcp counts", () => {
    const b = buddy.find((x) => x.zone === 'DMA32')!;
    const zi = zones.find((x) => x.zone === 'DMA32')!;
    const { z, p } = play({ startPfn: zi.startPfn!, spanned: zi.spanned, nrFree: b.nrFree, pcp: zi.pcp });
    expect(z.pages).toBe(zi.spanned);
    expect(p.state.geo.startPfn).toBe(zi.startPfn);
    expect(Array.from({ length: b.nrFree.length }, (_, o) => p.state.nrFreeOrder(o))).toEqual(b.nrFree);
    expect(Array.from(p.state.pcpCount)).toEqual(zi.pcp.map((c) => c.count));
    // every page is placed: free, on a pcp list, or allocated; none unknown
    expect(p.state.pageState.includes(PAGE.UNKNOWN)).toBe(false);
    noFreeBuddies(p);
  });

  it('without zoneinfo: a zone just big enough, one CPU', () => {
    const { z, p } = play({ startPfn: 0, nrFree: [3, 0, 2, 1], pcp: [] });
    expect(z.pages).toBe(z.layoutPages);
    expect([0, 1, 2, 3].map((o) => p.state.nrFreeOrder(o))).toEqual([3, 0, 2, 1]);
    noFreeBuddies(p);
  });

  it('refuses what it cannot lay out, saying why', () => {
    const normal = zones.find((x) => x.zone === 'Normal')!;
    expect(() => buildSnapshotZone({ startPfn: normal.startPfn!, spanned: normal.spanned, nrFree: [1], pcp: [] })).toThrow(/the zone spans 5,505,024 pages; the views hold at most 4,194,304/);
    expect(() => buildSnapshotZone({ startPfn: 0, spanned: 10, nrFree: [0, 0, 0, 0, 1], pcp: [] })).toThrow(/need 16 pages .* but the zone spans 10/);
    expect(() => buildSnapshotZone({ startPfn: 0, nrFree: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 5000], pcp: [] })).toThrow(SnapshotLayoutError);
  });

  it('random snapshots lay out into logs the player accepts, with the same nr_free (seeded)', () => {
    const r = prng(11);
    for (let i = 0; i < 60; i++) {
      const orders = 1 + r.int(11);
      const nrFree = Array.from({ length: orders }, () => r.int(40));
      const pcp = Array.from({ length: 1 + r.int(4) }, (_, cpu) => ({ cpu, count: r.int(50), high: 100, batch: 10 }));
      const startPfn = r.int(5000);
      const { p } = play({ startPfn, nrFree, pcp, ...(r.int(2) ? { spanned: undefined } : {}) });
      expect(nrFree.map((_, o) => p.state.nrFreeOrder(o))).toEqual(nrFree);
      expect(Array.from(p.state.pcpCount)).toEqual(pcp.map((c) => c.count));
      noFreeBuddies(p);
    }
  });
});
