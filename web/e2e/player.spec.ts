// The lesson player that explains itself, in Chromium: the sentence for the current record and
// the buttons that step it, a legend on every figure, figures beside their paragraph, terms that
// point at figure parts, the moving pictures (d3-transition), the source pane, predict questions
// before the run, and the "wrong or misleading" fixes each pinned here.
import { expect, frame, test, type Locator, type Page } from './fixtures';
import { readFileSync } from 'node:fs';
import { watchConsole } from './console-errors';
import { PATHS } from '../log/events';

const ready = (page: Page, n: number) => expect(page.locator('.lesson-stage')).toHaveAttribute('data-ready', String(n), { timeout: 120_000 });
const box = async (l: Locator) => (await l.boundingBox())!;

test('lesson 1 step 1 shows the zone as one free order-4 block, as its prose says', async ({ page }) => {
  const errors = watchConsole(page);
  await page.goto('/?lesson=buddy&step=1');
  await ready(page, 1);
  await expect(page.locator('.prose-group', { hasText: 'Our zone has 16 pages' })).toContainText('single free block of order 4');
  await expect(page.locator('#lv-buddyinfo pre')).toHaveText(/Normal\s+0\s+0\s+0\s+0\s+1$/);
  await expect(page.locator('#lv-free-areas .fa-count').first()).toContainText('nr_free 1'); // order 4, the top row
  await expect(page.locator('.narration')).toHaveText(/^Set-up: block pfn 0x0 order 4 added to free_area\[4\]/);
  expect(errors).toEqual([]);
});

test('every step says what the current record did; step back and forward move one record and the sentence follows', async ({ page }) => {
  const errors = watchConsole(page);
  await page.goto('/?lesson=prefetch&step=1');
  await ready(page, 1);
  const said = page.locator('.narration');
  const pos = page.locator('.run-pos');
  // the step stops at the 6th drain: the list that reached high, and the pages it returns
  await expect(said).toHaveText(/^CPU \d+'s list reached high = 186: free_pcppages_bulk\(\) returns 31 pages to the buddy\.$/);
  const at = Number((await pos.innerText()).match(/record (\d+)/)![1]);
  const first = await said.innerText();
  await page.getByRole('button', { name: 'Step back one record' }).click();
  await expect(pos).toHaveText(`record ${at - 1} / ${(await pos.innerText()).split(' / ')[1]}`);
  await expect(said).not.toHaveText(first);
  await page.getByRole('button', { name: 'Step forward one record' }).click();
  await expect(said).toHaveText(first);
  await expect(pos).toContainText(`record ${at} /`);
  expect(errors).toEqual([]);
});

test('"record N / M" is never clipped under "Run as JSON", at any width', async ({ page }) => {
  // each lesson loads once, at the narrowest width, and the window is then widened (the
  // bar is laid out by CSS alone, so a load at each width would show the same)
  for (const [id, n] of [['buddy', 1], ['prefetch', 1], ['hotcold', 1], ['skipmerge', 1]] as const) {
    await page.setViewportSize({ width: 390, height: 900 });
    await page.goto(`/?lesson=${id}&step=${n}`);
    await ready(page, n);
    for (const width of [390, 1000, 1440, 1920]) {
      await page.setViewportSize({ width, height: 900 });
      await frame(page);
      const out = page.locator('.run-pos');
      const json = page.getByRole('button', { name: 'Run as JSON' });
      const [a, b] = [await box(out), await box(json)];
      const apart = a.x + a.width <= b.x + 0.5 || b.x + b.width <= a.x + 0.5 || a.y + a.height <= b.y + 0.5 || b.y + b.height <= a.y + 0.5;
      expect(apart, `${id} at ${width} px: ${JSON.stringify([a, b])}`).toBe(true);
      // and the text fits its box
      expect(await out.evaluate((e) => e.scrollWidth <= e.clientWidth + 1), `${id} at ${width} px`).toBe(true);
    }
  }
});

test('every figure that draws colours has its own legend', async ({ page }) => {
  const errors = watchConsole(page);
  for (const [id, n] of [['buddy', 1], ['hotcold', 1], ['hotcold', 3], ['prefetch', 1], ['skipmerge', 1]] as const) {
    await page.goto(`/?lesson=${id}&step=${n}`);
    await ready(page, n);
    const panels = page.locator('.lesson-stage section.panel');
    expect(await panels.count()).toBeGreaterThan(0);
    for (const p of await panels.all()) {
      // text views (/proc/buddyinfo, the counters) and a record with no picture draw no colour;
      // every other figure names its colours
      if (await p.locator('pre.procfs, svg.event-svg[data-kind="none"]').count()) continue;
      await expect(p.locator('.figure-legend li').first(), `${id} step ${n}: ${await p.getAttribute('id')}`).toBeVisible();
    }
  }
  expect(errors).toEqual([]);
});

test('figures stand beside the paragraph that discusses them on a wide screen, under it on a narrow one', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 1000 });
  await page.goto('/?lesson=buddy&step=1');
  await ready(page, 1);
  const para = page.locator('.prose-group', { hasText: '/proc/buddyinfo' });
  const fig = page.locator('#lv-buddyinfo');
  let [p, f] = [await box(para), await box(fig)];
  expect(Math.abs(p.y - f.y)).toBeLessThan(4); // one row
  expect(f.x).toBeGreaterThan(p.x + p.width); // beside it
  await page.setViewportSize({ width: 390, height: 900 });
  await expect.poll(async () => (await box(fig)).x).toBeLessThan(60);
  [p, f] = [await box(para), await box(fig)];
  expect(f.y).toBeGreaterThan(p.y + p.height - 1); // stacked below
  // and nothing on the page scrolls sideways (long C lines and wide figures scroll in their own box)
  for (const [id, n] of [['buddy', 1], ['prefetch', 1], ['skipmerge', 1]] as const) {
    await page.goto(`/?lesson=${id}&step=${n}`);
    await ready(page, n);
    expect(await page.evaluate(() => document.documentElement.scrollWidth), `${id} step ${n}`).toBeLessThanOrEqual(390);
  }
});

test('on a phone a wide table scrolls in its box and its caption wraps inside the box, readable without scrolling', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  // lesson 9's sweep: seven configurations side by side, wider than a phone
  await page.goto('/?lesson=tail&step=3');
  await page.locator('form.predict input[type=radio]').first().check();
  await page.getByRole('button', { name: 'Check my prediction' }).click();
  await ready(page, 3);
  const fig = page.locator('table.model').first().locator('xpath=..');
  const [t, f, c] = await Promise.all(['table.model', '', 'table.model caption'].map((s) => (s ? page.locator(s).first() : fig).evaluate((e) => e.getBoundingClientRect().toJSON() as DOMRect)));
  expect(t!.width, 'the table is wider than its box (else this proves nothing)').toBeGreaterThan(f!.width);
  expect(c!.right, "the caption's lines end inside the box").toBeLessThanOrEqual(f!.right + 1);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});

test('terms in the prose point at the part of the figure they name, by pointer and by keyboard', async ({ page }) => {
  const errors = watchConsole(page);
  await page.goto('/?lesson=prefetch&step=1');
  await ready(page, 1);
  const svg = page.locator('#lv-pcp svg.pcp-svg');
  // pcp->high: the high marks take the focus colour
  const high = page.locator('.prose code.term[data-term="pcp->high"]').first();
  await high.hover();
  await expect(svg).toHaveAttribute('data-mark', 'high');
  expect(await svg.locator('line.pcp-high').first().evaluate((l) => getComputedStyle(l).stroke)).toBe('rgb(240, 228, 66)');
  await page.mouse.move(5, 5);
  await expect(svg).toHaveAttribute('data-mark', '');
  // zone->lock, reached with the keyboard: its lanes in the lock timeline are outlined (pixels change)
  const lanes = page.locator('#lv-lock-timeline canvas');
  const before = await lanes.screenshot();
  const lock = page.locator('.prose code.term[data-term="zone->lock"]').first();
  await lock.focus();
  await expect(svg).toHaveAttribute('data-mark', 'lock');
  await expect.poll(async () => Buffer.compare(await lanes.screenshot(), before)).not.toBe(0);
  // a pfn in running text, on the buddy lesson: the free areas outline it
  await page.goto('/?lesson=buddy&step=1');
  await ready(page, 1);
  const fa = page.locator('#lv-free-areas canvas');
  const plain = await fa.screenshot();
  await page.locator('.pfn-term.term').first().hover();
  await expect.poll(async () => Buffer.compare(await fa.screenshot(), plain)).not.toBe(0);
  expect(errors).toEqual([]);
});

/** The run's records (Run as JSON), to find one of a kind. */
async function records(page: Page): Promise<{ type: number; flags: number; path: number }[]> {
  const [d] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Run as JSON' }).click()]);
  const j = JSON.parse(readFileSync((await d.path())!, 'utf8')) as { fields: string[]; records: number[][] };
  const [type, flags, path] = ['type', 'flags', 'path'].map((f) => j.fields.indexOf(f)) as [number, number, number];
  return j.records.map((r) => ({ type: r[type]!, flags: r[flags]!, path: r[path]! }));
}

/** Seeks the step's run to just after record i, and waits for its picture. */
async function seekTo(page: Page, i: number, kind: string) {
  await page.locator('#lesson-scrub').fill(String(i + 1));
  await expect(page.locator('svg.event-svg')).toHaveAttribute('data-kind', kind);
}

/** An attribute of the picture's shapes, read twice while it moves: it changes, then settles. */
async function moves(page: Page, sel: string, attr: string) {
  const read = () => page.locator(`svg.event-svg ${sel}`).first().getAttribute(attr);
  const a = await read();
  await page.waitForTimeout(1500);
  const b = await read();
  expect(a, `${sel} ${attr}`).not.toBe(b);
  await page.waitForTimeout(300);
  expect(await read()).toBe(b);
}

// @timed (run alone, playwright.config.ts): each transition moves within 1.5 s and settles by 1.8 s
test('splits, merges, refills, drains and prefetch hits, late ones and wasted ones move (d3-transition)', { tag: '@timed' }, async ({ page }) => {
  test.setTimeout(180_000);
  const errors = watchConsole(page);
  // split and merge on the buddy lesson
  await page.goto('/?lesson=buddy&step=1');
  await ready(page, 1);
  let recs = await records(page);
  await seekTo(page, recs.findIndex((r) => r.type === 9), 'split');
  await moves(page, '.ev-moving', 'y'); // the upper half drops to the order below
  await seekTo(page, recs.findIndex((r) => r.type === 10), 'merge');
  await moves(page, '.ev-moving', 'y'); // the two halves rise and join
  // refill, drain and the prefetches on lesson 3's 4.17 run
  await page.goto('/?lesson=prefetch&step=2');
  await page.locator('form.predict input[type=radio]').first().check();
  await page.getByRole('button', { name: 'Check my prediction' }).click();
  await ready(page, 2);
  recs = await records(page);
  // a refill's or drain's begin record (flags bit 0 marks the end one); an access by its outcome
  const at = (t: number, outcome?: number) =>
    recs.findIndex((r) => r.type === t && (outcome === undefined ? (t !== 11 && t !== 12) || (r.flags & 1) === 0 : (r.flags & 0xf) === outcome));
  await seekTo(page, at(11), 'refill');
  await moves(page, '.ev-moving', 'x');
  await seekTo(page, at(12), 'drain');
  await moves(page, '.ev-moving', 'x');
  for (const [t, outcome, kind] of [[15, 5, 'hit'], [15, 6, 'late'], [17, undefined, 'wasted']] as const) {
    const i = at(t, outcome);
    expect(i, kind).toBeGreaterThanOrEqual(0);
    await seekTo(page, i, kind);
    await moves(page, '.ev-moving', 'x'); // the line travels from prefetch() towards the read
  }
  expect(errors).toEqual([]);
});

test('the source pane shows the C that wrote the current record and the kernel function at the preset\'s tag', async ({ page }) => {
  const errors = watchConsole(page);
  await page.goto('/?lesson=prefetch&step=1'); // the v4.16 run, stopped on a drain
  await ready(page, 1);
  const pane = page.locator('.source-pane');
  await expect(pane.locator('.source-head')).toContainText(/\w+\(\) [\w/]+\.[ch]:\d+/);
  // the highlighted line is the call that puts the current record's code path on it
  const recs = await records(page);
  const pos = Number((await page.locator('.run-pos').innerText()).match(/record (\d+)/)![1]);
  const path = PATHS.find((p) => p.id === recs[pos - 1]!.path)!.name;
  await expect.poll(async () => (await pane.locator('.src-now').allInnerTexts()).join(' ')).toContain(`BLAB_PATH_${path}`);
  await expect(pane.locator('a.kernel-link').first()).toHaveAttribute('href', /^https:\/\/elixir\.bootlin\.com\/linux\/v4\.16\/C\/ident\/\w+$/);
  // another record, another function: a split in lesson 1 is expand()'s
  await page.goto('/?lesson=buddy&step=1');
  await ready(page, 1);
  const split = (await records(page)).findIndex((r) => r.type === 9);
  await seekTo(page, split, 'split');
  await expect(pane).toHaveAttribute('data-fn', 'expand');
  await expect.poll(async () => (await pane.locator('.src-now').allInnerTexts()).join(' ')).toMatch(/BLAB_EV_SPLIT[\s\S]*BLAB_PATH_EXPAND/);
  await expect(pane.getByRole('link', { name: /^expand\(\) in Linux/ })).toHaveAttribute('href', /\/C\/ident\/expand$/);
  expect(errors).toEqual([]);
});

test('a predict question comes before the prose and the run, stays in view once answered, and can be reset', async ({ page }) => {
  const errors = watchConsole(page);
  await page.goto('/?lesson=buddy&step=2');
  const q = page.locator('#predict-q');
  await expect(q).toBeVisible();
  expect((await box(q)).y).toBeLessThan((await box(page.locator('.prose-group > p').first())).y);
  await expect(page.locator('.stage-wait')).toBeVisible();
  await expect(page.locator('.after-answer')).toHaveCount(0);
  await expect(page.locator('.lesson-stage section.panel')).toHaveCount(0);
  await page.locator('label', { hasText: '1 1 1 1 0' }).click();
  await page.getByRole('button', { name: 'Check my prediction' }).click();
  await ready(page, 2);
  await expect(q).toBeVisible(); // the question stays, the answer under it
  await expect(page.locator('.feedback')).toContainText('Right: you said 1 1 1 1 0.');
  await expect(page.locator('.after-answer').first()).toContainText('one free block at each of orders 3, 2, 1 and 0');
  expect(await page.evaluate(() => JSON.parse(localStorage.getItem('buddylab')!).lessons.buddy.answers['1'].given)).toBe(1);
  await page.getByRole('button', { name: 'Reset my answer' }).click();
  await expect(page.locator('form.predict')).toBeVisible();
  await expect(page.locator('.after-answer')).toHaveCount(0);
  await expect(page.locator('.stage-wait')).toBeVisible();
  expect(await page.evaluate(() => JSON.parse(localStorage.getItem('buddylab')!).lessons.buddy.answers['1'])).toBeUndefined();
  expect(errors).toEqual([]);
});

test('in lecture mode the answer waits for the lecturer: R reveals it, and nothing is saved', async ({ page }) => {
  const errors = watchConsole(page);
  // a student's saved answer does not give it away on the projector
  await page.goto('/?lesson=prefetch&step=2');
  await page.locator('form.predict input[type=radio]').first().check();
  await page.getByRole('button', { name: 'Check my prediction' }).click();
  await ready(page, 2);
  await page.goto('/?lesson=prefetch&step=3&lecture=1');
  await expect(page.locator('.predict.lecture-q')).toBeVisible();
  await expect(page.locator('.feedback')).toHaveCount(0);
  await page.keyboard.press('PageUp');
  await expect(page.locator('.step-counter')).toHaveText('step 2 of 4');
  await expect(page.locator('.feedback')).toHaveCount(0);
  await expect(page.locator('.stage-wait')).toContainText('revealed (R)');
  await page.keyboard.press('r');
  await expect(page.locator('.feedback.revealed')).toContainText('The answer: taking the pages off');
  await ready(page, 2);
  const saved = await page.evaluate(() => JSON.parse(localStorage.getItem('buddylab')!).lessons.prefetch.answers);
  expect(Object.keys(saved)).toEqual(['1']); // only the student's own, from before
  expect(errors).toEqual([]);
});

test("the model and the seed disagree in lesson 3: the page says so next to the number", async ({ page }) => {
  const errors = watchConsole(page);
  await page.goto('/?lesson=prefetch&step=4');
  await page.locator('form.predict input[type=radio]').first().check();
  await page.getByRole('button', { name: 'Check my prediction' }).click();
  await ready(page, 4);
  const row = page.locator('table.model tbody tr', { has: page.locator('th', { hasText: /^56$/ }) });
  const heads = await page.locator('table.model thead th').allInnerTexts();
  const pick = row.locator('td').nth(heads.indexOf('v4.17-pick vs v4.16') - 1);
  // the whole sentence is the band's accessible name; the page shows it long, a slide short
  await expect(pick.locator('.seed-band')).toHaveAttribute('aria-label', /^seed \+2\.9% \.\. \+10\.8%: (the model agrees|the model's [+-]\d+\.\d% is (below|above) it)$/);
  const cellGain = Number((await pick.innerText()).match(/^([+-]?\d+\.\d)%/)?.[1] ?? NaN);
  const note = (await pick.locator('.seed-band').getAttribute('aria-label')) ?? '';
  expect(note.includes('below')).toBe(cellGain < 2.9);
  expect(errors).toEqual([]);
});

test('captions name the benchmark the table ran: page_fault1 in pages/s, stress_highalloc in lesson 6', async ({ page }) => {
  await page.goto('/?lesson=prefetch&step=4');
  await page.locator('form.predict input[type=radio]').first().check();
  await page.getByRole('button', { name: 'Check my prediction' }).click();
  await ready(page, 4);
  const cap = page.locator('table.model caption');
  await expect(cap).toContainText('page_fault1, score, pages/s');
  await expect(cap).not.toContainText('hackbench');
  await page.goto('/?lesson=skipmerge&step=5');
  await ready(page, 5);
  await expect(cap).toContainText('stress_highalloc');
  await expect(cap).not.toContainText('page_fault1');
});

test('the workbench hint names the scenario the button runs, not a fixed "4 model CPUs"', async ({ page }) => {
  await page.goto('/?workbench');
  const line = page.locator('#event-line');
  await expect(line).toContainText(/run page_fault1 on \d+ model CPUs/);
  await page.locator('#sc-cpus').fill('8');
  await page.locator('#sc-cpus').dispatchEvent('change');
  await expect(line).toContainText('run page_fault1 on 8 model CPUs');
  await page.locator('#sc-workload').selectOption('hackbench');
  await expect(line).toContainText('run hackbench on');
});
