// A lesson printed as a handout (?lesson=ID&handout=1), read as the printer gets it (print media):
// every step's heading in order, each step's figures as inline vector SVG, every predict question
// with its choices and none of its answers before the key, the key with one entry per question,
// no control printed, a page as wide as A4's text at most, and a PDF out of Chromium. Lesson 1
// (an op script), lesson 4 (model runs, shipped tables, an answer the model computes) and
// lesson 9 (the widest table).
// PDFs and A4-sized pictures of the printed pages land in test-results/handout-*.
import { axe } from './axe';
import { expect, test } from './fixtures';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseLesson } from '../lessons/parse';
import { answerText, handoutQuestions } from '../lessons/handout-items';
import { watchConsole } from './console-errors';

const dir = join(import.meta.dirname, '..', '..', 'lessons');
const lesson = (file: string) => parseLesson(`lessons/${file}`, readFileSync(join(dir, file), 'utf8'));

/** The text a reader meets before the key, squeezed as the page's textContent is compared. */
const squeeze = (s: string) => s.replace(/\s+/g, ' ').trim();

for (const [file, format] of [
  ['01-buddy.md', 'A4'],
  ['04-single-pass.md', 'Letter'],
  // the widest table (seven configurations) and the latency figures
  ['09-throughput-vs-tail.md', 'A4'],
] as const) {
  const l = lesson(file);
  test(`lesson ${l.number} (${l.id}) prints as a handout (${format})`, async ({ page }) => {
    test.setTimeout(240_000);
    const errors = watchConsole(page);
    await page.setViewportSize({ width: 794, height: 1123 });
    await page.goto(`/?lesson=${l.id}&handout=1`);
    await expect(page.locator('.handout')).toHaveAttribute('data-ready', '1', { timeout: 180_000 });
    await page.emulateMedia({ media: 'print' });

    // every step's heading, in the lesson's order
    await expect(page.locator('.handout-step-title')).toHaveText(l.steps.map((s, i) => `${i + 1}. ${s.title}`));

    // a step with a run shows each of its views as an inline <svg>, never a bitmap
    for (const [i, s] of l.steps.entries()) {
      const step = page.locator(`.handout-step[data-step="${i + 1}"]`);
      const figs = step.locator('.handout-figure');
      await expect(figs, `step ${i + 1}`).toHaveCount(s.run ? s.views.length : 0);
      for (const f of await figs.all()) {
        await expect(f.locator(':scope > svg')).toHaveCount(1);
        expect(await f.locator(':scope > svg text').count(), `step ${i + 1}: the figure's labels are text`).toBeGreaterThan(0);
      }
      if (s.table) await expect(step.locator('table.model caption'), `step ${i + 1}`).toHaveCount(1);
    }
    await expect(page.locator('.handout img, .handout canvas')).toHaveCount(0);

    // every question with its choices; no answer, explanation or answer prose before the key
    const qs = handoutQuestions(l);
    expect(qs.length).toBeGreaterThan(0);
    const beforeKey = squeeze(
      await page.evaluate(() => {
        const r = document.createRange();
        r.setStartBefore(document.querySelector('.handout')!);
        r.setEndBefore(document.querySelector('.handout-answers')!);
        return r.toString();
      }),
    );
    for (const q of qs) {
      const box = page.locator(`.handout-question[data-step="${q.step}"]`);
      await expect(box).toContainText(squeeze(q.predict.question));
      if (q.predict.kind === 'choice') await expect(box.locator('.handout-choices li')).toHaveText(q.predict.choices);
      await expect(box.locator('.handout-line')).not.toHaveCount(0);
      expect(beforeKey, `step ${q.step}: the key's line`).not.toContain(squeeze(answerText(q.predict, 0)).slice(0, 12));
      if (q.predict.explain) expect(beforeKey, `step ${q.step}: the explanation`).not.toContain(squeeze(q.predict.explain).slice(0, 40));
      if (q.answerProse) {
        const firstWords = squeeze(await page.locator(`.handout-answer[data-step="${q.step}"] .handout-prose`).innerText()).slice(0, 40);
        expect(beforeKey, `step ${q.step}: the prose after the answer mark`).not.toContain(firstWords);
      }
    }
    // the key: one entry per question, in order, each with its answer
    const key = page.locator('.handout-answers .handout-answer');
    await expect(key).toHaveCount(qs.length);
    expect(await key.evaluateAll((li) => li.map((e) => Number((e as HTMLElement).dataset['step'])))).toEqual(qs.map((q) => q.step));
    for (const [k, q] of qs.entries()) if (q.predict.kind === 'choice') await expect(key.nth(k)).toContainText(answerText(q.predict));

    // nothing to press is printed, nor the site's header and footer
    const shownControls = await page.evaluate(() =>
      [...document.querySelectorAll('button, input, select, nav, header.top, .site-footer, .handout-tools')]
        .filter((e) => e.getClientRects().length > 0)
        .map((e) => `${e.tagName.toLowerCase()}.${e.className} ${(e.textContent ?? '').trim().slice(0, 40)}`),
    );
    expect(shownControls).toEqual([]);
    await expect(page.locator('.handout-foot')).toContainText(/allocator core built from sources [0-9a-f]{8,}/);
    // figures and questions are not cut across pages
    expect(await page.locator('.handout-figure').first().evaluate((e) => getComputedStyle(e).breakInside)).toBe('avoid');

    // A4's text width (180 mm at 96 px an inch, 680 px): nothing is wider
    await page.setViewportSize({ width: 680, height: 1000 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(680);
    // nor is a table cut at the edge of its box (paper does not scroll sideways)
    const cut = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>('.handout table')].filter((t) => t.getBoundingClientRect().right > 681 || t.scrollWidth > t.clientWidth + 1).map((t) => t.querySelector('caption')?.textContent?.slice(0, 60)),
    );
    expect(cut).toEqual([]);
    await page.setViewportSize({ width: 794, height: 1123 });
    await page.screenshot({ path: `test-results/handout-${l.id}-print-794.png`, fullPage: true });

    const pdf = await page.pdf({ format, printBackground: true });
    expect(pdf.length).toBeGreaterThan(10_000);
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    writeFileSync(`test-results/handout-${l.id}.pdf`, pdf);
    expect(errors).toEqual([]);
  });
}

test('the lesson page links to its handout, and the handout back to it', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/?lesson=buddy&step=1');
  const link = page.locator('.lesson-nav .handout-link');
  await expect(link).toHaveAttribute('href', '?lesson=buddy&handout=1');
  // one short link at the end of the nav, beside "all lessons": with the presenter's buttons and
  // Embed the nav takes two rows at 1440 px, never a third
  const nav = page.locator('.lesson-nav');
  const [l, n] = [(await link.boundingBox())!, (await nav.boundingBox())!];
  expect(l.y + l.height).toBeLessThanOrEqual(n.y + n.height);
  expect(n.height).toBeLessThan(100);
  await page.screenshot({ path: 'test-results/handout-lesson-page-1440.png' });
  await link.click();
  await expect(page.locator('.handout-step')).toHaveCount(lesson('01-buddy.md').steps.length);
  // on screen the handout is a preview with its Print button, enabled once every step is drawn
  await expect(page.getByRole('button', { name: 'Print the handout' })).toBeEnabled({ timeout: 60_000 });
  // the preview on screen is a page like any other: axe finds nothing serious, contrast included
  const r = await axe(page).analyze();
  expect(r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join('; ')}`)).toEqual([]);
  await page.screenshot({ path: 'test-results/handout-buddy-screen-1440.png', fullPage: true });
  await page.getByRole('link', { name: '← back to the lesson' }).click();
  await expect(page.locator('.step-counter')).toHaveText(/step 1 of/);
});
