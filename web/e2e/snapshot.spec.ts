// Issue 8, snapshots: this machine's /proc/buddyinfo and /proc/zoneinfo (committed fixtures)
// start a zone in that state, compared with a preset's pcp numbers from the core; bad text
// names its line.
import { expect, test } from '@playwright/test';
import { readFileSync } from 'node:fs';

const buddyinfo = readFileSync('web/testing/procfs/buddyinfo.txt', 'utf8');
const zoneinfo = readFileSync('web/testing/procfs/zoneinfo.txt', 'utf8');

test('a buddyinfo + zoneinfo snapshot starts a zone in that state and is compared with a preset', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto('/');
  await page.locator('#snap-buddyinfo').fill(buddyinfo);
  await page.locator('#snap-zoneinfo').fill(zoneinfo);
  await page.locator('#snap-zone').selectOption('0/DMA32');
  await page.locator('#snap-start').click();
  const dma32 = buddyinfo.split('\n').find((l) => l.includes('DMA32'))!.trim().split(/\s+/).slice(4).map(Number);
  await expect(page.locator('#snap-status')).toContainText('snapshot: node 0, zone DMA32: 1,044,480 pages, 2 CPUs');
  await expect(page.locator('#snap-status')).toContainText('where each block sits is made up');
  await page.evaluate(() => window.buddylab!.seek(1e9));
  const shown = (await page.evaluate(() => window.buddylab!.snapshot().buddyinfo)).trim().split(/\s+/).slice(4).map(Number);
  expect(shown).toEqual(dma32);
  const table = page.locator('#snap-compare-table');
  await expect(table).toContainText('v5.18 batch', { timeout: 60_000 });
  await expect(table.locator('tbody tr')).toHaveCount(2);
  // this kernel's batch for DMA32 is the same zone_batchsize() rule the v5.18 preset uses
  const cells = await table.locator('tbody tr').first().locator('td').allTextContents();
  expect(cells[3]).toBe(cells[2]);

  // Normal is too big for mem_map: said plainly, and the comparison still comes
  await page.locator('#snap-zone').selectOption('0/Normal');
  await page.locator('#snap-start').click();
  await expect(page.locator('#snap-msg')).toContainText('This snapshot cannot be shown on mem_map: the zone spans 5,505,024 pages');
  await expect(page.locator('#snap-compare-table')).toContainText('1,081,344 managed pages', { timeout: 60_000 });
  expect(errors).toEqual([]);
});

test('bad snapshot text names its line, and the app stays usable', async ({ page }) => {
  await page.goto('/');
  await page.locator('#snap-buddyinfo').fill('Node 0, zone Normal 1 2 3\nhello\n');
  await expect(page.locator('#snap-msg')).toHaveText('buddyinfo line 2: expected "Node N, zone NAME" followed by nr_free per order');
  await page.locator('#snap-buddyinfo').fill(buddyinfo);
  await page.locator('#snap-zoneinfo').fill(zoneinfo.replace('        spanned  1044480', '        spanned  lots'));
  await expect(page.locator('#snap-msg')).toHaveText(/^zoneinfo line 106: spanned: expected a whole number, found "lots"$/);
  await page.locator('#snap-zoneinfo').fill('');
  await page.locator('#snap-zone').selectOption('0/DMA');
  await page.locator('#snap-start').click();
  await expect(page.locator('#snap-status')).toContainText('snapshot: node 0, zone DMA: ');
  await expect(page.locator('#snap-msg')).toBeEmpty();
});
