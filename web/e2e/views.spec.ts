import { expect, frame, test, type Page } from './fixtures';
import { axe } from './axe';
import { mkdirSync } from 'node:fs';

// Every view from real runs of the C core (WASM, in the app's engine worker): no fixtures.
// Screenshots of each view land in test-results/views/ as artifacts for review.

const SHOTS = 'test-results/views';
mkdirSync(SHOTS, { recursive: true });

function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  return errors;
}
const snap = (page: Page) => page.evaluate(() => window.buddylab!.snapshot());

async function runScenario(page: Page) {
  await page.getByRole('button', { name: 'Run scenario' }).click();
  await expect(page.locator('#results [data-measure="score"]')).toContainText(/[\d,]+ pages\/s/, { timeout: 90_000 });
}

test('newcomer path: default 4-CPU page_fault1, next drain, merges; step back and forward; reload lands on the same step', async ({ page }) => {
  const errors = watchErrors(page);
  await page.goto('/?workbench');
  // the defaults are the newcomer's scenario
  await expect(page.locator('#sc-cpus')).toHaveValue('4');
  await expect(page.locator('#sc-workload')).toHaveValue('page_fault1');
  await expect(page.locator('#sc-workload-hint')).toContainText('free_pcppages_bulk()');
  await runScenario(page);
  await expect(page.locator('#run-msg')).toContainText('next drain');
  const drainBtn = page.getByRole('button', { name: /^next drain/ });
  await expect(drainBtn).toBeVisible();
  await drainBtn.click();
  await expect(page.locator('#event-line')).toContainText('free_pcppages_bulk()');
  const atDrain = await snap(page);
  // within the drain, __free_one_page() merges the freed pages back into the free areas
  await page.locator('#jump-kind').selectOption('merge');
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press(']');
  await expect(page.locator('#event-line')).toContainText('__free_one_page() merges');
  const atMerge = await snap(page);
  expect(atMerge.step).toBeGreaterThan(atDrain.step);
  await page.screenshot({ path: `${SHOTS}/app-merge.png` });

  // step back N and forward N: the buddyinfo panel shows the same text
  const before = await page.locator('#buddyinfo pre').textContent();
  expect(before).toBe(atMerge.buddyinfo);
  for (let i = 0; i < 40; i++) await page.keyboard.press('ArrowLeft');
  await frame(page);
  expect((await snap(page)).step).toBe(atMerge.step - 40);
  await page.keyboard.press('Shift+ArrowLeft'); // 10 more
  await page.keyboard.press('Shift+ArrowRight');
  for (let i = 0; i < 40; i++) await page.keyboard.press('ArrowRight');
  await frame(page);
  expect((await snap(page)).step).toBe(atMerge.step);
  await expect(page.locator('#buddyinfo pre')).toHaveText(before!);
  // D is the keyboard way to the next drain
  await page.keyboard.press('d');
  await expect(page.locator('#event-line')).toContainText('free_pcppages_bulk()');
  const here = await snap(page);

  // the URL holds scenario and step; a reload and a run land on the same step
  await expect.poll(() => page.evaluate(() => location.hash)).toContain(`step=${here.step}`);
  await page.reload();
  await expect(page.locator('#run-msg')).toContainText(`step ${here.step}`);
  await runScenario(page);
  await frame(page);
  const again = await snap(page);
  expect(again.step).toBe(here.step);
  expect(again.buddyinfo).toBe(here.buddyinfo);
  await expect(page.locator('#buddyinfo pre')).toHaveText(here.buddyinfo);
  expect(errors).toEqual([]);
});

test('screenshots of every view from a real run; cache, lock and text panels show the run', async ({ page }) => {
  const errors = watchErrors(page);
  await page.goto('/#pages=4096&cpus=4&preset=v4.17&workload=page_fault1&seed=1&step=0');
  await runScenario(page);
  await page.getByRole('button', { name: /^next drain/ }).click();
  // a few steps into the drain: pages are moving and the lock is held
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  for (let i = 0; i < 12; i++) await page.keyboard.press('ArrowRight');
  await frame(page);

  // cache and prefetch: counters for every CPU, and a strip of the current CPU's accesses
  const cache = page.locator('#cache');
  await expect(cache.locator('.cache-table tbody tr')).toHaveCount(4);
  await expect(cache.locator('.cache-caption')).toContainText(/cpu \d in .*last \d+ cache records/);
  await expect(cache.locator('canvas.cache-strip')).toHaveAttribute('aria-label', /L1 hit/);
  const l1 = Number((await cache.locator('.cache-table tbody tr').first().locator('td').first().textContent())!.replace(/,/g, ''));
  expect(l1).toBeGreaterThan(0);
  // v4.17 prefetches the buddy: some prefetches were issued by now
  const issued = await cache.locator('.cache-table tbody tr td:nth-of-type(8)').allTextContents();
  expect(issued.map((t) => Number(t.replace(/,/g, ''))).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);

  // lock histograms: zone->lock and lru_lock, each with acquisitions
  const lh = page.locator('#lock-hist');
  await expect(lh.locator('.lh-lock[data-lock="0"] .lh-stats')).toContainText(/\d+ acquisitions · [\d.]+% contended/);
  await expect(lh.locator('.lh-lock[data-lock="1"] .lh-stats')).toContainText(/acquisitions/);
  await expect(lh.locator('.lh-lock[data-lock="0"] rect.lh-bar').first()).toBeAttached();

  await expect(page.locator('#zoneinfo pre')).toContainText('pagesets');
  for (const id of ['free-areas', 'buddyinfo', 'mem-map', 'pcp', 'pagetypeinfo', 'lock-timeline', 'lock-hist', 'cache', 'zoneinfo', 'cpustats', 'legend']) {
    const sec = page.locator(`#${id}`);
    await sec.scrollIntoViewIfNeeded();
    await frame(page);
    await sec.screenshot({ path: `${SHOTS}/${id}.png` });
  }
  await page.screenshot({ path: `${SHOTS}/app-full.png`, fullPage: true });

  // the buddy tree needs a zone of at most 1,024 pages: the op-script panel's 64-page zone
  // (blab replay in the same WASM core)
  await page.getByRole('button', { name: 'Run op script' }).click();
  await expect(page.locator('.loglabel')).toContainText('64 pages', { timeout: 30_000 });
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('End');
  const tree = page.locator('#buddy-tree');
  await tree.scrollIntoViewIfNeeded();
  await frame(page);
  await expect(tree.locator('canvas')).toBeVisible();
  await tree.screenshot({ path: `${SHOTS}/buddy-tree.png` });
  expect(errors).toEqual([]);
});

test('the lock timeline has lru_lock lanes beside zone->lock for lu-rfc-p4 at 8 CPUs, and none where the log has no lru_lock', async ({ page }) => {
  const errors = watchErrors(page);
  await page.goto('/#pages=4096&cpus=8&preset=lu-rfc-p4&workload=page_fault1&seed=1&step=0');
  await runScenario(page);
  const lt = page.locator('#lock-timeline');
  const canvas = lt.locator('canvas.lt-canvas');
  await lt.scrollIntoViewIfNeeded();
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('End');
  await frame(page);
  // skip-merge (lesson 6): zone->lock is short, the queue is on lru_lock: both lane sets, labelled
  await expect(canvas).toHaveAttribute('data-locks', 'zone->lock,lru_lock');
  await expect(canvas).toHaveAttribute('aria-label', /^zone->lock and lru_lock timeline at t = \d+: zone->lock: cpu 0 .*\. lru_lock: cpu 0 (running|holding|spinning), /);
  const label = (await canvas.getAttribute('aria-label'))!;
  const lru = label.slice(label.indexOf('. lru_lock: '));
  // every one of the 8 CPUs took lru_lock (release_pages() per 15 pages), some of them after a wait
  expect(lru.match(/cpu \d+ \w+, \d+% contended/g)).toHaveLength(8);
  expect(lru).toMatch(/cpu \d+ \w+, [1-9]\d*% contended/);
  await lt.screenshot({ path: `${SHOTS}/lock-timeline-lru.png` });
  // the lane set can be switched off; then only zone->lock is drawn
  const toggle = lt.getByLabel('lru_lock lanes');
  await expect(toggle).toBeChecked();
  await toggle.uncheck();
  await expect(canvas).toHaveAttribute('data-locks', 'zone->lock');
  await toggle.check();
  await expect(canvas).toHaveAttribute('data-locks', 'zone->lock,lru_lock');

  // the op-script panel's plain machine takes no lru_lock: no second lane set, no switch
  await page.getByRole('button', { name: 'Run op script' }).click();
  await expect(page.locator('.loglabel')).toContainText('64 pages', { timeout: 30_000 });
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('End');
  await frame(page);
  await expect(canvas).toHaveAttribute('data-locks', 'zone->lock');
  await expect(toggle).toBeHidden();
  expect(errors).toEqual([]);
});

test('mem_map repaints only changed rows while playing, and the picture equals a full redraw', async ({ page }) => {
  await page.goto('/#pages=16384&cpus=4&preset=v4.17&workload=page_fault1&seed=1&step=0');
  await runScenario(page);
  await page.getByRole('button', { name: /^next drain/ }).click();
  const mm = page.locator('#mem-map');
  await mm.scrollIntoViewIfNeeded();
  await page.locator('#speed').selectOption('16');
  await page.evaluate(() => window.buddylab!.play());
  await page.waitForTimeout(700);
  await page.evaluate(() => window.buddylab!.pause());
  await frame(page);
  const grab = () => page.locator('.mm-canvas').evaluate((c: HTMLCanvasElement) => c.toDataURL());
  const banded = await grab();
  const step = (await snap(page)).step;
  // a resize makes the view repaint everything from scratch, at the same step
  const vp = page.viewportSize()!;
  await page.setViewportSize({ width: vp.width - 40, height: vp.height });
  await frame(page);
  await page.setViewportSize(vp);
  await frame(page);
  await frame(page);
  expect((await snap(page)).step).toBe(step);
  expect(await grab()).toBe(banded);
});

test('axe: the app after a real run, every panel included: no serious or critical violations', async ({ page }) => {
  await page.goto('/?workbench');
  await runScenario(page);
  await page.getByRole('button', { name: /^next drain/ }).click();
  await frame(page);
  const results = await axe(page).analyze();
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  if (bad.length) console.log(JSON.stringify(bad.map((v) => ({ id: v.id, nodes: v.nodes.map((n) => n.target) })), null, 1));
  expect(bad.map((v) => v.id)).toEqual([]);
});

test('laptop screen: every panel fits the width, and playing does not move the panels', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/?workbench');
  await runScenario(page);
  await page.getByRole('button', { name: /^next drain/ }).click();
  await frame(page);
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  const ids = ['free-areas', 'mem-map', 'pcp', 'lock-timeline', 'lock-hist', 'cache', 'throughput'];
  const boxes = async () => Promise.all(ids.map(async (id) => (await page.locator(`#${id}`).boundingBox())!));
  const b0 = await boxes();
  for (const b of b0) expect(b.x + b.width).toBeLessThanOrEqual(1280);
  await page.evaluate(() => window.buddylab!.play());
  await page.waitForTimeout(600);
  await page.evaluate(() => window.buddylab!.pause());
  await frame(page);
  expect(await boxes()).toEqual(b0);
});

test('the scenario panel runs mixed at 8 CPUs: several CPUs compact at once, mem_map and the status line show each', async ({ page }) => {
  test.setTimeout(120_000);
  const errors = watchErrors(page);
  await page.goto('/?workbench');
  // chosen in the panel, as a user would: the huge-page half (cpus 4..7) compacts side by side
  await page.locator('#sc-workload').selectOption('mixed');
  await expect(page.locator('#sc-cpus-hint')).toContainText('2 to 112');
  await page.locator('#sc-cpus').fill('8');
  await page.locator('#sc-pages').selectOption('4096');
  await page.locator('#sc-preset').selectOption('lu-rfc-p2');
  await page.getByRole('button', { name: 'Run scenario' }).click();
  await expect(page.locator('#results [data-measure="score"]')).toContainText(/[\d,]+ order-0 pages\/s/, { timeout: 90_000 });
  await expect(page.locator('.loglabel')).toContainText(/mixed, 8 CPUs, .* 8 CPUs/);
  const { length } = await snap(page);
  const line = page.locator('#mm-compaction');
  await expect(line).toBeHidden(); // at the end every compaction has ended
  // scrub through the run until two or more compactions run at the same step, and one whose
  // scanner has reached a pageblock is drawn in the map
  await page.locator('#mem-map').scrollIntoViewIfNeeded();
  // pixels of the compaction colour (palette.ts, #009E73) on the map's canvas
  const greenPixels = () =>
    page.locator('.mm-canvas').evaluate((c: HTMLCanvasElement) => {
      const d = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
      let n = 0;
      for (let i = 0; i < d.length; i += 4) if (d[i] === 0x00 && d[i + 1] === 0x9e && d[i + 2] === 0x73) n++;
      return n;
    });
  let most = 0;
  let drawn = 0;
  for (let k = 1; k < 120 && (most < 2 || drawn === 0); k++) {
    await page.locator('#scrub').fill(String(Math.floor((length * k) / 120)));
    await frame(page);
    if (!(await line.isVisible())) {
      expect(await greenPixels()).toBe(0); // nothing compacts: nothing drawn in its colour
      continue;
    }
    const text = (await line.textContent()) ?? '';
    const m = /^compacting on (\d+) CPUs?: cpu ([4-7]) \(order 9, /.exec(text);
    expect(m, text).not.toBeNull();
    most = Math.max(most, Number(m![1]));
    if (text.includes('scanner at pageblock 0x')) drawn = Math.max(drawn, await greenPixels());
  }
  expect(most).toBeGreaterThanOrEqual(2);
  expect(drawn).toBeGreaterThan(0);
  await page.locator('#mem-map').screenshot({ path: `${SHOTS}/mem-map-compacting.png` });
  await page.locator('#free-areas').screenshot({ path: `${SHOTS}/free-areas-compacting.png` });
  expect(errors).toEqual([]);
});
