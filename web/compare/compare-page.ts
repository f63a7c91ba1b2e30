// The compare view: 2-4 configurations (presets, or presets with their own pcp batch / high,
// and for hackbench SLUB's freelist prefetch) run on the same workload and seed. This page puts
// its parts together: the form (compare-form.ts), the replays side by side played in step by
// virtual time (replay-columns.ts), the measured runs' diff table with the rows that fit the
// workload (measured-runs.ts, diff.ts: the latency percentiles among them), the replays'
// latency histograms in one view, and a score-vs-tasks chart with all of them where the score
// is a throughput (compare-chart.ts). Its state lives in the URL (compare-url.ts), so a
// compare reloads to the same view.
import { PoolCancelled, SimPool } from '../engine/pool';
import { ResultsCache } from '../engine/results-cache';
import { el } from '../ui/dom';
import { createPresenter, showChosenFigures } from '../ui/presenter';
import { COMPARE_WORKLOADS, CompareUrlError, DEFAULT_COMPARE, formatCompare, parseCompare, type CompareState } from './compare-url';
import { createCompareForm } from './compare-form';
import { createReplayColumns } from './replay-columns';
import { measureRuns } from './measured-runs';
import { COMPARE_SET, measuredRequests } from './compare-points';
import { shippedSet } from '../lessons/tables';
import { pointKey } from '../engine/point';
import { mountView } from '../views/registry';
import type { LatencySelect } from '../views/latency';
import { addViewExportButtons } from '../ui/export-buttons';
import '../lessons/lessons.css';

/** The link's compare state, or the defaults and what was wrong with it. */
function stateOf(search: string): { state: CompareState; problem: string } {
  try {
    // ?lecture=1 is the presenter's, not the compare state's
    return { state: parseCompare(search.replace(/([?&])lecture=1(&|$)/, (_, a: string, b: string) => (b ? a : ''))), problem: '' };
  } catch (e) {
    if (!(e instanceof CompareUrlError)) throw e;
    return { state: structuredClone(DEFAULT_COMPARE), problem: `The link's compare state was ignored: ${e.message}` };
  }
}

export function mountCompare(root: HTMLElement, search: string): void {
  const link = stateOf(search);
  let state = link.state;
  // the small replays and the measured runs (diff table and chart), side by side on every
  // hardware thread
  const pool = new SimPool(undefined, new ResultsCache());
  const page = el('div', { class: 'compare-page' });
  page.append(el('h2', { class: 'page-title', text: 'Compare configurations' }));
  const alert = el('p', { class: 'alert', role: 'alert', text: link.problem });
  page.append(alert);
  const form = createCompareForm(state, (f) => {
    try {
      // a new compare starts where its replays first differ, and keeps the chart's y axis
      const chart = state.chart;
      state = f.read();
      if (COMPARE_WORKLOADS[state.workload].sweep) state.chart = chart;
      shownT = -1;
      alert.textContent = '';
    } catch (e) {
      alert.textContent = e instanceof Error ? e.message : String(e);
      return;
    }
    void runAll();
  });

  let urlTimer: number | undefined;
  /** the replays' time as the link holds it (-1 until they are drawn) */
  let shownT = state.t;
  const writeUrl = () => history.replaceState(null, '', formatCompare({ ...state, t: shownT }) + (presenter.lecture ? '&lecture=1' : ''));
  const status = el('p', { class: 'status', role: 'status' });
  const columns = createReplayColumns({
    pool,
    status,
    onTime: (t, playing) => {
      shownT = Math.round(t);
      window.clearTimeout(urlTimer);
      urlTimer = window.setTimeout(writeUrl, playing ? 500 : 50);
    },
  });
  const diffBox = el('section', { class: 'compare-diff', 'aria-labelledby': 'diff-title' });
  const chartBox = el('section', { class: 'compare-chart', 'aria-labelledby': 'chart-title' });
  // the chart's y axis is part of the link
  chartBox.addEventListener('chart-mode', writeUrl);
  // the replays' latencies, every configuration in its column's colour; a bucket's click moves
  // the shared clock to its longest call
  const latBox = el('div', { class: 'compare-latency' });
  const latency = mountView(latBox, 'latency', { prefix: 'cmp', heading: 'short' });
  addViewExportButtons(latency.section, { title: 'compare: latency', what: 'compare latency', file: 'compare-latency' });
  latBox.append(el('p', { class: 'hint', text: 'The replays’ calls (the small scenario each column steps through); the diff table’s percentiles below are the measured runs’.' }));
  latBox.hidden = true;
  latBox.addEventListener('latency-select', (ev) => {
    status.textContent = columns.goToCall((ev as CustomEvent<LatencySelect>).detail);
  });
  page.append(status, columns.bar, form.root, columns.cols, latBox, diffBox, chartBox);
  root.replaceChildren(page);

  // presenter mode (web/ui/presenter.ts): PageDown / PageUp move the shared clock a twentieth of
  // the run; a slide shows the first view of two columns side by side, or the chosen figures
  const figures: { id: string; title: string; el: HTMLElement }[] = [];
  const presenter = createPresenter({
    root: page,
    next: () => columns.seekBy(1 / 20),
    prev: () => columns.seekBy(-1 / 20),
    onLecture: () => {
      showChosenFigures(figures, presenter.chosen, presenter.lecture);
      if (columns.shown) columns.draw();
    },
    onFigures: () => showChosenFigures(figures, presenter.chosen, presenter.lecture),
    lecture: /[?&]lecture=1(&|$)/.test(search),
    stepKeys: false,
    signal: new AbortController().signal,
  });
  // after the playback controls, as on the lesson page: Play all stays the first thing Tab reaches
  columns.bar.append(presenter.controls);

  /** bumped by every compare: a compare's drawing stops when a newer one starts */
  let runGen = 0;

  async function runAll() {
    const gen = ++runGen;
    const current = () => gen === runGen;
    pool.cancel(); // the last compare's measured runs, if any are left
    form.run.disabled = true;
    columns.clear();
    page.classList.remove('ready');
    delete chartBox.dataset['lastPointMs'];
    delete chartBox.dataset['measureStartMs'];
    diffBox.replaceChildren();
    chartBox.replaceChildren();
    try {
      // the replays first, then the measured runs: started beside them, the pool only slowed
      // the replays down on a 2-core machine (1.2 s -> 1.8 s to the columns) and brought the
      // chart's last point no sooner. Where every measured run shipped with the build (the
      // default link), the chart and the table come first: they need no worker at all.
      const known = await shippedSet(COMPARE_SET);
      const req = measuredRequests(state);
      const shipped = [...req.chart, ...req.diff].every((r) => known.has(pointKey(r)));
      const measure = (fragmentation: readonly number[]) => measureRuns({ state, pool, diffBox, chartBox, fragmentation, current, known });
      const first = shipped ? await measure([]) : undefined;
      if (!current() || !(await columns.replay(state, current))) return;
      const lat = columns.latency();
      latBox.hidden = !lat;
      if (lat) latency.update({ latency: lat });
      // the figures a slide may show: each view of every column (first views first), the latency, the table, the chart
      figures.length = 0;
      figures.push(...columns.figures(), ...(lat ? [{ id: 'latency', title: 'latency', el: latency.section }] : []), { id: 'diff', title: 'the diff table', el: diffBox }, { id: 'chart', title: 'the chart', el: chartBox });
      presenter.setFigures(figures);
      showChosenFigures(figures, presenter.chosen, presenter.lecture);
      if (first) first.redrawDiff(columns.fragmentation);
      else await measure(columns.fragmentation);
      if (!current()) return;
      page.classList.add('ready');
    } catch (e) {
      if (current()) status.textContent = e instanceof PoolCancelled ? 'cancelled: the measured runs stopped' : `the compare could not run: ${e instanceof Error ? e.message : String(e)}`;
    } finally {
      if (current()) form.run.disabled = false;
    }
  }

  void runAll();
}
