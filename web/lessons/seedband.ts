// Where the model and a seed disagree, the table says so next to the number. A lesson names
// which of the seed's quoted numbers stand for a model config (`quoted.bands`, lesson.ts); this
// computes the seed's own % change from those numbers (never typed: "9608786 +6.3%" is read as
// 9608786 and set against its base row) and annotates the model's % cell for the same config
// with the seed's range and whether the model falls inside it, below or above.
import { el } from '../ui/dom';
import { cellSpread, gainPct, rowDone, signedPct, type TableResult } from './compute';
import type { LessonTable } from './lesson';

export interface SeedBand {
  config: string;
  tasks: number;
  /** the seed's % changes: lowest and highest over the cells read */
  lo: number;
  hi: number;
  /** how many of the seed's numbers went into it */
  n: number;
}

/** The first number in a quoted cell: 9037332, "9608786 +6.3%", "3.96 ms", "58%"; else undefined. */
export function firstNumber(cell: string | number): number | undefined {
  if (typeof cell === 'number') return cell;
  const m = /-?\d[\d,]*(?:\.\d+)?/.exec(cell);
  if (!m) return undefined;
  const v = Number(m[0].replace(/,/g, ''));
  return Number.isFinite(v) ? v : undefined;
}

/** The seed's bands for a table's configs, from its quoted numbers. */
export function seedBands(t: LessonTable): SeedBand[] {
  const q = t.quoted;
  if (!q?.bands) return [];
  return q.bands.flatMap((b) => {
    const pct: number[] = [];
    for (const k of b.cells) {
      const [cell, base] = b.by === 'row' ? [q.rows[b.index]?.[k], q.rows[b.base]?.[k]] : [q.rows[k]?.[b.index], q.rows[k]?.[b.base]];
      const v = cell === undefined ? undefined : firstNumber(cell);
      const v0 = base === undefined ? undefined : firstNumber(base);
      if (v !== undefined && v0 !== undefined && v0 !== 0) pct.push(gainPct(v0, v));
    }
    return pct.length ? [{ config: b.config, tasks: b.tasks, lo: Math.min(...pct), hi: Math.max(...pct), n: pct.length }] : [];
  });
}

export type Verdict = 'within' | 'below' | 'above';

/** The model's % change against the seed's band, in words. */
export function bandNote(model: number, b: SeedBand): { verdict: Verdict; text: string; range: string; words: string; short: string } {
  const range = `seed ${b.lo === b.hi ? signedPct(b.lo) : `${signedPct(b.lo)} .. ${signedPct(b.hi)}`}`;
  const verdict: Verdict = model < b.lo ? 'below' : model > b.hi ? 'above' : 'within';
  const words = verdict === 'within' ? 'the model agrees' : `the model's ${signedPct(model)} is ${verdict} it`;
  // a slide has room for the range and one word (the cell already shows the model's change)
  const short = verdict === 'within' ? 'agrees' : verdict;
  return { verdict, text: `${range}: ${words}`, range, words, short };
}

/** The model's % change for a band's config and row, as the table computes it. */
export function modelGain(r: TableResult, b: SeedBand): number | undefined {
  const i = r.table.tasks.indexOf(b.tasks);
  const j = r.configs.findIndex((c) => c.label === b.config);
  if (i < 0 || j <= 0) return undefined;
  if (!rowDone(r, i)) return undefined;
  // the table's own cell: the change of the means over the seeds
  return gainPct(cellSpread(r, i, 0).mean, cellSpread(r, i, j).mean);
}

/**
 * Writes each band's note into the model table's "% against the first" cell for that config
 * and task count (found by its headings, so the table's own code stays as it is).
 */
export function annotateModelTable(root: HTMLElement, r: TableResult): void {
  const table = root.querySelector<HTMLTableElement>('table.model');
  if (!table) return;
  const heads = [...table.querySelectorAll('thead th')].map((th) => th.textContent ?? '');
  const base = r.configs[0]!.label;
  for (const b of seedBands(r.table)) {
    const gain = modelGain(r, b);
    const col = heads.indexOf(`${b.config} vs ${base}`);
    const row = [...table.querySelectorAll('tbody tr')].find((tr) => tr.querySelector('th')?.textContent === String(b.tasks));
    const cell = row?.children[col];
    if (gain === undefined || col < 0 || !cell) continue;
    const note = bandNote(gain, b);
    cell.querySelector('.seed-band')?.remove();
    cell.append(
      el(
        'span',
        { class: `seed-band ${note.verdict}`, 'aria-label': note.text },
        el('span', { class: 'band-range', text: note.range }),
        el('span', { class: 'band-long', text: `: ${note.words}` }),
        el('span', { class: 'band-short', 'aria-hidden': 'true', text: note.short }),
      ),
    );
  }
}
