// The instructor's page (?exercises): pick kinds, levels, how many problems and a class seed; the
// core makes the sheet (blab exercise --sheet, in the engine worker), and the page shows the
// problems, each with its link, then the answer key. Print puts the key on pages of its own
// (exercise.css's print rules); the key downloads as CSV and JSON, the sheet as Markdown. A
// student's own seed comes from a name or ID and the class seed (the core computes it, so the
// CLI's `blab exercise --student-seed NAME --seed N` agrees).
import { EngineClient } from '../engine/engine-client';
import { el } from '../ui/dom';
import { download } from '../ui/download';
import { parseSheet, statementBlocks, type Problem } from './problem';
import { EXERCISE_KINDS, EXERCISE_LIMITS, EXERCISE_TITLES, ExerciseUrlError, exerciseHref, parseSheet as parseSheetRoute, sheetArgs, sheetHref, type ExerciseKind, type SheetRoute } from './url';
import '../lessons/lessons.css';
import './exercise.css';

function shownAnswer(p: Problem, n: number, answer: string): string {
  const q = p.questions.find((x) => x.n === n);
  const i = answer.length === 1 ? answer.charCodeAt(0) - 97 : -1;
  return q?.form === 'choice' && q.choices && i >= 0 && i < q.choices.length ? `${answer}) ${q.choices[i]}` : answer;
}

function problemBlock(p: Problem, i: number): HTMLElement {
  const href = exerciseHref({ kind: p.kind, seed: p.seed, level: p.level });
  const box = el('article', { class: 'sheet-problem', id: `sheet-p${i + 1}` }, el('h3', { text: `Problem ${i + 1}: ${p.title}` }));
  for (const b of statementBlocks(p.statement)) box.append(b.code ? el('pre', { text: b.text, tabindex: 0 }) : el('p', { text: b.text }));
  const ol = el('ol', { class: 'sheet-questions' });
  for (const q of p.questions) {
    const li = el('li', {}, q.text, ' ', el('span', { class: 'hint', text: `(${q.hint})` }));
    if (q.choices) li.append(el('ol', { type: 'a' }, ...q.choices.map((c) => el('li', { text: c }))));
    ol.append(li);
  }
  box.append(ol, el('p', { class: 'sheet-link' }, 'Online: ', el('a', { href, text: href })));
  return box;
}

function keyBlock(p: Problem, i: number): HTMLElement {
  const box = el('article', { class: 'key-problem' }, el('h3', { text: `Problem ${i + 1}: ${p.title}` }));
  const ol = el('ol');
  for (const a of p.answers ?? []) ol.append(el('li', {}, el('strong', { text: shownAnswer(p, a.n, a.answer) }), el('ul', { class: 'key-working' }, ...a.working.map((w) => el('li', {}, el('code', { text: w }))))));
  box.append(ol);
  return box;
}

function form(r: SheetRoute): { root: HTMLFormElement; read(): SheetRoute } {
  const root = el('form', { class: 'sheet-form', 'aria-label': 'The sheet' });
  const kinds = el('fieldset', {}, el('legend', { text: 'Kinds' }));
  for (const k of EXERCISE_KINDS) {
    const id = `sheet-kind-${k}`;
    kinds.append(el('label', { for: id, class: 'sheet-check' }, el('input', { type: 'checkbox', id, value: k, checked: r.kinds.includes(k) }), ` ${k}: ${EXERCISE_TITLES[k]}`));
  }
  const levels = el('fieldset', {}, el('legend', { text: 'Levels' }));
  for (let l = 1; l <= 3; l++) {
    const id = `sheet-level-${l}`;
    levels.append(el('label', { for: id, class: 'sheet-check' }, el('input', { type: 'checkbox', id, value: String(l), checked: r.levels.includes(l) }), ` ${l}`));
  }
  const count = el('input', { type: 'number', id: 'sheet-count', min: 1, max: EXERCISE_LIMITS.sheetMax, value: r.count, required: true });
  const seed = el('input', { type: 'number', id: 'sheet-seed', min: 0, max: EXERCISE_LIMITS.seedMax, value: r.seed, required: true });
  const student = el('input', { type: 'text', id: 'sheet-student', maxlength: EXERCISE_LIMITS.nameMax, value: r.student ?? '', autocomplete: 'off' });
  root.append(
    kinds,
    levels,
    el('p', {}, el('label', { for: 'sheet-count', text: 'Problems ' }), count, ' ', el('label', { for: 'sheet-seed', text: 'Class seed ' }), seed),
    el('p', {}, el('label', { for: 'sheet-student', text: "A student's name or ID (optional: their own seed) " }), student),
    el('button', { type: 'submit', class: 'primary', id: 'sheet-make', text: 'Make the sheet' }),
  );
  return {
    root,
    read() {
      const out: SheetRoute = {
        kinds: [...kinds.querySelectorAll<HTMLInputElement>('input:checked')].map((i) => i.value as ExerciseKind),
        levels: [...levels.querySelectorAll<HTMLInputElement>('input:checked')].map((i) => Number(i.value)),
        count: Number(count.value),
        seed: Number(seed.value),
      };
      if (student.value.trim()) out.student = student.value.trim();
      return out;
    },
  };
}

export function mountExercises(root: HTMLElement, search: string): void {
  root.replaceChildren();
  const page = el('div', { class: 'exercises-page', id: 'exercises' });
  root.append(page);
  page.append(
    el('h2', { class: 'page-title', text: 'Exercise sheets for a class' }),
    el('p', { class: 'ex-sub' }, 'Seeded problems on the allocator core, with an answer key the core computed. Every student can get their own numbers: their seed comes from their name or ID and the class seed (docs/exercises.md in the repository says how to assign them; ', el('code', { text: 'blab exercise --sheet' }), ' makes the same sheet on the command line).'),
  );
  let r: SheetRoute;
  const alert = el('p', { class: 'alert', role: 'alert' });
  page.append(alert);
  try {
    r = parseSheetRoute(search);
  } catch (e) {
    if (!(e instanceof ExerciseUrlError)) throw e;
    alert.textContent = `This sheet link was not used: ${e.message}.`;
    r = parseSheetRoute('?exercises');
  }
  const f = form(r);
  const status = el('p', { class: 'ex-status', role: 'status' });
  const tools = el('div', { class: 'sheet-tools' });
  const out = el('div', { class: 'sheet-out', id: 'sheet-out' });
  page.append(f.root, status, tools, out);
  const client = new EngineClient();
  f.root.addEventListener('submit', (ev) => {
    ev.preventDefault();
    const next = f.read();
    try {
      parseSheetRoute(sheetHref(next).slice(1));
    } catch (e) {
      alert.textContent = e instanceof Error ? e.message : String(e);
      return;
    }
    if (!next.kinds.length || !next.levels.length) {
      alert.textContent = 'Pick at least one kind and one level.';
      return;
    }
    alert.textContent = '';
    history.replaceState(null, '', sheetHref(next));
    void make(next);
  });

  async function run(args: string[]): Promise<string> {
    const res = await client.exercise(args);
    if (res.status !== 0) throw new Error(res.stderr.trim() || `blab exercise stopped with status ${res.status}`);
    return res.stdout;
  }

  async function make(sheet: SheetRoute) {
    const why = EngineClient.unsupported();
    if (why) {
      status.textContent = `The sheet cannot be made here: ${why}.`;
      return;
    }
    status.textContent = `The core is making ${sheet.count} problems…`;
    out.replaceChildren();
    tools.replaceChildren();
    try {
      const json = await run(sheetArgs(sheet, 'json'));
      const s = parseSheet(json);
      let seedNote = '';
      if (sheet.student) seedNote = ` ${sheet.student}'s own seed: ${(await run(['--student-seed', sheet.student, '--seed', String(sheet.seed)])).trim()}.`;
      const problems = el('section', { class: 'sheet-problems', 'aria-label': 'Problems' }, el('h2', { text: `Problems (class seed ${sheet.seed}${sheet.student ? `, for ${sheet.student}` : ''})` }));
      s.problems.forEach((p, i) => problems.append(problemBlock(p, i)));
      const key = el('section', { class: 'sheet-key', 'aria-label': 'Answer key' }, el('h2', { text: 'Answer key' }));
      s.problems.forEach((p, i) => key.append(keyBlock(p, i)));
      out.append(problems, key);
      const stem = `exercises-${sheet.seed}${sheet.student ? '-student' : ''}`;
      const btn = (text: string, go: () => void) => {
        const b = el('button', { type: 'button', class: 'small', text });
        b.addEventListener('click', go);
        return b;
      };
      tools.append(
        btn('Print (the key on pages of its own)', () => window.print()),
        btn('Key as CSV', () => void run(sheetArgs(sheet, 'csv')).then((t) => download(t, `${stem}-key.csv`, 'text/csv'))),
        btn('Key as JSON', () => download(json, `${stem}.json`, 'application/json')),
        btn('Sheet as Markdown', () => void run(sheetArgs(sheet, 'markdown')).then((t) => download(t, `${stem}.md`, 'text/markdown'))),
      );
      status.textContent = `${s.problems.length} problems, each with its link; the key follows them.${seedNote}`;
    } catch (e) {
      status.textContent = `The sheet could not be made: ${e instanceof Error ? e.message : String(e)}`;
    }
  }
  if (new URLSearchParams(search).has('kinds')) void make(r);
}
