// One lesson, walked step by step. A step is a grid of rows (step-layout.ts): its title and
// predict question beside the run's player, then each paragraph beside the figures it
// discusses, then where in the C the record was written and the tables (step-stage.ts). A
// predict question comes before the run that answers it; the prose after the answer mark and the
// run wait for the answer. Presenter mode (web/ui/presenter.ts) steps it with PageDown /
// PageUp, blanks with B, shows one figure or a pair, and R reveals an answer.
import { EngineClient } from '../engine/engine-client';
import { SimPool } from '../engine/pool';
import { ResultsCache } from '../engine/results-cache';
import { el } from '../ui/dom';
import { createPresenter } from '../ui/presenter';
import { ProgressStore } from '../storage/lesson-progress';
import { viewTitle } from '../views/registry';
import type { LectureFigureId, Lesson, LessonStep, LessonViewId } from './lesson';
import { renderProse } from './render';
import { loadRun, type LoadedRun } from './runs';
import { resolveRef } from './compute';
import { LessonTables } from './tables';
import { predictBox, type PredictBox } from './predict';
import { layoutStep } from './step-layout';
import { practiseLink } from './practise';
import { fillStage } from './step-stage';
import { createProsePages } from './prose-pages';
import { fitSlide, offSlideNote } from './slide-fit';
import './lecture.css';
import { THEME_EVENT } from '../ui/theme';
import { embedButton } from './embed-dialog';

export interface LessonRoute {
  id: string;
  step: number;
  lecture: boolean;
  embed: boolean;
  /** the lesson as a printable handout (`&handout=1`, handout.ts) instead of step by step */
  handout?: boolean;
  /** lecture mode: the one figure or pair to show (default: the step's first two views) */
  views?: LectureFigureId[];
}

/** The mounted lesson's document listeners and worker: a new lesson (a file opened from the
 * index) takes them down first. */
let unmountLesson: (() => void) | undefined;

/** The step's prose in blocks; the answer's prose too once the question is answered. */
function proseBlocks(step: LessonStep, open: boolean): HTMLElement[] {
  const prose = el('div');
  prose.append(renderProse(step.prose));
  if (open && step.answerProse) {
    const after = renderProse(step.answerProse);
    for (const c of after.children) c.classList.add('after-answer');
    prose.append(...after.children);
  }
  return [...prose.children] as HTMLElement[];
}

interface AskContext {
  lesson: Lesson;
  store: ProgressStore;
  tables: LessonTables;
  /** the step's index, and whether the page is a lecture slide */
  index: number;
  lecture: boolean;
  /** lecture mode: the steps whose answer the lecturer revealed this visit */
  revealed: Set<number>;
  /** draws the current step again */
  show(): void;
  /** false once the page moved to another step */
  current(): boolean;
}

/** R: the lecturer reveals the answer (only in lecture mode, where nothing else uses the key). */
function onRevealKey(presenter: { lecture: boolean; blanked(): boolean }, reveal: () => void, signal: AbortSignal): void {
  document.addEventListener(
    'keydown',
    (ev) => {
      if (!presenter.lecture || presenter.blanked() || ev.ctrlKey || ev.metaKey || ev.altKey) return;
      if ((ev.key === 'r' || ev.key === 'R') && !(ev.target instanceof Element && ev.target.closest('input, select, textarea'))) {
        reveal();
        ev.preventDefault();
      }
    },
    { signal },
  );
}

/** The step's predict question: an answer stored (or, on a slide, revealed) redraws the step. */
function askFor(step: LessonStep, c: AskContext): PredictBox {
  const p = step.predict!;
  const key = String(c.index);
  return predictBox({
    predict: p,
    answered: c.lecture ? undefined : c.store.get(c.lesson.id).answers[key],
    lecture: c.lecture,
    revealed: c.revealed.has(c.index),
    expected: async () => {
      if (p.kind === 'number' && typeof p.answer !== 'number') return resolveRef(p.answer, await c.tables.get(p.answer.table));
      return p.kind === 'choice' ? p.answer : (p.answer as number);
    },
    onAnswer: (given, correct) => {
      c.store.update(c.lesson.id, (pr) => {
        pr.answers[key] = { given, correct };
      });
      if (c.current()) c.show();
    },
    onReveal: () => {
      c.revealed.add(c.index);
      if (c.current()) c.show();
    },
    onReset: () => {
      c.store.update(c.lesson.id, (pr) => {
        delete pr.answers[key];
      });
      c.show();
    },
  });
}

export function mountLesson(root: HTMLElement, lesson: Lesson, route: LessonRoute, store = new ProgressStore()): void {
  unmountLesson?.();
  const listeners = new AbortController();
  const client = new EngineClient();
  // the tables' runs: two tables of a lesson often read different counters of the same runs
  // (lesson 6: zone->lock and lru_lock contention), and the pool runs each distinct one once
  const pool = new SimPool(undefined, new ResultsCache());
  const tables = new LessonTables(lesson, pool);
  unmountLesson = () => {
    listeners.abort();
    client.dispose();
    pool.dispose();
  };
  const runs = new Map<string, Promise<LoadedRun>>();
  const getRun = (name: string) => {
    let r = runs.get(name);
    if (!r) runs.set(name, (r = loadRun(client, lesson.runs[name]!)));
    return r;
  };

  let index = Math.min(Math.max(0, route.step), lesson.steps.length - 1);
  let generation = 0; // a step change cancels the drawing of the step before it
  /** lecture mode: the steps whose answer the lecturer revealed this visit */
  const revealed = new Set<number>();
  let box: PredictBox | undefined;

  const page = el('div', { class: 'lesson-page' });
  page.classList.toggle('embed', route.embed);
  const nav = el('nav', { class: 'lesson-nav', 'aria-label': 'Lesson' });
  const title = el('h2', { class: 'lesson-title', text: `${lesson.number}. ${lesson.title}` });
  const counter = el('p', { class: 'step-counter', 'aria-live': 'polite' });
  const prev = el('button', { type: 'button', text: '◀ previous', 'aria-label': 'Previous step (PageUp)' });
  const next = el('button', { type: 'button', text: 'next ▶', 'aria-label': 'Next step (PageDown)', class: 'next-step' });
  // the text and the stage scroll on their own in lecture mode, so keyboards must reach them
  const text = el('article', { class: 'lesson-text', 'aria-labelledby': 'step-title', tabindex: 0 });
  const stage = el('section', { class: 'lesson-stage', 'aria-label': 'What the model shows', tabindex: 0 });
  const body = el('div', { class: 'lesson-body' }, text, stage);
  page.append(nav, body);
  root.replaceChildren(page);

  // on a slide the text is in pages: PageDown turns the page first, then the step
  const pages = createProsePages(text, () => presenter.lecture && !body.classList.contains('asking'));
  const offSlide = offSlideNote();
  const presenter = createPresenter({
    root: page,
    next: () => {
      if (!pages.next()) go(index + 1);
    },
    prev: () => {
      if (!pages.prev()) go(index - 1);
    },
    onLecture: () => {
      writeUrl();
      show();
    },
    onFigures: (ids) => {
      route.views = ids.length ? (ids as LectureFigureId[]) : undefined;
      writeUrl();
      show();
    },
    lecture: route.lecture,
    signal: listeners.signal,
  });
  // the step buttons before the way back, so the keyboard reaches Next within a few Tabs
  const embed = embedButton({ lesson, current: () => index, loadRun: (name) => loadRun(client, lesson.runs[name]!) });
  nav.append(title, counter, pages.indicator, offSlide, el('div', { class: 'nav-buttons' }, prev, next, presenter.controls, embed), el('a', { href: '?lessons', class: 'back', text: '← all lessons' }), handoutLink(lesson));

  const writeUrl = () => {
    const q = new URLSearchParams({ lesson: lesson.id, step: String(index + 1) });
    if (presenter.lecture) q.set('lecture', '1');
    if (route.embed) q.set('embed', '1');
    if (route.views) q.set('views', route.views.join(','));
    history.replaceState(null, '', `?${q.toString()}`);
  };

  prev.addEventListener('click', () => go(index - 1));
  next.addEventListener('click', () => go(index + 1));
  onRevealKey(presenter, () => box?.reveal(), listeners.signal);
  document.addEventListener(THEME_EVENT, () => show(), { signal: listeners.signal }); // figures in the theme's colours

  /** lecture mode's chosen figure or pair, where the step has them */
  const chosenFigures = (step: LessonStep): LectureFigureId[] => route.views?.filter((v) => v === 'event' || (step.views as string[]).includes(v)) ?? [];
  /** the views a step shows: all of them, or on a slide the chosen ones (the first two by default) */
  function viewsFor(step: LessonStep): readonly LessonViewId[] {
    if (!presenter.lecture) return step.views;
    const chosen = chosenFigures(step);
    if (chosen.length) return chosen.filter((v): v is LessonViewId => v !== 'event');
    // by default the figure the step is about (its highlight) first, then the next one
    const order = step.highlight ? [step.highlight, ...step.views.filter((v) => v !== step.highlight)] : step.views;
    return order.slice(0, 2);
  }

  function go(i: number) {
    if (i < 0 || i >= lesson.steps.length || i === index) return;
    index = i;
    writeUrl();
    show();
  }

  /** Whether the step's run, figures and answer prose are shown: no question, or it is answered. */
  const isRevealed = (step: LessonStep) => !step.predict || (presenter.lecture ? revealed.has(index) : store.get(lesson.id).answers[String(index)] !== undefined);

  /** the shown step's listeners (its run player's keys), taken down when another is shown */
  let stepListeners: AbortController | undefined;
  function show() {
    const gen = ++generation;
    stepListeners?.abort();
    const stepScope = (stepListeners = new AbortController());
    listeners.signal.addEventListener('abort', () => stepScope.abort(), { signal: stepScope.signal });
    const step = lesson.steps[index]!;
    const last = index === lesson.steps.length - 1;
    store.update(lesson.id, (p) => {
      p.reached = Math.max(p.reached, index);
      if (last) p.done = true;
    });
    counter.textContent = `step ${index + 1} of ${lesson.steps.length}`;
    prev.disabled = index === 0;
    next.disabled = last;
    document.title = `${lesson.title} — step ${index + 1} — buddylab`;
    presenter.setFigures([...step.views, 'event' as const].map((v) => ({ id: v, title: viewTitle(v) })), chosenFigures(step));
    delete stage.dataset['ready'];
    delete stage.dataset['fitted'];

    const open = isRevealed(step);
    body.classList.toggle('asking', !open);
    const views = open && step.run ? viewsFor(step) : [];
    pages.reset();
    offSlide.hidden = true;
    const cells = layoutStep({ text, stage, body, blocks: proseBlocks(step, open), views, lecture: presenter.lecture });
    cells.textHead.append(el('h3', { id: 'step-title', text: step.title }));
    const ask: AskContext = { lesson, store, tables, index, lecture: presenter.lecture, revealed, show, current: () => gen === generation };
    box = step.predict ? askFor(step, ask) : undefined;
    if (box) cells.askCell.prepend(box.root);
    if (!open) {
      cells.stageHead.append(el('p', { class: 'stage-wait', text: presenter.lecture ? 'The run is shown when the answer is revealed (R).' : 'Answer the question first: the model runs when you have committed to a prediction.' }));
      return;
    }
    // after the last question, like the answer: what the model leaves out may say how far its
    // figures sit from the seed's, which is what a question may ask
    if (last) cells.textTail.append(...lessonEnd(lesson));
    // the moving picture of the current record: always, except on a slide that did not choose it
    const eventShown = !presenter.lecture || chosenFigures(step).includes('event');
    void fillStage({ lesson, tables, pool, current: ask.current, getRun, text, stage, eventShown, number: index + 1, signal: stepScope.signal }, step, views, cells)
      .then(() => (ask.current() ? fitSlide(stage, presenter.lecture, offSlide, index + 1) : undefined))
      .then(() => pages.refresh());
  }

  writeUrl();
  show();
}

/** The lesson on paper: every step, its figures, its questions with room to answer, the key at
 * the end (handout.ts). */
function handoutLink(lesson: Lesson): HTMLElement {
  // one short word: the nav keeps its rows at 1280 and 1440 px; last, so Next stays near the top of the Tab order
  return el('a', { href: `?lesson=${encodeURIComponent(lesson.id)}&handout=1`, class: 'handout-link', text: 'Handout', 'aria-label': 'Handout: the whole lesson to print' });
}

/** The last step's closing words: what the model leaves out (Markdown, as the prose is: its
 * `code` is code, never a pair of backticks) and the exercise that practises the lesson. */
function lessonEnd(lesson: Lesson): HTMLElement[] {
  const out = [el('aside', { class: 'leaves-out' }, el('h4', { text: 'What the model leaves out' }), renderProse(lesson.leavesOut))];
  const practise = practiseLink(lesson.id);
  if (practise) out.push(el('p', { class: 'practise' }, el('a', { href: practise.href, text: practise.text })));
  return out;
}
