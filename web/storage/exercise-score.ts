// The exercises' score and streak, kept in the one user document of store.ts beside lesson
// progress (so Export / Import carry it): a problem counts once, when it is first checked with
// every question answered; it counts as right when every answer was, and the streak is the run
// of those in a row.
import { Store, StoreError, browserStorage, type ExerciseScore, type KeyValue } from './store';

const EMPTY: ExerciseScore = { score: 0, tried: 0, streak: 0, best: 0, last: '', kinds: {} };

export class ExerciseScoreStore {
  private readonly store: Store;
  private unsaved: ExerciseScore | undefined;
  private saveProblem: string | undefined;

  constructor(kv: KeyValue = browserStorage()) {
    this.store = new Store(kv);
  }

  /** why the score could not be read or kept, if so */
  get problem(): string | undefined {
    return this.store.problem ?? this.saveProblem;
  }

  get(): ExerciseScore {
    return structuredClone(this.unsaved ?? this.store.exercises ?? EMPTY);
  }

  /** Counts a checked problem (once: `id` is kind:seed:level[:preset]); returns the score after. */
  record(id: string, kind: string, allRight: boolean): ExerciseScore {
    const s = this.get();
    if (s.last === id) return s;
    const t = s.kinds[kind] ?? { right: 0, tried: 0 };
    t.tried += 1;
    s.tried += 1;
    if (allRight) {
      t.right += 1;
      s.score += 1;
      s.streak += 1;
      s.best = Math.max(s.best, s.streak);
    } else {
      s.streak = 0;
    }
    s.kinds[kind] = t;
    s.last = id.slice(0, 80);
    try {
      this.store.setExercises(s);
      this.unsaved = undefined;
    } catch (e) {
      if (!(e instanceof StoreError) && !(e instanceof DOMException)) throw e;
      this.unsaved = s;
      this.saveProblem = `the score is not saved in this browser (${e.message})`;
    }
    return s;
  }
}
