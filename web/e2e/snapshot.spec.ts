// Snapshots: this machine's /proc/buddyinfo and /proc/zoneinfo (committed fixtures)
// start a zone in that state in the C core, compared with a preset's pcp numbers from the
// core; the zone then takes ops in the op-script panel; bad text names its line.
import { expect, test } from './fixtures';
import { readFileSync } from 'node:fs';

const buddyinfo = readFileSync('web/testing/procfs/buddyinfo.txt', 'utf8');
const zoneinfo = readFileSync('web/testing/procfs/zoneinfo.txt', 'utf8');

test('a buddyinfo + zoneinfo snapshot starts a zone in that state and is compared with a preset', async ({ page }) => {
  // two zones of 1 and 4 million pages laid out by the core and built into the player
  test.setTimeout(150_000);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto('/?workbench');
  await page.locator('#snap-buddyinfo').fill(buddyinfo);
  await page.locator('#snap-zoneinfo').fill(zoneinfo);
  await page.locator('#snap-zone').selectOption('0/DMA32');
  await page.locator('#snap-start').click();
  const dma32 = buddyinfo.split('\n').find((l) => l.includes('DMA32'))!.trim().split(/\s+/).slice(4).map(Number);
  await expect(page.locator('#snap-status')).toContainText('snapshot: node 0, zone DMA32: 1,044,480 pages, 2 CPUs, started by the C core', { timeout: 60_000 });
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

  // the zone is the core's: it goes on in the op-script panel, and takes an alloc there
  await page.locator('#snap-continue').click();
  const script = page.locator('#opscript-text');
  await expect(script).toHaveValue(new RegExp(`snapshot nr_free=${dma32.join(',')}\n`));
  await script.fill((await script.inputValue()) + 'alloc order=10 cpu=1\nbuddyinfo\ncheck\n');
  await page.locator('#opscript-run').click();
  const out = page.locator('#opscript-out');
  await expect(out).toContainText('(ok,', { timeout: 60_000 });
  await expect(out).toContainText(/pfn=0x[0-9a-f]+ order=10 migratetype=1/);
  const after = [...dma32.slice(0, 10), dma32[10]! - 1];
  await expect(out).toContainText(`Node 0, zone   Normal ${after.map((n) => String(n).padStart(6)).join(' ')}`);
  await expect(out).toContainText('check: ok');
  await page.evaluate(() => window.buddylab!.seek(1e9));
  const played = (await page.evaluate(() => window.buddylab!.snapshot().buddyinfo)).trim().split(/\s+/).slice(4).map(Number);
  expect(played).toEqual(after);

  // Normal is bigger than the views hold: cut to their limit, said plainly, pcp counts kept
  await page.locator('#snap-zone').selectOption('0/Normal');
  await page.locator('#snap-start').click();
  await expect(page.locator('#snap-status')).toContainText("The zone spans 5,505,024 pages, more than the browser's core takes for a snapshot: it is cut to its first 2,097,152", { timeout: 60_000 });
  await expect(page.locator('#snap-compare-table')).toContainText('1,081,344 managed pages', { timeout: 60_000 });
  expect(errors).toEqual([]);
});

test('bad snapshot text names its line, and the app stays usable', async ({ page }) => {
  await page.goto('/?workbench');
  await page.locator('#snap-buddyinfo').fill('Node 0, zone Normal 1 2 3\nhello\n');
  await expect(page.locator('#snap-msg')).toHaveText('buddyinfo line 2: expected "Node N, zone NAME" followed by nr_free per order');
  await page.locator('#snap-buddyinfo').fill(buddyinfo);
  await page.locator('#snap-zoneinfo').fill(zoneinfo.replace('        spanned  1044480', '        spanned  lots'));
  await expect(page.locator('#snap-msg')).toHaveText(/^zoneinfo line 106: spanned: expected a whole number, found "lots"$/);
  await page.locator('#snap-zoneinfo').fill('');
  await page.locator('#snap-zone').selectOption('0/DMA');
  await page.locator('#snap-start').click();
  await expect(page.locator('#snap-status')).toContainText('snapshot: node 0, zone DMA: ', { timeout: 60_000 });
  await expect(page.locator('#snap-msg')).toBeEmpty();
});
