import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseLesson } from './parse';
import { answerRef, answerText, choiceLetter, handoutQuestions } from './handout-items';
import type { Predict } from './lesson';

const root = join(import.meta.dirname, '..', '..');
const lessons = readdirSync(join(root, 'lessons'))
  .filter((f) => f.endsWith('.md'))
  .sort()
  .map((f) => parseLesson(`lessons/${f}`, readFileSync(join(root, 'lessons', f), 'utf8')));
const buddy = lessons.find((l) => l.id === 'buddy')!;

describe("a handout's questions and key", () => {
  it('has one question per step that asks one, in step order, numbered as the handout heads the steps', () => {
    for (const l of lessons) {
      const qs = handoutQuestions(l);
      expect(qs.length, l.id).toBe(l.steps.filter((s) => s.predict).length);
      expect(qs.map((q) => q.step)).toEqual([...qs.map((q) => q.step)].sort((a, b) => a - b));
      for (const q of qs) expect(l.steps[q.step - 1]!.predict, `${l.id} step ${q.step}`).toBe(q.predict);
    }
    // lesson 1: steps 2, 3 and 4 ask; step 1 does not
    expect(handoutQuestions(buddy).map((q) => q.step)).toEqual([2, 3, 4]);
  });

  it("keeps the prose after the answer mark with the question's answer, never in the step", () => {
    const q = handoutQuestions(buddy).find((x) => x.step === 2)!;
    expect(q.answerProse).toMatch(/pfn 8,\s+pfn 4, pfn 2 and pfn 1/);
  });

  it('letters the choices as the page does and prints the right one', () => {
    expect([0, 1, 2, 25].map(choiceLetter)).toEqual(['A', 'B', 'C', 'Z']);
    const p = handoutQuestions(buddy).find((x) => x.step === 2)!.predict;
    expect(answerText(p)).toBe('B: 1 1 1 1 0');
  });

  it('prints a fixed number with its unit and tolerance', () => {
    const p = handoutQuestions(buddy).find((x) => x.step === 3)!.predict;
    expect(answerRef(p)).toBeUndefined();
    expect(answerText(p)).toBe('0 pfn (right within ±0)');
  });

  it("prints the model's number for an answer read off a table, and says so when it is missing", () => {
    const p: Predict = { kind: 'number', question: 'how many?', unit: 'prefetches', tolerance: 50, answer: { table: 'landed', tasks: 56, config: 'x', measure: 'value' } };
    expect(answerRef(p)?.table).toBe('landed');
    expect(answerText(p, 12345.678)).toBe('12,346 prefetches (right within ±50, as the model computes it)');
    expect(answerText(p, 0.456)).toBe('0.46 prefetches (right within ±50, as the model computes it)');
    expect(answerText(p)).toMatch(/table landed \(not computed/);
  });
});
