// The time machine is one link from the front page; its default line comes with the page (the
// build ran it natively), and a smaller one (?timemachine&tasks=1,2&pages=128) runs every
// kernel preset here and draws one chart with a table under it.
import { expect, test } from './fixtures';

test('the time machine: every kernel on one axis, score and zone->lock contention', async ({ page }) => {
  test.setTimeout(240_000);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto('/');
  // one link on the front page (the header keeps to the course, compare and the workbench, so a
  // page's main action stays within 5 Tab presses)
  await expect(page.getByRole('link', { name: 'Every kernel on one chart', exact: true })).toHaveAttribute('href', '?timemachine');
  // the default page: kernel-sized runs (4096 pages a task) the build computed natively, drawn
  // without running anything here, and a Run live that would run them again
  await page.goto('/?timemachine');
  await expect(page.locator('h2.page-title')).toHaveText('Time machine: page_fault1 from v2.5.44 to v6.19');
  await expect(page.locator('#tm-status')).toContainText(/^42 runs in \d+\.\d s: 42 shipped with the page \(the native core ran them at build time, core [0-9a-f]{16}\)\.$/, { timeout: 10_000 });
  await expect(page.locator('#tm-chart svg circle.tm-score')).toHaveCount(42);
  await expect(page.locator('#tm-live')).toBeVisible();
  // Run live, cancelled at once: the workers stop, and the chart keeps every shipped point
  await page.locator('#tm-live').click();
  await page.locator('.live-box').getByRole('button', { name: 'Cancel' }).click();
  await expect(page.locator('.live-box')).toContainText('Run live cancelled');
  await expect(page.locator('#tm-chart svg circle.tm-score')).toHaveCount(42);
  await expect(page.locator('#tm-live')).toBeEnabled();
  // the page leads with where the model and the seeds part, and says which limit binds
  await expect(page.locator('#timemachine > p.tm-model-seed')).toContainText('Where the model and the kernels’ own numbers part:');
  await expect(page.locator('#timemachine > p.tm-model-seed').getByRole('link')).toHaveAttribute('href', '?fidelity#claim-002-plateau');
  await expect(page.locator('#tm-verdict')).toHaveText(/^At 112 tasks .* binds /);
  await expect(page.locator('#tm-table tbody td .tm-binds').first()).toContainText(/^binds: (none|zone->lock|lru_lock|memory bandwidth); memory \d+%$/);
  await expect(page.locator('#timemachine > p').nth(3)).toContainText('4,096 pages per task per round');
  await expect(page.locator('#timemachine > p').nth(4).getByRole('link', { name: 'lesson 8' })).toHaveAttribute('href', '?lesson=autotune&step=1');
  // a smaller line than the build shipped: run here, in the worker pool
  await page.goto('/?timemachine&tasks=1,2&pages=128');
  await expect(page.locator('#tm-status')).toContainText(/^28 runs in \d+\.\d s: 28 run here on \d workers?\.$/, { timeout: 180_000 });
  await expect(page.locator('#tm-live')).toBeHidden();
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
    // (from this browser's results cache, as far as its writes were done before the reload)
    await expect(page.locator('#tm-status')).toContainText('28 runs in', { timeout: 180_000 });
    await page.locator('#tm-panel').screenshot({ path: `test-results/timemachine-${w}.png` });
  }
  // at a phone's width the chart is drawn narrow: nothing scrolls sideways
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1)).toBe(true);
  await page.goto('/?timemachine&tasks=500');
  await expect(page.locator('p.import-alert[role=alert]')).toContainText('This time machine link is wrong: tasks:');
  expect(errors).toEqual([]);
});
