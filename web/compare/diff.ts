// The compare view's diff table: one row per measure, one column per configuration, then each
// configuration's change against the first, with which way is better. The rows depend on the
// workload (hackbench: SLUB's paths and freelist prefetches; stress_highalloc: the order-9
// attempts). The counters are the run's (simstats.ts); fragmentation at the end is read
// off the replayed zone at the end of the run.
import type { ZoneState } from '../log/state';
import { acqPerPage, holdPerAcq, type SimStats } from '../engine/simstats';
import { COMPARE_WORKLOADS, type Better, type CompareWorkload, type CompareWorkloadSpec } from './url';

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

export interface Measure {
  name: string;
  /** undefined: the core did not print it for this run (shown as n/a, never guessed) */
  value: (c: DiffColumn) => number | undefined;
  digits: number;
  /** which way is better; null where neither is (a count that only says what happened) */
  better: Better | null;
  /** the value is itself a percentage: its change is a difference in percentage points */
  percent?: boolean;
}

const ratio = (a: number | undefined, b: number | undefined) => (a === undefined || b === undefined ? undefined : b ? a / b : 0);

const zoneRows: Measure[] = [
  { name: 'zone->lock contention (% of time spinning)', value: (c) => c.stats.zoneBp / 100, digits: 2, better: 'lower', percent: true },
  { name: 'zone->lock acquisitions per page', value: (c) => acqPerPage(c.stats), digits: 3, better: 'lower' },
  { name: 'zone->lock hold (cycles per acquisition)', value: (c) => holdPerAcq(c.stats), digits: 0, better: 'lower' },
];
const lruRow: Measure = { name: 'lru_lock contention (% of time spinning)', value: (c) => c.stats.lruBp / 100, digits: 2, better: 'lower', percent: true };
const fragRow: Measure = { name: 'fragmentation at the end (unusable free space at pageblock_order)', value: (c) => c.fragmentation, digits: 3, better: 'lower' };
/** the high-order side of stress_highalloc and mixed: the core's hi_* counters */
const hiRows: Measure[] = [
  { name: 'order-9 attempts', value: (c) => c.stats.hiAttempts, digits: 0, better: null },
  { name: 'order-9 blocks got', value: (c) => c.stats.hiSuccess, digits: 0, better: 'higher' },
  { name: 'cycles per attempt (compaction included)', value: (c) => ratio(c.stats.hiCycles, c.stats.hiAttempts), digits: 0, better: 'lower' },
  { name: 'compactions run', value: (c) => c.stats.hiCompactions, digits: 0, better: 'lower' },
  { name: 'merge-skipped pages compaction merged back', value: (c) => c.stats.hiMerged, digits: 0, better: null },
  { name: 'unusable free space index at order 9 before the attempts', value: (c) => c.stats.hiUnusable / 1000, digits: 3, better: 'lower' },
];

/**
 * The rows that make sense for a workload: its score first (the core's, in its unit), then
 * what explains it. Every value is a counter the core printed, or a ratio of two of them.
 */
export function measures(workload: CompareWorkload = 'page_fault1'): Measure[] {
  const w: CompareWorkloadSpec = COMPARE_WORKLOADS[workload];
  const score: Measure = { name: `throughput (${w.score})`, value: (c) => c.stats.score, digits: 0, better: w.better };
  switch (workload) {
    case 'hackbench':
      return [
        score,
        { name: "time until the last message is read (cycles, hackbench's Time:)", value: (c) => c.stats.elapsed, digits: 0, better: 'lower' },
        { name: 'slab allocations, fast path (ALLOC_FASTPATH)', value: (c) => c.stats.slabAllocFast, digits: 0, better: null },
        { name: 'slab allocations, slow path (ALLOC_SLOWPATH)', value: (c) => c.stats.slabAllocSlow, digits: 0, better: 'lower' },
        { name: 'slab frees, fast path (FREE_FASTPATH)', value: (c) => c.stats.slabFreeFast, digits: 0, better: null },
        { name: 'slab frees, slow path (FREE_SLOWPATH)', value: (c) => c.stats.slabFreeSlow, digits: 0, better: 'lower' },
        { name: 'remote frees', value: (c) => c.stats.slabFreeRemote, digits: 0, better: null },
        { name: 'freelist prefetches (prefetch_freepointer)', value: (c) => c.stats.slabPrefetch, digits: 0, better: null },
        { name: 'prefetch hits (line there in time)', value: (c) => c.stats.slabPfHit, digits: 0, better: 'higher' },
        { name: 'prefetch late (still in flight)', value: (c) => c.stats.slabPfLate, digits: 0, better: 'lower' },
        { name: 'prefetch wasted (never used)', value: (c) => c.stats.slabPfWasted, digits: 0, better: 'lower' },
      ];
    case 'stress_highalloc':
      return [{ ...score, name: `order-9 success (${w.score})`, percent: true }, ...hiRows, zoneRows[0]!, fragRow];
    case 'mixed':
      return [score, ...zoneRows, lruRow, ...hiRows, fragRow];
    default:
      return [
        score,
        ...zoneRows,
        { name: 'cache misses under zone->lock', value: (c) => c.stats.missesLocked, digits: 0, better: 'lower' },
        { name: 'buddy prefetch hits', value: (c) => c.stats.pfHit, digits: 0, better: null },
        lruRow,
        fragRow,
      ];
  }
}

/** How a value differs from the first column's: a relative change in percent, or for a value
 * that is itself a percentage, the difference in percentage points. */
export interface Change {
  /** undefined: no value, or a relative change from zero */
  value: number | undefined;
  unit: '%' | 'pp';
  /** which way that is for this measure; null where neither way is better */
  verdict: 'better' | 'worse' | 'same' | null;
}

export function change(v: number | undefined, base: number | undefined, m: Pick<Measure, 'better' | 'percent'>): Change {
  const unit = m.percent ? 'pp' : '%';
  if (v === undefined || base === undefined) return { value: undefined, unit, verdict: null };
  const value = m.percent ? v - base : base === 0 ? (v === 0 ? 0 : undefined) : ((v - base) / base) * 100;
  if (value === undefined) return { value, unit, verdict: null };
  // as shown: a change that rounds to zero is no change
  const shown = Number(value.toFixed(m.percent ? 2 : 1));
  const verdict = m.better === null ? null : shown === 0 ? 'same' : (shown > 0) === (m.better === 'higher') ? 'better' : 'worse';
  return { value, unit, verdict };
}

/** A change in words: "+10.0% better", "-0.42 pp better" (percentage points), "±0.0%", "n/a". */
export function changeText(c: Change): string {
  if (c.value === undefined) return 'n/a';
  const digits = c.unit === 'pp' ? 2 : 1;
  const r = c.value.toFixed(digits);
  const num = Number(r) === 0 ? `±${(0).toFixed(digits)}` : `${c.value > 0 ? '+' : ''}${r}`;
  const text = c.unit === 'pp' ? `${num} pp` : `${num}%`;
  return c.verdict === 'better' || c.verdict === 'worse' ? `${text} ${c.verdict}` : text;
}

/** The % change against the first column (pp for a percentage), and whether that is better or worse. */
export function delta(v: number | undefined, base: number | undefined, better: Better | null, percent = false): string {
  return changeText(change(v, base, { better, percent }));
}

export interface DiffRow {
  measure: Measure;
  /** one per column; undefined where the core printed no such counter */
  values: (number | undefined)[];
  /** one per column after the first, against the first */
  changes: Change[];
}

/** The table as numbers: one row per measure of the workload. */
export function diffData(cols: DiffColumn[], workload: CompareWorkload = 'page_fault1'): DiffRow[] {
  return measures(workload).map((m) => {
    const values = cols.map(m.value);
    return { measure: m, values, changes: values.slice(1).map((v) => change(v, values[0], m)) };
  });
}

/** Head row: measure, which way is better, each configuration, each one against the first. */
export function diffRows(cols: DiffColumn[], workload: CompareWorkload = 'page_fault1'): string[][] {
  const head = ['measure', 'better', ...cols.map((c) => c.label), ...cols.slice(1).map((c) => `${c.label} vs ${cols[0]!.label}`)];
  const rows = diffData(cols, workload).map(({ measure: m, values, changes }) => {
    const fmt = (v: number | undefined) => (v === undefined ? 'n/a' : m.digits === 0 ? Math.round(v).toLocaleString('en') : v.toFixed(m.digits));
    return [m.name, m.better ?? '—', ...values.map(fmt), ...changes.map(changeText)];
  });
  return [head, ...rows];
}

/** The table for a spreadsheet: plain numbers, and each change as a number, its unit (% or pp)
 * and its verdict in columns of their own. */
export function diffCsvColumns(cols: DiffColumn[]): string[] {
  const base = cols[0]!.label;
  return [
    'measure',
    'better',
    ...cols.map((c) => c.label),
    ...cols.slice(1).flatMap((c) => [`${c.label} vs ${base}`, `${c.label} vs ${base} unit`, `${c.label} vs ${base} verdict`]),
  ];
}

export function diffCsvRows(cols: DiffColumn[], workload: CompareWorkload = 'page_fault1'): (string | number | null)[][] {
  return diffData(cols, workload).map(({ measure: m, values, changes }) => [
    m.name,
    m.better ?? '',
    ...values.map((v) => (v === undefined ? null : m.digits === 0 ? Math.round(v) : Number(v.toFixed(6)))),
    ...changes.flatMap((c) => [c.value === undefined ? null : Number(c.value.toFixed(4)), c.unit, c.verdict ?? '']),
  ]);
}
