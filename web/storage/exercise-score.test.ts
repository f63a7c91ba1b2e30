import { describe, expect, it } from 'vitest';
import { ExerciseScoreStore } from './exercise-score';
import { STORAGE_KEY, Store, parseDoc, type KeyValue } from './store';

function memory(): KeyValue & { m: Map<string, string> } {
  const m = new Map<string, string>();
  return { m, getItem: (k) => m.get(k) ?? null, setItem: (k, v) => void m.set(k, v) };
}

describe('the exercises score', () => {
  it('counts each problem once, keeps the streak and its best, per kind', () => {
    const kv = memory();
    const s = new ExerciseScoreStore(kv);
    s.record('buddy:1:1', 'buddy', true);
    s.record('buddy:1:1', 'buddy', false); // the same problem checked again: not counted
    s.record('pcp:2:1', 'pcp', true);
    let now = s.record('pcp:3:2', 'pcp', false);
    expect(now).toMatchObject({ score: 2, tried: 3, streak: 0, best: 2, kinds: { buddy: { right: 1, tried: 1 }, pcp: { right: 1, tried: 2 } } });
    now = s.record('slab:4:3', 'slab', true);
    expect(now.streak).toBe(1);
    // kept in the one user document, beside lesson progress, across a reload
    expect(new ExerciseScoreStore(kv).get()).toEqual(now);
    expect(JSON.parse(kv.m.get(STORAGE_KEY)!).schema).toBe(1);
  });

  it('a document without exercises is still read; bad counts are refused with where', () => {
    expect(parseDoc('{"schema":1,"scenarios":[]}').exercises).toBeUndefined();
    expect(() => parseDoc('{"schema":1,"exercises":{"score":-1,"tried":0,"streak":0,"best":0}}')).toThrow('exercises.score: expected a whole number');
    expect(() => parseDoc('{"schema":1,"exercises":{"score":1,"tried":1,"streak":0,"best":0,"kinds":{"Buddy!":{"right":1,"tried":1}}}}')).toThrow('exercises.kinds.Buddy!');
  });

  it('an imported file brings its score when it counted more', () => {
    const kv = memory();
    const s = new ExerciseScoreStore(kv);
    s.record('buddy:1:1', 'buddy', true);
    const exported = new Store(kv).exportText();
    const other = memory();
    new ExerciseScoreStore(other).record('pcp:1:1', 'pcp', false);
    const store = new Store(other);
    store.importText(exported);
    expect(store.exercises?.kinds).toEqual({ buddy: { right: 1, tried: 1 } });
  });
});
