// The exercise pages in Chromium: a problem made by the core in the engine worker, its figures,
// answers typed and checked (right, wrong with the working and its replay, malformed told its
// form and not marked), the score kept across a reload, keyboard only, a bad link refused,
// lecture mode's reveal key, and the instructor's sheet with its printable key. Screenshots at
// 390 px, 1440 px and a 1920 x 1080 lecture screen land in test-results/exercise-*.png.
import { axe } from './axe';
import { expect, frame, test, type Page } from './fixtures';
import { watchConsole } from './console-errors';

/** The core's own answers for a problem, as the page asks for them (Show the answers). */
async function coreAnswers(page: Page): Promise<string[]> {
  await page.locator('#ex-reveal').click();
  const marks = page.locator('.ex-mark.revealed strong');
  await expect(marks.first()).toBeVisible({ timeout: 30_000 });
  return marks.allTextContents();
}

async function typeAnswer(page: Page, n: number, answer: string): Promise<void> {
  const letter = /^([a-e])\) /.exec(answer);
  if (letter) await page.locator(`#ex-q${n}-${letter[1]}`).check();
  else await page.locator(`#ex-q${n}`).fill(answer);
}

test('a buddy problem: made by the core, drawn, answered right and wrong, the working replayed', async ({ page }) => {
  const errors = watchConsole(page);
  await page.goto('?exercise=buddy&seed=7&level=2');
  await expect(page.locator('#ex-title')).toHaveText('buddy, level 2, seed 7 (preset v5.18)', { timeout: 30_000 });
  await expect(page.locator('.ex-statement')).toContainText('free_area[order].free_list[MOVABLE]');
  // the zone at the state the problem states, drawn by the registry's views
  await expect(page.locator('#ex-free-areas')).toBeVisible({ timeout: 30_000 });
  await expect(page.locator('#ex-buddyinfo')).toBeVisible();

  // the answers the core computed; a fresh page to answer them (revealing does not count)
  const answers = await coreAnswers(page);
  expect(answers).toHaveLength(3);
  await page.goto('?exercise=buddy&seed=7&level=2');
  await expect(page.locator('#ex-q1')).toBeVisible({ timeout: 30_000 });
  await typeAnswer(page, 1, answers[0]!);
  await typeAnswer(page, 2, String(Number(answers[1]!) + 1));
  await typeAnswer(page, 3, '1 2 3'); // a buddyinfo line has 11 counts: not marked
  await page.locator('#ex-check').click();
  await expect(page.locator('#ex-q1-mark')).toHaveClass(/right/, { timeout: 30_000 });
  await expect(page.locator('#ex-q2-mark')).toHaveClass(/wrong/);
  await expect(page.locator('#ex-q2-mark')).toContainText('__free_one_page()');
  await expect(page.locator('#ex-q3-mark')).toHaveClass(/malformed/);
  await expect(page.locator('#ex-q3-mark')).toContainText('a buddyinfo line has 11 counts');
  // a problem with an answer not of its form is not counted yet
  await expect(page.locator('.ex-score')).toContainText('starts with your first checked problem');

  // the wrong answer's working, record by record, with the C that wrote each record
  await page.locator('#ex-q2-mark .ex-replay').click();
  await expect(page.locator('#ex-replay .mini-player')).toBeVisible();
  await expect(page.locator('#ex-replay .narration')).not.toBeEmpty();
  await page.locator('#ex-replay button.step-fwd').click();
  await expect(page.locator('#ex-replay .source-pane')).toBeVisible();

  // all answered, one wrong: counted, and kept across a reload
  await typeAnswer(page, 3, answers[2]!);
  await page.locator('#ex-check').click();
  await expect(page.locator('.ex-score')).toContainText('Your score: 0 of 1', { timeout: 30_000 });
  await page.reload();
  await expect(page.locator('.ex-score')).toContainText('Your score: 0 of 1');
  expect(errors).toEqual([]);
});

test('keyboard only: type, Check with Enter, marks announced', async ({ page }) => {
  await page.goto('?exercise=pcp&seed=3&level=1');
  const answers = await coreAnswers(page);
  await page.goto('?exercise=pcp&seed=3&level=1');
  await expect(page.locator('#ex-q1')).toBeVisible({ timeout: 30_000 });
  await page.locator('#ex-q1').focus();
  await page.keyboard.type(answers[0]!);
  await page.keyboard.press('Tab');
  await page.keyboard.type(answers[1]!);
  await page.keyboard.press('Enter');
  await expect(page.locator('#ex-q1-mark')).toHaveClass(/right/, { timeout: 30_000 });
  await expect(page.locator('#ex-q2-mark')).toHaveClass(/right/);
  await expect(page.locator('#ex-q1-mark')).toHaveAttribute('aria-live', 'polite');
  await expect(page.locator('.ex-score')).toContainText('Your score: 1 of 1');
  // every field has a label and says its form
  for (const id of ['#ex-q1', '#ex-q2']) {
    await expect(page.locator(`label[for="${id.slice(1)}"]`)).toHaveCount(1);
    await expect(page.locator(id)).toHaveAttribute('aria-describedby', `${id.slice(1)}-hint`);
  }
});

test('keyboard only: a choice is a group named by its question, arrows choose, Enter checks', async ({ page }) => {
  await page.goto('?exercise=watermarks&seed=1&level=3');
  await expect(page.locator('#ex-q1-a')).toBeVisible({ timeout: 30_000 });
  const group = page.getByRole('group', { name: /^1\. Op 1 \(alloc order=1 gfp=GFP_KERNEL\): which zone serves it\?$/ });
  await expect(group).toBeVisible();
  await expect(group.getByRole('radio')).toHaveCount(4);
  await page.locator('#ex-q1-a').focus();
  await page.keyboard.press('ArrowDown');
  await expect(page.locator('#ex-q1-b')).toBeChecked();
  await page.keyboard.press('Enter');
  await expect(page.locator('#ex-q1-mark')).toHaveClass(/right|wrong/, { timeout: 30_000 });
  // the questions left empty are told so, not marked
  await expect(page.locator('#ex-q3-mark')).toHaveClass(/malformed/);
  await expect(page.locator('#ex-q3-mark')).toContainText('Not answered yet');
});

test('a bad link is refused with a message', async ({ page }) => {
  await page.goto('?exercise=buddy&seed=4294967296&level=2');
  await expect(page.locator('#exercise .alert')).toContainText('seed=4294967296: out of range 0..4294967295');
  await page.goto('?exercise=buddies');
  await expect(page.locator('#exercise .alert')).toContainText('buddies is not a kind of exercise');
  await page.goto('?exercise=buddy&level=9');
  await expect(page.locator('#exercise .alert')).toContainText('level=9: out of range 1..3');
  await page.goto('?exercise=watermarks&preset=v6.7');
  // a preset the kind cannot pose on: the core says so
  await expect(page.locator('#exercise .alert')).toContainText('watermark problems are posed on v4.16 .. v5.18', { timeout: 30_000 });
});

test('screenshots: a phone, a desktop, and lecture mode revealing on R', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('?exercise=slab&seed=4&level=2');
  await expect(page.locator('#ex-slab')).toBeVisible({ timeout: 30_000 });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(1);
  await page.screenshot({ path: 'test-results/exercise-390.png', fullPage: true });

  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('?exercise=buddy&seed=7&level=3');
  await expect(page.locator('#ex-free-areas')).toBeVisible({ timeout: 30_000 });
  await page.screenshot({ path: 'test-results/exercise-1440.png', fullPage: true });

  await page.setViewportSize({ width: 1920, height: 1080 });
  await page.goto('?exercise=watermarks&seed=4&level=3&lecture=1');
  await expect(page.locator('html')).toHaveClass(/lecture/);
  await expect(page.locator('.ex-answer').first()).toBeHidden({ timeout: 30_000 });
  await page.screenshot({ path: 'test-results/exercise-lecture-1920.png' });
  await page.keyboard.press('r');
  await expect(page.locator('.ex-mark.revealed').first()).toBeVisible({ timeout: 30_000 });
  await page.screenshot({ path: 'test-results/exercise-lecture-1920-revealed.png' });
});

test('lecture mode on a projector: the questions beside the problem, one column when a listing is wide', async ({ page }) => {
  await page.setViewportSize({ width: 1920, height: 1080 });
  await page.goto('?exercise=buddy&seed=5&level=3');
  await expect(page.locator('#ex-q1-box')).toBeVisible({ timeout: 30_000 });
  await page.keyboard.press('l');
  await expect(page.locator('html')).toHaveClass(/lecture/);
  const problem = (await page.locator('.ex-problem').boundingBox())!;
  const questions = (await page.locator('.ex-answers').boundingBox())!;
  expect(questions.x).toBeGreaterThan(problem.x + problem.width - 1);
  expect(questions.y).toBeLessThan(1080 / 2);
  // the figures below both, the width of the page
  const figures = (await page.locator('.ex-figures').boundingBox())!;
  expect(figures.y).toBeGreaterThan(problem.y + problem.height - 1);
  expect(figures.width).toBeGreaterThan(problem.width + questions.width);
  // no listing of the problem is cut
  expect(await page.locator('.ex-statement pre').evaluateAll((l) => l.filter((e) => e.scrollWidth > e.clientWidth + 1).length)).toBe(0);
  // a node's buddyinfo is too wide for the column: one column
  await page.goto('?exercise=watermarks&seed=5&level=3&lecture=1');
  await expect(page.locator('#ex-q1-box')).toBeAttached({ timeout: 30_000 });
  await expect(page.locator('#exercise')).toHaveClass(/ex-one-column/);
  expect(await page.locator('.ex-statement pre').evaluateAll((l) => l.filter((e) => e.scrollWidth > e.clientWidth + 1).length)).toBe(0);
  const below = (await page.locator('.ex-answers').boundingBox())!;
  const above = (await page.locator('.ex-problem').boundingBox())!;
  expect(below.y).toBeGreaterThan(above.y + above.height - 1);
});

test("the instructor's sheet: problems with links, then the key; CSV key; a student's own seed", async ({ page }) => {
  await page.goto('?exercises&kinds=buddy,pcp&levels=1,2&count=4&seed=7&student=Ada%20Lovelace');
  await expect(page.locator('.sheet-problem')).toHaveCount(4, { timeout: 60_000 });
  await expect(page.locator('.key-problem')).toHaveCount(4);
  await expect(page.locator('.ex-status')).toContainText("Ada Lovelace's own seed: 3464390691");
  const href = await page.locator('#sheet-p1 .sheet-link a').getAttribute('href');
  expect(href).toMatch(/^\?exercise=buddy&seed=\d+&level=1$/);
  // printed: the key starts a page of its own, the form and buttons are not printed
  await page.emulateMedia({ media: 'print' });
  expect(await page.locator('.sheet-key').evaluate((e) => getComputedStyle(e).breakBefore)).toBe('page');
  await expect(page.locator('.sheet-form')).toBeHidden();
  await page.emulateMedia({ media: 'screen' });
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Key as CSV' }).click();
  const d = await download;
  expect(d.suggestedFilename()).toBe('exercises-7-student-key.csv');
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.screenshot({ path: 'test-results/exercises-sheet-1440.png', fullPage: true });
  // the link of a problem opens it
  await page.goto(href!);
  await expect(page.locator('#ex-title')).toContainText('buddy, level 1', { timeout: 30_000 });
});

// each page loads once at 390 px and is then widened to 1440 px (a window resized): the core
// makes each problem once, and both widths are checked
test('390 and 1440 px: axe finds no serious or critical violation, nothing scrolls sideways', async ({ page }) => {
  // six pages, each made by the core and swept by axe twice: a minute each is a hang, not slowness
  test.setTimeout(480_000);
  const problems: string[] = [];
  const check = async (name: string) => {
    for (const width of [390, 1440]) {
      await page.setViewportSize({ width, height: 900 });
      await frame(page);
      const wide = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      if (wide > 1) problems.push(`${name} at ${width} px: ${wide} px wider than the screen`);
      const r = await axe(page).analyze();
      for (const v of r.violations.filter((x) => x.impact === 'serious' || x.impact === 'critical'))
        problems.push(`${name} at ${width} px: ${v.id} at ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join('; ')}`);
    }
    await page.setViewportSize({ width: 390, height: 900 });
  };
  await page.setViewportSize({ width: 390, height: 900 });
  for (const kind of ['buddy', 'pcp', 'watermarks', 'slab', 'result']) {
    await page.goto(`?exercise=${kind}&seed=2&level=3`);
    await expect(page.locator('#ex-q1-box')).toBeAttached({ timeout: 60_000 });
    // a result problem is a compare's numbers: no zone to draw
    if (kind !== 'result') await expect(page.locator('.ex-figures section.panel').first()).toBeVisible({ timeout: 30_000 });
    await page.locator('#ex-reveal').click();
    await expect(page.locator('.ex-mark.revealed').first()).toBeVisible({ timeout: 30_000 });
    await check(kind);
  }
  await page.goto('?exercises&kinds=slab&levels=1&count=2&seed=1');
  await expect(page.locator('.key-problem')).toHaveCount(2, { timeout: 60_000 });
  await check('sheet');
  expect(problems).toEqual([]);
});
