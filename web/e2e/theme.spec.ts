// Light and dark: the page follows prefers-color-scheme until the reader picks a theme, the
// pick is kept across a reload, T switches it on a slide, and both themes pass axe's colour
// contrast rule on a lesson page and on its lecture slide, on the workbench and on a compare.
import { axe } from './axe';
import { expect, test, type Page } from './fixtures';
import { watchConsole } from './console-errors';

const theme = (page: Page) => page.locator('html').getAttribute('data-theme');
const ready = (page: Page, n: number) => expect(page.locator('.lesson-stage')).toHaveAttribute('data-ready', String(n), { timeout: 120_000 });

async function contrast(page: Page): Promise<string[]> {
  const r = await axe(page).withRules(['color-contrast']).analyze();
  return r.violations.flatMap((v) => v.nodes.map((n) => `${n.target.join(' ')}: ${n.failureSummary?.split('\n').at(-1)?.trim() ?? ''}`));
}

test('the system picks the theme until the reader does; the pick survives a reload', async ({ page }) => {
  const errors = watchConsole(page);
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto('/?lessons');
  expect(await theme(page)).toBe('light');
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await page.locator('header .theme-toggle').click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
  await expect(page.locator('header .theme-toggle')).toHaveAttribute('aria-pressed', 'true');
  await page.reload();
  expect(await theme(page)).toBe('light');
  expect(errors).toEqual([]);
});

for (const scheme of ['dark', 'light'] as const) {
  test(`${scheme} theme: a lesson step and its lecture slide pass axe's colour contrast; T switches the slide`, async ({ page }) => {
    test.setTimeout(180_000);
    const errors = watchConsole(page);
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto('/?lesson=hotcold&step=2');
    const form = page.locator('form.predict');
    if (await form.count()) {
      await form.locator('input[type=radio]').first().check();
      await form.getByRole('button', { name: 'Check my prediction' }).click();
    }
    await ready(page, 2);
    expect(await theme(page)).toBe(scheme);
    expect(await contrast(page)).toEqual([]);
    await page.goto('/?lesson=hotcold&step=3&lecture=1');
    if (await page.locator('.predict.lecture-q').count()) await page.keyboard.press('r');
    await ready(page, 3);
    expect(await contrast(page)).toEqual([]);
    // the slide's own toggle, and T: the figures are drawn again in the other theme's colours
    await expect(page.locator('.presenter-controls .theme-toggle')).toBeVisible();
    await page.keyboard.press('t');
    await expect(page.locator('html')).toHaveAttribute('data-theme', scheme === 'dark' ? 'light' : 'dark');
    await ready(page, 3);
    expect(errors).toEqual([]);
  });
}

for (const scheme of ['dark', 'light'] as const) {
  test(`${scheme} theme: the workbench after a run and a compare pass axe's colour contrast`, async ({ page }) => {
    test.setTimeout(240_000);
    const errors = watchConsole(page);
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto('/?workbench');
    await page.getByRole('button', { name: 'Run scenario' }).click();
    await expect(page.locator('#results [data-measure="score"]')).toContainText(/[\d,]+ pages\/s/, { timeout: 60_000 });
    expect(await theme(page)).toBe(scheme);
    expect(await contrast(page)).toEqual([]);
    await page.goto('/?compare=v4.16,v4.17&cpus=8&pages=64&tasks=1,8');
    await expect(page.locator('.compare-page')).toHaveClass(/ready/, { timeout: 120_000 });
    expect(await contrast(page)).toEqual([]);
    expect(errors).toEqual([]);
  });
}
