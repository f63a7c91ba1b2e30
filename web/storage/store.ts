// What a user makes and must not lose: saved scenarios (and, for the lessons, progress per
// lesson), in one versioned localStorage document. Loading validates every field, runs the
// migrations from the stored schema version up to SCHEMA_VERSION, and never throws away data it
// cannot read: a corrupt document is kept under BACKUP_KEY, a newer one is left untouched.
//
// The document is also what "Export" writes and "Import" reads, so a file from an older
// version goes through the same migrations.
import { nameProblem } from '../scenario/names';
import { IMPORT_LIMITS } from '../scenario/limits';
import { UrlStateError, formatHash, parseHash, type Scenario } from '../scenario/url';

export const STORAGE_KEY = 'buddylab';
export const BACKUP_KEY = 'buddylab.unreadable';
/** Bump when the document's shape changes, and add the step to MIGRATIONS. */
export const SCHEMA_VERSION = 1;
export const STORE_LIMITS = { maxScenarios: 200, maxNameLength: 80, maxLessons: 500, maxAnswers: 64 } as const;

export interface SavedScenario {
  name: string;
  scenario: Scenario;
  /** ISO time */
  savedAt: string;
}

/** Progress through one lesson (web/lessons/ owns what the step means). */
export interface LessonProgress {
  step: number;
  done: boolean;
  /** predict answers by step index (0-based): the choice index or the number given */
  answers?: Record<string, { given: number; correct: boolean }>;
}

export interface StoreDoc {
  schema: number;
  scenarios: SavedScenario[];
  lessons: Record<string, LessonProgress>;
}

/** A step from schema N to N + 1: takes the old document as parsed JSON, returns the new one. */
export type Migration = (doc: Record<string, unknown>) => Record<string, unknown>;
/** MIGRATIONS[n] turns a version-n document into version n + 1. None yet: version 1 is the first. */
export const MIGRATIONS: Record<number, Migration> = {};

export class StoreError extends Error {
  override name = 'StoreError';
}

export function emptyDoc(): StoreDoc {
  return { schema: SCHEMA_VERSION, scenarios: [], lessons: {} };
}

/** Runs the migrations from doc.schema to `target`. */
export function migrate(doc: Record<string, unknown>, migrations = MIGRATIONS, target = SCHEMA_VERSION): Record<string, unknown> {
  let d = doc;
  let v = d['schema'];
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1) throw new StoreError(`schema: expected a version number, found ${JSON.stringify(v)?.slice(0, 20)}`);
  if (v > target) throw new StoreError(`schema ${v} was written by a newer buddylab (this one reads up to ${target})`);
  while (v < target) {
    const step = migrations[v];
    if (!step) throw new StoreError(`no migration from schema ${v}`);
    d = step(d);
    v += 1;
    if (d['schema'] !== v) throw new StoreError(`the migration to schema ${v} did not set schema = ${v}`);
  }
  return d;
}

function checkScenario(raw: unknown, where: string): Scenario {
  if (typeof raw !== 'object' || raw === null) throw new StoreError(`${where}: expected an object`);
  const r = raw as Record<string, unknown>;
  // the URL parser holds every rule for a scenario: go through it
  const parts = ['pages', 'cpus', 'preset', 'workload', 'seed'].map((k) => {
    const v = r[k];
    if (typeof v !== 'number' && typeof v !== 'string') throw new StoreError(`${where}.${k}: missing`);
    return `${k}=${encodeURIComponent(String(v))}`;
  });
  // optional: a scenario saved before the option existed has none (the preset's own)
  const scale = r['pcpBatchScaleMax'];
  if (scale !== undefined) {
    if (typeof scale !== 'number') throw new StoreError(`${where}.pcpBatchScaleMax: not a number`);
    parts.push(`pcp_batch_scale_max=${scale}`);
  }
  try {
    return parseHash(parts.join('&')).scenario;
  } catch (e) {
    if (e instanceof UrlStateError) throw new StoreError(`${where}: ${e.message}`);
    throw e;
  }
}

/** A lesson's predict answers: at most STORE_LIMITS.maxAnswers, keyed by step number. */
function checkAnswers(raw: unknown, where: string): Record<string, { given: number; correct: boolean }> {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new StoreError(`${where}: expected an object`);
  const out: Record<string, { given: number; correct: boolean }> = {};
  const entries = Object.entries(raw as Record<string, unknown>);
  if (entries.length > STORE_LIMITS.maxAnswers) throw new StoreError(`${where}: ${entries.length}; the limit is ${STORE_LIMITS.maxAnswers}`);
  for (const [k, v] of entries) {
    const a = v as Record<string, unknown> | null;
    if (!/^\d{1,3}$/.test(k) || typeof a !== 'object' || a === null || typeof a['given'] !== 'number' || !Number.isFinite(a['given']) || typeof a['correct'] !== 'boolean')
      throw new StoreError(`${where}.${k.slice(0, 8)}: expected { given: number, correct: true|false } under a step number`);
    out[k] = { given: a['given'], correct: a['correct'] };
  }
  return out;
}

/** Validates a current-schema document; every problem names where it is. */
export function validate(d: Record<string, unknown>): StoreDoc {
  const doc = emptyDoc();
  const sc = d['scenarios'] ?? [];
  if (!Array.isArray(sc)) throw new StoreError('scenarios: expected a list');
  if (sc.length > STORE_LIMITS.maxScenarios) throw new StoreError(`scenarios: ${sc.length} saved; the limit is ${STORE_LIMITS.maxScenarios}`);
  sc.forEach((s: unknown, i) => {
    const where = `scenarios[${i}]`;
    if (typeof s !== 'object' || s === null) throw new StoreError(`${where}: expected an object`);
    const o = s as Record<string, unknown>;
    const name = o['name'];
    if (typeof name !== 'string' || name.trim() === '' || name.length > STORE_LIMITS.maxNameLength) {
      throw new StoreError(`${where}.name: expected 1 to ${STORE_LIMITS.maxNameLength} characters`);
    }
    const hidden = nameProblem(name);
    if (hidden) throw new StoreError(`${where}.name: ${hidden}`);
    const savedAt = typeof o['savedAt'] === 'string' && !Number.isNaN(Date.parse(o['savedAt'])) ? o['savedAt'] : new Date(0).toISOString();
    doc.scenarios.push({ name, scenario: checkScenario(o['scenario'], `${where}.scenario`), savedAt });
  });
  const ls = d['lessons'] ?? {};
  if (typeof ls !== 'object' || ls === null || Array.isArray(ls)) throw new StoreError('lessons: expected an object');
  const entries = Object.entries(ls as Record<string, unknown>);
  if (entries.length > STORE_LIMITS.maxLessons) throw new StoreError(`lessons: ${entries.length}; the limit is ${STORE_LIMITS.maxLessons}`);
  for (const [id, p] of entries) {
    const q = p as Record<string, unknown> | null;
    if (!/^[a-z0-9][a-z0-9._-]{0,63}$/.test(id)) throw new StoreError(`lessons: "${id.slice(0, 40)}" is not a lesson id`);
    if (typeof q !== 'object' || q === null || !Number.isInteger(q['step']) || (q['step'] as number) < 0 || typeof q['done'] !== 'boolean') {
      throw new StoreError(`lessons.${id}: expected { step: whole number, done: true|false }`);
    }
    doc.lessons[id] = { step: q['step'] as number, done: q['done'] };
    if (q['answers'] !== undefined) doc.lessons[id]!.answers = checkAnswers(q['answers'], `lessons.${id}.answers`);
  }
  return doc;
}

/** Parses a stored or imported document: JSON, migrations, validation. */
export function parseDoc(text: string, migrations = MIGRATIONS, target = SCHEMA_VERSION): StoreDoc {
  if (text.length > IMPORT_LIMITS.maxScenarioFileBytes) {
    throw new StoreError(`the document is ${text.length.toLocaleString('en')} characters; the limit is ${IMPORT_LIMITS.maxScenarioFileBytes.toLocaleString('en')}`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new StoreError(`not JSON: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new StoreError('expected a JSON object with a schema number');
  return validate(migrate(raw as Record<string, unknown>, migrations, target));
}

export interface KeyValue {
  getItem(k: string): string | null;
  setItem(k: string, v: string): void;
}

/** The store over localStorage (or any KeyValue, in tests). */
export class Store {
  private doc: StoreDoc;
  /** set when the stored document could not be used: why, in words */
  readonly problem: string | undefined;
  private readOnly = false;

  constructor(private readonly kv: KeyValue) {
    let problem: string | undefined;
    let doc = emptyDoc();
    let text: string | null = null;
    try {
      text = kv.getItem(STORAGE_KEY);
    } catch {
      problem = 'the browser refuses local storage here: saved scenarios last until the page closes';
    }
    if (text !== null) {
      try {
        doc = parseDoc(text);
      } catch (e) {
        const why = e instanceof Error ? e.message : String(e);
        if (/newer buddylab/.test(why)) {
          this.readOnly = true;
          problem = `Saved data ${why}: it is left untouched, and nothing is saved from this page.`;
        } else {
          try {
            kv.setItem(BACKUP_KEY, text);
          } catch {
            /* the backup is best effort */
          }
          problem = `Saved data could not be read (${why}); it was kept in localStorage["${BACKUP_KEY}"] and a fresh store started.`;
        }
      }
    }
    this.doc = doc;
    this.problem = problem;
  }

  get scenarios(): readonly SavedScenario[] {
    return this.doc.scenarios;
  }

  lesson(id: string): LessonProgress | undefined {
    return this.doc.lessons[id];
  }

  saveScenario(name: string, scenario: Scenario): void {
    const n = name.trim();
    if (n === '' || n.length > STORE_LIMITS.maxNameLength) throw new StoreError(`a name is 1 to ${STORE_LIMITS.maxNameLength} characters`);
    const hidden = nameProblem(n);
    if (hidden) throw new StoreError(`the name is refused: ${hidden}`);
    const rest = this.doc.scenarios.filter((s) => s.name !== n);
    if (rest.length >= STORE_LIMITS.maxScenarios) throw new StoreError(`${STORE_LIMITS.maxScenarios} scenarios are saved already: delete one first`);
    this.commit({ ...this.doc, scenarios: [...rest, { name: n, scenario: { ...scenario }, savedAt: new Date().toISOString() }] });
  }

  deleteScenario(name: string): void {
    this.commit({ ...this.doc, scenarios: this.doc.scenarios.filter((s) => s.name !== name) });
  }

  setLesson(id: string, p: LessonProgress): void {
    const next = { ...this.doc, lessons: { ...this.doc.lessons, [id]: p } };
    this.commit(validate(next as unknown as Record<string, unknown>));
  }

  /** The whole document as a file's text (what Import reads back). */
  exportText(): string {
    return `${JSON.stringify(this.doc, null, 2)}\n`;
  }

  /** Merges an exported document in: same-named scenarios are replaced. Returns how many came in. */
  importText(text: string): number {
    const d = parseDoc(text);
    const names = new Set(d.scenarios.map((s) => s.name));
    const scenarios = [...this.doc.scenarios.filter((s) => !names.has(s.name)), ...d.scenarios];
    if (scenarios.length > STORE_LIMITS.maxScenarios) throw new StoreError(`that would make ${scenarios.length} scenarios; the limit is ${STORE_LIMITS.maxScenarios}`);
    this.commit({ schema: SCHEMA_VERSION, scenarios, lessons: { ...this.doc.lessons, ...d.lessons } });
    return d.scenarios.length;
  }

  private commit(next: StoreDoc): void {
    if (this.readOnly) throw new StoreError('saved data from a newer buddylab is here: this page does not overwrite it');
    this.kv.setItem(STORAGE_KEY, JSON.stringify(next)); // throws (quota) before the memory copy changes
    this.doc = next;
  }
}

/** A scenario as the link that opens it. */
export const scenarioHash = (s: Scenario) => formatHash({ scenario: s, step: 0 });

/** localStorage, or (where the browser refuses it) a store that keeps nothing and says so. */
export function browserStorage(): KeyValue {
  try {
    const ls = window.localStorage;
    ls.getItem(STORAGE_KEY);
    return ls;
  } catch {
    return {
      getItem: () => {
        throw new Error('no local storage');
      },
      setItem: () => {
        throw new StoreError('this browser refuses local storage here: export your scenarios to a file to keep them');
      },
    };
  }
}
