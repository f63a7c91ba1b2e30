// The compare view: 2-4 configurations (presets, or presets with their own pcp batch / high)
// run on the same workload and seed; their replays side by side, played in step by virtual
// time; a diff table; a throughput-vs-tasks chart with all of them. Its state lives in the URL
// (url.ts), so a compare reloads to the same view.
import { EngineClient } from '../engine/engine-client';
import { decodeEvents } from '../engine/events';
import { parseSimStats } from '../engine/simstats';
import { Player } from '../player/player';
import { PRESETS } from '../player/url';
import { el, panel } from '../views/dom';
import { download } from '../export/download';
import { eventLogToJson } from '../export/eventlog-json';
import { panelToSvg, svgToPng } from '../export/image';
import { csvButton } from '../lessons/tableview';
import { createViewSet, VIEW_TITLES, type ViewSet } from '../lessons/viewset';
import { runStats } from '../lessons/compute';
import type { SimConfig, ViewId } from '../lessons/lesson';
import type { SimRequest } from '../engine/blab-module';
import { COMPARE_LIMITS, COMPARE_WORKLOADS, CompareUrlError, DEFAULT_COMPARE, formatCompare, formatConfig, parseCompare, parseConfig, type CompareState } from './url';
import { diffRows, unusableIndex, type DiffColumn } from './diff';
import { createThroughputSvg, drawThroughputChart, SERIES_COLORS, type ThroughputSeries } from '../views/throughput';
import '../lessons/lessons.css';

/** Frame lines clear_page() passes through the cache model in compare runs (docs/sim.md: 8 is near the seeds, 5x faster than 64). */
export const COMPARE_CLEAR_LINES = 8;
const COMPARE_VIEWS: ViewId[] = ['pcp', 'lock-timeline'];
/** virtual cycles per second of playback at 1x */
const CYCLES_PER_SECOND = 200_000;

interface Column {
  config: SimConfig;
  player: Player;
  /** running maximum of the log's times, so "the last record at or before t" is a binary search */
  maxTime: Float64Array;
  set: ViewSet;
  diff: DiffColumn;
}

function request(s: CompareState, c: SimConfig, cpus: number, maxEvents: number): SimRequest {
  return {
    workload: s.workload,
    cpus,
    pages: s.pages,
    iterations: 2,
    seed: s.seed,
    preset: c.preset,
    maxEvents,
    clearLines: COMPARE_CLEAR_LINES,
    ...(c.batch !== undefined ? { batch: c.batch } : {}),
    ...(c.high !== undefined ? { high: c.high } : {}),
  };
}

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

export function mountCompare(root: HTMLElement, search: string): void {
  let state: CompareState;
  let urlProblem = '';
  try {
    state = parseCompare(search);
  } catch (e) {
    if (!(e instanceof CompareUrlError)) throw e;
    urlProblem = `The link's compare state was ignored: ${e.message}`;
    state = structuredClone(DEFAULT_COMPARE);
  }
  const client = new EngineClient();
  const page = el('div', { class: 'compare-page' });
  page.append(el('h2', { class: 'page-title', text: 'Compare configurations' }), el('p', {}, el('a', { href: '?lessons', text: '← lessons' })));
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
    const rm = el('button', { type: 'button', class: 'small', text: 'remove', 'aria-label': `Remove configuration ${i + 1}` });
    rm.addEventListener('click', () => {
      if (rows.children.length > COMPARE_LIMITS.minConfigs) row.remove();
    });
    row.append(
      el('label', { for: sel.id, text: 'preset' }), sel,
      el('label', { for: batch.id, text: 'batch' }), batch,
      el('label', { for: high.id, text: 'high' }), high,
      rm,
    );
    rows.append(row);
  };
  state.configs.forEach(addRow);
  const add = el('button', { type: 'button', class: 'small', text: 'add a configuration' });
  add.addEventListener('click', () => {
    if (rows.children.length < COMPARE_LIMITS.maxConfigs) addRow({ label: 'v5.18', preset: 'v5.18' });
  });
  const num = (id: string, label: string, value: number, min: number, max: number) => {
    const i = el('input', { type: 'number', id, min, max, step: 1, value, required: true });
    return { input: i, field: el('div', { class: 'field' }, el('label', { for: id, text: label }), i) };
  };
  const cpus = num('cmp-cpus', 'CPUs (one task each)', state.cpus, 1, COMPARE_LIMITS.maxCpus);
  const pages = num('cmp-pages', 'pages per task', state.pages, 1, COMPARE_LIMITS.maxPages);
  const seed = num('cmp-seed', 'seed', state.seed, 0, 0xffffffff);
  const workload = el('select', { id: 'cmp-workload' });
  for (const [name, w] of Object.entries(COMPARE_WORKLOADS)) workload.append(el('option', { value: name, text: w.title }));
  workload.value = state.workload;
  const tasks = el('input', { type: 'text', id: 'cmp-tasks', value: state.tasks.join(','), pattern: '[0-9]+(,[0-9]+)*' });
  const run = el('button', { type: 'submit', class: 'primary', text: 'Compare' });
  form.append(
    rows,
    add,
    el('div', { class: 'compare-knobs' }, el('div', { class: 'field' }, el('label', { for: 'cmp-workload', text: 'workload' }), workload), cpus.field, pages.field, seed.field, el('div', { class: 'field' }, el('label', { for: 'cmp-tasks', text: 'tasks for the chart' }), tasks)),
    el('p', { class: 'hint', text: `the workload on the model machine, one task per CPU, 2 rounds (the first is a warm-up), clear_page() through ${COMPARE_CLEAR_LINES} cache lines.` }),
    run,
  );
  page.append(form);

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
  page.append(status, bar, cols, diffBox, chartBox);
  root.replaceChildren(page);

  let columns: Column[] = [];
  let t = 0;
  let tMax = 0;
  let playing = false;
  let urlTimer: number | undefined;

  const writeUrl = () => {
    window.clearTimeout(urlTimer);
    urlTimer = window.setTimeout(() => history.replaceState(null, '', formatCompare({ ...state, t: Math.round(t) })), playing ? 500 : 50);
  };

  const draw = () => {
    for (const c of columns) {
      c.player.seek(stepAtTime(c.maxTime, t));
      c.set.update(c.player);
    }
    scrub.value = String(Math.round(t));
    tOut.textContent = `t = ${Math.round(t).toLocaleString('en')} cycles`;
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
    const configs = [...rows.querySelectorAll('fieldset')].map((f) => {
      const v = (n: string) => (f.querySelector(`[name="${n}"]`) as HTMLInputElement).value.trim();
      const text = [v('preset'), v('batch') && `batch=${v('batch')}`, v('high') && `high=${v('high')}`].filter(Boolean).join(':');
      return parseConfig(text);
    });
    const q = `?compare=${configs.map(formatConfig).join(',')}&workload=${encodeURIComponent(workload.value)}&cpus=${cpus.input.value}&pages=${pages.input.value}&seed=${seed.input.value}&tasks=${tasks.value}&t=0`;
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

  async function runAll() {
    run.disabled = true;
    playing = false;
    cols.replaceChildren();
    diffBox.replaceChildren();
    chartBox.replaceChildren();
    columns = [];
    try {
      status.textContent = `running ${state.configs.length} configurations at ${state.cpus} CPUs…`;
      let k = 0;
      for (const c of state.configs) {
        const r = await client.sim(request(state, c, state.cpus, 1 << 21));
        if (r.status !== 0) throw new Error(`${c.label}: ${r.stderr.trim()}`);
        const player = new Player(decodeEvents(r.events));
        const stats = parseSimStats(r.stdout);
        const maxTime = new Float64Array(player.length);
        let m = 0;
        for (let i = 0; i < player.length; i++) maxTime[i] = m = Math.max(m, player.log.time[i]!);
        player.seek(player.length);
        const fragmentation = unusableIndex(player.state, Math.min(9, player.state.geo.maxOrder));
        const col = el('section', { class: 'compare-col', 'aria-label': c.label });
        const head = el('h3', { class: 'compare-col-title' }, el('span', { class: 'swatch', style: `background:${SERIES_COLORS[k % SERIES_COLORS.length]}` }), c.label);
        const json = el('button', { type: 'button', class: 'small', text: 'Run as JSON' });
        json.addEventListener('click', () => download(eventLogToJson(player.log, `compare ${c.label}`), `compare-${formatConfig(c)}.events.json`, 'application/json'));
        col.append(head, el('p', { class: 'hint', text: `batch ${stats.batch}, high ${stats.high}, ${player.length.toLocaleString('en')} events` }), json);
        cols.append(col);
        const set = createViewSet(col, COMPARE_VIEWS, { batch: stats.batch, high: stats.high, source: 'from the run' }, `cmp${k}`);
        for (const v of COMPARE_VIEWS) {
          const p = set.panelOf(v);
          const svgB = el('button', { type: 'button', class: 'small', text: 'SVG', 'aria-label': `Export ${c.label} ${v} as SVG` });
          const pngB = el('button', { type: 'button', class: 'small', text: 'PNG', 'aria-label': `Export ${c.label} ${v} as PNG` });
          svgB.addEventListener('click', () => p && download(panelToSvg(p, `${c.label}: ${VIEW_TITLES[v]}`), `compare-${k}-${v}.svg`, 'image/svg+xml'));
          pngB.addEventListener('click', async () => p && download(await svgToPng(panelToSvg(p, `${c.label}: ${VIEW_TITLES[v]}`)), `compare-${k}-${v}.png`));
          p?.querySelector('.panel-head')?.append(el('div', { class: 'export-buttons' }, svgB, pngB));
        }
        columns.push({ config: c, player, maxTime, set, diff: { label: c.label, stats, fragmentation } });
        k++;
      }
      tMax = Math.max(...columns.map((c) => c.maxTime[c.maxTime.length - 1] ?? 0));
      scrub.max = String(tMax);
      t = Math.min(state.t || tMax, tMax);
      draw();

      const dr = diffRows(columns.map((c) => c.diff), COMPARE_WORKLOADS[state.workload].score);
      const tbl = el('table', { class: 'data diff', id: 'diff-table' });
      tbl.append(el('caption', { text: `${state.workload} at ${state.cpus} CPUs, ${state.pages} pages per task, seed ${state.seed}: the whole run, computed by the core` }));
      const thead = el('thead');
      const htr = el('tr');
      for (const h of dr[0]!) htr.append(el('th', { scope: 'col', text: h }));
      thead.append(htr);
      const tb = el('tbody');
      for (const r of dr.slice(1)) tb.append(el('tr', {}, el('th', { scope: 'row', text: r[0]! }), ...r.slice(1).map((v) => el('td', { text: v }))));
      tbl.append(thead, tb);
      diffBox.append(el('h3', { id: 'diff-title', text: 'Side by side' }), tbl, csvButton(dr, 'compare-diff'));

      status.textContent = `sweeping ${state.tasks.join(', ')} tasks for the chart…`;
      const series: ThroughputSeries[] = [];
      for (const c of state.configs) {
        const points = [];
        for (const n of state.tasks) points.push({ tasks: n, score: (await runStats((req) => client.sim(req), request(state, c, n, 0))).score });
        series.push({ label: c.label, points });
      }
      const chartPanel = panel(chartBox, 'throughput', 'Throughput against tasks', 'one line per configuration; dashed: linear scaling of the first');
      chartBox.querySelector('h2')?.setAttribute('id', 'chart-title');
      const chart = createThroughputSvg();
      chartPanel.append(chart);
      drawThroughputChart(chart, series, { title: `${state.workload} score against tasks: ${state.configs.map((c) => c.label).join(', ')}`, linear: true });
      const chartRows = [['tasks', ...series.map((s) => s.label)], ...state.tasks.map((n, i) => [String(n), ...series.map((s) => String(s.points[i]!.score))])];
      const svgB = el('button', { type: 'button', class: 'small', text: 'SVG', 'aria-label': 'Export the chart as SVG' });
      svgB.addEventListener('click', () => download(new XMLSerializer().serializeToString(chartPanel.querySelector('svg')!), 'compare-throughput.svg', 'image/svg+xml'));
      const pngB = el('button', { type: 'button', class: 'small', text: 'PNG', 'aria-label': 'Export the chart as PNG' });
      pngB.addEventListener('click', async () => download(await svgToPng(panelToSvg(chartPanel.parentElement!, 'Throughput against tasks')), 'compare-throughput.png'));
      chartPanel.append(el('div', { class: 'table-actions' }, svgB, pngB, csvButton(chartRows, 'compare-throughput')));
      status.textContent = '';
      page.classList.add('ready');
    } catch (e) {
      status.textContent = `the compare could not run: ${e instanceof Error ? e.message : String(e)}`;
    } finally {
      run.disabled = false;
    }
  }

  void runAll();
}
