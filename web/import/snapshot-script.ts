// A /proc/buddyinfo (+ /proc/zoneinfo) zone as an op script for the C core: a `zone` line
// with the snapshot's span, CPUs and pcp batch/high, then `snapshot` lines with nr_free per
// order and each CPU's pcp count. The core lays the blocks out (blab_zone_create_snapshot(),
// docs/import.md "Snapshots"); this file only writes the numbers down and checks that the
// core and the player can hold them, so the rule lives in one place.
import { IMPORT_LIMITS } from '../scenario/limits';
import { LIMITS as PLAYER_LIMITS } from '../log/state';
import type { BuddyinfoZone, ZoneinfoZone } from './procfs-parse';

export class SnapshotScriptError extends Error {
  override name = 'SnapshotScriptError';
}

/** The core's bounds the script must stay inside (wasm-core/include/blab.h, docs/limits.md). */
export const SNAPSHOT_SCRIPT_LIMITS = {
  /** MAX_PAGE_ORDER the core models (BLAB_MAX_ORDER_LIMIT) */
  topOrder: 10,
  /** pages of a snapshot zone; a larger zone is cut to this (its allocated tail) */
  maxPages: IMPORT_LIMITS.maxSnapshotPages,
  maxCpus: PLAYER_LIMITS.maxCpus,
  /** the last pfn stays below 2^40 (BLAB_MAX_START_PFN) */
  maxEndPfn: 2 ** 40,
  /** op-script line length (BLAB_SCRIPT_MAX_LINE), kept well under */
  maxLine: 900,
  /** batch / high overrides on the zone line */
  maxBatch: 2 ** 20,
  maxHigh: 2 ** 24,
  /** event records reserved for the ops a user adds after the snapshot */
  logSlack: 65536,
  maxLog: 2 ** 26,
} as const;

export interface SnapshotScript {
  script: string;
  pages: number;
  /** the zone's span in the snapshot, when it was cut to `pages` */
  cutFrom?: number;
  cpus: number;
  startPfn: number;
  topOrder: number;
}

const PAGEBLOCK_ORDER = 9;

export function snapshotScript(b: BuddyinfoZone, zi: ZoneinfoZone | undefined, preset: string): SnapshotScript {
  const L = SNAPSHOT_SCRIPT_LIMITS;
  const nrFree = b.nrFree;
  if (nrFree.length === 0) throw new SnapshotScriptError('buddyinfo gives no nr_free columns');
  const topOrder = Math.min(nrFree.length - 1, L.topOrder);
  const above = nrFree.findIndex((n, o) => o > topOrder && n > 0);
  if (above >= 0) {
    throw new SnapshotScriptError(`${nrFree[above]} free blocks of order ${above}: the core models orders 0..${L.topOrder} (MAX_PAGE_ORDER ${L.topOrder})`);
  }
  const pcp = zi?.pcp ?? [];
  const cpus = pcp.length ? Math.max(...pcp.map((p) => p.cpu)) + 1 : 1;
  if (cpus > L.maxCpus) throw new SnapshotScriptError(`${cpus} CPUs; the core and the views hold at most ${L.maxCpus}`);
  const pcpPages = pcp.reduce((s, p) => s + p.count, 0);
  const startPfn = zi?.startPfn ?? 0;
  // without zoneinfo: a zone surely big enough (every block in a slot twice its size, plus
  // one top-order block of alignment); the core lays it out and allocates what is left
  const bound = nrFree.slice(0, topOrder + 1).reduce((s, n, o) => s + n * 2 ** Math.min(o + 1, topOrder), 0) + 2 ** topOrder + pcpPages;
  const span = zi ? zi.spanned : bound;
  if (span < 1) throw new SnapshotScriptError('the zone spans 0 pages');
  const pages = Math.min(span, L.maxPages);
  if (startPfn + pages > L.maxEndPfn) throw new SnapshotScriptError(`start_pfn ${startPfn} + ${pages} pages is past pfn 2^40, the core's bound`);

  const zone = [`zone pages=${pages}`, `start_pfn=${startPfn}`, `cpus=${cpus}`, `preset=${preset}`];
  if (topOrder !== L.topOrder) zone.push(`top_order=${topOrder}`);
  const cpu0 = pcp.find((p) => p.cpu === 0) ?? pcp[0];
  // the zone line takes one batch and high for every CPU, as the kernel sets them
  if (cpu0 && cpu0.batch >= 1 && cpu0.batch <= L.maxBatch) zone.push(`batch=${cpu0.batch}`);
  if (cpu0 && cpu0.high >= 1 && cpu0.high <= L.maxHigh) zone.push(`high=${cpu0.high}`);
  // room for the layout's records (a bound: one per pageblock, two per free block, three per
  // pcp page, the allocated tail) and for the ops the user goes on with
  const pbOrder = Math.min(PAGEBLOCK_ORDER, topOrder);
  const freeBlocks = nrFree.reduce((s, n) => s + n, 0);
  const log = 16 + Math.ceil(pages / 2 ** pbOrder) + 2 + 2 * freeBlocks + 3 * pcpPages + Math.ceil(pages / 2 ** topOrder) + 4 * (topOrder + 1) ** 2 + L.logSlack;
  zone.push(`log=${Math.min(log, L.maxLog)}`);

  const lines = [`# /proc/buddyinfo${zi ? ' + /proc/zoneinfo' : ''}: node ${b.node}, zone ${b.zone} (docs/import.md, "Snapshots")`];
  if (pages < span) lines.push(`# the zone spans ${span} pages; cut to its first ${pages}: the counts are the snapshot's, fewer pages are allocated`);
  lines.push(zone.join(' '), `snapshot nr_free=${nrFree.slice(0, topOrder + 1).join(',')}`);
  // pcp counts, split so that no line is too long for the op-script parser
  let pairs: string[] = [];
  const flush = () => {
    if (pairs.length) lines.push(`snapshot pcp=${pairs.join(',')}`);
    pairs = [];
  };
  for (const p of pcp) {
    if (p.count === 0) continue;
    const pair = `${p.cpu}:${p.count}`;
    if (14 + [...pairs, pair].join(',').length > L.maxLine) flush();
    pairs.push(pair);
  }
  flush();
  lines.push('buddyinfo', '');
  return { script: lines.join('\n'), pages, ...(pages < span ? { cutFrom: span } : {}), cpus, startPfn, topOrder };
}
