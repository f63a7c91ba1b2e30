// A lesson step's grid: rows across the text column and the stage. Row 1 is the title beside the
// run's player bar; rows 2.. each group of paragraphs beside the figures it discusses
// (figures.ts), the first headed by the predict question (text) and the sentence and moving
// picture of the current record (stage); the last, what the model leaves out beside the C and
// the tables. On a lecture slide the one figure or pair stays in view at the top.
import { el } from '../ui/dom';
import { assignFigures } from './figures';
import type { LessonViewId } from './lesson';

export interface StepCells {
  /** beside the run's player: the step's title */
  textHead: HTMLElement;
  /** beside the title: the run's player bar */
  runHead: HTMLElement;
  /** the question, and the first group of paragraphs */
  askCell: HTMLElement;
  /** beside the question: the sentence, the moving picture, the first figures */
  stageHead: HTMLElement;
  /** the stage's cell of each paragraph group (the first is stageHead) */
  figCells: HTMLElement[];
  textTail: HTMLElement;
  stageTail: HTMLElement;
  /** the figure cell of view k of the step's views */
  cellOf(k: number): HTMLElement;
}

export interface StepLayoutOptions {
  text: HTMLElement;
  stage: HTMLElement;
  /** the grid holding both; told how many rows there are */
  body: HTMLElement;
  /** the step's prose, one element per block */
  blocks: HTMLElement[];
  /** the figures it shows */
  views: readonly LessonViewId[];
  lecture: boolean;
}

/** Empties text and stage and lays the step's rows out in them; returns the cells. */
export function layoutStep(o: StepLayoutOptions): StepCells {
  const { text, stage, blocks, views } = o;
  // on a slide the one figure or pair stays in view at the top; on a page each goes beside
  // the paragraph that discusses it
  const at = o.lecture ? views.map(() => 0) : assignFigures(blocks.map((b) => b.textContent ?? ''), views);
  const starts = [...new Set([0, ...at])].sort((a, b) => a - b);
  const groupOf = (k: number) => starts.filter((s) => s <= k).length - 1;

  const first = 2;
  const rows = starts.length + first;
  o.body.style.setProperty('--rows', String(rows + 1));
  const cell = (col: HTMLElement, row: number, cls: string) => {
    const c = el('div', { class: `lesson-cell ${cls}` });
    c.style.setProperty('--row', String(row));
    col.append(c);
    return c;
  };
  text.replaceChildren();
  stage.replaceChildren();
  const textHead = cell(text, 1, 'text-head');
  const runHead = cell(stage, 1, 'run-cell');
  const askCell = cell(text, first, 'text-predict');
  const stageHead = cell(stage, first, 'stage-head');
  const figCells = starts.map((s, g) => {
    const c = g === 0 ? askCell : cell(text, g + first, 'prose prose-group');
    c.classList.add('prose', 'prose-group');
    const end = starts[g + 1] ?? blocks.length;
    c.append(...blocks.slice(s, end));
    return g === 0 ? stageHead : cell(stage, g + first, 'figure-group');
  });
  const textTail = cell(text, rows + 1, 'text-tail');
  const stageTail = cell(stage, rows + 1, 'stage-tail');
  return { textHead, runHead, askCell, stageHead, figCells, textTail, stageTail, cellOf: (k) => figCells[groupOf(at[k]!)]! };
}
