// A computed table beside the seed's quoted one, each with a CSV export. The computed cells
// come from compute.ts (the core's runs: shipped with the build, cached, or run now), each the
// mean over its seeds with the spread (min..max) under it; rows appear as they finish. After
// "Run live" each row says whether the browser's runs counted the same as the shipped ones
// (every counter, as an int64). The quoted cells are the seed mail's own numbers, labelled as such.
import { el } from '../ui/dom';
import { scrollCue } from '../ui/scroll-cue';
import { csvButton } from '../ui/export-buttons';
import { howMadeLine } from '../ui/provenance';
import type { CsvTable } from '../ui/csv';
import { blabCommand, runParameters, RUN_DEFAULTS, type RunParams } from '../scenario/request';
import { tableCaption, tableCaptionParts } from './caption';
import { METRICS, rowsName, type LessonTable, type Metric } from './lesson';
import { bindsLine, cellSpread, formatMetric, gainPct, rowDone, seedsOf, simRequest, tableCells, tableWarnings, type TableResult } from './compute';
import { annotateModelTable } from './seedband';

/** A row of a live run against the shipped results: every counter equal, not, nothing shipped to
 * compare with (a lesson opened from a file), or still running. */
export type RowMatch = 'matched' | 'differs' | 'unshipped' | 'running';

const MATCH_TEXT: Record<RowMatch, string> = {
  matched: '✓ same counters',
  differs: '✗ differs',
  unshipped: 'no shipped run',
  running: '…',
};

/** metrics that are themselves percentages: their changes are percentage points */
const PERCENT_METRICS: readonly Metric[] = ['zone_bp', 'zone_bp_scored', 'lru_bp', 'lru_bp_scored', 'hi_success_pct'];

/** A configuration's run at `tasks` and `seed` as blabCommand() takes it. */
function runParams(t: LessonTable, r: TableResult, j: number, tasks: number, seed?: number): RunParams {
  const q = simRequest(t, r.configs[j]!, tasks, seed);
  return { ...q, clearLines: q.clearLines ?? RUN_DEFAULTS.clearLines, cacheScale: q.cacheScale ?? 1 };
}

/** The native commands that make the table: one per configuration and seed, swept over its
 * task counts (a cell is the mean of its seeds' runs, so every seed's command is listed). */
function tableCommands(r: TableResult): string[] {
  return r.configs.flatMap((c, j) => seedsOf(r.table, c).map((seed) => blabCommand(runParams(r.table, r, j, r.table.tasks[0]!, seed), r.table.tasks)));
}

/** The table for a spreadsheet: plain numbers (each configuration's mean, min and max over its
 * seeds), the change of the means against the first configuration as a number with its unit,
 * and every parameter of the runs above the header. */
function tableCsv(r: TableResult, caption: string): CsvTable {
  const t = r.table;
  const base = r.configs[0]!.label;
  const pp = PERCENT_METRICS.includes(t.metric);
  const own = new Set(['preset', 'pcp batch', 'pcp high', 'SLUB freelist prefetch', 'tasks', 'groups', 'CPUs', 'seed']);
  const num = (v: number) => Number(v.toFixed(6));
  const rows: (string | number | null)[][] = [];
  t.tasks.forEach((n, i) => {
    if (!rowDone(r, i)) return;
    const cells = r.configs.map((_c, j) => cellSpread(r, i, j));
    const m0 = cells[0]!.mean;
    const change = (x: number) => Number((pp ? x - m0 : gainPct(m0, x)).toFixed(4));
    rows.push([n, ...cells.flatMap((s) => [num(s.mean), num(s.min), num(s.max)]), ...(t.gain ? cells.slice(1).flatMap((s) => [change(s.mean), pp ? 'pp' : '%']) : [])]);
  });
  return {
    title: caption,
    params: [
      ...runParameters(runParams(t, r, 0, t.tasks[0]!)).filter(([k]) => !own.has(k)),
      [rowsName(t), t.tasks.join(',')],
      ['metric', METRICS[t.metric]],
      ...r.configs.map((c, i): [string, string] => [`configuration ${i + 1}`, `${c.label}: preset ${c.preset}, pcp batch ${c.batch ?? "the preset's"}, pcp high ${c.high ?? "the preset's"}, seeds ${seedsOf(t, c).join(',')}`]),
    ],
    commands: tableCommands(r),
    columns: [
      rowsName(t),
      ...r.configs.flatMap((c) => [c.label, `${c.label} min`, `${c.label} max`]),
      ...(t.gain ? r.configs.slice(1).flatMap((c) => [`${c.label} vs ${base}`, `${c.label} vs ${base} unit`]) : []),
    ],
    rows,
  };
}

function htmlTable(rows: readonly (readonly (string | number)[])[], caption: string | HTMLElement, cls: string): HTMLTableElement {
  const t = el('table', { class: `data ${cls}` });
  t.append(typeof caption === 'string' ? el('caption', { text: caption }) : caption);
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

/** A table that fills in as its rows finish: update() with the result so far. */
export class TableView {
  readonly root: HTMLElement;
  private readonly model = el('figure', { class: 'table-model' });
  private readonly warnings = el('div', { class: 'table-warnings' });
  /** which limit binds each row's runs (the core's verdict) */
  private readonly binds = el('p', { class: 'table-binds hint' });

  /** the model table's "scroll sideways" cue, checked again when its rows change */
  private readonly cue: () => void;

  constructor(readonly table: LessonTable) {
    this.root = el('div', { class: 'tables', 'data-table': table.name });
    this.root.append(this.model);
    this.cue = scrollCue(this.model);
    if (table.quoted) {
      const q = [table.quoted.columns, ...table.quoted.rows];
      const seed = el('figure', { class: 'table-seed' });
      seed.append(htmlTable(q, `The seed's own numbers, quoted: ${table.quoted.source}`, 'seed'), el('div', { class: 'table-actions' }, csvButton(q, `${table.name}-seed`)));
      this.root.append(seed);
      scrollCue(seed);
    }
    this.root.append(this.binds, this.warnings);
  }

  /** Draws the rows finished so far ("…" for the others); matches: per row, a live run's check. */
  update(r: TableResult, matches?: readonly (RowMatch | undefined)[]): void {
    const t = this.table;
    const head = tableCells(r)[0]!;
    const shown = matches ? [...head, 'live run vs shipped'] : head;
    const caption = tableCaption(t);
    // the sizes apart, so a slide can leave them to the page's own view
    const parts = tableCaptionParts(t);
    // five or more configurations: each spread may break after its "..", so the table
    // fits a laptop without scrolling sideways (lesson 9's sweep has seven)
    const many = r.configs.length >= 5 ? ' many-columns' : '';
    const tbl = htmlTable([shown], el('caption', {}, parts.main, el('span', { class: 'caption-detail', text: ` (${parts.detail})` })), `model${many}`);
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
            // the spread under the mean: min..max over the seeds (free to break after the ".."
            // in a table of many columns; Chromium breaks at a <wbr> even under nowrap)
            const s = cellSpread(r, i, k);
            if (s.n > 1) td.append(el('span', { class: 'spread' }, `${formatMetric(t.metric, s.min)}..`, ...(many ? [el('wbr')] : []), formatMetric(t.metric, s.max)));
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
    this.model.replaceChildren(tbl, el('div', { class: 'table-actions' }, csvButton(tableCsv(r, caption), `${t.name}-model`)), howMadeLine(tableCommands(r), 'table'));
    requestAnimationFrame(this.cue);
    // where the seed's own numbers disagree with the model's, say so in the cell
    annotateModelTable(this.root, r);
    // when every row was in, ms after the page started (make bench reads it)
    if (!this.root.dataset['completeMs'] && t.tasks.every((_n, i) => rowDone(r, i))) this.root.dataset['completeMs'] = String(Math.round(performance.now()));
    const b = bindsLine(r);
    this.binds.textContent = b ? `The limit that binds each run (each cell's first seed: what its CPUs waited on longest): ${b}.` : '';
    this.warnings.replaceChildren(
      ...tableWarnings(r).map((w) => el('p', { class: 'alert pcp-warning', role: 'note', text: `${w.where.join(', ')}: ${w.text}` })),
    );
  }
}
