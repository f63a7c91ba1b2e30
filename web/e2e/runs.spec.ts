// Runs in the browser's worker pool, functionally: a compare link measures v4.16 and v4.17 in a
// pool of workers (and they differ), a pool of one worker gives the same records (every
// counter) as a pool of several, Cancel stops every worker, finished points come back from
// IndexedDB. Then the lessons: tables shipped with the build show at once, "Run live" runs them
// again here and finds every counter the same. How fast the default link's kernel-sized sweep
// runs, and that the page's main thread stays free meanwhile, is make bench's
// (bench/runs.mjs). The default link's runs ship with the build: its chart and table draw from
// them, no worker runs one, and the chart's scale choices stay in the link.
import { expect, test, type Page, type Worker } from './fixtures';
import { readFileSync } from 'node:fs';
import { watchConsole } from './console-errors';

/** The first line of a table cell: the mean (the seeds' min..max sits under it). */
const mean = (cell: string) => cell.split('\n')[0]!.trim();

async function savedText(page: Page, button: string): Promise<string> {
  const [d] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: button }).click()]);
  return readFileSync((await d.path())!, 'utf8');
}

test('a compare link measures v4.16 against v4.17 at its size, and they differ; chart, diff table and replays say what ran', async ({ page }) => {
  test.setTimeout(300_000);
  const errors = watchConsole(page);
  await page.goto('/?compare=v4.16,v4.17&cpus=16&tasks=1,8,16&pages=1024');
  await expect(page.locator('.compare-page')).toHaveClass(/ready/, { timeout: 240_000 });
  const diff = page.locator('#diff-table');
  await expect(diff.locator('caption')).toContainText('page_fault1 at 16 CPUs, 1024 pages per task, seeds 1..3');
  const tp = (await diff.locator('tr', { hasText: 'throughput' }).locator('td').allInnerTexts()).map(mean);
  expect(tp[1]).not.toBe(tp[2]);
  // the change under study ran: no pcp list went undrained
  await expect(page.locator('.compare-diff .pcp-warning')).toHaveCount(0);
  // the chart: one point per task count and configuration; the page says what size it ran
  await expect(page.locator('.compare-chart .tp-series[data-label="v4.16"] path title')).toHaveCount(3);
  await expect(page.locator('.compare-chart .tp-series[data-label="v4.17"] path title')).toHaveCount(3);
  await expect(page.locator('.compare-chart')).toContainText('1024 pages per task, clear_page() through all 64 lines, L2 and LLC / 32');
  // the replays are small and say so
  await expect(page.locator('.replay-scale').first()).toContainText(/a small scenario to step through: 16 CPUs x \d+ pages, one round/);
  expect(errors).toEqual([]);
});

test('the default compare link draws from runs shipped with the build; the chart is scaled to the scores, % of the first and the linear line on request', async ({ page }) => {
  test.setTimeout(300_000);
  const errors = watchConsole(page);
  await page.goto('/?compare=v4.16,v4.17&cpus=56');
  await expect(page.locator('.compare-page')).toHaveClass(/ready/, { timeout: 240_000 });
  const chartBox = page.locator('.compare-chart[data-measure-start-ms]');
  await expect(page.locator('#diff-table caption')).toContainText('page_fault1 at 56 CPUs, 4096 pages per task, seeds 1..3');
  await expect(page.locator('.replay-scale').first()).toContainText('a small scenario to step through: 56 CPUs x 292 pages, one round');
  // every measured run shipped with the build (the native core ran them): no worker ran one,
  // so the chart and the table were drawn before the replays' columns
  await expect(page.locator('.compare-diff .sweep-progress')).toContainText('20 measured runs, 20 of them shipped with the page');
  expect(Number(await chartBox.getAttribute('data-last-point-ms'))).toBeLessThan(Number(await page.locator('.compare-cols').getAttribute('data-drawn-ms')));
  // the chart spans the scores, so the two lines are apart; % of v4.16 and the linear line on request, kept in the link
  const si = (t: string) => parseFloat(t) * ({ k: 1e3, M: 1e6, G: 1e9 }[t.trim().slice(-1)] ?? 1);
  const top = async () => Math.max(...(await page.locator('.compare-chart .tp-y .tick text').allTextContents()).map(si));
  const scaled = await top();
  await expect(page.locator('.compare-chart path.tp-linear')).toHaveCount(0);
  await page.getByLabel('% of v4.16').check();
  await expect(page).toHaveURL(/&chart=pct/);
  await expect(page.locator('.compare-chart .tp-ylabel')).toHaveText("% of v4.16's score");
  await page.getByLabel('from 0, with the linear line').check();
  await expect(page).toHaveURL(/&chart=linear/);
  await expect(page.locator('.compare-chart path.tp-linear')).toHaveCount(1);
  // the linear line reaches 112 x the 1-task score: scaled to the data the axis is a fraction of that
  expect(scaled * 4).toBeLessThan(await top());
  // the replays start where the two kernels first differ, not at their end (which looks the same)
  await expect(page.locator('.compare-page > .status')).toContainText('Shown from where the replays first differ');
  expect(errors).toEqual([]);
});

test('a pool of one worker and a pool of four give the same record for every run', async ({ browser }) => {
  test.setTimeout(600_000);
  const link = '/?compare=v4.16,v4.17&cpus=28&tasks=1,8,28';
  const texts: string[] = [];
  for (const workers of [1, 4]) {
    const context = await browser.newContext();
    await context.addInitScript((n) => Object.defineProperty(navigator, 'hardwareConcurrency', { get: () => n }), workers);
    const page = await context.newPage();
    const errors = watchConsole(page);
    await page.goto(link);
    await expect(page.locator('.compare-page')).toHaveClass(/ready/, { timeout: 540_000 });
    texts.push(await savedText(page, 'Runs as records: save every measured run, its point key and every counter, one JSON line each'));
    expect(errors).toEqual([]);
    await context.close();
  }
  // 2 configurations x (3 chart points + 2 more seeds at 28)
  expect(texts[0]!.match(/^\{"key":"workload=/gm)).toHaveLength(10);
  // the compare page asks for the latency percentiles too, so its keys say latency=1
  expect(texts[0]).toMatch(/^\{"key":"workload=page_fault1 preset=v4.16 cpus=28 pages=4096 iterations=2 seed=1 batch=0 high=0 clear_lines=64 cache_scale=8 latency=1","stats":\{"score":\d+,/m);
  expect(texts[1]).toBe(texts[0]);
});

test('Cancel stops every worker of the pool; a reload takes the finished runs from IndexedDB', async ({ page }) => {
  test.setTimeout(600_000);
  const errors = watchConsole(page);
  const pool: Worker[] = [];
  page.on('worker', async (w) => {
    if ((await w.evaluate(() => self.name).catch(() => '')) === 'buddylab-pool') pool.push(w);
  });
  // seed 2: not the default link, whose runs ship with the build and need no worker
  await page.goto('/?compare=v4.16,v4.17&cpus=56&seed=2');
  const bar = page.locator('.compare-diff .sweep-progress');
  await expect(bar).toContainText(/[1-9]\d* of \d+ runs/, { timeout: 300_000 });
  // (a worker answers when its run ends: the first one has, or will at once)
  await expect.poll(() => pool.length, { timeout: 60_000 }).toBeGreaterThanOrEqual(1);
  await bar.getByRole('button', { name: 'Cancel' }).click();
  // every pool worker answers again: its run stopped (it keeps its loaded core for the next)
  await Promise.all(pool.map((w) => w.evaluate(() => 0)));
  await expect(page.locator('.compare-page > .status')).toHaveText('cancelled: the measured runs stopped');
  await expect(page.locator('.compare-page')).not.toHaveClass(/ready/);

  // a small compare (another seed: nothing of it ran before), then the same again: every run
  // from this browser's cache (2 configurations x (2 chart points + 2 more seeds at 8 CPUs))
  const small = '/?compare=v4.16,v4.17&cpus=8&tasks=1,8&seed=5';
  await page.goto(small);
  await expect(page.locator('.compare-page')).toHaveClass(/ready/, { timeout: 540_000 });
  await expect(bar).toHaveText(/^8 measured runs/);
  const before = await page.locator('#diff-table').innerText();
  await page.reload();
  await expect(page.locator('.compare-page')).toHaveClass(/ready/, { timeout: 120_000 });
  await expect(bar).toContainText("8 measured runs, 8 of them from this browser's results cache");
  expect(await page.locator('#diff-table').innerText()).toBe(before);
  expect(errors).toEqual([]);
});

test('a run whose pcp lists never drained says so, and what to change', async ({ page }) => {
  test.setTimeout(300_000);
  const errors = watchConsole(page);
  await page.goto('/?compare=v4.16,v4.17&cpus=4&pages=64&tasks=1,4');
  await expect(page.locator('.compare-page')).toHaveClass(/ready/, { timeout: 240_000 });
  const w = page.locator('.compare-diff .pcp-warning');
  await expect(w).toHaveCount(2);
  await expect(w.first()).toContainText('v4.16: the pcp lists never drained: free_pcppages_bulk() never ran, because the frees never brought a list\'s count up to high (186)');
  await expect(w.first()).toContainText('Give each task more pages than high, or lower high.');
  expect(errors).toEqual([]);
});

test("a lesson's tables show at once from the build, and Run live finds every counter the same in every row", async ({ page }) => {
  test.setTimeout(600_000);
  const errors = watchConsole(page);
  // lesson 2, step 4: the lock table behind a predict question
  await page.goto('/?lesson=hotcold&step=4');
  await page.locator('form.predict input[type=number]').fill('2');
  await page.getByRole('button', { name: 'Check my prediction' }).click();
  const stage = page.locator('.lesson-stage');
  await expect(stage).toHaveAttribute('data-ready', '4', { timeout: 30_000 });
  // shipped: no run needed, so no progress bar ever showed rows being computed
  await expect(stage.locator('table.model td.pending')).toHaveCount(0);
  await expect(stage.locator('table.model caption')).toContainText('4096 pages per task, L2 and LLC / 8');
  await expect(stage.locator('table.model caption')).toContainText('seeds 1..3, each cell their mean with min..max under it');
  await stage.getByRole('button', { name: /^Run live/ }).click();
  await expect(stage.locator('.live-box')).toHaveAttribute('data-live', 'done', { timeout: 540_000 });
  await expect(stage.locator('table.model td.match')).toHaveText(['✓ same counters', '✓ same counters']);
  await expect(stage.locator('.live-box')).toContainText(/rows with every counter the same as the shipped runs/);
  const summary = await stage.locator('.live-box').innerText();
  const m = /: (\d+) of (\d+) rows with every counter the same/.exec(summary)!;
  expect(m[1]).toBe(m[2]);
  expect(errors).toEqual([]);
});
