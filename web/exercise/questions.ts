// A problem's questions as a form: a text field per question (radio buttons for a choice), each
// with the form its answer takes said under it, and after Check each one's mark: right, wrong
// with the core's answer and its working (and a button to replay the records that show it), or
// not an answer of the form, which is not marked wrong but told what form to use. The checking
// itself is the core's (blab exercise --check): this file only draws.
import { el } from '../ui/dom';
import type { Answer, Mark, Question } from './problem';

export interface QuestionsForm {
  root: HTMLFormElement;
  /** what was typed, by question number ("" where nothing was) */
  typed(): [number, string][];
  /** the core's marks, drawn under each question; replay(n) when its working is asked for */
  showMarks(marks: readonly Mark[], replay?: (m: Mark) => void): void;
  /** every answer with its working (the lecturer's reveal, or Show the answers) */
  showAnswers(answers: readonly Answer[], replay?: (a: Answer) => void): void;
  /** a question left empty: told to answer it, not marked */
  showEmpty(n: number, hint: string): void;
  clear(): void;
  /** the form's buttons (Check, Show the answers) are added by the page */
  readonly buttons: HTMLElement;
}

function field(q: Question): { box: HTMLElement; read: () => string } {
  const id = `ex-q${q.n}`;
  const hintId = `${id}-hint`;
  if (q.form === 'choice' && q.choices) {
    // the question is the group's legend, so a screen reader names the group by it, and each
    // radio by its own choice alone
    const group = el('fieldset', { class: 'ex-choices', 'aria-describedby': hintId }, el('legend', { class: 'ex-qtext' }, el('span', { class: 'ex-qn', text: `${q.n}.` }), ` ${q.text}`));
    q.choices.forEach((c, i) => {
      const letter = String.fromCharCode(97 + i);
      const input = el('input', { type: 'radio', name: id, id: `${id}-${letter}`, value: letter });
      group.append(el('label', { for: `${id}-${letter}`, class: 'ex-choice' }, input, ` ${letter}) ${c}`));
    });
    const read = () => group.querySelector<HTMLInputElement>('input:checked')?.value ?? '';
    return { box: group, read };
  }
  const input = el('input', {
    type: 'text',
    id,
    class: 'ex-answer',
    autocomplete: 'off',
    spellcheck: 'false',
    maxlength: 256,
    'aria-describedby': hintId,
  });
  if (q.form === 'buddyinfo') input.classList.add('wide');
  return { box: input, read: () => input.value };
}

function workingList(lines: readonly string[]): HTMLElement {
  const ol = el('ol', { class: 'ex-working' });
  for (const l of lines) ol.append(el('li', {}, el('code', { text: l })));
  return ol;
}

/** a choice's letter with its text: "b) DMA32" */
function shown(q: Question | undefined, answer: string): string {
  const i = answer.length === 1 ? answer.charCodeAt(0) - 97 : -1;
  return q?.form === 'choice' && q.choices && i >= 0 && i < q.choices.length ? `${answer}) ${q.choices[i]}` : answer;
}

export function createQuestionsForm(questions: readonly Question[]): QuestionsForm {
  const byN = new Map(questions.map((q) => [q.n, q]));
  const root = el('form', { class: 'ex-questions', 'aria-label': 'Your answers' });
  const readers = new Map<number, () => string>();
  const outs = new Map<number, HTMLElement>();
  for (const q of questions) {
    const id = `ex-q${q.n}`;
    const { box, read } = field(q);
    const out = el('div', { class: 'ex-mark', id: `${id}-mark`, role: 'status', 'aria-live': 'polite' });
    const qbox = el('div', { class: 'ex-question', id: `${id}-box` });
    if (q.form !== 'choice') qbox.append(el('label', { for: id, class: 'ex-qtext' }, el('span', { class: 'ex-qn', text: `${q.n}.` }), ` ${q.text}`));
    qbox.append(box, el('p', { class: 'hint', id: `${id}-hint`, text: q.hint }), out);
    root.append(qbox);
    readers.set(q.n, read);
    outs.set(q.n, out);
  }
  const buttons = el('div', { class: 'ex-buttons' });
  root.append(buttons);

  const replayButton = (label: string, go: () => void) => {
    const b = el('button', { type: 'button', class: 'small ex-replay', text: label });
    b.addEventListener('click', go);
    return b;
  };

  return {
    root,
    buttons,
    typed: () => questions.map((q) => [q.n, readers.get(q.n)!().trim()] as [number, string]),
    clear() {
      for (const o of outs.values()) {
        o.replaceChildren();
        o.className = 'ex-mark';
      }
    },
    showEmpty(n, hint) {
      const o = outs.get(n)!;
      o.className = 'ex-mark malformed';
      o.replaceChildren(el('p', { text: `Not answered yet: ${hint}.` }));
    },
    showMarks(marks, replay) {
      for (const m of marks) {
        const o = outs.get(m.n);
        if (!o) continue;
        o.className = `ex-mark ${m.mark}`;
        if (m.mark === 'right') o.replaceChildren(el('p', { text: '✓ Right.' }));
        else if (m.mark === 'malformed') o.replaceChildren(el('p', { text: `Not an answer of this question's form (not marked): ${m.say ?? ''}.` }));
        else {
          o.replaceChildren(el('p', {}, '✗ Not this one. The core answers ', el('strong', { text: shown(byN.get(m.n), m.answer ?? '') }), '; its working, from its event log:'), workingList(m.working ?? []));
          if (replay && m.events && m.events[1] > m.events[0]) o.append(replayButton(`Replay the working (records ${m.events[0]}..${m.events[1]})`, () => replay(m)));
        }
      }
    },
    showAnswers(answers, replay) {
      for (const a of answers) {
        const o = outs.get(a.n);
        if (!o) continue;
        o.className = 'ex-mark revealed';
        o.replaceChildren(el('p', {}, 'The answer: ', el('strong', { text: shown(byN.get(a.n), a.answer) })), workingList(a.working));
        if (replay && a.events[1] > a.events[0]) o.append(replayButton(`Replay the working (records ${a.events[0]}..${a.events[1]})`, () => replay(a)));
      }
    },
  };
}
