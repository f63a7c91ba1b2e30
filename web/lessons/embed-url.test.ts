// The embedded figure's address: what it accepts, and that every refusal names the parameter
// and says why (the frame shows that message, never an empty figure). On the real lessons.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseLesson } from './parse';
import type { Lesson } from './lesson';
import { EmbedUrlError, embedHref, iframeSnippet, parseEmbedQuery, resolveEmbed, stepsShowing } from './embed-url';

const root = join(import.meta.dirname, '..', '..');
const lessons: Lesson[] = readdirSync(join(root, 'lessons'))
  .filter((f) => f.endsWith('.md'))
  .map((f) => parseLesson(`lessons/${f}`, readFileSync(join(root, 'lessons', f), 'utf8')));
const buddy = lessons.find((l) => l.id === 'buddy')!;

/** the refusal of a query: its parameter and its message */
function refused(search: string): { param: string; message: string } {
  try {
    resolveEmbed(parseEmbedQuery(search), lessons);
  } catch (e) {
    if (e instanceof EmbedUrlError) return { param: e.param, message: e.message };
    throw e;
  }
  throw new Error(`${search} was accepted`);
}

describe('embed address', () => {
  it('reads a figure, a lesson and a step, and finds the step among those that show the figure', () => {
    const q = parseEmbedQuery('?embed=free-areas&lesson=buddy&step=3');
    expect(q).toEqual({ view: 'free-areas', lesson: 'buddy', step: 3 });
    const t = resolveEmbed(q, lessons);
    expect(t.lesson.id).toBe('buddy');
    // every step of lesson 1 with a run shows the free areas
    expect(t.steps).toEqual(stepsShowing(buddy, 'free-areas'));
    expect(t.steps[t.at]).toBe(2);
    for (const i of t.steps) expect(buddy.steps[i]!.views).toContain('free-areas');
  });

  it('starts at the first step with the figure when no step is given, and takes a theme', () => {
    const t = resolveEmbed(parseEmbedQuery('?embed=buddy-tree&lesson=buddy&theme=light'), lessons);
    expect(t.at).toBe(0);
    expect(buddy.steps[t.steps[0]!]!.views).toContain('buddy-tree');
    expect(parseEmbedQuery('?embed=pcp&lesson=autotune&theme=dark').theme).toBe('dark');
  });

  it('writes the address it reads back, and an iframe with a title and the size asked for', () => {
    const href = embedHref('pcp', 'autotune', 4, 'light');
    expect(parseEmbedQuery(href)).toEqual({ view: 'pcp', lesson: 'autotune', step: 4, theme: 'light' });
    const html = iframeSnippet(`https://example.org/buddylab/${href}`, 'buddylab: "pcp" <lists>', 640, 400);
    expect(html).toContain('width="640" height="400"');
    expect(html).toContain('title="buddylab: &quot;pcp&quot; &lt;lists&gt;"');
    expect(html).toContain('src="https://example.org/buddylab/?embed=pcp&amp;lesson=autotune&amp;step=4&amp;theme=light"');
    expect(html).toContain('allow="cross-origin-isolated"');
  });

  it.each([
    ['?embed=pcp&lesson=buddy&step=1&foo=2', 'foo', /not a parameter of an embedded figure/],
    ['?embed=pcp&lesson=buddy&step=1&step=2', 'step', /more than once/],
    ['?embed=flames&lesson=buddy', 'embed', /"flames" is not a figure a lesson shows; the figures: free-areas, /],
    ['?embed=&lesson=buddy', 'embed', /"" is not a figure/],
    ['?embed=pcp', 'lesson', /missing/],
    ['?embed=pcp&lesson=Buddy!', 'lesson', /not a lesson id/],
    ['?embed=pcp&lesson=nosuch', 'lesson', /no lesson "nosuch"; the lessons: .*buddy/],
    ['?embed=pcp&lesson=buddy', 'embed', /lesson "buddy" never shows pcp lists \(pcp\); its figures: free-areas/],
    ['?embed=free-areas&lesson=buddy&step=0', 'step', /0 is out of range/],
    ['?embed=free-areas&lesson=buddy&step=41', 'step', /41 is out of range/],
    ['?embed=free-areas&lesson=buddy&step=2.5', 'step', /"2.5" is not a step number/],
    ['?embed=free-areas&lesson=buddy&step=-1', 'step', /not a step number/],
    ['?embed=free-areas&lesson=buddy&step=99999999', 'step', /not a step number/],
    ['?embed=free-areas&lesson=buddy&step=30', 'step', /30 is past the end: lesson "buddy" has \d+ steps; .* is on steps /],
    ['?embed=free-areas&lesson=buddy&theme=blue', 'theme', /"blue": light or dark/],
  ])('refuses %s, naming %s and why', (search, param, why) => {
    const r = refused(search);
    expect(r.param).toBe(param);
    expect(r.message.startsWith(`${param}: `)).toBe(true);
    expect(r.message).toMatch(why);
  });

  it('refuses a step that does not show the figure, with the steps that do', () => {
    const without = buddy.steps.findIndex((s) => !s.views.includes('buddy-tree'));
    expect(without).toBeGreaterThanOrEqual(0);
    const r = refused(`?embed=buddy-tree&lesson=buddy&step=${without + 1}`);
    expect(r.param).toBe('step');
    const showing = stepsShowing(buddy, 'buddy-tree').map((i) => i + 1);
    expect(r.message).toMatch(new RegExp(`^step: step ${without + 1} of lesson "buddy" does not show Buddy tree; the steps that do: ${showing.join(', ')}$`));
  });

  it('refuses an address too long to be one, quoting at most a short piece of a bad value', () => {
    const r = refused(`?embed=pcp&lesson=buddy&x=${'a'.repeat(500)}`);
    expect(r.param).toBe('');
    expect(r.message).toMatch(/at most 400/);
    const long = refused(`?embed=${'z'.repeat(100)}&lesson=buddy`);
    expect(long.message.length).toBeLessThan(300);
  });
});
