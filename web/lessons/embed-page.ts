// One lesson figure in a frame of another page (?embed=VIEW&lesson=ID&step=N, embed-url.ts):
// no page chrome, no prose, only the figure at the step, a one-line caption with the step, and
// stepping through the lesson's steps that show the figure, by keyboard (arrows, PageUp /
// PageDown from a presenter's remote, Space, Home / End) or the caption's buttons. A link that
// is wrong says which parameter and why, in the frame; it never shows an empty one.
import { EngineClient } from '../engine/engine-client';
import { el } from '../ui/dom';
import { pinTheme, THEME_EVENT } from '../ui/theme';
import { mountView, viewTitle, type MountedView } from '../views/registry';
import type { Lesson } from './lesson';
import { parseLesson } from './parse';
import { loadRun, type LoadedRun } from './runs';
import { EmbedUrlError, parseEmbedQuery, resolveEmbed, type EmbedTarget } from './embed-url';
import { stepFigureData } from './step-figure';
import type { LessonSource } from './vite-plugin';
import './embed.css';

function refusal(root: HTMLElement, why: string): void {
  root.replaceChildren(
    el(
      'div',
      { class: 'embed-refusal', role: 'alert' },
      el('h1', { text: 'This buddylab figure cannot be shown' }),
      el('p', { class: 'embed-why', text: why }),
      el('p', { class: 'hint', text: 'An embedded figure’s address: ?embed=FIGURE&lesson=LESSON&step=N (the lesson page’s Embed button writes it).' }),
    ),
  );
}

/** The course's lessons, each parsed; one that fails to parse is no lesson to embed. */
function lessonsOf(sources: readonly LessonSource[]): Lesson[] {
  const out: Lesson[] = [];
  for (const s of sources) {
    try {
      out.push(parseLesson(s.file, s.text));
    } catch {
      // the lesson pages name a broken lesson; here it is only absent from the list
    }
  }
  return out;
}

export function mountEmbed(root: HTMLElement, sources: readonly LessonSource[], search: string): void {
  document.documentElement.classList.add('embed-figure');
  let t: EmbedTarget;
  try {
    const q = parseEmbedQuery(search);
    if (q.theme) pinTheme(q.theme);
    t = resolveEmbed(q, lessonsOf(sources));
  } catch (e) {
    if (!(e instanceof EmbedUrlError)) throw e;
    document.title = 'buddylab: figure not shown';
    refusal(root, e.message);
    return;
  }
  showEmbed(root, t);
}

function showEmbed(root: HTMLElement, t: EmbedTarget): void {
  const { lesson, view } = t;
  const client = new EngineClient();
  const runs = new Map<string, Promise<LoadedRun>>();
  const getRun = (name: string) => {
    let r = runs.get(name);
    if (!r) runs.set(name, (r = loadRun(client, lesson.runs[name]!)));
    return r;
  };
  const what = viewTitle(view);
  const box = el('div', { class: `embed-view${FILLS.has(view) ? ' fills' : ''}` });
  const status = el('p', { class: 'status embed-status', role: 'status' });
  const prev = el('button', { type: 'button', class: 'small', text: '◀', 'aria-label': 'Previous step with this figure' });
  const next = el('button', { type: 'button', class: 'small', text: '▶', 'aria-label': 'Next step with this figure' });
  const counter = el('span', { class: 'embed-counter', 'aria-live': 'polite' });
  const open = el('a', { class: 'embed-open', target: '_blank', rel: 'noopener' });
  const caption = el('figcaption', { class: 'embed-caption' }, prev, counter, next, open);
  const figure = el('figure', { class: 'embed-frame', tabindex: 0, 'aria-roledescription': 'buddylab figure' }, box, status, caption);
  // the page's one heading, for a screen reader landing in the frame (the header is hidden)
  const heading = el('h1', { class: 'sr-only', text: `buddylab: ${what}, lesson ${lesson.number}, ${lesson.title}` });
  root.replaceChildren(heading, figure);

  let at = t.at;
  let generation = 0;
  let mounted: MountedView | undefined;
  const show = async () => {
    const gen = ++generation;
    const index = t.steps[at]!;
    const step = lesson.steps[index]!;
    const said = `step ${index + 1} of ${lesson.steps.length}: ${step.title}`;
    counter.textContent = said;
    figure.setAttribute('aria-label', `${what}, lesson ${lesson.number} (${lesson.title}), ${said}. Arrow keys, PageUp and PageDown, or Space step through the lesson's steps with this figure.`);
    prev.disabled = at === 0;
    next.disabled = at === t.steps.length - 1;
    open.href = `?lesson=${lesson.id}&step=${index + 1}`;
    open.textContent = `lesson ${lesson.number} ↗`;
    open.title = `Open lesson ${lesson.number}, ${lesson.title}, at this step`;
    document.title = `${what} — ${lesson.title}, step ${index + 1} — buddylab`;
    delete figure.dataset['ready'];
    const why = EngineClient.unsupported();
    if (why) {
      status.textContent = `This figure is drawn by the simulator, which cannot start in this frame: ${why}. The page around the frame must be cross-origin isolated too (docs/embedding.md); the lesson link opens it in a tab of its own.`;
      return;
    }
    status.textContent = mounted ? '' : 'the core is running…';
    try {
      const d = await stepFigureData(getRun, lesson, index);
      if (gen !== generation) return;
      if (!mounted) {
        box.replaceChildren();
        mounted = mountView(box, view, { prefix: 'embed', heading: 'short', legend: true });
      }
      mounted.update(d);
      await fitToFrame(box, mounted.section, !FILLS.has(view));
      if (gen !== generation) return;
      status.textContent = '';
      figure.dataset['ready'] = String(index + 1);
    } catch (e) {
      if (gen === generation) status.textContent = `The model could not run: ${e instanceof Error ? e.message : String(e)}`;
    }
  };
  const go = (to: number) => {
    const i = Math.min(Math.max(0, to), t.steps.length - 1);
    if (i === at) return;
    at = i;
    const q = new URLSearchParams(location.search);
    q.set('step', String(t.steps[at]! + 1));
    history.replaceState(null, '', `?${q.toString()}`);
    void show();
  };
  prev.addEventListener('click', () => go(at - 1));
  next.addEventListener('click', () => go(at + 1));
  document.addEventListener('keydown', (ev) => {
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    // Space on a button or link is that control's own
    const onControl = ev.target instanceof Element && ev.target.closest('button, a');
    const step = STEP_KEYS[ev.key === ' ' && onControl ? '' : ev.key];
    if (step === undefined) return;
    ev.preventDefault();
    go(step === 'first' ? 0 : step === 'last' ? t.steps.length - 1 : at + (ev.key === ' ' && ev.shiftKey ? -1 : step));
  });
  // the figure's colours are the theme's: drawn again when it changes
  document.addEventListener(THEME_EVENT, () => {
    mounted = undefined;
    void show();
  });
  void show();
}

/** the views that draw to the box they are given (the others keep their shape) */
const FILLS = new Set<string>(['pcp', 'lock-timeline', 'mem-map']);

/** A figure of fixed shape is drawn at the frame's scale (CSS zoom, so canvases redraw at the
 * new size): smaller when the frame is smaller, never cut off, and up to twice as large in a
 * frame with room, where it would otherwise sit small in a corner. A figure that fills its box
 * only shrinks. Twice: a figure narrowed by the zoom may be taller. */
async function fitToFrame(box: HTMLElement, section: HTMLElement, grow: boolean): Promise<void> {
  const frame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  section.style.removeProperty('zoom');
  let zoom = 1;
  for (let pass = 0; pass < 2; pass++) {
    await frame();
    const need = section.scrollHeight * zoom;
    const room = box.clientHeight;
    if (need <= 0) return;
    const next = Math.min(grow ? 2 : 1, Math.max(0.5, (zoom * room) / need));
    if (Math.abs(next - zoom) < 0.02) return;
    zoom = next;
    section.style.setProperty('zoom', String(zoom));
  }
}

const STEP_KEYS: Record<string, 1 | -1 | 'first' | 'last'> = {
  ArrowRight: 1,
  ArrowDown: 1,
  PageDown: 1,
  ' ': 1,
  ArrowLeft: -1,
  ArrowUp: -1,
  PageUp: -1,
  Home: 'first',
  End: 'last',
};
