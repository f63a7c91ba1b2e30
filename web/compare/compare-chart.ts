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
import { CHART_MODES, COMPARE_WORKLOADS, type ChartMode, type CompareState, type CompareWorkloadSpec } from './compare-url';
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

/**
 * Each configuration's score as a % of the first's at the same task count (the first is a flat
 * 100); a task count the first has no point at is left out.
 */
export function percentOfFirst(series: readonly ThroughputSeries[]): ThroughputSeries[] {
  const base = new Map(series[0]?.points.map((p) => [p.tasks, p.score]) ?? []);
  return series.map((s) => ({
    label: s.label,
    points: s.points.flatMap((p) => {
      const b = base.get(p.tasks);
      return b ? [{ tasks: p.tasks, score: (p.score / b) * 100 }] : [];
    }),
  }));
}

const MODE_WORDS: Record<ChartMode, (first: string, linear: boolean) => string> = {
  data: () => 'scaled to the data',
  linear: (_f, linear) => (linear ? 'from 0, with the linear line' : 'from 0'),
  pct: (first) => `% of ${first}`,
};

/** The y axis choice: three radio buttons; the state keeps it (and the link, through onMode). */
function modeSwitch(state: CompareState, linear: boolean, onMode: () => void): HTMLElement {
  const box = el('fieldset', { class: 'chart-mode' }, el('legend', { text: 'y axis' }));
  for (const m of CHART_MODES) {
    const input = el('input', { type: 'radio', name: 'chart-mode', value: m, id: `chart-mode-${m}` });
    input.checked = state.chart === m;
    input.addEventListener('change', () => {
      state.chart = m;
      onMode();
    });
    box.append(el('label', { for: input.id }, input, ` ${MODE_WORDS[m](state.configs[0]!.label, linear)}`));
  }
  return box;
}

/** The chart in chartBox; `points` is how many distinct points it will get. */
export function mountChart(state: CompareState, chartBox: HTMLElement, series: ThroughputSeries[], points: number): CompareChart {
  const sp: CompareWorkloadSpec = COMPARE_WORKLOADS[state.workload];
  const sweep = sp.sweep!;
  const what = state.workload === 'hackbench' ? 'groups' : 'tasks';
  const title = `Throughput against ${what} (${sp.score}, ${sp.better} is better)`;
  const note = () =>
    `one line per configuration, seed ${state.seed}, ${sizeWords(state)}` +
    (state.chart === 'pct' ? `; each as a % of ${state.configs[0]!.label} at the same ${what}` : state.chart === 'linear' && sweep.linear ? '; dashed: linear scaling of the first' : '; the y axis is scaled to the scores');
  const chartPanel = panel(chartBox, 'throughput', title, note());
  const noteEl = chartPanel.parentElement?.querySelector('.panel-note');
  chartBox.querySelector('h2')?.setAttribute('id', 'chart-title');
  const chart = createThroughputSvg();
  chartPanel.append(
    modeSwitch(state, sweep.linear, () => {
      if (noteEl) noteEl.textContent = note();
      chartBox.dispatchEvent(new CustomEvent('chart-mode', { bubbles: true }));
      redraw();
    }),
    chart,
  );
  const unit = sp.score.replace(/ \/ /g, '/');
  const redraw = perFrame(() => {
    const pct = state.chart === 'pct';
    drawThroughputChart(chart, pct ? percentOfFirst(series) : series, {
      title: `${state.workload} score against ${what}: ${state.configs.map((c) => c.label).join(', ')}`,
      linear: state.chart === 'linear' && sweep.linear,
      yFromZero: state.chart === 'linear',
      unit: pct ? `% of ${state.configs[0]!.label}` : unit,
      ...(pct ? { yLabel: `% of ${state.configs[0]!.label}'s score` } : {}),
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
