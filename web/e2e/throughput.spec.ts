import { expect, test } from './fixtures';

// The throughput chart from real runs of the WASM core (no fixtures): a small sweep of two
// presets over 1, 2 and 4 tasks; every point is the core's score for that run.
test('throughput: a sweep draws one line per preset and the linear line', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  await page.goto('/?workbench');
  const panel = page.locator('#throughput');
  await panel.scrollIntoViewIfNeeded();
  // only v4.16 and v5.18
  for (const cb of await panel.locator('input[type=checkbox]').all()) await cb.setChecked(false);
  await panel.getByLabel('v4.16', { exact: true }).check();
  await panel.getByLabel('v5.18', { exact: true }).check();
  await panel.getByLabel('tasks (CPUs)').fill('1,2,4');
  await panel.getByLabel('pages each task maps').selectOption('1024');
  await panel.getByRole('button', { name: 'Run sweep' }).click();
  await expect(panel.locator('#tp-status')).toContainText('6 runs in', { timeout: 120_000 });
  // the page says what size it ran: the caches scaled to the pages per task
  await expect(panel.locator('#tp-status')).toContainText('1024 pages per task, L2 and LLC / 32');
  await expect(panel.locator('.tp-series')).toHaveCount(2);
  await expect(panel.locator('.tp-linear')).toHaveCount(1);
  // three markers per line, and a text alternative naming both presets
  await expect(panel.locator('.tp-series[data-label="v4.16"] path title')).toHaveCount(3);
  await expect(panel.locator('svg.throughput-svg')).toHaveAttribute('aria-label', /v4\.16 .* at 4 tasks, \d+% of linear; v5\.18/);
  // the table holds the same numbers: 4-task score below linear (4 x the 1-task score)
  await panel.locator('summary').click();
  const rows = await panel.locator('.tp-table tbody tr').allInnerTexts();
  expect(rows.length).toBe(3);
  const cells = (r: string) => r.split('\t').map((c) => Number(c.replace(/,/g, '')));
  const [one, , four] = rows.map(cells);
  expect(four![1]!).toBeGreaterThan(one![1]!);
  expect(four![3]!).toBe(4 * one![1]!); // linear column
  expect(four![1]!).toBeLessThanOrEqual(four![3]! * 1.001);
  await panel.screenshot({ path: 'test-results/views/throughput.png' });
  expect(errors).toEqual([]);
});
