// Presenter mode on a 1920 x 1080 projector, for the compare view and the workbench: no visible
// text under 24 px, no two labels of a figure overlapping (slide-text.ts; every lesson step gets
// the same checks in lecture-fit.spec.ts's walk), the remote's keys (PageDown / PageUp, B to
// blank), and a lesson walked with the keyboard alone.
import { expect, test, type Page } from './fixtures';
import { watchConsole } from './console-errors';
import { expectSlide } from './slide-text';

test.use({ viewport: { width: 1920, height: 1080 } });

const ready = (page: Page, n: number) => expect(page.locator('.lesson-stage')).toHaveAttribute('data-ready', String(n), { timeout: 120_000 });

test('the compare view and the workbench in lecture mode: large type, one figure or a pair, the remote\'s keys', async ({ page }) => {
  test.setTimeout(300_000);
  const errors = watchConsole(page);
  await page.goto('/?compare=v4.16,v4.17&cpus=8&pages=64&tasks=1,8&lecture=1');
  await expect(page.locator('.compare-page')).toHaveClass(/ready/, { timeout: 120_000 });
  await expect(page.locator('html')).toHaveClass(/lecture/);
  // the first view of both columns side by side, the rest off the slide
  await expect(page.locator('.compare-col section.panel:visible')).toHaveCount(2);
  await expectSlide(page, 'compare');
  const t = page.locator('output[for=cmp-scrub]');
  await page.locator('#cmp-scrub').fill('0');
  const before = await t.innerText();
  await page.keyboard.press('PageDown');
  await expect(t).not.toHaveText(before);
  await page.keyboard.press('PageUp');
  await expect(t).toHaveText(before);
  // the diff table alone
  await page.locator('#lecture-views').selectOption('diff');
  await expect(page.locator('#diff-table')).toBeVisible();
  await expect(page.locator('.compare-col section.panel:visible')).toHaveCount(0);
  await expectSlide(page, 'compare, the diff table');
  await expect(page).toHaveURL(/lecture=1/);

  // a lecturer runs the scenario, then turns the workbench into a slide
  await page.goto('/?workbench');
  await page.getByRole('button', { name: 'Run scenario' }).click();
  await expect(page.locator('.loglabel')).toContainText('events', { timeout: 120_000 });
  await page.keyboard.press('l');
  await expect(page.locator('.sidebar')).toBeHidden();
  // the free areas and the pcp lists, with the legend that names their colours
  await expect(page.locator('#views section.panel:visible:not(#legend)')).toHaveCount(2);
  await expect(page.locator('#free-areas')).toBeVisible();
  await expect(page.locator('#pcp')).toBeVisible();
  await expectSlide(page, 'workbench');
  const step = page.locator('.stepout');
  const s0 = await step.innerText();
  await page.keyboard.press('PageDown'); // the next event of the "jump to" kind
  await expect(step).not.toHaveText(s0);
  await page.keyboard.press('l');
  await expect(page.locator('html')).not.toHaveClass(/lecture/);
  await expect(page.locator('#views section.panel:visible').first()).toBeVisible();
  expect(await page.locator('#views section.panel:visible').count()).toBeGreaterThan(4);
  expect(errors).toEqual([]);
});

test('B blanks the screen and brings it back; F, P and Esc still work on a lesson slide', async ({ page }) => {
  const errors = watchConsole(page);
  await page.goto('/?lesson=buddy&step=1&lecture=1');
  await ready(page, 1);
  const blank = page.locator('.presenter-blank');
  await expect(blank).toBeHidden();
  await page.keyboard.press('b');
  await expect(blank).toBeVisible();
  // while blank, the remote's page keys do not move the lesson on behind it
  await page.keyboard.press('PageDown');
  await expect(page.locator('.step-counter')).toHaveText('step 1 of 4');
  await page.keyboard.press('b');
  await expect(blank).toBeHidden();
  await page.keyboard.press('.'); // some remotes send "." for blank
  await expect(blank).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(blank).toBeHidden();
  await expect(page.locator('html')).toHaveClass(/lecture/);
  await page.keyboard.press('p');
  await expect(page.locator('.lesson-page')).toHaveClass(/laser-on/);
  await page.keyboard.press('Escape');
  await expect(page.locator('html')).not.toHaveClass(/lecture/);
  expect(errors).toEqual([]);
});

test('a lesson walked with the keyboard alone: Tab to the controls, answer with the arrows and Enter, step the run, reach the end', async ({ page }) => {
  test.setTimeout(180_000);
  const errors = watchConsole(page);
  await page.goto('/?lesson=buddy&step=1');
  await ready(page, 1);
  /** Tabs until the focused element matches the selector, at most `max` presses. */
  const tabTo = async (selector: string, max = 60) => {
    for (let k = 0; k < max; k++) {
      await page.keyboard.press('Tab');
      if (await page.evaluate((sel) => document.activeElement?.matches(sel) ?? false, selector)) return;
    }
    throw new Error(`no focusable ${selector} within ${max} Tab presses`);
  };
  // step the run one record with the keyboard and hear about it
  const said = await page.locator('.narration').innerText();
  await tabTo('button.step-fwd');
  await page.keyboard.press('Enter');
  await expect(page.locator('.narration')).not.toHaveText(said);
  for (let n = 2; n <= 4; n++) {
    await page.keyboard.press('PageDown');
    await expect(page.locator('.step-counter')).toHaveText(`step ${n} of 4`);
    if (await page.locator('form.predict').count()) {
      if (await page.locator('form.predict input[type=radio]').count()) {
        // Tab reaches the choices; the arrows choose, Enter commits
        await tabTo('form.predict input[type=radio]');
        await page.keyboard.press('ArrowDown');
      } else {
        await tabTo('#predict-number');
        await page.keyboard.type('0');
      }
      await page.keyboard.press('Enter');
      await expect(page.locator('.feedback')).toBeVisible({ timeout: 60_000 });
    }
    await ready(page, n);
  }
  await expect(page.locator('.leaves-out')).toBeVisible();
  await tabTo('button[aria-label="Previous step (PageUp)"]');
  await page.keyboard.press('Enter');
  await expect(page.locator('.step-counter')).toHaveText('step 3 of 4');
  expect(errors).toEqual([]);
});
