// A lecture slide's text in pages: the text column has the slide's height and lays its prose out
// in CSS columns as wide as itself (lecture.css), so what does not fit flows into the next
// column to the right, off the slide; a page is one such column, shown by scrolling the column
// box sideways. PageDown turns to the next page before the next step, PageUp back. Nothing
// scrolls by itself: the reader (or the remote) turns the page, and the counter says where.
import { el } from '../ui/dom';

export interface ProsePages {
  /** "text 1 / 3" for the toolbar; hidden with a single page */
  readonly indicator: HTMLElement;
  /** how many pages the text fills now */
  count(): number;
  /** the page shown, 0-based */
  page(): number;
  /** to page 0, after the step's text changed */
  reset(): void;
  /** counts the pages again (the text grew: an answer, a table's note) */
  refresh(): void;
  /** the next / previous page; false when there is none (then the step turns) */
  next(): boolean;
  prev(): boolean;
}

/** Pages of `box` (which lecture.css lays out in columns of its own width) while `active()`. */
export function createProsePages(box: HTMLElement, active: () => boolean): ProsePages {
  const indicator = el('span', { class: 'prose-pages', 'aria-live': 'polite' });
  indicator.hidden = true;
  let at = 0;

  /** one page's step: the column's width (the box's content width) and the gap after it */
  const stride = () => {
    const cs = getComputedStyle(box);
    const w = box.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
    const gap = parseFloat(cs.columnGap) || 0;
    return w + gap;
  };
  const count = () => {
    if (!active()) return 1;
    const s = stride();
    return s > 0 ? Math.max(1, Math.round((box.scrollWidth - box.clientWidth) / s) + 1) : 1;
  };
  const show = () => {
    const n = count();
    at = Math.max(0, Math.min(at, n - 1));
    box.scrollLeft = active() ? at * stride() : 0;
    indicator.hidden = n <= 1;
    indicator.textContent = `text ${at + 1} / ${n}`;
    box.dataset['page'] = String(at);
    box.dataset['pages'] = String(n);
  };
  // the slide's size or type changed, or the text grew (a table filled in): pages again
  new ResizeObserver(show).observe(box);
  return {
    indicator,
    count,
    page: () => at,
    reset() {
      at = 0;
      requestAnimationFrame(show);
    },
    refresh: () => requestAnimationFrame(show),
    next() {
      if (at + 1 >= count()) return false;
      at++;
      show();
      return true;
    },
    prev() {
      if (at === 0) return false;
      at--;
      show();
      return true;
    },
  };
}
