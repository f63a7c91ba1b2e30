// What a printed handout asks and answers: each step's predict question in the lesson's order,
// with its choices lettered as the page letters them (A, B, C ...), and the answer as the key at
// the end prints it. Pure, so the questions and the key cannot drift from the lesson apart from
// the page (the handout's pages draw them, Vitest checks them).
import type { Lesson, Predict, TableRef } from './lesson';

export interface HandoutQuestion {
  /** the step's number, 1-based, as the handout heads it */
  step: number;
  title: string;
  predict: Predict;
  /** the step's prose after `<!-- answer -->`: it explains the answer, so it waits for the key */
  answerProse?: string;
}

/** Every step's predict question, in the lesson's order. */
export function handoutQuestions(lesson: Lesson): HandoutQuestion[] {
  return lesson.steps.flatMap((s, i) => (s.predict ? [{ step: i + 1, title: s.title, predict: s.predict, ...(s.answerProse ? { answerProse: s.answerProse } : {}) }] : []));
}

/** A choice's letter: A for the first (the page's `<ol type="A">`). */
export const choiceLetter = (k: number): string => String.fromCharCode(65 + k);

/** The cell of a table the model computes the answer from, or none: a fixed answer. */
export function answerRef(p: Predict): TableRef | undefined {
  return p.kind === 'number' && typeof p.answer !== 'number' ? p.answer : undefined;
}

/** A number as the key prints it: thousands grouped, two decimals at most. */
const fmt = (v: number) => (Math.abs(v) >= 1000 ? Math.round(v).toLocaleString('en') : String(Math.round(v * 100) / 100));

/**
 * The answer as the key prints it: the right choice by letter and text, or the number with its
 * unit and tolerance. `computed` is the model's value for an answer read off a table (undefined:
 * the table could not be had, and the key says so rather than print a number it does not know).
 */
export function answerText(p: Predict, computed?: number): string {
  if (p.kind === 'choice') return `${choiceLetter(p.answer)}: ${p.choices[p.answer] ?? ''}`;
  const unit = p.unit ? ` ${p.unit}` : '';
  const value = typeof p.answer === 'number' ? p.answer : computed;
  if (value === undefined) return `the model's value from table ${(p.answer as TableRef).table} (not computed in this printout)`;
  const from = typeof p.answer === 'number' ? '' : ', as the model computes it';
  return `${fmt(value)}${unit} (right within ±${fmt(p.tolerance)}${from})`;
}
