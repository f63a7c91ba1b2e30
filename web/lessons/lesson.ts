// What a lesson is, once parsed: the shape lessons/*.md describe (docs/lessons.md).
// Plain data, no DOM: the build (web/lessons/vite-plugin.ts), Vitest and the browser share it.

import { CORE_LIMITS } from '../log/core-limits.ts';
import { PRESETS, type Preset } from '../scenario/url.ts';
import type { ViewId } from '../views/registry.ts';

/** Hard limits on a lesson file (docs/limits.md). */
export const LESSON_LIMITS = {
  maxBytes: 64 * 1024,
  maxSteps: 40,
  maxRuns: 8,
  /** lesson 9: throughput, three latency tables of the same runs, and a drain table */
  maxTables: 6,
  maxChoices: 6,
  maxScriptBytes: 8 * 1024,
  maxTaskPoints: 8,
  /** CONFIG_PCP_BATCH_SCALE_MAX's 0..6 is seven configs (lesson 9) */
  maxConfigs: 7,
  maxQuotedRows: 24,
  /** a sim run the browser replays: its work (WORKLOAD_SHAPES[w].work); replays stay small
   * enough to step page by page, the tables are what run at the seeds' sizes */
  maxRunFaults: 1 << 15,
  /** one table: the sum over configs, seeds and task counts of each run's work (lesson 3's
   * 1..224 tasks x 4096 pages x 2 rounds x 3 configs x 3 seeds is 35 M) */
  maxTableFaults: 1 << 26,
  /** seeds a table runs per cell, for its mean and spread */
  maxSeeds: 5,
} as const;

/** Views a step may show: the ids of the view registry (web/views/registry.ts) a lesson may name. */
export const LESSON_VIEW_IDS = ['free-areas', 'buddy-tree', 'mem-map', 'pcp', 'lock-timeline', 'buddyinfo', 'cpustats', 'prefetches', 'slab', 'latency'] as const satisfies readonly ViewId[];
export type LessonViewId = (typeof LESSON_VIEW_IDS)[number];
/** What a lecturer may put on a slide: a step's views, or the moving picture of the current record. */
export const LECTURE_FIGURE_IDS = [...LESSON_VIEW_IDS, 'event'] as const;
export type LectureFigureId = (typeof LECTURE_FIGURE_IDS)[number];

/**
 * Workloads a lesson may run (the core's names, web/scenario/workloads.ts), each described by its
 * own fields (WORKLOAD_SHAPES). A lesson naming a workload the core does not have fails when it
 * runs, with the core's own message.
 */
export const LESSON_WORKLOADS = ['page_fault1', 'hackbench', 'stress_highalloc', 'mixed'] as const;
export type LessonWorkload = (typeof LESSON_WORKLOADS)[number];
/** The lesson workloads whose tasks map pages: every one but hackbench, whose groups send messages. */
export type LessonPagesWorkload = Exclude<LessonWorkload, 'hackbench'>;

/**
 * How a lesson names a workload's sizes and what they mean to the core (blab_js_sim_run(),
 * wasm-core/wasm/api.c): the key of a table's rows and of a run's count (page_fault1's tasks
 * and CPUs, hackbench's groups), the key of one run's size (pages; hackbench's loops, the
 * messages each sender sends), their bounds, and the work one run does, which LESSON_LIMITS caps
 * so a table computes in seconds in the browser. A lesson that gives one workload another's key
 * is refused (parse.ts): hackbench's groups are not page_fault1's tasks under another name.
 */
export interface WorkloadShape {
  keys: {
    /** a table's rows, and what its first column is headed */
    rows: 'tasks' | 'groups';
    /** a run's count */
    count: 'cpus' | 'groups';
    /** one run's size, for a table and a run alike */
    size: 'pages' | 'loops';
  };
  /** bounds of a row (or a run's count) and of the size */
  count: readonly [number, number];
  size: readonly [number, number];
  /** null: the workload takes no iterations from the lesson (hackbench: configs set its switches) */
  iterations: readonly [number, number] | null;
  /** the unit `work` counts, for the messages */
  unit: string;
  work(count: number, size: number, iterations: number): number;
}

const PAGES_KEYS = { rows: 'tasks', count: 'cpus', size: 'pages' } as const;

export const WORKLOAD_SHAPES: Record<LessonWorkload, WorkloadShape> = {
  // one task per CPU, `pages` per task per round, `iterations` rounds (the first a warm-up);
  // past 112 tasks the model machine has 4 sockets (224, seed 000's Skylake 4S), then 8
  page_fault1: { keys: PAGES_KEYS, count: [1, CORE_LIMITS.simMaxCpus], size: [1, 32768], iterations: [1, 4], unit: 'page faults', work: (t, p, i) => t * p * i },
  // groups (a sender CPU each), `loops` messages each sender sends; the core's switches are
  // each config's slub_prefetch / same_cpu
  hackbench: { keys: { rows: 'groups', count: 'groups', size: 'loops' }, count: [2, CORE_LIMITS.hackbenchMaxGroups], size: [1, 4096], iterations: null, unit: 'messages', work: (g, l) => g * l },
  // pages = the zone's long-lived fill (at least 4 pageblocks of 512, so that one is left
  // whole), iterations = order-9 attempts by cpu 0, tasks = CPUs (the others churn order-0
  // pages); each attempt may compact, scanning the zone: work = pages x attempts
  stress_highalloc: { keys: PAGES_KEYS, count: [1, 16], size: [2048, 16384], iterations: [1, 16], unit: 'struct pages scanned at most', work: (_t, p, i) => p * i },
  // half the CPUs run page_fault1 (pages per task per round, iterations rounds), the other
  // half take order-9 blocks for as long as those run; each of those needs 1024 pages of zone
  mixed: { keys: PAGES_KEYS, count: [2, 16], size: [1, 4096], iterations: [1, 4], unit: 'page faults', work: (t, p, i) => t * p * i },
};

/** What a table's rows count, as its first column is headed: "tasks", or hackbench's "groups". */
export function rowsName(t: { workload: LessonWorkload }): 'tasks' | 'groups' {
  return WORKLOAD_SHAPES[t.workload].keys.rows;
}

export const METRICS = {
  score: 'score (pages/s; hackbench: messages/s)',
  zone_bp: 'zone->lock contention %',
  acq_per_page: 'zone->lock acquisitions per page',
  misses_locked: 'cache misses under zone->lock',
  pf_hit: 'prefetch hits',
  hold_per_acq: 'cycles held per acquisition',
  lru_bp: 'lru_lock contention %',
  zone_bp_scored: 'zone->lock contention % in the scored rounds (after each warm-up)',
  lru_bp_scored: 'lru_lock contention % in the scored rounds (after each warm-up)',
  time_ms: 'virtual time, ms (hackbench: until the last message is read)',
  hi_success_pct: 'high-order allocations that succeeded, %',
  hi_ms: 'virtual ms per high-order attempt, compaction included',
  hi_unusable: 'unusable free space index for the high order when the attempts began (0 to 1)',
  mem_util: 'memory bandwidth used, the busiest socket, % of what its controller carries',
  mem_wait: 'time waiting on memory beyond its idle latency, %',
  // latencies (a table with latency: true counts them), µs of model time, lower is better
  lat_alloc_p99_us: 'allocation latency p99, µs of model time',
  lat_alloc_p999_us: 'allocation latency p99.9, µs of model time',
  lat_alloc_max_us: 'the longest allocation, µs of model time',
  lat_refill_p99_us: 'rmqueue_bulk() per refill, p99, µs of model time',
  lat_refill_max_us: 'the longest rmqueue_bulk() refill, µs of model time',
  lat_drain_p99_us: 'free_pcppages_bulk() per drain call, p99, µs of model time',
  lat_drain_max_us: 'the longest free_pcppages_bulk() call, µs of model time',
} as const;
export type Metric = keyof typeof METRICS;

/** The player's jump kinds (web/log/player.ts JUMP_KINDS; a test keeps the two equal): kept
 * as names here so the build-time parser does not load the player. */
export const JUMP_KIND_NAMES = ['merge', 'split', 'drain', 'refill', 'contended', 'prefetch', 'slab_alloc', 'remote_free', 'slab_prefetch'] as const;
export type JumpKind = (typeof JUMP_KIND_NAMES)[number];

export { PRESETS };
export type { Preset };

/** One model-machine configuration: a preset, optionally with pcp batch / high changed. */
export interface SimConfig {
  label: string;
  preset: Preset;
  batch?: number;
  high?: number;
  /** CONFIG_PCP_BATCH_SCALE_MAX, 0..6, 6.7+ presets (52166607ecc9); absent: the preset's (5) */
  pcpBatchScaleMax?: number;
  /** a different start-jitter seed: the same config run again, to show run-to-run noise */
  seed?: number;
  /** the capstone: the student edits this config's batch and high */
  tunable?: boolean;
  /** hackbench only: SLUB's freelist prefetch (the 2011 change), and the same-CPU control */
  slubPrefetch?: boolean;
  sameCpu?: boolean;
}

/** A run whose event log the player shows: an op script (plain machine) or a sim run. */
export type LessonRun = { kind: 'script'; name: string; script: string; line: number } | LessonSimRun;

/** A model-machine run the player shows, in its workload's own fields. */
export type LessonSimRun = {
  kind: 'sim';
  name: string;
  line: number;
  config: SimConfig;
  seed: number;
  clearLines: number;
  cacheScale: number;
} & (
  | { workload: LessonPagesWorkload; cpus: number; pages: number; iterations: number }
  | {
      workload: 'hackbench';
      /** sender/receiver groups, one CPU each */
      groups: number;
      /** messages each sender sends */
      loops: number;
    }
);

export interface QuotedTable {
  source: string;
  columns: string[];
  rows: (string | number)[][];
  /** which quoted numbers stand for which model config (web/lessons/seedband.ts) */
  bands?: SeedBandSpec[];
}

/**
 * The seed's own % change for one model config, computed from its quoted numbers: a kernel per
 * row (`by: 'row'`, index and base are row numbers, cells the columns to read) or per column
 * (index and base are columns, cells the rows). Shown beside the model's cell for `tasks`.
 */
export interface SeedBandSpec {
  config: string;
  /** the row: its task count, or hackbench's groups (the lesson says `groups:` there) */
  tasks: number;
  by: 'row' | 'column';
  index: number;
  base: number;
  cells: number[];
}

/** A table the model computes: one row per task count (hackbench: groups), one column per config. */
export type LessonTable = {
  name: string;
  line: number;
  caption: string;
  /** the first seed; each config runs `seeds` seeds from its own (or this) one up */
  seed: number;
  seeds: number;
  clearLines: number;
  /** L2 and LLC divided by this (blab sim --cache-scale): 4096 pages per task at 8 keep
   * will-it-scale's 128 MB footprint-to-cache ratio */
  cacheScale: number;
  /** the rows: each a run's tasks (one CPU each), or hackbench's groups (rowsName()) */
  tasks: number[];
  configs: SimConfig[];
  metric: Metric;
  /** its runs count each allocation's and free's latency (a lat_* metric needs it; two tables
   * of the same runs share them only if both say it) */
  latency: boolean;
  /** also show each config's % change against the first */
  gain: boolean;
  /** a zone and an LRU list per node (blab sim --node-zones), as the seed's machine had them */
  nodeZones: boolean;
  /** page_fault1's tasks out of step (blab sim --out-of-step), as will-it-scale's are */
  outOfStep: boolean;
  quoted?: QuotedTable;
} & (
  | {
      workload: LessonPagesWorkload;
      /** per task per round; stress_highalloc: the zone's fill */
      pages: number;
      /** rounds; stress_highalloc: order-9 attempts */
      iterations: number;
    }
  | {
      workload: 'hackbench';
      /** messages each sender sends */
      loops: number;
    }
);

export type StepAt = { kind: 'start' } | { kind: 'end' } | { kind: 'step'; step: number } | { kind: 'event'; event: JumpKind; nth: number };

/** A number the model computes, read off a table: the % gain of config over the first, or its metric. */
export interface TableRef {
  table: string;
  /** the row: its task count, or hackbench's groups (the lesson says `groups:` there) */
  tasks: number;
  config: string;
  measure: 'gain' | 'value';
}

export type Predict =
  | { kind: 'choice'; question: string; choices: string[]; answer: number; explain?: string }
  | { kind: 'number'; question: string; unit?: string; answer: number | TableRef; tolerance: number; explain?: string };

export interface LessonStep {
  title: string;
  line: number;
  /** the step's prose, Markdown (rendered and sanitised only in the browser) */
  prose: string;
  run?: string;
  at: StepAt;
  views: LessonViewId[];
  highlight?: LessonViewId;
  table?: string;
  predict?: Predict;
  /** prose shown once the predict question is answered (after `<!-- answer -->`) */
  answerProse?: string;
}

export interface Lesson {
  file: string;
  id: string;
  number: number;
  title: string;
  summary: string;
  seedSource?: string;
  leavesOut: string;
  runs: Record<string, LessonRun>;
  tables: Record<string, LessonTable>;
  steps: LessonStep[];
}
