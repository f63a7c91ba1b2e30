// What a compare's runs were, for the words around its figures: the measured runs' size, the
// diff table's caption, and every parameter with the native commands that make them again
// (the CSV files' `#` lines and the "How was this made?" boxes).
import { blabCommand, runParameters } from '../scenario/request';
import { COMPARE_WORKLOADS, type CompareState, type CompareWorkloadSpec } from './compare-url';
import { compareParams } from './compare-request';

/** "1 CPU", "56 CPUs" */
export const cpuCount = (n: number) => `${n} ${n === 1 ? 'CPU' : 'CPUs'}`;

/** The measured runs' size, in words: what the page says the table and chart were run at. */
export function sizeWords(s: CompareState): string {
  const w: CompareWorkloadSpec = COMPARE_WORKLOADS[s.workload];
  const scale = w.cacheScale(s.pages);
  switch (s.workload) {
    case 'hackbench':
      return `${s.pages} messages per sender`;
    case 'stress_highalloc':
      return `a ${s.pages}-page fill, ${s.attempts} order-9 attempts`;
    default:
      return `${s.pages} pages per ${s.workload === 'mixed' ? 'page_fault1 ' : ''}task, clear_page() through all 64 lines${scale > 1 ? `, L2 and LLC / ${scale} (the footprint-to-cache ratio of will-it-scale's 128 MB)` : ''}`;
  }
}

/** The diff table's caption: the workload and what its parameters were. */
export function caption(s: CompareState): string {
  const cpus = cpuCount(s.cpus);
  switch (s.workload) {
    case 'hackbench':
      return `hackbench, ${s.cpus} groups x ${s.pages} messages`;
    case 'stress_highalloc':
      return `stress_highalloc at ${cpus}, a ${s.pages}-page fill, ${s.attempts} order-9 attempts`;
    case 'mixed':
      return `mixed at ${cpus}, ${s.pages} pages per page_fault1 task`;
    default:
      return `${s.workload} at ${cpus}, ${s.pages} pages per task`;
  }
}

export interface CompareRuns {
  /** the parameters the runs share, then each configuration's own */
  params: [string, string | number][];
  /** the native commands, one per configuration (swept over `tasks` for the chart; one per seed
   * for a table whose cells are the mean over seeds) */
  commands(tasks?: readonly number[], seeds?: readonly number[]): string[];
}

/** Every parameter of a compare's runs, and the native commands that make them. */
export function runsOf(state: CompareState): CompareRuns {
  const own = new Set(['preset', 'pcp batch', 'pcp high', 'SLUB freelist prefetch']);
  const shared = runParameters(compareParams(state, state.configs[0]!, state.cpus)).filter(([k]) => !own.has(k));
  const each = state.configs.map((c, i): [string, string] => [
    `configuration ${i + 1}`,
    runParameters(compareParams(state, c, state.cpus))
      .filter(([k]) => own.has(k))
      .map(([k, v]) => `${k} ${v}`)
      .join(', '),
  ]);
  return {
    params: [...shared, ...each],
    commands: (tasks, seeds) =>
      state.configs.flatMap((c) => {
        const p = compareParams(state, c, state.cpus);
        return (seeds ?? [p.seed]).map((seed) => blabCommand({ ...p, seed }, tasks));
      }),
  };
}
