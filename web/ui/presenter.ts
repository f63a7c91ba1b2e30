// Presenter mode, shared by the lesson page, the compare page and the workbench: large type
// (html.lecture; presenter.css scales figures, labels and tables with it), keys a presenter
// remote sends (PageDown / PageUp, and "b" or "." to blank the screen), full screen, a laser
// pointer, and the choice of one figure or a pair. A page hands it what "next" and "previous"
// mean there (a lesson step, an event, a moment of virtual time) and the figures it has.
import { themeButton, toggleTheme } from './theme';
import { el } from './dom';
import { typeScaleChanged } from './figfont';
import './presenter.css';

/** One figure the lecturer may show alone or in a pair. */
export interface PresenterFigure {
  id: string;
  title: string;
}

export interface PresenterOptions {
  /** the page's own element: the laser dot and the blank screen are put in it */
  root: HTMLElement;
  next(): void;
  prev(): void;
  /** called after lecture mode changes (L, Esc, the button): redraw at the new size (figure
   * fonts are read again, web/ui/figfont.ts) */
  onLecture?(on: boolean): void;
  /** the chosen figure ids changed (empty: the page's own default) */
  onFigures?(ids: string[]): void;
  /** start in lecture mode (?lecture=1) */
  lecture?: boolean;
  /** in lecture mode the arrows and Space call next / prev too (default); a page whose arrows
   * and Space already mean something (step one event, play) keeps them */
  stepKeys?: boolean;
  /** taken down with the page */
  signal: AbortSignal;
}

export interface Presenter {
  readonly lecture: boolean;
  setLecture(on: boolean): void;
  /** buttons for the page's toolbar: lecture mode, full screen, laser, blank, figure menu */
  readonly controls: HTMLElement;
  /** the figures this page shows now; `chosen` is the current choice, kept when it still fits */
  setFigures(figures: readonly PresenterFigure[], chosen?: readonly string[]): void;
  /** ids chosen for lecture mode, [] for the page's default */
  readonly chosen: string[];
  blanked(): boolean;
}

/** Typing in a form field keeps its keys. */
const typing = (t: EventTarget | null) => t instanceof HTMLElement && t.closest('input, select, textarea, [contenteditable]') !== null;

export function createPresenter(o: PresenterOptions): Presenter {
  let lecture = false;
  let laser = false;
  let blank = false;
  let chosen: string[] = [];
  const root = document.documentElement;

  const lectureBtn = el('button', { type: 'button', class: 'small', 'aria-pressed': 'false', text: 'Lecture mode (L)' });
  const fullBtn = el('button', { type: 'button', class: 'small', text: 'Full screen (F)' });
  const laserBtn = el('button', { type: 'button', class: 'small laser-toggle', 'aria-pressed': 'false', text: 'Laser pointer (P)' });
  const blankBtn = el('button', { type: 'button', class: 'small', text: 'Blank (B)' });
  const pick = el('select', { id: 'lecture-views', 'aria-label': 'Figures shown in lecture mode' });
  pick.hidden = true;
  // a bright hall: the light theme, on the slide too (web/ui/theme.ts)
  const themeBtn = themeButton('Light (T)');
  const controls = el('div', { class: 'presenter-controls' }, lectureBtn, themeBtn, fullBtn, laserBtn, blankBtn, pick);

  const dot = el('div', { class: 'laser', 'aria-hidden': 'true' });
  const screen = el('div', { class: 'presenter-blank', role: 'status' }, el('span', { class: 'sr-only', text: 'The screen is blank: press B to show it again.' }));
  screen.hidden = true;
  o.root.append(dot, screen);

  function setLecture(on: boolean, quiet = false) {
    if (on === lecture) return;
    lecture = on;
    root.classList.toggle('lecture', on);
    lectureBtn.setAttribute('aria-pressed', String(on));
    pick.hidden = !on || pick.options.length <= 1;
    typeScaleChanged();
    if (!quiet) o.onLecture?.(on);
  }
  function setLaser(on: boolean) {
    laser = on;
    o.root.classList.toggle('laser-on', on);
    laserBtn.setAttribute('aria-pressed', String(on));
  }
  function setBlank(on: boolean) {
    blank = on;
    screen.hidden = !on;
  }
  const toggleFull = () => {
    if (document.fullscreenElement) void document.exitFullscreen();
    else void root.requestFullscreen?.().catch(() => undefined);
  };

  lectureBtn.addEventListener('click', () => setLecture(!lecture));
  fullBtn.addEventListener('click', toggleFull);
  laserBtn.addEventListener('click', () => setLaser(!laser));
  blankBtn.addEventListener('click', () => setBlank(true));
  screen.addEventListener('click', () => setBlank(false));
  pick.addEventListener('change', () => {
    chosen = pick.value ? pick.value.split(',') : [];
    o.onFigures?.(chosen);
  });
  o.root.addEventListener(
    'pointermove',
    (e) => {
      if (laser) dot.style.transform = `translate(${e.clientX - 12}px, ${e.clientY - 12}px)`;
    },
    { signal: o.signal },
  );
  document.addEventListener(
    'keydown',
    (ev) => {
      const k = ev.key;
      // a form field keeps its keys, except that a remote's page keys on a slider still turn the slide
      const pageKey = k === 'PageDown' || k === 'PageUp';
      const slider = ev.target instanceof HTMLInputElement && ev.target.type === 'range';
      if (ev.ctrlKey || ev.metaKey || ev.altKey || (typing(ev.target) && !(pageKey && slider))) return;
      // a blank screen comes back on its own key (or Esc) and swallows the rest
      if (blank) {
        if (k === 'b' || k === 'B' || k === '.' || k === 'Escape') setBlank(false);
        ev.preventDefault();
        return;
      }
      // remotes send PageDown / PageUp; in lecture mode the arrows and Space step too, since the
      // slide has no player bar to take them (a focused button keeps Space)
      const onButton = ev.target instanceof HTMLElement && ev.target.closest('button') !== null;
      const arrows = lecture && o.stepKeys !== false;
      if (k === 'PageDown' || (arrows && (k === 'ArrowRight' || (k === ' ' && !onButton)))) o.next();
      else if (k === 'PageUp' || (arrows && k === 'ArrowLeft')) o.prev();
      else if (k === 'l' || k === 'L') setLecture(!lecture);
      else if (k === 'f' || k === 'F') toggleFull();
      else if (k === 'p' || k === 'P') setLaser(!laser);
      else if (k === 't' || k === 'T') toggleTheme();
      else if (k === 'b' || k === 'B' || k === '.') setBlank(true);
      else if (k === 'Escape' && lecture) setLecture(false);
      else return;
      ev.preventDefault();
      ev.stopImmediatePropagation();
    },
    { signal: o.signal, capture: true },
  );
  o.signal.addEventListener('abort', () => {
    root.classList.remove('lecture');
    dot.remove();
    screen.remove();
  });

  function setFigures(figures: readonly PresenterFigure[], want: readonly string[] = chosen) {
    const ids = figures.map((f) => f.id);
    chosen = want.filter((id) => ids.includes(id)).slice(0, 2);
    pick.replaceChildren(el('option', { value: '', text: 'figures: the first two' }));
    for (const f of figures) pick.append(el('option', { value: f.id, text: f.title }));
    for (let a = 0; a < figures.length; a++)
      for (let b = a + 1; b < figures.length; b++) pick.append(el('option', { value: `${figures[a]!.id},${figures[b]!.id}`, text: `${figures[a]!.title} + ${figures[b]!.title}` }));
    pick.value = chosen.join(',');
    if (pick.value !== chosen.join(',')) pick.value = '';
    pick.hidden = !lecture || figures.length <= 1;
  }

  // the page draws itself after this returns: starting in lecture mode needs no redraw call
  if (o.lecture) setLecture(true, true);
  return {
    get lecture() {
      return lecture;
    },
    setLecture,
    controls,
    setFigures,
    get chosen() {
      return chosen;
    },
    blanked: () => blank,
  };
}

/**
 * For pages whose figures are all on the page (compare, workbench): in lecture mode only the
 * chosen one or pair stays (the first two by default); out of it, all of them.
 */
export function showChosenFigures(figures: readonly { id: string; el: HTMLElement }[], chosen: readonly string[], lecture: boolean): void {
  const keep = chosen.length ? chosen : figures.slice(0, 2).map((f) => f.id);
  for (const f of figures) f.el.classList.toggle('lecture-hidden', lecture && !keep.includes(f.id));
}
