// One exercise (?exercise=KIND&seed=N&level=L): the problem the core makes from its seed, its
// zone, pcp list or slab drawn by the registry's views at the state the problem states, a field
// per question, and Check, which the core answers (blab exercise --check, in the engine worker):
// each answer right, wrong with the core's working and a replay of the records that show it
// (the lessons' run player: step by step, the kernel function and the C that wrote each
// record), or not of the question's form. New problem draws another seed; the score and the
// streak are kept with the course progress. Lecture mode (L) poses the problem to a room; R
// reveals the answers.
import { EngineClient } from '../engine/engine-client';
import { ExerciseScoreStore } from '../storage/exercise-score';
import { el } from '../ui/dom';
import { createPresenter } from '../ui/presenter';
import { mountViewSet, type ViewId } from '../views/registry';
import { loadRun, type LoadedRun } from '../lessons/runs';
import { createRunPlayer } from '../lessons/runplayer';
import type { Preset } from '../lessons/lesson';
import { parseProblem, statementBlocks, type Answer, type Mark, type Problem } from './problem';
import { createQuestionsForm, type QuestionsForm } from './questions';
import { EXERCISE_KINDS, EXERCISE_TITLES, ExerciseUrlError, exerciseArgs, exerciseHref, parseExercise, type ExerciseRoute } from './url';
import '../lessons/lessons.css';
import './exercise.css';

/** the figures an exercise may ask for (the core names them in its JSON) */
const EXERCISE_VIEWS: readonly ViewId[] = ['free-areas', 'buddy-tree', 'buddyinfo', 'pcp', 'zoneinfo', 'slab'];

/** a fresh seed for New problem: the page's own, not the course's (any seed is a problem) */
function randomSeed(): number {
  const a = new Uint32Array(1);
  crypto.getRandomValues(a);
  return a[0]!;
}

function nav(r: ExerciseRoute): HTMLElement {
  const kinds = el('p', { class: 'ex-nav' }, 'Kind: ');
  EXERCISE_KINDS.forEach((k, i) => {
    if (i) kinds.append(' · ');
    kinds.append(k === r.kind ? el('strong', { text: k }) : el('a', { href: exerciseHref({ kind: k, seed: r.seed, level: r.level }), text: k }));
  });
  kinds.append('   Level: ');
  for (let l = 1; l <= 3; l++) {
    kinds.append(' ');
    kinds.append(l === r.level ? el('strong', { text: String(l) }) : el('a', { href: exerciseHref({ ...r, level: l }), text: String(l), 'aria-label': `level ${l}` }));
  }
  return kinds;
}

function statement(p: Problem): HTMLElement {
  const box = el('div', { class: 'ex-statement' });
  // a listing scrolls sideways on a narrow screen: the keyboard reaches it
  for (const b of statementBlocks(p.statement)) box.append(b.code ? el('pre', { text: b.text, tabindex: 0 }) : el('p', { text: b.text }));
  if (p.compare) box.append(el('p', {}, el('a', { href: p.compare, class: 'ex-compare', text: 'Open this compare in the compare view' }), ` (or natively: `, el('code', { text: p.sim ?? '' }), ')'));
  return box;
}

function scoreLine(s: ReturnType<ExerciseScoreStore['get']>): string {
  return s.tried ? `Your score: ${s.score} of ${s.tried} problems all right · streak ${s.streak} (best ${s.best})` : 'Your score starts with your first checked problem.';
}

interface Shown {
  run: LoadedRun | undefined;
  figures: HTMLElement;
  /** the figures drawn again at their size now (lecture mode changes their type size) */
  redraw?: () => void;
  /** the replay shown now: its keyboard listeners end when another replaces it */
  replayScope?: AbortController;
}

/** The problem's figures at the state it states: the views of its op script's replay. */
async function drawFigures(client: EngineClient, p: Problem, shown: Shown): Promise<void> {
  const views = p.views.filter((v): v is ViewId => (EXERCISE_VIEWS as readonly string[]).includes(v));
  if (!p.ops || !views.length) return;
  const run = await loadRun(client, { kind: 'script', name: 'exercise', script: p.ops, line: 1 });
  run.player.seek(Math.min(p.setupEvents, run.player.length));
  const set = mountViewSet(shown.figures, views, 'ex');
  shown.run = run;
  shown.redraw = () => set.update({ player: run.player, pcp: run.pcp });
  shown.redraw();
}

/** The records that show an answer's working, stepped through in the lessons' run player. */
function replayInto(host: HTMLElement, shown: Shown, p: Problem, events: [number, number], label: string): void {
  if (!shown.run) return;
  const views = p.views.filter((v): v is ViewId => (EXERCISE_VIEWS as readonly string[]).includes(v));
  host.replaceChildren(el('h3', { text: label }), el('p', { class: 'hint', text: `The core's records ${events[0]} to ${events[1]}: step with the buttons or the slider; the sentence says what each record did, the source pane where in the C (and the kernel) it was written.` }));
  const grid = el('div', { class: 'ex-replay-figures' });
  shown.replayScope?.abort();
  shown.replayScope = new AbortController();
  const rp = createRunPlayer({
    run: shown.run,
    label: p.title,
    file: `exercise-${p.kind}-${p.seed}`,
    preset: (p.preset || undefined) as Preset | undefined,
    stop: events[0],
    views,
    placeView: () => grid,
    signal: shown.replayScope.signal,
  });
  host.append(rp.head, rp.sentence, grid, rp.source);
  rp.draw();
  host.hidden = false;
  host.scrollIntoView({ block: 'nearest' });
  (rp.head.querySelector('button.step-fwd') as HTMLButtonElement | null)?.focus();
}

export function mountExercise(root: HTMLElement, search: string): void {
  root.replaceChildren();
  const page = el('div', { class: 'exercise-page', id: 'exercise' });
  root.append(page);
  let r: ExerciseRoute;
  try {
    r = parseExercise(search);
  } catch (e) {
    if (!(e instanceof ExerciseUrlError)) throw e;
    page.append(
      el('h2', { class: 'page-title', text: 'Exercise' }),
      el('p', { class: 'alert', role: 'alert', text: `This exercise link is wrong: ${e.message}.` }),
      el('p', {}, 'Start from one that works: ', el('a', { href: exerciseHref({ kind: 'buddy', seed: 1, level: 1 }), text: 'a buddy problem, level 1' }), '.'),
    );
    return;
  }
  const scores = new ExerciseScoreStore();
  const score = el('p', { class: 'ex-score', role: 'status', text: scoreLine(scores.get()) });
  const next = el('a', { href: exerciseHref({ ...r, seed: randomSeed() }), class: 'button-link', id: 'ex-new', text: 'New problem' });
  const toolbar = el('div', { class: 'ex-toolbar' }, next);
  page.append(
    el('h2', { class: 'page-title', text: `Exercise: ${EXERCISE_TITLES[r.kind]}` }),
    el('p', { class: 'ex-sub', text: `Level ${r.level} (1 one operation, 2 a short sequence, 3 a sequence with a twist), seed ${r.seed}${r.student ? `, ${r.student}'s own` : ''}. Answers come from running the allocator core itself.` }),
    nav(r),
    toolbar,
    score,
  );
  const status = el('p', { class: 'ex-status', role: 'status', text: 'The core is making the problem…' });
  page.append(status);
  const client = new EngineClient();
  const why = EngineClient.unsupported();
  if (why) {
    status.textContent = `The problem cannot be made here: ${why}.`;
    return;
  }
  void (async () => {
    const made = await client.exercise(exerciseArgs(r));
    if (made.status !== 0) {
      status.className = 'alert';
      status.setAttribute('role', 'alert');
      status.textContent = made.stderr.trim() || `blab exercise stopped with status ${made.status}`;
      return;
    }
    const p = parseProblem(made.stdout);
    status.textContent = '';
    showProblem({ page, toolbar, score, status, client, r, p, scores });
  })().catch((e: unknown) => {
    status.className = 'alert';
    status.textContent = `The problem could not be made: ${e instanceof Error ? e.message : String(e)}`;
  });
}

interface Ctx {
  page: HTMLElement;
  toolbar: HTMLElement;
  score: HTMLElement;
  status: HTMLElement;
  client: EngineClient;
  r: ExerciseRoute;
  p: Problem;
  scores: ExerciseScoreStore;
  /** the answers were shown: checking then does not count */
  revealed?: boolean;
}

function showProblem(c: Ctx): void {
  const { page, p, client, r } = c;
  const figures = el('div', { class: 'ex-figures', id: 'ex-figures' });
  const main = el('div', { class: 'ex-main' }, el('section', { class: 'ex-problem', 'aria-labelledby': 'ex-title' }, el('h3', { id: 'ex-title', text: p.title }), statement(p)), figures);
  const form = createQuestionsForm(p.questions);
  const replayHost = el('section', { class: 'ex-replay-host', id: 'ex-replay', 'aria-label': 'The working, replayed' });
  replayHost.hidden = true;
  page.append(main, el('section', { class: 'ex-answers', 'aria-labelledby': 'ex-q-title' }, el('h3', { id: 'ex-q-title', text: 'Questions' }), form.root), replayHost);
  const shown: Shown = { run: undefined, figures };
  void drawFigures(client, p, shown).catch((e: unknown) => figures.append(el('p', { class: 'alert', text: `The figures could not be drawn: ${e instanceof Error ? e.message : String(e)}` })));
  const replayMark = (m: Mark | Answer) => replayInto(replayHost, shown, p, m.events!, `Question ${m.n}: the working, record by record`);

  const check = el('button', { type: 'submit', class: 'primary', id: 'ex-check', text: 'Check' });
  const reveal = el('button', { type: 'button', class: 'small', id: 'ex-reveal', text: 'Show the answers (R)' });
  form.buttons.append(check, reveal);
  form.root.addEventListener('submit', (ev) => {
    ev.preventDefault();
    void checkAnswers(c, form, replayMark);
  });
  const doReveal = () => void revealAnswers(c, form, replayMark);
  reveal.addEventListener('click', doReveal);

  // a remote's PageDown / PageUp move down and up the problem a screen at a time
  const scroll = (dir: number) => window.scrollBy({ top: dir * window.innerHeight * 0.85, behavior: 'smooth' });
  // lecture mode sets the problem beside its questions (exercise.css) unless one of its
  // listings would not fit the narrower column; the figures are drawn again at the new size
  const fitLecture = (on: boolean) => {
    page.classList.remove('ex-one-column');
    requestAnimationFrame(() => {
      const wide = [...page.querySelectorAll<HTMLElement>('.ex-statement pre')].some((e) => e.scrollWidth > e.clientWidth + 1);
      page.classList.toggle('ex-one-column', on && wide);
      shown.redraw?.();
    });
  };
  const presenter = createPresenter({ root: page, next: () => scroll(1), prev: () => scroll(-1), onLecture: fitLecture, lecture: r.lecture, stepKeys: false, signal: new AbortController().signal });
  c.toolbar.append(presenter.controls);
  fitLecture(presenter.lecture);
  document.addEventListener('keydown', (ev) => {
    const typing = ev.target instanceof HTMLElement && ev.target.closest('input, select, textarea') !== null;
    if ((ev.key === 'r' || ev.key === 'R') && !typing && !ev.ctrlKey && !ev.metaKey && !ev.altKey) {
      ev.preventDefault();
      doReveal();
    }
  });
}

async function checkAnswers(c: Ctx, form: QuestionsForm, replay: (m: Mark) => void): Promise<void> {
  form.clear();
  const typed = form.typed();
  const empty = typed.filter(([, t]) => t === '');
  for (const [n] of empty) form.showEmpty(n, c.p.questions.find((q) => q.n === n)?.hint ?? 'an answer');
  const given = typed.filter(([, t]) => t !== '');
  if (!given.length) return;
  c.status.textContent = 'The core is checking…';
  const res = await c.client.exercise(exerciseArgs(c.r, { checks: given }));
  if (res.status !== 0) {
    c.status.textContent = res.stderr.trim();
    return;
  }
  const marks = parseProblem(res.stdout).marks ?? [];
  form.showMarks(marks, replay);
  const malformed = marks.some((m) => m.mark === 'malformed');
  c.status.textContent = empty.length || malformed ? 'Some answers are not in: the score counts a problem once every question has an answer of its form.' : '';
  if (!empty.length && !malformed && !c.revealed) {
    const id = `${c.p.kind}:${c.p.seed}:${c.p.level}${c.r.preset ? `:${c.r.preset}` : ''}`;
    const s = c.scores.record(id, c.p.kind, marks.every((m) => m.mark === 'right'));
    c.score.textContent = scoreLine(s) + (c.scores.problem ? ` (${c.scores.problem})` : '');
  }
}

async function revealAnswers(c: Ctx, form: QuestionsForm, replay: (a: Answer) => void): Promise<void> {
  c.status.textContent = 'The core is answering…';
  const res = await c.client.exercise(exerciseArgs(c.r, { answers: true }));
  if (res.status !== 0) {
    c.status.textContent = res.stderr.trim();
    return;
  }
  c.revealed = true;
  form.showAnswers(parseProblem(res.stdout).answers ?? [], replay);
  // the room sees the answers come up: the questions brought to the top unless they already
  // stand in the upper half of the screen (beside the problem, in lecture mode)
  const top = form.root.getBoundingClientRect().top;
  if (top < 0 || top > window.innerHeight / 2) form.root.scrollIntoView({ block: 'start', behavior: 'smooth' });
  c.status.textContent = 'The answers, as the core computed them (a revealed problem does not count in the score).';
}
