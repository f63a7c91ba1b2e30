import { expect, test } from './fixtures';

// The real-machine panel in Debian's Chromium against `vite preview`: the page is
// cross-origin isolated, 4 Web Workers run page_fault1 on Emscripten pthreads, and each
// worker's score comes back nonzero. This machine may have fewer cores than 4: the test
// gives the page a device with 8, as the panel bounds workers by hardwareConcurrency.

test('real machine: 4 workers on real threads, each with a nonzero score', async ({ page }) => {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.addInitScript(() => {
    Object.defineProperty(Navigator.prototype, 'hardwareConcurrency', { get: () => 8 });
  });
  await page.goto('/?workbench');
  expect(await page.evaluate(() => window.crossOriginIsolated)).toBe(true);
  await expect(page.locator('#real-isolation')).toHaveCount(0); // no fallback message
  await expect(page.locator('#real-prefetch')).toContainText('WebAssembly has no prefetch instruction');
  await page.locator('#real-workers').fill('4');
  await page.locator('#real-preset').selectOption('v4.16');
  await page.locator('#real-seconds').fill('1');
  await page.getByRole('button', { name: 'Run on real threads' }).click();
  await expect(page.locator('#real-status')).toContainText('done', { timeout: 120_000 });

  // a warm-up and a measured second, one cell per worker each; every worker scored
  await expect(page.locator('#real-scores tr.measured td.score')).toHaveCount(4);
  for (let w = 0; w < 4; w++) {
    const texts = await page.locator(`#real-scores td.score[data-worker="${w}"]`).allTextContents();
    expect(texts).toHaveLength(2);
    expect(Math.max(...texts.map((t) => Number(t.replace(/,/g, ''))))).toBeGreaterThan(0);
  }
  await expect(page.locator('#real-live')).toContainText('second 2: zone->lock spin per worker'); // the live line
  await expect(page.locator('#real-locks')).toContainText('zone->lock:');
  await expect(page.locator('#real-locks')).toContainText('4 workers');
  await expect(page.locator('#real-locks')).toContainText('prefetch: none (WebAssembly has no prefetch instruction)');
  expect(errors).toEqual([]);
});

test('real machine: bad input gets a plain message, nothing starts', async ({ page }) => {
  await page.goto('/?workbench');
  await page.locator('#real-seconds').fill('0');
  await page.getByRole('button', { name: /Run on/ }).click();
  await expect(page.locator('#real-status')).toHaveText('Seconds: 0 is outside 1..60');
  await expect(page.locator('#real-scores tr')).toHaveCount(0);
});
