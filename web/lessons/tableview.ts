// A computed table beside the seed's quoted one, each with a CSV export. The computed cells
// come from compute.ts (the core, run just now); the quoted ones are the seed mail's own
// numbers, labelled as such.
import { el } from '../ui/dom';
import { csvButton } from '../ui/export-buttons';
import { tableCaption } from './caption';
import { tableCells, type TableResult } from './compute';

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

export function renderTableResult(r: TableResult): HTMLElement {
  const t = r.table;
  const wrap = el('div', { class: 'tables', 'data-table': t.name });
  const cells = tableCells(r);
  const model = el('figure', { class: 'table-model' });
  const caption = tableCaption(t);
  model.append(htmlTable(cells, caption, 'model'), el('div', { class: 'table-actions' }, csvButton(cells, `${t.name}-model`)));
  wrap.append(model);
  if (t.quoted) {
    const q = [t.quoted.columns, ...t.quoted.rows];
    const seed = el('figure', { class: 'table-seed' });
    seed.append(htmlTable(q, `The seed's own numbers, quoted: ${t.quoted.source}`, 'seed'), el('div', { class: 'table-actions' }, csvButton(q, `${t.name}-seed`)));
    wrap.append(seed);
  }
  return wrap;
}
