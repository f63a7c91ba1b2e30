// The compare view's diff table: one row per measure, one column per configuration (the mean
// over its seeds, with min..max), then each configuration's change against the first, with
// which way is better and whether the change is inside the seeds' spread. The rows depend on
// the workload (hackbench: SLUB's paths and freelist prefetches; stress_highalloc: the order-9
// attempts). Every value is a counter of the measured runs' stats lines, or a ratio of two.
import type { ZoneState } from '../log/state';
import { acqPerPage, bindingLimit, holdPerAcq, type SimStats } from '../engine/simstats';
import { insideSpread, spreadOf, type Spread } from '../engine/spread';
import { WITHIN_SPREAD } from '../lessons/compute';
import { WORKLOAD_TABLE, workloadEntry } from '../scenario/workloads';
import { COMPARE_WORKLOADS, type Better, type CompareWorkload, type CompareWorkloadSpec } from './compare-url';

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
  /** unusable free space index at pageblock_order at the end of the replayed run, 0..1
   * (absent until the replay ran) */
  fragmentation?: number;
}

export interface Measure {
  name: string;
  /** undefined: the core did not print it for this run (shown as n/a, never guessed) */
  value: (s: SimStats) => number | undefined;
  /** a value of the column rather than of each seed's run (the replayed zone's): no spread */
  ofColumn?: (c: DiffColumn) => number | undefined;
  digits: number;
  /** which way is better; null where neither is (a count that only says what happened) */
  better: Better | null;
  /** the value is itself a percentage: its change is a difference in percentage points */
  percent?: boolean;
  /** left out of the table when no column has a value (a latency no run counted) */
  optional?: boolean;
}

const ratio = (a: number | undefined, b: number | undefined) => (a === undefined || b === undefined ? undefined : b ? a / b : 0);

const zoneRows: Measure[] = [
  { name: 'zone->lock contention (% of time spinning)', value: (s) => s.zoneBp / 100, digits: 2, better: 'lower', percent: true },
  { name: 'zone->lock acquisitions per page', value: acqPerPage, digits: 3, better: 'lower' },
  { name: 'zone->lock hold (cycles per acquisition)', value: holdPerAcq, digits: 0, better: 'lower' },
];
/** the sockets' memory controllers (docs/model.md, "Memory bandwidth") */
const memRows: Measure[] = [
  { name: 'memory bandwidth used (GB/s, all sockets, the whole run)', value: (s) => s.memMbs / 1000, digits: 1, better: null },
  { name: 'memory: the busiest socket’s share of what it can carry (%)', value: (s) => s.memUtilBp / 100, digits: 1, better: null, percent: true },
  { name: 'waiting on memory beyond its idle latency (% of time)', value: (s) => s.memWaitBp / 100, digits: 2, better: 'lower', percent: true },
];
const lruRow: Measure = { name: 'lru_lock contention (% of time spinning)', value: (s) => s.lruBp / 100, digits: 2, better: 'lower', percent: true };
/** read off the replayed zone: a cut-down copy of the first seed's run (the page says so) */
const fragRow: Measure = {
  name: 'fragmentation at the end of the replay (unusable free space at pageblock_order)',
  value: () => undefined,
  ofColumn: (c) => c.fragmentation,
  digits: 3,
  better: 'lower',
};
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
 * The runs' latencies, a row per percentile, lower is better: every allocation's and every
 * free's p50 / p99 / p99.9 and longest, and each rmqueue_bulk() refill's and
 * free_pcppages_bulk() drain call's p99 and longest, in µs of model time (the core counts
 * cycles; a run that made no such call has n/a, and a row no run has is left out).
 */
const latRow = (name: string, count: (s: SimStats) => number, v: (s: SimStats) => number): Measure => ({
  name: `${name} (µs of model time)`,
  value: (s) => (s.latCpuMhz && count(s) ? v(s) / s.latCpuMhz : undefined),
  digits: 2,
  better: 'lower',
  optional: true,
});
export const LATENCY_ROWS: Measure[] = [
  latRow('allocation latency p50', (s) => s.latAllocCount, (s) => s.latAllocP50),
  latRow('allocation latency p99', (s) => s.latAllocCount, (s) => s.latAllocP99),
  latRow('allocation latency p99.9', (s) => s.latAllocCount, (s) => s.latAllocP999),
  latRow('allocation latency, longest', (s) => s.latAllocCount, (s) => s.latAllocMax),
  latRow('free latency p50', (s) => s.latFreeCount, (s) => s.latFreeP50),
  latRow('free latency p99', (s) => s.latFreeCount, (s) => s.latFreeP99),
  latRow('free latency p99.9', (s) => s.latFreeCount, (s) => s.latFreeP999),
  latRow('free latency, longest', (s) => s.latFreeCount, (s) => s.latFreeMax),
  latRow('rmqueue_bulk() per refill, p99', (s) => s.latRefillCount, (s) => s.latRefillP99),
  latRow('rmqueue_bulk() per refill, longest', (s) => s.latRefillCount, (s) => s.latRefillMax),
  latRow('free_pcppages_bulk() per drain call, p99', (s) => s.latDrainCount, (s) => s.latDrainP99),
  latRow('free_pcppages_bulk() per drain call, longest', (s) => s.latDrainCount, (s) => s.latDrainMax),
];

/** What the diff table's caption adds for a workload whose score counts part of each run
 * while its other rows count all of it (page_fault1's rows name their windows themselves). */
export const WINDOW_NOTE: Partial<Record<CompareWorkload, string>> = Object.fromEntries(
  WORKLOAD_TABLE.flatMap(({ name }) => {
    const part = workloadEntry(name)?.partScored;
    return part ? [[name, `. The score counts ${part.counts}; the other rows count the whole run, ${part.rest} included`]] : [];
  }),
);

/**
 * The rows that make sense for a workload: its score first (the core's, in its unit), then
 * what explains it. Every value is a counter the core printed, or a ratio of two of them.
 */
export function measures(workload: CompareWorkload = 'page_fault1'): Measure[] {
  return [...workloadMeasures(workload), ...LATENCY_ROWS];
}

function workloadMeasures(workload: CompareWorkload): Measure[] {
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
      return [{ ...score, name: `order-9 success (${w.score})`, percent: true }, ...hiRows, zoneRows[0]!, fragRow];
    case 'mixed':
      return [score, ...zoneRows, lruRow, ...memRows, ...hiRows, fragRow];
    case 'page_fault1':
      // the score counts the scored rounds only; the core times those rounds' lock spin too
      // (the warm-up splits every page out of high-order blocks under zone->lock, which a
      // minutes-long benchmark does once), and counts the rest over the whole run
      return [
        score,
        { name: 'zone->lock contention in the scored rounds (% of their time spinning)', value: (s) => s.scoredZoneBp / 100, digits: 2, better: 'lower', percent: true },
        { name: 'lru_lock contention in the scored rounds (% of their time spinning)', value: (s) => s.scoredLruBp / 100, digits: 2, better: 'lower', percent: true },
        { ...zoneRows[0]!, name: 'zone->lock contention over the whole run with its warm-up (% of time spinning)' },
        { ...zoneRows[1]!, name: 'zone->lock acquisitions per page over the whole run' },
        { ...zoneRows[2]!, name: 'zone->lock hold (cycles per acquisition) over the whole run' },
        { name: 'cache misses under zone->lock over the whole run', value: (s) => s.missesLocked, digits: 0, better: 'lower' },
        { name: 'buddy prefetch hits over the whole run', value: (s) => s.pfHit, digits: 0, better: null },
        ...memRows,
      ];
    default:
      return [
        score,
        ...zoneRows,
        { name: 'cache misses under zone->lock', value: (s) => s.missesLocked, digits: 0, better: 'lower' },
        { name: 'buddy prefetch hits', value: (s) => s.pfHit, digits: 0, better: null },
        lruRow,
        ...memRows,
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

/** A measure over a column's seeds; undefined where a run lacks it. */
export function measureSpread(m: Measure, c: DiffColumn): Spread | undefined {
  if (m.ofColumn) {
    const v = m.ofColumn(c);
    return v === undefined ? undefined : spreadOf([v]);
  }
  const vals = c.stats.map(m.value);
  return vals.length === 0 || vals.some((v) => v === undefined) ? undefined : spreadOf(vals as number[]);
}

export interface DiffRow {
  measure: Measure;
  /** one per column: the mean over its seeds, with min and max; undefined where the core
   * printed no such counter */
  values: (Spread | undefined)[];
  /** one per column after the first, its mean against the first's */
  changes: Change[];
  /** one per change: the two columns' seeds overlap, so the change is inside the spread */
  within: boolean[];
}

/** The measures of the table: the workload's, and each optional one some column has. */
export function shownMeasures(cols: DiffColumn[], workload: CompareWorkload = 'page_fault1'): Measure[] {
  return measures(workload).filter((m) => !m.optional || cols.some((c) => measureSpread(m, c) !== undefined));
}

/** The table as numbers: one row per measure of the workload. */
export function diffData(cols: DiffColumn[], workload: CompareWorkload = 'page_fault1'): DiffRow[] {
  return shownMeasures(cols, workload).map((m) => {
    const values = cols.map((c) => measureSpread(m, c));
    const rest = values.slice(1);
    return {
      measure: m,
      values,
      changes: rest.map((v) => change(v?.mean, values[0]?.mean, m)),
      within: rest.map((v) => !!v && !!values[0] && v.n > 1 && insideSpread(values[0], v)),
    };
  });
}

/** changeText(), saying so when the change is inside the seeds' spread. */
function spreadChangeText(c: Change, within: boolean): string {
  const t = changeText(c);
  return within && t !== 'n/a' ? `${t} (${WITHIN_SPREAD})` : t;
}

/** delta() of two spreads' means, saying so when the two columns' seeds overlap. */
export function spreadDelta(v: Spread | undefined, base: Spread | undefined, better: Better | null, percent = false): string {
  return spreadChangeText(change(v?.mean, base?.mean, { better, percent }), !!v && !!base && insideSpread(base, v));
}

export function formatMeasure(m: Measure, v: number | undefined): string {
  return v === undefined ? 'n/a' : m.digits === 0 ? Math.round(v).toLocaleString('en') : v.toFixed(m.digits);
}

/** Head row: measure, which way is better, each configuration (the mean over its seeds), each
 * one against the first. */
export function diffRows(cols: DiffColumn[], workload: CompareWorkload = 'page_fault1'): string[][] {
  const head = ['measure', 'better', ...cols.map((c) => c.label), ...cols.slice(1).map((c) => `${c.label} vs ${cols[0]!.label}`)];
  const rows = diffData(cols, workload).map(({ measure: m, values, changes, within }) => [
    m.name,
    m.better ?? '—',
    ...values.map((v) => formatMeasure(m, v?.mean)),
    ...changes.map((c, k) => spreadChangeText(c, within[k]!)),
  ]);
  return [head, ...rows];
}

/** The table for a spreadsheet: plain numbers (each configuration's mean, min and max over its
 * seeds), and each change as a number, its unit (% or pp), its verdict and whether it is
 * inside the spread, in columns of their own. */
export function diffCsvColumns(cols: DiffColumn[]): string[] {
  const base = cols[0]!.label;
  return [
    'measure',
    'better',
    ...cols.flatMap((c) => [c.label, `${c.label} min`, `${c.label} max`]),
    ...cols.slice(1).flatMap((c) => [`${c.label} vs ${base}`, `${c.label} vs ${base} unit`, `${c.label} vs ${base} verdict`, `${c.label} vs ${base} inside the spread`]),
  ];
}

export function diffCsvRows(cols: DiffColumn[], workload: CompareWorkload = 'page_fault1'): (string | number | null)[][] {
  return diffData(cols, workload).map(({ measure: m, values, changes, within }) => {
    const num = (v: number | undefined) => (v === undefined ? null : m.digits === 0 ? Math.round(v) : Number(v.toFixed(6)));
    return [
      m.name,
      m.better ?? '',
      ...values.flatMap((v) => [num(v?.mean), num(v?.min), num(v?.max)]),
      ...changes.flatMap((c, k) => [c.value === undefined ? null : Number(c.value.toFixed(4)), c.unit, c.verdict ?? '', within[k] ? 'yes' : 'no']),
    ];
  });
}

/** Which limit binds each configuration (the core's verdict on each seed's run: the wait that
 * took most of the CPUs' time), in words: "v4.16: zone->lock (90.7 % of the time)"; seeds
 * that disagree are each named. */
export function bindsText(cols: DiffColumn[]): string {
  return cols
    .map((c) => {
      const by = new Map<string, number[]>();
      for (const s of c.stats) {
        const b = bindingLimit(s);
        by.set(b.text, [...(by.get(b.text) ?? []), b.share]);
      }
      const parts = [...by].map(([text, shares]) => {
        const mean = shares.reduce((a, b) => a + b, 0) / shares.length;
        const n = by.size > 1 ? `, ${shares.length} of ${c.stats.length} seeds` : '';
        return text.startsWith('none') ? `${text}${n}` : `${text} (${mean.toFixed(1)} % of the time${n})`;
      });
      return `${c.label}: ${parts.join('; ')}`;
    })
    .join(' · ');
}
