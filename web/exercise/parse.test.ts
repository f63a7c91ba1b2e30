// The page's reading of `blab exercise --json`, without a build: the goldens the core's own
// tests hold it to (wasm-core/tests/exercise/*.out: a problem with its answers, a check's
// marks, a sheet) parse into the shapes the page draws from, and any other shape is refused
// saying where. problem.test.ts runs the built CLI for every kind and level.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseProblem, parseSheet, ProblemError, readProblem, statementBlocks } from './problem';

const goldens = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'wasm-core', 'tests', 'exercise');
/** a golden's standard output (run-exercise.sh puts stderr and the exit status after it) */
const stdout = (name: string) => readFileSync(join(goldens, `${name}.out`), 'utf8').split('\n--- stderr\n')[0]!;

describe('what the core prints, read by the page', () => {
  it('a problem with its answers, their working and the records that show it', () => {
    const p = parseProblem(stdout('json'));
    expect(p).toMatchObject({ kind: 'buddy', seed: 2, level: 2, preset: 'v5.18' });
    expect(p.questions.map((q) => q.form)).toEqual(['pfn', 'number', 'buddyinfo']);
    expect(p.answers?.map((a) => a.answer)).toEqual(['0x10', '1', '0 0 0 1 0 1 0 0 0 0 0']);
    expect(p.answers?.[1]?.working[0]).toContain('__free_one_page()');
    expect(p.answers?.every((a) => a.events && a.events[0] >= p.setupEvents && a.events[1] > a.events[0])).toBe(true);
    expect(p.ops.split('\n')[0]).toBe('zone pages=120 preset=v5.18 pcp=none');
  });

  it("a check's marks: right, wrong with its working, malformed with the form", () => {
    const p = parseProblem(stdout('json-check'));
    expect(p.marks?.map((m) => m.mark)).toEqual(['wrong', 'malformed', 'wrong']);
    expect(p.marks?.[1]?.say).toMatch(/a whole number/);
    expect(p.marks?.[0]?.working?.length).toBeGreaterThan(0);
  });

  it('a sheet, every problem with its key', () => {
    const s = parseSheet(stdout('sheet-json'));
    expect(s.problems.map((p) => p.kind)).toEqual(['watermarks', 'watermarks']);
    expect(s.problems.every((p) => p.answers?.length === p.questions.length)).toBe(true);
  });

  it('refuses a shape it does not know, saying where', () => {
    expect(() => parseProblem('{')).toThrow(ProblemError);
    expect(() => parseProblem('[]')).toThrow(ProblemError);
    const good = JSON.parse(stdout('json')) as Record<string, unknown>;
    expect(() => readProblem({ ...good, questions: [] })).toThrow('questions: expected 1 to 8');
    expect(() => readProblem({ ...good, questions: [{ n: 1, text: 't', form: 'essay', hint: 'h' }] })).toThrow('questions[0].form: essay is no answer form');
    expect(() => readProblem({ ...good, setup_events: -1 })).toThrow('problem.setup_events: expected a whole number');
    expect(() => readProblem({ ...good, kind: 'buddies' })).toThrow('problem.kind: buddies is no kind of exercise');
    expect(() => readProblem({ ...good, level: 4 })).toThrow('problem.level: 4 is not 1, 2 or 3');
    expect(() => readProblem({ ...good, answers: [{ n: 1, answer: '0x10', working: 'x', events: [28, 32] }] })).toThrow('answers[0].working: expected lines of text');
    expect(() => readProblem({ ...good, marks: [{ n: 1, mark: 'maybe' }] })).toThrow('marks[0].mark: maybe');
  });

  it('splits a statement into prose and listings', () => {
    expect(statementBlocks('One zone\nof 8 pages.\n\n  order 0: 0x1\n  order 2: 0x4\n\nThen:\n')).toEqual([
      { code: false, text: 'One zone of 8 pages.' },
      { code: true, text: '  order 0: 0x1\n  order 2: 0x4' },
      { code: false, text: 'Then:' },
    ]);
  });
});
