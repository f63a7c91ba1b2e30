// What every spec imports instead of '@playwright/test': the same API, with `page.goto()` and
// `page.reload()` that also wait until the app has mounted the route's page. Each page's code
// is its own chunk, fetched after the document's load event (web/shell/main.ts), so a test that
// reads the page at once (evaluate, count) would otherwise race the mount.
import { test as base, type Page } from '@playwright/test';

export * from '@playwright/test';

/** Resolves once web/shell/main.ts has mounted the route (it sets html[data-mounted]). */
export async function whenMounted(page: Page): Promise<void> {
  await page.waitForFunction(() => document.documentElement.dataset['mounted'] === '1', null, { timeout: 30_000 });
}

/** Resolves once the page has drawn two more frames: what a click, a key or a resize set off
 *  has been laid out and painted (the first frame runs it, the second shows it). */
export function frame(page: Page): Promise<unknown> {
  return page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
}

/** The page, its goto() and reload() waiting for the mount as well (for pages a test opens itself). */
export function mountAware(page: Page): Page {
  const goto = page.goto.bind(page);
  const reload = page.reload.bind(page);
  page.goto = async (...args: Parameters<Page['goto']>) => {
    const r = await goto(...args);
    await whenMounted(page);
    return r;
  };
  page.reload = async (...args: Parameters<Page['reload']>) => {
    const r = await reload(...args);
    await whenMounted(page);
    return r;
  };
  return page;
}

export const test = base.extend({
  page: async ({ page }, use) => {
    await use(mountAware(page));
  },
});
