// The compare view: 2-4 configurations (presets, or presets with their own pcp batch / high,
// and for hackbench SLUB's freelist prefetch) run on the same workload and seed; their replays
// side by side, played in step by virtual time; a diff table with the rows that fit the
// workload (diff.ts); a score-vs-tasks chart with all of them where the score is a throughput.
// Its state lives in the URL (url.ts), so a compare reloads to the same view.
import type { ReplayResult, SimRequest } from '../engine/blab-module';
import { PoolCancelled, SimPool } from '../engine/pool';
import { ResultsCache } from '../engine/results-cache';
import { pcpWarnings, pcpWarningsApply } from '../engine/pcp-warning';
import { pointKey } from '../engine/point';
import type { SimStats } from '../engine/simstats';
import { progressBar } from '../ui/progress';
import { perFrame } from '../ui/per-frame';
import { decodeEventsInSlices } from '../log/events';
import { Player } from '../log/player';
import { nextTask } from '../log/yield';
import type { PcpParams } from '../views/pcp';
import { PRESETS } from '../scenario/url';
import { el, panel } from '../ui/dom';
import { download } from '../ui/download';
import { eventLogToJson } from '../log/eventlog-json';
import { addViewExportButtons, csvButton } from '../ui/export-buttons';
import { createPresenter, showChosenFigures } from '../ui/presenter';
import { mountViewSet, viewTitle, type ViewId, type ViewSet } from '../views/registry';
import type { SimConfig } from '../lessons/lesson';
import { COMPARE_LIMITS, COMPARE_WORKLOADS, CompareUrlError, DEFAULT_COMPARE, defaultsFor, formatCompare, formatConfig, parseCompare, type CompareState, type CompareWorkload, type CompareWorkloadSpec } from './url';
import { bindsText, diffCsvColumns, diffCsvRows, diffRows, formatMeasure, measures, measureSpread, unusableIndex, WINDOW_NOTE, type DiffColumn } from './diff';
import { COMPARE_CLEAR_LINES, compareParams, compareRequest, measuredSeeds, replayRequest, slubPrefetchOf } from './request';
import { blabCommand, runParameters, RUN_DEFAULTS } from '../scenario/request';
import { howMadeLine } from '../ui/provenance';
import { createDrawer } from '../ui/drawer';
import { createPfnDialog } from '../views/pfn-dialog';
import type { CsvTable } from '../ui/csv';
import { createThroughputSvg, drawThroughputChart, SERIES_COLORS } from '../views/throughput';
import type { ThroughputSeries } from '../engine/sweep';
import '../lessons/lessons.css';

/** The replays' views: the pcp lists for the order-0 workloads and hackbench's slabs' pages,
 * the free areas where order-9 blocks are the point; the lock timeline for all. */
const compareViews = (w: CompareWorkload): ViewId[] =>
  w === 'stress_highalloc' || w === 'mixed' ? ['free-areas', 'lock-timeline'] : ['pcp', 'lock-timeline'];
/** virtual cycles per second of playback at 1x */
const CYCLES_PER_SECOND = 200_000;

interface Column {
  config: SimConfig;
  player: Player;
  pcp: PcpParams;
  /** running maximum of the log's times, so "the last record at or before t" is a binary search */
  maxTime: Float64Array;
  set: ViewSet;
}

/** The playback position in words. */
const timeLabel = (t: number) => `t = ${Math.round(t).toLocaleString('en')} cycles`;

/** The step whose records all happened at or before virtual time t. */
function stepAtTime(maxTime: Float64Array, t: number): number {
  let lo = 0;
  let hi = maxTime.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (maxTime[mid]! <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** ms of replay decoding or building per task: well under the 50 ms a task may block the page */
const REPLAY_SLICE_MS = 15;

export function mountCompare(root: HTMLElement, search: string): void {
  let state: CompareState;
  let urlProblem = '';
  // ?lecture=1 is the presenter's, not the compare state's
  const lectureLink = /[?&]lecture=1(&|$)/.test(search);
  try {
    state = parseCompare(search.replace(/([?&])lecture=1(&|$)/, (_, a: string, b: string) => (b ? a : '')));
  } catch (e) {
    if (!(e instanceof CompareUrlError)) throw e;
    urlProblem = `The link's compare state was ignored: ${e.message}`;
    state = structuredClone(DEFAULT_COMPARE);
  }
  // the small replays and the measured runs (diff table and chart), side by side on every
  // hardware thread
  const pool = new SimPool(undefined, new ResultsCache());
  const page = el('div', { class: 'compare-page' });
  page.append(el('h2', { class: 'page-title', text: 'Compare configurations' }));
  const alert = el('p', { class: 'alert', role: 'alert', text: urlProblem });
  page.append(alert);

  // ---- the form
  const form = el('form', { class: 'compare-form', 'aria-label': 'Configurations to compare' });
  const rows = el('div', { class: 'config-rows' });
  const presetOptions = Object.keys(PRESETS);
  const addRow = (c: SimConfig) => {
    const i = rows.children.length;
    const row = el('fieldset', { class: 'config-row' });
    row.append(el('legend', { text: `configuration ${i + 1}` }));
    const sel = el('select', { id: `cfg-preset-${i}`, name: 'preset' });
    for (const p of presetOptions) sel.append(el('option', { value: p, text: p }));
    sel.value = c.preset;
    const batch = el('input', { type: 'number', id: `cfg-batch-${i}`, name: 'batch', min: 1, max: COMPARE_LIMITS.maxBatch, placeholder: 'preset', value: c.batch ?? '' });
    const high = el('input', { type: 'number', id: `cfg-high-${i}`, name: 'high', min: 1, max: COMPARE_LIMITS.maxHigh, placeholder: 'preset', value: c.high ?? '' });
    // hackbench only: SLUB's freelist prefetch, the preset's unless this says otherwise
    const pf = el('select', { id: `cfg-prefetch-${i}`, name: 'prefetch' });
    for (const [v, text] of [['', "preset's"], ['on', 'on'], ['off', 'off']] as const) pf.append(el('option', { value: v, text }));
    pf.value = c.slubPrefetch === undefined ? '' : c.slubPrefetch ? 'on' : 'off';
    const pfLabel = el('label', { for: pf.id, text: 'freelist prefetch', class: 'hackbench-only' });
    pf.classList.add('hackbench-only');
    const rm = el('button', { type: 'button', class: 'small', text: 'remove', 'aria-label': `Remove configuration ${i + 1}` });
    rm.addEventListener('click', () => {
      if (rows.children.length > COMPARE_LIMITS.minConfigs) row.remove();
    });
    row.append(
      el('label', { for: sel.id, text: 'preset' }), sel,
      el('label', { for: batch.id, text: 'batch' }), batch,
      el('label', { for: high.id, text: 'high' }), high,
      pfLabel, pf,
      rm,
    );
    rows.append(row);
    showFor(workload.value as CompareWorkload);
  };
  const workload = el('select', { id: 'cmp-workload' });
  for (const [name, w] of Object.entries(COMPARE_WORKLOADS)) workload.append(el('option', { value: name, text: w.title }));
  workload.value = state.workload;
  const add = el('button', { type: 'button', class: 'small', text: 'add a configuration' });
  add.addEventListener('click', () => {
    if (rows.children.length < COMPARE_LIMITS.maxConfigs) addRow({ label: 'v5.18', preset: 'v5.18' });
  });
  const num = (id: string, label: string, value: number, min: number, max: number) => {
    const i = el('input', { type: 'number', id, min, max, step: 1, value, required: true });
    return { input: i, field: el('div', { class: 'field' }, el('label', { for: id, text: label }), i) };
  };
  const spec0: CompareWorkloadSpec = COMPARE_WORKLOADS[state.workload];
  const cpus = num('cmp-cpus', spec0.cpus.label, state.cpus, spec0.cpus.min, spec0.cpus.max);
  const pages = num('cmp-pages', spec0.size.label, state.pages, spec0.size.min, spec0.size.max);
  const attempts = num('cmp-attempts', 'order-9 attempts', state.attempts || 1, 1, COMPARE_LIMITS.maxAttempts);
  const seed = num('cmp-seed', 'seed', state.seed, 0, 0xffffffff);
  const tasks = el('input', { type: 'text', id: 'cmp-tasks', value: state.tasks.join(','), pattern: '[0-9]+(,[0-9]+)*' });
  const tasksField = el('div', { class: 'field' }, el('label', { for: 'cmp-tasks', text: 'tasks for the chart' }), tasks);
  const hint = el('p', { class: 'hint' });
  const run = el('button', { type: 'submit', class: 'primary', text: 'Compare' });
  form.append(
    rows,
    add,
    el('div', { class: 'compare-knobs' }, el('div', { class: 'field' }, el('label', { for: 'cmp-workload', text: 'workload' }), workload), cpus.field, pages.field, attempts.field, seed.field, tasksField),
    hint,
    run,
  );
  // the form folds away (closed on a phone): playback comes first, a few Tabs from the top
  const settings = createDrawer('Change what is compared', 'compare-settings');
  settings.body.append(form);

  /** The form's fields, labels and bounds for workload w (what its URL keys take, url.ts). */
  function showFor(w: CompareWorkload) {
    const sp: CompareWorkloadSpec = COMPARE_WORKLOADS[w];
    const set = (f: { input: HTMLInputElement; field: HTMLElement }, label: string, min: number, max: number) => {
      f.field.querySelector('label')!.textContent = label;
      f.input.min = String(min);
      f.input.max = String(max);
    };
    set(cpus, sp.cpus.label, sp.cpus.min, sp.cpus.max);
    set(pages, sp.size.label, sp.size.min, sp.size.max);
    attempts.field.hidden = !sp.attempts;
    tasksField.hidden = !sp.sweep;
    if (sp.sweep) tasksField.querySelector('label')!.textContent = `${w === 'hackbench' ? 'groups' : 'tasks'} for the chart`;
    for (const e of rows.querySelectorAll<HTMLElement>('.hackbench-only')) e.hidden = w !== 'hackbench';
    hint.textContent =
      w === 'hackbench'
        ? `hackbench on the model machine: each group a sender CPU, every message a slab object freed on the next CPU; the preset's page allocator below the slabs.`
        : w === 'stress_highalloc'
          ? 'stress_highalloc on the model machine: the zone filled and freed but for long-lived pages, then cpu 0 asks for order-9 blocks 1 ms apart (compacting when none is free) while the other CPUs churn order-0 pages.'
          : w === 'mixed'
            ? `mixed on the model machine: page_fault1 on the first half of the CPUs (${RUN_DEFAULTS.rounds} rounds, the first a warm-up), order-9 blocks on the rest for as long as those run, compacting when none is free. The table and chart: clear_page() through all 64 cache lines; the replays through ${COMPARE_CLEAR_LINES}.`
            : `the workload on the model machine, one task per CPU, ${RUN_DEFAULTS.rounds} rounds (the first is a warm-up). The table (${COMPARE_LIMITS.seeds} seeds) and the chart run the pages per task given here, clear_page() through all 64 cache lines, the caches scaled to keep will-it-scale's footprint-to-cache ratio; the replays above them are cut down to step through.`;
  }
  state.configs.forEach(addRow);
  let shown: CompareWorkload = state.workload;
  workload.addEventListener('change', () => {
    // a value stays where it means the same for the new workload and fits its bounds (page_fault1
    // to trunc); anything else starts from the new workload's default
    const w = workload.value as CompareWorkload;
    const was: CompareWorkloadSpec = COMPARE_WORKLOADS[shown];
    const sp: CompareWorkloadSpec = COMPARE_WORKLOADS[w];
    const d = defaultsFor(w);
    const keep = (v: string, same: boolean, min: number, max: number) => same && /^\d+$/.test(v) && Number(v) >= min && Number(v) <= max;
    if (!keep(cpus.input.value, was.cpus.label === sp.cpus.label, sp.cpus.min, sp.cpus.max)) cpus.input.value = String(d.cpus);
    if (!keep(pages.input.value, was.size.label === sp.size.label, sp.size.min, sp.size.max)) pages.input.value = String(d.pages);
    if (!sp.attempts) attempts.input.value = '1';
    else if (!was.attempts) attempts.input.value = String(d.attempts);
    if (!sp.sweep) tasks.value = '';
    else if (!was.sweep || was.sweep.axis !== sp.sweep.axis) tasks.value = d.tasks.join(',');
    shown = w;
    showFor(w);
  });

  // ---- results
  const bar = el('div', { class: 'compare-bar playerbar', 'aria-label': 'Synchronised playback' });
  const play = el('button', { type: 'button', class: 'play', text: '▶ play', 'aria-label': 'Play all (Space)' });
  const scrub = el('input', { type: 'range', id: 'cmp-scrub', min: 0, max: 0, step: 1, value: 0, 'aria-label': 'Virtual time, all configurations' });
  const tOut = el('output', { for: 'cmp-scrub', class: 'stepout' });
  bar.append(play, el('div', { class: 'scrubber' }, scrub, tOut));
  const cols = el('div', { class: 'compare-cols' });
  const diffBox = el('section', { class: 'compare-diff', 'aria-labelledby': 'diff-title' });
  const chartBox = el('section', { class: 'compare-chart', 'aria-labelledby': 'chart-title' });
  const status = el('p', { class: 'status', role: 'status' });
  page.append(status, bar, settings.root, cols, diffBox, chartBox);
  root.replaceChildren(page);

  // presenter mode (web/ui/presenter.ts): PageDown / PageUp move the shared clock a twentieth of
  // the run; a slide shows the first view of two columns side by side, or the chosen figures
  const figures: { id: string; title: string; el: HTMLElement }[] = [];
  const presenter = createPresenter({
    root: page,
    next: () => seekBy(1 / 20),
    prev: () => seekBy(-1 / 20),
    onLecture: () => {
      showChosenFigures(figures, presenter.chosen, presenter.lecture);
      if (columns.length) draw();
    },
    onFigures: () => showChosenFigures(figures, presenter.chosen, presenter.lecture),
    lecture: lectureLink,
    stepKeys: false,
    signal: new AbortController().signal,
  });
  // after the playback controls, as on the lesson page: Play all stays the first thing Tab reaches
  bar.append(presenter.controls);
  const seekBy = (f: number) => {
    if (!columns.length) return;
    t = Math.max(0, Math.min(tMax, t + f * tMax));
    draw();
  };

  let columns: Column[] = [];
  let t = 0;
  const pfnDialog = createPfnDialog((step, p) => {
    t = p.log.time[Math.max(0, step - 1)]!;
    draw();
  });
  let tMax = 0;
  let playing = false;
  let urlTimer: number | undefined;

  const writeUrl = () => {
    window.clearTimeout(urlTimer);
    urlTimer = window.setTimeout(() => history.replaceState(null, '', formatCompare({ ...state, t: Math.round(t) }) + (presenter.lecture ? '&lecture=1' : '')), playing ? 500 : 50);
  };

  const draw = () => {
    for (const c of columns) {
      c.player.seek(stepAtTime(c.maxTime, t));
      c.set.update({ player: c.player, pcp: c.pcp });
    }
    scrub.value = String(Math.round(t));
    tOut.textContent = timeLabel(t);
    writeUrl();
  };
  scrub.addEventListener('input', () => {
    t = Number(scrub.value);
    draw();
  });
  const togglePlay = () => {
    playing = !playing;
    play.textContent = playing ? '❚❚ pause' : '▶ play';
    if (!playing) return;
    if (t >= tMax) t = 0;
    let last = performance.now();
    const tick = (now: number) => {
      if (!playing) return;
      t = Math.min(tMax, t + ((Math.min(250, now - last) / 1000) * CYCLES_PER_SECOND));
      last = now;
      draw();
      if (t >= tMax) {
        playing = false;
        play.textContent = '▶ play';
        return;
      }
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  };
  play.addEventListener('click', togglePlay);
  document.addEventListener('keydown', (ev) => {
    const target = ev.target as HTMLElement | null;
    if (ev.key === ' ' && !target?.closest('input, select, textarea, button') && columns.length) {
      ev.preventDefault();
      togglePlay();
    }
  });

  function readForm(): CompareState {
    const w = workload.value as CompareWorkload;
    const sp: CompareWorkloadSpec = COMPARE_WORKLOADS[w] ?? COMPARE_WORKLOADS.page_fault1;
    const configs = [...rows.querySelectorAll('fieldset')].map((f) => {
      const v = (n: string) => (f.querySelector(`[name="${n}"]`) as HTMLInputElement).value.trim();
      const pf = w === 'hackbench' ? v('prefetch') : '';
      return [v('preset'), v('batch') && `batch=${v('batch')}`, v('high') && `high=${v('high')}`, pf && `prefetch=${pf}`].filter(Boolean).join(':');
    });
    // through the link's own parser, so the form and a typed URL are checked alike
    const q =
      `?compare=${configs.map(encodeURIComponent).join(',')}&workload=${encodeURIComponent(w)}&cpus=${cpus.input.value}` +
      `&${sp.size.key}=${pages.input.value}${sp.attempts ? `&attempts=${attempts.input.value}` : ''}&seed=${seed.input.value}` +
      `${sp.sweep ? `&tasks=${tasks.value}` : ''}&t=0`;
    return parseCompare(q);
  }

  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    try {
      state = readForm();
      alert.textContent = '';
    } catch (e) {
      alert.textContent = e instanceof Error ? e.message : String(e);
      return;
    }
    t = 0;
    void runAll();
  });

  /** bumped by every compare: a compare's drawing stops when a newer one starts */
  let runGen = 0;
  /** each replayed column's unusable free space index at its end (the diff table's last row) */
  let replayFragmentation: number[] = [];

  async function runAll() {
    const gen = ++runGen;
    pool.cancel(); // the last compare's measured runs, if any are left
    run.disabled = true;
    playing = false;
    page.classList.remove('ready');
    delete chartBox.dataset['lastPointMs'];
    delete chartBox.dataset['measureStartMs'];
    cols.replaceChildren();
    diffBox.replaceChildren();
    chartBox.replaceChildren();
    columns = [];
    replayFragmentation = [];
    try {
      // the replays first, then the measured runs: started beside them, the pool only slowed
      // the replays down on a 2-core machine (1.2 s -> 1.8 s to the columns) and brought the
      // chart's last point no sooner
      if (!(await replayAll(gen))) return;
      await measure(gen);
      if (gen !== runGen) return;
      page.classList.add('ready');
    } catch (e) {
      if (gen === runGen) status.textContent = e instanceof PoolCancelled ? 'cancelled: the measured runs stopped' : `the compare could not run: ${e instanceof Error ? e.message : String(e)}`;
    } finally {
      if (gen === runGen) run.disabled = false;
    }
  }

  /** The small replays, one column each, drawn as each is built; false when a newer compare
   * started meanwhile. */
  async function replayAll(gen: number): Promise<boolean> {
    const views = compareViews(state.workload);
    const unit = state.workload === 'hackbench' ? 'groups' : 'CPUs';
    status.textContent = `replaying ${state.configs.length} configurations at ${state.cpus} ${unit}, a small scenario…`;
    // as many replays asked for at once as the pool has workers, so they run side by side
    // and a column is built while the next replay runs; no more, so that no more logs than
    // that wait to be decoded (each up to 2^21 records, 64 MB)
    const reqs = state.configs.map((c) => replayRequest(state, c, 1 << 21));
    const pending: Promise<ReplayResult>[] = [];
    const ask = (upTo: number) => {
      for (let i = pending.length; i < Math.min(upTo, reqs.length); i++) {
        const p = pool.replay(reqs[i]!);
        p.catch(() => undefined); // awaited below, in order
        pending.push(p);
      }
    };
    let k = 0;
    for (const c of state.configs) {
      ask(k + pool.size);
      const req = reqs[k]!;
      const r = await pending[k]!;
      if (gen !== runGen) return false;
      if (r.status !== 0) throw new Error(`${c.label}: ${r.stderr.trim()}`);
      // decoded and built in short slices, so a large replay never blocks the page for long
      const log = await decodeEventsInSlices(r.events, REPLAY_SLICE_MS);
      if (gen !== runGen) return false;
      const player = await Player.build(log, { sliceMs: REPLAY_SLICE_MS });
      await nextTask(); // the player's last slice ran in this task
      if (gen !== runGen) return false;
      const stats = r.stats;
      if (!stats) throw new Error(`${c.label}: the core returned no counters`);
      const maxTime = new Float64Array(player.length);
      let m = 0;
      for (let i = 0; i < player.length; i++) maxTime[i] = m = Math.max(m, player.log.time[i]!);
      player.seek(player.length);
      const fragmentation = unusableIndex(player.state, Math.min(9, player.state.geo.maxOrder));
      replayFragmentation[k] = fragmentation;
      await nextTask(); // the seek to the end replayed the whole log
      if (gen !== runGen) return false;
      const col = el('section', { class: 'compare-col', 'aria-label': c.label });
      const head = el('h3', { class: 'compare-col-title' }, el('span', { class: 'swatch', style: `background:${SERIES_COLORS[k % SERIES_COLORS.length]}` }), c.label);
      const json = el('button', { type: 'button', class: 'small', text: 'Run as JSON' });
      json.addEventListener('click', () => download(eventLogToJson(player.log, `compare ${c.label}`), `compare-${formatConfig(c)}.events.json`, 'application/json'));
      col.append(
        head,
        el('p', { class: 'hint', text: `batch ${stats.batch}, high ${stats.high}${state.workload === 'hackbench' ? `, freelist prefetch ${slubPrefetchOf(c) ? 'on' : 'off'}` : ''}, ${player.length.toLocaleString('en')} events` }),
        el('p', { class: 'hint replay-scale', text: replayNote(state, req, fragmentation) }),
        ...(pcpWarningsApply(state.workload) ? pcpWarnings(stats) : []).map((w) => el('p', { class: 'alert pcp-warning', role: 'note', text: `This replay: ${w}` })),
        json,
      );
      cols.append(col);
      const pcp: PcpParams = { batch: stats.batch, high: stats.high, source: 'from the run' };
      const set = mountViewSet(col, views, `cmp${k}`);
      // a page's or pcp list's history; its steps are this column's records: jump to their time
      pfnDialog.listen(col, () => player);
      for (const v of views) {
        const p = set.panelOf(v);
        if (p) addViewExportButtons(p, { title: `${c.label}: ${viewTitle(v)}`, what: `${c.label} ${v}`, file: `compare-${k}-${v}` });
      }
      columns.push({ config: c, player, pcp, maxTime, set });
      k++;
      // each view's first picture (the run's end, where the player stands) in a task of its
      // own: a first draw builds the view's DOM (the lock timeline's, 56 CPUs' lanes: 20-40
      // ms); draw() below then only moves them to the time asked
      for (const v of set.views) {
        await nextTask();
        if (gen !== runGen) return false;
        v.update({ player, pcp });
      }
      await nextTask();
      if (gen !== runGen) return false;
    }
    tMax = Math.max(...columns.map((c) => c.maxTime[c.maxTime.length - 1] ?? 0));
    scrub.max = String(tMax);
    // room for the widest time this run can show, so the label is never cut off
    tOut.style.minWidth = `${timeLabel(tMax).length + 1}ch`;
    t = Math.min(state.t || tMax, tMax);
    draw();
    // the figures a slide may show: each view of every column (first views first), the table, the chart
    figures.length = 0;
    for (const v of views) columns.forEach((c, k) => figures.push({ id: `${k}-${v}`, title: `${c.config.label}: ${viewTitle(v)}`, el: c.set.panelOf(v)! }));
    figures.push({ id: 'diff', title: 'the diff table', el: diffBox }, { id: 'chart', title: 'the chart', el: chartBox });
    presenter.setFigures(figures);
    showChosenFigures(figures, presenter.chosen, presenter.lecture);
    status.textContent = '';
    return true;
  }

  /**
   * The measured runs, in the worker pool: the chart's points first (one per configuration and
   * task count, the state's seed), then the diff table's seeds at `cpus`. Chart points appear
   * as they finish; the table when its last run is in.
   */
  async function measure(gen: number) {
    const sp: CompareWorkloadSpec = COMPARE_WORKLOADS[state.workload];
    const seeds = measuredSeeds(state);
    const chartReqs = sp.sweep ? state.configs.flatMap((c) => state.tasks.map((n) => compareRequest(state, c, n))) : [];
    const diffReqs = state.configs.flatMap((c) => seeds.map((seed) => compareRequest(state, c, state.cpus, seed)));
    chartBox.dataset['measureStartMs'] = String(Math.round(performance.now())); // make bench reads it
    const series: ThroughputSeries[] = state.configs.map((c) => ({ label: c.label, points: [] }));
    const chart = sp.sweep ? mountChart(sp.sweep, series, new Set(chartReqs.map(pointKey)).size) : undefined;
    if (!sp.sweep)
      chartBox.append(
        el('h3', { id: 'chart-title', text: 'No chart against tasks' }),
        el('p', { class: 'hint', text: `${state.workload}'s score is the share of order-9 attempts that got a block (${sp.score}), not a throughput: the diff table above compares it.` }),
      );
    const diffStats: (SimStats | undefined)[] = new Array(diffReqs.length);
    const bar = progressBar('the measured runs', () => pool.cancel());
    diffBox.append(el('h3', { id: 'diff-title', text: 'Side by side' }), bar.root);
    const seen = new Set<string>();
    const cached = new Set<string>();
    const all = [...chartReqs, ...diffReqs];
    const outputs = await pool.run(all, {
      priority: (i) => (i < chartReqs.length ? 1 : 0),
      onProgress: (p) => {
        if (gen === runGen) bar.update(p);
      },
      onPoint: ({ index, key, stats, source }) => {
        if (gen !== runGen) return;
        if (source === 'cache') cached.add(key);
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
    if (gen !== runGen) return;
    const runs = new Map(all.map((r, i) => [pointKey(r), outputs[i]!]));
    bar.finish(`${runs.size} measured runs${cached.size ? `, ${cached.size} of them from this browser's results cache` : ''}`);
    // every measured run's record, one JSON line each, as `blab sim --points` prints it natively
    const text = el('button', { type: 'button', class: 'small', text: 'Runs as records', 'aria-label': 'Runs as records: save every measured run, its point key and every counter, one JSON line each' });
    text.addEventListener('click', () => download([...runs].map(([key, stats]) => `${JSON.stringify({ key, stats })}\n`).join(''), 'compare-runs.jsonl', 'application/jsonl'));
    bar.root.append(text);
    const diffCols: DiffColumn[] = state.configs.map((c, j) => ({
      label: c.label,
      stats: diffStats.slice(j * seeds.length, (j + 1) * seeds.length) as SimStats[],
      ...(replayFragmentation[j] !== undefined ? { fragmentation: replayFragmentation[j] } : {}),
    }));
    drawDiff(diffCols, seeds);
    chart?.finish();
  }

  function drawDiff(diffCols: DiffColumn[], seeds: number[]) {
    const dr = diffRows(diffCols, state.workload);
    const ms = measures(state.workload);
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
    const warnings = diffCols.flatMap((c) => {
      const texts = new Set(pcpWarningsApply(state.workload) ? c.stats.flatMap((s) => pcpWarnings(s)) : []);
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
    diffBox.append(
      el('div', { class: 'table-scroll', tabindex: 0, role: 'region', 'aria-labelledby': 'diff-title' }, tbl),
      el('p', { class: 'binds', id: 'diff-binds' }, el('strong', { text: 'The limit that binds: ' }), bindsText(diffCols)),
      ...warnings,
      el('div', { class: 'table-actions' }, csvButton(diffCsv, 'compare-diff')),
      howMadeLine(runs.commands(undefined, seeds), 'numbers'),
    );
  }

  /** The score against tasks (groups for hackbench), one line per configuration, in the core's
   * unit, redrawn as points arrive. */
  function mountChart(sweep: NonNullable<CompareWorkloadSpec['sweep']>, series: ThroughputSeries[], points: number) {
    const sp: CompareWorkloadSpec = COMPARE_WORKLOADS[state.workload];
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

  void runAll();
}

/** The measured runs' size, in words: what the page says the table and chart were run at. */
function sizeWords(s: CompareState): string {
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

/** "1 CPU", "56 CPUs" */
const cpuCount = (n: number) => `${n} ${n === 1 ? 'CPU' : 'CPUs'}`;

/** A replayed column's note: how small its scenario is, and where the figures below come from. */
function replayNote(s: CompareState, req: SimRequest, fragmentation: number): string {
  const small =
    s.workload === 'stress_highalloc'
      ? 'the same run as measured below'
      : req.workload === 'hackbench'
        ? `a small scenario to step through: ${req.groups} groups x ${req.loops} messages, clear_page() through ${req.clearLines} lines`
        : `a small scenario to step through: ${cpuCount(req.cpus)} x ${req.pages} pages, one round, clear_page() through ${req.clearLines} lines`;
  return `Replay: ${small}; it ends with an unusable free space index of ${fragmentation.toFixed(3)} at pageblock_order. The table and chart below come from the measured runs (${sizeWords(s)}).`;
}

/**
 * Every parameter of a compare's runs: those they share, then each configuration's own; and the
 * native commands, one per configuration (swept over `tasks` for the chart).
 */
function runsOf(state: CompareState): { params: [string, string | number][]; commands(tasks?: readonly number[], seeds?: readonly number[]): string[] } {
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
    // seeds: a table whose cells are the mean over seeds lists every seed's command
    commands: (tasks, seeds) =>
      state.configs.flatMap((c) => {
        const p = compareParams(state, c, state.cpus);
        return (seeds ?? [p.seed]).map((seed) => blabCommand({ ...p, seed }, tasks));
      }),
  };
}

/** The diff table's caption: the workload and what its parameters were. */
function caption(s: CompareState): string {
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
