// What a revealed lesson step shows on its stage: the run's player (runplayer.ts) with its
// sentence, moving picture, figures and source pane, and the step's table (step-tables.ts) with
// the capstone's tuner where the table has a tunable configuration; then the prose terms wired to
// the figures, and `data-ready` on the stage once all of it is drawn.
import type { MountedView } from '../views/registry';
import { el } from '../ui/dom';
import type { Lesson, LessonStep, LessonViewId, Preset } from './lesson';
import { runScaleNote, stepFor, type LoadedRun } from './runs';
import { createRunPlayer } from './runplayer';
import { showTable, type StepTableOptions } from './step-tables';
import { createTuner } from './tuner';
import { wireTerms } from './term-pointers';
import type { StepCells } from './step-layout';

/** The preset a run models, for the kernel links (an op script names it on its zone line). */
function presetOf(lesson: Lesson, run: string | undefined): Preset | undefined {
  const r = run ? lesson.runs[run] : undefined;
  if (!r) return undefined;
  if (r.kind === 'sim') return r.config.preset;
  return /\bpreset=(\S+)/.exec(r.script)?.[1] as Preset | undefined;
}

export interface StageOptions extends StepTableOptions {
  /** the lesson's run by name, run once */
  getRun(name: string): Promise<LoadedRun>;
  /** the prose column (its terms point at the figures) and the stage */
  text: HTMLElement;
  stage: HTMLElement;
  /** the moving picture of the current record is shown (not on a slide that left it out) */
  eventShown: boolean;
  /** the step's number, 1-based, for data-ready */
  number: number;
  signal: AbortSignal;
}

/** Fills the stage of a revealed step with its run and its table. */
export async function fillStage(o: StageOptions, step: LessonStep, views: readonly LessonViewId[], c: StepCells): Promise<void> {
  const { lesson } = o;
  const msg = el('p', { class: 'status', role: 'status' });
  c.stageHead.append(msg);
  let mounted: readonly MountedView[] = [];
  try {
    if (step.run) {
      msg.textContent = 'the core is running…';
      const run = await o.getRun(step.run);
      if (!o.current()) return;
      const rp = createRunPlayer({
        run,
        label: `${lesson.id}/${step.run}`,
        file: `${lesson.id}-${step.run}`,
        preset: presetOf(lesson, step.run),
        stop: stepFor(run.player, step.at),
        views,
        placeView: (id) => c.cellOf(views.indexOf(id as LessonViewId)),
        eventInto: o.eventShown ? c.stageHead : undefined,
        highlight: step.highlight,
        jumpKind: step.at.kind === 'event' ? step.at.event : undefined,
        signal: o.signal,
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
      const r = await showTable(o, step.table, where);
      if (!r || !o.current()) return;
      const tunable = t.configs.findIndex((k) => k.tunable);
      if (tunable > 0) where.append(createTuner({ ...o, name: step.table, first: r, tunable, where }));
    }
    msg.remove();
    wireTerms(o.text, mounted, o.signal);
    // tests and lecture tooling wait for this: the step's run and table are drawn
    o.stage.dataset['ready'] = String(o.number);
  } catch (e) {
    if (o.current()) msg.textContent = `the model could not run: ${e instanceof Error ? e.message : String(e)}`;
  }
}
