// The compare page's chart: the score against tasks (groups for hackbench), one line per
// configuration, in the core's unit, redrawn (once a frame) as the measured runs' points
// arrive; its CSV and commands once the last is in. A workload whose score is no throughput
// (stress_highalloc: the share of order-9 attempts that got a block) gets a sentence instead.
import type { ThroughputSeries } from '../engine/sweep';
import { el, panel } from '../ui/dom';
import type { CsvTable } from '../ui/csv';
import { addViewExportButtons, csvButton } from '../ui/export-buttons';
import { perFrame } from '../ui/per-frame';
import { howMadeLine } from '../ui/provenance';
import { createThroughputSvg, drawThroughputChart } from '../views/throughput';
import { COMPARE_WORKLOADS, type CompareState, type CompareWorkloadSpec } from './compare-url';
import { runsOf, sizeWords } from './describe-runs';

export interface CompareChart {
  /** draws the series again (at the next frame) */
  redraw(): void;
  /** every point is in: the CSV and the commands */
  finish(): void;
}

/** The sentence in the chart's place for a workload with no sweep. */
export function noChart(state: CompareState, chartBox: HTMLElement): void {
  const sp: CompareWorkloadSpec = COMPARE_WORKLOADS[state.workload];
  chartBox.append(
    el('h3', { id: 'chart-title', text: 'No chart against tasks' }),
    el('p', { class: 'hint', text: `${state.workload}'s score is the share of order-9 attempts that got a block (${sp.score}), not a throughput: the diff table above compares it.` }),
  );
}

/** The chart in chartBox; `points` is how many distinct points it will get. */
export function mountChart(state: CompareState, chartBox: HTMLElement, series: ThroughputSeries[], points: number): CompareChart {
  const sp: CompareWorkloadSpec = COMPARE_WORKLOADS[state.workload];
  const sweep = sp.sweep!;
  const what = state.workload === 'hackbench' ? 'groups' : 'tasks';
  const title = `Throughput against ${what} (${sp.score}, ${sp.better} is better)`;
  const note = `one line per configuration, seed ${state.seed}, ${sizeWords(state)}${sweep.linear ? '; dashed: linear scaling of the first' : ''}`;
  const chartPanel = panel(chartBox, 'throughput', title, note);
  chartBox.querySelector('h2')?.setAttribute('id', 'chart-title');
  const chart = createThroughputSvg();
  chartPanel.append(chart);
  const redraw = perFrame(() => {
    drawThroughputChart(chart, series, {
      title: `${state.workload} score against ${what}: ${state.configs.map((c) => c.label).join(', ')}`,
      linear: sweep.linear,
      unit: sp.score.replace(/ \/ /g, '/'),
      xLabel: sweep.axis,
    });
    // when the chart showed its last point, ms after the page started (make bench reads it)
    if (series.reduce((n, s) => n + s.points.length, 0) === points && !chartBox.dataset['lastPointMs'])
      chartBox.dataset['lastPointMs'] = String(Math.round(performance.now()));
  });
  redraw();
  const runs = runsOf(state);
  return {
    redraw,
    finish() {
      const chartCsv: CsvTable = {
        title: `buddylab compare: ${state.workload} score (${sp.score}) against ${what}`,
        params: runs.params.filter(([k]) => k !== 'tasks' && k !== 'groups'),
        commands: runs.commands(state.tasks),
        columns: [what, ...series.map((s) => `${s.label} (${sp.score})`)],
        rows: state.tasks.map((n) => [n, ...series.map((s) => s.points.find((p) => p.tasks === n)?.score ?? null)]),
      };
      addViewExportButtons(chartPanel.parentElement!, { title, what: 'the chart', file: 'compare-throughput' });
      chartPanel.append(el('div', { class: 'table-actions' }, csvButton(chartCsv, 'compare-throughput')), howMadeLine(runs.commands(state.tasks), 'chart'));
    },
  };
}
