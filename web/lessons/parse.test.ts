// The lesson parser on every real lesson, on good edge cases, and on broken files: each bad
// input must give the file, the line of the problem and a reason.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LessonError, parseLesson } from './parse';
import { LESSON_LIMITS } from './lesson';

const root = join(import.meta.dirname, '..', '..');

const GOOD = `---
id: tiny
number: 9
title: A tiny lesson
summary: Two steps.
leaves_out: Almost everything.
runs:
  s:
    script: |
      zone pages=16 cpus=1 pcp=none top_order=4
      alloc order=0 cpu=0
tables:
  t:
    caption: a sweep
    workload: page_fault1
    pages: 16
    tasks: [1, 2]
    configs:
      - { preset: v4.16 }
      - { label: mine, preset: v4.17, batch: 4, high: 8 }
    gain: true
    quoted:
      source: nowhere
      columns: [a, b]
      rows:
        - [1, "x"]
---

## First

\`\`\`step
run: s
at: { event: split, nth: 2 }
views: [free-areas, buddyinfo]
highlight: free-areas
predict:
  question: Which?
  choices: [a, b]
  answer: 1
\`\`\`

Some *prose* with \`code\`.

\`\`\`
a fenced block that says ## not a heading
\`\`\`

## Second

\`\`\`step
table: t
predict:
  question: How much?
  unit: "%"
  answer_from: { table: t, tasks: 2, config: mine, measure: gain }
  tolerance: 5
\`\`\`

More prose.
`;

/** The GOOD lesson with one line replaced (1-based), to break it in exactly one place. */
function breakLine(n: number, text: string): string {
  const lines = GOOD.split('\n');
  lines[n - 1] = text;
  return lines.join('\n');
}
const lineOf = (needle: string) => GOOD.split('\n').findIndex((l) => l.includes(needle)) + 1;

function expectError(text: string, line: number, reason: RegExp) {
  let err: unknown;
  try {
    parseLesson('lessons/bad.md', text);
  } catch (e) {
    err = e;
  }
  expect(err).toBeInstanceOf(LessonError);
  const le = err as LessonError;
  expect(le.file).toBe('lessons/bad.md');
  expect(le.reason).toMatch(reason);
  expect(le.line).toBe(line);
  expect(le.message).toBe(`lessons/bad.md:${line}: ${le.reason}`);
}

describe('parseLesson: good input', () => {
  it('reads front matter, runs, tables and steps with their lines', () => {
    const l = parseLesson('lessons/tiny.md', GOOD);
    expect(l.id).toBe('tiny');
    expect(l.runs['s']).toMatchObject({ kind: 'script' });
    expect(l.tables['t']!.configs.map((c) => c.label)).toEqual(['v4.16', 'mine']);
    expect(l.tables['t']!.configs[1]).toMatchObject({ batch: 4, high: 8 });
    expect(l.steps).toHaveLength(2);
    expect(l.steps[0]!.line).toBe(lineOf('## First'));
    expect(l.steps[0]!.at).toEqual({ kind: 'event', event: 'split', nth: 2 });
    expect(l.steps[0]!.prose).toContain('## not a heading'); // inside a fence: prose, not a step
    expect(l.steps[0]!.predict).toMatchObject({ kind: 'choice', answer: 1 });
    expect(l.steps[1]!.predict).toMatchObject({ kind: 'number', answer: { table: 't', tasks: 2, config: 'mine', measure: 'gain' } });
  });

  it('parses every lesson in lessons/, numbered in order, ids unique', () => {
    const files = readdirSync(join(root, 'lessons')).filter((f) => f.endsWith('.md'));
    expect(files.length).toBeGreaterThanOrEqual(5);
    const lessons = files.map((f) => parseLesson(`lessons/${f}`, readFileSync(join(root, 'lessons', f), 'utf8')));
    expect(new Set(lessons.map((l) => l.id)).size).toBe(lessons.length);
    for (const l of lessons) {
      expect(l.steps.length).toBeGreaterThan(0);
      // every lesson with a seed shows the seed's numbers beside the model's
      if (l.seedSource) expect(Object.values(l.tables).some((t) => t.quoted)).toBe(true);
    }
  });

  it('accepts CRLF line ends', () => {
    expect(parseLesson('x.md', GOOD.replace(/\n/g, '\r\n')).steps).toHaveLength(2);
  });
});

describe('parseLesson: bad input gives file:line: reason', () => {
  it.each([
    ['no front matter', () => GOOD.replace(/^---\n/, ''), () => 1, /starts with a front matter block/],
    ['unclosed front matter', () => GOOD.replace(/\n---\n\n## First/, '\n\n## First'), () => 1, /no closing "---"/],
    ['YAML syntax error', () => breakLine(lineOf('title:'), 'title: a: b'), () => lineOf('title:'), /YAML/],
    ['unknown front matter key', () => breakLine(lineOf('summary:'), 'sumary: Two steps.'), () => lineOf('summary:'), /unknown key "sumary"/],
    ['bad id', () => breakLine(lineOf('id: tiny'), 'id: Tiny Lesson'), () => lineOf('id: tiny'), /lower-case/],
    ['unknown preset', () => breakLine(lineOf('{ preset: v4.16 }'), '      - { preset: v9.99 }'), () => lineOf('{ preset: v4.16 }'), /v9.99.*not one of/],
    ['high below batch', () => breakLine(lineOf('label: mine'), '      - { label: mine, preset: v4.17, batch: 9, high: 8 }'), () => lineOf('label: mine'), /high \(8\) must be at least batch \(9\)/],
    ['quoted row width', () => breakLine(lineOf('[1, "x"]'), '        - [1, 2, 3]'), () => lineOf('[1, "x"]'), /3 cells for 2 columns/],
    ['step names a missing run', () => breakLine(lineOf('run: s'), 'run: nope'), () => lineOf('run: s'), /no run "nope"/],
    ['unknown view', () => breakLine(lineOf('views: [free-areas'), 'views: [free-areas, teapot]'), () => lineOf('views: [free-areas'), /"teapot" is not one of/],
    ['highlight outside views', () => breakLine(lineOf('highlight:'), 'highlight: pcp'), () => lineOf('highlight:'), /not among the step's views/],
    ['answer out of range', () => breakLine(lineOf('answer: 1'), '  answer: 2'), () => lineOf('answer: 1'), /answer must be a whole number from 0 to 1/],
    ['answer_from a missing table', () => breakLine(lineOf('answer_from'), '  answer_from: { table: zz, tasks: 2, config: mine }'), () => lineOf('answer_from'), /no table "zz"/],
    ['answer_from a missing row', () => breakLine(lineOf('answer_from'), '  answer_from: { table: t, tasks: 3, config: mine }'), () => lineOf('answer_from'), /no row for 3 tasks/],
    ['unknown step key', () => breakLine(lineOf('table: t'), 'tabel: t'), () => lineOf('table: t'), /unknown key "tabel"/],
    ['text before the first step', () => GOOD.replace('\n## First', 'stray words\n## First'), () => lineOf('## First') - 1, /text before the first step/],
    ['step without prose', () => GOOD.replace('More prose.\n', ''), () => lineOf('## Second'), /has no prose/],
    ['unclosed step block', () => GOOD.replace(/```\n\nMore prose\./, 'More prose.'), () => lineOf('## Second') + 2, /not closed/],
    ['empty heading', () => breakLine(lineOf('## Second'), '## '), () => lineOf('## Second'), /needs a title/],
  ])('%s', (_name, make, line, reason) => {
    expectError(make(), line(), reason);
  });

  it('bounds the file size before parsing', () => {
    expectError(GOOD + 'x'.repeat(LESSON_LIMITS.maxBytes), 1, /the limit is 65536/);
  });

  it('bounds the work a table may ask the browser for', () => {
    // 2 configs x 3 seeds x 3 x 224 tasks x 32768 pages x 2 rounds
    const big = GOOD.replace('pages: 16\n    tasks: [1, 2]', 'pages: 16384\n    tasks: [224, 224, 224]');
    expectError(big, lineOf('tasks: [1, 2]'), /page faults in all; the limit is/);
    // every task's pages live in the core's one zone
    const wide = GOOD.replace('pages: 16\n    tasks: [1, 2]', 'pages: 32768\n    tasks: [1, 224]');
    expectError(wide, lineOf('pages: 16'), /224 tasks x 32768 pages is 7340032 pages; the core's zone holds at most 4194304/);
  });

  it("runs three seeds per cell, the whole clear_page() and will-it-scale's cache ratio unless the table says", () => {
    const t = parseLesson('x.md', GOOD).tables['t']!;
    // 16 pages per task: the caches divided by the most there is, 64
    expect([t.seeds, t.clearLines, t.cacheScale]).toEqual([3, 64, 64]);
    const real = parseLesson('x.md', GOOD.replace('pages: 16\n', 'pages: 4096\n')).tables['t']!;
    expect(real.cacheScale).toBe(8); // 4096 x 8 pages: will-it-scale's 128 MB
    const scaled = parseLesson('x.md', GOOD.replace('pages: 16\n', 'pages: 4096\n    cache_scale: 1\n    seeds: 5\n')).tables['t']!;
    expect(scaled).toMatchObject({ pages: 4096, cacheScale: 1, seeds: 5 });
    expectError(GOOD.replace('pages: 16\n', 'pages: 16\n    cache_scale: 6\n'), lineOf('pages: 16') + 1, /cache_scale 6: must be a power of two, 1 to 64/);
    expectError(GOOD.replace('pages: 16\n', 'pages: 16\n    seeds: 6\n'), lineOf('pages: 16') + 1, /seeds must be a whole number from 1 to 5/);
  });

  it("runs the seed's topology where a table asks: a zone per node, the tasks out of step", () => {
    expect(parseLesson('x.md', GOOD).tables['t']).toMatchObject({ nodeZones: false, outOfStep: false });
    const numa = parseLesson('x.md', GOOD.replace('pages: 16\n', 'pages: 16\n    iterations: 3\n    node_zones: true\n    out_of_step: true\n')).tables['t']!;
    expect(numa).toMatchObject({ nodeZones: true, outOfStep: true, iterations: 3 });
    // out of step cuts the second round: the core needs a third
    expectError(GOOD.replace('pages: 16\n', 'pages: 16\n    out_of_step: true\n'), lineOf('pages: 16') + 1, /out_of_step is for page_fault1 with 3 or more iterations/);
    expectError(GOOD.replace('pages: 16\n', 'pages: 16\n    node_zones: yes please\n'), lineOf('pages: 16') + 1, /node_zones/);
  });

  it('refuses a step with more than the step limit', () => {
    const steps = Array.from({ length: LESSON_LIMITS.maxSteps + 1 }, (_, i) => `## s${i}\n\ntext\n`).join('\n');
    const text = GOOD.slice(0, GOOD.indexOf('## First')) + steps;
    expect(() => parseLesson('x.md', text)).toThrow(/more than 40 steps/);
  });
});

/** GOOD with its table and its answer_from turned into hackbench's: groups of senders, loops each. */
const HACK = GOOD.replace('workload: page_fault1\n    pages: 16\n    tasks: [1, 2]', 'workload: hackbench\n    loops: 16\n    groups: [2, 4]')
  .replace('{ table: t, tasks: 2, config: mine, measure: gain }', '{ table: t, groups: 2, config: mine, measure: gain }')
  .replace('runs:\n', 'runs:\n  hb:\n    sim: { workload: hackbench, preset: v4.16, groups: 4, loops: 100 }\n');
const hackLine = (needle: string) => HACK.split('\n').findIndex((l) => l.includes(needle)) + 1;

describe("each workload's own fields: hackbench has groups and loops, the others tasks/cpus and pages", () => {
  it('reads a hackbench table, run and answer_from by groups and loops', () => {
    const l = parseLesson('x.md', HACK);
    expect(l.tables['t']).toMatchObject({ workload: 'hackbench', tasks: [2, 4], loops: 16 });
    expect(l.runs['hb']).toMatchObject({ kind: 'sim', workload: 'hackbench', groups: 4, loops: 100 });
    expect(l.steps[1]!.predict).toMatchObject({ answer: { table: 't', tasks: 2, config: 'mine' } });
  });

  it.each([
    ["a hackbench table's pages", () => HACK.replace('    loops: 16', '    pages: 16'), 'pages: 16', /^tables\.t: a hackbench table takes no "pages" \(pages per task, or stress_highalloc's fill\); say "loops" \(hackbench's messages per sender\)$/],
    ["a hackbench table's tasks", () => HACK.replace('    groups: [2, 4]', '    tasks: [2, 4]'), 'tasks: [2, 4]', /^tables\.t: a hackbench table takes no "tasks" \(a table's task counts, one CPU each\); say "groups" \(hackbench's sender\/receiver groups\)$/],
    ["a hackbench run's cpus", () => HACK.replace('groups: 4, loops: 100', 'cpus: 4, loops: 100'), 'cpus: 4', /^runs\.hb\.sim: a hackbench run takes no "cpus" \(a run's CPUs, one task each\); say "groups" \(hackbench's sender\/receiver groups\)$/],
    ["a hackbench run's pages", () => HACK.replace('groups: 4, loops: 100', 'groups: 4, pages: 100'), 'pages: 100', /^runs\.hb\.sim: a hackbench run takes no "pages" \(pages per task, or stress_highalloc's fill\); say "loops"/],
    ["a hackbench answer_from's tasks", () => HACK.replace('groups: 2, config: mine', 'tasks: 2, config: mine'), 'answer_from', /^predict\.answer_from: table "t" runs hackbench, whose rows are groups: say "groups", not "tasks"$/],
    ["a hackbench answer_from's missing row", () => HACK.replace('groups: 2, config: mine', 'groups: 3, config: mine'), 'answer_from', /^predict\.answer_from\.groups: table "t" has no row for 3 groups \(2, 4\)$/],
    ["a page_fault1 table's loops", () => GOOD.replace('    pages: 16', '    loops: 16'), 'loops: 16', /^tables\.t: a page_fault1 table takes no "loops" \(hackbench's messages per sender\); say "pages" \(pages per task, or stress_highalloc's fill\)$/],
    ["a page_fault1 table's groups", () => GOOD.replace('    tasks: [1, 2]', '    groups: [1, 2]'), 'groups: [1, 2]', /^tables\.t: a page_fault1 table takes no "groups" \(hackbench's sender\/receiver groups\); say "tasks" \(a table's task counts, one CPU each\)$/],
    ["a page_fault1 table's cpus", () => GOOD.replace('    tasks: [1, 2]', '    cpus: [1, 2]'), 'cpus: [1, 2]', /^tables\.t: a page_fault1 table takes no "cpus" \(a run's CPUs, one task each\); say "tasks" \(a table's task counts, one CPU each\)$/],
    ["a hackbench table's cpus", () => HACK.replace('    groups: [2, 4]', '    cpus: [2, 4]'), 'cpus: [2, 4]', /^tables\.t: a hackbench table takes no "cpus" \(a run's CPUs, one task each\); say "groups" \(hackbench's sender\/receiver groups\)$/],
    ["a hackbench run's tasks", () => HACK.replace('groups: 4, loops: 100', 'tasks: 4, loops: 100'), 'tasks: 4', /^runs\.hb\.sim: a hackbench run takes no "tasks" \(a table's task counts, one CPU each\); say "groups" \(hackbench's sender\/receiver groups\)$/],
    ["a page_fault1 answer_from's groups", () => GOOD.replace('tasks: 2, config: mine', 'groups: 2, config: mine'), 'answer_from', /^predict\.answer_from: table "t" runs page_fault1, whose rows are tasks: say "tasks", not "groups"$/],
  ])('refuses %s, naming the table or run and the field', (_name, make, needle, reason) => {
    const text = make();
    expectError(text, text.split('\n').findIndex((l) => l.includes(needle)) + 1, reason);
  });

  it("refuses a page_fault1 run's groups and loops, and a hackbench band's tasks", () => {
    const pf1 = HACK.replace('workload: hackbench, preset: v4.16, groups: 4, loops: 100', 'workload: page_fault1, preset: v4.16, groups: 4, pages: 100');
    expectError(pf1, hackLine('groups: 4, loops: 100'), /^runs\.hb\.sim: a page_fault1 run takes no "groups" \(hackbench's sender\/receiver groups\); say "cpus" \(a run's CPUs, one task each\)$/);
    const loops = HACK.replace('workload: hackbench, preset: v4.16, groups: 4, loops: 100', 'workload: page_fault1, preset: v4.16, cpus: 4, loops: 100');
    expectError(loops, hackLine('groups: 4, loops: 100'), /^runs\.hb\.sim: a page_fault1 run takes no "loops" \(hackbench's messages per sender\); say "pages" \(pages per task, or stress_highalloc's fill\)$/);
    const five = readFileSync(join(root, 'lessons', '05-slub-prefetch.md'), 'utf8');
    const band = five.replace('{ config: prefetch on, groups: 8,', '{ config: prefetch on, tasks: 8,');
    expect(() => parseLesson('lessons/05-slub-prefetch.md', band)).toThrow(
      /^lessons\/05-slub-prefetch\.md:\d+: tables\.hackbench\.quoted\.bands\[0\]: table "hackbench" runs hackbench, whose rows are groups: say "groups", not "tasks"$/,
    );
  });
});

describe('lesson vocabulary', () => {
  it("names the player's jump kinds exactly", async () => {
    const { JUMP_KINDS } = await import('../log/player');
    const { JUMP_KIND_NAMES } = await import('./lesson');
    expect([...JUMP_KIND_NAMES].sort()).toEqual(Object.keys(JUMP_KINDS).sort());
  });
});

describe('lessons 5 and 6 (the slab and skip-merge work, now in the index)', () => {
  const read = (f: string) => readFileSync(join(root, 'lessons', f), 'utf8');
  it('lesson 5 (SLUB prefetch) runs hackbench with the four switch settings, in its own fields', () => {
    const l = parseLesson('lessons/05-slub-prefetch.md', read('05-slub-prefetch.md'));
    const t = l.tables['hackbench']!;
    expect(t).toMatchObject({ workload: 'hackbench', tasks: [2, 4, 8], loops: 4000 });
    expect(t).not.toHaveProperty('pages');
    expect(l.runs['remote']).toMatchObject({ kind: 'sim', workload: 'hackbench', groups: 4, loops: 100 });
    expect(l.runs['remote']).not.toHaveProperty('cpus');
    expect(t.quoted!.bands).toMatchObject([{ config: 'prefetch on', tasks: 8 }]);
    expect([...t.configs, ...l.tables['control']!.configs].map((c) => [c.slubPrefetch, c.sameCpu ?? false])).toEqual([
      [false, false],
      [true, false],
      [false, true],
      [true, true],
    ]);
    expect(l.steps.at(-1)!.predict).toBeDefined();
  });
  it('lesson 6 (skip-merge) uses the lu-rfc presets against their own base (v4.17: the tree the RFC edits), page_fault1 and stress_highalloc', () => {
    const l = parseLesson('lessons/06-skip-merge.md', read('06-skip-merge.md'));
    // every table but the cost one against the base; the cost one sets the two compacting
    // presets against each other, like with like (the base never compacts in the model)
    for (const [id, t] of Object.entries(l.tables)) expect(t.configs.map((c) => c.preset), id).toEqual(id === 'hicost' ? ['lu-rfc-p2', 'lu-rfc-p4'] : ['v4.17', 'lu-rfc-p2', 'lu-rfc-p4']);
    // the seed's rows: 0 base, 1 patch 2/4, 2 patch 4/4
    expect(l.tables['hicost']!.quoted!.bands![0]).toMatchObject({ config: 'lu-rfc-p4', by: 'row', index: 2, base: 1 });
    expect(l.tables['hicost']!.workload).toBe('stress_highalloc');
    expect(l.tables['hicost']).toMatchObject({ workload: 'stress_highalloc', iterations: 8 }); // attempts
    expect(l.runs['highalloc']).toMatchObject({ kind: 'sim', workload: 'stress_highalloc' });
  });
  it('bounds each workload by what its numbers mean to the core', () => {
    const base = read('06-skip-merge.md');
    // stress_highalloc: pages is the zone, at least 4 pageblocks
    expect(() => parseLesson('x.md', base.replace('    pages: 16384\n    iterations: 8', '    pages: 1024\n    iterations: 8'))).toThrow(
      /tables\.hifrag\.pages must be a whole number from 2048 to 16384/,
    );
    // attempts up to 16, more than page_fault1's 4 rounds
    expect(parseLesson('x.md', base.replaceAll('iterations: 8', 'iterations: 16')).tables['hicost']).toMatchObject({ iterations: 16 });
    expect(() => parseLesson('x.md', base.replaceAll('iterations: 8', 'iterations: 17'))).toThrow(/iterations must be a whole number from 1 to 16/);
    // work bound: tasks x pages x rounds x configs x seeds
    expect(() => parseLesson('x.md', base.replace('tasks: [28, 56, 112]', 'tasks: [28, 56, 112, 112, 112, 112, 112, 112]').replace('pages: 4096\n', 'pages: 8192\n'))).toThrow(
      /page faults in all; the limit is/,
    );
    const five = read('05-slub-prefetch.md');
    expect(() => parseLesson('x.md', five.replace('    loops: 4000', '    iterations: 2\n    loops: 4000'))).toThrow(/hackbench takes no iterations/);
    expect(() => parseLesson('x.md', five.replace('groups: [2, 4, 8]', 'groups: [1, 4, 8]'))).toThrow(/tables\.hackbench\.groups: each entry must be a whole number from 2 to 112 for hackbench/);
  });
  it('no lesson waits in lessons/drafts any more', () => {
    expect(existsSync(join(root, 'lessons', 'drafts'))).toBe(false);
  });
});
