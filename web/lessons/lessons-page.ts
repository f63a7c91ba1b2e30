// The lesson pages: the index of lessons, and the mount of one lesson (lessonpage.ts walks it).
import { el } from '../ui/dom';
import { download, readPicked } from '../ui/download';
import { ProgressStore } from '../storage/lesson-progress';
import { IMPORT_LIMITS } from '../scenario/limits';
import { LESSON_LIMITS, type Lesson } from './lesson';
import { LessonError, parseLesson } from './parse';
import { mountLesson } from './lessonpage';
import type { LessonSource } from './vite-plugin';
import './lessons.css';

export type { LessonRoute } from './lessonpage';
import type { LessonRoute } from './lessonpage';

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

export async function mountLessonById(root: HTMLElement, sources: readonly LessonSource[], route: LessonRoute): Promise<void> {
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
  const lesson = parseLesson(src.file, src.text);
  // the handout is its own chunk (and print stylesheet), fetched only when asked for
  if (route.handout) (await import('./handout')).mountHandout(root, lesson);
  else mountLesson(root, lesson, route);
}

