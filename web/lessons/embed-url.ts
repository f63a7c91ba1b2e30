// The address of one lesson figure embedded in another page (a course page, a slide that
// shows web pages): ?embed=VIEW&lesson=ID&step=N[&theme=light|dark].
//
// The page that reads it has no chrome, so a link that is wrong must say so in the frame: every
// parameter is checked, a bad one is refused with its name and the reason, and the link is never
// bent into another figure. `embed=1` is the older whole-step embedding (lessonpage.ts), a route
// of its own (web/shell/routes.ts).
import { LESSON_LIMITS, LESSON_VIEW_IDS, type Lesson, type LessonViewId } from './lesson';
import { viewTitle } from '../views/registry';

export const EMBED_PARAMS = ['embed', 'lesson', 'step', 'theme', 'v'] as const;
/** an address longer than any good one (a lesson id is 32 characters) is not read at all */
const MAX_QUERY = 400;
const LESSON_ID = /^[a-z][a-z0-9_-]{0,31}$/;

export class EmbedUrlError extends Error {
  override name = 'EmbedUrlError';
  /** the parameter that is wrong ('' for the address as a whole) */
  readonly param: string;
  constructor(param: string, why: string) {
    super(param ? `${param}: ${why}` : why);
    this.param = param;
  }
}

export interface EmbedQuery {
  view: LessonViewId;
  lesson: string;
  /** 1-based, as a lecturer says it; absent: the lesson's first step that shows the figure */
  step?: number;
  /** a theme fixed by the link (a slide's background), else the viewer's */
  theme?: 'light' | 'dark';
}

/** A value as it may be quoted back: short, and with nothing that is not printable. */
const quote = (s: string) => JSON.stringify(s.length > 24 ? `${s.slice(0, 24)}…` : s);

/** Reads the address's own parameters; which lesson and step exist is resolveEmbed's question. */
export function parseEmbedQuery(search: string): EmbedQuery {
  if (search.length > MAX_QUERY) throw new EmbedUrlError('', `the address is ${search.length} characters long; an embedded figure's is at most ${MAX_QUERY}`);
  const q = new URLSearchParams(search);
  for (const k of q.keys()) {
    if (!(EMBED_PARAMS as readonly string[]).includes(k)) throw new EmbedUrlError(k.slice(0, 24), `not a parameter of an embedded figure (they are ${EMBED_PARAMS.join(', ')})`);
    if (q.getAll(k).length > 1) throw new EmbedUrlError(k, 'given more than once');
  }
  const view = q.get('embed') ?? '';
  if (!(LESSON_VIEW_IDS as readonly string[]).includes(view)) throw new EmbedUrlError('embed', `${quote(view)} is not a figure a lesson shows; the figures: ${LESSON_VIEW_IDS.join(', ')}`);
  const lesson = q.get('lesson');
  if (lesson === null || lesson === '') throw new EmbedUrlError('lesson', 'missing: which lesson the figure is from, by its id (lesson=buddy)');
  if (!LESSON_ID.test(lesson)) throw new EmbedUrlError('lesson', `${quote(lesson)} is not a lesson id (lower-case letters, digits, - and _, at most 32)`);
  const out: EmbedQuery = { view: view as LessonViewId, lesson };
  const step = q.get('step');
  if (step !== null) {
    if (!/^\d{1,3}$/.test(step)) throw new EmbedUrlError('step', `${quote(step)} is not a step number (a whole number from 1)`);
    const n = Number(step);
    if (n < 1 || n > LESSON_LIMITS.maxSteps) throw new EmbedUrlError('step', `${n} is out of range: a lesson's steps are numbered 1 to at most ${LESSON_LIMITS.maxSteps}`);
    out.step = n;
  }
  const theme = q.get('theme');
  if (theme !== null) {
    if (theme !== 'light' && theme !== 'dark') throw new EmbedUrlError('theme', `${quote(theme)}: light or dark (leave it out to follow the viewer's system)`);
    out.theme = theme;
  }
  return out;
}

/** The steps (0-based) whose stage shows the view: they have a run, and name the view. */
export function stepsShowing(lesson: Lesson, view: LessonViewId): number[] {
  const out: number[] = [];
  lesson.steps.forEach((s, i) => {
    if (s.run && s.views.includes(view)) out.push(i);
  });
  return out;
}

export interface EmbedTarget {
  lesson: Lesson;
  view: LessonViewId;
  /** the steps that show the view, 0-based: the frame steps through these */
  steps: number[];
  /** the shown step's place in `steps` */
  at: number;
}

const listed = (steps: readonly number[]) => steps.map((i) => i + 1).join(', ');

/** Finds the query's lesson, and a step of it that shows the figure; refuses anything else. */
export function resolveEmbed(q: EmbedQuery, lessons: readonly Lesson[]): EmbedTarget {
  const lesson = lessons.find((l) => l.id === q.lesson);
  if (!lesson) throw new EmbedUrlError('lesson', `no lesson ${quote(q.lesson)}; the lessons: ${lessons.map((l) => l.id).join(', ')}`);
  const steps = stepsShowing(lesson, q.view);
  // the figure's name without its subtitle: "pcp lists", not the struct it draws
  const what = viewTitle(q.view).split(':')[0]!;
  if (!steps.length) {
    const shown = [...new Set(lesson.steps.filter((s) => s.run).flatMap((s) => s.views))];
    throw new EmbedUrlError('embed', `lesson ${quote(lesson.id)} never shows ${what} (${q.view}); its figures: ${shown.join(', ')}`);
  }
  if (q.step === undefined) return { lesson, view: q.view, steps, at: 0 };
  const n = lesson.steps.length;
  if (q.step > n) throw new EmbedUrlError('step', `${q.step} is past the end: lesson ${quote(lesson.id)} has ${n} steps; ${what} is on steps ${listed(steps)}`);
  const at = steps.indexOf(q.step - 1);
  if (at < 0) throw new EmbedUrlError('step', `step ${q.step} of lesson ${quote(lesson.id)} does not show ${what}; the steps that do: ${listed(steps)}`);
  return { lesson, view: q.view, steps, at };
}

/** The embed address of a lesson's figure at a step (1-based), relative to the app's page. */
export function embedHref(view: LessonViewId, lesson: string, step: number, theme?: 'light' | 'dark'): string {
  const q = new URLSearchParams({ embed: view, lesson, step: String(step) });
  if (theme) q.set('theme', theme);
  return `?${q.toString()}`;
}

const attr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The <iframe> a course page pastes: sized, titled (a screen reader names the frame by its
 * title), lazy, and allowed the cross-origin isolation the core's threads need (the page
 * around it must be isolated too: docs/embedding.md). */
export function iframeSnippet(url: string, title: string, width: number, height: number): string {
  return `<iframe src="${attr(url)}" title="${attr(title)}" width="${width}" height="${height}" allow="cross-origin-isolated" loading="lazy" style="border:0;max-width:100%"></iframe>`;
}
