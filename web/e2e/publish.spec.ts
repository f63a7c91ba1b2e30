// Publishing for a course: the built folder (dist/, `npm run build`) served by a plain static
// file server that sends no special headers, under a sub-path as GitHub Pages serves a
// repository (/course/). The service worker isolates the page (threads for the WebAssembly
// core), a lesson runs, and after that one visit the course works offline.
import { expect, test, type Page } from './fixtures';
import { createServer, type Server } from 'node:http';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { extname, join, normalize } from 'node:path';
import type { AddressInfo } from 'node:net';
import { watchConsole } from './console-errors';

const DIST = join(process.cwd(), 'dist');
const PREFIX = '/course/';
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
  '.map': 'application/json',
};

// the service worker is what these tests are about (playwright.config.ts blocks it elsewhere)
test.use({ serviceWorkers: 'allow' });

let server: Server;
let base = '';
const served: string[] = [];

test.beforeAll(async () => {
  expect(existsSync(join(DIST, 'index.html')), 'dist/ is built (npm run build)').toBe(true);
  // a few lines of node:http: files under /course/, a folder means its index.html, no headers
  // beyond the content type
  server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    served.push(path);
    if (!path.startsWith(PREFIX)) {
      res.writeHead(404).end();
      return;
    }
    let file = normalize(join(DIST, path.slice(PREFIX.length)));
    if (!file.startsWith(DIST)) {
      res.writeHead(403).end();
      return;
    }
    if (existsSync(file) && statSync(file).isDirectory()) file = join(file, 'index.html');
    if (!existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream' });
    res.end(readFileSync(file));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}${PREFIX}`;
});

test.afterAll(async () => {
  await new Promise((r) => server.close(r));
});

/** page.evaluate that answers undefined while the page is reloading (the service worker's one
 * reload into isolation may come at any moment of the first visit) */
async function ask<T>(page: Page, fn: () => T | Promise<T>): Promise<T | undefined> {
  try {
    return await page.evaluate(fn);
  } catch (e) {
    if (/Execution context was destroyed|navigation/.test(String(e))) return undefined;
    throw e;
  }
}

/** Lesson 1's first step, until its figure is drawn from the core's run. */
async function runLesson(page: Page) {
  await expect(page.locator('.step-counter')).toHaveText(/^step 1 of \d+$/, { timeout: 60_000 });
  await expect(page.locator('.lesson-stage')).toHaveAttribute('data-ready', '1', { timeout: 120_000 });
  await expect(page.locator('.lesson-stage canvas, .lesson-stage svg').first()).toBeVisible();
}

// @timed (run alone, playwright.config.ts): beside a second browser the reload offline asked the
// server for /course/sw.js (the browser's own update check of the service worker, which
// Playwright's offline mode does not stop) in two runs of two; alone it does not
test('the built folder runs a lesson from a plain static server under a sub-path, then offline', { tag: '@timed' }, async ({ page, context }) => {
  test.setTimeout(240_000);
  const errors = watchConsole(page);
  await page.goto(`${base}?lesson=buddy&step=1`);
  // the service worker installs and the page reloads once into isolation
  await expect.poll(() => ask(page, () => window.crossOriginIsolated), { timeout: 60_000 }).toBe(true);
  await expect.poll(() => ask(page, () => navigator.serviceWorker.controller?.scriptURL ?? ''), { timeout: 30_000 }).toContain(`${PREFIX}sw.js?v=`);
  await runLesson(page);
  // nothing was asked for outside the sub-path (no absolute /assets/, /wasm/ ...)
  expect(served.filter((p) => !p.startsWith(PREFIX))).toEqual([]);
  // the offline copy is complete before the network goes
  await expect
    .poll(() => page.evaluate(async () => (await caches.keys()).some((k) => k.startsWith('buddylab-'))), { timeout: 60_000 })
    .toBe(true);
  const manifest = JSON.parse(readFileSync(join(DIST, 'sw-manifest.json'), 'utf8')) as { cache: string; files: string[] };
  expect(manifest.files).toEqual(expect.arrayContaining(['index.html', 'wasm/blab.wasm', 'wasm/blab.js', 'build.json']));
  await expect
    .poll(() => page.evaluate(async (v) => (await (await caches.open(`buddylab-${v}`)).keys()).length, manifest.cache), { timeout: 60_000 })
    .toBe(manifest.files.length);

  // lecture-hall Wi-Fi: gone
  await context.setOffline(true);
  const before = served.length;
  await page.reload();
  await expect.poll(() => ask(page, () => window.crossOriginIsolated), { timeout: 30_000 }).toBe(true);
  await runLesson(page);
  expect(served.slice(before), 'asked of the server while offline').toEqual([]); // every file came from the offline copy
  // another page of the course, never visited, works offline too
  await page.goto(`${base}?lesson=hotcold&step=1`);
  await expect(page.locator('.step-counter')).toHaveText(/^step 1 of \d+$/);
  await context.setOffline(false);
  expect(errors.filter((e) => !/Failed to load resource|net::ERR_INTERNET_DISCONNECTED/.test(e))).toEqual([]);
});

test('a pinned link names its version; the build says which version it is', async ({ page }) => {
  const build = JSON.parse(readFileSync(join(DIST, 'build.json'), 'utf8')) as { version: string; lessons: { id: string; sha256: string }[] };
  expect(build.lessons.map((l) => l.id)).toContain('buddy');
  for (const l of build.lessons) expect(l.sha256).toMatch(/^[0-9a-f]{64}$/);
  await page.goto(`${base}?v=${encodeURIComponent(build.version)}`);
  await expect(page.locator('#build-version')).toHaveText(`course version ${build.version}`);
  await expect(page.locator('#version-note')).toBeHidden();
  // the first visit reloads itself once to become cross-origin isolated (sw-register.js): a
  // navigation issued while that reload runs is aborted, so wait for it first
  await expect.poll(() => ask(page, () => window.crossOriginIsolated), { timeout: 30_000 }).toBe(true);
  await page.goto(`${base}?v=2019-winter`);
  await expect(page.locator('#version-note')).toContainText('This link was made for course version 2019-winter');
});
