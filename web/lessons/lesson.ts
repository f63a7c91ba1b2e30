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
  maxTables: 4,
  maxChoices: 6,
  maxScriptBytes: 8 * 1024,
  maxTaskPoints: 8,
  maxConfigs: 4,
  maxQuotedRows: 24,
  /** a sim run the browser replays: its work (WORKLOAD_SHAPES[w].work) */
  maxRunFaults: 1 << 15,
  /** one table: the sum over configs and task counts of each run's work */
  maxTableFaults: 1 << 19,
} as const;

/** Views a step may show: the ids of the view registry (web/views/registry.ts) a lesson may name. */
export const LESSON_VIEW_IDS = ['free-areas', 'buddy-tree', 'mem-map', 'pcp', 'lock-timeline', 'buddyinfo', 'cpustats'] as const satisfies readonly ViewId[];
export type LessonViewId = (typeof LESSON_VIEW_IDS)[number];
/** What a lecturer may put on a slide: a step's views, or the moving picture of the current record. */
export const LECTURE_FIGURE_IDS = [...LESSON_VIEW_IDS, 'event'] as const;
export type LectureFigureId = (typeof LECTURE_FIGURE_IDS)[number];

/**
 * Workloads a lesson may run (the core's names, web/scenario/workloads.ts). page_fault1: tasks = CPUs,
 * pages per task. hackbench (docs/slab.md): tasks = groups, pages = messages per sender,
 * configs choose slub_prefetch / same_cpu. stress_highalloc and mixed (docs/skipmerge.md):
 * tasks = CPUs, pages, iterations = attempts / rounds. A lesson naming a workload the core
 * does not have fails when it runs, with the core's own message.
 */
export const LESSON_WORKLOADS = ['page_fault1', 'hackbench', 'stress_highalloc', 'mixed'] as const;
export type LessonWorkload = (typeof LESSON_WORKLOADS)[number];

/**
 * What a lesson's `tasks` (a table's rows, a run's `cpus`), `pages` and `iterations` mean to the
 * core for each workload (blab_js_sim_run(), wasm-core/wasm/api.c), their bounds, and the work
 * one run does, which LESSON_LIMITS caps so a table computes in seconds in the browser.
 */
export interface WorkloadShape {
  tasks: readonly [number, number];
  pages: readonly [number, number];
  /** null: the workload takes no iterations from the lesson (hackbench: configs set its switches) */
  iterations: readonly [number, number] | null;
  /** the unit `work` counts, for the messages */
  unit: string;
  work(tasks: number, pages: number, iterations: number): number;
}

export const WORKLOAD_SHAPES: Record<LessonWorkload, WorkloadShape> = {
  // one task per CPU, `pages` per task per round, `iterations` rounds (the first a warm-up)
  page_fault1: { tasks: [1, CORE_LIMITS.modelCpus], pages: [1, 4096], iterations: [1, 4], unit: 'page faults', work: (t, p, i) => t * p * i },
  // tasks = groups (a sender CPU each), pages = messages each sender sends; the core's
  // iterations are its switches, set by each config's slub_prefetch / same_cpu
  hackbench: { tasks: [2, CORE_LIMITS.hackbenchMaxGroups], pages: [1, 4096], iterations: null, unit: 'messages', work: (t, p) => t * p },
  // pages = the zone's long-lived fill (at least 4 pageblocks of 512, so that one is left
  // whole), iterations = order-9 attempts by cpu 0, tasks = CPUs (the others churn order-0
  // pages); each attempt may compact, scanning the zone: work = pages x attempts
  stress_highalloc: { tasks: [1, 16], pages: [2048, 16384], iterations: [1, 16], unit: 'struct pages scanned at most', work: (_t, p, i) => p * i },
  // half the CPUs run page_fault1 (pages per task per round, iterations rounds), the other
  // half take order-9 blocks for as long as those run; each of those needs 1024 pages of zone
  mixed: { tasks: [2, 16], pages: [1, 4096], iterations: [1, 4], unit: 'page faults', work: (t, p, i) => t * p * i },
};

export const METRICS = {
  score: 'score (pages/s; hackbench: messages/s)',
  zone_bp: 'zone->lock contention %',
  acq_per_page: 'zone->lock acquisitions per page',
  misses_locked: 'cache misses under zone->lock',
  pf_hit: 'prefetch hits',
  hold_per_acq: 'cycles held per acquisition',
  lru_bp: 'lru_lock contention %',
  time_ms: 'virtual time, ms (hackbench: until the last message is read)',
  hi_success_pct: 'high-order allocations that succeeded, %',
  hi_ms: 'virtual ms per high-order attempt, compaction included',
  hi_unusable: 'unusable free space index for the high order when the attempts began (0 to 1)',
} as const;
export type Metric = keyof typeof METRICS;

/** The player's jump kinds (web/log/player.ts JUMP_KINDS; a test keeps the two equal): kept
 * as names here so the build-time parser does not load the player. */
export const JUMP_KIND_NAMES = ['merge', 'split', 'drain', 'refill', 'contended'] as const;
export type JumpKind = (typeof JUMP_KIND_NAMES)[number];

export { PRESETS };
export type { Preset };

/** One model-machine configuration: a preset, optionally with pcp batch / high changed. */
export interface SimConfig {
  label: string;
  preset: Preset;
  batch?: number;
  high?: number;
  /** a different start-jitter seed: the same config run again, to show run-to-run noise */
  seed?: number;
  /** the capstone: the student edits this config's batch and high */
  tunable?: boolean;
  /** hackbench only: SLUB's freelist prefetch (the 2011 change), and the same-CPU control */
  slubPrefetch?: boolean;
  sameCpu?: boolean;
}

/** A run whose event log the player shows: an op script (plain machine) or a sim run. */
export type LessonRun =
  | { kind: 'script'; name: string; script: string; line: number }
  | {
      kind: 'sim';
      name: string;
      line: number;
      workload: LessonWorkload;
      config: SimConfig;
      cpus: number;
      pages: number;
      iterations: number;
      seed: number;
      clearLines: number;
    };

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
  tasks: number;
  by: 'row' | 'column';
  index: number;
  base: number;
  cells: number[];
}

/** A table the model computes: one row per task count, one column per config. */
export interface LessonTable {
  name: string;
  line: number;
  caption: string;
  workload: LessonWorkload;
  pages: number;
  iterations: number;
  seed: number;
  clearLines: number;
  tasks: number[];
  configs: SimConfig[];
  metric: Metric;
  /** also show each config's % change against the first */
  gain: boolean;
  quoted?: QuotedTable;
}

export type StepAt = { kind: 'start' } | { kind: 'end' } | { kind: 'step'; step: number } | { kind: 'event'; event: JumpKind; nth: number };

/** A number the model computes, read off a table: the % gain of config over the first, or its metric. */
export interface TableRef {
  table: string;
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
