// The course pages in Chromium: every lesson walked from first to last step answering each
// predict question, twice, with the same numbers; lecture mode and embedding; exports.
import { expect, test, type Page } from './fixtures';
import { axe } from './axe';
import { readFileSync } from 'node:fs';

function watchConsole(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(String(e)));
  return errors;
}

/** A table's text without the seeds' min..max lines under the means. */
const means = (text: string) => text.replace(/\n-?[\d,.]+\.\.-?[\d,.]+/g, '');
/** The first line of a cell: the mean. */
const mean = (cell: string) => cell.split('\n')[0]!;

/** Walks one lesson; returns every computed number it showed, step by step. */
async function walk(page: Page, id: string): Promise<string[]> {
  await page.goto(`/?lesson=${id}&step=1`);
  const seen: string[] = [];
  const stage = page.locator('.lesson-stage');
  for (let n = 1; ; n++) {
    await expect(page.locator('.step-counter')).toHaveText(new RegExp(`^step ${n} of \\d+$`));
    const form = page.locator('form.predict');
    if (await form.count()) {
      // not revealed before the answer: the run, nor (on the last step) what the model leaves
      // out, which may say how far the model sits from the seed
      await expect(page.locator('.stage-wait')).toBeVisible();
      await expect(page.locator('.leaves-out')).toHaveCount(0);
      if (await form.locator('input[type=radio]').count()) await form.locator('input[type=radio]').first().check();
      else await form.locator('input[type=number]').fill('0');
      await form.getByRole('button', { name: 'Check my prediction' }).click();
      await expect(page.locator('.feedback')).toBeVisible({ timeout: 120_000 });
    }
    await expect(stage).toHaveAttribute('data-ready', String(n), { timeout: 120_000 });
    for (const t of await page.locator('table.model').all()) seen.push(`step ${n}: ${await t.innerText()}`);
    const modelAnswer = page.locator('.model-answer');
    if (await modelAnswer.count()) seen.push(`step ${n} answer: ${await modelAnswer.innerText()}`);
    const next = page.getByRole('button', { name: 'Next step (PageDown)' });
    if (await next.isDisabled()) break;
    await next.click();
  }
  await expect(page.locator('.leaves-out')).toBeVisible();
  return seen;
}

test('every lesson, first to last step, answering each predict question; a second run shows the same numbers', async ({ page }) => {
  test.setTimeout(900_000);
  const errors = watchConsole(page);
  await page.goto('/?lessons');
  const ids = await page.locator('.lesson-list li').evaluateAll((lis) => lis.map((li) => li.getAttribute('data-lesson')!));
  expect(ids).toEqual(['buddy', 'hotcold', 'prefetch', 'singlepass', 'slubprefetch', 'skipmerge', 'capstone', 'autotune', 'tail']);
  const first: Record<string, string[]> = {};
  for (const id of ids) first[id] = await walk(page, id);
  // the model's tables are really there, with numbers in them (means; min..max under each)
  expect(means(first['prefetch']!.join('\n'))).toMatch(/\n224\s+\d{6,}/);
  expect(first['prefetch']!.join('\n')).toMatch(/\d{6,}\.\.\d{6,}/);
  // lesson 5: hackbench virtual ms for 8 groups, prefetch off and on and the change
  expect(means(first['slubprefetch']!.join('\n'))).toMatch(/\n8\s+(\d+\.\d{3}\s+){2}([+-]\d+\.\d%|±0\.0%)/);
  // lesson 6: contention % at 112 tasks, and ms per order-9 attempt at 8 CPUs like with like:
  // patch 4/4 against 2/4, both compacting, with their significant digits (never 0.000) and the
  // change in percent
  expect(means(first['skipmerge']!.join('\n'))).toMatch(/\n112\s+\d+\.\d{2}\s+\d+\.\d{2}\s+\d+\.\d{2}/);
  expect(means(first['skipmerge']!.join('\n'))).toMatch(/\n8\s+\d+\.\d{3,}\s+\d+\.\d{3}\s+([+-]\d+\.\d%|±0\.0%)/);
  expect(means(first['skipmerge']!.join('\n'))).not.toMatch(/\s0\.000\s/);
  await page.goto('/?lessons');
  await expect(page.locator('[data-lesson="buddy"] .lesson-state')).toHaveText(' (done)');
  // second run: a fresh page shows every table again, the same numbers
  await page.evaluate(() => localStorage.clear());
  for (const id of ids) expect(await walk(page, id), `lesson ${id}`).toEqual(first[id]);
  expect(errors).toEqual([]);
});

test('the capstone tuner reruns the table with the student\'s batch and high', async ({ page }) => {
  test.setTimeout(300_000);
  const errors = watchConsole(page);
  await page.goto('/?lesson=capstone&step=2');
  await expect(page.locator('.lesson-stage')).toHaveAttribute('data-ready', '2', { timeout: 120_000 });
  await page.locator('#tune-batch').fill('63');
  await page.locator('#tune-high').fill('378');
  await page.getByRole('button', { name: 'Run my configuration' }).click();
  await expect(page.locator('.verdict')).toContainText('yours (batch 63, high 378)', { timeout: 120_000 });
  await expect(page.locator('.verdict')).toContainText(/you beat the preset|the preset still wins/);
  expect(errors).toEqual([]);
});

test('lecture mode: large type, PageDown/PageUp step, laser pointer, one view or a pair; embed for slides', async ({ page }) => {
  const errors = watchConsole(page);
  await page.goto('/?lesson=buddy&step=1&lecture=1');
  await expect(page.locator('html')).toHaveClass(/lecture/);
  expect(await page.evaluate(() => parseFloat(getComputedStyle(document.documentElement).fontSize))).toBeGreaterThanOrEqual(24);
  await expect(page.locator('.top')).toBeHidden();
  await expect(page.locator('.lesson-stage')).toHaveAttribute('data-ready', '1', { timeout: 60_000 });
  await page.keyboard.press('PageDown');
  await expect(page.locator('.step-counter')).toHaveText('step 2 of 4');
  expect(page.url()).toContain('step=2');
  await page.keyboard.press('PageUp');
  await expect(page.locator('.step-counter')).toHaveText('step 1 of 4');
  // a chosen single view
  await page.locator('#lecture-views').selectOption('buddyinfo');
  await expect(page.locator('.lesson-stage section.panel')).toHaveCount(1);
  expect(page.url()).toContain('views=buddyinfo');
  await page.keyboard.press('p');
  await expect(page.locator('.lesson-page')).toHaveClass(/laser-on/);
  await page.mouse.move(400, 300);
  await expect(page.locator('.laser')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.locator('html')).not.toHaveClass(/lecture/);

  await page.goto('/?lesson=buddy&step=1&embed=1');
  await expect(page.locator('.top')).toBeHidden();
  await expect(page.locator('.lesson-nav .back')).toBeHidden();
  await expect(page.locator('.lesson-stage')).toHaveAttribute('data-ready', '1', { timeout: 60_000 });
  expect(errors).toEqual([]);
});

test('a v4.16 vs v4.17 compare at 56 CPUs shows throughput and hold time side by side and reloads to the same view', async ({ page }) => {
  test.setTimeout(300_000);
  const errors = watchConsole(page);
  await page.goto('/?compare=v4.16,v4.17&cpus=56&pages=256&seed=1&tasks=1,28,56');
  await expect(page.locator('.compare-page')).toHaveClass(/ready/, { timeout: 240_000 });
  const diff = page.locator('#diff-table');
  // td 0 says which way is better, then one column per configuration
  const row = async (name: string) => (await diff.locator('tr', { hasText: name }).locator('td').allInnerTexts()).slice(1, 3).map(mean);
  const tp = await row('throughput');
  const hold = await row('hold (cycles per acquisition)');
  expect(tp[0]).not.toBe(tp[1]);
  expect(hold[0]).not.toBe(hold[1]);
  await expect(page.locator('.compare-col')).toHaveCount(2);
  await expect(page.locator('.compare-chart svg')).toHaveAttribute('aria-label', /v4.16.*v4.17/);
  // move the shared clock, then reload the link
  const scrub = page.locator('#cmp-scrub');
  const max = Number(await scrub.getAttribute('max'));
  await scrub.fill(String(Math.round(max / 3)));
  await expect(page).toHaveURL(new RegExp(`t=${Math.round(max / 3)}`));
  const url = page.url();
  const before = { diff: await diff.innerText(), t: await page.locator('output[for=cmp-scrub]').innerText(), pcp: await page.locator('.compare-col').first().locator('.panel').first().innerText() };
  await page.reload();
  await expect(page.locator('.compare-page')).toHaveClass(/ready/, { timeout: 240_000 });
  expect(page.url()).toBe(url);
  expect(await diff.innerText()).toBe(before.diff);
  expect(await page.locator('output[for=cmp-scrub]').innerText()).toBe(before.t);
  expect(await page.locator('.compare-col').first().locator('.panel').first().innerText()).toBe(before.pcp);
  expect(errors).toEqual([]);
});

test('the compare view runs another order-0 workload picked in its form (trunc, as seed 002 ran it)', async ({ page }) => {
  test.setTimeout(180_000);
  const errors = watchConsole(page);
  await page.goto('/?compare=v5.18-prefetch,v5.18&cpus=1&pages=512&seed=1&tasks=1');
  await expect(page.locator('.compare-page')).toHaveClass(/ready/, { timeout: 120_000 });
  await page.locator('#cmp-workload').selectOption('trunc');
  await page.getByRole('button', { name: 'Compare', exact: true }).click();
  await expect(page).toHaveURL(/workload=trunc/);
  await expect(page.locator('.compare-page')).toHaveClass(/ready/, { timeout: 120_000 });
  await expect(page.locator('#diff-table')).toContainText('throughput (pages truncated / s)');
  await expect(page.locator('#diff-table caption')).toContainText('trunc at 1 CPU, ');
  await expect(page.locator('.replay-scale').first()).toContainText(/step through: 1 CPU x \d+ pages/);
  expect(errors).toEqual([]);
});

test('a hackbench compare (freelist prefetch on vs off) shows messages/s and time the right way round and reloads from its URL to the same view', async ({ page }) => {
  test.setTimeout(300_000);
  const errors = watchConsole(page);
  await page.goto('/?compare=v5.18,v5.18:prefetch=off&workload=hackbench&cpus=4&messages=100&seed=1&tasks=2,4');
  await expect(page.locator('.compare-page')).toHaveClass(/ready/, { timeout: 240_000 });
  // the form shows hackbench's fields: groups, messages, a prefetch switch per configuration
  await expect(page.locator('#cmp-workload')).toHaveValue('hackbench');
  await expect(page.locator('label[for=cmp-pages]')).toHaveText('messages per sender');
  await expect(page.locator('#cfg-prefetch-1')).toHaveValue('off');
  await expect(page.locator('#cmp-attempts')).toBeHidden();
  const diff = page.locator('#diff-table');
  await expect(diff.locator('caption')).toContainText('hackbench, 4 groups x 100 messages');
  const cells = async (name: string) => (await diff.locator('tr', { hasText: name }).locator('td').allInnerTexts()).map(mean);
  const score = await cells('throughput (messages / s)');
  const time = await cells('time until the last message is read');
  expect(score[0]).toBe('higher');
  expect(time[0]).toBe('lower');
  // the same messages in less time are more per second: both % cells say the same word
  const word = (c: string) => c.match(/(better|worse)( \(within the spread\))?$/)?.[1];
  expect(word(score[3]!)).toMatch(/better|worse/);
  expect(word(time[3]!)).toBe(word(score[3]!));
  const prefetches = await cells('freelist prefetches');
  expect(prefetches[2]).toBe('0');
  expect(Number(prefetches[1]!.replace(/,/g, ''))).toBeGreaterThan(0);
  await expect(diff.locator('tr', { hasText: 'ALLOC_SLOWPATH' })).toHaveCount(1);
  await expect(diff.locator('tr', { hasText: 'prefetch wasted' })).toHaveCount(1);
  await expect(diff).not.toContainText('zone->lock acquisitions per page');
  // the chart is in messages/s against groups
  const chart = page.locator('.compare-chart svg');
  await expect(chart).toContainText('score (messages/s)');
  await expect(chart).toContainText('groups (one sender CPU each)');
  await expect(page.locator('#chart-title')).toContainText('messages / s');
  // move the shared clock, then reload the link
  const scrub = page.locator('#cmp-scrub');
  const max = Number(await scrub.getAttribute('max'));
  await scrub.fill(String(Math.round(max / 2)));
  await expect(page).toHaveURL(new RegExp(`workload=hackbench&cpus=4&messages=100&seed=1&tasks=2,4&t=${Math.round(max / 2)}$`));
  const url = page.url();
  const before = { diff: await diff.innerText(), t: await page.locator('output[for=cmp-scrub]').innerText(), col: await page.locator('.compare-col').first().innerText() };
  await page.reload();
  await expect(page.locator('.compare-page')).toHaveClass(/ready/, { timeout: 240_000 });
  expect(page.url()).toBe(url);
  expect(await diff.innerText()).toBe(before.diff);
  expect(await page.locator('output[for=cmp-scrub]').innerText()).toBe(before.t);
  expect(await page.locator('.compare-col').first().innerText()).toBe(before.col);
  expect(errors).toEqual([]);
});

test('a stress_highalloc compare has the order-9 rows and no chart against tasks; a bad link says why', async ({ page }) => {
  test.setTimeout(300_000);
  const errors = watchConsole(page);
  await page.goto('/?compare=v4.16,lu-rfc-p4&workload=stress_highalloc&cpus=2&pages=2048&attempts=4');
  await expect(page.locator('.compare-page')).toHaveClass(/ready/, { timeout: 240_000 });
  const diff = page.locator('#diff-table');
  const success = (await diff.locator('tr', { hasText: 'order-9 success (% of attempts)' }).locator('td').allInnerTexts()).map(mean);
  expect(success[0]).toBe('higher');
  expect(Number(success[1])).toBeGreaterThanOrEqual(0);
  expect(Number(success[1])).toBeLessThanOrEqual(100);
  await expect(diff.locator('tr', { hasText: 'cycles per attempt' }).locator('td').first()).toHaveText('lower');
  await expect(diff.locator('tr', { hasText: 'unusable free space index at order 9' })).toHaveCount(1);
  await expect(page.locator('.compare-chart svg')).toHaveCount(0);
  await expect(page.locator('#chart-title')).toHaveText('No chart against tasks');
  await expect(page.locator('#cmp-tasks')).toBeHidden();
  await expect(page.locator('#cmp-attempts')).toHaveValue('4');
  // a link that asks for a sweep of a success rate is refused with its reason, and the defaults run
  await page.goto('/?compare=v4.16,v4.17&workload=stress_highalloc&tasks=1,2');
  await expect(page.locator('.compare-page .alert')).toContainText('tasks: stress_highalloc has no chart against tasks');
  expect(errors).toEqual([]);
});

test('a mixed compare (page_fault1 beside huge-page users) has both sides of the trade-off and a sweep chart against tasks', async ({ page }) => {
  test.setTimeout(300_000);
  const errors = watchConsole(page);
  await page.goto('/?compare=v4.16,lu-rfc-p4&workload=mixed&cpus=4&pages=256&seed=1&tasks=2,4');
  await expect(page.locator('.compare-page')).toHaveClass(/ready/, { timeout: 240_000 });
  await expect(page.locator('#cmp-workload')).toHaveValue('mixed');
  const diff = page.locator('#diff-table');
  await expect(diff.locator('caption')).toContainText('mixed at 4 CPUs, 256 pages per page_fault1 task');
  const cells = async (name: string) => (await diff.locator('tr', { hasText: name }).locator('td').allInnerTexts()).map(mean);
  // the order-0 side: a score for each configuration, and the locks that explain it
  const score = await cells('throughput (order-0 pages / s)');
  expect(score[0]).toBe('higher');
  expect(Number(score[1]!.replace(/,/g, ''))).toBeGreaterThan(0);
  expect(Number(score[2]!.replace(/,/g, ''))).toBeGreaterThan(0);
  await expect(diff.locator('tr', { hasText: 'lru_lock contention' })).toHaveCount(1);
  // the huge-page side: the CPUs past the first half asked for order-9 blocks
  const attempts = await cells('order-9 attempts');
  expect(Number(attempts[1]!.replace(/,/g, ''))).toBeGreaterThan(0);
  const got = await cells('order-9 blocks got');
  expect(got[0]).toBe('higher');
  await expect(diff.locator('tr', { hasText: 'compactions run' })).toHaveCount(1);
  // the chart sweeps tasks, half of them faulting order-0 pages; no linear line
  const chart = page.locator('.compare-chart svg');
  await expect(chart).toContainText('tasks (half page_fault1, half huge pages)');
  await expect(page.locator('.compare-col')).toHaveCount(2);
  expect(errors).toEqual([]);
});

test('exports: a table as CSV, a view as SVG, progress as JSON, and a run as a JSON event log that loads back', async ({ page }) => {
  test.setTimeout(180_000);
  const errors = watchConsole(page);
  await page.goto('/?lesson=buddy&step=1');
  await expect(page.locator('.lesson-stage')).toHaveAttribute('data-ready', '1', { timeout: 60_000 });
  const save = async (click: () => Promise<void>) => {
    const [d] = await Promise.all([page.waitForEvent('download'), click()]);
    return readFileSync((await d.path())!, 'utf8');
  };
  const svg = await save(() => page.getByRole('button', { name: /Export Free areas.* as SVG/ }).click());
  expect(svg).toMatch(/^<svg[^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
  const [png] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: /Export Free areas.* as PNG/ }).click()]);
  expect(readFileSync((await png.path())!).subarray(1, 4).toString()).toBe('PNG');
  const json = await save(() => page.getByRole('button', { name: 'Run as JSON' }).click());
  expect(JSON.parse(json)).toMatchObject({ format: 'buddylab-event-log', version: 1 });

  await page.goto('/?lesson=hotcold&step=4');
  await page.locator('form.predict input[type=number]').fill('2');
  await page.getByRole('button', { name: 'Check my prediction' }).click();
  await expect(page.locator('.lesson-stage')).toHaveAttribute('data-ready', '4', { timeout: 120_000 });
  const csv = await save(() => page.getByRole('button', { name: 'Export locks-model as CSV' }).click());
  // comment lines name the runs' parameters and commands; then plain numbers: each config's
  // mean, then the min and max of its seeds
  const rows = csv.split('\r\n').filter((l) => l && !l.startsWith('#'));
  expect(csv).toContain('# command: blab sim --workload page_fault1 --cpus ');
  expect(rows[0]).toBe('tasks,v2.5.44,v2.5.44 min,v2.5.44 max,v2.5.45,v2.5.45 min,v2.5.45 max');
  expect(rows[1]).toMatch(/^1,(2(\.\d+)?,){3}(0\.\d+,){2}0\.\d+$/);
  await expect(page.locator('figure.table-model .howmade-cmd').first()).toContainText('blab sim --workload page_fault1');

  await page.goto('/?lessons');
  const progress = await save(() => page.getByRole('button', { name: 'Export progress', exact: true }).click());
  const p = JSON.parse(progress);
  expect(p.schema).toBe(1);
  expect(p.lessons.hotcold.answers['3'].given).toBe(2);
  // import it into a clean browser profile state
  await page.evaluate(() => localStorage.clear());
  await page.reload();
  await page.locator('#progress-file').setInputFiles({ name: 'p.json', mimeType: 'application/json', buffer: Buffer.from(progress) });
  await expect(page.locator('[data-lesson="hotcold"] .lesson-state')).toHaveText(/step 4 of/);
  // a broken lesson opened in the browser says file, line and reason
  await page.locator('#lesson-file').setInputFiles({ name: 'mine.md', mimeType: 'text/markdown', buffer: Buffer.from('---\nid: x\n---\n') });
  await expect(page.locator('.lesson-tools .status')).toHaveText(/^mine\.md:2: /);

  // the JSON run loads back into the player
  await page.goto('/?workbench');
  await page.locator('#jsonlog-file').setInputFiles({ name: 'run.json', mimeType: 'application/json', buffer: Buffer.from(json) });
  await expect(page.locator('.loglabel')).toContainText('buddy/small');
  expect(errors).toEqual([]);
});

test('axe: lesson, lecture and compare pages have no serious or critical violations', async ({ page }) => {
  test.setTimeout(300_000);
  const scan = async () => {
    const r = await axe(page).analyze();
    return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  };
  await page.goto('/?lessons');
  expect(await scan()).toEqual([]);
  await page.goto('/?lesson=prefetch&step=3');
  await expect(page.locator('form.predict')).toBeVisible();
  expect(await scan()).toEqual([]);
  await page.goto('/?lesson=buddy&step=1');
  await expect(page.locator('.lesson-stage')).toHaveAttribute('data-ready', '1', { timeout: 60_000 });
  expect(await scan()).toEqual([]);
  await page.goto('/?lesson=buddy&step=1&lecture=1');
  await expect(page.locator('.lesson-stage')).toHaveAttribute('data-ready', '1', { timeout: 60_000 });
  expect(await scan()).toEqual([]);
  await page.goto('/?compare=v4.16,v4.17&cpus=8&pages=64&tasks=1,8');
  await expect(page.locator('.compare-page')).toHaveClass(/ready/, { timeout: 120_000 });
  expect(await scan()).toEqual([]);
  await page.goto('/?compare=v5.18,v5.18:prefetch=off&workload=hackbench&cpus=2&messages=50&tasks=2');
  await expect(page.locator('.compare-page')).toHaveClass(/ready/, { timeout: 120_000 });
  expect(await scan()).toEqual([]);
});
