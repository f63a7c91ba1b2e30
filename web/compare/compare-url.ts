// The compare view's URL state, in the query string:
//
//   ?compare=v4.16,v4.17&cpus=56&pages=4096&seed=1&tasks=1,16,28,44,56,72,88,112&t=123456
//   &chart=linear|pct: the chart's y axis from 0 with the linear line, or as % of the first
//   configuration (default: scaled to the data)
//   &workload=NAME: another workload (page_fault1 when absent), each with its own parameters:
//     parallel_free, trunc    cpus, pages (per task), tasks
//     hackbench               cpus (groups), messages (per sender), tasks (groups for the chart)
//     stress_highalloc        cpus, pages (the zone's fill), attempts; no tasks (no chart)
//     mixed                   cpus, pages (per page_fault1 task), tasks
//
// Each configuration is a preset, optionally with pcp sizes: `v4.16:batch=7:high=42`, and for
// hackbench SLUB's freelist prefetch: `v5.18:prefetch=off` (default: the preset's, on from
// v3.3), and on a 6.7+ preset CONFIG_PCP_BATCH_SCALE_MAX: `v6.7:pcp_batch_scale_max=0`. `t` is the shared playback position in virtual cycles. User input: bounded, every
// key known, each problem with its own message.
//
// The sizes are those of the measured runs (the diff table, over several seeds, and the
// chart): 4096 pages per task by default, with L2 and LLC scaled to keep will-it-scale's 128 MB
// footprint-to-cache ratio. The replayed columns run a cut-down copy (replaySize()), small
// enough to step page by page, and say so.
import { CORE_LIMITS } from '../log/core-limits.ts';
import { BATCH_SCALE_MAX_LIMIT, PRESETS, batchScaleProblem, type Preset } from '../scenario/url.ts';
import { willItScaleCacheScale } from '../engine/point.ts';
import type { SimConfig } from '../lessons/lesson';
import { HIGHALLOC_ATTEMPTS, HIGHALLOC_MAX_CPUS, HIGHALLOC_PAGES, MIXED_MAX_CPUS, MIXED_MAX_PAGES } from '../scenario/workloads.ts';

const HACKBENCH_MAX_GROUPS = CORE_LIMITS.hackbenchMaxGroups;
export const COMPARE_LIMITS = {
  maxQuery: 600,
  minConfigs: 2,
  maxConfigs: 4,
  /** up to seed 000's 4-socket Skylake: past 112 the model machine has 4 sockets */
  maxCpus: 2 * CORE_LIMITS.modelCpus,
  /** pages per task of the measured runs; every task's pages must fit the core's zone */
  maxPages: 32768,
  maxZonePages: CORE_LIMITS.simMaxMapped,
  /** the replayed run: one round of at most this many page faults (its pages per task are
   * cut to fit), a few 10^5 log records */
  replayFaults: 1 << 14,
  maxTaskPoints: 8,
  maxBatch: 4096,
  maxHigh: 1 << 16,
  /** hackbench: messages per sender (seed 003 ran 4000), and the replay's groups x messages
   * (about 17 log records each) */
  maxMessages: 4000,
  replayMessages: 1 << 15,
  maxAttempts: 16,
  /** mixed: groups of tasks the chart may sweep (its runs keep no log) */
  maxMixedSweep: 16,
  /** seeds of each configuration in the diff table, for its mean and spread */
  seeds: 3,
} as const;

/** Which way a figure is better: its diff column says "better" / "worse" by this. */
export type Better = 'higher' | 'lower';

/** A whole-number URL parameter of one workload: its key, bounds and default. */
export interface Param {
  key: 'pages' | 'messages';
  min: number;
  max: number;
  default: number;
  /** the form's label */
  label: string;
}

export interface CompareWorkloadSpec {
  title: string;
  /** what the core's score counts (blab_sim_workload_unit(), said for people) */
  score: string;
  /** the core's score: which way is better */
  better: Better;
  cpus: { min: number; max: number; default: number; label: string };
  size: Param;
  /** stress_highalloc: attempts at an order-9 block (the core's iterations) */
  attempts?: { min: number; max: number; default: number };
  /**
   * The chart: the score against tasks (no event log, the counters only); null where a sweep
   * makes no sense (stress_highalloc's score is a success rate, not a throughput). linear:
   * will-it-scale's linear line, for workloads where every task does the scored work.
   */
  sweep: { min: number; max: number; default: number[]; axis: string; linear: boolean } | null;
  /** the replayed run's size parameter for a measured size: cut so its event log stays a few
   * 10^5 records (the column says so) */
  replaySize: (cpus: number, size: number) => number;
  /** L2 and LLC divided by this for a measured run of this size (1: full size) */
  cacheScale: (size: number) => number;
}

const cut = (limit: number) => (cpus: number, size: number) => Math.max(1, Math.min(size, Math.floor(limit / cpus)));

const order0 = (title: string, score: string): CompareWorkloadSpec => ({
  title,
  score,
  better: 'higher',
  cpus: { min: 1, max: COMPARE_LIMITS.maxCpus, default: 56, label: 'CPUs (one task each)' },
  size: { key: 'pages', min: 1, max: COMPARE_LIMITS.maxPages, default: 4096, label: 'pages per task' },
  // 1 to 112 tasks at 8 points: one socket's cores (28), its threads or both sockets' cores
  // (56), seed 000's 88-CPU Broadwell and 112-CPU Skylake
  sweep: { min: 1, max: COMPARE_LIMITS.maxCpus, default: [1, 16, 28, 44, 56, 72, 88, 112], axis: 'tasks (one per CPU)', linear: true },
  replaySize: cut(COMPARE_LIMITS.replayFaults),
  cacheScale: willItScaleCacheScale,
});

/**
 * The workloads a compare may run, with what each one's arguments mean (as the scenario panel
 * gives them to the core, web/scenario/workloads.ts) and which way its score is better (docs/sim.md).
 */
export const COMPARE_WORKLOADS = {
  page_fault1: order0('will-it-scale page_fault1', 'pages faulted / s'),
  parallel_free: order0('parallel free (all tasks free at once)', 'pages freed / s'),
  trunc: order0('mmtests trunc (truncate page-cache files)', 'pages truncated / s'),
  hackbench: {
    title: 'hackbench (SLUB, remote frees)',
    score: 'messages / s',
    better: 'higher',
    cpus: { min: 2, max: HACKBENCH_MAX_GROUPS, default: 8, label: 'groups (a sender CPU each)' },
    size: { key: 'messages', min: 1, max: COMPARE_LIMITS.maxMessages, default: COMPARE_LIMITS.maxMessages, label: 'messages per sender' },
    sweep: { min: 2, max: HACKBENCH_MAX_GROUPS, default: [2, 8, 28, 56], axis: 'groups (one sender CPU each)', linear: false },
    replaySize: cut(COMPARE_LIMITS.replayMessages),
    cacheScale: () => 1,
  },
  stress_highalloc: {
    title: 'mmtests stress-highalloc (order-9 blocks under churn)',
    score: '% of attempts',
    better: 'higher',
    cpus: { min: 1, max: HIGHALLOC_MAX_CPUS, default: 4, label: 'CPUs (cpu 0 allocates order 9, the others churn)' },
    size: { key: 'pages', min: HIGHALLOC_PAGES[0], max: HIGHALLOC_PAGES[1], default: 4096, label: "the zone's fill (pages)" },
    attempts: { min: 1, max: COMPARE_LIMITS.maxAttempts, default: HIGHALLOC_ATTEMPTS },
    sweep: null,
    // the fill is small enough to replay whole
    replaySize: (_cpus, pages) => pages,
    cacheScale: () => 1,
  },
  mixed: {
    title: "page_fault1 beside huge-page users (the skip-merge RFC's THP test)",
    score: 'order-0 pages / s',
    better: 'higher',
    cpus: { min: 2, max: MIXED_MAX_CPUS, default: MIXED_MAX_CPUS, label: 'CPUs (page_fault1 on the first half, huge pages on the rest)' },
    size: { key: 'pages', min: 1, max: COMPARE_LIMITS.maxPages, default: 4096, label: 'pages per page_fault1 task' },
    // half the tasks fault order-0 pages, the score counts only theirs: no linear line
    sweep: { min: 2, max: COMPARE_LIMITS.maxMixedSweep, default: [2, 4, 8, 16], axis: 'tasks (half page_fault1, half huge pages)', linear: false },
    replaySize: (cpus, pages) => cut(MIXED_MAX_PAGES)(Math.ceil(cpus / 2), pages),
    cacheScale: willItScaleCacheScale,
  },
} as const satisfies Record<string, CompareWorkloadSpec>;
export type CompareWorkload = keyof typeof COMPARE_WORKLOADS;

export interface CompareState {
  workload: CompareWorkload;
  configs: SimConfig[];
  /** CPUs; hackbench: groups */
  cpus: number;
  /** the workload's size parameter (spec.size): pages per task, hackbench's messages per
   * sender, stress_highalloc's fill */
  pages: number;
  /** stress_highalloc's order-9 attempts; 0 for the others */
  attempts: number;
  seed: number;
  /** the chart's task counts; empty for a workload without a chart */
  tasks: number[];
  /** playback position, virtual cycles; -1 (no t in the link): where the configurations'
   * replays first differ */
  t: number;
  /** the chart's y axis: scaled to the data (default), from 0 with will-it-scale's linear line,
   * or each configuration as a % of the first */
  chart: ChartMode;
}

export const CHART_MODES = ['data', 'linear', 'pct'] as const;
export type ChartMode = (typeof CHART_MODES)[number];

/** The state a bare link to a workload starts from. */
export function defaultsFor(workload: CompareWorkload): CompareState {
  const w: CompareWorkloadSpec = COMPARE_WORKLOADS[workload];
  return {
    workload,
    configs: [
      { label: 'v4.16', preset: 'v4.16' },
      { label: 'v4.17', preset: 'v4.17' },
    ],
    cpus: w.cpus.default,
    pages: w.size.default,
    attempts: w.attempts?.default ?? 0,
    seed: 1,
    tasks: w.sweep ? [...w.sweep.default] : [],
    t: -1,
    chart: 'data',
  };
}

export const DEFAULT_COMPARE: CompareState = defaultsFor('page_fault1');

export class CompareUrlError extends Error {
  override name = 'CompareUrlError';
}

function int(key: string, raw: string, min: number, max: number): number {
  if (!/^\d{1,16}$/.test(raw)) throw new CompareUrlError(`${key}=${raw.slice(0, 32)}: expected a whole number`);
  const v = Number(raw);
  if (v < min || v > max) throw new CompareUrlError(`${key}=${raw.slice(0, 32)}: must be between ${min} and ${max}`);
  return v;
}

/** A configuration as the link spells it; options a workload has no use for are refused. */
export function parseConfig(text: string, workload: CompareWorkload = 'page_fault1'): SimConfig {
  const [preset, ...opts] = text.split(':');
  if (!preset || !Object.hasOwn(PRESETS, preset))
    throw new CompareUrlError(`configuration "${text.slice(0, 40)}": unknown preset; one of ${Object.keys(PRESETS).join(', ')}`);
  const c: SimConfig = { label: text, preset: preset as Preset };
  for (const o of opts) {
    const [k, v] = o.split('=');
    if (k === 'batch' && v !== undefined && c.batch === undefined) c.batch = int('batch', v, 1, COMPARE_LIMITS.maxBatch);
    else if (k === 'high' && v !== undefined && c.high === undefined) c.high = int('high', v, 1, COMPARE_LIMITS.maxHigh);
    else if (k === 'pcp_batch_scale_max' && v !== undefined && c.pcpBatchScaleMax === undefined) {
      c.pcpBatchScaleMax = int('pcp_batch_scale_max', v, 0, BATCH_SCALE_MAX_LIMIT);
      const why = batchScaleProblem(c.preset, c.pcpBatchScaleMax);
      if (why) throw new CompareUrlError(`configuration "${text.slice(0, 40)}": ${why}`);
    } else if (k === 'prefetch' && c.slubPrefetch === undefined) {
      if (workload !== 'hackbench') throw new CompareUrlError(`configuration "${text.slice(0, 40)}": prefetch= is SLUB's freelist prefetch, for workload=hackbench only`);
      if (v !== 'on' && v !== 'off') throw new CompareUrlError(`configuration "${text.slice(0, 40)}": prefetch=${(v ?? '').slice(0, 12)}: on or off`);
      c.slubPrefetch = v === 'on';
    } else throw new CompareUrlError(`configuration "${text.slice(0, 40)}": "${o.slice(0, 20)}" is not batch=N, high=N, pcp_batch_scale_max=N or prefetch=on|off (each at most once)`);
  }
  if (c.batch !== undefined && c.high !== undefined && c.high < c.batch)
    throw new CompareUrlError(`configuration "${text.slice(0, 40)}": high must be at least batch`);
  return c;
}

export function formatConfig(c: SimConfig): string {
  return (
    `${c.preset}${c.batch !== undefined ? `:batch=${c.batch}` : ''}${c.high !== undefined ? `:high=${c.high}` : ''}` +
    (c.pcpBatchScaleMax !== undefined ? `:pcp_batch_scale_max=${c.pcpBatchScaleMax}` : '') +
    (c.slubPrefetch !== undefined ? `:prefetch=${c.slubPrefetch ? 'on' : 'off'}` : '')
  );
}

/** Parses location.search (with or without '?'); `compare` must be present (it picks the page). */
export function parseCompare(search: string): CompareState {
  const q = search.startsWith('?') ? search.slice(1) : search;
  if (q.length > COMPARE_LIMITS.maxQuery) throw new CompareUrlError(`the link is ${q.length} characters; the limit is ${COMPARE_LIMITS.maxQuery}`);
  // first every key once, then the workload, which says what the others may be
  const raw = new Map<string, string>();
  for (const part of q.split('&')) {
    if (!part) continue;
    const eq = part.indexOf('=');
    const key = eq < 0 ? part : part.slice(0, eq);
    let value: string;
    try {
      value = decodeURIComponent(eq < 0 ? '' : part.slice(eq + 1));
    } catch {
      throw new CompareUrlError(`${key.slice(0, 20)}: the value is not valid URL encoding`);
    }
    if (raw.has(key)) throw new CompareUrlError(`${key.slice(0, 20)} appears twice`);
    raw.set(key, value);
  }
  if (!raw.has('compare')) throw new CompareUrlError('not a compare link (no "compare" key)');
  const wl = raw.get('workload') ?? 'page_fault1';
  if (!Object.hasOwn(COMPARE_WORKLOADS, wl))
    throw new CompareUrlError(`workload=${wl.slice(0, 32)}: one of ${Object.keys(COMPARE_WORKLOADS).join(', ')}`);
  const workload = wl as CompareWorkload;
  const w: CompareWorkloadSpec = COMPARE_WORKLOADS[workload];
  const s = defaultsFor(workload);
  for (const [key, v] of raw) {
    switch (key) {
      case 'workload':
      case 'v': // the course version the link was made for (checked by the page, docs/lessons.md)
        break;
      case 'compare': {
        if (v === '') break; // the defaults
        const list = v.split(',');
        if (list.length < COMPARE_LIMITS.minConfigs || list.length > COMPARE_LIMITS.maxConfigs)
          throw new CompareUrlError(`compare: ${list.length} configurations; give ${COMPARE_LIMITS.minConfigs} to ${COMPARE_LIMITS.maxConfigs}`);
        s.configs = list.map((c) => parseConfig(c, workload));
        if (new Set(s.configs.map(formatConfig)).size !== s.configs.length) throw new CompareUrlError('compare: the same configuration twice');
        break;
      }
      case 'cpus':
        s.cpus = int(key, v, w.cpus.min, w.cpus.max);
        break;
      case 'pages':
      case 'messages':
        if (key !== w.size.key) throw new CompareUrlError(`${key}: ${workload} takes ${w.size.key}= (${w.size.label}), not ${key}=`);
        s.pages = int(key, v, w.size.min, w.size.max);
        break;
      case 'attempts':
        if (!w.attempts) throw new CompareUrlError(`attempts: only stress_highalloc makes order-9 attempts, not ${workload}`);
        s.attempts = int(key, v, w.attempts.min, w.attempts.max);
        break;
      case 'seed':
        s.seed = int(key, v, 0, 0xffffffff);
        break;
      case 't':
        s.t = int(key, v, 0, Number.MAX_SAFE_INTEGER);
        break;
      case 'chart':
        if (!w.sweep) throw new CompareUrlError(`chart: ${workload} has no chart against tasks`);
        if (!(CHART_MODES as readonly string[]).includes(v)) throw new CompareUrlError(`chart=${v.slice(0, 12)}: one of ${CHART_MODES.join(', ')}`);
        s.chart = v as ChartMode;
        break;
      case 'tasks': {
        if (!w.sweep) throw new CompareUrlError(`tasks: ${workload} has no chart against tasks (its score, ${w.score}, is not a throughput)`);
        const list = v.split(',');
        if (list.length < 1 || list.length > COMPARE_LIMITS.maxTaskPoints) throw new CompareUrlError(`tasks: 1 to ${COMPARE_LIMITS.maxTaskPoints} values`);
        s.tasks = list.map((x) => int('tasks', x, w.sweep!.min, w.sweep!.max));
        break;
      }
      default:
        throw new CompareUrlError(`unknown key "${key.slice(0, 32)}"`);
    }
  }
  // every task's pages live in one zone of the core (blab_sim.h, BLAB_SIM_MAX_MAPPED)
  if (w.size.key === 'pages' && workload !== 'stress_highalloc') {
    const most = Math.max(s.cpus, ...s.tasks);
    if (most * s.pages > COMPARE_LIMITS.maxZonePages)
      throw new CompareUrlError(`${most} tasks x ${s.pages} pages is ${most * s.pages} pages; the core's zone holds at most ${COMPARE_LIMITS.maxZonePages}`);
  }
  return s;
}

export function formatCompare(s: CompareState): string {
  const w: CompareWorkloadSpec = COMPARE_WORKLOADS[s.workload];
  return (
    `?compare=${s.configs.map(formatConfig).join(',')}${s.workload === 'page_fault1' ? '' : `&workload=${s.workload}`}` +
    `&cpus=${s.cpus}&${w.size.key}=${s.pages}${w.attempts ? `&attempts=${s.attempts}` : ''}&seed=${s.seed}` +
    `${w.sweep ? `&tasks=${s.tasks.join(',')}` : ''}${s.t >= 0 ? `&t=${s.t}` : ''}${w.sweep && s.chart !== 'data' ? `&chart=${s.chart}` : ''}`
  );
}
