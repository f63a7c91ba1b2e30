// A computed table beside the seed's quoted one, each with a CSV export. The computed cells
// come from compute.ts (the core's runs: shipped with the build, cached, or run now), each the
// mean over its seeds with the spread (min..max) under it; rows appear as they finish. After
// "Run live" each row says whether the browser's runs printed the same bytes as the shipped
// ones. The quoted cells are the seed mail's own numbers, labelled as such.
import { el } from '../ui/dom';
import { csvButton } from '../ui/export-buttons';
import { METRICS, type LessonTable } from './lesson';
import { cellSpread, formatMetric, rowDone, tableCells, tableWarnings, type TableResult } from './compute';

/** A row of a live run against the shipped results: the same bytes, not, nothing shipped to
 * compare with (a lesson opened from a file), or still running. */
export type RowMatch = 'matched' | 'differs' | 'unshipped' | 'running';

const MATCH_TEXT: Record<RowMatch, string> = {
  matched: '✓ same bytes',
  differs: '✗ differs',
  unshipped: 'no shipped run',
  running: '…',
};

function htmlTable(rows: readonly (readonly (string | number)[])[], caption: string, cls: string): HTMLTableElement {
  const t = el('table', { class: `data ${cls}` });
  t.append(el('caption', { text: caption }));
  const [head, ...body] = rows;
  const thead = el('thead');
  const tr = el('tr');
  for (const h of head ?? []) tr.append(el('th', { scope: 'col', text: String(h) }));
  thead.append(tr);
  const tbody = el('tbody');
  for (const r of body) {
    const row = el('tr');
    r.forEach((c, i) => row.append(i === 0 ? el('th', { scope: 'row', text: String(c) }) : el('td', { text: String(c) })));
    tbody.append(row);
  }
  t.append(thead, tbody);
  return t;
}

/** What the model ran, said in the caption: workload, sizes, the cache scale, rounds, seeds. */
export function runsCaption(t: LessonTable): string {
  const seeds = t.seeds > 1 ? `seeds ${t.seed}..${t.seed + t.seeds - 1}, mean and min..max` : `seed ${t.seed}`;
  const scale = t.cacheScale > 1 ? `, L2 and LLC / ${t.cacheScale} (${t.pages} pages keep the footprint-to-cache ratio of ${t.pages * t.cacheScale} pages)` : '';
  switch (t.workload) {
    case 'hackbench':
      return `hackbench, ${t.pages} messages per sender, ${seeds}`;
    case 'stress_highalloc':
      return `stress_highalloc, a ${t.pages}-page fill, ${t.iterations} order-9 attempts, ${seeds}`;
    default:
      return `${t.workload}, ${t.pages} pages per task${scale}, clear_page() through ${t.clearLines} of 64 lines, ${t.iterations} rounds, ${seeds}`;
  }
}

/** A table that fills in as its rows finish: update() with the result so far. */
export class TableView {
  readonly root: HTMLElement;
  private readonly model = el('figure', { class: 'table-model' });
  private readonly warnings = el('div', { class: 'table-warnings' });

  constructor(readonly table: LessonTable) {
    this.root = el('div', { class: 'tables', 'data-table': table.name });
    this.root.append(this.model);
    if (table.quoted) {
      const q = [table.quoted.columns, ...table.quoted.rows];
      const seed = el('figure', { class: 'table-seed' });
      seed.append(htmlTable(q, `The seed's own numbers, quoted: ${table.quoted.source}`, 'seed'), el('div', { class: 'table-actions' }, csvButton(q, `${table.name}-seed`)));
      this.root.append(seed);
    }
    this.root.append(this.warnings);
  }

  /** Draws the rows finished so far ("…" for the others); matches: per row, a live run's check. */
  update(r: TableResult, matches?: readonly (RowMatch | undefined)[]): void {
    const t = this.table;
    const head = tableCells(r)[0]!;
    const shown = matches ? [...head, 'live run vs shipped'] : head;
    const tbl = htmlTable([shown], `The model: ${t.caption} (${METRICS[t.metric]}; ${runsCaption(t)})`, 'model');
    const tbody = tbl.querySelector('tbody')!;
    const done = tableCells(r).slice(1);
    let next = 0;
    t.tasks.forEach((n, i) => {
      const tr = el('tr', { 'data-tasks': n });
      if (!rowDone(r, i)) {
        tr.append(el('th', { scope: 'row', text: String(n) }), ...head.slice(1).map(() => el('td', { class: 'pending', text: '…' })));
      } else {
        const cells = done[next++]!;
        tr.append(el('th', { scope: 'row', text: cells[0]! }));
        cells.slice(1).forEach((c, k) => {
          const td = el('td', { text: c });
          if (k < r.configs.length) {
            // the spread under the mean: min..max over the seeds
            const s = cellSpread(r, i, k);
            if (s.n > 1) td.append(el('span', { class: 'spread', text: `${formatMetric(t.metric, s.min)}..${formatMetric(t.metric, s.max)}` }));
          }
          tr.append(td);
        });
      }
      if (matches) {
        const m = matches[i];
        tr.append(el('td', { class: `match ${m ?? ''}`, text: m ? MATCH_TEXT[m] : '' }));
      }
      tbody.append(tr);
    });
    this.model.replaceChildren(tbl, el('div', { class: 'table-actions' }, csvButton(tableCells(r, true), `${t.name}-model`)));
    // when every row was in, ms after the page started (make bench reads it)
    if (!this.root.dataset['completeMs'] && t.tasks.every((_n, i) => rowDone(r, i))) this.root.dataset['completeMs'] = String(Math.round(performance.now()));
    this.warnings.replaceChildren(
      ...tableWarnings(r).map((w) => el('p', { class: 'alert pcp-warning', role: 'note', text: `${w.where.join(', ')}: ${w.text}` })),
    );
  }
}
