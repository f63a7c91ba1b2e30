// Page provenance: a click on a pfn (mem_map, a free block, a pcp list) opens its history,
// every record it took part in, and each record's step is one click away.
import { expect, test } from './fixtures';
import { watchConsole } from './console-errors';

test('a pfn\'s history from mem_map, the free areas and a pcp list, with the step to jump to', async ({ page }) => {
  const errors = watchConsole(page);
  await page.goto('/?workbench#pages=4096&cpus=4&preset=v4.17&workload=page_fault1&seed=1&step=0');
  await page.locator('#run-scenario').click();
  await expect(page.locator('#results [data-measure="score"]')).toBeVisible({ timeout: 90_000 });
  await page.keyboard.press('d'); // in the middle of a drain: pages on pcp lists and free lists
  const dialog = page.locator('dialog.pfn-dialog');

  // mem_map: a click on a page
  const map = page.locator('#mem-map canvas');
  await map.scrollIntoViewIfNeeded();
  const box = (await map.boundingBox())!;
  await page.mouse.click(box.x + box.width / 2, box.y + box.height * 0.4);
  await expect(dialog).toBeVisible();
  await expect(dialog.locator('h2')).toHaveText(/^pfn 0x[0-9a-f]+: its history$/);
  const rows = dialog.locator('table.pfn-history tbody tr');
  expect(await rows.count()).toBeGreaterThan(2);
  // the zone's set-up put every page on a free list first; steps in order
  await expect(rows.first().locator('td').first()).toHaveText('onto free_area');
  const steps = (await rows.locator('th').allInnerTexts()).map((t) => Number(t.replace(/,/g, '')));
  expect([...steps].sort((a, b) => a - b)).toEqual(steps);
  const kinds = await rows.locator('td:nth-child(2)').allInnerTexts();
  expect(kinds).toEqual(expect.arrayContaining(['split (expand)', 'allocated', 'freed']));
  // "go": the player lands on that record
  const pick = kinds.indexOf('freed');
  const step = steps[pick]!;
  await rows.nth(pick).getByRole('button').click();
  await expect(dialog).toBeHidden();
  await expect(page.locator('#scrub')).toHaveValue(String(step));
  await expect(page.locator('#event-line')).toContainText(`#${step - 1} `);
  await expect(page.locator('#event-line')).toContainText('the caller frees block');

  // a pcp list from the keyboard: the column, Enter, a pfn, its history
  await page.keyboard.press('d');
  const col = page.locator('#pcp .pcp-col').first();
  await col.focus();
  await page.keyboard.press('Enter');
  await expect(dialog.locator('h2')).toHaveText(/^cpu 0's pcp list at step [\d,]+$/);
  const first = dialog.locator('.pfn-list button').first();
  if (await first.count()) {
    await first.click();
    await expect(dialog.locator('h2')).toHaveText(/^pfn 0x[0-9a-f]+: its history$/);
    await expect(dialog.locator('td:nth-child(2)', { hasText: /^(pcp refill \(rmqueue_bulk\)|onto a pcp list)$/ }).first()).toBeVisible();
  }
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  // the free areas: a click on a free block
  await page.locator('#free-areas').scrollIntoViewIfNeeded();
  const fa = (await page.locator('#free-areas canvas').boundingBox())!;
  // order 10's lane (the top one); its free blocks sit to the right at this step
  await page.mouse.click(fa.x + fa.width * 0.95, fa.y + 13);
  await expect(dialog.locator('h2')).toHaveText(/^pfn 0x[0-9a-f]+: its history$/);
  await expect(dialog.locator('tbody tr').first().locator('td').nth(1)).toHaveText(/ order 10$/);
  await page.keyboard.press('Escape');
  expect(errors).toEqual([]);
});
