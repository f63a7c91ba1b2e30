// One lesson figure in another page's frame, and a range of steps as an animated GIF: the
// lesson page's Embed dialog writes the <iframe>, which is put on a page of its own here; the
// frame has no chrome, draws the figure, steps with the keyboard alone, and a bad address is
// refused in words that name the parameter. The GIF is read back frame by frame. Screenshots at
// 390 px, 1440 px, 1920 x 1080 and of the frame at 640 x 400 and 1280 x 720, in both themes,
// land in test-results/embed-*.png.
import { readFileSync } from 'node:fs';
import { axe } from './axe';
import { expect, test, type Page } from './fixtures';
import { watchConsole } from './console-errors';

/** A GIF's frames and each frame's delay (hundredths of a second), read block by block. */
function gifFrames(b: Uint8Array): { frames: number; delays: number[]; width: number; height: number } {
  if (String.fromCharCode(...b.subarray(0, 6)) !== 'GIF89a') throw new Error('not a GIF89a');
  const width = b[6]! | (b[7]! << 8);
  const height = b[8]! | (b[9]! << 8);
  let at = 13 + (b[10]! & 0x80 ? 3 << ((b[10]! & 7) + 1) : 0);
  const skipSubBlocks = () => {
    while (b[at]! !== 0) at += b[at]! + 1;
    at++;
  };
  const delays: number[] = [];
  let frames = 0;
  for (;;) {
    const tag = b[at++];
    if (tag === 0x3b) break;
    if (tag === 0x21) {
      const label = b[at++];
      if (label === 0xf9) delays.push(b[at + 2]! | (b[at + 3]! << 8));
      skipSubBlocks();
    } else if (tag === 0x2c) {
      const packed = b[at + 8]!;
      at += 9 + (packed & 0x80 ? 3 << ((packed & 7) + 1) : 0) + 1; // descriptor, local colours, LZW size
      skipSubBlocks();
      frames++;
    } else throw new Error(`unexpected block 0x${tag?.toString(16)} at ${at - 1}`);
  }
  return { frames, delays, width, height };
}

async function openDialog(page: Page): Promise<void> {
  await page.getByRole('button', { name: /^Embed a figure/ }).click();
  await expect(page.getByRole('dialog', { name: 'Embed a figure' })).toBeVisible();
}

test('the Embed dialog writes an iframe: no chrome in it, the figure, stepped by the keyboard alone', async ({ page }) => {
  test.setTimeout(180_000);
  const errors = watchConsole(page);
  await page.goto('/?lesson=buddy&step=1');
  await expect(page.locator('.lesson-stage')).toHaveAttribute('data-ready', '1', { timeout: 60_000 });
  await openDialog(page);
  // the figure the shown step is about, at the shown step
  await expect(page.locator('#embed-view')).toHaveValue('free-areas');
  await expect(page.locator('#embed-code')).toHaveValue(/\?embed=free-areas&amp;lesson=buddy&amp;step=1"/);
  await page.locator('#embed-step').selectOption('2'); // the options' values are 0-based step indices
  await page.locator('#embed-size').selectOption('640x400');
  const html = await page.locator('#embed-code').inputValue();
  expect(html).toMatch(/^<iframe src="http:\/\/[^"]+\/\?embed=free-areas&amp;lesson=buddy&amp;step=3" title="buddylab: [^"]+" width="640" height="400"/);
  // the snippet, pasted into a page of its own (same origin: the test server isolates it)
  await page.evaluate((h) => {
    const frame = new DOMParser().parseFromString(h, 'text/html').querySelector('iframe')!;
    document.body.replaceChildren(Object.assign(document.createElement('h1'), { textContent: 'A course page' }), document.importNode(frame, true));
  }, html);
  const frame = page.frameLocator('iframe');
  await expect(frame.locator('.embed-frame')).toHaveAttribute('data-ready', '3', { timeout: 60_000 });
  await expect(frame.locator('#embed-free-areas')).toBeVisible();
  for (const chrome of ['.top', '.site-footer', '.lesson-text', '.lesson-nav', '.mini-player']) await expect(frame.locator(chrome)).toHaveCount(chrome === '.top' || chrome === '.site-footer' ? 1 : 0);
  await expect(frame.locator('.top')).toBeHidden();
  await expect(frame.locator('.embed-counter')).toHaveText(/^step 3 of 4: /);
  // nothing scrolls in the frame, and the figure is inside it
  const fits = await frame.locator('html').evaluate((h) => h.scrollHeight <= innerHeight + 1 && h.scrollWidth <= innerWidth + 1);
  expect(fits).toBe(true);
  // the keyboard alone: Tab into the frame's figure, which says what it is, then the keys step
  await page.keyboard.press('Tab');
  await expect(frame.locator('.embed-frame')).toBeFocused();
  await expect(frame.locator('.embed-frame')).toHaveAttribute('aria-label', /free areas.*lesson 1.*step 3 of 4.*Arrow keys/i);
  await page.keyboard.press('ArrowRight');
  await expect(frame.locator('.embed-counter')).toHaveText(/^step 4 of 4: /);
  await expect(frame.locator('.embed-frame')).toHaveAttribute('data-ready', '4', { timeout: 30_000 });
  await page.keyboard.press('PageUp');
  await page.keyboard.press('PageUp');
  await expect(frame.locator('.embed-counter')).toHaveText(/^step 2 of 4: /);
  await page.keyboard.press(' ');
  await expect(frame.locator('.embed-counter')).toHaveText(/^step 3 of 4: /);
  await page.keyboard.press('Home');
  await expect(frame.locator('.embed-counter')).toHaveText(/^step 1 of 4: /);
  await expect(frame.locator('.embed-frame')).toHaveAttribute('data-ready', '1', { timeout: 30_000 });
  expect(errors).toEqual([]);
});

test('a bad embed address is refused in the frame, naming the parameter and why', async ({ page }) => {
  const errors = watchConsole(page);
  const cases: [string, RegExp][] = [
    ['/?embed=free-areas&lesson=buddy&step=2x', /^step: "2x" is not a step number/],
    ['/?embed=flames&lesson=buddy&step=1', /^embed: "flames" is not a figure a lesson shows; the figures: free-areas/],
    ['/?embed=pcp&lesson=buddy&step=1', /^embed: lesson "buddy" never shows pcp lists/],
    ['/?embed=free-areas&lesson=nosuch', /^lesson: no lesson "nosuch"/],
    ['/?embed=buddy-tree&lesson=buddy&step=1', /^step: step 1 of lesson "buddy" does not show Buddy tree; the steps that do: /],
    ['/?embed=free-areas&lesson=buddy&step=1&theme=blue', /^theme: "blue": light or dark/],
  ];
  for (const [url, why] of cases) {
    await page.goto(url);
    const alert = page.getByRole('alert').filter({ hasText: 'cannot be shown' });
    await expect(alert).toBeVisible();
    await expect(alert.locator('.embed-why')).toHaveText(why);
    await expect(page.locator('.top')).toBeHidden();
  }
  expect(errors).toEqual([]);
});

test('a range of steps exports as an animated GIF: one frame a step, the seconds asked for', async ({ page }) => {
  test.setTimeout(180_000);
  const errors = watchConsole(page);
  await page.addInitScript(() => {
    const make = URL.createObjectURL.bind(URL);
    URL.createObjectURL = (o: Blob | MediaSource) => {
      if (o instanceof Blob) (window as unknown as { lastBlobType: string }).lastBlobType = o.type;
      return make(o);
    };
  });
  await page.goto('/?lesson=buddy&step=1');
  await expect(page.locator('.lesson-stage')).toHaveAttribute('data-ready', '1', { timeout: 60_000 });
  // the run's player fills in its position after the stage is ready: read it once it has
  await expect(page.locator('.run-pos')).toHaveText(/^record \d+ \/ \d+$/);
  const position = await page.locator('.run-pos').textContent();
  await openDialog(page);
  await page.locator('#embed-view').selectOption('free-areas');
  await page.locator('#gif-first').selectOption('1');
  await page.locator('#gif-last').selectOption('3');
  await page.locator('#gif-seconds').selectOption('3');
  const [download] = await Promise.all([page.waitForEvent('download', { timeout: 120_000 }), page.getByRole('button', { name: 'Export GIF' }).click()]);
  expect(download.suggestedFilename()).toBe('buddylab-buddy-free-areas-steps-2-4.gif');
  expect(await page.evaluate(() => (window as unknown as { lastBlobType: string }).lastBlobType)).toBe('image/gif');
  const bytes = new Uint8Array(readFileSync((await download.path())!));
  const gif = gifFrames(bytes);
  expect(gif.frames).toBe(3);
  expect(gif.delays).toEqual([300, 300, 300]);
  expect(gif.width).toBeGreaterThan(300);
  await expect(page.locator('.gif-said')).toHaveText(/^Saved buddylab-buddy-free-areas-steps-2-4\.gif: 3 frames, 3 s each/);
  // the page's own figure still shows its step: the export ran its own copy of the run
  await expect(page.locator('.run-pos')).toHaveText(position ?? '');
  expect(errors).toEqual([]);
});

/** A screenshot in each theme of what is on screen: the system's theme is switched in place (the
 *  page follows it and redraws its figures, web/ui/theme.ts), so each state loads once. */
async function shotInBothThemes(page: Page, path: (theme: string) => string): Promise<void> {
  for (const theme of ['dark', 'light'] as const) {
    await page.emulateMedia({ colorScheme: theme });
    await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
    await page.waitForTimeout(300);
    await page.screenshot({ path: path(theme) });
  }
}

test('screenshots: the dialog at 390 px, 1440 px and 1920 x 1080, and the frame at 640 x 400 and 1280 x 720, in both themes', async ({ page }) => {
  test.setTimeout(400_000);
  const errors = watchConsole(page);
  for (const [w, h] of [[390, 844], [1440, 900], [1920, 1080]] as const) {
    await page.setViewportSize({ width: w, height: h });
    await page.goto('/?lesson=autotune&step=4');
    // drawn, or waiting for the step's question to be answered
    await page.waitForFunction(() => document.querySelector('.lesson-stage[data-ready], .stage-wait') !== null, null, { timeout: 90_000 });
    await openDialog(page);
    await shotInBothThemes(page, (theme) => `test-results/embed-dialog-${w}-${theme}.png`);
  }
  for (const [w, h] of [[640, 400], [1280, 720]] as const) {
    await page.setViewportSize({ width: w, height: h });
    for (const [view, lesson, step] of [['pcp', 'autotune', 4], ['free-areas', 'buddy', 2], ['lock-timeline', 'hotcold', 2], ['latency', 'tail', 2], ['mem-map', 'hotcold', 3]] as const) {
      await page.goto(`/?embed=${view}&lesson=${lesson}&step=${step}`);
      await expect(page.locator('.embed-frame')).toHaveAttribute('data-ready', String(step), { timeout: 120_000 });
      await shotInBothThemes(page, (theme) => `test-results/embed-${view}-${w}x${h}-${theme}.png`);
    }
  }
  expect(errors).toEqual([]);
});

test('axe finds nothing in the dialog or the frame, in either theme', async ({ page }) => {
  test.setTimeout(180_000);
  const problems = async () => (await axe(page).analyze()).violations.flatMap((v) => v.nodes.map((n) => `${v.id} ${n.target.join(' ')}`));
  for (const theme of ['dark', 'light'] as const) {
    await page.emulateMedia({ colorScheme: theme });
    await page.goto('/?lesson=buddy&step=1');
    await expect(page.locator('.lesson-stage')).toHaveAttribute('data-ready', '1', { timeout: 60_000 });
    await openDialog(page);
    expect(await problems(), `dialog, ${theme}`).toEqual([]);
    await page.goto('/?embed=free-areas&lesson=buddy&step=2');
    await expect(page.locator('.embed-frame')).toHaveAttribute('data-ready', '2', { timeout: 60_000 });
    expect(await problems(), `frame, ${theme}`).toEqual([]);
    await page.goto('/?embed=free-areas&lesson=buddy&step=9');
    expect(await problems(), `refusal, ${theme}`).toEqual([]);
  }
});
