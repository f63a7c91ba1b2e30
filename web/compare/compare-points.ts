// Which measured runs a compare makes, without the page: the chart's points (one per
// configuration and task count, the state's seed) and the diff table's seeds at `cpus`. No DOM
// here, because the build imports it too: vite.config.ts hands the default link's points to the
// lessons' build step (web/lessons/precompute.ts), which has the native core compute them, so
// the page most people open first draws its chart and table at once. Other links keep the
// worker pool and the results cache.
import type { SimRequest } from '../engine/blab-module';
import { pointKey } from '../engine/point.ts';
import { COMPARE_WORKLOADS, DEFAULT_COMPARE, type CompareState } from './compare-url.ts';
import { compareRequest, measuredSeeds } from './compare-request.ts';

/** The name the default link's runs ship under in `virtual:lesson-results`. */
export const COMPARE_SET = 'compare';

export interface MeasuredRequests {
  /** configuration by configuration, each task count of the sweep (none without a chart) */
  chart: SimRequest[];
  /** configuration by configuration, each seed at `cpus` */
  diff: SimRequest[];
}

export function measuredRequests(state: CompareState): MeasuredRequests {
  const seeds = measuredSeeds(state);
  return {
    chart: COMPARE_WORKLOADS[state.workload].sweep ? state.configs.flatMap((c) => state.tasks.map((n) => compareRequest(state, c, n))) : [],
    diff: state.configs.flatMap((c) => seeds.map((seed) => compareRequest(state, c, state.cpus, seed))),
  };
}

/** The default link's measured runs, by point key, once each: what the build ships. */
export function defaultCompareKeys(): string[] {
  const r = measuredRequests(DEFAULT_COMPARE);
  return [...new Set([...r.chart, ...r.diff].map(pointKey))];
}
