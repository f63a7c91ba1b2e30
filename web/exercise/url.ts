// The exercise pages' addresses, in the query string:
//
//   ?exercise=KIND&seed=N&level=L[&preset=P][&student=NAME][&lecture=1]   one problem
//   ?exercises[&kinds=buddy,pcp][&levels=1,2][&count=10][&seed=N][&student=NAME]   a sheet
//
// The core makes the problems (blab exercise, wasm-core/src/exercise/); these parsers only read
// what a link asks for, bounded by the core's own limits, and refuse anything else with a
// message that says which parameter and why: a link is never silently bent into another one.
import { nameProblem } from '../scenario/names';
import { PRESETS } from '../scenario/url';

export const EXERCISE_KINDS = ['buddy', 'pcp', 'watermarks', 'slab', 'result'] as const;
export type ExerciseKind = (typeof EXERCISE_KINDS)[number];

export const EXERCISE_TITLES: Record<ExerciseKind, string> = {
  buddy: 'the buddy allocator: alloc and free on free_area[]',
  pcp: 'per-cpu lists: rmqueue_bulk() and free_pcppages_bulk()',
  watermarks: 'watermarks: zone_watermark_ok() and the zonelist',
  slab: 'SLUB on two CPUs: kmalloc and kfree',
  result: 'reading a result: the compare view',
};

/** the core's bounds (include/blab_exercise.h), and the browser's for a sheet */
export const EXERCISE_LIMITS = {
  seedMax: 4294967295,
  levels: 3,
  nameMax: 80,
  answerMax: 256,
  /** problems on a sheet made in the browser (the CLI makes up to 1000) */
  sheetMax: 100,
  maxQuery: 400,
} as const;

export class ExerciseUrlError extends Error {
  override name = 'ExerciseUrlError';
}

export interface ExerciseRoute {
  kind: ExerciseKind;
  seed: number;
  level: number;
  preset?: string;
  /** a student's name or ID: the problem's seed is then theirs (blab_exercise_student_seed) */
  student?: string;
  lecture: boolean;
}

export interface SheetRoute {
  kinds: ExerciseKind[];
  levels: number[];
  count: number;
  seed: number;
  student?: string;
}

function whole(key: string, raw: string | null, min: number, max: number, def: number): number {
  if (raw === null) return def;
  if (!/^\d{1,10}$/.test(raw)) throw new ExerciseUrlError(`${key}=${raw.slice(0, 24)}: a whole number ${min}..${max}`);
  const v = Number(raw);
  if (v < min || v > max) throw new ExerciseUrlError(`${key}=${raw.slice(0, 24)}: out of range ${min}..${max}`);
  return v;
}

function kindOf(raw: string): ExerciseKind {
  if (!(EXERCISE_KINDS as readonly string[]).includes(raw)) throw new ExerciseUrlError(`${raw.slice(0, 24) || '(none)'} is not a kind of exercise; the kinds: ${EXERCISE_KINDS.join(', ')}`);
  return raw as ExerciseKind;
}

function student(q: URLSearchParams): string | undefined {
  const s = q.get('student');
  if (s === null) return undefined;
  const t = s.trim();
  if (!t || new TextEncoder().encode(t).length > EXERCISE_LIMITS.nameMax) throw new ExerciseUrlError(`student: a name or ID of 1 to ${EXERCISE_LIMITS.nameMax} bytes`);
  const hidden = nameProblem(t);
  if (hidden) throw new ExerciseUrlError(`student: ${hidden}`);
  return t;
}

function known(q: URLSearchParams, keys: readonly string[]): void {
  for (const k of q.keys()) if (!keys.includes(k)) throw new ExerciseUrlError(`unknown parameter "${k.slice(0, 24)}" (known: ${keys.join(', ')})`);
}

export function parseExercise(search: string): ExerciseRoute {
  if (search.length > EXERCISE_LIMITS.maxQuery) throw new ExerciseUrlError(`the address is ${search.length} characters; the limit is ${EXERCISE_LIMITS.maxQuery}`);
  const q = new URLSearchParams(search);
  known(q, ['exercise', 'seed', 'level', 'preset', 'student', 'lecture', 'v', 'embed']);
  const kind = kindOf(q.get('exercise') ?? '');
  const preset = q.get('preset') ?? undefined;
  if (preset !== undefined && !(preset in PRESETS)) throw new ExerciseUrlError(`preset=${preset.slice(0, 24)}: no such preset; the presets: ${Object.keys(PRESETS).join(', ')}`);
  const r: ExerciseRoute = {
    kind,
    seed: whole('seed', q.get('seed'), 0, EXERCISE_LIMITS.seedMax, 0),
    level: whole('level', q.get('level'), 1, EXERCISE_LIMITS.levels, 1),
    lecture: q.get('lecture') === '1',
  };
  if (preset !== undefined) r.preset = preset;
  const s = student(q);
  if (s !== undefined) r.student = s;
  return r;
}

export function exerciseHref(r: Omit<ExerciseRoute, 'lecture'> & { lecture?: boolean }): string {
  const q = new URLSearchParams({ exercise: r.kind, seed: String(r.seed), level: String(r.level) });
  if (r.preset) q.set('preset', r.preset);
  if (r.student) q.set('student', r.student);
  if (r.lecture) q.set('lecture', '1');
  return `?${q.toString()}`;
}

/** `blab exercise` arguments for one problem; checks: [question number, typed answer] */
export function exerciseArgs(r: ExerciseRoute, o: { answers?: boolean; checks?: readonly (readonly [number, string])[] } = {}): string[] {
  const args: string[] = [r.kind, '--seed', String(r.seed), '--level', String(r.level), '--json'];
  if (r.preset) args.push('--preset', r.preset);
  if (r.student) args.push('--student', r.student);
  if (o.answers) args.push('-c');
  for (const [n, typed] of o.checks ?? []) args.push('--check', `${n}=${typed.replace(/[\r\n]+/g, ' ').slice(0, EXERCISE_LIMITS.answerMax)}`);
  return args;
}

function list<T>(key: string, raw: string | null, def: T[], each: (s: string) => T): T[] {
  if (raw === null) return def;
  const items = raw.split(',');
  if (items.length > 8) throw new ExerciseUrlError(`${key}: at most 8 values`);
  const out = items.map(each);
  if (new Set(out).size !== out.length) throw new ExerciseUrlError(`${key}: a value twice`);
  return out;
}

export function parseSheet(search: string): SheetRoute {
  if (search.length > EXERCISE_LIMITS.maxQuery) throw new ExerciseUrlError(`the address is ${search.length} characters; the limit is ${EXERCISE_LIMITS.maxQuery}`);
  const q = new URLSearchParams(search);
  known(q, ['exercises', 'kinds', 'levels', 'count', 'seed', 'student', 'v']);
  const r: SheetRoute = {
    kinds: list('kinds', q.get('kinds'), ['buddy', 'pcp'] as ExerciseKind[], kindOf),
    levels: list('levels', q.get('levels'), [1], (s) => whole('levels', s, 1, EXERCISE_LIMITS.levels, 1)),
    count: whole('count', q.get('count'), 1, EXERCISE_LIMITS.sheetMax, 10),
    seed: whole('seed', q.get('seed'), 0, EXERCISE_LIMITS.seedMax, 1),
  };
  const s = student(q);
  if (s !== undefined) r.student = s;
  return r;
}

export function sheetHref(r: SheetRoute): string {
  const q = new URLSearchParams({ kinds: r.kinds.join(','), levels: r.levels.join(','), count: String(r.count), seed: String(r.seed) });
  if (r.student) q.set('student', r.student);
  return `?exercises&${q.toString()}`;
}

/** `blab exercise --sheet` arguments; format: the JSON (problems and key), or the key as CSV */
export function sheetArgs(r: SheetRoute, format: 'json' | 'csv' | 'markdown'): string[] {
  const args = ['--sheet', '--kind', r.kinds.join(','), '--level', r.levels.join(','), '--count', String(r.count), '--seed', String(r.seed)];
  if (r.student) args.push('--student', r.student);
  if (format !== 'markdown') args.push(`--${format}`);
  return args;
}
