// Lesson progress and answers for the lesson pages, kept in the one versioned user document of
// store.ts (localStorage, migrations, export / import as a file). This adapter only speaks the
// lessons' words: the furthest step reached, done, and the answer given at each predict step.
import { Store, StoreError, browserStorage, type KeyValue } from './store';

export interface StepAnswer {
  /** the choice index, or the number given */
  given: number;
  correct: boolean;
}

export interface LessonProgress {
  /** the furthest step reached, 0-based */
  reached: number;
  done: boolean;
  /** answers by step index */
  answers: Record<string, StepAnswer>;
}

export class ProgressStore {
  private readonly store: Store;
  /** progress the browser would not save (storage refused or full): kept for this page */
  private readonly unsaved = new Map<string, LessonProgress>();
  private saveProblem: string | undefined;

  constructor(kv: KeyValue = browserStorage()) {
    this.store = new Store(kv);
  }

  /** why saved progress could not be read or written, if so */
  get loadProblem(): string | undefined {
    return this.store.problem ?? this.saveProblem;
  }

  get(id: string): LessonProgress {
    const mem = this.unsaved.get(id);
    if (mem) return mem;
    const p = this.store.lesson(id);
    return { reached: p?.step ?? 0, done: p?.done ?? false, answers: { ...(p?.answers ?? {}) } };
  }

  update(id: string, fn: (p: LessonProgress) => void): void {
    const p = structuredClone(this.get(id));
    fn(p);
    try {
      this.store.setLesson(id, { step: p.reached, done: p.done, answers: p.answers });
      this.unsaved.delete(id);
    } catch (e) {
      if (!(e instanceof StoreError) && !(e instanceof DOMException)) throw e;
      this.unsaved.set(id, p);
      this.saveProblem = `progress is not saved in this browser (${e.message}): export it to keep it`;
    }
  }

  /** The user document (progress and saved scenarios), as the file Import reads back. */
  exportText(): string {
    return this.store.exportText();
  }

  /** Merges an exported file in; throws StoreError with the reason and changes nothing on a bad file. */
  importText(text: string): void {
    this.store.importText(text);
    this.unsaved.clear();
  }
}
