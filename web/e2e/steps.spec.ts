// Every step of every lesson as a picture, kept as a visual baseline that fails on change
// (web/e2e/steps.spec.ts-snapshots/). The pictures are deterministic: a fixed viewport, the
// fonts Debian installs (DejaVu, Liberation: what Chromium's system-ui resolves to here),
// reduced motion so no transition is caught half way, the same answer to every question, and
// the model's numbers, which are the same on every run. After a change that is meant to alter
// a page: `node web/e2e/run.mjs steps.spec.ts --update-snapshots`, and look at the new PNGs.
import { expect, test } from './fixtures';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseLesson } from '../lessons/parse';
import { watchConsole } from './console-errors';

test.use({ viewport: { width: 1280, height: 900 }, reducedMotion: 'reduce' });

const dir = join(import.meta.dirname, '..', '..', 'lessons');
const lessons = readdirSync(dir)
  .filter((f) => f.endsWith('.md'))
  .sort()
  .map((f) => parseLesson(`lessons/${f}`, readFileSync(join(dir, f), 'utf8')));

for (const l of lessons) {
  test(`lesson ${l.number} (${l.id}): a picture per step, as the baseline has it`, async ({ page }) => {
    test.setTimeout(240_000);
    const errors = watchConsole(page);
    await page.goto(`/?lesson=${l.id}&step=1`);
    for (let n = 1; n <= l.steps.length; n++) {
      await expect(page.locator('.step-counter')).toHaveText(`step ${n} of ${l.steps.length}`);
      const form = page.locator('form.predict');
      if (await form.count()) {
        if (await form.locator('input[type=radio]').count()) await form.locator('input[type=radio]').first().check();
        else await form.locator('input[type=number]').fill('0');
        await form.getByRole('button', { name: 'Check my prediction' }).click();
      }
      await expect(page.locator('.lesson-stage')).toHaveAttribute('data-ready', String(n), { timeout: 120_000 });
      await page.mouse.move(0, 0);
      // the footer's course version names the commit: masked, or every commit would fail the pictures
      await expect(page).toHaveScreenshot(`${l.id}-step-${n}.png`, { animations: 'disabled', timeout: 20_000, mask: [page.locator('.site-footer')] });
      if (n < l.steps.length) await page.getByRole('button', { name: 'Next step (PageDown)' }).click();
    }
    expect(errors).toEqual([]);
  });
}
