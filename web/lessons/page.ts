// The lesson pages: the index of lessons, and one lesson walked step by step (prose, predict,
// reveal the model's result), with lecture mode (full screen, large type, one view or a pair,
// PageUp/PageDown, a laser pointer) and ?embed=1 for slides. Runs and tables are computed by
// the core in the engine worker when a step needs them, and cached for the page's life.
import { EngineClient } from '../engine/engine-client';
import { el } from '../ui/dom';
import { download, readPicked } from '../ui/download';
import { eventLogToJson } from '../log/eventlog-json';
import { addViewExportButtons } from '../ui/export-buttons';
import { ProgressStore } from '../storage/progress';
import { IMPORT_LIMITS } from '../scenario/limits';
import { LESSON_LIMITS, type Lesson, type LessonStep, type Predict, type SimConfig, type LessonViewId } from './lesson';
import { LessonError, parseLesson } from './parse';
import { renderProse } from './render';
import { loadRun, stepFor, type LoadedRun } from './runs';
import { computeTable, metricValue, resolveRef, type TableResult } from './compute';
import { renderTableResult } from './tableview';
import { mountViewSet, viewTitle, type ViewSet } from '../views/registry';
import type { LessonSource } from './vite-plugin';
import './lessons.css';

export interface LessonRoute {
  id: string;
  step: number;
  lecture: boolean;
  embed: boolean;
  /** lecture mode: the one view or pair to show (default: the step's first two) */
  views?: LessonViewId[];
}

/** Parses every bundled lesson; a bad one is reported, not fatal to the others. */
export function parseAll(sources: readonly LessonSource[]): { lessons: Lesson[]; errors: LessonError[] } {
  const lessons: Lesson[] = [];
  const errors: LessonError[] = [];
  for (const s of sources) {
    try {
      lessons.push(parseLesson(s.file, s.text));
    } catch (e) {
      if (e instanceof LessonError) errors.push(e);
      else throw e;
    }
  }
  return { lessons, errors };
}

function errorBox(msg: string): HTMLElement {
  return el('p', { class: 'alert lesson-error', role: 'alert', text: msg });
}

export function mountLessonIndex(root: HTMLElement, sources: readonly LessonSource[], store = new ProgressStore()): void {
  const { lessons, errors } = parseAll(sources);
  const main = el('div', { class: 'lesson-index' });
  main.append(el('h2', { class: 'page-title', text: 'Lessons' }));
  if (store.loadProblem) main.append(errorBox(store.loadProblem));
  for (const e of errors) main.append(errorBox(e.message));
  const list = el('ol', { class: 'lesson-list' });
  for (const l of lessons) {
    const p = store.get(l.id);
    const state = p.done ? 'done' : p.reached > 0 ? `step ${p.reached + 1} of ${l.steps.length}` : 'not started';
    list.append(
      el(
        'li',
        { 'data-lesson': l.id },
        el('a', { href: `?lesson=${l.id}`, text: `${l.number}. ${l.title}` }),
        el('span', { class: 'lesson-state', text: ` (${state})` }),
        el('p', { class: 'lesson-summary', text: l.summary }),
      ),
    );
  }
  main.append(list);

  // ---- progress file, and a lesson file of one's own (checked exactly as the build checks)
  const tools = el('section', { class: 'lesson-tools', 'aria-labelledby': 'lesson-tools-title' });
  tools.append(el('h2', { id: 'lesson-tools-title', text: 'Progress and lesson files' }));
  const msg = el('p', { class: 'status', role: 'status' });
  const exp = el('button', { type: 'button', text: 'Export progress' });
  exp.addEventListener('click', () => download(store.exportText(), 'buddylab-progress.json', 'application/json'));
  const imp = el('input', { type: 'file', id: 'progress-file', accept: '.json,application/json' });
  imp.addEventListener('change', async () => {
    try {
      const f = await readPicked(imp, IMPORT_LIMITS.maxScenarioFileBytes);
      if (!f) return;
      store.importText(f.text);
      msg.textContent = `progress imported from ${f.name}`;
      mountLessonIndex(root, sources, store);
    } catch (e) {
      msg.textContent = `not imported: ${e instanceof Error ? e.message : String(e)}`;
    }
  });
  const own = el('input', { type: 'file', id: 'lesson-file', accept: '.md,text/markdown' });
  own.addEventListener('change', async () => {
    try {
      const f = await readPicked(own, LESSON_LIMITS.maxBytes);
      if (!f) return;
      const l = parseLesson(f.name, f.text);
      msg.textContent = '';
      mountLesson(root, l, { id: l.id, step: 0, lecture: false, embed: false }, store);
    } catch (e) {
      msg.textContent = e instanceof Error ? e.message : String(e);
    }
  });
  tools.append(
    el('div', { class: 'tool-row' }, exp),
    el('div', { class: 'tool-row' }, el('label', { for: 'progress-file', text: 'Import progress (a file from Export progress)' }), imp),
    el('div', { class: 'tool-row' }, el('label', { for: 'lesson-file', text: 'Open a lesson file of your own (Markdown, as the course’s lessons are written)' }), own),
    msg,
  );
  main.append(tools, el('p', {}, el('a', { href: '?compare', text: 'Compare configurations side by side →' })));
  root.replaceChildren(main);
}

export function mountLessonById(root: HTMLElement, sources: readonly LessonSource[], route: LessonRoute): void {
  const src = sources.find((s) => {
    try {
      return parseLesson(s.file, s.text).id === route.id;
    } catch {
      return false;
    }
  });
  if (!src) {
    const { errors } = parseAll(sources);
    root.replaceChildren(
      el('div', { class: 'lesson-index' }, errorBox(`no lesson "${route.id}"`), ...errors.map((e) => errorBox(e.message)), el('a', { href: '?lessons', text: 'All lessons' })),
    );
    return;
  }
  mountLesson(root, parseLesson(src.file, src.text), route);
}

/** A number answer counts as right within the question's tolerance (absolute). */
function isRight(p: Predict, given: number, expected: number): boolean {
  return p.kind === 'choice' ? given === expected : Math.abs(given - expected) <= p.tolerance;
}

const fmtNum = (v: number) => (Math.abs(v) >= 1000 ? Math.round(v).toLocaleString('en') : String(Math.round(v * 100) / 100));

/** The mounted lesson's document listeners and worker: a new lesson (a file opened from the
 * index) takes them down first. */
let unmountLesson: (() => void) | undefined;

export function mountLesson(root: HTMLElement, lesson: Lesson, route: LessonRoute, store = new ProgressStore()): void {
  unmountLesson?.();
  const listeners = new AbortController();
  const client = new EngineClient();
  unmountLesson = () => {
    listeners.abort();
    client.dispose();
  };
  const runs = new Map<string, Promise<LoadedRun>>();
  const tables = new Map<string, Promise<TableResult>>();
  // two tables of a lesson often read different counters of the same runs (lesson 6: zone->lock
  // and lru_lock contention): each distinct request runs once per page
  const sims = new Map<string, ReturnType<EngineClient['sim']>>();
  const sim = (req: Parameters<EngineClient['sim']>[0]) => {
    const key = JSON.stringify(req);
    let r = sims.get(key);
    if (!r) sims.set(key, (r = client.sim(req)));
    return r;
  };
  const getRun = (name: string) => {
    let r = runs.get(name);
    if (!r) runs.set(name, (r = loadRun(client, lesson.runs[name]!)));
    return r;
  };
  const getTable = (name: string, configs?: SimConfig[]) => {
    const key = configs ? `${name}:${JSON.stringify(configs)}` : name;
    let t = tables.get(key);
    if (!t) tables.set(key, (t = computeTable(sim, lesson.tables[name]!, configs)));
    return t;
  };

  let index = Math.min(Math.max(0, route.step), lesson.steps.length - 1);
  let lecture = route.lecture;
  let laser = false;
  let generation = 0; // a step change cancels the drawing of the step before it

  const page = el('div', { class: 'lesson-page' });
  page.classList.toggle('embed', route.embed);
  const nav = el('nav', { class: 'lesson-nav', 'aria-label': 'Lesson' });
  const title = el('h2', { class: 'lesson-title', text: `${lesson.number}. ${lesson.title}` });
  const counter = el('p', { class: 'step-counter', 'aria-live': 'polite' });
  const prev = el('button', { type: 'button', text: '◀ previous', 'aria-label': 'Previous step (PageUp)' });
  const next = el('button', { type: 'button', text: 'next ▶', 'aria-label': 'Next step (PageDown)', class: 'next-step' });
  const lectureBtn = el('button', { type: 'button', 'aria-pressed': 'false', text: 'Lecture mode (L)' });
  const fullBtn = el('button', { type: 'button', text: 'Full screen (F)' });
  const laserBtn = el('button', { type: 'button', 'aria-pressed': 'false', text: 'Laser pointer (P)' });
  const viewPick = el('select', { id: 'lecture-views', 'aria-label': 'Views shown in lecture mode' });
  // the step buttons first, so the keyboard reaches them within a few Tabs of the page's top
  nav.append(
    title,
    counter,
    el('div', { class: 'nav-buttons' }, prev, next, lectureBtn, fullBtn, laserBtn, viewPick),
    el('a', { href: '?lessons', class: 'back', text: '← all lessons' }),
  );
  // both scroll on their own in lecture mode, so keyboards must be able to reach them
  const text = el('article', { class: 'lesson-text', 'aria-labelledby': 'step-title', tabindex: 0 });
  const stage = el('section', { class: 'lesson-stage', 'aria-label': 'What the model shows', tabindex: 0 });
  const body = el('div', { class: 'lesson-body' }, text, stage);
  const dot = el('div', { class: 'laser', 'aria-hidden': 'true' });
  page.append(nav, body, dot);
  root.replaceChildren(page);

  const writeUrl = () => {
    const q = new URLSearchParams({ lesson: lesson.id, step: String(index + 1) });
    if (lecture) q.set('lecture', '1');
    if (route.embed) q.set('embed', '1');
    if (route.views) q.set('views', route.views.join(','));
    history.replaceState(null, '', `?${q.toString()}`);
  };

  function setLecture(on: boolean) {
    lecture = on;
    document.documentElement.classList.toggle('lecture', on);
    lectureBtn.setAttribute('aria-pressed', String(on));
    writeUrl();
    show();
  }
  function setLaser(on: boolean) {
    laser = on;
    page.classList.toggle('laser-on', on);
    laserBtn.setAttribute('aria-pressed', String(on));
  }
  const toggleFull = () => {
    if (document.fullscreenElement) void document.exitFullscreen();
    else void document.documentElement.requestFullscreen?.().catch(() => undefined);
  };
  page.addEventListener('pointermove', (e) => {
    if (!laser) return;
    dot.style.transform = `translate(${e.clientX - 12}px, ${e.clientY - 12}px)`;
  });
  prev.addEventListener('click', () => go(index - 1));
  next.addEventListener('click', () => go(index + 1));
  lectureBtn.addEventListener('click', () => setLecture(!lecture));
  fullBtn.addEventListener('click', toggleFull);
  laserBtn.addEventListener('click', () => setLaser(!laser));
  viewPick.addEventListener('change', () => {
    route.views = viewPick.value ? (viewPick.value.split(',') as LessonViewId[]) : undefined;
    writeUrl();
    show();
  });
  document.addEventListener('keydown', (ev) => {
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const t = ev.target as HTMLElement | null;
    if (t && t.closest('input, select, textarea')) return;
    // presenter remotes send PageDown / PageUp (some also arrows and "b"); in lecture mode the
    // arrows and Space step the lesson too, since there is no player bar to steal them
    const forward = ev.key === 'PageDown' || (lecture && (ev.key === 'ArrowRight' || ev.key === ' '));
    const back = ev.key === 'PageUp' || (lecture && ev.key === 'ArrowLeft');
    if (forward) go(index + 1);
    else if (back) go(index - 1);
    else if (ev.key === 'l' || ev.key === 'L') setLecture(!lecture);
    else if (ev.key === 'f' || ev.key === 'F') toggleFull();
    else if (ev.key === 'p' || ev.key === 'P') setLaser(!laser);
    else if (ev.key === 'Escape' && lecture) setLecture(false);
    else return;
    ev.preventDefault();
  }, { signal: listeners.signal });

  /** lecture mode's chosen view or pair, where the step has them */
  function chosenViews(step: LessonStep): LessonViewId[] | undefined {
    const c = route.views?.filter((v) => step.views.includes(v));
    return c?.length ? c : undefined;
  }
  function viewsFor(step: LessonStep): readonly LessonViewId[] {
    return chosenViews(step) ?? (lecture ? step.views.slice(0, 2) : step.views);
  }

  function go(i: number) {
    if (i < 0 || i >= lesson.steps.length || i === index) return;
    index = i;
    writeUrl();
    show();
  }

  function show() {
    const gen = ++generation;
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

    // lecture: which views; the step's own by default, or the chosen one / pair
    viewPick.replaceChildren(el('option', { value: '', text: 'views: the step’s own' }));
    for (const v of step.views) viewPick.append(el('option', { value: v, text: viewTitle(v) }));
    for (let a = 0; a < step.views.length; a++)
      for (let b = a + 1; b < step.views.length; b++) {
        const pair = `${step.views[a]},${step.views[b]}`;
        viewPick.append(el('option', { value: pair, text: `${step.views[a]} + ${step.views[b]}` }));
      }
    viewPick.value = chosenViews(step)?.join(',') ?? '';
    viewPick.hidden = !lecture;
    const views = viewsFor(step);

    delete stage.dataset['ready'];
    text.replaceChildren(el('h3', { id: 'step-title', text: step.title }));
    const prose = el('div', { class: 'prose' });
    prose.append(renderProse(step.prose));
    text.append(prose);
    stage.replaceChildren();

    const answered = store.get(lesson.id).answers[String(index)];
    const leavesOut = () =>
      last ? [el('aside', { class: 'leaves-out' }, el('h4', { text: 'What the model leaves out' }), el('p', { text: lesson.leavesOut }))] : [];
    if (step.predict && !answered) {
      stage.append(el('p', { class: 'stage-wait', text: 'Answer the question first: the model runs when you have committed to a prediction.' }));
      text.append(predictForm(step, step.predict, gen), ...leavesOut());
      return;
    }
    if (step.predict && answered) text.append(feedback(step.predict, answered.given, answered.correct, undefined));
    text.append(...leavesOut());
    void reveal(step, views, gen);
  }

  function predictForm(step: LessonStep, p: Predict, gen: number): HTMLElement {
    const form = el('form', { class: 'predict', 'aria-labelledby': 'predict-q' });
    form.append(el('p', { id: 'predict-q', class: 'predict-q' }, el('strong', { text: 'Predict: ' }), p.question));
    if (p.kind === 'choice') {
      const fs = el('fieldset');
      fs.append(el('legend', { class: 'sr-only', text: 'Choices' }));
      p.choices.forEach((c, i) => {
        const id = `choice-${i}`;
        fs.append(el('div', { class: 'choice' }, el('input', { type: 'radio', name: 'choice', id, value: i, required: true }), el('label', { for: id, text: c })));
      });
      form.append(fs);
    } else {
      form.append(
        el('label', { for: 'predict-number', text: `Your estimate${p.unit ? ` (${p.unit})` : ''}` }),
        el('input', { type: 'number', id: 'predict-number', name: 'number', step: 'any', required: true }),
      );
    }
    const status = el('p', { class: 'status', role: 'status' });
    form.append(el('button', { type: 'submit', class: 'primary check', text: 'Check my prediction' }), status);
    form.addEventListener('submit', async (ev) => {
      ev.preventDefault();
      const data = new FormData(form);
      const given = Number(p.kind === 'choice' ? data.get('choice') : data.get('number'));
      if (!Number.isFinite(given)) return;
      let expected: number;
      if (p.kind === 'choice') expected = p.answer;
      else if (typeof p.answer === 'number') expected = p.answer;
      else {
        status.textContent = 'the model is running…';
        try {
          expected = resolveRef(p.answer, await getTable(p.answer.table));
        } catch (e) {
          status.textContent = e instanceof Error ? e.message : String(e);
          return;
        }
      }
      if (gen !== generation) return;
      const correct = isRight(p, given, expected);
      store.update(lesson.id, (pr) => {
        pr.answers[String(index)] = { given, correct };
      });
      form.replaceWith(feedback(p, given, correct, expected));
      void reveal(step, viewsFor(step), gen);
    });
    return form;
  }

  function feedback(p: Predict, given: number, correct: boolean, expected: number | undefined): HTMLElement {
    const box = el('div', { class: `feedback ${correct ? 'right' : 'wrong'}`, role: 'status' });
    const yours = p.kind === 'choice' ? p.choices[given] ?? String(given) : fmtNum(given);
    box.append(el('p', { text: `${correct ? 'Right' : 'Not quite'}: you said ${yours}.` }));
    if (p.kind === 'choice') box.append(el('p', { text: `The answer: ${p.choices[p.answer]}.` }));
    else if (expected !== undefined) box.append(el('p', { class: 'model-answer', text: `The model says ${fmtNum(expected)}${p.unit ? ` ${p.unit}` : ''} (right within ±${p.tolerance}).` }));
    if (p.explain) box.append(el('p', { text: p.explain }));
    return box;
  }

  async function reveal(step: LessonStep, views: readonly LessonViewId[], gen: number) {
    stage.replaceChildren();
    delete stage.dataset['ready'];
    const msg = el('p', { class: 'status', role: 'status' });
    stage.append(msg);
    try {
      if (step.run) {
        msg.textContent = 'the core is running…';
        const run = await getRun(step.run);
        if (gen !== generation) return;
        drawRun(step, run, views);
      }
      if (step.table) {
        msg.textContent = 'computing the table on the model machine…';
        const t = lesson.tables[step.table]!;
        const r = await getTable(step.table);
        if (gen !== generation) return;
        stage.append(renderTableResult(r));
        const tunable = t.configs.findIndex((c) => c.tunable);
        if (tunable > 0) stage.append(tuner(step.table, r, tunable, gen));
      }
      msg.textContent = '';
      // tests and lecture tooling wait for this: the step's run and table are drawn
      stage.dataset['ready'] = String(index + 1);
    } catch (e) {
      if (gen === generation) msg.textContent = `the model could not run: ${e instanceof Error ? e.message : String(e)}`;
    }
  }

  function drawRun(step: LessonStep, run: LoadedRun, views: readonly LessonViewId[]) {
    const p = run.player;
    const stop = stepFor(p, step.at);
    p.seek(stop);
    const bar = el('div', { class: 'mini-player' });
    const scrub = el('input', { type: 'range', min: 0, max: p.length, step: 1, value: stop, id: 'lesson-scrub', 'aria-label': 'Step through the run' });
    const out = el('output', { for: 'lesson-scrub', class: 'stepout' });
    const json = el('button', { type: 'button', class: 'small', text: 'Run as JSON' });
    json.addEventListener('click', () => download(eventLogToJson(p.log, `${lesson.id}/${step.run}`), `${lesson.id}-${step.run}.events.json`, 'application/json'));
    bar.append(scrub, out, json);
    stage.append(bar);
    const set: ViewSet = mountViewSet(stage, views);
    for (const v of views) {
      const panel = set.panelOf(v);
      if (panel) addViewExportButtons(panel, { title: viewTitle(v), what: viewTitle(v), file: `${lesson.id}-${v}` });
    }
    set.highlight(step.highlight);
    const draw = () => {
      out.textContent = `step ${p.step} / ${p.length}`;
      set.update({ player: p, pcp: run.pcp });
    };
    scrub.addEventListener('input', () => {
      p.seek(Number(scrub.value));
      draw();
    });
    requestAnimationFrame(draw);
  }

  /** The capstone: edit batch and high of the tunable config, rerun, and see whether it beats the first. */
  function tuner(name: string, first: TableResult, j: number, gen: number): HTMLElement {
    const t = lesson.tables[name]!;
    const base = t.configs[j]!;
    const form = el('form', { class: 'tuner', 'aria-labelledby': 'tuner-title' });
    const batch = el('input', { type: 'number', id: 'tune-batch', min: 1, max: 256, step: 1, value: base.batch ?? 31, required: true });
    const high = el('input', { type: 'number', id: 'tune-high', min: 1, max: 1024, step: 1, value: base.high ?? 186, required: true });
    const verdict = el('p', { class: 'verdict', role: 'status' });
    form.append(
      el('h4', { id: 'tuner-title', text: `Your turn: tune "${base.label}"` }),
      el('div', { class: 'tool-row' }, el('label', { for: 'tune-batch', text: 'batch (pages per rmqueue_bulk / bulk free), 1..256' }), batch),
      el('div', { class: 'tool-row' }, el('label', { for: 'tune-high', text: 'high (drain when count reaches it), batch..1024' }), high),
      el('button', { type: 'submit', class: 'primary', text: 'Run my configuration' }),
      verdict,
    );
    const judge = (r: TableResult) => {
      // the mixed load's score: the geometric mean over the task counts, so no single row dominates
      const gm = (k: number) => Math.exp(r.rows.reduce((a, row) => a + Math.log(Math.max(1, metricValue(row[k]!, 'score'))), 0) / r.rows.length);
      const mine = gm(j);
      const theirs = gm(0);
      const pct = ((mine - theirs) / theirs) * 100;
      verdict.textContent = `${r.configs[j]!.label} (batch ${r.rows[0]![j]!.batch}, high ${r.rows[0]![j]!.high}): ${Math.round(mine).toLocaleString('en')} pages/s against ${Math.round(theirs).toLocaleString('en')} for ${r.configs[0]!.label}, ${pct >= 0 ? '+' : ''}${pct.toFixed(1)}%: ${mine > theirs ? 'you beat the preset.' : 'the preset still wins.'}`;
    };
    judge(first);
    form.addEventListener('submit', async (ev) => {
      ev.preventDefault();
      const b = Number(batch.value);
      const h = Number(high.value);
      if (!Number.isInteger(b) || b < 1 || b > 256 || !Number.isInteger(h) || h < b || h > 1024) {
        verdict.textContent = 'batch must be 1..256 and high from batch to 1024';
        return;
      }
      const configs = t.configs.map((c, k) => (k === j ? { ...c, label: 'yours', batch: b, high: h } : c));
      verdict.textContent = 'the model is running…';
      try {
        const r = await getTable(name, configs);
        if (gen !== generation) return;
        stage.querySelector(`.tables[data-table="${name}"]`)?.replaceWith(renderTableResult(r));
        judge(r);
      } catch (e) {
        verdict.textContent = e instanceof Error ? e.message : String(e);
      }
    });
    return form;
  }

  if (lecture) document.documentElement.classList.add('lecture');
  lectureBtn.setAttribute('aria-pressed', String(lecture));
  writeUrl();
  show();
}
