// A computed table beside the seed's quoted one, each with a CSV export. The computed cells
// come from compute.ts (the core, run just now); the quoted ones are the seed mail's own
// numbers, labelled as such.
import { el } from '../ui/dom';
import { csvButton } from '../ui/export-buttons';
import { tableCaption } from './caption';
import { METRICS, type Metric } from './lesson';
import { gainPct, metricValue, simRequest, tableCells, type TableResult } from './compute';
import { blabCommand, runParameters, RUN_DEFAULTS, type RunParams } from '../scenario/request';
import { howMadeLine } from '../ui/provenance';
import type { CsvTable } from '../ui/csv';

/** metrics that are themselves percentages: their changes are percentage points */
const PERCENT_METRICS: readonly Metric[] = ['zone_bp', 'lru_bp', 'hi_success_pct'];

/** The native commands that make the table: one per configuration, swept over its task counts. */
function tableCommands(r: TableResult): string[] {
  return r.configs.map((c) => {
    const q = simRequest(r.table, c, r.table.tasks[0]!);
    const p: RunParams = { ...q, clearLines: q.clearLines ?? RUN_DEFAULTS.clearLines };
    return blabCommand(p, r.table.tasks);
  });
}

/** The table for a spreadsheet: plain numbers, the change against the first configuration as a
 * number with its unit, and every parameter of the runs above the header. */
function tableCsv(r: TableResult, caption: string): CsvTable {
  const t = r.table;
  const base = r.configs[0]!.label;
  const pp = PERCENT_METRICS.includes(t.metric);
  const first = simRequest(t, r.configs[0]!, t.tasks[0]!);
  const own = new Set(['preset', 'pcp batch', 'pcp high', 'SLUB freelist prefetch', 'tasks', 'groups', 'CPUs']);
  return {
    title: caption,
    params: [
      ...runParameters({ ...first, clearLines: first.clearLines ?? RUN_DEFAULTS.clearLines }).filter(([k]) => !own.has(k)),
      ['tasks', t.tasks.join(',')],
      ['metric', METRICS[t.metric]],
      ...r.configs.map((c, i): [string, string] => [`configuration ${i + 1}`, `${c.label}: preset ${c.preset}, pcp batch ${c.batch ?? "the preset's"}, pcp high ${c.high ?? "the preset's"}`]),
    ],
    commands: tableCommands(r),
    columns: ['tasks', ...r.configs.map((c) => c.label), ...(t.gain ? r.configs.slice(1).flatMap((c) => [`${c.label} vs ${base}`, `${c.label} vs ${base} unit`]) : [])],
    rows: r.rows.map((row, i) => {
      const v = row.map((s) => metricValue(s, t.metric));
      const change = (x: number) => Number((pp ? x - v[0]! : gainPct(v[0]!, x)).toFixed(4));
      return [t.tasks[i]!, ...v.map((x) => Number(x.toFixed(6))), ...(t.gain ? v.slice(1).flatMap((x) => [change(x), pp ? 'pp' : '%']) : [])];
    }),
  };
}

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
  model.append(
    htmlTable(cells, caption, 'model'),
    el('div', { class: 'table-actions' }, csvButton(tableCsv(r, caption), `${t.name}-model`)),
    howMadeLine(tableCommands(r), 'table'),
  );
  wrap.append(model);
  if (t.quoted) {
    const q = [t.quoted.columns, ...t.quoted.rows];
    const seed = el('figure', { class: 'table-seed' });
    seed.append(htmlTable(q, `The seed's own numbers, quoted: ${t.quoted.source}`, 'seed'), el('div', { class: 'table-actions' }, csvButton(q, `${t.name}-seed`)));
    wrap.append(seed);
  }
  return wrap;
}
