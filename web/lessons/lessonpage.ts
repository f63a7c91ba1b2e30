// One lesson, walked step by step. A step is a grid of rows: its title and predict question
// beside the run's player (what just happened, in words and moving), then each paragraph beside
// the figures it discusses (figures.ts), then where in the C the record was written and the
// tables. A predict question comes before the run that answers it; the prose after the answer
// mark and the run wait for the answer. Presenter mode (web/ui/presenter.ts) steps it with
// PageDown / PageUp, blanks with B, shows one figure or a pair, and R reveals an answer.
// Tables come from the results the build shipped, the results cache or the worker pool
// (tables.ts), row by row; "Run live" recomputes them all in this browser.
import { practiseLink } from './practise';
import { EngineClient } from '../engine/engine-client';
import { PoolCancelled, SimPool } from '../engine/pool';
import { ResultsCache } from '../engine/results-cache';
import { progressBar } from '../ui/progress';
import { el } from '../ui/dom';
import { createPresenter } from '../ui/presenter';
import { ProgressStore } from '../storage/progress';
import { viewTitle, type MountedView } from '../views/registry';
import type { LectureFigureId, Lesson, LessonStep, LessonViewId, Preset, SimConfig } from './lesson';
import { renderProse } from './render';
import { loadRun, runScaleNote, stepFor, type LoadedRun } from './runs';
import { cellSpread, resolveRef, type TableResult } from './compute';
import { TableView } from './tableview';
import { LessonTables } from './tables';
import { assignFigures } from './figures';
import { wireTerms } from './terms';
import { predictBox, type PredictBox } from './predict';
import { createRunPlayer } from './runplayer';

export interface LessonRoute {
  id: string;
  step: number;
  lecture: boolean;
  embed: boolean;
  /** lecture mode: the one figure or pair to show (default: the step's first two views) */
  views?: LectureFigureId[];
}

/** The mounted lesson's document listeners and worker: a new lesson (a file opened from the
 * index) takes them down first. */
let unmountLesson: (() => void) | undefined;

/** The preset a run models, for the kernel links (an op script names it on its zone line). */
function presetOf(lesson: Lesson, run: string | undefined): Preset | undefined {
  const r = run ? lesson.runs[run] : undefined;
  if (!r) return undefined;
  if (r.kind === 'sim') return r.config.preset;
  return /\bpreset=(\S+)/.exec(r.script)?.[1] as Preset | undefined;
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
  const getTable = (name: string, configs?: SimConfig[]) => tables.get(name, configs);

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

  const presenter = createPresenter({
    root: page,
    next: () => go(index + 1),
    prev: () => go(index - 1),
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
  nav.append(title, counter, el('div', { class: 'nav-buttons' }, prev, next, presenter.controls), el('a', { href: '?lessons', class: 'back', text: '← all lessons' }));

  const writeUrl = () => {
    const q = new URLSearchParams({ lesson: lesson.id, step: String(index + 1) });
    if (presenter.lecture) q.set('lecture', '1');
    if (route.embed) q.set('embed', '1');
    if (route.views) q.set('views', route.views.join(','));
    history.replaceState(null, '', `?${q.toString()}`);
  };

  prev.addEventListener('click', () => go(index - 1));
  next.addEventListener('click', () => go(index + 1));
  // R: the lecturer reveals the answer (only in lecture mode, where nothing else uses it)
  document.addEventListener(
    'keydown',
    (ev) => {
      if (!presenter.lecture || presenter.blanked() || ev.ctrlKey || ev.metaKey || ev.altKey) return;
      if ((ev.key === 'r' || ev.key === 'R') && !(ev.target as HTMLElement | null)?.closest('input, select, textarea')) {
        box?.reveal();
        ev.preventDefault();
      }
    },
    { signal: listeners.signal },
  );

  /** lecture mode's chosen figure or pair, where the step has them */
  function chosenFigures(step: LessonStep): LectureFigureId[] {
    return route.views?.filter((v) => v === 'event' || (step.views as string[]).includes(v)) ?? [];
  }
  /** the views a step shows: all of them, or on a slide the chosen ones (the first two by default) */
  function viewsFor(step: LessonStep): readonly LessonViewId[] {
    if (!presenter.lecture) return step.views;
    const chosen = chosenFigures(step);
    return chosen.length ? chosen.filter((v): v is LessonViewId => v !== 'event') : step.views.slice(0, 2);
  }
  /** the moving picture of the current record: always, except on a slide that did not choose it */
  const eventShown = (step: LessonStep) => !presenter.lecture || chosenFigures(step).includes('event');

  function go(i: number) {
    if (i < 0 || i >= lesson.steps.length || i === index) return;
    index = i;
    writeUrl();
    show();
  }

  /** Whether the step's run, figures and answer prose are shown: no question, or it is answered. */
  function isRevealed(step: LessonStep): boolean {
    if (!step.predict) return true;
    return presenter.lecture ? revealed.has(index) : store.get(lesson.id).answers[String(index)] !== undefined;
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
    presenter.setFigures([...step.views, 'event' as const].map((v) => ({ id: v, title: viewTitle(v) })), chosenFigures(step));
    delete stage.dataset['ready'];

    const open = isRevealed(step);
    body.classList.toggle('asking', !open);
    const views = open && step.run ? viewsFor(step) : [];
    // ---- the prose, in blocks; the answer's prose only once answered
    const prose = el('div');
    prose.append(renderProse(step.prose));
    if (open && step.answerProse) {
      const after = renderProse(step.answerProse);
      for (const c of after.children) c.classList.add('after-answer');
      prose.append(...after.children);
    }
    const blocks = [...prose.children] as HTMLElement[];
    // on a slide the one figure or pair stays in view at the top; on a page each goes beside
    // the paragraph that discusses it
    const at = presenter.lecture ? views.map(() => 0) : assignFigures(blocks.map((b) => b.textContent ?? ''), views);
    const starts = [...new Set([0, ...at])].sort((a, b) => a - b);
    const groupOf = (k: number) => starts.filter((s) => s <= k).length - 1;

    // ---- rows: 1 the title; 2.. each paragraph group beside its figures, the first headed by
    // the question (text) and the run's player with the moving picture of the current record
    // (figures); the last, what the model leaves out beside the C and the tables
    const first = 2;
    const rows = starts.length + first;
    body.style.setProperty('--rows', String(rows + 1));
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

    textHead.append(el('h3', { id: 'step-title', text: step.title }));
    box = undefined;
    if (step.predict) {
      box = predictBox({
        predict: step.predict,
        answered: presenter.lecture ? undefined : store.get(lesson.id).answers[String(index)],
        lecture: presenter.lecture,
        revealed: revealed.has(index),
        expected: async () => {
          const p = step.predict!;
          if (p.kind === 'number' && typeof p.answer !== 'number') return resolveRef(p.answer, await getTable(p.answer.table));
          return p.kind === 'choice' ? p.answer : (p.answer as number);
        },
        onAnswer: (given, correct) => {
          store.update(lesson.id, (pr) => {
            pr.answers[String(index)] = { given, correct };
          });
          if (gen === generation) show();
        },
        onReveal: () => {
          revealed.add(index);
          if (gen === generation) show();
        },
        onReset: () => {
          store.update(lesson.id, (pr) => {
            delete pr.answers[String(index)];
          });
          show();
        },
      });
      askCell.prepend(box.root);
    }
    if (!open) {
      stageHead.append(el('p', { class: 'stage-wait', text: presenter.lecture ? 'The run is shown when the answer is revealed (R).' : 'Answer the question first: the model runs when you have committed to a prediction.' }));
      return;
    }
    // after the last question, like the answer: what the model leaves out may say how far its
    // figures sit from the seed's, which is what a question may ask
    if (last) textTail.append(el('aside', { class: 'leaves-out' }, el('h4', { text: 'What the model leaves out' }), el('p', { text: lesson.leavesOut })));
    const practise = last ? practiseLink(lesson.id) : undefined;
    if (practise) textTail.append(el('p', { class: 'practise' }, el('a', { href: practise.href, text: practise.text })));
    void reveal(step, views, { runHead, stageHead, stageTail, figCells, groupOf, at }, gen);
  }

  interface Cells {
    /** beside the title: the run's player bar */
    runHead: HTMLElement;
    stageHead: HTMLElement;
    stageTail: HTMLElement;
    figCells: HTMLElement[];
    groupOf(k: number): number;
    at: number[];
  }

  async function reveal(step: LessonStep, views: readonly LessonViewId[], c: Cells, gen: number) {
    const msg = el('p', { class: 'status', role: 'status' });
    c.stageHead.append(msg);
    let mounted: readonly MountedView[] = [];
    try {
      if (step.run) {
        msg.textContent = 'the core is running…';
        const run = await getRun(step.run);
        if (gen !== generation) return;
        const rp = createRunPlayer({
          run,
          label: `${lesson.id}/${step.run}`,
          file: `${lesson.id}-${step.run}`,
          preset: presetOf(lesson, step.run),
          stop: stepFor(run.player, step.at),
          views,
          placeView: (id) => c.figCells[c.groupOf(c.at[views.indexOf(id as LessonViewId)]!)]!,
          eventInto: eventShown(step) ? c.stageHead : undefined,
          highlight: step.highlight,
        });
        c.runHead.append(rp.head);
        // the stepped run is small enough to watch page by page: it says so, and where the
        // tables' sizes differ
        c.stageHead.append(el('p', { class: 'hint run-scale', text: runScaleNote(lesson.runs[step.run]!, lesson) }));
        c.stageHead.prepend(rp.sentence);
        c.stageTail.append(rp.source);
        mounted = rp.views;
        requestAnimationFrame(rp.draw);
      }
      if (step.table) {
        msg.textContent = '';
        const t = lesson.tables[step.table]!;
        const where = step.run ? c.stageTail : c.stageHead;
        const r = await showTable(step.table, where, gen);
        if (!r || gen !== generation) return;
        const tunable = t.configs.findIndex((k) => k.tunable);
        if (tunable > 0) where.append(tuner(step.table, r, tunable, gen, where));
      }
      msg.remove();
      wireTerms(text, mounted, listeners.signal);
      // tests and lecture tooling wait for this: the step's run and table are drawn
      stage.dataset['ready'] = String(index + 1);
    } catch (e) {
      if (gen === generation) msg.textContent = `the model could not run: ${e instanceof Error ? e.message : String(e)}`;
    }
  }

  /** A table as its rows finish (at once when the build shipped it), with a progress bar while
   * the pool runs, and the "Run live" button; null when the step moved on. */
  async function showTable(name: string, where: HTMLElement, gen: number): Promise<TableResult | null> {
    const view = new TableView(lesson.tables[name]!);
    const bar = progressBar('the model runs of this table', () => pool.cancel());
    bar.root.hidden = true;
    where.append(bar.root, view.root);
    const r = await tables.get(
      name,
      undefined,
      (res) => {
        if (gen === generation && !tables.liveResult(name)) view.update(res);
      },
      (p) => {
        if (gen !== generation) return;
        bar.root.hidden = p.done === p.total;
        bar.update(p);
      },
    );
    if (gen !== generation) return null;
    bar.finish('');
    const live = tables.liveResult(name);
    if (live) view.update(live.result, live.matches);
    else view.update(r);
    where.append(liveButton(name, view, gen));
    return r;
  }

  /** "Run live": every table of the lesson again in this browser, each row checked against the
   * runs the build shipped: every counter of every run, compared as the int64 the core counted. */
  function liveButton(name: string, view: TableView, gen: number): HTMLElement {
    const count = Object.keys(lesson.tables).length;
    const btn = el('button', { type: 'button', class: 'run-live', text: `Run live (${count === 1 ? 'this table' : `all ${count} tables of this lesson`})` });
    const box = el('div', { class: 'live-box' }, btn, el('span', { class: 'hint', text: ' the tables come from the native core at build time; this runs them again here, in WebAssembly, and checks that every counter of every run in each row is the same number (each an int64)' }));
    btn.addEventListener('click', async () => {
      btn.disabled = true;
      delete box.dataset['live'];
      const bar = progressBar('Run live', () => pool.cancel());
      box.append(bar.root);
      const t0 = performance.now();
      try {
        await tables.runLive({
          onRow: (n, r) => {
            if (n === name && gen === generation) view.update(r, tables.liveResult(n)!.matches);
          },
          onProgress: (p) => bar.update(p),
        });
        const checks = Object.keys(lesson.tables).flatMap((n) => tables.liveResult(n)!.matches);
        const same = checks.filter((m) => m === 'matched').length;
        const ms = performance.now() - t0;
        bar.finish(`ran live in ${(ms / 1000).toFixed(1)} s: ${same} of ${checks.length} rows with every counter the same as the shipped runs`);
        box.dataset['liveMs'] = String(Math.round(ms)); // make bench reads it
        box.dataset['live'] = 'done';
      } catch (e) {
        bar.finish(e instanceof PoolCancelled ? 'Run live cancelled' : `Run live stopped: ${e instanceof Error ? e.message : String(e)}`);
      } finally {
        btn.disabled = false;
      }
    });
    return box;
  }

  /** The capstone: edit batch and high of the tunable config, rerun, and see whether it beats the first. */
  function tuner(name: string, first: TableResult, j: number, gen: number, where: HTMLElement): HTMLElement {
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
      // the mixed load's score: the geometric mean over the task counts (each the mean of its
      // seeds), so no single row dominates
      const gm = (k: number) => Math.exp(t.tasks.reduce((a, _n, i) => a + Math.log(Math.max(1, cellSpread(r, i, k).mean)), 0) / t.tasks.length);
      const mine = gm(j);
      const theirs = gm(0);
      const pct = ((mine - theirs) / theirs) * 100;
      const used = r.runs[0]![j]![0]!;
      verdict.textContent = `${r.configs[j]!.label} (batch ${used.batch}, high ${used.high}): ${Math.round(mine).toLocaleString('en')} pages/s against ${Math.round(theirs).toLocaleString('en')} for ${r.configs[0]!.label}, ${pct >= 0 ? '+' : ''}${pct.toFixed(1)}%: ${mine > theirs ? 'you beat the preset.' : 'the preset still wins.'}`;
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
      const view = new TableView(t);
      const bar = progressBar('your configuration', () => pool.cancel());
      form.append(bar.root);
      try {
        const r = await tables.get(name, configs, (res) => view.update(res), (p) => bar.update(p));
        if (gen !== generation) return;
        view.update(r);
        where.querySelector(`.tables[data-table="${name}"]`)?.replaceWith(view.root);
        bar.finish('');
        judge(r);
      } catch (e) {
        bar.finish('');
        verdict.textContent = e instanceof PoolCancelled ? 'cancelled' : e instanceof Error ? e.message : String(e);
      }
    });
    return form;
  }

  writeUrl();
  show();
}
