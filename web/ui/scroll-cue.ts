// A table wider than its box (a phone shows one column of it) scrolls sideways inside the box;
// this says so under it, in words ("scroll sideways: 4 more columns"), while there is more to
// see, and goes away once the reader has scrolled to the end. One ResizeObserver watches every
// box and the table in it (rows that fill in later widen the table without resizing the box).
import { el } from './dom';

const cues = new WeakMap<Element, () => void>();
let observer: ResizeObserver | undefined;

/** Adds the cue after `box` (which scrolls sideways) and keeps it true; returns the check, for
 * a caller that replaces the table inside. */
export function scrollCue(box: HTMLElement): () => void {
  const cue = el('p', { class: 'scroll-cue', 'aria-hidden': 'true', text: '' });
  cue.hidden = true;
  if (box.parentElement) box.after(cue);
  else box.append(cue);
  const check = () => {
    const hidden = Math.max(0, box.scrollWidth - box.clientWidth - box.scrollLeft);
    const more = hidden > 2;
    if (cue.hidden === more) cue.hidden = !more;
    if (more) {
      const cells = [...(box.querySelector('tr')?.children ?? [])] as HTMLElement[];
      const right = box.getBoundingClientRect().right;
      const off = cells.filter((c) => c.getBoundingClientRect().left >= right - 4).length;
      cue.textContent = `scroll sideways →${off ? ` ${off} more column${off === 1 ? '' : 's'}` : ''}`;
    }
  };
  box.addEventListener('scroll', check, { passive: true });
  observer ??= new ResizeObserver((entries) => {
    for (const e of entries) cues.get(e.target)?.();
  });
  cues.set(box, check);
  observer.observe(box);
  const table = box.querySelector('table');
  if (table) {
    cues.set(table, check);
    observer.observe(table);
  }
  return check;
}
