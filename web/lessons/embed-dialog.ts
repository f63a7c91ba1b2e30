// The lesson page's Embed button: a dialog that writes the <iframe> of one of the lesson's
// figures at one step (embed-url.ts, shown by embed-page.ts) for a course page, and exports a
// range of steps as an animated GIF (web/ui/animated-export.ts) for slides that cannot show a
// page. The figure's SVG and PNG buttons on the page stay as they are.
import { el } from '../ui/dom';
import { download } from '../ui/download';
import { svgsToGif } from '../ui/animated-export';
import { viewTitle } from '../views/registry';
import type { Lesson, LessonViewId } from './lesson';
import { embedHref, iframeSnippet, stepsShowing } from './embed-url';
import { stepFigureSvgs, type GetRun } from './step-figure';
import './embed.css';

const SIZES = [
  [640, 400],
  [960, 600],
  [1280, 720],
] as const;
const SECONDS = [1, 2, 3, 5] as const;
/** the CSS width each GIF frame's figure is laid out at */
const FRAME_WIDTH = 760;

export interface EmbedDialogOptions {
  lesson: Lesson;
  /** the step the page shows, 0-based */
  current(): number;
  /** runs the lesson's run anew: the export seeks its own players, never the page's */
  loadRun: GetRun;
}

/** The lesson's figures, in the order its steps first show them. */
function figuresOf(lesson: Lesson): LessonViewId[] {
  return [...new Set(lesson.steps.filter((s) => s.run).flatMap((s) => s.views))];
}

/** a figure's name without its subtitle: "pcp lists", not the struct it draws */
const shortTitle = (v: LessonViewId) => viewTitle(v).split(':')[0]!;

const select = (id: string, label: string) => {
  const s = el('select', { id });
  return { s, row: el('div', { class: 'field' }, el('label', { for: id, text: label }), s) };
};

function fillSteps(sel: HTMLSelectElement, lesson: Lesson, steps: readonly number[], pick: number): void {
  sel.replaceChildren(...steps.map((i) => el('option', { value: i, text: `${i + 1}. ${lesson.steps[i]!.title}` })));
  sel.value = String(steps.includes(pick) ? pick : steps[0]);
}

/** The Embed button; its dialog is built on the first click. */
export function embedButton(o: EmbedDialogOptions): HTMLButtonElement {
  const b = el('button', { type: 'button', class: 'small embed-open-dialog', text: 'Embed', 'aria-haspopup': 'dialog', 'aria-label': 'Embed a figure in a course page or export steps as an animated image' });
  let d: ReturnType<typeof buildDialog> | undefined;
  b.addEventListener('click', () => {
    d ??= buildDialog(o);
    d.open();
  });
  if (!figuresOf(o.lesson).length) b.hidden = true;
  return b;
}

function buildDialog(o: EmbedDialogOptions) {
  const { lesson } = o;
  const runs = new Map<string, ReturnType<GetRun>>();
  const getRun: GetRun = (name) => {
    let r = runs.get(name);
    if (!r) runs.set(name, (r = o.loadRun(name)));
    return r;
  };
  const dialog = el('dialog', { class: 'embed-dialog', 'aria-labelledby': 'embed-dialog-title' });
  const fig = select('embed-view', 'Figure');
  for (const v of figuresOf(lesson)) fig.s.append(el('option', { value: v, text: shortTitle(v) }));
  const step = select('embed-step', 'At step');
  const size = select('embed-size', 'Frame size');
  for (const [w, h] of SIZES) size.s.append(el('option', { value: `${w}x${h}`, text: `${w} × ${h}` }));
  const theme = select('embed-theme', 'Theme');
  theme.s.append(el('option', { value: '', text: 'the viewer’s' }), el('option', { value: 'light', text: 'light' }), el('option', { value: 'dark', text: 'dark' }));
  const code = el('textarea', { id: 'embed-code', class: 'embed-code', readonly: true, rows: 4, spellcheck: 'false' });
  const copy = el('button', { type: 'button', text: 'Copy' });
  const said = el('span', { class: 'embed-said', role: 'status' });
  const preview = el('a', { target: '_blank', rel: 'noopener', text: 'Open the embedded figure ↗' });

  const first = select('gif-first', 'First step');
  const last = select('gif-last', 'Last step');
  const secs = select('gif-seconds', 'Seconds a step');
  for (const s of SECONDS) secs.s.append(el('option', { value: s, text: String(s) }));
  secs.s.value = '2';
  const gif = el('button', { type: 'button', class: 'gif-export', text: 'Export GIF' });
  const gifSaid = el('p', { class: 'embed-said gif-said', role: 'status' });
  const close = el('button', { type: 'button', class: 'embed-close', text: 'Close' });

  dialog.append(
    el('h2', { id: 'embed-dialog-title', text: 'Embed a figure' }),
    el('p', { class: 'hint', text: 'One figure at one step, for a course page: the frame steps through this lesson’s steps with that figure (arrow keys, PageUp / PageDown, Space).' }),
    el('div', { class: 'embed-fields' }, fig.row, step.row, size.row, theme.row),
    el('label', { for: 'embed-code', text: 'HTML to paste' }),
    code,
    el('div', { class: 'embed-actions' }, copy, preview, said),
    el(
      'fieldset',
      { class: 'embed-gif' },
      el('legend', { text: 'Animated GIF, for slides that cannot show a page' }),
      el('div', { class: 'embed-fields' }, first.row, last.row, secs.row),
      el('div', { class: 'embed-actions' }, gif),
      gifSaid,
    ),
    el('div', { class: 'embed-actions embed-foot' }, close),
  );
  document.body.append(dialog);

  const view = () => fig.s.value as LessonViewId;
  const steps = () => stepsShowing(lesson, view());
  const write = () => {
    const [w, h] = size.s.value.split('x').map(Number) as [number, number];
    const t = theme.s.value === 'light' || theme.s.value === 'dark' ? theme.s.value : undefined;
    const url = new URL(embedHref(view(), lesson.id, Number(step.s.value) + 1, t), location.href).href;
    code.value = iframeSnippet(url, `buddylab: ${shortTitle(view())}, lesson ${lesson.number}, step ${Number(step.s.value) + 1}`, w, h);
    preview.href = url;
    said.textContent = '';
  };
  const refill = (pick: number) => {
    const s = steps();
    fillSteps(step.s, lesson, s, pick);
    fillSteps(first.s, lesson, s, s[0]!);
    fillSteps(last.s, lesson, s, s[s.length - 1]!);
    write();
  };
  fig.s.addEventListener('change', () => refill(o.current()));
  for (const s of [step.s, size.s, theme.s]) s.addEventListener('change', write);
  copy.addEventListener('click', async () => {
    code.select();
    try {
      await navigator.clipboard.writeText(code.value);
      said.textContent = 'Copied.';
    } catch {
      said.textContent = 'Selected: copy it with Ctrl+C.';
    }
  });
  gif.addEventListener('click', () => void exportGif({ lesson, getRun, view: view(), from: Number(first.s.value), to: Number(last.s.value), seconds: Number(secs.s.value), button: gif, said: gifSaid }));
  close.addEventListener('click', () => dialog.close());

  return {
    open() {
      const cur = lesson.steps[o.current()];
      // the figure the shown step is about, when it has one
      const own = cur?.run ? (cur.highlight ?? cur.views[0]) : undefined;
      if (own) fig.s.value = own;
      refill(o.current());
      dialog.showModal();
    },
  };
}

interface GifRequest {
  lesson: Lesson;
  getRun: GetRun;
  view: LessonViewId;
  from: number;
  to: number;
  seconds: number;
  button: HTMLButtonElement;
  said: HTMLElement;
}

async function exportGif(r: GifRequest): Promise<void> {
  const [a, b] = r.from <= r.to ? [r.from, r.to] : [r.to, r.from];
  const indices = stepsShowing(r.lesson, r.view).filter((i) => i >= a && i <= b);
  r.button.disabled = true;
  try {
    const { svgs, background } = await stepFigureSvgs(r.getRun, r.lesson, r.view, indices, FRAME_WIDTH, (k, n) => {
      r.said.textContent = `drawing step ${indices[k]! + 1} (${k + 1} of ${n})…`;
    });
    const blob = await svgsToGif(svgs, {
      delayMs: r.seconds * 1000,
      background,
      onFrame: (k, n) => {
        r.said.textContent = `encoding frame ${k} of ${n}…`;
      },
    });
    const name = `buddylab-${r.lesson.id}-${r.view}-steps-${a + 1}-${b + 1}.gif`;
    download(blob, name);
    r.said.textContent = `Saved ${name}: ${svgs.length} frame${svgs.length === 1 ? '' : 's'}, ${r.seconds} s each, ${Math.round(blob.size / 1024)} KB.`;
  } catch (e) {
    r.said.textContent = `Not exported: ${e instanceof Error ? e.message : String(e)}`;
  } finally {
    r.button.disabled = false;
  }
}
