// The small export buttons pages put on a panel or under a table: a view as SVG or PNG, a
// table as CSV. One place, so every page names and labels its files the same way.
import { csvLines, toCsv, type CsvCell, type CsvTable } from './csv';
import { el } from './dom';
import { download } from './download';
import { exportPanelSvg, svgToPng } from './image';

export interface ViewExport {
  /** the title drawn into the picture */
  title: string;
  /** what the buttons' accessible names say is exported: `Export ${what} as SVG` */
  what: string;
  /** the file name without its extension */
  file: string;
}

/**
 * Adds SVG and PNG buttons to a panel's heading (a panel without one is left alone). Both are
 * vector first: a view of the registry draws itself again as SVG (canvas views included), any
 * other panel is walked as it stands (image.ts).
 */
export function addViewExportButtons(panel: HTMLElement, x: ViewExport): void {
  const head = panel.querySelector('.panel-head');
  if (!head) return;
  const svgOf = () => exportPanelSvg(panel, x.title);
  const svg = el('button', { type: 'button', class: 'small', text: 'SVG', 'aria-label': `Export ${x.what} as SVG` });
  const png = el('button', { type: 'button', class: 'small', text: 'PNG', 'aria-label': `Export ${x.what} as PNG` });
  svg.addEventListener('click', () => download(svgOf(), `${x.file}.svg`, 'image/svg+xml'));
  png.addEventListener('click', async () => download(await svgToPng(svgOf()), `${x.file}.png`));
  head.append(el('div', { class: 'export-buttons' }, svg, png));
}

/**
 * A button that saves a table as `${name}.csv`: a CsvTable (numbers as numbers, its runs'
 * parameters and command in comment lines), or plain rows, header first, written as given.
 * `table` may be a function, read at the click, for a table that grows while a sweep runs.
 */
export function csvButton(
  table: CsvTable | readonly (readonly CsvCell[])[] | (() => CsvTable),
  name: string,
  label = 'CSV',
): HTMLButtonElement {
  const b = el('button', { type: 'button', class: 'small', text: label, 'aria-label': `Export ${name} as CSV` });
  b.addEventListener('click', () => {
    const t = typeof table === 'function' ? table() : table;
    download('columns' in t ? toCsv(t) : csvLines(t), `${name}.csv`, 'text/csv');
  });
  return b;
}
