// What a lecture slide at 1920 x 1080 may not have, read from the page: visible text under
// MIN_PX (figure labels drawn in canvases report the size they were drawn at) and two labels of
// one figure overlapping. lecture.spec.ts checks the compare view and the workbench with it,
// lecture-fit.spec.ts every step of every lesson, in the walk it makes for the slide's fit.
import { expect, type Page } from './fixtures';

const MIN_PX = 24;

/** Every visible piece of text under MIN_PX (SVG text at its drawn size), and canvases drawn smaller. */
async function smallText(page: Page): Promise<string[]> {
  return page.evaluate((min) => {
    const out: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const text = n.textContent?.trim();
      const e = n.parentElement;
      if (!text || !e || e.closest('.sr-only, option, script, style, noscript, title')) continue;
      if (!e.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) continue;
      const r = e.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) continue;
      let px = parseFloat(getComputedStyle(e).fontSize);
      // SVG text is drawn at its font size times the SVG's scale on screen
      if (e instanceof SVGElement) {
        const m = (e as unknown as SVGGraphicsElement).getScreenCTM?.();
        if (m) px *= Math.hypot(m.a, m.b);
      }
      if (px < min - 0.5) out.push(`${e.tagName.toLowerCase()}.${String((e as HTMLElement).className?.toString() ?? '').replace(/\s+/g, '.')} "${text.slice(0, 40)}" ${px.toFixed(1)} px`);
    }
    for (const c of document.querySelectorAll<HTMLCanvasElement>('canvas[data-font-px]'))
      if (c.checkVisibility() && Number(c.dataset['fontPx']) < min) out.push(`canvas.${c.className} labels at ${c.dataset['fontPx']} px`);
    return out;
  }, MIN_PX);
}

/** Pairs of labels in one figure (a panel, an SVG) whose boxes overlap by more than a pixel each way. */
async function overlappingLabels(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    for (const fig of document.querySelectorAll('section.panel, .compare-chart, .mini-player, .lesson-nav, .playerbar')) {
      if (!(fig as HTMLElement).checkVisibility?.()) continue;
      const boxes: { r: DOMRect; t: string }[] = [];
      const walker = document.createTreeWalker(fig, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const t = n.textContent?.trim();
        const e = n.parentElement;
        if (!t || !e || e.closest('.sr-only, option, title') || !e.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) continue;
        if (e instanceof SVGElement) boxes.push({ r: e.getBoundingClientRect(), t });
        else {
          const range = document.createRange();
          range.selectNodeContents(n);
          for (const r of range.getClientRects()) if (r.width > 0 && r.height > 0) boxes.push({ r, t });
        }
      }
      for (let i = 0; i < boxes.length; i++)
        for (let j = i + 1; j < boxes.length; j++) {
          const [a, b] = [boxes[i]!.r, boxes[j]!.r];
          const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
          const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
          if (w > 1 && h > 1) out.push(`${fig.id || fig.className}: "${boxes[i]!.t.slice(0, 30)}" over "${boxes[j]!.t.slice(0, 30)}"`);
        }
    }
    return out;
  });
}

/** Both, as soft failures where `soft` (a walk of many slides reports them all). */
export async function expectSlide(page: Page, where: string, soft = false) {
  const e = soft ? expect.soft : expect;
  e(await smallText(page), `${where}: text under ${MIN_PX} px`).toEqual([]);
  e(await overlappingLabels(page), `${where}: overlapping labels`).toEqual([]);
}
