// The compare view's diff table: one row per measure, one column per configuration (the mean
// over its seeds, with min..max), then each configuration's change against the first, with
// which way is better and whether the change is inside the seeds' spread. The rows depend on
// the workload (hackbench: SLUB's paths and freelist prefetches; stress_highalloc: the order-9
// attempts). Every value is a counter of the measured runs' stats lines, or a ratio of two.
import type { ZoneState } from '../log/state';
import { acqPerPage, holdPerAcq, type SimStats } from '../engine/simstats';
import { insideSpread, spreadOf, type Spread } from '../engine/spread';
import { signedPct, WITHIN_SPREAD } from '../lessons/compute';
import { COMPARE_WORKLOADS, type Better, type CompareWorkload, type CompareWorkloadSpec } from './url';

/** Unusable free space index (Gorman): the share of free buddy memory in blocks below `order`
 * (the page says it of each replayed zone at its end). */
export function unusableIndex(s: ZoneState, order: number): number {
  const free = s.freePages();
  if (free === 0) return 0;
  let big = 0;
  for (let o = order; o < s.nrOrders; o++) big += s.nrFreeOrder(o) * 2 ** o;
  return (free - big) / free;
}

export interface DiffColumn {
  label: string;
  /** the measured runs' counters, one per seed */
  stats: SimStats[];
}

export interface Measure {
  name: string;
  /** undefined: the core did not print it for this run (shown as n/a, never guessed) */
  value: (s: SimStats) => number | undefined;
  digits: number;
  /** which way is better; null where neither is (a count that only says what happened) */
  better: Better | null;
}

const ratio = (a: number | undefined, b: number | undefined) => (a === undefined || b === undefined ? undefined : b ? a / b : 0);

const zoneRows: Measure[] = [
  { name: 'zone->lock contention (% of time spinning)', value: (s) => s.zoneBp / 100, digits: 2, better: 'lower' },
  { name: 'zone->lock acquisitions per page', value: acqPerPage, digits: 3, better: 'lower' },
  { name: 'zone->lock hold (cycles per acquisition)', value: holdPerAcq, digits: 0, better: 'lower' },
];
const lruRow: Measure = { name: 'lru_lock contention (% of time spinning)', value: (s) => s.lruBp / 100, digits: 2, better: 'lower' };
/** the high-order side of stress_highalloc and mixed: the core's hi_* counters */
const hiRows: Measure[] = [
  { name: 'order-9 attempts', value: (s) => s.hiAttempts, digits: 0, better: null },
  { name: 'order-9 blocks got', value: (s) => s.hiSuccess, digits: 0, better: 'higher' },
  { name: 'cycles per attempt (compaction included)', value: (s) => ratio(s.hiCycles, s.hiAttempts), digits: 0, better: 'lower' },
  { name: 'compactions run', value: (s) => s.hiCompactions, digits: 0, better: 'lower' },
  { name: 'merge-skipped pages compaction merged back', value: (s) => s.hiMerged, digits: 0, better: null },
  { name: 'unusable free space index at order 9 before the attempts', value: (s) => (s.hiUnusable === undefined ? undefined : s.hiUnusable / 1000), digits: 3, better: 'lower' },
];

/**
 * The rows that make sense for a workload: its score first (the core's, in its unit), then
 * what explains it. Every value is a counter the core printed, or a ratio of two of them.
 */
export function measures(workload: CompareWorkload = 'page_fault1'): Measure[] {
  const w: CompareWorkloadSpec = COMPARE_WORKLOADS[workload];
  const score: Measure = { name: `throughput (${w.score})`, value: (s) => s.score, digits: 0, better: w.better };
  switch (workload) {
    case 'hackbench':
      return [
        score,
        { name: "time until the last message is read (cycles, hackbench's Time:)", value: (s) => s.elapsed, digits: 0, better: 'lower' },
        { name: 'slab allocations, fast path (ALLOC_FASTPATH)', value: (s) => s.slabAllocFast, digits: 0, better: null },
        { name: 'slab allocations, slow path (ALLOC_SLOWPATH)', value: (s) => s.slabAllocSlow, digits: 0, better: 'lower' },
        { name: 'slab frees, fast path (FREE_FASTPATH)', value: (s) => s.slabFreeFast, digits: 0, better: null },
        { name: 'slab frees, slow path (FREE_SLOWPATH)', value: (s) => s.slabFreeSlow, digits: 0, better: 'lower' },
        { name: 'remote frees', value: (s) => s.slabFreeRemote, digits: 0, better: null },
        { name: 'freelist prefetches (prefetch_freepointer)', value: (s) => s.slabPrefetch, digits: 0, better: null },
        { name: 'prefetch hits (line there in time)', value: (s) => s.slabPfHit, digits: 0, better: 'higher' },
        { name: 'prefetch late (still in flight)', value: (s) => s.slabPfLate, digits: 0, better: 'lower' },
        { name: 'prefetch wasted (never used)', value: (s) => s.slabPfWasted, digits: 0, better: 'lower' },
      ];
    case 'stress_highalloc':
      return [{ ...score, name: `order-9 success (${w.score})` }, ...hiRows, zoneRows[0]!];
    case 'mixed':
      return [score, ...zoneRows, lruRow, ...hiRows];
    default:
      return [
        score,
        ...zoneRows,
        { name: 'cache misses under zone->lock', value: (s) => s.missesLocked, digits: 0, better: 'lower' },
        { name: 'buddy prefetch hits', value: (s) => s.pfHit, digits: 0, better: null },
        lruRow,
      ];
  }
}

/** The % change against the first column, and whether that is better or worse. */
export function delta(v: number | undefined, base: number | undefined, better: Better | null): string {
  if (v === undefined || base === undefined) return 'n/a';
  if (base === 0) return v === 0 ? '±0.0%' : 'n/a';
  const pct = ((v - base) / base) * 100;
  const text = signedPct(pct);
  if (better === null || text === '±0.0%') return text;
  return `${text} ${(pct > 0) === (better === 'higher') ? 'better' : 'worse'}`;
}

/** A measure over a column's seeds; undefined where a run lacks it. */
export function measureSpread(m: Measure, c: DiffColumn): Spread | undefined {
  const vals = c.stats.map(m.value);
  return vals.some((v) => v === undefined) ? undefined : spreadOf(vals as number[]);
}

/** delta() of the means, saying so when the two columns' seeds overlap. */
export function spreadDelta(v: Spread | undefined, base: Spread | undefined, better: Better | null): string {
  const d = delta(v?.mean, base?.mean, better);
  return v && base && d !== 'n/a' && insideSpread(base, v) ? `${d} (${WITHIN_SPREAD})` : d;
}

export function formatMeasure(m: Measure, v: number | undefined): string {
  return v === undefined ? 'n/a' : m.digits === 0 ? Math.round(v).toLocaleString('en') : v.toFixed(m.digits);
}

/**
 * Head row: measure, which way is better, each configuration (its mean; `spread`: then its
 * min and max, for the CSV), each one against the first.
 */
export function diffRows(cols: DiffColumn[], workload: CompareWorkload = 'page_fault1', spread = false): string[][] {
  const head = ['measure', 'better'];
  for (const c of cols) head.push(...(spread ? [c.label, `${c.label} min`, `${c.label} max`] : [c.label]));
  head.push(...cols.slice(1).map((c) => `${c.label} vs ${cols[0]!.label}`));
  const rows = measures(workload).map((m) => {
    const vals = cols.map((c) => measureSpread(m, c));
    const cells = vals.flatMap((v) => (spread ? [v?.mean, v?.min, v?.max] : [v?.mean]).map((x) => formatMeasure(m, x)));
    return [m.name, m.better ?? '—', ...cells, ...vals.slice(1).map((v) => spreadDelta(v, vals[0], m.better))];
  });
  return [head, ...rows];
}
