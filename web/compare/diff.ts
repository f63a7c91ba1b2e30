// The compare view's diff table: one row per measure, one column per configuration, then each
// configuration's change against the first. The counters come from the core's stats line;
// fragmentation is read off the replayed zone at the end of the run.
import type { ZoneState } from '../player/state';
import { acqPerPage, holdPerAcq, type SimStats } from '../engine/simstats';
import { signedPct } from '../lessons/compute';

/** Unusable free space index (Gorman): the share of free buddy memory in blocks below `order`. */
export function unusableIndex(s: ZoneState, order: number): number {
  const free = s.freePages();
  if (free === 0) return 0;
  let big = 0;
  for (let o = order; o < s.nrOrders; o++) big += s.nrFreeOrder(o) * 2 ** o;
  return (free - big) / free;
}

export interface DiffColumn {
  label: string;
  stats: SimStats;
  /** unusable free space index at pageblock_order at the end of the run, 0..1 */
  fragmentation: number;
}

interface Measure {
  name: string;
  value: (c: DiffColumn) => number;
  digits: number;
}

/** score: what the workload's score counts (COMPARE_WORKLOADS), for the first row's name */
export const measures = (score = 'pages faulted / s'): Measure[] => [
  { name: `throughput (${score})`, value: (c) => c.stats.score, digits: 0 },
  { name: 'zone->lock contention (% of time spinning)', value: (c) => c.stats.zoneBp / 100, digits: 2 },
  { name: 'zone->lock acquisitions per page', value: (c) => acqPerPage(c.stats), digits: 3 },
  { name: 'zone->lock hold (cycles per acquisition)', value: (c) => holdPerAcq(c.stats), digits: 0 },
  { name: 'cache misses under zone->lock', value: (c) => c.stats.missesLocked, digits: 0 },
  { name: 'buddy prefetch hits', value: (c) => c.stats.pfHit, digits: 0 },
  { name: 'fragmentation (unusable free space at pageblock_order)', value: (c) => c.fragmentation, digits: 3 },
];

export const MEASURES: Measure[] = measures();

export function diffRows(cols: DiffColumn[], score?: string): string[][] {
  const head = ['measure', ...cols.map((c) => c.label), ...cols.slice(1).map((c) => `${c.label} vs ${cols[0]!.label}`)];
  const rows = measures(score).map((m) => {
    const vals = cols.map(m.value);
    const base = vals[0]!;
    const fmt = (v: number) => (m.digits === 0 ? Math.round(v).toLocaleString('en') : v.toFixed(m.digits));
    const delta = (v: number) => (base === 0 ? (v === 0 ? '±0.0%' : 'n/a') : signedPct(((v - base) / base) * 100));
    return [m.name, ...vals.map(fmt), ...vals.slice(1).map(delta)];
  });
  return [head, ...rows];
}
