// Computes a lesson's tables on the model machine: one blab_js_sim_run() run (no event log, the
// counters only) per task count and configuration, in the engine worker. Nothing here is
// written down in advance: every number a table shows comes back from the core.
import type { ReplayResult, SimRequest } from '../engine/blab-module';
import { acqPerPage, holdPerAcq, type SimStats } from '../engine/simstats';
import type { LessonTable, Metric, SimConfig, TableRef } from './lesson';

/** Runs one sim request: the engine client in the browser, the WASM module directly in Vitest. */
export type SimRunner = (req: SimRequest) => Promise<ReplayResult>;

export interface TableResult {
  table: LessonTable;
  configs: SimConfig[];
  /** rows[i][j]: tasks[i] with configs[j] */
  rows: SimStats[][];
}

/** hackbench's iterations are its switches (docs/slab.md): bit 0 freelist prefetch, bit 1 same CPU */
export function iterationsFor(workload: string, c: SimConfig, iterations: number): number {
  if (workload !== 'hackbench') return iterations;
  return (c.slubPrefetch === false ? 0 : 1) | (c.sameCpu ? 2 : 0);
}

export function simRequest(t: LessonTable, c: SimConfig, tasks: number): SimRequest {
  return {
    workload: t.workload,
    cpus: tasks,
    pages: t.pages,
    iterations: iterationsFor(t.workload, c, t.iterations),
    seed: c.seed ?? t.seed,
    preset: c.preset,
    maxEvents: 0,
    clearLines: t.clearLines,
    ...(c.batch !== undefined ? { batch: c.batch } : {}),
    ...(c.high !== undefined ? { high: c.high } : {}),
  };
}

export async function runStats(run: SimRunner, req: SimRequest): Promise<SimStats> {
  const r = await run(req);
  if (r.status !== 0) throw new Error(r.stderr.trim() || `the core stopped with status ${r.status}`);
  if (!r.stats) throw new Error('the core returned no counters for the run');
  return r.stats;
}

/** configs: the table's own, or the student's edit of a tunable one. */
export async function computeTable(run: SimRunner, t: LessonTable, configs: SimConfig[] = t.configs): Promise<TableResult> {
  const rows: SimStats[][] = [];
  for (const n of t.tasks) {
    const row: SimStats[] = [];
    for (const c of configs) row.push(await runStats(run, simRequest(t, c, n)));
    rows.push(row);
  }
  return { table: t, configs, rows };
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
  }
}

/** The model machine's clock: 2,500 MHz (docs/sim.md). */
const CYCLES_PER_MS = 2_500_000;

function need(v: number | undefined, key: string): number {
  if (v === undefined) throw new Error(`the core's counters have no ${key} for this workload`);
  return v;
}

/** % change of b against a, as a benchmark table prints it */
export const gainPct = (a: number, b: number): number => (a === 0 ? 0 : ((b - a) / a) * 100);

/** "+4.3%", "-1.2%", and "±0.0%" for anything that rounds to zero (no "-0.0%") */
export function signedPct(p: number): string {
  const r = p.toFixed(1);
  if (Number(r) === 0) return '±0.0%';
  return `${p > 0 ? '+' : ''}${r}%`;
}

/** The number a predict question's answer_from points at. */
export function resolveRef(ref: TableRef, r: TableResult): number {
  const i = r.table.tasks.indexOf(ref.tasks);
  const j = r.configs.findIndex((c) => c.label === ref.config);
  if (i < 0 || j < 0) throw new Error(`no cell for ${ref.tasks} tasks / ${ref.config} in table ${ref.table}`);
  const v = metricValue(r.rows[i]![j]!, r.table.metric);
  return ref.measure === 'gain' ? gainPct(metricValue(r.rows[i]![0]!, r.table.metric), v) : v;
}

/** The table as rows of strings, header first: what the page shows and the CSV export writes. */
export function tableCells(r: TableResult): string[][] {
  const t = r.table;
  const head = ['tasks', ...r.configs.map((c) => c.label)];
  if (t.gain) head.push(...r.configs.slice(1).map((c) => `${c.label} vs ${r.configs[0]!.label}`));
  const fmt = (v: number) => (t.metric === 'score' || t.metric === 'misses_locked' || t.metric === 'pf_hit' ? Math.round(v).toString() : v.toFixed(t.metric === 'acq_per_page' || t.metric === 'time_ms' || t.metric === 'hi_ms' || t.metric === 'hi_unusable' ? 3 : 2));
  const out = [head];
  r.rows.forEach((row, i) => {
    const vals = row.map((s) => metricValue(s, t.metric));
    const cells = [String(t.tasks[i]), ...vals.map(fmt)];
    if (t.gain) cells.push(...vals.slice(1).map((v) => signedPct(gainPct(vals[0]!, v))));
    out.push(cells);
  });
  return out;
}
