// One run of the model machine with every parameter named, and the one place where a run's
// parameters get their defaults. The workbench's Run scenario, the throughput panel's sweep,
// the compare view and the lessons build their runs here, so one configuration gives one
// score in every view; `blabCommand()` writes the native command that reproduces the run and
// `runParameters()` the parameters in words, for the results card, captions and CSV headers.
import { presetBatchScaleMax, type Scenario } from './url.ts';
import { HIGHALLOC_ATTEMPTS, workloadEntry, type WorkloadName } from './workloads.ts';

export const RUN_DEFAULTS = {
  /** rounds each task runs; the first is a warm-up and not scored (blab sim's own default) */
  rounds: 2,
  /** frame lines clear_page() passes through the cache model (docs/sim.md: 8 comes near the
   * seeds' numbers at an eighth of the cost of all 64) */
  clearLines: 8,
  /** stress_highalloc: cpu 0's attempts at an order-9 block */
  attempts: HIGHALLOC_ATTEMPTS,
} as const;

/** clear_page() lines of the runs whose numbers are shown (lesson tables, the compare view,
 * the throughput sweep): the whole page, as the kernel clears it. The pollution of L2 by a
 * 4 KB clear is what evicts the allocator's struct page lines, so fewer lines move the
 * scores (docs/sim.md); the players' small scenarios may take RUN_DEFAULTS.clearLines. */
export const MEASURED_CLEAR_LINES = 64;

/** Presets older than the 2011 change (3.3): SLUB's fast path did not prefetch then. */
const BEFORE_SLUB_PREFETCH = new Set(['v2.5.44', 'v2.5.45', 'v2.6.25']);

/** SLUB's freelist prefetch as a preset's kernel had it: on from v3.3 (Eric Dumazet, 2011). */
export function presetSlubPrefetch(preset: string): boolean {
  return !BEFORE_SLUB_PREFETCH.has(preset);
}

/** The workloads whose tasks map pages (every one but hackbench, whose tasks send messages). */
export type PagesWorkload = Exclude<WorkloadName, 'hackbench'>;

/** What every workload's run asks for besides its own sizes. */
interface RunCommon {
  preset: string;
  seed: number;
  /** pcp batch / high overrides; absent: the preset's own */
  batch?: number;
  high?: number;
  /** CONFIG_PCP_BATCH_SCALE_MAX, 0..6, 6.7+ presets; absent: the preset's (5). runRequest()
   * leaves the preset's own value out, so a run names it only when it differs */
  pcpBatchScaleMax?: number;
  /** count each allocation's and free's latency (blab sim --latency); its lat* counters */
  latency?: boolean;
  /** a zone and an LRU list per node, as the seeds' NUMA machines have them (blab sim
   * --node-zones; page_fault1 and parallel_free) */
  nodeZones?: boolean;
  /** page_fault1's tasks each at its own point of its loop (blab sim --out-of-step; 3 or more
   * rounds) */
  outOfStep?: boolean;
}

/** What a page asks for; everything left out takes RUN_DEFAULTS or the preset's own value. */
export type RunInput = RunCommon & {
  clearLines?: number;
  /** L2 and LLC sizes divided by this (1..64, a power of two; absent: 1), as blab sim
   * --cache-scale: pages per task at a 1/N of will-it-scale's keep its footprint-to-cache
   * ratio (willItScaleCacheScale) */
  cacheScale?: number;
} & (
    | {
        workload: PagesWorkload;
        /** tasks, one model CPU each */
        cpus: number;
        /** pages each task works on per round; stress_highalloc: the zone's fill */
        pages: number;
        /** rounds (not stress_highalloc) */
        rounds?: number;
        /** stress_highalloc's order-9 attempts */
        attempts?: number;
      }
    | {
        workload: 'hackbench';
        /** sender/receiver groups, one CPU each */
        groups: number;
        /** messages each sender sends */
        loops: number;
        /** SLUB's freelist prefetch (absent: the preset's) and the same-CPU control */
        slubPrefetch?: boolean;
        sameCpu?: boolean;
      }
  );

/** A run of a workload whose tasks map pages, exactly as the core takes it. */
export interface PagesRun extends RunCommon {
  workload: PagesWorkload;
  /** tasks, one model CPU each */
  cpus: number;
  /** pages each task works on per round; stress_highalloc: the zone's fill */
  pages: number;
  /** rounds; stress_highalloc: order-9 attempts */
  iterations: number;
  clearLines: number;
  /** 1: the model's own caches */
  cacheScale: number;
}

/** A hackbench run exactly as the core takes it (docs/slab.md), by the core's own names. */
export interface HackbenchRun extends RunCommon {
  workload: 'hackbench';
  /** sender/receiver groups, one CPU each */
  groups: number;
  /** messages each sender sends */
  loops: number;
  /** prefetch_freepointer() in the allocation fast path (the 2011 change) */
  slubPrefetch: boolean;
  /** each receiver on its sender's CPU: every free a fast-path free (the control) */
  sameCpu: boolean;
  clearLines: number;
  cacheScale: number;
}

/** A run exactly as the core takes it (blab_js_sim_run()): nothing left to a hidden default.
 * TypeScript refuses a hackbench run with pages, or a page_fault1 run with groups. */
export type RunParams = PagesRun | HackbenchRun;

/** A run's tasks, one model CPU each: the sweep's axis (hackbench: its groups). */
export function runTasks(p: RunParams): number {
  return p.workload === 'hackbench' ? p.groups : p.cpus;
}

/**
 * For the pages that sweep any workload over task counts at one size (the compare view, the
 * lessons' tables, the scenario form): `tasks` tasks of `size` each, in the workload's own
 * fields; for hackbench the tasks are its groups and the size the messages each sender sends.
 */
export function sizedInput(workload: 'hackbench', tasks: number, size: number): { workload: 'hackbench'; groups: number; loops: number };
export function sizedInput(workload: PagesWorkload, tasks: number, size: number): { workload: PagesWorkload; cpus: number; pages: number };
export function sizedInput(workload: WorkloadName, tasks: number, size: number): { workload: PagesWorkload; cpus: number; pages: number } | { workload: 'hackbench'; groups: number; loops: number };
export function sizedInput(workload: WorkloadName, tasks: number, size: number): { workload: PagesWorkload; cpus: number; pages: number } | { workload: 'hackbench'; groups: number; loops: number } {
  return workload === 'hackbench' ? { workload, groups: tasks, loops: size } : { workload, cpus: tasks, pages: size };
}

export function runRequest(r: RunInput): RunParams {
  const common = {
    preset: r.preset,
    seed: r.seed,
    clearLines: r.clearLines ?? RUN_DEFAULTS.clearLines,
    cacheScale: r.cacheScale ?? 1,
    ...(r.batch !== undefined ? { batch: r.batch } : {}),
    ...(r.high !== undefined ? { high: r.high } : {}),
    // the preset's own scale is the run without the option: one point, one spelling
    ...(r.pcpBatchScaleMax !== undefined && r.pcpBatchScaleMax !== presetBatchScaleMax(r.preset) ? { pcpBatchScaleMax: r.pcpBatchScaleMax } : {}),
    ...(r.latency ? { latency: true } : {}),
    ...(r.nodeZones ? { nodeZones: true } : {}),
    ...(r.outOfStep ? { outOfStep: true } : {}),
  };
  if (r.workload === 'hackbench') {
    return {
      workload: 'hackbench',
      groups: r.groups,
      loops: r.loops,
      slubPrefetch: r.slubPrefetch ?? presetSlubPrefetch(r.preset),
      sameCpu: r.sameCpu ?? false,
      ...common,
    };
  }
  return {
    workload: r.workload,
    cpus: r.cpus,
    pages: r.pages,
    iterations: r.workload === 'stress_highalloc' ? (r.attempts ?? RUN_DEFAULTS.attempts) : (r.rounds ?? RUN_DEFAULTS.rounds),
    ...common,
  };
}

/** The workbench's scenario (a zone size and CPUs) as a run: the workload's own sizes. */
export function scenarioRequest(s: Scenario): RunParams {
  const w = workloadEntry(s.workload);
  if (!w) throw new Error(`unknown workload ${s.workload}`);
  const { tasks, size } = w.size(s.pages, s.cpus);
  // the workbench counts every call's latency: its results card and latency view show them
  return runRequest({
    preset: s.preset,
    seed: s.seed,
    ...sizedInput(w.name, tasks, size),
    ...(s.pcpBatchScaleMax !== undefined ? { pcpBatchScaleMax: s.pcpBatchScaleMax } : {}),
    latency: true,
  });
}

/**
 * The native command that makes the same run and prints the same numbers; with `tasks`, the
 * same run swept over those task counts (hackbench: groups), one row each.
 */
export function blabCommand(p: RunParams, tasks: readonly number[] = [runTasks(p)]): string {
  const pcp = [
    ...(p.batch !== undefined ? ['--batch', p.batch] : []),
    ...(p.high !== undefined ? ['--high', p.high] : []),
    ...(p.pcpBatchScaleMax !== undefined ? ['--pcp-batch-scale-max', p.pcpBatchScaleMax] : []),
    ...(p.latency ? ['--latency'] : []),
    ...(p.nodeZones ? ['--node-zones'] : []),
    ...(p.outOfStep ? ['--out-of-step'] : []),
  ];
  const args =
    p.workload === 'hackbench'
      ? [
          '--workload', 'hackbench', '--groups', tasks.join(','), '--loops', p.loops,
          '--slub-prefetch', p.slubPrefetch ? 'on' : 'off', ...(p.sameCpu ? ['--same-cpu'] : []),
          '--preset', p.preset, '--seed', p.seed, ...pcp,
        ]
      : [
          '--workload', p.workload, '--cpus', tasks.join(','), '--preset', p.preset, '--pages', p.pages,
          '--iterations', p.iterations, '--seed', p.seed, '--clear-lines', p.clearLines,
          ...(p.cacheScale > 1 ? ['--cache-scale', p.cacheScale] : []), ...pcp,
        ];
  return ['blab', 'sim', ...args].join(' ');
}

/** Every parameter of the run in words, in the order a reader wants them: name, value. */
export function runParameters(p: RunParams): [string, string | number][] {
  const out: [string, string | number][] = [['workload', p.workload], ['preset', p.preset]];
  if (p.workload === 'hackbench') {
    out.push(['groups', p.groups], ['messages per sender', p.loops], ['SLUB freelist prefetch', p.slubPrefetch ? 'on' : 'off']);
    if (p.sameCpu) out.push(['receivers', 'on the sender CPU']);
  } else if (p.workload === 'stress_highalloc') {
    out.push(['CPUs', p.cpus], ["the zone's fill (pages)", p.pages], ['order-9 attempts', p.iterations]);
  } else {
    out.push(['tasks', p.cpus], ['pages per task', p.pages], ['rounds (the first a warm-up)', p.iterations]);
  }
  out.push(['seed', p.seed]);
  if (p.workload !== 'hackbench') out.push(['clear_page() lines', p.clearLines]);
  // only where the caches were scaled: the workbench's runs use the model's own
  if (p.workload !== 'hackbench' && p.cacheScale > 1) out.push(['L2 and LLC sizes divided by', p.cacheScale]);
  out.push(['pcp batch', p.batch ?? "the preset's"], ['pcp high', p.high ?? "the preset's"]);
  const scale = presetBatchScaleMax(p.preset);
  if (scale !== undefined) out.push(['CONFIG_PCP_BATCH_SCALE_MAX', p.pcpBatchScaleMax ?? `${scale} (the preset's)`]);
  if (p.latency) out.push(['latency', 'each allocation and free counted']);
  if (p.nodeZones) out.push(['zones', 'a zone->lock and an lru_lock per node']);
  if (p.outOfStep) out.push(['tasks', 'out of step, each at its own point of its loop']);
  return out;
}
