// The compare page's form: two to four configurations (a preset, its pcp batch and high, and
// for hackbench SLUB's freelist prefetch), the workload and its own fields (their labels and
// bounds follow the workload: compare-url.ts), the seed and the chart's task counts. It folds
// away (closed on a phone), so the playback bar comes first. Read through the link's own
// parser, so the form and a typed URL are checked alike.
import { PRESETS } from '../scenario/url';
import { RUN_DEFAULTS } from '../scenario/request';
import { el } from '../ui/dom';
import { createDrawer } from '../ui/drawer';
import type { SimConfig } from '../lessons/lesson';
import { COMPARE_LIMITS, COMPARE_WORKLOADS, defaultsFor, parseCompare, type CompareState, type CompareWorkload, type CompareWorkloadSpec } from './compare-url';
import { COMPARE_CLEAR_LINES } from './compare-request';

export interface CompareForm {
  /** the drawer the form sits in */
  readonly root: HTMLElement;
  /** Compare: disabled while a compare runs */
  readonly run: HTMLButtonElement;
  /** the state the form asks for; throws the link parser's error when a field is out of bounds */
  read(): CompareState;
}

interface NumberField {
  input: HTMLInputElement;
  field: HTMLElement;
}

const num = (id: string, label: string, value: number, min: number, max: number): NumberField => {
  const i = el('input', { type: 'number', id, min, max, step: 1, value, required: true });
  return { input: i, field: el('div', { class: 'field' }, el('label', { for: id, text: label }), i) };
};

/** What the workload runs, in a sentence under the fields. */
function workloadHint(w: CompareWorkload): string {
  if (w === 'hackbench') return `hackbench on the model machine: each group a sender CPU, every message a slab object freed on the next CPU; the preset's page allocator below the slabs.`;
  if (w === 'stress_highalloc')
    return 'stress_highalloc on the model machine: the zone filled and freed but for long-lived pages, then cpu 0 asks for order-9 blocks 1 ms apart (compacting when none is free) while the other CPUs churn order-0 pages.';
  if (w === 'mixed')
    return `mixed on the model machine: page_fault1 on the first half of the CPUs (${RUN_DEFAULTS.rounds} rounds, the first a warm-up), order-9 blocks on the rest for as long as those run, compacting when none is free. The table and chart: clear_page() through all 64 cache lines; the replays through ${COMPARE_CLEAR_LINES}.`;
  return `the workload on the model machine, one task per CPU, ${RUN_DEFAULTS.rounds} rounds (the first is a warm-up). The table (${COMPARE_LIMITS.seeds} seeds) and the chart run the pages per task given here, clear_page() through all 64 cache lines, the caches scaled to keep will-it-scale's footprint-to-cache ratio; the replays above them are cut down to step through.`;
}

/** One configuration's fieldset: preset, batch, high, freelist prefetch (hackbench), remove. */
function configRow(rows: HTMLElement, c: SimConfig): HTMLFieldSetElement {
  const i = rows.children.length;
  const row = el('fieldset', { class: 'config-row' });
  row.append(el('legend', { text: `configuration ${i + 1}` }));
  const sel = el('select', { id: `cfg-preset-${i}`, name: 'preset' });
  for (const p of Object.keys(PRESETS)) sel.append(el('option', { value: p, text: p }));
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
  row.append(el('label', { for: sel.id, text: 'preset' }), sel, el('label', { for: batch.id, text: 'batch' }), batch, el('label', { for: high.id, text: 'high' }), high, pfLabel, pf, rm);
  return row;
}

export function createCompareForm(state: CompareState, onSubmit: (form: CompareForm) => void): CompareForm {
  const form = el('form', { class: 'compare-form', 'aria-label': 'Configurations to compare' });
  const rows = el('div', { class: 'config-rows' });
  const addRow = (c: SimConfig) => {
    rows.append(configRow(rows, c));
    showFor(workload.value as CompareWorkload);
  };
  const workload = el('select', { id: 'cmp-workload' });
  for (const [name, w] of Object.entries(COMPARE_WORKLOADS)) workload.append(el('option', { value: name, text: w.title }));
  workload.value = state.workload;
  const add = el('button', { type: 'button', class: 'small', text: 'add a configuration' });
  add.addEventListener('click', () => {
    if (rows.children.length < COMPARE_LIMITS.maxConfigs) addRow({ label: 'v5.18', preset: 'v5.18' });
  });
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

  /** The form's fields, labels and bounds for workload w (what its URL keys take, compare-url.ts). */
  function showFor(w: CompareWorkload) {
    const sp: CompareWorkloadSpec = COMPARE_WORKLOADS[w];
    const set = (f: NumberField, label: string, min: number, max: number) => {
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
    hint.textContent = workloadHint(w);
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

  const read = (): CompareState => {
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
      `${sp.sweep ? `&tasks=${tasks.value}` : ''}`;
    return parseCompare(q);
  };
  const self: CompareForm = { root: settings.root, run, read };
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    onSubmit(self);
  });
  return self;
}
