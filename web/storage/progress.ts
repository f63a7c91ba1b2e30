// Lesson progress and answers, kept in localStorage under one key with a schema version, and
// exported / imported as a JSON file so nothing is lost moving machines. Imported files are
// user input: bounded, every field checked, a wrong version refused with a message.

export const PROGRESS_KEY = 'buddylab.progress';
export const PROGRESS_VERSION = 1;
export const PROGRESS_LIMITS = { maxBytes: 256 * 1024, maxLessons: 64, maxAnswers: 64 } as const;

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

export interface Progress {
  version: typeof PROGRESS_VERSION;
  lessons: Record<string, LessonProgress>;
}

export class ProgressError extends Error {
  override name = 'ProgressError';
}

export const emptyProgress = (): Progress => ({ version: PROGRESS_VERSION, lessons: {} });

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Checks a parsed progress document; throws ProgressError saying where and why. */
export function validateProgress(v: unknown): Progress {
  if (!isObj(v)) throw new ProgressError('not a progress file: expected a JSON object');
  if (v['version'] !== PROGRESS_VERSION)
    throw new ProgressError(`version ${JSON.stringify(v['version'])?.slice(0, 20)}: this buddylab reads progress version ${PROGRESS_VERSION}`);
  const lessons = v['lessons'];
  if (!isObj(lessons)) throw new ProgressError('"lessons" must be an object');
  const ids = Object.keys(lessons);
  if (ids.length > PROGRESS_LIMITS.maxLessons) throw new ProgressError(`${ids.length} lessons; the limit is ${PROGRESS_LIMITS.maxLessons}`);
  const out = emptyProgress();
  for (const id of ids) {
    if (!/^[a-z][a-z0-9_-]{0,31}$/.test(id)) throw new ProgressError(`lesson id ${JSON.stringify(id.slice(0, 40))} is not valid`);
    const l = lessons[id];
    if (!isObj(l)) throw new ProgressError(`lessons.${id} must be an object`);
    const reached = l['reached'];
    if (typeof reached !== 'number' || !Number.isInteger(reached) || reached < 0 || reached > 1000)
      throw new ProgressError(`lessons.${id}.reached must be a whole number 0..1000`);
    if (typeof l['done'] !== 'boolean') throw new ProgressError(`lessons.${id}.done must be true or false`);
    const answers = l['answers'];
    if (!isObj(answers)) throw new ProgressError(`lessons.${id}.answers must be an object`);
    const keys = Object.keys(answers);
    if (keys.length > PROGRESS_LIMITS.maxAnswers) throw new ProgressError(`lessons.${id}.answers: more than ${PROGRESS_LIMITS.maxAnswers}`);
    const lp: LessonProgress = { reached, done: l['done'], answers: {} };
    for (const k of keys) {
      const a = answers[k];
      if (!/^\d{1,3}$/.test(k) || !isObj(a) || typeof a['given'] !== 'number' || !Number.isFinite(a['given']) || typeof a['correct'] !== 'boolean')
        throw new ProgressError(`lessons.${id}.answers.${k.slice(0, 8)}: expected { given: number, correct: boolean } under a step number`);
      lp.answers[k] = { given: a['given'], correct: a['correct'] };
    }
    out.lessons[id] = lp;
  }
  return out;
}

export function parseProgress(text: string): Progress {
  if (text.length > PROGRESS_LIMITS.maxBytes) throw new ProgressError(`the file is ${text.length} bytes; the limit is ${PROGRESS_LIMITS.maxBytes}`);
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    throw new ProgressError(`not JSON: ${e instanceof Error ? e.message : String(e)}`);
  }
  return validateProgress(v);
}

/** The store: localStorage when it exists and works, memory otherwise (private windows, tests). */
export class ProgressStore {
  private data: Progress;
  /** why saved progress could not be read, if it could not */
  readonly loadProblem: string | undefined;

  constructor(private readonly storage: Pick<Storage, 'getItem' | 'setItem'> | undefined = safeLocalStorage()) {
    let problem: string | undefined;
    let data = emptyProgress();
    const raw = storage?.getItem(PROGRESS_KEY);
    if (raw) {
      try {
        data = parseProgress(raw);
      } catch (e) {
        problem = `saved progress was ignored: ${e instanceof Error ? e.message : String(e)}`;
      }
    }
    this.data = data;
    this.loadProblem = problem;
  }

  get(id: string): LessonProgress {
    return this.data.lessons[id] ?? { reached: 0, done: false, answers: {} };
  }

  update(id: string, fn: (p: LessonProgress) => void): void {
    const p = structuredClone(this.get(id));
    fn(p);
    this.data.lessons[id] = p;
    this.save();
  }

  exportText(): string {
    return `${JSON.stringify(this.data, null, 1)}\n`;
  }

  /** Replaces everything with an imported file's contents; throws ProgressError and keeps the old data on a bad file. */
  importText(text: string): void {
    this.data = parseProgress(text);
    this.save();
  }

  private save(): void {
    try {
      this.storage?.setItem(PROGRESS_KEY, JSON.stringify(this.data));
    } catch {
      // quota or a disabled store: progress lives on in memory and in the export
    }
  }
}

function safeLocalStorage(): Storage | undefined {
  try {
    return typeof localStorage === 'undefined' ? undefined : localStorage;
  } catch {
    return undefined;
  }
}
