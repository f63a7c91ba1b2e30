// The page reads what `blab exercise --json` prints: every kind's problem, its answers and its
// checks, as the native CLI prints them, parse into the shapes the page draws from; anything
// else is refused with where (parse.test.ts, which needs no build).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseProblem, parseSheet } from './problem';
import { EXERCISE_KINDS } from './url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const blab = join(root, 'build', 'native', 'blab');
const run = (...args: string[]) => execFileSync(blab, ['exercise', ...args], { encoding: 'utf8' });

beforeAll(() => {
  if (!existsSync(blab)) throw new Error(`${blab} is missing: run "make native" first`);
});

describe('a problem as the core prints it', () => {
  it('every kind and level parses, with its answers and working', () => {
    for (const kind of EXERCISE_KINDS.filter((k) => k !== 'result'))
      for (const level of [1, 2, 3]) {
        const p = parseProblem(run(kind, '--seed', '3', '--level', String(level), '--json', '-c'));
        expect(p.kind).toBe(kind);
        expect(p.level).toBe(level);
        expect(p.questions.length).toBeGreaterThan(0);
        expect(p.answers?.length).toBe(p.questions.length);
        expect(p.ops.startsWith(kind === 'watermarks' && level === 3 ? 'node ' : 'zone ')).toBe(true);
        expect(p.setupEvents).toBeGreaterThan(0);
      }
  });

  it('reads the marks of a check: right, wrong with the working, or malformed with the form', () => {
    const answers = parseProblem(run('buddy', '--seed', '5', '--level', '2', '--json', '-c')).answers!;
    const p = parseProblem(run('buddy', '--seed', '5', '--level', '2', '--json', '--check', `1=${answers[0]!.answer}`, '--check', '2=99', '--check', '3=1 2 3'));
    expect(p.marks?.map((m) => m.mark)).toEqual(['right', 'wrong', 'malformed']);
    expect(p.marks![1]!.working!.length).toBeGreaterThan(0);
    expect(p.marks![2]!.say).toMatch(/a buddyinfo line has 11 counts, .*; this one has 3/);
  });

  it('reads a sheet', () => {
    const s = parseSheet(run('--sheet', '--kind', 'pcp,slab', '--count', '3', '--seed', '2', '--json'));
    expect(s.problems.map((p) => p.kind)).toEqual(['pcp', 'slab', 'pcp']);
    expect(s.problems.every((p) => p.answers?.length === p.questions.length)).toBe(true);
  });
});
