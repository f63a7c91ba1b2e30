// Your own kernel: this machine's /proc/zoneinfo (a committed copy, kernel 6.18) is read by the
// C core in the import worker; every preset's pcp sizes stand next to what the kernel printed;
// page_fault1 runs with the Normal zone's sizes, its refills climb to 2016, and a trace
// recorded on this machine is drawn over it. Screenshots at a phone's, a laptop's and a
// 1080p screen's width (test-results/zoneinfo-*.png).
import { expect, test, type Page } from './fixtures';
import { readFileSync } from 'node:fs';

const zoneinfo = readFileSync('wasm-core/tests/zoneinfo/this-machine-6.18.txt', 'utf8');
const trace = 'wasm-core/tests/traces/pf1-2tasks.perf.txt';

async function readAndRun(page: Page) {
  await page.locator('#zi-text').fill(zoneinfo);
  await page.locator('#zi-read').click();
  const report = page.locator('#zi-report');
  await expect(report).toContainText('node 0, zone Normal: managed 3,014,656, low watermark 16,792', { timeout: 60_000 });
  const v619 = report.locator('tr', { has: page.locator('td', { hasText: /^v6\.19$/ }) });
  await expect(v619).toContainText('8,396');
  await expect(v619).toContainText('188,416');
  await expect(v619.locator('td').last()).toHaveText('same');
  await expect(report).toContainText('these presets give exactly what your kernel printed: v5.14, v5.17, v5.18-prefetch, v5.18, v6.0, v6.7, v6.16, v6.19');
  await page.locator('#zi-run').click();
  await expect(page.locator('#zi-status')).toContainText('the run is in the player', { timeout: 120_000 });
  const refills = page.locator('#pcp-hist svg.pcphist-chart').first();
  await expect(refills).toHaveAttribute('aria-label', /63, 126, 252, 504, 1008, 2016 pages/);
  await page.locator('#zi-trace').setInputFiles(trace);
  await expect(page.locator('#zi-status')).toContainText('drawn over the model', { timeout: 60_000 });
  await expect(page.locator('#pcp-hist .pcphist-legend')).toContainText('trace: pf1-2tasks.perf.txt');
  await expect(page.locator('#pcp-hist svg.pcphist-chart').nth(1)).toHaveAttribute('aria-label', /trace: pf1-2tasks\.perf\.txt: 1 drain of 1321 pages/);
}

test("a zoneinfo's sizes per preset, a run with them, and a trace drawn over it", async ({ page }) => {
  test.setTimeout(240_000);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto('/?workbench=zoneinfo');
  await readAndRun(page);
  // the run is in the player like any other: the pcp view shows the zone's batch
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.locator('#zoneinfo-results').screenshot({ path: 'test-results/zoneinfo-1440.png' });
  await page.setViewportSize({ width: 1920, height: 1080 });
  await page.screenshot({ path: 'test-results/zoneinfo-1920.png', fullPage: false });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.locator('#pcp-hist').scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-results/zoneinfo-390.png', fullPage: false });
  // the panel and the charts fit their boxes at a phone's width (the page's own column widths
  // are the workbench's)
  const overflow = await page.evaluate(() =>
    ['#zoneinfo-panel', '#pcp-hist .pcphist-charts', '#zi-report'].filter((s) => {
      const e = document.querySelector(s)!;
      return e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX !== 'auto';
    }),
  );
  expect(overflow).toEqual([]);
  // nor does the page scroll sideways (a preset's title in the real panel's menu once did)
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1)).toBe(true);
  expect(errors).toEqual([]);
});

test('a damaged zoneinfo is refused with its line, and the panel stays usable', async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto('/?workbench=zoneinfo');
  await page.locator('#zi-text').fill(zoneinfo.split('\n').slice(0, 131).join('\n'));
  await page.locator('#zi-read').click();
  await expect(page.locator('#zi-msg')).toHaveText('This zoneinfo cannot be read: line 129: the pageset of cpu 0 ends without its batch (a truncated file?)', { timeout: 60_000 });
  await expect(page.locator('#zi-run')).toBeDisabled();
  await page.locator('#zi-text').fill(zoneinfo);
  await page.locator('#zi-read').click();
  await expect(page.locator('#zi-report')).toContainText('zone Normal', { timeout: 60_000 });
  await expect(page.locator('#zi-msg')).toBeEmpty();
  await expect(page.locator('#zi-run')).toBeEnabled();
});
