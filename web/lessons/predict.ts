// A step's predict question: asked before the run that answers it, and kept in view after the
// answer (the question stays, the answer appears under it). A student commits to a choice or an
// estimate and can reset it to try again; in lecture mode nothing is saved and the answer stays
// hidden until the lecturer reveals it (the button, or R), so a hall can vote first.
import { el } from '../ui/dom';
import type { Predict } from './lesson';

export interface PredictOptions {
  predict: Predict;
  /** the student's saved answer; never used in lecture mode */
  answered?: { given: number; correct: boolean } | undefined;
  lecture: boolean;
  /** already revealed by the lecturer this visit */
  revealed: boolean;
  /** the right answer: a choice's index, a fixed number, or a cell the model computes */
  expected(): Promise<number>;
  /** the student committed to an answer */
  onAnswer(given: number, correct: boolean): void;
  /** the lecturer revealed the answer */
  onReveal(): void;
  /** the student wants the question again */
  onReset(): void;
}

export interface PredictBox {
  root: HTMLElement;
  /** lecture mode's R key */
  reveal(): void;
}

/** A number answer counts as right within the question's tolerance (absolute). */
export function isRight(p: Predict, given: number, expected: number): boolean {
  return p.kind === 'choice' ? given === expected : Math.abs(given - expected) <= p.tolerance;
}

export const fmtNum = (v: number) => (Math.abs(v) >= 1000 ? Math.round(v).toLocaleString('en') : String(Math.round(v * 100) / 100));

const question = (p: Predict) => el('p', { id: 'predict-q', class: 'predict-q' }, el('strong', { text: 'Predict: ' }), p.question);

export function predictBox(o: PredictOptions): PredictBox {
  const p = o.predict;
  const root = el('div', { class: 'predict-box' });
  let revealing = false;

  /** the answer under the question: the student's with its verdict, or the lecturer's reveal */
  function answerView(expected: number | undefined, given?: { given: number; correct: boolean }): HTMLElement {
    const box = el('section', { class: 'predict answered', 'aria-labelledby': 'predict-q' }, question(p));
    if (p.kind === 'choice') box.append(choiceList(p.choices, given?.given, expected));
    const fb = el('div', { class: `feedback ${given ? (given.correct ? 'right' : 'wrong') : 'revealed'}`, role: 'status' });
    if (given) {
      const yours = p.kind === 'choice' ? p.choices[given.given] ?? String(given.given) : fmtNum(given.given);
      fb.append(el('p', { text: `${given.correct ? 'Right' : 'Not quite'}: you said ${yours}.` }));
    }
    if (p.kind === 'choice') fb.append(el('p', { text: `The answer: ${p.choices[p.answer]}.` }));
    else if (expected !== undefined) fb.append(el('p', { class: 'model-answer', text: `The model says ${fmtNum(expected)}${p.unit ? ` ${p.unit}` : ''} (right within ±${p.tolerance}).` }));
    if (p.explain) fb.append(el('p', { text: p.explain }));
    box.append(fb);
    if (given) {
      const reset = el('button', { type: 'button', class: 'small reset-answer', text: 'Reset my answer' });
      reset.addEventListener('click', () => o.onReset());
      box.append(reset);
    }
    return box;
  }

  /** The choices as a list, the right one and the student's marked in words (not colour alone). */
  function choiceList(choices: readonly string[], given: number | undefined, expected: number | undefined): HTMLElement {
    const ol = el('ol', { class: 'choice-list', type: 'A' });
    choices.forEach((c, k) => {
      const tags = [k === expected ? 'the answer' : '', k === given ? 'yours' : ''].filter(Boolean);
      ol.append(el('li', { class: k === expected ? 'is-answer' : '' }, c, tags.length ? el('span', { class: 'choice-tag', text: ` (${tags.join(', ')})` }) : ''));
    });
    return ol;
  }

  async function expectedOrStatus(status: HTMLElement): Promise<number | undefined> {
    if (p.kind === 'choice') return p.answer;
    if (typeof p.answer === 'number') return p.answer;
    status.textContent = 'the model is running…';
    try {
      return await o.expected();
    } catch (e) {
      status.textContent = e instanceof Error ? e.message : String(e);
      return undefined;
    }
  }

  // ---- lecture mode: the question and its choices; the answer waits for the lecturer
  function lectureView() {
    const box = el('section', { class: 'predict lecture-q', 'aria-labelledby': 'predict-q' }, question(p));
    if (p.kind === 'choice') box.append(choiceList(p.choices, undefined, undefined));
    else box.append(el('p', { class: 'predict-unit', text: p.unit ? `An estimate, in ${p.unit}.` : 'An estimate.' }));
    const status = el('p', { class: 'status', role: 'status' });
    const btn = el('button', { type: 'button', class: 'primary reveal', text: 'Reveal the answer (R)' });
    btn.addEventListener('click', () => void reveal());
    box.append(btn, status);
    root.replaceChildren(box);
    async function reveal() {
      if (revealing) return;
      revealing = true;
      const expected = await expectedOrStatus(status);
      revealing = false;
      if (expected === undefined && p.kind !== 'number') return;
      if (p.kind === 'number' && expected === undefined) return;
      root.replaceChildren(answerView(expected));
      o.onReveal();
    }
    return reveal;
  }

  // ---- a student: commit to an answer, then see it beside the model's
  function formView() {
    const form = el('form', { class: 'predict', 'aria-labelledby': 'predict-q' }, question(p));
    if (p.kind === 'choice') {
      const fs = el('fieldset');
      fs.append(el('legend', { class: 'sr-only', text: 'Choices' }));
      p.choices.forEach((c, i) => {
        const id = `choice-${i}`;
        fs.append(el('div', { class: 'choice' }, el('input', { type: 'radio', name: 'choice', id, value: i, required: true }), el('label', { for: id, text: c })));
      });
      form.append(fs);
    } else {
      form.append(
        el('label', { for: 'predict-number', text: `Your estimate${p.unit ? ` (${p.unit})` : ''}` }),
        el('input', { type: 'number', id: 'predict-number', name: 'number', step: 'any', required: true }),
      );
    }
    const status = el('p', { class: 'status', role: 'status' });
    form.append(el('button', { type: 'submit', class: 'primary check', text: 'Check my prediction' }), status);
    form.addEventListener('submit', async (ev) => {
      ev.preventDefault();
      const data = new FormData(form);
      const given = Number(p.kind === 'choice' ? data.get('choice') : data.get('number'));
      if (!Number.isFinite(given)) return;
      const expected = await expectedOrStatus(status);
      if (expected === undefined || !form.isConnected) return;
      const correct = isRight(p, given, expected);
      root.replaceChildren(answerView(expected, { given, correct }));
      o.onAnswer(given, correct);
    });
    root.replaceChildren(form);
  }

  let reveal = () => undefined as unknown;
  if (o.lecture && !o.revealed) reveal = lectureView();
  else if (o.lecture) void expectedOrStatus(el('p')).then((x) => root.replaceChildren(answerView(x)));
  else if (o.answered) {
    const a = o.answered;
    root.replaceChildren(answerView(p.kind === 'choice' ? p.answer : undefined, a));
    // a computed answer is shown once the table is there (cached: no second run)
    if (p.kind === 'number') void expectedOrStatus(el('p')).then((x) => root.replaceChildren(answerView(x, a)));
  } else formView();
  return { root, reveal: () => void reveal() };
}
