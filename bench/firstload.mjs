// First load for `make bench`: what the browser fetches to show a page and start the core,
// gzipped (-9), against the DESIGN budget of 300 KB. Measured, not listed: each page (the front
// page, the workbench) is opened in headless Chromium and every request the page itself makes is
// counted (each route's code is its own chunk, so a static list of dist/ would count pages
// nobody opened); starting the core adds the engine worker and the WASM build. The budget holds
// the heavier page to it. What the service worker then caches in the background for offline use
// (every page's chunks, docs/lessons.md "publish") is reported beside it, without a budget: it
// does not hold up the first page.
import { readFileSync, readdirSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { launchChromium, startPreview } from './preview.mjs';

const gz = (files) => files.reduce((n, f) => n + gzipSync(readFileSync(f), { level: 9 }).length, 0);

/** dist/ path of a same-origin URL path ('/' is index.html; queries dropped). */
const distPath = (pathname) => `dist${pathname === '/' ? '/index.html' : pathname}`;

/** The gzipped bytes a fresh visit to `path` fetches itself (its service worker's fetches aside). */
async function pageLoad(browser, url, path, ready) {
  const ctx = await browser.newContext();
  try {
    const page = await ctx.newPage();
    const own = new Set();
    const all = new Set();
    const origin = new URL(url).origin;
    const keep = (set) => (r) => {
      const u = new URL(r.url());
      if (u.origin === origin) set.add(u.pathname);
    };
    page.on('requestfinished', keep(own)); // the page's own requests (not its workers')
    ctx.on('requestfinished', keep(all)); // and the service worker's precache
    await page.goto(`${url}${path}`, { waitUntil: 'networkidle' });
    await page.locator(ready).first().waitFor();
    await page.waitForTimeout(1500); // let the service worker finish its precache
    const SW = new Set(['/sw.js', '/sw-manifest.json']);
    return { own: [...own].filter((p) => !SW.has(p)).map(distPath), all: [...all].filter((p) => !SW.has(p)).map(distPath) };
  } finally {
    await ctx.close();
  }
}

export async function firstLoadFigures(results) {
  const { url, stop } = await startPreview();
  const browser = await launchChromium();
  try {
    const core = ['dist/wasm/blab.js', 'dist/wasm/blab.wasm', 'dist/wasm/blab.worker.js', ...readdirSync('dist/assets').filter((f) => /^engine\.worker-.*\.js$/.test(f)).map((f) => `dist/assets/${f}`)];
    const pages = [
      { name: 'the front page', path: '/', ready: '.home-lessons li' },
      { name: 'the workbench', path: '/?workbench', ready: '#scenario-form' },
    ];
    let everything = [];
    let heaviest = 0;
    for (const p of pages) {
      const got = await pageLoad(browser, url, p.path, p.ready);
      const first = [...new Set([...got.own, ...core])];
      const bytes = gz(first);
      heaviest = Math.max(heaviest, bytes);
      everything = [...new Set([...everything, ...got.all])];
      results.figures.push({
        name: `first load of ${p.name} (HTML+JS+CSS+WASM), gzip -9`, unit: 'bytes', median: bytes, budget: 300 * 1024, met: bytes <= 300 * 1024, files: first.length,
        note: `its own requests in headless Chromium (${got.own.map((f) => f.replace('dist/', '')).join(', ')}) and the core (engine worker, WASM)`,
      });
    }
    const background = everything.filter((f) => !core.includes(f));
    results.figures.push({ name: 'cached in the background for offline use (service worker), gzip -9', unit: 'bytes', median: gz(background), files: background.length, note: "every page's chunks, fetched after the first page is shown; no budget" });
  } finally {
    await browser.close();
    stop();
  }
}
