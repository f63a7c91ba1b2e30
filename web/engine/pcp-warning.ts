// A run whose pcp lists were never drained (or never refilled) did not exercise what the
// presets differ in: free_pcppages_bulk() (or rmqueue_bulk()) never ran, so two presets that
// change only that path give the same numbers. Said from the run's own counters (the core's
// pcp_* stats), with what to change.
import type { SimStats } from './simstats.ts';
import { CORE_PRESETS } from '../scenario/core-schema.ts';

/** 6.7+: each list's high moves between high_min and high_max (the run's `high` is high_min). */
const autoTuned = (preset: string | undefined) => (CORE_PRESETS.find((p) => p.name === preset)?.strategy.highMode ?? 0) >= 2;

/** Whether a workload's runs are warned about at all: hackbench's configurations differ in
 * SLUB's switches, not in the pcp paths, so a list that never drained says nothing about them. */
export const pcpWarningsApply = (workload: string): boolean => workload !== 'hackbench';

/** A table whose figure is drain_pages()'s own free_pcppages_bulk() calls (lat_drain_*): its
 * runs did take the bulk free, from the drain, so "never drained at high" hides nothing it
 * compares (the core counts the frees at high and decay_pcp_high()'s, not drain_pages()'s). */
export const readsDrainCalls = (metric: string | undefined): boolean => metric?.startsWith('lat_drain') ?? false;

/** The warnings a run carries, in words; empty when every used pcp list was drained and refilled
 * (or the core printed no pcp counters, or the preset has no pcp lists). */
export function pcpWarnings(s: SimStats, preset?: string, metric?: string): string[] {
  const used = s.pcpUsed ?? 0;
  if (used === 0) return [];
  const out: string[] = [];
  // the same words for every run where all lists missed the path, so a table says it once
  const lists = (n: number) => (n === used ? 'the pcp lists' : `the pcp lists of ${n} of ${used} CPUs`);
  // a tuned list's high is its own and moves: the run's number is where it starts, high_min
  const tuned = autoTuned(preset);
  const highWords = tuned ? `its high (which starts at high_min, ${s.high}, and rises with every refill)` : `high (${s.high})`;
  if (s.pcpUndrained && !readsDrainCalls(metric)) {
    out.push(
      `${lists(s.pcpUndrained)} never drained: free_pcppages_bulk() never ran, because the frees never brought a list's count up to ${highWords}, so a change to the bulk free cannot show. ` +
        (tuned ? 'Give each task more pages than its list grows to hold, or free more between allocations.' : `Give each task more pages than high, or lower high.`),
    );
  }
  if (s.pcpUnrefilled) {
    out.push(
      `${lists(s.pcpUnrefilled)} never refilled: rmqueue_bulk() never ran, every allocation took a page freed onto the list before, so a change to the refill cannot show. ` +
        (tuned ? `Give each task more pages (more than high_min, ${s.high}).` : `Give each task more pages (more than high, ${s.high}), or lower high.`),
    );
  }
  return out;
}

/** One run among many, for warnings said once with everywhere they hold. */
export interface LabelledRun {
  label: string;
  /** the preset it ran, for what its high means */
  preset?: string;
  tasks: number;
  stats: SimStats;
}

/** Each warning once, with where it holds: "v4.16 at 1, 16 tasks". */
export function groupedWarnings(runs: Iterable<LabelledRun>, metric?: string): { text: string; where: string[] }[] {
  // warning -> label -> task counts
  const by = new Map<string, Map<string, number[]>>();
  for (const r of runs) {
    for (const w of pcpWarnings(r.stats, r.preset, metric)) {
      const per = by.get(w) ?? new Map<string, number[]>();
      const tasks = per.get(r.label) ?? [];
      if (!tasks.includes(r.tasks)) tasks.push(r.tasks);
      per.set(r.label, tasks);
      by.set(w, per);
    }
  }
  return [...by].map(([text, per]) => ({ text, where: [...per].map(([label, tasks]) => `${label} at ${tasks.sort((a, b) => a - b).join(', ')} tasks`) }));
}
