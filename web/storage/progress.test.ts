import { describe, expect, it } from 'vitest';
import { PROGRESS_KEY, ProgressError, ProgressStore, parseProgress } from './progress';

function memory() {
  const m = new Map<string, string>();
  return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v), m };
}

describe('progress store', () => {
  it('keeps progress and answers across stores, and exports / imports them', () => {
    const s = memory();
    const a = new ProgressStore(s);
    a.update('buddy', (p) => {
      p.reached = 3;
      p.answers['1'] = { given: 2, correct: true };
    });
    expect(JSON.parse(s.m.get(PROGRESS_KEY)!).version).toBe(1);
    expect(new ProgressStore(s).get('buddy')).toEqual({ reached: 3, done: false, answers: { '1': { given: 2, correct: true } } });
    const other = new ProgressStore(memory());
    other.importText(a.exportText());
    expect(other.get('buddy').reached).toBe(3);
  });

  it('ignores unreadable saved progress with a reason, and keeps working', () => {
    const s = memory();
    s.setItem(PROGRESS_KEY, '{"version":0,"lessons":{}}');
    const st = new ProgressStore(s);
    expect(st.loadProblem).toMatch(/version 0: this buddylab reads progress version 1/);
    expect(st.get('x').reached).toBe(0);
  });

  it.each([
    ['[]', /expected a JSON object/],
    ['{', /not JSON/],
    ['{"version":1,"lessons":{"Bad Id":{}}}', /is not valid/],
    ['{"version":1,"lessons":{"a":{"reached":-1,"done":false,"answers":{}}}}', /reached must be/],
    ['{"version":1,"lessons":{"a":{"reached":1,"done":false,"answers":{"x":{"given":1,"correct":true}}}}}', /answers.x/],
  ])('refuses %s', (text, why) => {
    expect(() => parseProgress(text)).toThrow(ProgressError);
    expect(() => parseProgress(text)).toThrow(why);
  });

  it('keeps the old progress when an import is refused', () => {
    const st = new ProgressStore(memory());
    st.update('a', (p) => void (p.reached = 2));
    expect(() => st.importText('{"version":2}')).toThrow(/version 2/);
    expect(st.get('a').reached).toBe(2);
  });
});
