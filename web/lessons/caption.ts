// A table's caption, read off what the table runs: the workload, what its metric means for
// that workload (pages/s for page_fault1, messages/s for hackbench), and the run's size in the
// workload's own terms. The lesson's own caption only says what is compared, so no caption can
// name a benchmark the table did not run (parse.ts refuses a caption that names a workload).
import { LESSON_WORKLOADS, METRICS, type LessonTable, type LessonWorkload, type Metric } from './lesson.ts';

/** page_fault1's counters that cover both rounds, the warm-up too (and mixed's, its set-up too) */
const WHOLE_RUN: readonly Metric[] = ['zone_bp', 'lru_bp', 'acq_per_page', 'misses_locked', 'pf_hit', 'hold_per_acq'];

/** What the metric is, in the workload's unit. */
export function metricLabel(metric: Metric, w: LessonWorkload): string {
  if (metric === 'score') return w === 'hackbench' ? 'score, messages/s' : w === 'mixed' ? 'score, order-0 pages/s' : w === 'stress_highalloc' ? 'order-9 blocks got' : 'score, pages/s';
  if (metric === 'time_ms') return w === 'hackbench' ? 'virtual ms until the last message is read' : 'virtual ms';
  // page_fault1 (and mixed, which scores its page_fault1 tasks) scores the scored rounds and
  // times their lock spin too; every other counter it reads is of the whole run, and says so
  if ((w === 'page_fault1' || w === 'mixed') && WHOLE_RUN.includes(metric)) return `${METRICS[metric]} over the whole run, ${w === 'mixed' ? 'set-up and ' : ''}warm-up included`;
  return METRICS[metric];
}

/** The run's size as the workload counts it (WORKLOAD_SHAPES in lesson.ts), with the caches'
 * scale and clear_page()'s lines where they apply. */
export function runSize(t: LessonTable): string {
  if (t.workload === 'hackbench') return `${t.loops} messages per sender`;
  const rounds = `${t.iterations} ${t.iterations === 1 ? 'round' : 'rounds'}${t.iterations > 1 ? ' (the first a warm-up)' : ''}`;
  const scale = t.cacheScale > 1 ? `, L2 and LLC / ${t.cacheScale} (the footprint-to-cache ratio of ${t.pages * t.cacheScale} pages)` : '';
  // the seed's topology, where the table runs it (seed 002's claims do: docs/fidelity.md)
  const topology = `${t.nodeZones ? ', a zone and an LRU list per node' : ''}${t.outOfStep ? ', the tasks out of step' : ''}`;
  const machine = `${scale}${topology}, clear_page() through ${t.clearLines} of 64 lines`;
  switch (t.workload) {
    case 'page_fault1':
      return `${t.pages} pages per task${machine}, ${rounds}`;
    case 'mixed':
      return `${t.pages} pages per page_fault1 task${machine}, ${rounds}`;
    case 'stress_highalloc':
      return `a zone of ${t.pages} pages, ${t.iterations} order-9 ${t.iterations === 1 ? 'attempt' : 'attempts'}`;
  }
}

/** The seeds a table runs, in words: one, or several with how a cell sums them up. */
export function seedWords(t: LessonTable): string {
  return t.seeds > 1 ? `seeds ${t.seed}..${t.seed + t.seeds - 1}, each cell their mean with min..max under it` : `seed ${t.seed}`;
}

/** "The model: hackbench, virtual ms ...: <the lesson's words> (400 messages per sender, seed 1)" */
export function tableCaption(t: LessonTable): string {
  const c = tableCaptionParts(t);
  return `${c.main} (${c.detail})`;
}

/** The caption as what is compared and, apart, the sizes (a slide shows the first only). */
export function tableCaptionParts(t: LessonTable): { main: string; detail: string } {
  return { main: `The model: ${t.workload}, ${metricLabel(t.metric, t.workload)}: ${t.caption}`, detail: `${runSize(t)}, ${seedWords(t)}` };
}

/** The workload a caption names, if any: a lesson's caption must name none (the page adds it). */
export function workloadNamedIn(caption: string): LessonWorkload | undefined {
  return LESSON_WORKLOADS.find((w) => new RegExp(`\\b${w}\\b`).test(caption));
}
