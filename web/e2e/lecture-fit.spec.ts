// Every step of every lesson as a lecture slide at 1920 x 1080: nothing scrolls (the page, the
// stage, the text column, a figure's box), the step's figure comes first (its highlight, else
// its first view, at the top of the slide's wide column) and fills the slide, nothing a figure
// draws is cut off by its box, the text's pages turn with PageDown before the step does, and
// no text is under 24 px nor two labels of a figure overlap (slide-text.ts, as lecture.spec.ts
// holds the compare view and the workbench to).
import { expect, test, type Page } from './fixtures';
import { watchConsole } from './console-errors';
import { expectSlide } from './slide-text';

test.use({ viewport: { width: 1920, height: 1080 } });

interface Fit {
  problems: string[];
  pages: number;
}

/** What does not fit on the slide now, in words, and how many text pages the step has. */
async function slideFit(page: Page): Promise<Fit> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const W = innerWidth;
    const H = innerHeight;
    const doc = document.documentElement;
    if (doc.scrollHeight > H + 1 || doc.scrollWidth > W + 1) problems.push(`the page scrolls: ${doc.scrollWidth} x ${doc.scrollHeight}`);
    const over = (e: Element, what: string) => {
      const h = e as HTMLElement;
      if (h.scrollHeight > h.clientHeight + 2) problems.push(`${what} is cut off: ${h.scrollHeight} px of content in ${h.clientHeight}`);
    };
    const stage = document.querySelector('.lesson-stage')!;
    const text = document.querySelector<HTMLElement>('.lesson-text')!;
    over(stage, 'the stage');
    over(text, 'the text column');
    const asking = document.querySelector('.lesson-body')!.classList.contains('asking');
    const panels = [...stage.querySelectorAll<HTMLElement>('section.panel')].filter((p) => p.checkVisibility());
    for (const p of panels) {
      over(p, `figure ${p.id}`);
      for (const pre of p.querySelectorAll('pre')) over(pre, `figure ${p.id}'s text`);
      const r = p.getBoundingClientRect();
      if (r.bottom > H + 1 || r.right > W + 1) problems.push(`figure ${p.id} runs off the slide`);
      // what a figure draws stays inside its box (an SVG or canvas larger than its panel is cut)
      for (const g of p.querySelectorAll<HTMLElement>('svg, canvas, pre, table')) {
        const gr = g.getBoundingClientRect();
        // an SVG's drawing may spill out of its own box, over what follows it
        if (g instanceof SVGSVGElement && g.checkVisibility() && !g.parentElement?.closest('svg')) {
          const b = g.getBBox();
          const m = g.getScreenCTM();
          const bottom = m ? m.f + (b.y + b.height) * m.d : gr.bottom;
          if (b.height && bottom > gr.bottom + 2) problems.push(`figure ${p.id}: its drawing spills ${Math.round(bottom - gr.bottom)} px below its box`);
        }
        if (gr.width && gr.height && (gr.bottom > r.bottom + 1 || gr.right > r.right + 1)) problems.push(`figure ${p.id}: its ${g.tagName.toLowerCase()} runs past the panel by ${Math.round(Math.max(gr.bottom - r.bottom, gr.right - r.right))} px`);
      }
    }
    for (const t of stage.querySelectorAll<HTMLElement>('table')) {
      if (!t.checkVisibility()) continue;
      const r = t.getBoundingClientRect();
      const sr = stage.getBoundingClientRect();
      if (r.bottom > sr.bottom + 1 || r.right > sr.right + 1) problems.push(`a table runs off the stage`);
    }
    for (const bar of document.querySelectorAll<HTMLElement>('.mini-player, .lesson-nav')) {
      if (bar.checkVisibility() && bar.scrollWidth > bar.clientWidth + 1) problems.push(`${bar.className} runs off its box sideways`);
    }
    if (!asking && panels.length) {
      const first = panels[0]!;
      const hl = stage.querySelector('section.panel.highlighted');
      if (hl && hl !== first) problems.push(`the step's figure ${hl.id} is not first (${first.id} is)`);
      const fr = first.getBoundingClientRect();
      if (fr.top > H * 0.12) problems.push(`the first figure starts ${Math.round(fr.top)} px down`);
      if (fr.width < W * 0.55) problems.push(`the first figure is ${Math.round(fr.width)} px wide`);
      // the figures (and the tables under them) take the stage's height where one of them draws
      // to its box (pcp lists, lock timeline, mem_map); the others are drawn at their own size
      const fills = panels.some((p) => ['lv-pcp', 'lv-lock-timeline', 'lv-mem-map'].includes(p.id));
      const sr = stage.getBoundingClientRect();
      const bottoms = [...stage.querySelectorAll<HTMLElement>('section.panel, figure, .tuner, .mini-player, .narration')].filter((e) => e.checkVisibility()).map((e) => e.getBoundingClientRect().bottom);
      const used = Math.max(...bottoms) - sr.top;
      if (fills && used < sr.height * 0.85) problems.push(`the figures leave ${Math.round(sr.height - used)} px of the stage empty`);
    }
    return { problems, pages: Number(text.dataset['pages'] ?? '1') };
  });
}

const counter = (page: Page) => page.locator('.step-counter');

test('every step of every lesson fits a 1920 x 1080 slide: the figure first and filling it, the text in pages, nothing scrolls, no text under 24 px, no labels overlapping', async ({ page }) => {
  test.setTimeout(900_000);
  const errors = watchConsole(page);
  await page.goto('/?lessons');
  const ids = await page.locator('.lesson-list li').evaluateAll((lis) => lis.map((li) => li.getAttribute('data-lesson')!));
  expect(ids.length).toBeGreaterThan(5);
  let steps = 0;
  for (const id of ids) {
    await page.goto(`/?lesson=${id}&step=1&lecture=1`);
    for (let n = 1; ; n++) {
      await expect(counter(page)).toHaveText(new RegExp(`^step ${n} of (\\d+)$`));
      if (await page.locator('.predict.lecture-q').count()) {
        const q = await slideFit(page);
        expect.soft(q.problems, `${id} step ${n}, the question`).toEqual([]);
        await expectSlide(page, `${id} step ${n}, the question`, true);
        await page.keyboard.press('r');
      }
      await expect(page.locator('.lesson-stage')).toHaveAttribute('data-fitted', String(n), { timeout: 120_000 });
      await page.waitForTimeout(100);
      const fit = await slideFit(page);
      expect.soft(fit.problems, `${id} step ${n}`).toEqual([]);
      await expectSlide(page, `${id} step ${n}`, true);
      steps++;
      // the text's pages turn first: the step stays, the page counter moves
      for (let k = 2; k <= fit.pages; k++) {
        await page.keyboard.press('PageDown');
        await expect(page.locator('.lesson-text')).toHaveAttribute('data-page', String(k - 1));
        await expect(counter(page)).toHaveText(new RegExp(`^step ${n} of`));
        await expect(page.locator('.prose-pages')).toHaveText(`text ${k} / ${fit.pages}`);
      }
      const total = Number((await counter(page).innerText()).split(' of ')[1]);
      if (n === total) break;
      await page.keyboard.press('PageDown');
    }
  }
  // every lesson's every step: more steps than lessons
  expect(steps).toBeGreaterThan(ids.length);
  expect(errors).toEqual([]);
});
