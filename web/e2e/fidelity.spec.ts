// "How close is the model?" (?fidelity): one link from the front page; every claim of the
// fidelity report, in its order, with the report's own verdict and model figure (the page is
// built from the data `make fidelity` wrote beside the report); each row links to the lesson
// step or compare view that runs it again; lecture mode walks the claims.
import { readFileSync } from 'node:fs';
import { axe } from './axe';
import { expect, test } from './fixtures';

const doc = JSON.parse(readFileSync('docs/fidelity-claims.json', 'utf8')) as {
  claims: { id: string; model: string; inside: boolean; gap: string | null; lesson: string; lessonTable: string | null; compare: string }[];
};

test('every claim of the report, its figure and verdict, and the links that run it again', async ({ page }) => {
  test.setTimeout(120_000);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto('/');
  await expect(page.getByRole('link', { name: 'How close is the model?', exact: true })).toHaveAttribute('href', '?fidelity');
  await page.goto('/?fidelity');
  await expect(page.locator('h2.page-title')).toHaveText('How close is the model?');
  const rows = page.locator('#fidelity-table tbody tr');
  await expect(rows).toHaveCount(doc.claims.length);
  const inside = doc.claims.filter((c) => c.inside).length;
  await expect(page.locator('#fidelity-table caption')).toContainText(`${inside} of ${doc.claims.length} claims inside their bands`);
  for (const [i, c] of doc.claims.entries()) {
    const tr = rows.nth(i);
    await expect(tr).toHaveAttribute('id', `claim-${c.id}`);
    await expect(tr.locator('.fid-model')).toHaveText(c.model);
    await expect(tr.locator('.fid-verdict strong')).toHaveText(c.inside ? /^inside/ : /^outside/);
    if (c.gap) await expect(tr.locator('.fid-why')).toContainText(c.gap.slice(0, 60));
    await expect(tr.locator('.fid-links a').first()).toHaveAttribute('href', /^\?lesson=\w+/);
    await expect(tr.locator('.fid-links a', { hasText: 'compare view' })).toHaveAttribute('href', c.compare);
  }
  // a row's lesson link opens the step with the claim's table
  const pf1 = doc.claims.findIndex((c) => c.id === '002-pf1-48');
  await rows.nth(pf1).locator('.fid-links a').first().click();
  await expect(page).toHaveURL(/\?lesson=singlepass&step=\d+$/);
  // the step asks for a prediction before it runs the table
  const form = page.locator('form.predict');
  await form.locator('input[type=radio]').first().check();
  await form.getByRole('button', { name: 'Check my prediction' }).click();
  await expect(page.locator('.tables[data-table="noise"]')).toBeVisible({ timeout: 60_000 });
  // and the lesson's "Model and seed" paragraph links back to the page
  await expect(page.getByRole('link', { name: 'how close the model is' }).first()).toHaveAttribute('href', /^\?fidelity#claim-002-/);
  expect(errors).toEqual([]);
});

test('the page at a phone, a laptop and a lecture screen, and nothing serious for axe', async ({ page }) => {
  test.setTimeout(120_000);
  for (const [w, h] of [
    [390, 844],
    [1440, 900],
  ] as const) {
    await page.setViewportSize({ width: w, height: h });
    await page.goto('/?fidelity');
    await expect(page.locator('#fidelity-table tbody tr').first()).toBeVisible();
    const over = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(over, `wider than ${w} px`).toBeLessThanOrEqual(1);
    await page.screenshot({ path: `test-results/fidelity-${w}.png`, fullPage: w === 390 });
  }
  const report = await axe(page).analyze();
  expect(report.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
  // lecture mode: L, then PageDown walks the claims one row at a time
  await page.setViewportSize({ width: 1920, height: 1080 });
  await page.goto('/?fidelity');
  await page.keyboard.press('l');
  await expect(page.locator('html')).toHaveClass(/lecture/);
  await page.keyboard.press('PageDown');
  await page.keyboard.press('PageDown');
  await expect(page.locator('#fidelity-table tbody tr.current')).toHaveAttribute('id', `claim-${doc.claims[1]!.id}`);
  await page.screenshot({ path: 'test-results/fidelity-1920-lecture.png' });
  // a slide: the reasons fold, and the row stepped to opens its own
  await page.goto('/?fidelity&lecture=1');
  const whys = page.locator('#fidelity-table details.fid-why');
  const gaps = doc.claims.filter((c) => c.gap).length;
  await expect(whys).toHaveCount(gaps);
  await expect(page.locator('#fidelity-table details.fid-why[open]')).toHaveCount(0);
  const outside = doc.claims.findIndex((c) => c.gap);
  for (let k = 0; k <= outside; k++) await page.keyboard.press('PageDown');
  await expect(page.locator('#fidelity-table details.fid-why[open]')).toHaveCount(1);
  await expect(page.locator('#fidelity-table tbody tr.current details.fid-why')).toHaveAttribute('open', '');
});
