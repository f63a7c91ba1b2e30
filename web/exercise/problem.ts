// A problem as the core prints it with --json (wasm-core/src/exercise/ex_print.c), read
// defensively: every field checked, so a page never draws from a shape it did not expect.
import { EXERCISE_KINDS, type ExerciseKind } from './url';

export type AnswerForm = 'number' | 'pfn' | 'buddyinfo' | 'yesno' | 'choice' | 'list' | 'object';

export interface Question {
  n: number;
  text: string;
  form: AnswerForm;
  /** what an answer of the form looks like, for the student */
  hint: string;
  width?: number;
  choices?: string[];
}

export interface Answer {
  n: number;
  answer: string;
  /** the working, one step a line, by kernel function */
  working: string[];
  /** the replay's records that show it: [from, to) */
  events: [number, number];
}

/** What --check said of a typed answer. */
export interface Mark {
  n: number;
  mark: 'right' | 'wrong' | 'malformed';
  /** malformed: the form the answer must take */
  say?: string;
  /** wrong: the core's answer, its working and records */
  answer?: string;
  working?: string[];
  events?: [number, number];
}

export interface Problem {
  kind: ExerciseKind;
  seed: number;
  level: number;
  preset: string;
  title: string;
  statement: string;
  /** the problem as a blab replay op script; "" for the result kind */
  ops: string;
  /** records of ops' replay before the problem's own ops run: the state it states */
  setupEvents: number;
  /** view registry ids the page draws */
  views: string[];
  questions: Question[];
  answers?: Answer[];
  marks?: Mark[];
  /** the result kind: the compare view's link and the native command */
  compare?: string;
  sim?: string;
}

export class ProblemError extends Error {
  override name = 'ProblemError';
}

const FORMS: readonly AnswerForm[] = ['number', 'pfn', 'buddyinfo', 'yesno', 'choice', 'list', 'object'];

function str(o: Record<string, unknown>, k: string, where: string): string {
  const v = o[k];
  if (typeof v !== 'string') throw new ProblemError(`${where}.${k}: expected text`);
  return v;
}
function int(o: Record<string, unknown>, k: string, where: string): number {
  const v = o[k];
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) throw new ProblemError(`${where}.${k}: expected a whole number`);
  return v;
}
function lines(v: unknown, where: string): string[] {
  if (!Array.isArray(v) || v.some((l) => typeof l !== 'string')) throw new ProblemError(`${where}: expected lines of text`);
  return v as string[];
}
function range(v: unknown, where: string): [number, number] {
  if (!Array.isArray(v) || v.length !== 2 || !v.every((x) => Number.isInteger(x) && x >= 0)) throw new ProblemError(`${where}: expected [from, to]`);
  return [v[0] as number, v[1] as number];
}

function question(raw: unknown, i: number): Question {
  const where = `questions[${i}]`;
  if (typeof raw !== 'object' || raw === null) throw new ProblemError(`${where}: expected an object`);
  const o = raw as Record<string, unknown>;
  const form = str(o, 'form', where) as AnswerForm;
  if (!FORMS.includes(form)) throw new ProblemError(`${where}.form: ${form.slice(0, 16)} is no answer form`);
  const q: Question = { n: int(o, 'n', where), text: str(o, 'text', where), form, hint: str(o, 'hint', where) };
  if (o['width'] !== undefined) q.width = int(o, 'width', where);
  if (o['choices'] !== undefined) q.choices = lines(o['choices'], `${where}.choices`);
  if (form === 'choice' && !q.choices?.length) throw new ProblemError(`${where}: a choice question without choices`);
  return q;
}

function answer(raw: unknown, i: number): Answer {
  const where = `answers[${i}]`;
  if (typeof raw !== 'object' || raw === null) throw new ProblemError(`${where}: expected an object`);
  const o = raw as Record<string, unknown>;
  return { n: int(o, 'n', where), answer: str(o, 'answer', where), working: lines(o['working'], `${where}.working`), events: range(o['events'], `${where}.events`) };
}

function mark(raw: unknown, i: number): Mark {
  const where = `marks[${i}]`;
  if (typeof raw !== 'object' || raw === null) throw new ProblemError(`${where}: expected an object`);
  const o = raw as Record<string, unknown>;
  const m = str(o, 'mark', where);
  if (m !== 'right' && m !== 'wrong' && m !== 'malformed') throw new ProblemError(`${where}.mark: ${m.slice(0, 16)}`);
  const out: Mark = { n: int(o, 'n', where), mark: m };
  if (o['say'] !== undefined) out.say = str(o, 'say', where);
  if (o['answer'] !== undefined) out.answer = str(o, 'answer', where);
  if (o['working'] !== undefined) out.working = lines(o['working'], `${where}.working`);
  if (o['events'] !== undefined) out.events = range(o['events'], `${where}.events`);
  return out;
}

/** One problem object (a line of `blab exercise --json`, or an element of a sheet's problems). */
export function readProblem(raw: unknown): Problem {
  if (typeof raw !== 'object' || raw === null) throw new ProblemError('expected a JSON object');
  const o = raw as Record<string, unknown>;
  const qs = o['questions'];
  if (!Array.isArray(qs) || qs.length < 1 || qs.length > 8) throw new ProblemError('questions: expected 1 to 8');
  const kind = str(o, 'kind', 'problem');
  if (!(EXERCISE_KINDS as readonly string[]).includes(kind)) throw new ProblemError(`problem.kind: ${kind.slice(0, 16)} is no kind of exercise`);
  const level = int(o, 'level', 'problem');
  if (level < 1 || level > 3) throw new ProblemError(`problem.level: ${level} is not 1, 2 or 3`);
  const p: Problem = {
    kind: kind as ExerciseKind,
    seed: int(o, 'seed', 'problem'),
    level,
    preset: str(o, 'preset', 'problem'),
    title: str(o, 'title', 'problem'),
    statement: str(o, 'statement', 'problem'),
    ops: str(o, 'ops', 'problem'),
    setupEvents: int(o, 'setup_events', 'problem'),
    views: str(o, 'views', 'problem').split(',').filter(Boolean),
    questions: qs.map(question),
  };
  if (Array.isArray(o['answers'])) p.answers = o['answers'].map(answer);
  if (Array.isArray(o['marks'])) p.marks = o['marks'].map(mark);
  if (typeof o['compare'] === 'string') p.compare = o['compare'];
  if (typeof o['sim'] === 'string') p.sim = o['sim'];
  return p;
}

/** What `blab exercise ... --json` printed: one problem. */
export function parseProblem(stdout: string): Problem {
  let raw: unknown;
  try {
    raw = JSON.parse(stdout);
  } catch (e) {
    throw new ProblemError(`the core's answer is not JSON: ${e instanceof Error ? e.message : String(e)}`);
  }
  return readProblem(raw);
}

export interface Sheet {
  seed: number;
  count: number;
  student?: string;
  problems: Problem[];
}

export function parseSheet(stdout: string): Sheet {
  let raw: unknown;
  try {
    raw = JSON.parse(stdout);
  } catch (e) {
    throw new ProblemError(`the core's sheet is not JSON: ${e instanceof Error ? e.message : String(e)}`);
  }
  const o = raw as { sheet?: Record<string, unknown>; problems?: unknown };
  if (typeof o !== 'object' || o === null || typeof o.sheet !== 'object' || o.sheet === null || !Array.isArray(o.problems)) throw new ProblemError('expected { sheet, problems }');
  const s: Sheet = { seed: int(o.sheet, 'seed', 'sheet'), count: int(o.sheet, 'count', 'sheet'), problems: o.problems.map(readProblem) };
  if (typeof o.sheet['student'] === 'string') s.student = o.sheet['student'];
  return s;
}

/** The statement as blocks: prose paragraphs, and the indented listings the core prints. */
export function statementBlocks(text: string): { code: boolean; text: string }[] {
  const out: { code: boolean; text: string }[] = [];
  for (const line of text.split('\n')) {
    const code = line.startsWith('  ');
    const last = out.at(-1);
    if (line.trim() === '') {
      if (last && last.text !== '') out.push({ code: false, text: '' });
      continue;
    }
    if (last && last.text !== '' && last.code === code) last.text += `\n${line}`;
    else if (last && last.text === '') {
      last.code = code;
      last.text = line;
    } else out.push({ code, text: line });
  }
  return out.filter((b) => b.text !== '').map((b) => (b.code ? b : { code: false, text: b.text.replace(/\n/g, ' ') }));
}
