// What the lessons promise a student, checked on every real lesson: no predict question is
// answered by the text shown before its answer, captions come from what a table runs, and the
// seed's numbers are read, not typed, when the page sets them beside the model's.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LessonError, parseLesson } from './parse';
import { LESSON_WORKLOADS, type Lesson } from './lesson';
import { metricLabel, tableCaption } from './caption';
import { bandNote, firstNumber, seedBands } from './seedband';

const root = join(import.meta.dirname, '..', '..');
const lessons: Lesson[] = readdirSync(join(root, 'lessons'))
  .filter((f) => f.endsWith('.md'))
  .sort()
  .map((f) => parseLesson(`lessons/${f}`, readFileSync(join(root, 'lessons', f), 'utf8')));
const byId = (id: string) => lessons.find((l) => l.id === id)!;
/** what may come before a question's answer: enough to set it up, not to explain it */
const MAX_WORDS_BEFORE_ANSWER = 80;
const words = (s: string) => s.toLowerCase().replace(/[`*_]/g, '').replace(/\s+/g, ' ');

describe('predict questions that teach', () => {
  it('no question is answered by the prose shown before its answer', () => {
    const leaks: string[] = [];
    for (const l of lessons)
      l.steps.forEach((s, k) => {
        const p = s.predict;
        if (!p) return;
        const before = words(`${s.title} ${s.prose}`);
        // the right choice, the explanation, or a fixed number given as a result ("= 0", "is 4")
        const said = p.kind === 'choice' ? [p.choices[p.answer]!] : typeof p.answer === 'number' ? [] : [];
        for (const t of [...said, ...(p.explain ? [p.explain] : [])]) {
          const w = words(t).replace(/[.:]$/, '');
          if (w.length >= 8 && before.includes(w)) leaks.push(`${l.file} step ${k + 1}: the prose says "${t}"`);
        }
        if (p.kind === 'number' && typeof p.answer === 'number' && new RegExp(`(=|\\bis)\\s*${p.answer}\\b`).test(before)) leaks.push(`${l.file} step ${k + 1}: the prose gives ${p.answer}`);
        // the clauses of the right choice after its first words ("...: the list is refilled ...")
        if (p.kind === 'choice') {
          const clause = words(p.choices[p.answer]!).split(/[:,]/).slice(1).join(' ').trim();
          if (clause.length >= 12 && before.includes(clause)) leaks.push(`${l.file} step ${k + 1}: the prose says "${clause}"`);
        }
      });
    expect(leaks).toEqual([]);
  });

  it('a question is asked before the explanation: at most 80 words of prose come before the answer', () => {
    // the explanation that answers a question (lesson 1's "one free block at each of orders 3, 2,
    // 1 and 0", lesson 3's "with one task the gain is nil") goes after <!-- answer -->; what is
    // left before it sets the question up
    const long: string[] = [];
    for (const l of lessons)
      l.steps.forEach((s, k) => {
        const n = s.prose.split(/\s+/).filter(Boolean).length;
        if (s.predict && n > MAX_WORDS_BEFORE_ANSWER) long.push(`${l.file} step ${k + 1}: ${n} words before the answer`);
      });
    expect(long).toEqual([]);
  });

  it('the lessons that read answers out before: each such step keeps its explanation until the answer', () => {
    // lesson 1's expand() step used to print "1 1 1 1 0" above its question, lesson 3's pick step
    // described the split it asked about: now both wait behind <!-- answer -->
    const buddy = byId('buddy').steps[1]!;
    expect(buddy.prose).not.toMatch(/1 1 1 1 0|one free block at each of orders/);
    expect(buddy.answerProse).toMatch(/one free block at each of orders 3, 2, 1 and 0/);
    const pick = byId('prefetch').steps[1]!;
    expect(pick.prose).not.toMatch(/walks the pcp lists and moves the pages to a private list/);
    expect(pick.answerProse).toMatch(/walks the pcp lists/);
    const withQuestion = lessons.flatMap((l) => l.steps.filter((s) => s.predict));
    expect(withQuestion.filter((s) => s.answerProse).length).toBeGreaterThanOrEqual(withQuestion.length - 2);
  });

  it('refuses an answer mark twice, with nothing after it, or without a question', () => {
    const one = readFileSync(join(root, 'lessons', '01-buddy.md'), 'utf8');
    const err = (text: string) => {
      try {
        parseLesson('lessons/x.md', text);
      } catch (e) {
        return e as LessonError;
      }
      throw new Error('parsed');
    };
    const line = (t: string, needle: string) => t.split('\n').findIndex((l) => l.includes(needle)) + 1;
    const twice = one.replace('<!-- answer -->\n\nSo pfn 0', '<!-- answer -->\n\n<!-- answer -->\n\nSo pfn 0');
    expect(err(twice).message).toMatch(/has <!-- answer --> twice/);
    const empty = one.replace(/<!-- answer -->\n\nFreeing pfn 2[\s\S]*$/, '<!-- answer -->\n');
    expect(err(empty).reason).toMatch(/nothing follows <!-- answer -->/);
    expect(err(empty).line).toBe(line(empty, 'Merging back') + line(empty.slice(empty.indexOf('## Merging back')), '<!-- answer -->') - 1);
    const noQuestion = one.replace('whole zone is a\nsingle free block', 'whole zone is a\n\n<!-- answer -->\n\nsingle free block');
    expect(err(noQuestion).reason).toMatch(/needs a predict question/);
  });
});

describe('captions come from what the table runs', () => {
  it('every table names its own workload and unit, and no other workload', () => {
    for (const l of lessons)
      for (const t of Object.values(l.tables)) {
        const c = tableCaption(t);
        expect(c, `${l.file} ${t.name}`).toContain(`: ${t.workload}, `);
        for (const w of LESSON_WORKLOADS) if (w !== t.workload) expect(c, `${l.file} ${t.name}`).not.toMatch(new RegExp(`\\b${w}\\b`));
        if (t.metric === 'score') expect(c).toContain(t.workload === 'hackbench' ? 'messages/s' : 'pages/s');
      }
    // the captions that were wrong: page_fault1 tables said "hackbench: messages/s", lesson 6's
    // stress_highalloc table said "page_fault1"
    expect(tableCaption(byId('prefetch').tables['pf1']!)).toMatch(/^The model: page_fault1, score, pages\/s: /);
    expect(tableCaption(byId('skipmerge').tables['hicost']!)).toMatch(/stress_highalloc, virtual ms per high-order attempt.*a zone of 16384 pages, 8 order-9 attempts/);
    expect(metricLabel('score', 'page_fault1')).not.toMatch(/hackbench|messages/);
    // page_fault1's score is of its scored rounds: a whole-run contention says so
    expect(metricLabel('zone_bp', 'page_fault1')).toBe('zone->lock contention % over the whole run, warm-up included');
    expect(metricLabel('zone_bp_scored', 'page_fault1')).toMatch(/in the scored rounds/);
    expect(metricLabel('misses_locked', 'page_fault1')).toBe('cache misses under zone->lock over the whole run, warm-up included');
    expect(metricLabel('zone_bp', 'mixed')).toBe('zone->lock contention % over the whole run, set-up and warm-up included');
    expect(metricLabel('zone_bp', 'hackbench')).toBe('zone->lock contention %');
  });

  it('refuses a caption that names a workload itself', () => {
    const two = readFileSync(join(root, 'lessons', '02-hotcold.md'), 'utf8');
    expect(() => parseLesson('x.md', two.replace('caption: 2.5.44 (no pcp lists)', 'caption: hackbench, 2.5.44 (no pcp lists)'))).toThrow(/caption names hackbench/);
  });
});

describe("the seed's band beside the model's number", () => {
  it('reads numbers out of quoted cells', () => {
    expect(firstNumber('9608786 +6.3%')).toBe(9608786);
    expect(firstNumber('3.96 ms')).toBe(3.96);
    expect(firstNumber('about 80 %')).toBe(80);
    expect(firstNumber(17026)).toBe(17026);
    expect(firstNumber('about none')).toBeUndefined();
  });

  it("computes lesson 3's patch bands from the quoted scores, not from the quoted percentages", () => {
    const [pick, both] = seedBands(byId('prefetch').tables['pf1']!);
    // patch 1 against v4.15-rc4 on the four machines: +6.3, +4.6, +2.9, +10.8 %
    expect(pick).toMatchObject({ config: 'v4.17-pick', tasks: 56, n: 4 });
    expect(pick!.lo).toBeCloseTo(((14042169 - 13642741) / 13642741) * 100, 9);
    expect(pick!.hi).toBeCloseTo(((17433559 - 15728686) / 15728686) * 100, 9);
    // patch 2 is quoted against patch 1; the band is against the same base as the model's column
    expect(both!.lo).toBeCloseTo(((8602889 - 8000124) / 8000124) * 100, 9);
    expect(both!.hi).toBeCloseTo(((10462292 - 9037332) / 9037332) * 100, 9);
  });

  it('says below / within / above in words, with the seed range', () => {
    const b = { config: 'x', tasks: 1, lo: 2.93, hi: 10.84, n: 4 };
    expect(bandNote(-0.4, b)).toMatchObject({ verdict: 'below', text: "seed +2.9% .. +10.8%: the model's -0.4% is below it", short: 'below' });
    expect(bandNote(5, b)).toMatchObject({ verdict: 'within', text: 'seed +2.9% .. +10.8%: the model agrees', short: 'agrees' });
    expect(bandNote(12, b).verdict).toBe('above');
    expect(bandNote(-3.4, { ...b, lo: -12.46, hi: -12.46 }).text).toBe("seed -12.5%: the model's -3.4% is above it");
  });

  it('refuses a band that names a config, a task count, a row or a column the table does not have, at its line', () => {
    const three = readFileSync(join(root, 'lessons', '03-prefetch-buddy.md'), 'utf8');
    const line = (t: string) => t.split('\n').findIndex((l) => l.includes('config: v4.17-pick, tasks: 56')) + 1;
    for (const [from, to, why] of [
      ['config: v4.17-pick, tasks: 56', 'config: v4.16, tasks: 56', /"v4.16" is not one of the table's configs after the first/],
      ['config: v4.17-pick, tasks: 56', 'config: v4.17-pick, tasks: 8', /no row for 8 tasks/],
      ['row: patch 1/2 (pick outside)', 'row: patch 3', /no quoted row starts with "patch 3"/],
    ] as const) {
      const bad = three.replace(from, to);
      let e: LessonError | undefined;
      try {
        parseLesson('lessons/x.md', bad);
      } catch (x) {
        e = x as LessonError;
      }
      expect(e?.reason).toMatch(why);
      expect(e?.line).toBe(line(three));
    }
  });

  it('every band a lesson declares reads at least one number from its quoted table', () => {
    let n = 0;
    for (const l of lessons)
      for (const t of Object.values(l.tables)) {
        const declared = t.quoted?.bands?.length ?? 0;
        expect(seedBands(t).length, `${l.file} ${t.name}`).toBe(declared);
        n += declared;
      }
    expect(n).toBeGreaterThanOrEqual(5);
  });
});

describe('the prose beside a table says what the table runs', () => {
  /** a step's words about its table: the title, the question and the prose on both sides of the answer */
  const said = (s: Lesson['steps'][number]) => [s.title, s.predict?.question ?? '', s.prose, s.answerProse ?? ''].join('\n').replace(/\s+/g, ' ');

  it('every task count the text names ("at 8, 28 and 56 tasks") is a row of the step\'s table', () => {
    // lesson 3 said "for 1, 16 and 56 tasks" over rows 1, 56, 88, 112, 224; lesson 4 asked about
    // 56 tasks in a table without a 56 row; lesson 6 said "at 8, 28 and 56 tasks" over 28, 56, 112
    const wrong: string[] = [];
    for (const l of lessons)
      l.steps.forEach((s, k) => {
        const t = s.table ? l.tables[s.table] : undefined;
        if (!t || t.workload === 'hackbench') return;
        for (const m of said(s).matchAll(/\b(?:at|for)\s+((?:\d+,\s*)*\d+(?:,?\s+and\s+\d+)?)\s+tasks\b/gi))
          for (const n of m[1]!.match(/\d+/g)!.map(Number))
            if (!t.tasks.includes(n)) wrong.push(`${l.file} step ${k + 1}: "${m[0]}", but table ${t.name} runs ${t.tasks.join(', ')} tasks`);
      });
    expect(wrong).toEqual([]);
  });

  it('every "N pages per task" the text names is what the step\'s table runs', () => {
    // the capstone said "384 pages per task" (the replay's old size) over a table of 4096
    const wrong: string[] = [];
    for (const l of lessons)
      l.steps.forEach((s, k) => {
        const t = s.table ? l.tables[s.table] : undefined;
        if (!t || t.workload === 'hackbench') return;
        for (const m of said(s).matchAll(/\b(\d+) pages per task\b/g))
          if (Number(m[1]) !== t.pages) wrong.push(`${l.file} step ${k + 1}: "${m[0]}", but table ${t.name} runs ${t.pages}`);
      });
    expect(wrong).toEqual([]);
  });

  it('no step says its table is computed in the browser: the build ships it (Run live reruns it here)', () => {
    const wrong = lessons.flatMap((l) => l.steps.filter((s) => s.table && /computed in your browser|this page computes/i.test(said(s))).map((s) => `${l.file}: "${s.title}"`));
    expect(wrong).toEqual([]);
  });
});
