// The lesson player's parts that need no browser: where a step starts on the real core (lesson
// 1's first step shows the zone set-up left, one free order-4 block), which paragraph a figure
// stands beside, and the kernel links at the tag a preset models.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { replayScript, simScenario, type BlabFactory, type BlabModule } from '../engine/blab-module';
import { decodeEvents } from '../log/events';
import { Player } from '../log/player';
import { narrate } from '../log/narrate';
import { buddyinfoText } from '../views/procfs';
import { parseLesson } from './parse';
import { runScaleNote, runSimRequest, stepFor } from './runs';
import { assignFigures } from './figures';
import { kernelLink, presetTag } from './kernel-link';
import { CORE_PRESETS } from '../scenario/core-schema';

const root = join(import.meta.dirname, '..', '..');
const modulePath = join(root, 'build', 'wasm', 'node', 'blab.js');
let m: BlabModule;
beforeAll(async () => {
  if (!existsSync(modulePath)) throw new Error(`${modulePath} is missing: run "make wasm" first`);
  m = await (createRequire(import.meta.url)(modulePath) as BlabFactory)({ noInitialRun: true });
});

describe('what the replay says about its size', () => {
  const lesson = (f: string) => parseLesson(`lessons/${f}`, readFileSync(join(root, 'lessons', f), 'utf8'));
  it("names each workload's sizes in its own words: hackbench's groups and messages, never pages", () => {
    const five = lesson('05-slub-prefetch.md');
    const note = runScaleNote(five.runs['remote']!, five);
    expect(note).toContain('4 groups x 100 messages');
    expect(note).toContain('The tables come from runs at 4000 messages per sender, up to 8 groups.');
    expect(note).not.toMatch(/pages per task|tasks/);
    const six = lesson('06-skip-merge.md');
    expect(runScaleNote(six.runs['skipped']!, six)).toContain('4096 pages per task, up to 112 tasks; a zone of 16384 pages, up to 8 CPUs');
  });
});

describe('where a step starts', () => {
  it('every step that starts at "the Nth drain" (merge, refill ...) finds it in its run: none falls through to the end', () => {
    // lesson 4's first step asked for the 6th drain of a v5.18 run whose lists (high 576) never
    // reached high at 384 pages per CPU: the page showed the run's last record and no bulk free
    const missing: string[] = [];
    for (const f of readdirSync(join(root, 'lessons')).filter((x) => x.endsWith('.md'))) {
      const l = parseLesson(`lessons/${f}`, readFileSync(join(root, 'lessons', f), 'utf8'));
      const players = new Map<string, Player>();
      l.steps.forEach((s, k) => {
        if (s.at.kind !== 'event' || !s.run) return;
        const run = l.runs[s.run]!;
        let p = players.get(run.name);
        if (!p) {
          const r = run.kind === 'script' ? replayScript(m, run.script) : simScenario(m, runSimRequest(run));
          expect(r.status, `${f} run ${run.name}: ${r.stderr}`).toBe(0);
          p = new Player(decodeEvents(r.events));
          players.set(run.name, p);
        }
        let pos: number | undefined = 0;
        for (let n = 0; n < s.at.nth && pos !== undefined; n++) pos = p.findNext(s.at.event, pos);
        if (pos === undefined) missing.push(`${f} step ${k + 1}: run ${run.name} has fewer than ${s.at.nth} ${s.at.event} records`);
      });
    }
    expect(missing).toEqual([]);
  }, 120_000);

  it('lesson 1 step 1 shows the zone as one free order-4 block, as its prose says', () => {
    const l = parseLesson('lessons/01-buddy.md', readFileSync(join(root, 'lessons', '01-buddy.md'), 'utf8'));
    const step = l.steps[0]!;
    expect(step.at).toEqual({ kind: 'start' });
    expect(step.prose).toMatch(/single free block of order 4/);
    const run = l.runs[step.run!]!;
    if (run.kind !== 'script') throw new Error('lesson 1 runs an op script');
    const r = replayScript(m, run.script);
    expect(r.status).toBe(0);
    const p = new Player(decodeEvents(r.events));
    p.seek(stepFor(p, step.at));
    expect(p.state.nrFreeOrder(4)).toBe(1);
    for (const o of [0, 1, 2, 3]) expect(p.state.nrFreeOrder(o)).toBe(0);
    expect(buddyinfoText(p)).toMatch(/Normal\s+0\s+0\s+0\s+0\s+1$/);
    expect(narrate(p.log, p.currentIndex())).toMatch(/^Set-up: block pfn 0x0 order 4 added to free_area\[4\]/);
    // step 0, before the set-up records, was the empty zone the old first step showed
    p.seek(0);
    expect(p.state.nrFreeOrder(4)).toBe(0);
  });
});

describe('figures beside the paragraph that discusses them', () => {
  it('puts each view beside the first paragraph that names it, else beside the first', () => {
    const paras = ['Blocks of 2^order pages; free_area[k] holds them.', 'A word on nothing.', 'The /proc/buddyinfo line, and the pcp lists with high and batch.'];
    expect(assignFigures(paras, ['free-areas', 'buddyinfo', 'pcp', 'lock-timeline'])).toEqual([0, 2, 2, 0]);
  });
});

describe('kernel links at the tag a preset models', () => {
  it('links by identifier at the preset\'s tag, under the name the kernel had there', () => {
    expect(kernelLink('free_pcppages_bulk', 'v4.16')).toEqual({ url: 'https://elixir.bootlin.com/linux/v4.16/C/ident/free_pcppages_bulk', name: 'free_pcppages_bulk', tag: 'v4.16' });
    expect(kernelLink('free_pcppages_bulk', 'v4.17-pick').tag).toBe('v4.17');
    expect(kernelLink('free_unref_page_commit', 'v2.6.25')).toMatchObject({ name: 'free_hot_cold_page', url: 'https://elixir.bootlin.com/linux/v2.6.25/C/ident/free_hot_cold_page' });
    expect(kernelLink('__rmqueue_pcplist', 'v4.16').name).toBe('__rmqueue_pcplist');
    expect(kernelLink('rmqueue_bulk', 'v2.5.45')).toMatchObject({ tag: 'v2.6.12', note: expect.stringMatching(/v2.5.45 predates the git history/) });
    expect(kernelLink('__free_one_page', 'lu-rfc-p4')).toMatchObject({ tag: 'v4.16', note: expect.stringMatching(/never merged/) });
    expect(kernelLink('expand', undefined).url).toBe('https://elixir.bootlin.com/linux/latest/C/ident/expand');
  });

  it('knows the tag of every preset the core has', () => {
    for (const p of CORE_PRESETS) expect(presetTag(p.name), p.name).toMatch(/^v\d+\.\d+(\.\d+)?$/);
    expect(presetTag('v5.18-prefetch')).toBe('v5.18');
  });
});
