import { describe, expect, it } from 'vitest';
import { ExerciseUrlError, exerciseArgs, exerciseHref, parseExercise, parseSheet, sheetArgs, sheetHref } from './url';

describe('exercise links', () => {
  it('reads a problem and writes it back', () => {
    const r = parseExercise('?exercise=pcp&seed=42&level=3&preset=v6.7&lecture=1');
    expect(r).toEqual({ kind: 'pcp', seed: 42, level: 3, preset: 'v6.7', lecture: true });
    expect(parseExercise(exerciseHref(r))).toEqual(r);
    expect(parseExercise('?exercise=buddy')).toEqual({ kind: 'buddy', seed: 0, level: 1, lecture: false });
  });

  it('refuses what is out of range, saying which parameter and why', () => {
    const bad: [string, RegExp][] = [
      ['?exercise=buddies', /buddies is not a kind of exercise; the kinds: buddy, pcp, watermarks, slab, result/],
      ['?exercise=buddy&seed=-1', /seed=-1: a whole number 0..4294967295/],
      ['?exercise=buddy&seed=4294967296', /seed=4294967296: out of range/],
      ['?exercise=buddy&seed=1.5', /seed=1.5: a whole number/],
      ['?exercise=buddy&level=0', /level=0: out of range 1..3/],
      ['?exercise=buddy&level=4', /level=4: out of range 1..3/],
      ['?exercise=buddy&preset=v9', /preset=v9: no such preset/],
      ['?exercise=buddy&colour=red', /unknown parameter "colour"/],
      ['?exercise=buddy&student=%E2%80%AEevil', /student: it holds U\+202E/],
      [`?exercise=buddy&student=${'x'.repeat(81)}`, /student: a name or ID of 1 to 80 bytes/],
      [`?exercise=buddy&seed=${'1'.repeat(500)}`, /the address is \d+ characters/],
    ];
    for (const [search, why] of bad) {
      expect(() => parseExercise(search), search).toThrow(ExerciseUrlError);
      expect(() => parseExercise(search), search).toThrow(why);
    }
  });

  it('asks the core for the problem, its answers or its checks, as the CLI would be asked', () => {
    const r = parseExercise('?exercise=slab&seed=7&level=2&student=Ada');
    expect(exerciseArgs(r)).toEqual(['slab', '--seed', '7', '--level', '2', '--json', '--student', 'Ada']);
    expect(exerciseArgs(r, { answers: true }).at(-1)).toBe('-c');
    expect(exerciseArgs(r, { checks: [[1, 'B3'], [2, 'a\nb']] }).slice(-4)).toEqual(['--check', '1=B3', '--check', '2=a b']);
  });

  it('reads a sheet, with defaults, and refuses a bad one', () => {
    expect(parseSheet('?exercises')).toEqual({ kinds: ['buddy', 'pcp'], levels: [1], count: 10, seed: 1 });
    const s = parseSheet('?exercises&kinds=slab,result&levels=1,3&count=20&seed=9&student=Bo');
    expect(parseSheet(sheetHref(s).slice(1))).toEqual(s);
    expect(sheetArgs(s, 'csv')).toEqual(['--sheet', '--kind', 'slab,result', '--level', '1,3', '--count', '20', '--seed', '9', '--student', 'Bo', '--csv']);
    expect(() => parseSheet('?exercises&count=101')).toThrow(/count=101: out of range 1..100/);
    expect(() => parseSheet('?exercises&kinds=buddy,buddy')).toThrow(/kinds: a value twice/);
    expect(() => parseSheet('?exercises&levels=1,5')).toThrow(/levels=5/);
  });
});
