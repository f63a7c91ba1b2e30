// A lesson step's table: filled row by row as its runs finish (at once when the build shipped
// them, tables.ts), with a progress bar while the worker pool runs, and the "Run live" button
// that runs every table of the lesson again in this browser and checks each row against the
// shipped runs: every counter of every run, compared as the int64 the core counted.
import { PoolCancelled, type SimPool } from '../engine/pool';
import { el } from '../ui/dom';
import { progressBar } from '../ui/progress-bar';
import type { TableResult } from './compute';
import type { Lesson } from './lesson';
import type { LessonTables } from './tables';
import { TableView } from './tableview';

export interface StepTableOptions {
  lesson: Lesson;
  tables: LessonTables;
  pool: SimPool;
  /** false once the page moved to another step: nothing more is drawn */
  current(): boolean;
}

/** The table `name` into `where`, and its Run live button; null when the step moved on. */
export async function showTable(o: StepTableOptions, name: string, where: HTMLElement): Promise<TableResult | null> {
  const view = new TableView(o.lesson.tables[name]!);
  const bar = progressBar('the model runs of this table', () => o.pool.cancel());
  bar.root.hidden = true;
  where.append(bar.root, view.root);
  const r = await o.tables.get(
    name,
    undefined,
    (res) => {
      if (o.current() && !o.tables.liveResult(name)) view.update(res);
    },
    (p) => {
      if (!o.current()) return;
      bar.root.hidden = p.done === p.total;
      bar.update(p);
    },
  );
  if (!o.current()) return null;
  bar.finish('');
  const live = o.tables.liveResult(name);
  if (live) view.update(live.result, live.matches);
  else view.update(r);
  where.append(liveButton(o, name, view));
  return r;
}

/** "Run live": every table of the lesson again, each row checked against the shipped runs. */
function liveButton(o: StepTableOptions, name: string, view: TableView): HTMLElement {
  const { lesson, tables } = o;
  const count = Object.keys(lesson.tables).length;
  const btn = el('button', { type: 'button', class: 'run-live', text: `Run live (${count === 1 ? 'this table' : `all ${count} tables of this lesson`})` });
  const box = el('div', { class: 'live-box' }, btn, el('span', { class: 'hint', text: ' the tables come from the native core at build time; this runs them again here, in WebAssembly, and checks that every counter of every run in each row is the same number (each an int64)' }));
  btn.addEventListener('click', async () => {
    btn.disabled = true;
    delete box.dataset['live'];
    const bar = progressBar('Run live', () => o.pool.cancel());
    box.append(bar.root);
    const t0 = performance.now();
    try {
      await tables.runLive({
        onRow: (n, r) => {
          if (n === name && o.current()) view.update(r, tables.liveResult(n)!.matches);
        },
        onProgress: (p) => bar.update(p),
      });
      const checks = Object.keys(lesson.tables).flatMap((n) => tables.liveResult(n)!.matches);
      const same = checks.filter((m) => m === 'matched').length;
      const ms = performance.now() - t0;
      bar.finish(`ran live in ${(ms / 1000).toFixed(1)} s: ${same} of ${checks.length} rows with every counter the same as the shipped runs`);
      box.dataset['liveMs'] = String(Math.round(ms)); // make bench reads it
      box.dataset['live'] = 'done';
    } catch (e) {
      bar.finish(e instanceof PoolCancelled ? 'Run live cancelled' : `Run live stopped: ${e instanceof Error ? e.message : String(e)}`);
    } finally {
      btn.disabled = false;
    }
  });
  return box;
}
