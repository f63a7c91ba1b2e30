// The capstone's tuner: the student edits batch and high of the table's tunable configuration,
// runs it, and reads whether it beats the first configuration over the whole mixed load (the
// geometric mean over the task counts, so no single row dominates).
import { PoolCancelled } from '../engine/pool';
import { el } from '../ui/dom';
import { progressBar } from '../ui/progress-bar';
import { cellSpread, type TableResult } from './compute';
import { TableView } from './tableview';
import type { StepTableOptions } from './step-tables';

export interface TunerOptions extends StepTableOptions {
  /** the table, its first result, and which configuration is tunable */
  name: string;
  first: TableResult;
  tunable: number;
  /** where the table stands (its rerun replaces it there) */
  where: HTMLElement;
}

export function createTuner(o: TunerOptions): HTMLElement {
  const t = o.lesson.tables[o.name]!;
  const j = o.tunable;
  const base = t.configs[j]!;
  const form = el('form', { class: 'tuner', 'aria-labelledby': 'tuner-title' });
  const batch = el('input', { type: 'number', id: 'tune-batch', min: 1, max: 256, step: 1, value: base.batch ?? 31, required: true });
  const high = el('input', { type: 'number', id: 'tune-high', min: 1, max: 1024, step: 1, value: base.high ?? 186, required: true });
  const verdict = el('p', { class: 'verdict', role: 'status' });
  // the student's pair on the compare view, at the table's own size: its largest task count,
  // pages per task, seed and task counts (the link the compare page reads, compare-url.ts)
  const compare = el('a', { class: 'tuner-compare', text: 'Compare your pair side by side: contention and hold time' });
  const pages = t.workload === 'page_fault1' ? t.pages : 4096;
  const linkTo = (b: number, h: number) => {
    const first = t.configs[0]!;
    const mine = `${base.preset}:batch=${b}:high=${h}`;
    compare.href = `?compare=${first.preset},${mine}&cpus=${Math.max(...t.tasks)}&pages=${pages}&seed=${t.seed}&tasks=${t.tasks.join(',')}`;
  };
  linkTo(base.batch ?? 31, base.high ?? 186);
  form.append(
    el('h4', { id: 'tuner-title', text: `Your turn: tune "${base.label}"` }),
    el('div', { class: 'tool-row' }, el('label', { for: 'tune-batch', text: 'batch (pages per rmqueue_bulk / bulk free), 1..256' }), batch),
    el('div', { class: 'tool-row' }, el('label', { for: 'tune-high', text: 'high (drain when count reaches it), batch..1024' }), high),
    el('button', { type: 'submit', class: 'primary', text: 'Run my configuration' }),
    verdict,
    el('p', {}, compare),
  );
  const judge = (r: TableResult) => {
    // the mixed load's score: the geometric mean over the task counts (each the mean of its
    // seeds), so no single row dominates
    const gm = (k: number) => Math.exp(t.tasks.reduce((a, _n, i) => a + Math.log(Math.max(1, cellSpread(r, i, k).mean)), 0) / t.tasks.length);
    const mine = gm(j);
    const theirs = gm(0);
    const pct = ((mine - theirs) / theirs) * 100;
    const used = r.runs[0]![j]![0]!;
    verdict.textContent = `${r.configs[j]!.label} (batch ${used.batch}, high ${used.high}): ${Math.round(mine).toLocaleString('en')} pages/s against ${Math.round(theirs).toLocaleString('en')} for ${r.configs[0]!.label}, ${pct >= 0 ? '+' : ''}${pct.toFixed(1)}%: ${mine > theirs ? 'you beat the preset.' : 'the preset still wins.'}`;
  };
  judge(o.first);
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const b = Number(batch.value);
    const h = Number(high.value);
    if (!Number.isInteger(b) || b < 1 || b > 256 || !Number.isInteger(h) || h < b || h > 1024) {
      verdict.textContent = 'batch must be 1..256 and high from batch to 1024';
      return;
    }
    const configs = t.configs.map((c, k) => (k === j ? { ...c, label: 'yours', batch: b, high: h } : c));
    verdict.textContent = 'the model is running…';
    const view = new TableView(t);
    const bar = progressBar('your configuration', () => o.pool.cancel());
    form.append(bar.root);
    try {
      const r = await o.tables.get(o.name, configs, (res) => view.update(res), (p) => bar.update(p));
      if (!o.current()) return;
      view.update(r);
      o.where.querySelector(`.tables[data-table="${o.name}"]`)?.replaceWith(view.root);
      bar.finish('');
      judge(r);
      linkTo(b, h);
    } catch (e) {
      bar.finish('');
      verdict.textContent = e instanceof PoolCancelled ? 'cancelled' : e instanceof Error ? e.message : String(e);
    }
  });
  return form;
}
