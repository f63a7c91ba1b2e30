// The throughput panel: choose presets and task counts, run page_fault1 on the model machine
// for each pair at the seeds' sizes (web/engine/sweep.ts; the worker pool runs them side by
// side, finished points come from the results cache), and draw score vs tasks with the linear
// line (web/views/throughput.ts), updating as each run finishes.

import { PRESETS } from '../scenario/url';
import { runSweep, parseCpuList, checkSweep, sweepParams, type SweepSpec, type ThroughputSeries } from '../engine/sweep';
import { PoolCancelled, SimPool } from '../engine/pool';
import { ResultsCache } from '../engine/results-cache';
import { willItScaleCacheScale } from '../engine/point';
import { groupedWarnings } from '../engine/pcp-warning';
import { RUN_DEFAULTS, blabCommand, runParameters } from '../scenario/request';
import { addViewExportButtons, csvButton } from '../ui/export-buttons';
import { howMadeLine } from '../ui/provenance';
import { linearSeries } from '../views/throughput';
import { createThroughputSvg, drawThroughputChart, throughputTable } from '../views/throughput';
import { el, panel } from '../ui/dom';
import { progressBar } from '../ui/progress-bar';
import { perFrame } from '../ui/per-frame';
import type { Panel } from './panel';

export const SWEEP_DEFAULTS = {
  presets: ['v4.16', 'v4.17', 'v5.18'],
  // 1 to 112 tasks at 8 points: one socket's cores (28), both sockets' cores (56), seed 000's
  // 88-CPU Broadwell and 112-CPU Skylake
  cpus: '1,16,28,44,56,72,88,112',
  pages: 4096,
  iterations: RUN_DEFAULTS.rounds,
} as const;

const PAGE_CHOICES = [1024, 4096, 16384, 32768];

/** What a sweep ran at, in words (the caches' scale included). */
function sizeNote(spec: SweepSpec): string {
  const scale = willItScaleCacheScale(spec.pages);
  const caches = scale > 1 ? `L2 and LLC / ${scale}, the footprint-to-cache ratio of will-it-scale's 128 MB` : "the model's full L2 and LLC";
  return `seed ${spec.seed}, ${spec.pages} pages per task, ${caches}, clear_page() through all 64 lines, each preset's own pcp batch and high`;
}

/** The one native command of a sweep: every preset and task count (blab sim takes lists). */
function commandOf(spec: SweepSpec): string {
  return blabCommand(sweepParams(spec, spec.presets.join(','), spec.cpus[0]!), spec.cpus);
}

const TITLE = 'Throughput: will-it-scale page_fault1';

/** The panel, a section of its own (its root) with the chart's export buttons. A sweep runs
 * with the seed of the scenario the panel was last given (load()). */
export function createThroughputPanel(): Panel {
  const body = panel(el('div'), 'throughput', TITLE, 'score vs tasks, one line per preset; dashed: linear (1-task score x tasks)');
  const section = body.parentElement!;
  let seed = 1;
  let pool: SimPool | undefined;
  const form = el('form', { class: 'tp-form', 'aria-label': 'Throughput sweep' });
  const presetBox = el('fieldset', { class: 'tp-presets' }, el('legend', { text: 'presets (one line each)' }));
  for (const name of Object.keys(PRESETS)) {
    const id = `tp-preset-${name.replace(/[^a-z0-9]/gi, '-')}`;
    const cb = el('input', { type: 'checkbox', id, value: name, name: 'tp-preset' });
    cb.checked = (SWEEP_DEFAULTS.presets as readonly string[]).includes(name);
    presetBox.append(el('span', { class: 'tp-check' }, cb, el('label', { for: id, text: name })));
  }
  const cpusIn = el('input', { type: 'text', id: 'tp-cpus', value: SWEEP_DEFAULTS.cpus, size: 24, autocomplete: 'off', 'aria-describedby': 'tp-cpus-hint' });
  const pagesSel = el('select', { id: 'tp-pages' });
  for (const n of PAGE_CHOICES) pagesSel.append(el('option', { value: String(n), text: `${n} pages/task` }));
  pagesSel.value = String(SWEEP_DEFAULTS.pages);
  const runBtn = el('button', { type: 'submit', class: 'primary tp-run', text: 'Run sweep' });
  const status = el('p', { class: 'tp-status', role: 'status', id: 'tp-status' });
  const progressBox = el('div', { class: 'tp-progress' });
  const warnings = el('div', { class: 'tp-warnings' });
  form.append(
    presetBox,
    el(
      'div',
      { class: 'tp-row' },
      el('span', { class: 'field' }, el('label', { for: 'tp-cpus', text: 'tasks (CPUs)' }), cpusIn),
      el('span', { class: 'field' }, el('label', { for: 'tp-pages', text: 'pages each task maps' }), pagesSel),
      runBtn,
    ),
    el('span', { class: 'hint', id: 'tp-cpus-hint', text: 'comma-separated, 1 to 224 (past 112 the model machine has 4 sockets); each run is 2 rounds, the first a warm-up; the caches are scaled to the pages per task as will-it-scale\'s 128 MB are to the real ones' }),
  );
  const svg = createThroughputSvg();
  const details = el('details', { class: 'tp-details' }, el('summary', { text: 'the numbers (table)' }));
  const made = el('div', { class: 'tp-made' });
  let series: ThroughputSeries[] = [];
  /** the sweep the chart shows (the last one started) */
  let shown: SweepSpec | undefined;
  // the numbers as a spreadsheet reads them, with every parameter of the sweep above them
  const csv = csvButton(() => {
    const lin = series[0] ? linearSeries(series[0], series) : undefined;
    const cols = lin ? [...series, lin] : series;
    const tasks = [...new Set(cols.flatMap((x) => x.points.map((p) => p.tasks)))].sort((a, b) => a - b);
    const spec = shown;
    return {
      title: 'buddylab throughput sweep: page_fault1 score (pages/s) against tasks',
      params: spec ? [...runParameters(sweepParams(spec, spec.presets.join(','), spec.cpus[0]!)).filter(([k]) => k !== 'tasks'), ['tasks', spec.cpus.join(',')]] : [],
      commands: spec ? [commandOf(spec)] : [],
      columns: ['tasks', ...cols.map((x) => `${x.label} (pages/s)`)],
      rows: tasks.map((t) => [t, ...cols.map((x) => x.points.find((p) => p.tasks === t)?.score ?? null)]),
    };
  }, 'throughput-sweep');
  csv.disabled = true;
  body.append(form, progressBox, status, warnings, el('div', { class: 'tp-chart' }, svg), el('div', { class: 'table-actions' }, csv), made, details);

  const draw = perFrame(() => {
    drawThroughputChart(svg, series, { title: 'page_fault1 on the model machine: score vs tasks', linear: true });
    details.querySelector('table')?.remove();
    details.append(throughputTable(series));
  });
  draw();

  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    let spec: SweepSpec;
    try {
      const presets = [...presetBox.querySelectorAll<HTMLInputElement>('input:checked')].map((c) => c.value);
      spec = { presets, cpus: parseCpuList(cpusIn.value), pages: Number(pagesSel.value), iterations: SWEEP_DEFAULTS.iterations, seed };
      checkSweep(spec);
    } catch (e) {
      status.textContent = e instanceof Error ? e.message : String(e);
      return;
    }
    pool ??= new SimPool(undefined, new ResultsCache());
    const workers = pool;
    runBtn.disabled = true;
    status.textContent = '';
    warnings.replaceChildren();
    series = spec.presets.map((label) => ({ label, points: [] }));
    shown = spec;
    csv.disabled = false;
    made.replaceChildren(howMadeLine([commandOf(spec)], 'chart'));
    draw();
    const bar = progressBar('the sweep', () => workers.cancel());
    progressBox.replaceChildren(bar.root);
    const t0 = performance.now();
    try {
      const res = await runSweep(
        (reqs, onPoint) => workers.run(reqs, { onPoint: (p) => onPoint(p.index, p.stats), onProgress: (p) => bar.update(p) }),
        spec,
        (p) => {
          series = p.series;
          draw();
        },
      );
      const secs = ((performance.now() - t0) / 1000).toFixed(1);
      bar.finish('');
      status.textContent = `${res.total} runs in ${secs} s (${sizeNote(spec)})`;
      const runs = [...res.stats].map(([key, stats]) => ({ label: key.split('/')[0]!, preset: key.split('/')[0]!, tasks: Number(key.split('/')[1]), stats }));
      warnings.replaceChildren(...groupedWarnings(runs).map((w) => el('p', { class: 'alert pcp-warning', role: 'note', text: `${w.where.join('; ')}: ${w.text}` })));
    } catch (e) {
      bar.finish('');
      status.textContent = e instanceof PoolCancelled ? 'the sweep was cancelled' : e instanceof Error ? e.message : String(e);
    } finally {
      runBtn.disabled = false;
    }
  });
  addViewExportButtons(section, { title: TITLE, what: 'the throughput chart', file: 'buddylab-throughput' });
  return {
    root: section,
    load(d) {
      seed = d.scenario.seed;
    },
  };
}
