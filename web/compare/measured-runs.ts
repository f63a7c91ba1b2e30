// The compare page's measured runs, in the engine's worker pool: the chart's points first (one
// per configuration and task count, the state's seed), drawn as each finishes, then the diff
// table's seeds at `cpus`: the table (diff.ts's rows, each configuration's mean with its seeds'
// min..max under it, the better / worse cells in words), the pcp warnings, its CSV and commands.
import type { SimPool } from '../engine/pool';
import { pcpWarnings, pcpWarningsApply } from '../engine/pcp-warning';
import { pointKey } from '../engine/point';
import type { SimStats } from '../engine/simstats';
import type { ThroughputSeries } from '../engine/sweep';
import type { CsvTable } from '../ui/csv';
import { el } from '../ui/dom';
import { scrollCue } from '../ui/scroll-cue';
import { download } from '../ui/download';
import { csvButton } from '../ui/export-buttons';
import { progressBar } from '../ui/progress-bar';
import { howMadeLine } from '../ui/provenance';
import { bindsText, diffCsvColumns, diffCsvRows, diffRows, formatMeasure, measureSpread, shownMeasures, WINDOW_NOTE, type DiffColumn } from './diff';
import { mountChart, noChart } from './compare-chart';
import { COMPARE_WORKLOADS, type CompareState, type CompareWorkloadSpec } from './compare-url';
import { measuredSeeds } from './compare-request';
import { measuredRequests } from './compare-points';
import { CORE_HASH } from '../engine/core-hash';
import { caption, runsOf } from './describe-runs';

export interface MeasureOptions {
  state: CompareState;
  pool: SimPool;
  diffBox: HTMLElement;
  chartBox: HTMLElement;
  /** each replayed column's unusable free space index at its end (the diff table's last row) */
  fragmentation: readonly number[];
  /** false once a newer compare started: this one draws nothing more */
  current(): boolean;
  /** runs already known by key: the default link's, shipped with the build */
  known?: ReadonlyMap<string, SimStats>;
}

/** The measured runs drawn: the diff table again once the replays' fragmentation is known. */
export interface Measured {
  redrawDiff(fragmentation: readonly number[]): void;
}

/** Runs and draws the measured runs; the chart's points as they come, the table at the end. */
export async function measureRuns(o: MeasureOptions): Promise<Measured | undefined> {
  const { state, pool, diffBox, chartBox } = o;
  const sp: CompareWorkloadSpec = COMPARE_WORKLOADS[state.workload];
  const seeds = measuredSeeds(state);
  const { chart: chartReqs, diff: diffReqs } = measuredRequests(state);
  chartBox.dataset['measureStartMs'] = String(Math.round(performance.now())); // make bench reads it
  const series: ThroughputSeries[] = state.configs.map((c) => ({ label: c.label, points: [] }));
  const chart = sp.sweep ? mountChart(state, chartBox, series, new Set(chartReqs.map(pointKey)).size) : undefined;
  if (!sp.sweep) noChart(state, chartBox);
  const diffStats: (SimStats | undefined)[] = new Array(diffReqs.length);
  const bar = progressBar('the measured runs', () => pool.cancel());
  diffBox.append(el('h3', { id: 'diff-title', text: 'Side by side' }), bar.root);
  const seen = new Set<string>();
  const cached = new Set<string>();
  const given = new Set<string>();
  const all = [...chartReqs, ...diffReqs];
  const outputs = await pool.run(all, {
    known: o.known,
    priority: (i) => (i < chartReqs.length ? 1 : 0),
    onProgress: (p) => {
      if (o.current()) bar.update(p);
    },
    onPoint: ({ index, key, stats, source }) => {
      if (!o.current()) return;
      if (source === 'cache') cached.add(key);
      if (source === 'given') given.add(key);
      if (index < chartReqs.length) {
        const j = Math.floor(index / state.tasks.length);
        const tasks = state.tasks[index % state.tasks.length]!;
        if (seen.has(`${j}/${tasks}`)) return; // a task count listed twice
        seen.add(`${j}/${tasks}`);
        series[j]!.points.push({ tasks, score: stats.score });
        series[j]!.points.sort((a, b) => a.tasks - b.tasks);
        chart?.redraw();
      } else diffStats[index - chartReqs.length] = stats;
    },
  });
  if (!o.current()) return undefined;
  const runs = new Map(all.map((r, i) => [pointKey(r), outputs[i]!]));
  const from = [
    given.size ? `, ${given.size} of them shipped with the page (the native core ran them at build time, core ${CORE_HASH})` : '',
    cached.size ? `, ${cached.size} of them from this browser's results cache` : '',
  ];
  bar.finish(`${runs.size} measured runs${from.join('')}`);
  // every measured run's record, one JSON line each, as `blab sim --points` prints it natively
  const text = el('button', { type: 'button', class: 'small', text: 'Runs as records', 'aria-label': 'Runs as records: save every measured run, its point key and every counter, one JSON line each' });
  text.addEventListener('click', () => download([...runs].map(([key, stats]) => `${JSON.stringify({ key, stats })}\n`).join(''), 'compare-runs.jsonl', 'application/jsonl'));
  bar.root.append(text);
  const columns = (fragmentation: readonly number[]): DiffColumn[] =>
    state.configs.map((c, j) => ({
      label: c.label,
      stats: diffStats.slice(j * seeds.length, (j + 1) * seeds.length) as SimStats[],
      ...(fragmentation[j] !== undefined ? { fragmentation: fragmentation[j] } : {}),
    }));
  const head = [...diffBox.children];
  drawDiff(state, diffBox, columns(o.fragmentation), seeds);
  chart?.finish();
  return {
    redrawDiff(fragmentation) {
      if (!o.current()) return;
      diffBox.replaceChildren(...head);
      drawDiff(state, diffBox, columns(fragmentation), seeds);
    },
  };
}

/** The diff table, its warnings, CSV and commands, into diffBox. */
function drawDiff(state: CompareState, diffBox: HTMLElement, diffCols: DiffColumn[], seeds: number[]) {
  const dr = diffRows(diffCols, state.workload);
  const ms = shownMeasures(diffCols, state.workload);
  const tbl = el('table', { class: 'data diff', id: 'diff-table' });
  tbl.append(el('caption', { text: `${caption(state)}, seeds ${seeds[0]}..${seeds.at(-1)} (the mean; min..max under it): the measured runs, computed by the core; "better" says which way each figure is better${WINDOW_NOTE[state.workload] ?? ''}` }));
  const thead = el('thead');
  const htr = el('tr');
  for (const h of dr[0]!) htr.append(el('th', { scope: 'col', text: h }));
  thead.append(htr);
  const tb = el('tbody');
  // the % cells say better / worse in words; the colour only repeats it
  const cell = (v: string) => el('td', { text: v, ...(/ (better|worse)( \(|$)/.test(v) ? { class: / better( \(|$)/.test(v) ? 'gain' : 'loss' } : {}) });
  dr.slice(1).forEach((r, i) => {
    const cells = r.slice(1).map(cell);
    // under each configuration's mean, its seeds' min..max
    diffCols.forEach((c, j) => {
      const sp = measureSpread(ms[i]!, c);
      if (sp && sp.n > 1 && sp.min !== sp.max) cells[1 + j]!.append(el('span', { class: 'spread', text: `${formatMeasure(ms[i]!, sp.min)}..${formatMeasure(ms[i]!, sp.max)}` }));
    });
    tb.append(el('tr', {}, el('th', { scope: 'row', text: r[0]! }), ...cells));
  });
  tbl.append(thead, tb);
  const warnings = diffCols.flatMap((c, j) => {
    const texts = new Set(pcpWarningsApply(state.workload) ? c.stats.flatMap((s) => pcpWarnings(s, state.configs[j]!.preset)) : []);
    return [...texts].map((w) => el('p', { class: 'alert pcp-warning', role: 'note', text: `${c.label}: ${w}` }));
  });
  const runs = runsOf(state);
  const diffCsv: CsvTable = {
    title: `buddylab compare: ${caption(state)}, seeds ${seeds[0]}..${seeds.at(-1)}; the measured runs of each configuration`,
    params: [...runs.params, ['seeds', seeds.join(',')]],
    commands: runs.commands(undefined, seeds),
    columns: diffCsvColumns(diffCols),
    rows: diffCsvRows(diffCols, state.workload),
  };
  // a narrow screen scrolls the table inside its box, never the page
  const scroller = el('div', { class: 'table-scroll', tabindex: 0, role: 'region', 'aria-labelledby': 'diff-title' }, tbl);
  diffBox.append(scroller);
  scrollCue(scroller);
  diffBox.append(
    el('p', { class: 'binds', id: 'diff-binds' }, el('strong', { text: 'The limit that binds: ' }), bindsText(diffCols)),
    ...warnings,
    el('div', { class: 'table-actions' }, csvButton(diffCsv, 'compare-diff')),
    howMadeLine(runs.commands(undefined, seeds), 'numbers'),
  );
}
