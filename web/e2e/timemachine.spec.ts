// The time machine is one link from the front page; it runs every kernel preset at two small
// task counts here (?timemachine&tasks=1,2&pages=128) and draws one chart with a table under it.
import { expect, test } from './fixtures';

test('the time machine: every kernel on one axis, score and zone->lock contention', async ({ page }) => {
  test.setTimeout(240_000);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto('/');
  // one link on the front page (the header keeps to the course, compare and the workbench, so a
  // page's main action stays within 5 Tab presses)
  await expect(page.getByRole('link', { name: 'Every kernel on one chart', exact: true })).toHaveAttribute('href', '?timemachine');
  await page.goto('/?timemachine&tasks=1,2&pages=128');
  await expect(page.locator('h2.page-title')).toHaveText('Time machine: page_fault1 from v2.5.44 to v6.19');
  await expect(page.locator('#tm-status')).toContainText('28 runs in', { timeout: 180_000 });
  const chart = page.locator('#tm-chart svg');
  await expect(chart).toHaveAttribute('aria-label', /1 task: .* on v2\.5\.44, .* on v6\.19; 2 tasks:/);
  await expect(chart.locator('circle.tm-score')).toHaveCount(28);
  await expect(page.locator('#tm-table tbody tr')).toHaveCount(14);
  for (const [w, h] of [
    [1440, 900],
    [1920, 1080],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width: w, height: h });
    await page.reload();
    await expect(page.locator('#tm-status')).toContainText('28 runs in', { timeout: 180_000 });
    await page.locator('#tm-panel').screenshot({ path: `test-results/timemachine-${w}.png` });
  }
  // at a phone's width the chart is drawn narrow: nothing scrolls sideways
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1)).toBe(true);
  await page.goto('/?timemachine&tasks=500');
  await expect(page.locator('p.import-alert[role=alert]')).toContainText('This time machine link is wrong: tasks:');
  expect(errors).toEqual([]);
});
