// Resilience: a WebAssembly trap in the core and a crash of the engine worker are
// caught, reported in plain words, and the app recovers without a reload. The faults are
// injected through a test-only hook (window.buddylabTest, on only when the test sets
// __buddylabTestHooks before the page loads).
import { expect, mountAware, test } from './fixtures';

test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => {
    (window as unknown as { __buddylabTestHooks: boolean }).__buddylabTestHooks = true;
  });
});

for (const [fault, message] of [
  ['trap', /the allocator core stopped \(.*memory access out of bounds.*\); it restarts on the next run/],
  ['crash', /the engine worker crashed: .*test-only crash of the engine worker.*; it will restart on the next run/],
] as const) {
  test(`a ${fault} in the engine is reported and the next run works without a reload`, async ({ page }) => {
    const pageErrors: string[] = [];
    page.on('pageerror', (e) => pageErrors.push(String(e)));
    await page.goto('/#pages=1024&cpus=2');
    const run = page.getByRole('button', { name: 'Run scenario' });
    const msg = page.locator('#run-msg');
    // a good run first, so the worker and its module are up
    await run.click();
    await expect(page.locator('#results [data-measure="score"]')).toContainText(/[\d,]+ pages\/s/, { timeout: 60_000 });
    await page.evaluate((f) => window.buddylabTest!.injectFault(f), fault);
    await run.click();
    await expect(msg).toContainText(message, { timeout: 60_000 });
    await expect(run).toBeEnabled();
    // the player still shows the first run, and the next run starts a fresh core
    await expect(page.locator('.loglabel')).toContainText('page_fault1, 2 CPUs, 1024 pages');
    await run.click();
    await expect(page.locator('#results [data-measure="score"]')).toContainText(/[\d,]+ pages\/s/, { timeout: 60_000 });
    expect(pageErrors).toEqual([]);
  });
}

test('without the test flag there is no fault hook', async ({ browser }) => {
  const page = mountAware(await browser.newPage());
  await page.goto('/?workbench');
  await expect(page.getByRole('heading', { name: 'buddylab' })).toBeVisible();
  expect(await page.evaluate(() => window.buddylabTest)).toBeUndefined();
  await page.close();
});
