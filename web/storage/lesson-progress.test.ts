import { describe, expect, it } from 'vitest';
import { ProgressStore } from './lesson-progress';
import { STORAGE_KEY, StoreError } from './store';

function memory() {
  const m = new Map<string, string>();
  return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v), m };
}

describe('lesson progress over the user store', () => {
  it('keeps the furthest step and every answer across stores, and exports / imports them', () => {
    const s = memory();
    const a = new ProgressStore(s);
    a.update('buddy', (p) => {
      p.reached = 3;
      p.answers['1'] = { given: 2, correct: true };
    });
    expect(JSON.parse(s.m.get(STORAGE_KEY)!)).toMatchObject({ schema: 1, lessons: { buddy: { step: 3, done: false } } });
    expect(new ProgressStore(s).get('buddy')).toEqual({ reached: 3, done: false, answers: { '1': { given: 2, correct: true } } });
    const other = new ProgressStore(memory());
    other.importText(a.exportText());
    expect(other.get('buddy').answers['1']).toEqual({ given: 2, correct: true });
  });

  it('refuses a file with a bad answer, naming where, and keeps what it had', () => {
    const st = new ProgressStore(memory());
    st.update('a', (p) => void (p.reached = 2));
    const bad = '{"schema":1,"lessons":{"a":{"step":1,"done":false,"answers":{"x":{"given":1,"correct":true}}}}}';
    expect(() => st.importText(bad)).toThrow(StoreError);
    expect(() => st.importText(bad)).toThrow(/lessons\.a\.answers\.x/);
    expect(st.get('a').reached).toBe(2);
  });

  it('keeps progress for the page when the browser refuses to save, and says so', () => {
    const st = new ProgressStore({
      getItem: () => null,
      setItem: () => {
        throw new DOMException('quota exceeded', 'QuotaExceededError');
      },
    });
    st.update('a', (p) => void (p.reached = 4));
    expect(st.get('a').reached).toBe(4);
    expect(st.loadProblem).toMatch(/not saved in this browser \(quota exceeded\)/);
  });
});
