// A lesson step on a lecture slide never scrolls (lecture.css gives the stage the slide's
// height). When the figures and tables a step shows are together taller than the stage, the
// last of them that is not the step's own figure leaves the slide, one at a time, until the rest
// fit; the slide says what left, and the figures menu (or the page, out of lecture mode) shows it.
import { el } from '../ui/dom';

/** What may leave a crowded slide, in the order it leaves: the tables after the first (last
 * first), the figures that are not the step's own, then, beside a run's figure, the first table. */
function leavers(stage: HTMLElement): HTMLElement[] {
  const panels = [...stage.querySelectorAll<HTMLElement>('section.panel')];
  // the step's own figure stays: its highlight, else the first
  const own = stage.querySelector<HTMLElement>('section.panel.highlighted') ?? panels[0];
  const [first, ...tables] = stage.querySelectorAll<HTMLElement>('.tables figure');
  return [...tables.reverse(), ...panels.filter((p) => p !== own).reverse(), ...(first && own ? [first] : [])];
}

/** the stage, or a figure in it, holds more than its box shows */
const crowded = (stage: HTMLElement) =>
  stage.scrollHeight > stage.clientHeight + 1 || [...stage.querySelectorAll<HTMLElement>('section.panel, section.panel pre')].some((p) => p.checkVisibility() && p.scrollHeight > p.clientHeight + 2);
/** a figure that fills its box redraws on the frame after its box changed */
const settled = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));

/** The name a left figure goes by on the slide's note. */
function nameOf(e: HTMLElement): string {
  return e.querySelector('h2, h3, .panel-head, figcaption, caption')?.textContent?.trim().split(':')[0] ?? 'a figure';
}

/** A slide has one key: a legend entry an earlier figure's legend already shows is not repeated. */
function oneKey(stage: HTMLElement): void {
  const seen = new Set<string>();
  for (const li of stage.querySelectorAll<HTMLElement>('section.panel:not(.off-slide) .figure-legend li')) {
    const key = `${li.textContent}|${li.querySelector<HTMLElement>('.swatch')?.style.cssText ?? ''}`;
    li.classList.toggle('said-above', seen.has(key));
    seen.add(key);
  }
}

/** The toolbar's line that names what a crowded slide left off. */
export function offSlideNote(): HTMLElement {
  const note = el('span', { class: 'off-slide-note', role: 'status' });
  note.hidden = true;
  return note;
}

/** Fits the stage to the slide (lecture mode only), saying in `note` what left it; then marks
 * the stage `data-fitted` with the step's number (tests of the slide wait for it). */
export async function fitSlide(stage: HTMLElement, lecture: boolean, note: HTMLElement, step: number): Promise<string[]> {
  note.replaceChildren();
  note.removeAttribute('title');
  note.hidden = true;
  for (const e of stage.querySelectorAll('.off-slide, .said-above')) e.classList.remove('off-slide', 'said-above');
  if (!lecture) {
    stage.dataset['fitted'] = String(step);
    return [];
  }
  oneKey(stage);
  const left: string[] = [];
  await settled();
  for (const e of leavers(stage)) {
    if (!crowded(stage)) break;
    e.classList.add('off-slide');
    left.push(nameOf(e));
    oneKey(stage);
    await settled();
  }
  if (left.length) {
    note.hidden = false;
    // one short line in the toolbar (a wrapped list of names pushed the figure down the
    // slide): how many, with the names for a screen reader and, in the title, for a pointer
    const names = left.reverse().join('; ');
    const count = left.length === 1 ? 'one part' : `${left.length} parts`;
    note.append(`${count} off this slide (L shows all)`, el('span', { class: 'sr-only', text: `: ${names}` }));
    note.title = `off this slide: ${names}`;
  }
  stage.dataset['fitted'] = String(step);
  return left;
}
