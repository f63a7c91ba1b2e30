// Latency in Chromium, from real runs of the C core (WASM): the workbench's latency view (log2
// buckets, the percentile marks, a bucket's longest call found in the replay), the
// CONFIG_PCP_BATCH_SCALE_MAX bound in the URL, a kernel's funclatency / bpftrace histogram drawn
// over the model's (and refused whole, with line and reason), and lesson 9 stepped through.
import { expect, test, type Page } from './fixtures';
import { readFileSync } from 'node:fs';
import { watchConsole } from './console-errors';

const TRACES = 'wasm-core/tests/traces';
const SCENARIO = '/#pages=2048&cpus=2&preset=v6.7&workload=page_fault1&seed=1&step=0';

async function runScenario(page: Page) {
  await page.getByRole('button', { name: 'Run scenario' }).click();
  await expect(page.locator('#results [data-measure="score"]')).toContainText(/[\d,]+ pages\/s/, { timeout: 90_000 });
}

/** the outline of the kernel's histogram as drawn: each bucket's place and size */
const realRects = (page: Page) => page.locator('#latency .lat-real rect').evaluateAll((rs) => rs.map((r) => ['x', 'y', 'width', 'height'].map((a) => r.getAttribute(a)).join(',')));

async function pickHist(page: Page, name: string, text: string) {
  await page.locator('#lat-import-file').setInputFiles({ name, mimeType: 'text/plain', buffer: Buffer.from(text) });
}

test('the latency view draws the run in log2 buckets with p50/p99/p99.9 marks; the tail goes to its call in the replay', async ({ page }) => {
  const errors = watchConsole(page);
  await page.goto(SCENARIO);
  await runScenario(page);
  const view = page.locator('#latency');
  await view.scrollIntoViewIfNeeded();
  // every allocation of the run, one colour (one run), buckets of nanoseconds as funclatency's
  await expect(view.locator('.lat-bar').first()).toBeVisible();
  expect(await view.locator('.lat-bar').count()).toBeGreaterThan(2);
  await expect(view.locator('.lat-marker')).toHaveCount(3);
  await expect(view.locator('.lat-table')).toContainText('p99.9');
  // the refills: rmqueue_bulk() of 63 .. 2,016 pages, a bucket per size, the longest far right
  await view.locator('select.lat-series').selectOption('rmqueue_bulk');
  const bars = await view.locator('.lat-bar').count();
  expect(bars).toBeGreaterThan(3);
  const before = await page.locator('.playerbar .stepout').textContent();
  await view.locator('.lat-tail-go').first().click();
  await expect(page.locator('.content > p.status')).toContainText(/took [\d.,]+ µs \(cpu \d\): record #\d+/);
  await expect(page.locator('.playerbar .stepout')).not.toHaveText(before ?? '');
  // the record the player stands on ends that refill
  await expect(page.locator('#event-line')).toContainText(/rmqueue_bulk|refill/);
  await page.screenshot({ path: 'test-results/latency-workbench.png', fullPage: true });
  expect(errors).toEqual([]);
});

test('CONFIG_PCP_BATCH_SCALE_MAX in the link: a value past 0..6, or on a preset before 6.7, is refused with the reason', async ({ page }) => {
  await page.goto('/#pages=2048&cpus=2&preset=v6.7&workload=page_fault1&seed=1&step=0&pcp_batch_scale_max=9');
  await expect(page.getByText(/The link's state was ignored: pcp_batch_scale_max=9\b.*\b6\b/)).toBeVisible();
  await page.goto('/#pages=2048&cpus=2&preset=v4.17&workload=page_fault1&seed=1&step=0&pcp_batch_scale_max=3');
  await page.reload();
  await expect(page.getByText("The link's state was ignored: pcp_batch_scale_max=3")).toBeVisible();
  // a good one reaches the form and the run
  await page.goto('/#pages=2048&cpus=2&preset=v6.7&workload=page_fault1&seed=1&step=0&pcp_batch_scale_max=0');
  await page.reload();
  await expect(page.locator('#sc-scale')).toHaveValue('0');
  await runScenario(page);
});

test('a kernel histogram over the model: funclatency rmqueue_bulk over the refills; a bad bucket and an unknown function are refused and change nothing', async ({ page }) => {
  const errors = watchConsole(page);
  await page.goto(SCENARIO);
  await runScenario(page);
  const view = page.locator('#latency');
  await view.scrollIntoViewIfNeeded();
  await pickHist(page, 'funclatency-rmqueue_bulk.hist.txt', readFileSync(`${TRACES}/funclatency-rmqueue_bulk.hist.txt`, 'utf8'));
  await expect(page.locator('#lat-import-msg')).toContainText('funclatency rmqueue_bulk');
  await expect(page.locator('#lat-import-alert')).toHaveText('');
  // drawn over the refills, the series its function measures
  await expect(view.locator('select.lat-series')).toHaveValue('rmqueue_bulk');
  await expect(view.locator('.lat-real')).toHaveCount(1);
  const drawn = await realRects(page);
  expect(drawn.length).toBeGreaterThan(3);
  // a bucket that is no power of two: refused whole, by line, and the drawing stays
  await pickHist(page, 'bad-funclatency.hist.txt', readFileSync(`${TRACES}/bad-funclatency.hist.txt`, 'utf8'));
  await expect(page.locator('#lat-import-alert')).toContainText('bad-funclatency.hist.txt was not read');
  await expect(page.locator('#lat-import-alert')).toContainText('line 5: bucket 4 -> 6 is no power-of-two bucket');
  await expect(page.locator('#lat-import-alert')).toContainText('Nothing was drawn.');
  expect(await realRects(page)).toEqual(drawn);
  // a function the model has no calls for: said, not drawn
  await page.locator('#lat-import-text').fill('@do_sys_open_ns:\n[256, 512)             3 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n');
  await page.locator('#lat-import-draw').click();
  await expect(page.locator('#lat-import-alert')).toContainText('the model has no calls that measure this');
  expect(await realRects(page)).toEqual(drawn);
  // the bpftrace recording of this machine goes over the refills too
  await pickHist(page, 'bpftrace-rmqueue_bulk-span.hist.txt', readFileSync(`${TRACES}/bpftrace-rmqueue_bulk-span.hist.txt`, 'utf8'));
  await expect(page.locator('#lat-import-msg')).toContainText('bpftrace hist()');
  await page.locator('#lat-import-clear').click();
  await expect(view.locator('.lat-real')).toHaveCount(0);
  await page.screenshot({ path: 'test-results/latency-overlay.png', fullPage: true });
  expect(errors).toEqual([]);
});

test('lesson 9: the latency view in the replay, its tail bucket goes to the refill; the sweep tables have seven configs', async ({ page }) => {
  test.setTimeout(240_000);
  const errors = watchConsole(page);
  await page.goto('/?lesson=tail&step=1');
  await expect(page.locator('.step-counter')).toHaveText(/^step 1 of \d+$/);
  const form = page.locator('form.predict');
  await form.locator('input[type=radio]').nth(2).check();
  await form.getByRole('button', { name: 'Check my prediction' }).click();
  await expect(page.locator('.lesson-stage')).toHaveAttribute('data-ready', '1', { timeout: 120_000 });
  const view = page.locator('#lv-latency');
  await expect(view.locator('.lat-bar').first()).toBeVisible();
  const pos = page.locator('.run-pos');
  const before = await pos.textContent();
  await view.locator('.lat-tail-go').first().click();
  await expect(pos).not.toHaveText(before ?? '');
  await expect(page.locator('.narration')).not.toContainText('cannot be shown');
  // step 3: CONFIG_PCP_BATCH_SCALE_MAX 0..6 at 2, 16 and 56 tasks, shipped with the build
  await page.goto('/?lesson=tail&step=3');
  await page.locator('form.predict input[type=radio]').nth(2).check();
  await page.locator('form.predict').getByRole('button', { name: 'Check my prediction' }).click();
  await expect(page.locator('.lesson-stage')).toHaveAttribute('data-ready', '3', { timeout: 120_000 });
  const table = page.locator('table.model').first();
  await expect(table.locator('thead th')).toHaveCount(8);
  await expect(table.locator('tbody tr')).toHaveCount(3);
  await expect(page.locator('table.seed').first()).toContainText('513633.4');
  expect(errors).toEqual([]);
});
