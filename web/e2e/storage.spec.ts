// No lost work: a saved scenario survives a reload, and moves between browsers as a
// file (export, then import into a browser with empty storage).
import { expect, test } from './fixtures';
import { readFileSync, writeFileSync } from 'node:fs';

test('saved scenarios persist across reloads and export / import as a file', async ({ page }) => {
  await page.goto('/?workbench');
  await page.locator('#sc-cpus').fill('8');
  await page.locator('#sc-seed').fill('42');
  await page.locator('#sc-seed').dispatchEvent('change');
  await expect.poll(() => page.evaluate(() => location.hash)).toContain('cpus=8');
  await expect.poll(() => page.evaluate(() => location.hash)).toContain('seed=42');
  await page.locator('#save-name').fill('eight cpus');
  await page.locator('#save-scenario').click();
  await expect(page.locator('#scenarios-msg')).toHaveText('Saved eight cpus.');

  await page.reload();
  await page.goto('/#pages=256&cpus=1');
  const link = page.locator('#saved-list a', { hasText: 'eight cpus' });
  await expect(link).toBeVisible();
  await link.click();
  await expect(page.locator('#sc-cpus')).toHaveValue('8');
  await expect(page.locator('#sc-seed')).toHaveValue('42');

  const [download] = await Promise.all([page.waitForEvent('download'), page.locator('#export-scenarios').click()]);
  const path = 'test-results/buddylab-scenarios.json';
  await download.saveAs(path);
  const doc = JSON.parse(readFileSync(path, 'utf8'));
  expect(doc.schema).toBe(1);
  expect(doc.scenarios[0].scenario).toMatchObject({ cpus: 8, seed: 42 });

  // a browser with nothing saved: import the file
  await page.evaluate(() => localStorage.clear());
  await page.reload();
  await expect(page.locator('#saved-list li')).toHaveCount(0);
  await page.locator('#import-scenarios').setInputFiles(path);
  await expect(page.locator('#scenarios-msg')).toHaveText('Imported 1 scenario(s) from buddylab-scenarios.json.');
  await expect(page.locator('#saved-list a', { hasText: 'eight cpus' })).toBeVisible();

  // a bad file says where it is wrong and changes nothing
  writeFileSync('test-results/bad-scenarios.json', JSON.stringify({ schema: 1, scenarios: [{ name: 'x', scenario: { pages: 2 ** 40, cpus: 1, preset: 'v5.18', workload: 'page_fault1', seed: 1 } }] }));
  await page.locator('#import-scenarios').setInputFiles('test-results/bad-scenarios.json');
  await expect(page.locator('#scenarios-msg')).toHaveText('scenarios[0].scenario: pages=1099511627776: must be between 16 and 4194304');
  await expect(page.locator('#saved-list li')).toHaveCount(1);
});

test('unreadable saved data is kept aside with a message, and the app works', async ({ page }) => {
  await page.goto('/?workbench');
  await page.evaluate(() => localStorage.setItem('buddylab', '{"schema":1,"scenarios":[{"name":'));
  await page.reload();
  await expect(page.locator('#scenarios-msg')).toContainText('Saved data could not be read (not JSON');
  expect(await page.evaluate(() => localStorage.getItem('buddylab.unreadable'))).toBe('{"schema":1,"scenarios":[{"name":');
  await page.locator('#save-name').fill('fresh');
  await page.locator('#save-scenario').click();
  await expect(page.locator('#saved-list a', { hasText: 'fresh' })).toBeVisible();
});
