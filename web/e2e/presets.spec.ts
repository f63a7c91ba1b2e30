// The scenario form says what each preset models and which switches it sets (the core's
// names, as `blab presets NAME` prints them), so the 5.14 .. 6.19 presets are told apart by
// their mechanisms, not only their titles; a v6.19 run from the form shows its batch and high.
import { expect, test } from './fixtures';

test("the preset menu's hint: each modern preset's commits and switches", async ({ page }) => {
  test.setTimeout(120_000);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto('/?workbench#preset=v6.19');
  const hint = page.locator('#sc-preset-hint');
  await expect(hint).toContainText('fc4b909c368f');
  await expect(hint).toContainText('bulk_chunk 1');
  for (const [preset, commit, sw] of [
    ['v5.14', 'b92ca18e8ca5', 'free_factor 1'],
    ['v6.0', '4b23a68f9536', 'pcp_lock 1'],
    ['v6.7', '90b41691b988', 'alloc_factor 1'],
    ['v6.16', 'c544a952ba61', 'free_high 3'],
  ] as const) {
    await page.locator('#sc-preset').selectOption(preset);
    await expect(hint).toContainText(commit);
    await expect(hint).toContainText(sw);
  }
  await page.locator('#sc-preset').selectOption('v6.19');
  for (const [w, h] of [
    [1440, 900],
    [1920, 1080],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width: w, height: h });
    // a phone folds the settings into a drawer: open it, as a user would
    if (!(await page.locator('#scenario-settings').evaluate((d) => (d as HTMLDetailsElement).open))) await page.locator('#scenario-settings > summary').click();
    await expect(hint).toBeVisible();
    await page.locator('#scenario-form').scrollIntoViewIfNeeded();
    await page.locator('#scenario-form').screenshot({ path: `test-results/presets-${w}.png` });
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1)).toBe(true);
  }
  expect(errors).toEqual([]);
});
