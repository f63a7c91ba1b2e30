// prefers-reduced-motion: a step is an instant change. With motion reduced, what a record does
// (the moving picture of the record, the pcp bars) is drawn in its final state on the next frame
// and nothing runs on afterwards; with motion allowed the same keypress animates (so the check
// can tell the two apart).
import { expect, test, type Page } from './fixtures';
import { watchConsole } from './console-errors';

/** The drawings a record moves: the moving picture of the record and the pcp lists. */
const drawn = (page: Page) =>
  page.evaluate(() =>
    ['#lv-event svg', '#lv-pcp svg']
      .map((s) => {
        const e = document.querySelector(s);
        return e ? new XMLSerializer().serializeToString(e) : `no ${s}`;
      })
      .join('\n'),
  );
const frames = (page: Page, n: number) =>
  page.evaluate((k) => new Promise<void>((r) => {
    const f = (i: number) => (i ? requestAnimationFrame(() => f(i - 1)) : r());
    f(k);
  }), n);

async function stepOnce(page: Page): Promise<{ early: string; late: string; running: number }> {
  await page.goto('/?lesson=hotcold&step=3');
  await expect(page.locator('.lesson-stage')).toHaveAttribute('data-ready', '3', { timeout: 120_000 });
  await page.locator('#lv-event svg').waitFor();
  await page.waitForTimeout(1000); // the step's own first drawing settles
  await page.locator('button.jump-next').click(); // the next MERGE: a record with a picture of its own
  await frames(page, 3);
  const early = await drawn(page);
  const running = await page.evaluate(() => document.getAnimations().length);
  await page.waitForTimeout(1500);
  return { early, late: await drawn(page), running };
}

test('reduced motion: a record is drawn in its final state at once, with no animation running', async ({ page }) => {
  const errors = watchConsole(page);
  await page.emulateMedia({ reducedMotion: 'reduce' });
  const r = await stepOnce(page);
  expect(r.running).toBe(0);
  expect(r.early).toBe(r.late);
  expect(errors).toEqual([]);
});

// @timed (run alone, playwright.config.ts): the transition must have moved within 1.5 s
test('motion allowed: the same record animates (the check above can tell)', { tag: '@timed' }, async ({ page }) => {
  await page.emulateMedia({ reducedMotion: 'no-preference' });
  const r = await stepOnce(page);
  expect(r.early).not.toBe(r.late);
});
