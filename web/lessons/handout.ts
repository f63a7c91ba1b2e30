// A lesson as a printable handout (`?lesson=ID&handout=1`): every step on one page, in order,
// each with its prose, its figures at the record the step stops at (vector SVG, drawn by the
// views' own SVG export, web/views/registry.ts), its tables as the build shipped them (caption
// and "How was this made?" line included), and its predict question with ruled space to answer;
// the key (each answer, its explanation and the prose that waited for it on screen) comes at the
// end. What only works on a screen (the run's player, Run live, the capstone's tuner, the moving
// picture) is left out; the figures and the sentence under them are its printed result.
// handout.css lays it out for A4 and US Letter; the page's own chrome is not printed.
import { EngineClient } from '../engine/engine-client';
import { SimPool } from '../engine/pool';
import { ResultsCache } from '../engine/results-cache';
import { CORE_HASH } from '../engine/core-hash';
import { EV } from '../log/events';
import { narrate } from '../log/narrate';
import { el } from '../ui/dom';
import { mountView, viewTitle } from '../views/registry';
import type { Lesson, LessonStep } from './lesson';
import { renderProse } from './render';
import { loadRun, type LoadedRun } from './runs';
import { stepViewData } from './step-figure';
import { resolveRef } from './compute';
import { LessonTables } from './tables';
import { TableView } from './tableview';
import { answerRef, answerText, handoutQuestions, type HandoutQuestion } from './handout-items';
import './handout.css';

/** The width the figures are laid out at: A4's text width at 15 mm margins (US Letter's is wider). */
const FIGURE_WIDTH = 680;
/** Ruled lines under a question: room for a sentence or a working. */
const ANSWER_LINES = 4;

interface HandoutContext {
  lesson: Lesson;
  tables: LessonTables;
  getRun(name: string): Promise<LoadedRun>;
}

/** Mounts the handout of `lesson` into root; `data-ready` on `.handout` once every figure and
 * table is drawn (the Print button waits for it too). */
export function mountHandout(root: HTMLElement, lesson: Lesson): void {
  // printed on white: the views draw their light colours (web/ui/palette.ts reads the theme)
  document.documentElement.dataset['theme'] = 'light';
  document.title = `${lesson.title} — handout — buddylab`;
  const client = new EngineClient();
  const pool = new SimPool(undefined, new ResultsCache());
  const runs = new Map<string, Promise<LoadedRun>>();
  const ctx: HandoutContext = {
    lesson,
    tables: new LessonTables(lesson, pool),
    getRun: (name) => {
      let r = runs.get(name);
      if (!r) runs.set(name, (r = loadRun(client, lesson.runs[name]!)));
      return r;
    },
  };
  const status = el('p', { class: 'handout-status', role: 'status', text: 'Drawing every step…' });
  const print = el('button', { type: 'button', class: 'primary handout-print', text: 'Print the handout', disabled: true });
  print.addEventListener('click', () => window.print());
  const tools = el(
    'nav',
    { class: 'handout-tools', 'aria-label': 'Handout' },
    print,
    el('a', { href: `?lesson=${encodeURIComponent(lesson.id)}`, text: '← back to the lesson' }),
    status,
  );
  const steps = lesson.steps.map((s, i) => stepSection(s, i + 1));
  const answers = el('section', { class: 'handout-answers', 'aria-labelledby': 'handout-answers-title' }, el('h2', { id: 'handout-answers-title', text: 'Answers' }));
  const doc = el('article', { class: 'handout' }, head(lesson), ...steps.map((s) => s.root), answers, leavesOut(lesson), foot());
  root.replaceChildren(el('div', { class: 'handout-page' }, tools, doc));

  void (async () => {
    try {
      for (const [i, s] of lesson.steps.entries()) await fillStep(ctx, s, steps[i]!);
      answers.append(await answerList(ctx, handoutQuestions(lesson)));
      status.textContent = 'Ready to print (A4 or US Letter; the page chrome is not printed).';
      print.disabled = false;
      doc.dataset['ready'] = '1';
    } catch (e) {
      status.textContent = `The handout could not be drawn: ${e instanceof Error ? e.message : String(e)}`;
    } finally {
      pool.dispose();
      client.dispose();
    }
  })();
}

function head(lesson: Lesson): HTMLElement {
  const h = el('header', { class: 'handout-head' }, el('h1', { text: `Lesson ${lesson.number}. ${lesson.title}` }), el('p', { class: 'handout-summary', text: lesson.summary }));
  if (lesson.seedSource) h.append(el('p', { class: 'handout-seed', text: `The change it teaches: ${lesson.seedSource}` }));
  h.append(el('p', { class: 'handout-name', text: 'Name: ' }));
  return h;
}

interface StepSection {
  root: HTMLElement;
  /** where the figures, the record's sentence and the tables go */
  shows: HTMLElement;
}

/** A step's heading, prose and question (its answer left out): what needs no run. */
function stepSection(step: LessonStep, n: number): StepSection {
  const root = el('section', { class: 'handout-step', 'data-step': n, 'aria-labelledby': `handout-step-${n}` });
  root.append(el('h2', { id: `handout-step-${n}`, class: 'handout-step-title', text: `${n}. ${step.title}` }));
  const prose = el('div', { class: 'handout-prose' });
  prose.append(renderProse(step.prose));
  // a step without a question shows all its prose; a question's explanation waits for the key
  if (!step.predict && step.answerProse) prose.append(renderProse(step.answerProse));
  root.append(prose);
  if (step.predict) root.append(questionBox(step, n));
  const shows = el('div', { class: 'handout-shows' });
  root.append(shows);
  return { root, shows };
}

/** The question, its choices lettered as the key names them, and ruled room for the answer. */
function questionBox(step: LessonStep, n: number): HTMLElement {
  const p = step.predict!;
  const box = el('div', { class: 'handout-question', 'data-step': n }, el('p', { class: 'handout-q' }, el('strong', { text: 'Predict: ' }), p.question));
  if (p.kind === 'choice') {
    const ol = el('ol', { class: 'handout-choices', type: 'A' });
    for (const c of p.choices) ol.append(el('li', {}, el('span', { class: 'handout-box', 'aria-hidden': 'true' }), c));
    box.append(ol, el('p', { class: 'handout-why', text: 'Your choice, and why:' }));
  } else {
    box.append(el('p', { class: 'handout-why', text: `Your estimate${p.unit ? `, in ${p.unit}` : ''}, and how you got it:` }));
  }
  const lines = el('div', { class: 'handout-lines', 'aria-hidden': 'true' });
  for (let k = 0; k < ANSWER_LINES; k++) lines.append(el('div', { class: 'handout-line' }));
  box.append(lines);
  return box;
}

/** The step's figures (and the sentence of the record they show) and its table. */
async function fillStep(ctx: HandoutContext, step: LessonStep, s: StepSection): Promise<void> {
  if (step.predict && (step.run || step.table)) s.shows.append(el('p', { class: 'handout-after', text: 'What the model shows (it answers the question above: look after you have answered):' }));
  if (step.run && step.views.length) {
    const run = await ctx.getRun(step.run);
    s.shows.append(...stepFigures(run, step, s.root.dataset['step']!));
  }
  if (step.table) {
    const view = new TableView(ctx.lesson.tables[step.table]!);
    s.shows.append(view.root);
    view.update(await ctx.tables.get(step.table));
  }
}

/**
 * Each of the step's views at the record the step stops at, as inline vector SVG: the views are
 * mounted off screen at the printed width, drawn once, and exported the way their SVG button
 * does (canvases drawn again as vector); their legend's labels come along as text.
 */
function stepFigures(run: LoadedRun, step: LessonStep, n: string): HTMLElement[] {
  const data = stepViewData(run, step);
  const p = run.player; // sought to the step by stepViewData()
  const sentence = narrate(p.log, p.currentIndex(), { pcp: run.pcp, movingHigh: p.log.type.includes(EV.PCP_HIGH) });
  const host = el('div', { class: 'handout-draw-host', 'aria-hidden': 'true' });
  host.style.cssText = `position:fixed;left:-100000px;top:0;width:${FIGURE_WIDTH}px`;
  document.body.append(host);
  try {
    const figs = step.views.map((id) => {
      const v = mountView(host, id, { prefix: `handout-${n}`, heading: 'short', legend: true });
      v.update(data);
      const fig = el('figure', { class: `handout-figure${id === step.highlight ? ' handout-highlight' : ''}`, 'data-view': id });
      fig.append(inlineSvg(v.exportSvg(viewTitle(id))));
      const legend = v.section.querySelector('.figure-legend');
      if (legend && !(legend as HTMLElement).hidden) fig.append(legend.cloneNode(true));
      return fig;
    });
    return [el('p', { class: 'handout-record', text: `At record ${p.step} of ${p.length}: ${sentence}` }), ...figs];
  } finally {
    host.remove();
  }
}

/** An exported SVG document as an element of this page, scaling to the printed width. */
function inlineSvg(text: string): SVGSVGElement {
  const svg = new DOMParser().parseFromString(text, 'image/svg+xml').documentElement as unknown as SVGSVGElement;
  const w = svg.getAttribute('width');
  const h = svg.getAttribute('height');
  if (w && h && !svg.hasAttribute('viewBox')) svg.setAttribute('viewBox', `0 0 ${w} ${h}`);
  svg.removeAttribute('width');
  svg.removeAttribute('height');
  svg.setAttribute('role', 'img');
  return document.importNode(svg, true);
}

/** The key: each question's answer, its explanation, and the prose that waited for it. */
async function answerList(ctx: HandoutContext, qs: readonly HandoutQuestion[]): Promise<HTMLElement> {
  if (!qs.length) return el('p', { text: 'This lesson asks no questions.' });
  const ol = el('ol', { class: 'handout-key' });
  for (const q of qs) {
    const ref = answerRef(q.predict);
    const computed = ref ? resolveRef(ref, await ctx.tables.get(ref.table)) : undefined;
    const li = el('li', { class: 'handout-answer', 'data-step': q.step, value: q.step });
    li.append(el('p', {}, el('strong', { text: `Step ${q.step}, ${q.title}: ` }), answerText(q.predict, computed)));
    if (q.predict.explain) li.append(el('p', { class: 'handout-explain', text: q.predict.explain }));
    if (q.answerProse) li.append(el('div', { class: 'handout-prose' }, renderProse(q.answerProse)));
    ol.append(li);
  }
  return ol;
}

function leavesOut(lesson: Lesson): HTMLElement {
  return el('aside', { class: 'handout-leaves-out' }, el('h2', { text: 'What the model leaves out' }), renderProse(lesson.leavesOut));
}

/** Which build made the numbers: the course version and the core's build hash. */
function foot(): HTMLElement {
  const version = document.querySelector('meta[name="buddylab-version"]')?.getAttribute('content') ?? 'dev';
  return el(
    'footer',
    { class: 'handout-foot' },
    el('p', {
      text: `Printed from buddylab, course version ${version}; every number from the allocator core built from sources ${CORE_HASH}. The figures are the lesson's small replayed runs at the record each step stops at; the tables are the runs at the seed's sizes that the build ships (the native core).`,
    }),
  );
}
