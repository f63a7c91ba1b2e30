// Computes a lesson's tables on the model machine: one blab_js_sim_run() run (no event log, the
// counters only) per task count, configuration and seed, run by the engine's worker pool (or
// taken from the results shipped with the build, or the results cache). Nothing here is
// written down in advance: every number a table shows comes back from the core, and each cell
// is the mean over its seeds with their spread (min..max).
import type { SimRequest } from '../engine/blab-module';
import { acqPerPage, bindingLimit, holdPerAcq, type SimStats } from '../engine/simstats.ts';
import { insideSpread, spreadOf, type Spread } from '../engine/spread.ts';
import { groupedWarnings, pcpWarningsApply } from '../engine/pcp-warning.ts';
import type { PointsRunner } from '../engine/point';
import { rowsName, type LessonTable, type Metric, type SimConfig, type TableRef } from './lesson.ts';
import { runRequest } from '../scenario/request.ts';

export interface TableResult {
  table: LessonTable;
  configs: SimConfig[];
  /** runs[i][j][k]: tasks[i] with configs[j], its k-th seed; undefined while it runs */
  runs: (SimStats | undefined)[][][];
}

/** The seeds a config runs: its own (or the table's) first seed and the ones after it. */
export function seedsOf(t: LessonTable, c: SimConfig): number[] {
  const first = c.seed ?? t.seed;
  return Array.from({ length: t.seeds }, (_, k) => (first + k) >>> 0);
}

/** One run of a table: the row's `tasks` tasks of the table's pages each, or for hackbench
 * the row's groups sending the table's loops each, in the workload's own fields (runRequest()). */
export function simRequest(t: LessonTable, c: SimConfig, tasks: number, seed: number = c.seed ?? t.seed): SimRequest {
  const common = {
    preset: c.preset,
    seed,
    clearLines: t.clearLines,
    cacheScale: t.cacheScale,
    ...(c.batch !== undefined ? { batch: c.batch } : {}),
    ...(c.high !== undefined ? { high: c.high } : {}),
    ...(c.pcpBatchScaleMax !== undefined ? { pcpBatchScaleMax: c.pcpBatchScaleMax } : {}),
    ...(t.latency ? { latency: true } : {}),
    ...(t.nodeZones ? { nodeZones: true } : {}),
    ...(t.outOfStep ? { outOfStep: true } : {}),
  };
  const run =
    t.workload === 'hackbench'
      ? runRequest({
          workload: t.workload, groups: tasks, loops: t.loops, ...common,
          ...(c.slubPrefetch !== undefined ? { slubPrefetch: c.slubPrefetch } : {}),
          ...(c.sameCpu !== undefined ? { sameCpu: c.sameCpu } : {}),
        })
      : runRequest({ workload: t.workload, cpus: tasks, pages: t.pages, ...common, ...(t.workload === 'stress_highalloc' ? { attempts: t.iterations } : { rounds: t.iterations }) });
  return { ...run, maxEvents: 0 };
}

/** Every run a table needs, with where its result goes. */
export function tablePoints(t: LessonTable, configs: readonly SimConfig[] = t.configs): { i: number; j: number; k: number; req: SimRequest }[] {
  const out: { i: number; j: number; k: number; req: SimRequest }[] = [];
  t.tasks.forEach((n, i) => configs.forEach((c, j) => seedsOf(t, c).forEach((seed, k) => out.push({ i, j, k, req: simRequest(t, c, n, seed) }))));
  return out;
}

export function emptyResult(t: LessonTable, configs: SimConfig[] = t.configs): TableResult {
  const grid = <T>() => t.tasks.map(() => configs.map(() => new Array<T | undefined>(t.seeds).fill(undefined)));
  return { table: t, configs, runs: grid<SimStats>() };
}

/** True when every run of row i is in. */
export function rowDone(r: TableResult, i: number): boolean {
  return r.runs[i]!.every((cell) => cell.every((s) => s !== undefined));
}

/** configs: the table's own, or the student's edit of a tunable one. onRow: a row just finished. */
export async function computeTable(
  run: PointsRunner,
  t: LessonTable,
  configs: SimConfig[] = t.configs,
  onRow: (r: TableResult, i: number) => void = () => {},
): Promise<TableResult> {
  const r = emptyResult(t, configs);
  const points = tablePoints(t, configs);
  await run(
    points.map((p) => p.req),
    (index, stats) => {
      const p = points[index]!;
      r.runs[p.i]![p.j]![p.k] = stats;
      if (rowDone(r, p.i)) onRow(r, p.i);
    },
  );
  return r;
}

export function metricValue(s: SimStats, m: Metric): number {
  switch (m) {
    case 'score':
      return s.score;
    case 'zone_bp':
      return s.zoneBp / 100;
    case 'acq_per_page':
      return acqPerPage(s);
    case 'misses_locked':
      return s.missesLocked;
    case 'pf_hit':
      return s.pfHit;
    case 'hold_per_acq':
      return holdPerAcq(s);
    case 'lru_bp':
      return s.lruBp / 100;
    case 'zone_bp_scored':
      return s.scoredZoneBp / 100;
    case 'lru_bp_scored':
      return s.scoredLruBp / 100;
    case 'time_ms':
      return need(s.elapsed, 'elapsed_cycles') / CYCLES_PER_MS;
    case 'hi_success_pct':
      return need(s.hiAttempts, 'hi_attempts') ? (need(s.hiSuccess, 'hi_success') / s.hiAttempts!) * 100 : 0;
    case 'hi_ms':
      return need(s.hiAttempts, 'hi_attempts') ? need(s.hiCycles, 'hi_cycles') / s.hiAttempts! / CYCLES_PER_MS : 0;
    case 'hi_unusable':
      return need(s.hiUnusable, 'hi_unusable') / 1000;
    case 'mem_util':
      return s.memUtilBp / 100;
    case 'mem_wait':
      return s.memWaitBp / 100;
    case 'lat_alloc_p99_us':
      return latUs(s, s.latAllocCount, s.latAllocP99, 'allocation');
    case 'lat_alloc_p999_us':
      return latUs(s, s.latAllocCount, s.latAllocP999, 'allocation');
    case 'lat_alloc_max_us':
      return latUs(s, s.latAllocCount, s.latAllocMax, 'allocation');
    case 'lat_refill_p99_us':
      return latUs(s, s.latRefillCount, s.latRefillP99, 'rmqueue_bulk() call');
    case 'lat_refill_max_us':
      return latUs(s, s.latRefillCount, s.latRefillMax, 'rmqueue_bulk() call');
    case 'lat_drain_p99_us':
      return latUs(s, s.latDrainCount, s.latDrainP99, 'free_pcppages_bulk() call');
    case 'lat_drain_max_us':
      return latUs(s, s.latDrainCount, s.latDrainMax, 'free_pcppages_bulk() call');
  }
}

/** A latency counter in µs of model time; a run that counted none, or made no such call, has no
 * value to show (the table says so rather than a 0 that reads as "instant"). */
function latUs(s: SimStats, count: number, cycles: number, what: string): number {
  if (!s.latCpuMhz) throw new Error("the run counted no latencies (the table needs latency: true)");
  if (!count) throw new Error(`the run made no ${what}`);
  return cycles / s.latCpuMhz;
}

/** The model machine's clock: 2,500 MHz (docs/sim.md). */
const CYCLES_PER_MS = 2_500_000;

function need(v: number | undefined, key: string): number {
  if (v === undefined) throw new Error(`the run's counters have no ${key} for this workload`);
  return v;
}

/** A finished cell: the table's metric over the cell's seeds. */
export function cellSpread(r: TableResult, i: number, j: number): Spread {
  const runs = r.runs[i]![j]!;
  if (runs.some((s) => s === undefined)) throw new Error(`row ${r.table.tasks[i]} ${rowsName(r.table)} of table ${r.table.name} is not finished`);
  return spreadOf(runs.map((s) => metricValue(s!, r.table.metric)));
}

/** % change of b against a, as a benchmark table prints it */
export const gainPct = (a: number, b: number): number => (a === 0 ? 0 : ((b - a) / a) * 100);

/** Past this a change reads as a factor: "+4098830.8%" tells a hall nothing that "×41,000" does not. */
const FACTOR_PAST_PCT = 1000;

/** "+4.3%", "-1.2%", "±0.0%" for anything that rounds to zero (no "-0.0%"), and "×41,000" for
 * a change past +1000 % (lesson 6: the RFC's order-9 attempt compacts, v4.16's finds a block) */
export function signedPct(p: number): string {
  if (p > FACTOR_PAST_PCT) return `×${Number((1 + p / 100).toPrecision(2)).toLocaleString('en')}`;
  const r = p.toFixed(1);
  if (Number(r) === 0) return '±0.0%';
  return `${p > 0 ? '+' : ''}${r}%`;
}

/** Said beside a change whose two ranges of seeds overlap. */
export const WITHIN_SPREAD = 'within the spread';

/** A cell's change against the first config's, and whether the seeds' ranges overlap. */
export function gainText(a: Spread, b: Spread): string {
  const pct = signedPct(gainPct(a.mean, b.mean));
  return insideSpread(a, b) ? `${pct} (${WITHIN_SPREAD})` : pct;
}

/** The number a predict question's answer_from points at (means over the seeds). */
export function resolveRef(ref: TableRef, r: TableResult): number {
  const i = r.table.tasks.indexOf(ref.tasks);
  const j = r.configs.findIndex((c) => c.label === ref.config);
  if (i < 0 || j < 0) throw new Error(`no cell for ${ref.tasks} ${rowsName(r.table)} / ${ref.config} in table ${ref.table}`);
  const v = cellSpread(r, i, j).mean;
  return ref.measure === 'gain' ? gainPct(cellSpread(r, i, 0).mean, v) : v;
}

/** A value in the table's metric, as the page and the CSV show it. */
export function formatMetric(m: Metric, v: number): string {
  if (m === 'score' || m === 'misses_locked' || m === 'pf_hit') return Math.round(v).toString();
  if (m.startsWith('lat_')) return v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2);
  const places = m === 'acq_per_page' || m === 'time_ms' || m === 'hi_ms' || m === 'hi_unusable' ? 3 : 2;
  // a time too small for the places (v4.16's order-9 attempt: 50 cycles, 0.00002 ms) keeps two
  // significant digits instead of printing 0.000 beside a number it is compared with
  if ((m === 'time_ms' || m === 'hi_ms') && v > 0 && v < 10 ** -places) return v.toFixed(Math.min(20, 1 - Math.floor(Math.log10(v))));
  return v.toFixed(places);
}

/**
 * The finished rows as strings, header first: tasks (hackbench: groups), each config's mean, then (gain tables)
 * each config's change against the first. `spread`: each config's min and max as well (the
 * CSV export); on the page they sit under the mean.
 */
export function tableCells(r: TableResult, spread = false): string[][] {
  const t = r.table;
  const head: string[] = [rowsName(t)];
  for (const c of r.configs) head.push(...(spread ? [c.label, `${c.label} min`, `${c.label} max`] : [c.label]));
  if (t.gain) head.push(...r.configs.slice(1).map((c) => `${c.label} vs ${r.configs[0]!.label}`));
  const out = [head];
  t.tasks.forEach((n, i) => {
    if (!rowDone(r, i)) return;
    const cells = r.configs.map((_, j) => cellSpread(r, i, j));
    const row = [String(n)];
    for (const s of cells) row.push(...(spread ? [s.mean, s.min, s.max].map((v) => formatMetric(t.metric, v)) : [formatMetric(t.metric, s.mean)]));
    if (t.gain) row.push(...cells.slice(1).map((s) => gainText(cells[0]!, s)));
    out.push(row);
  });
  return out;
}

/** The pcp warnings of a table's finished runs, each with where it holds: "v4.16 at 1, 8 tasks".
 * None for hackbench: its configs differ in SLUB's switches, not in the pcp paths, so a pcp
 * list that never drained hides nothing its table compares (and "give each task more pages"
 * is no advice for senders of messages). Nor "never drained" where the table reads drain_pages()'s
 * own calls (readsDrainCalls). */
export function tableWarnings(r: TableResult): { text: string; where: string[] }[] {
  if (!pcpWarningsApply(r.table.workload)) return [];
  return groupedWarnings(
    r.runs.flatMap((row, i) =>
      row.flatMap((cell, j) => cell.flatMap((stats) => (stats ? [{ label: r.configs[j]!.label, preset: r.configs[j]!.preset, tasks: r.table.tasks[i]!, stats }] : []))),
    ),
    r.table.metric,
  );
}

/**
 * Which limit binds each finished row's runs (the core's verdict on the first seed of each
 * cell: what its CPUs waited on longest, zone->lock, lru_lock or memory bandwidth, or none):
 * "2 tasks: none; 48: zone->lock; 79: v5.17 zone->lock, v5.18 memory bandwidth". Empty
 * until a row is in.
 */
export function bindsLine(r: TableResult): string {
  const unit = rowsName(r.table);
  const parts: string[] = [];
  r.table.tasks.forEach((n, i) => {
    if (!rowDone(r, i)) return;
    const names = r.runs[i]!.map((cell) => {
      const b = bindingLimit(cell[0]!);
      return b.name === 'none' ? 'none' : b.text;
    });
    const same = names.every((x) => x === names[0]);
    const what = same ? names[0]! : names.map((x, j) => `${r.configs[j]!.label} ${x}`).join(', ');
    parts.push(`${parts.length ? n : `${n} ${unit}`}: ${what}`);
  });
  return parts.join('; ');
}
