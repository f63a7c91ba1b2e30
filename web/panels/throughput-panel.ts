// The throughput panel: choose presets and task counts, run page_fault1 on the model machine
// for each pair in the engine worker (web/engine/sweep.ts), and draw score vs tasks with the
// linear line (web/views/throughput.ts), updating as each run finishes.

import { PRESETS } from '../scenario/url';
import { RUN_DEFAULTS } from '../scenario/request';
import { runSweep, parseCpuList, checkSweep, sweepParams, type SimFn, type SweepSpec, type ThroughputSeries } from '../engine/sweep';
import { blabCommand, runParameters } from '../scenario/request';
import { csvButton } from '../ui/export-buttons';
import { howMadeLine } from '../ui/provenance';
import { linearSeries } from '../views/throughput';
import { createThroughputSvg, drawThroughputChart, throughputTable } from '../views/throughput';
import { el } from '../ui/dom';
import type { Panel } from './panel';

export const SWEEP_DEFAULTS = {
  presets: ['v4.16', 'v4.17', 'v5.18'],
  cpus: '1,2,4,8,16',
  pages: 256,
  iterations: RUN_DEFAULTS.rounds,
} as const;

const PAGE_CHOICES = [64, 256, 1024, 4096];

/** The one native command of a sweep: every preset and task count (blab sim takes lists). */
function commandOf(spec: SweepSpec): string {
  return blabCommand(sweepParams(spec, spec.presets.join(','), spec.cpus[0]!), spec.cpus);
}

/** Builds the panel body into `body`; `sim` runs one blab sim request (the engine's). A sweep
 * runs with the seed of the scenario the panel was last given (load()). */
export function createThroughputPanel(body: HTMLElement, sim: SimFn): Panel {
  let seed = 1;
  const form = el('form', { class: 'tp-form', 'aria-label': 'Throughput sweep' });
  const presetBox = el('fieldset', { class: 'tp-presets' }, el('legend', { text: 'presets (one line each)' }));
  for (const name of Object.keys(PRESETS)) {
    const id = `tp-preset-${name.replace(/[^a-z0-9]/gi, '-')}`;
    const cb = el('input', { type: 'checkbox', id, value: name, name: 'tp-preset' });
    cb.checked = (SWEEP_DEFAULTS.presets as readonly string[]).includes(name);
    presetBox.append(el('span', { class: 'tp-check' }, cb, el('label', { for: id, text: name })));
  }
  const cpusIn = el('input', { type: 'text', id: 'tp-cpus', value: SWEEP_DEFAULTS.cpus, size: 18, autocomplete: 'off', 'aria-describedby': 'tp-cpus-hint' });
  const pagesSel = el('select', { id: 'tp-pages' });
  for (const n of PAGE_CHOICES) pagesSel.append(el('option', { value: String(n), text: `${n} pages/task` }));
  pagesSel.value = String(SWEEP_DEFAULTS.pages);
  const runBtn = el('button', { type: 'submit', class: 'primary tp-run', text: 'Run sweep' });
  const stopBtn = el('button', { type: 'button', class: 'tp-stop', text: 'Stop', disabled: true });
  const status = el('p', { class: 'tp-status', role: 'status', id: 'tp-status' });
  form.append(
    presetBox,
    el(
      'div',
      { class: 'tp-row' },
      el('span', { class: 'field' }, el('label', { for: 'tp-cpus', text: 'tasks (CPUs)' }), cpusIn),
      el('span', { class: 'field' }, el('label', { for: 'tp-pages', text: 'pages each task maps' }), pagesSel),
      runBtn,
      stopBtn,
    ),
    el('span', { class: 'hint', id: 'tp-cpus-hint', text: 'comma-separated, 1 to 112; each run is 2 rounds, the first a warm-up' }),
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
  body.append(form, status, el('div', { class: 'tp-chart' }, svg), el('div', { class: 'table-actions' }, csv), made, details);

  let stop = false;
  const draw = () => {
    drawThroughputChart(svg, series, { title: 'page_fault1 on the model machine: score vs tasks', linear: true });
    details.querySelector('table')?.remove();
    details.append(throughputTable(series));
  };
  draw();

  stopBtn.addEventListener('click', () => {
    stop = true;
    status.textContent = 'stopping after the run in progress…';
  });
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
    stop = false;
    runBtn.disabled = true;
    stopBtn.disabled = false;
    series = spec.presets.map((label) => ({ label, points: [] }));
    shown = spec;
    csv.disabled = false;
    made.replaceChildren(howMadeLine([commandOf(spec)], 'chart'));
    draw();
    const t0 = performance.now();
    try {
      const res = await runSweep(
        sim,
        spec,
        (p) => {
          series = p.series;
          status.textContent = `run ${p.done} of ${p.total}…`;
          draw();
        },
        () => stop,
      );
      const secs = ((performance.now() - t0) / 1000).toFixed(1);
      status.textContent = stop
        ? `stopped after ${res.done} of ${res.total} runs`
        : `${res.total} runs in ${secs} s (seed ${spec.seed}, ${spec.pages} pages per task)`;
    } catch (e) {
      status.textContent = e instanceof Error ? e.message : String(e);
    } finally {
      runBtn.disabled = false;
      stopBtn.disabled = true;
    }
  });
  return {
    root: body,
    load(d) {
      seed = d.scenario.seed;
    },
  };
}
