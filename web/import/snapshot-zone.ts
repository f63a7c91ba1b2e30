// A zone in the state a /proc/buddyinfo + /proc/zoneinfo snapshot describes, as an event log
// the player replays (docs/import.md, "Snapshots"). The snapshot gives counts, not places:
// nr_free per order, each CPU's pcp count, the zone's span. Where each block sits is made up
// here, by one fixed rule, and the app says so:
//
//   - free blocks are laid out from the zone's first pfn up, largest order first, each at its
//     natural alignment; a block below the top order gets a slot twice its size and its buddy
//     (the upper half) is left allocated, so no two free buddies sit side by side (the kernel
//     would have merged them);
//   - each CPU's pcp pages (order 0) come next;
//   - every other page is allocated (in use, reserved, or a hole: the snapshot does not say
//     which), in the largest aligned blocks that fit;
//   - every pageblock is MOVABLE (/proc/pagetypeinfo would say more).
import { CPU_NONE, EV, encodeEvents, type EventRecord } from '../engine/events';
import { LIMITS as PLAYER_LIMITS } from '../player/state';
import type { PcpSnapshot } from './procfs-parse';

export class SnapshotLayoutError extends Error {
  override name = 'SnapshotLayoutError';
}

export interface SnapshotZoneInput {
  /** the zone's first pfn (zoneinfo start_pfn; 0 without zoneinfo) */
  startPfn: number;
  /** pages spanned (zoneinfo spanned); undefined: just big enough for the layout */
  spanned?: number;
  nrFree: readonly number[];
  /** per CPU; empty: one CPU with an empty list */
  pcp: readonly PcpSnapshot[];
}

export interface SnapshotZone {
  log: ArrayBuffer;
  pages: number;
  cpus: number;
  /** pages laid out as free blocks and their allocated buddies */
  layoutPages: number;
}

const MOVABLE = 1;
const PAGEBLOCK_ORDER = 9;

const alignUp = (x: number, a: number) => Math.ceil(x / a) * a;

export function buildSnapshotZone(z: SnapshotZoneInput): SnapshotZone {
  const top = z.nrFree.length - 1;
  if (top < 0) throw new SnapshotLayoutError('no nr_free columns');
  const cpus = Math.max(1, z.pcp.length ? Math.max(...z.pcp.map((p) => p.cpu)) + 1 : 1);
  if (cpus > PLAYER_LIMITS.maxCpus) throw new SnapshotLayoutError(`${cpus} CPUs; the views hold at most ${PLAYER_LIMITS.maxCpus}`);
  const start = z.startPfn;
  const free: { pfn: number; order: number }[] = [];
  let cur = start;
  for (let o = top; o >= 0; o--) {
    const slot = 2 ** (o === top ? o : o + 1);
    for (let k = 0; k < z.nrFree[o]!; k++) {
      cur = alignUp(cur, slot);
      free.push({ pfn: cur, order: o });
      cur += slot;
      if (cur - start > PLAYER_LIMITS.maxPages) {
        throw new SnapshotLayoutError(
          `laying out nr_free without merging buddies needs more than ${PLAYER_LIMITS.maxPages.toLocaleString('en')} pages, the most the views hold (pages per replayed zone, docs/limits.md)`,
        );
      }
    }
  }
  const layoutPages = cur - start;
  const pcpPages = z.pcp.reduce((s, p) => s + p.count, 0);
  const needed = layoutPages + pcpPages;
  const pages = z.spanned ?? Math.max(1, needed);
  if (pages > PLAYER_LIMITS.maxPages) {
    throw new SnapshotLayoutError(
      `the zone spans ${pages.toLocaleString('en')} pages; the views hold at most ${PLAYER_LIMITS.maxPages.toLocaleString('en')} (pages per replayed zone, docs/limits.md). Its numbers are compared below; pick a smaller zone to see it on mem_map`,
    );
  }
  if (needed > pages) {
    throw new SnapshotLayoutError(
      `nr_free and the pcp counts need ${needed.toLocaleString('en')} pages laid out without merging buddies, but the zone spans ${pages.toLocaleString('en')}: the two files do not describe the same zone (or the zone is badly fragmented)`,
    );
  }
  const recs: Partial<EventRecord>[] = [];
  const at = (r: Partial<EventRecord>) => recs.push({ time: 0, cpu: CPU_NONE, ...r });
  const pbOrder = Math.min(PAGEBLOCK_ORDER, top);
  at({ type: EV.ZONE_INIT, pfn: start, order: top, flags: pbOrder, arg0: pages, arg1: cpus });
  const pb = 2 ** pbOrder;
  for (let p = Math.floor(start / pb) * pb; p < start + pages; p += pb) at({ type: EV.PAGEBLOCK_MT, pfn: p, mt: MOVABLE });
  for (const f of free) at({ type: EV.BUDDY_ADD, pfn: f.pfn, order: f.order, mt: MOVABLE, flags: 1 });
  // pcp pages: a page reaches a pcp list the way the kernel's do, freed by a CPU
  const taken: [number, number][] = free.map((f) => [f.pfn, f.pfn + 2 ** f.order]);
  let pfn = cur;
  for (const p of z.pcp) {
    for (let k = 0; k < p.count; k++, pfn++) {
      at({ type: EV.ALLOC, pfn, order: 0, mt: MOVABLE });
      at({ type: EV.FREE, pfn, order: 0, cpu: p.cpu });
      at({ type: EV.PCP_ADD, pfn, order: 0, cpu: p.cpu, mt: MOVABLE });
    }
  }
  if (pfn > cur) taken.push([cur, pfn]);
  // the rest is allocated, in the largest aligned blocks that fit each gap
  let from = start;
  const fill = (a: number, b: number) => {
    let p = a;
    while (p < b) {
      let o = top;
      while (o > 0 && (p % 2 ** o !== 0 || p + 2 ** o > b)) o--;
      at({ type: EV.ALLOC, pfn: p, order: o, mt: MOVABLE });
      p += 2 ** o;
    }
  };
  for (const [a, b] of taken) {
    fill(from, a);
    from = b;
  }
  fill(from, start + pages);
  return { log: encodeEvents(recs), pages, cpus, layoutPages };
}
