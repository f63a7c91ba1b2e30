// One figure of a lesson step, away from the lesson page: the data its view draws at the record
// the step stops at (an embedded figure, and each frame of an animated export). The step's run
// is the lesson's own, replayed by the core as the lesson page replays it.
import { el } from '../ui/dom';
import { mountView, viewTitle, type ViewData } from '../views/registry';
import type { Lesson, LessonStep, LessonViewId } from './lesson';
import { stepFor, type LoadedRun } from './runs';

export type GetRun = (name: string) => Promise<LoadedRun>;

/** What a step's views draw: its run's player sought to the record the step stops at. The
 * player is the run's one player, so draw from it before another step seeks it. */
export function stepViewData(run: LoadedRun, step: LessonStep): ViewData {
  run.player.seek(stepFor(run.player, step.at));
  return { player: run.player, pcp: run.pcp, ...(run.latency ? { latency: run.latency } : {}) };
}

/** The view data of step `index` (0-based), its run loaded first (stepViewData()). */
export async function stepFigureData(getRun: GetRun, lesson: Lesson, index: number): Promise<ViewData> {
  const step = lesson.steps[index];
  if (!step?.run) throw new Error(`step ${index + 1} of lesson "${lesson.id}" has no run to draw`);
  return stepViewData(await getRun(step.run), step);
}

/** What a frame of the figure says it is: the figure, the lesson and the step. */
export function stepFigureTitle(lesson: Lesson, view: LessonViewId, index: number): string {
  return `${viewTitle(view)} — lesson ${lesson.number}, step ${index + 1}: ${lesson.steps[index]!.title}`;
}

/** The figure of each step, as vector SVG drawn off screen at `width` CSS pixels, with the
 * panel's background colour (an animated image has no page behind it). */
export async function stepFigureSvgs(
  getRun: GetRun,
  lesson: Lesson,
  view: LessonViewId,
  indices: readonly number[],
  width: number,
  onStep?: (done: number, of: number) => void,
): Promise<{ svgs: string[]; background: string }> {
  const host = el('div', { class: 'lesson-page figure-frames', 'aria-hidden': 'true' });
  host.style.cssText = `position:fixed;left:-100000px;top:0;width:${width}px`;
  document.body.append(host);
  const svgs: string[] = [];
  let background = '';
  try {
    for (const i of indices) {
      onStep?.(svgs.length, indices.length);
      const d = await stepFigureData(getRun, lesson, i);
      host.replaceChildren();
      const v = mountView(host, view, { prefix: 'frame', heading: 'short', legend: true });
      v.update(d);
      // a canvas view sizes itself on the frame after it is placed
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      v.update(d);
      background ||= getComputedStyle(v.section).backgroundColor;
      svgs.push(v.exportSvg(stepFigureTitle(lesson, view, i)));
    }
  } finally {
    host.remove();
  }
  return { svgs, background };
}
