// One run of the model machine with every parameter named, and the one place where a run's
// parameters get their defaults. The workbench's Run scenario, the throughput panel's sweep,
// the compare view and the lessons build their runs here, so one configuration gives one
// score in every view; `blabCommand()` writes the native command that reproduces the run and
// `runParameters()` the parameters in words, for the results card, captions and CSV headers.
import type { Scenario } from './url';
import { HIGHALLOC_ATTEMPTS, workloadEntry } from './workloads';

export const RUN_DEFAULTS = {
  /** rounds each task runs; the first is a warm-up and not scored (blab sim's own default) */
  rounds: 2,
  /** frame lines clear_page() passes through the cache model (docs/sim.md: 8 comes near the
   * seeds' numbers at an eighth of the cost of all 64) */
  clearLines: 8,
  /** stress_highalloc: cpu 0's attempts at an order-9 block */
  attempts: HIGHALLOC_ATTEMPTS,
} as const;

/** Presets older than the 2011 change (3.3): SLUB's fast path did not prefetch then. */
const BEFORE_SLUB_PREFETCH = new Set(['v2.5.44', 'v2.5.45', 'v2.6.25']);

/** SLUB's freelist prefetch as a preset's kernel had it: on from v3.3 (Eric Dumazet, 2011). */
export function presetSlubPrefetch(preset: string): boolean {
  return !BEFORE_SLUB_PREFETCH.has(preset);
}

/** What a page asks for; everything left out takes RUN_DEFAULTS or the preset's own value. */
export interface RunInput {
  /** the core's workload name (web/scenario/workloads.ts) */
  workload: string;
  preset: string;
  /** tasks, one model CPU each; hackbench: groups */
  cpus: number;
  /** pages each task works on per round; hackbench: messages per sender; stress_highalloc:
   * the zone's fill */
  pages: number;
  seed: number;
  /** rounds (not hackbench, not stress_highalloc) */
  rounds?: number;
  /** stress_highalloc's order-9 attempts */
  attempts?: number;
  clearLines?: number;
  /** pcp batch / high overrides; absent: the preset's own */
  batch?: number;
  high?: number;
  /** hackbench: SLUB's freelist prefetch (absent: the preset's) and the same-CPU control */
  slubPrefetch?: boolean;
  sameCpu?: boolean;
}

/** A run exactly as the core takes it (blab_js_sim_ex()): nothing left to a hidden default. */
export interface RunParams {
  workload: string;
  preset: string;
  cpus: number;
  pages: number;
  /** rounds; stress_highalloc: attempts; hackbench: its switches (bit 0 freelist prefetch,
   * bit 1 same CPU), as the core reads them */
  iterations: number;
  seed: number;
  clearLines: number;
  batch?: number;
  high?: number;
}

export function runRequest(r: RunInput): RunParams {
  const iterations =
    r.workload === 'hackbench'
      ? ((r.slubPrefetch ?? presetSlubPrefetch(r.preset)) ? 1 : 0) | (r.sameCpu ? 2 : 0)
      : r.workload === 'stress_highalloc'
        ? (r.attempts ?? RUN_DEFAULTS.attempts)
        : (r.rounds ?? RUN_DEFAULTS.rounds);
  return {
    workload: r.workload,
    preset: r.preset,
    cpus: r.cpus,
    pages: r.pages,
    iterations,
    seed: r.seed,
    clearLines: r.clearLines ?? RUN_DEFAULTS.clearLines,
    ...(r.batch !== undefined ? { batch: r.batch } : {}),
    ...(r.high !== undefined ? { high: r.high } : {}),
  };
}

/** The workbench's scenario (a zone size and CPUs) as a run: the workload's own sizes. */
export function scenarioRequest(s: Scenario): RunParams {
  const w = workloadEntry(s.workload);
  if (!w) throw new Error(`unknown workload ${s.workload}`);
  return runRequest({ workload: w.name, preset: s.preset, seed: s.seed, ...w.size(s.pages, s.cpus) });
}

/**
 * The native command that makes the same run and prints the same numbers; with `tasks`, the
 * same run swept over those task counts (hackbench: groups), one row each.
 */
export function blabCommand(p: RunParams, tasks: readonly number[] = [p.cpus]): string {
  const pcp = [...(p.batch !== undefined ? ['--batch', p.batch] : []), ...(p.high !== undefined ? ['--high', p.high] : [])];
  const args =
    p.workload === 'hackbench'
      ? [
          '--workload', 'hackbench', '--groups', tasks.join(','), '--loops', p.pages,
          '--slub-prefetch', p.iterations & 1 ? 'on' : 'off', ...(p.iterations & 2 ? ['--same-cpu'] : []),
          '--preset', p.preset, '--seed', p.seed, ...pcp,
        ]
      : [
          '--workload', p.workload, '--cpus', tasks.join(','), '--preset', p.preset, '--pages', p.pages,
          '--iterations', p.iterations, '--seed', p.seed, '--clear-lines', p.clearLines, ...pcp,
        ];
  return ['blab', 'sim', ...args].join(' ');
}

/** Every parameter of the run in words, in the order a reader wants them: name, value. */
export function runParameters(p: RunParams): [string, string | number][] {
  const out: [string, string | number][] = [['workload', p.workload], ['preset', p.preset]];
  if (p.workload === 'hackbench') {
    out.push(['groups', p.cpus], ['messages per sender', p.pages], ['SLUB freelist prefetch', p.iterations & 1 ? 'on' : 'off']);
    if (p.iterations & 2) out.push(['receivers', 'on the sender CPU']);
  } else if (p.workload === 'stress_highalloc') {
    out.push(['CPUs', p.cpus], ["the zone's fill (pages)", p.pages], ['order-9 attempts', p.iterations]);
  } else {
    out.push(['tasks', p.cpus], ['pages per task', p.pages], ['rounds (the first a warm-up)', p.iterations]);
  }
  out.push(['seed', p.seed]);
  if (p.workload !== 'hackbench') out.push(['clear_page() lines', p.clearLines]);
  out.push(['pcp batch', p.batch ?? "the preset's"], ['pcp high', p.high ?? "the preset's"]);
  return out;
}
