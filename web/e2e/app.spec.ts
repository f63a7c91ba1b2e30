import { expect, frame, test, type Page } from './fixtures';
import { axe } from './axe';
import { mkdirSync } from 'node:fs';
import { synthLog } from '../testing/synth';
import { watchConsole } from './console-errors';

// Test fixtures only: synthLog() writes contract-following logs from a tiny TS reference
// allocator. They are loaded through the app's public hook, window.buddylab.loadEventLog(),
// exactly as the WASM engine will hand over its logs.

async function loadLog(page: Page, buf: ArrayBuffer, label = 'test fixture') {
  const b64 = Buffer.from(buf).toString('base64');
  return page.evaluate(
    ({ b64, label }) => {
      const bin = atob(b64);
      const bytes = new Uint8Array(bin.length);
      for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
      return window.buddylab!.loadEventLog(bytes.buffer, { label });
    },
    { b64, label },
  );
}

const snap = (page: Page) => page.evaluate(() => window.buddylab!.snapshot());

const small = synthLog({ pages: 4096, cpus: 4, maxOrder: 10, pageblockOrder: 9, batch: 31, high: 186, seed: 3, rounds: 2, perRound: 300 });

test('loads cross-origin isolated, without console errors, and runs the default page_fault1 scenario in the core', async ({ page }) => {
  const errors = watchConsole(page);
  await page.goto('/?workbench');
  await expect(page.getByRole('heading', { name: 'buddylab' })).toBeVisible();
  expect(await page.evaluate(() => window.crossOriginIsolated)).toBe(true);
  const csp = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
  expect(csp).toContain("script-src 'self' 'wasm-unsafe-eval'");
  await expect(page.locator('#isolation')).toHaveText(/cross-origin isolated/);
  await expect(page.locator('.loglabel')).toHaveText('No event log loaded.');
  await page.getByRole('button', { name: 'Run scenario' }).click();
  // The default scenario: page_fault1 on 4 model CPUs, 4096 pages, run by the WASM core.
  // a labelled results card, not the core's key=value line
  await expect(page.locator('#results [data-measure="score"]')).toContainText(/[\d,]+ pages\/s/, { timeout: 60_000 });
  await expect(page.locator('#results [data-measure="zone-contention"]')).toContainText(/zone->lock contention\s*\d+\.\d\d %/);
  await expect(page.locator('#results')).not.toContainText('=');
  await expect(page.locator('.loglabel')).toContainText('page_fault1, 4 CPUs, 4096 pages');
  await page.screenshot({ path: 'test-results/buddylab-scenario.png', fullPage: true });
  expect(errors).toEqual([]);
});

// @timed (run alone, playwright.config.ts): 400 ms of play must advance the player
test('keyboard shortcuts drive the player; back N then forward N gives the same panels', { tag: '@timed' }, async ({ page }) => {
  const errors = watchConsole(page);
  await page.goto('/?workbench');
  const res = await loadLog(page, small);
  expect(res.ok).toBe(true);
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  expect((await snap(page)).step).toBe(0);

  for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowRight');
  expect((await snap(page)).step).toBe(5);
  await page.keyboard.press('ArrowLeft');
  expect((await snap(page)).step).toBe(4);
  await page.keyboard.press('Shift+ArrowRight');
  expect((await snap(page)).step).toBe(14);

  // ] jumps to the next MERGE (the default jump kind)
  await page.keyboard.press(']');
  await frame(page);
  await expect(page.locator('#event-line')).toContainText('__free_one_page() merges');
  const atMerge = await snap(page);
  await expect(page.locator('#buddyinfo pre')).toHaveText(atMerge.buddyinfo);

  for (let i = 0; i < 25; i++) await page.keyboard.press('ArrowLeft');
  expect((await snap(page)).step).toBe(atMerge.step - 25);
  for (let i = 0; i < 25; i++) await page.keyboard.press('ArrowRight');
  await frame(page);
  const back = await snap(page);
  expect(back.step).toBe(atMerge.step);
  expect(back.buddyinfo).toBe(atMerge.buddyinfo);
  await expect(page.locator('#buddyinfo pre')).toHaveText(atMerge.buddyinfo);

  // [ goes back to the previous merge
  await page.keyboard.press(']');
  const second = (await snap(page)).step;
  expect(second).toBeGreaterThan(atMerge.step);
  await page.keyboard.press('[');
  expect((await snap(page)).step).toBe(atMerge.step);

  // speed and play/pause
  await page.keyboard.press('=');
  expect((await snap(page)).speed).toBe(2);
  await page.keyboard.press('-');
  await page.keyboard.press('-');
  expect((await snap(page)).speed).toBe(0.5);
  await page.keyboard.press(' ');
  expect((await snap(page)).playing).toBe(true);
  await page.waitForTimeout(400);
  await page.keyboard.press(' ');
  const paused = await snap(page);
  expect(paused.playing).toBe(false);
  expect(paused.step).toBeGreaterThan(atMerge.step);
  await page.keyboard.press('End');
  expect((await snap(page)).step).toBe(paused.length);
  // after a click on a button the arrow keys still step (Space would press the button)
  await page.getByRole('button', { name: 'step back (←)' }).click();
  await page.keyboard.press('ArrowLeft');
  expect((await snap(page)).step).toBe(paused.length - 2);
  await page.keyboard.press('Home');
  expect((await snap(page)).step).toBe(0);
  expect(errors).toEqual([]);
});

test('the URL keeps scenario and step; a reload lands on the same step', async ({ page }) => {
  await page.goto('/#pages=4096&cpus=4&preset=v2.5.45&workload=page_fault1&seed=3&step=0');
  await loadLog(page, small);
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press(']');
  await page.keyboard.press(']');
  const here = await snap(page);
  await expect.poll(() => page.evaluate(() => location.hash)).toContain(`step=${here.step}`);
  await page.reload();
  await loadLog(page, small);
  await frame(page);
  const again = await snap(page);
  expect(again.step).toBe(here.step);
  expect(again.buddyinfo).toBe(here.buddyinfo);
});

test('bad input is refused with a message naming the problem', async ({ page }) => {
  await page.goto('/#pages=1099511627776');
  await expect(page.getByRole('alert')).toContainText('pages=1099511627776: must be between 16 and 4194304');
  const bad = new Uint8Array(small.slice(0, 32 * 10 + 7));
  const res = await loadLog(page, bad.buffer);
  expect(res).toEqual({ ok: false, error: expect.stringContaining('record 10') });
  await expect(page.getByRole('alert')).toContainText('cannot be replayed: record 10');
});

test('a 16-page zone: expand() and a merge back, seen in the buddy tree and buddyinfo', async ({ page }) => {
  const errors = watchConsole(page);
  await page.goto('/?workbench');
  const { encodeEvents } = await import('../log/events');
  const { setup, expand, mergeBack, withTimes } = await import('../testing/zone16');
  const res = await loadLog(page, encodeEvents(withTimes([...setup, ...expand, ...mergeBack])), '16-page zone (fixture)');
  expect(res).toEqual({ ok: true, events: setup.length + expand.length + mergeBack.length });
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('End');
  await expect(page.locator('#buddyinfo pre')).toHaveText('Node 0, zone   Normal      0      0      0      0      1');
  await page.keyboard.press('Home');
  for (let i = 0; i < setup.length + expand.length; i++) await page.keyboard.press('ArrowRight');
  await expect(page.locator('#buddyinfo pre')).toHaveText('Node 0, zone   Normal      1      1      1      1      0');
  await page.keyboard.press(']'); // the first MERGE
  await expect(page.locator('#event-line')).toContainText('merges pfn 0x100 with its buddy');
  await page.keyboard.press(']');
  await page.keyboard.press(']');
  await page.keyboard.press(']'); // the last MERGE: orders 3 + 3 -> 4
  await page.locator('#buddy-tree').scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-results/buddylab-16.png', fullPage: true });
  expect(errors).toEqual([]);
});

test('laptop screen, reduced motion: no sideways scroll, and nothing jumps while stepping', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.goto('/?workbench');
  await loadLog(page, small);
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  const top = async () => (await page.locator('#views').boundingBox())!.y;
  const scrub = async () => (await page.locator('#scrub').boundingBox())!.width;
  await page.keyboard.press('ArrowRight');
  await frame(page);
  const y0 = await top();
  const w0 = await scrub();
  for (let i = 0; i < 40; i++) {
    await page.keyboard.press(i % 7 === 0 ? ']' : 'ArrowRight');
    await frame(page);
    expect(await top()).toBe(y0);
    expect(await scrub()).toBe(w0);
  }
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  expect(await page.evaluate(() => matchMedia('(prefers-reduced-motion: reduce)').matches)).toBe(true);
  await page.screenshot({ path: 'test-results/buddylab-laptop.png' });
});

test('axe: no serious or critical accessibility violations', async ({ page }) => {
  await page.goto('/?workbench');
  await loadLog(page, small);
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press(']');
  await frame(page);
  const results = await axe(page).analyze();
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  if (bad.length) console.log(JSON.stringify(bad.map((v) => ({ id: v.id, nodes: v.nodes.map((n) => n.target) })), null, 1));
  expect(bad.map((v) => v.id)).toEqual([]);
});

// @timed (run alone, playwright.config.ts): 120 frames played, their p95 under a second
test('a 262,144-page zone with 16 CPUs renders and plays; screenshots for review', { tag: '@timed' }, async ({ page }) => {
  const errors = watchConsole(page);
  mkdirSync('test-results', { recursive: true });
  await page.goto('/?workbench');
  await loadLog(page, small);
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press(']');
  await page.keyboard.press(']');
  await frame(page);
  await page.screenshot({ path: 'test-results/buddylab-4096.png', fullPage: true });

  // mem_map: zoom in, hover a cell: its struct page fields appear in words
  await page.getByRole('button', { name: 'Zoom in on mem_map' }).click();
  await page.getByRole('button', { name: 'Zoom in on mem_map' }).click();
  await page.locator('.mm-canvas').scrollIntoViewIfNeeded();
  const box = (await page.locator('.mm-canvas').boundingBox())!;
  await page.mouse.move(box.x + box.width / 2 - 20, box.y + box.height / 2 - 20);
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2, { steps: 3 });
  await expect(page.locator('.mm-hover')).toContainText(/pfn 0x[0-9a-f]+ \(\d+\)/);
  await expect(page.locator('.mm-hover')).toContainText('pageblock');
  await page.locator('#mem-map').screenshot({ path: 'test-results/buddylab-memmap-zoom.png' });
  await page.locator('#mm-pfn').fill('0x10');
  await page.locator('#mm-pfn').press('Enter');
  await expect(page.locator('.mm-hover')).toContainText('pfn 0x10 (16)');

  const big = synthLog({ pages: 262144, cpus: 16, batch: 63, high: 378, seed: 5, rounds: 1, perRound: 400 });
  const res = await loadLog(page, big, '262,144 pages, 16 CPUs (fixture)');
  expect(res.ok).toBe(true);
  await page.keyboard.press(']');
  // frame times while playing at 64x (rAF deltas); reported, not a budget check (that is make bench)
  const deltas = await page.evaluate(async () => {
    const app = window.buddylab!;
    document.getElementById('speed')!.dispatchEvent(new Event('change'));
    (document.getElementById('speed') as HTMLSelectElement).value = '64';
    document.getElementById('speed')!.dispatchEvent(new Event('change'));
    app.play();
    const d: number[] = [];
    let last = performance.now();
    await new Promise<void>((resolve) => {
      const f = (now: number) => {
        d.push(now - last);
        last = now;
        if (d.length < 120) requestAnimationFrame(f);
        else resolve();
      };
      requestAnimationFrame(f);
    });
    app.pause();
    return d.slice(5).sort((a, b) => a - b);
  });
  const p95 = deltas[Math.floor(deltas.length * 0.95)]!;
  console.log(`262,144 pages, 16 CPUs, 64x: p95 frame ${p95.toFixed(1)} ms over ${deltas.length} frames`);
  // Not the 16.7 ms budget (make bench measures that on a quiet machine): only "the tab is not frozen".
  expect(p95).toBeLessThan(1000);
  await frame(page);
  await page.screenshot({ path: 'test-results/buddylab-262144.png', fullPage: true });
  expect(errors).toEqual([]);
});

test('the scenario panel runs the page allocator workloads from a link: parallel_free, trunc, stress_highalloc, mixed', async ({ page }) => {
  test.setTimeout(240_000);
  const errors = watchConsole(page);
  const expected: Record<string, RegExp> = {
    parallel_free: /score[\d,]+ pages freed\/s/,
    trunc: /score[\d,]+ pages truncated\/s/,
    stress_highalloc: /score\d+ % of attempts\d+ of 8 order-9 attempts got a block/,
    mixed: /score[\d,]+ order-0 pages\/s/,
  };
  for (const [w, msg] of Object.entries(expected)) {
    await page.goto(`/#pages=4096&cpus=4&preset=lu-rfc-p2&workload=${w}&seed=1&step=0`);
    await expect(page.locator('#sc-workload')).toHaveValue(w);
    await page.getByRole('button', { name: 'Run scenario' }).click();
    await expect(page.locator('#results')).toContainText(msg, { timeout: 90_000 });
    await expect(page.locator('.loglabel')).toContainText(`${w}, 4 CPUs, 4096 pages, lu-rfc-p2`);
  }
  expect(errors).toEqual([]);
});
