// The real C core in the browser: the op-script panel sends a script to the engine worker
// (WASM, emscripten pthreads build), shows what the core printed, and the player replays
// the core's own event log.
import { expect, test } from './fixtures';

test('an op script runs in the WASM core and its log drives the views', async ({ page }) => {
  const errors: string[] = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto('/?workbench');
  await expect(page.locator('#opscript-run')).toBeEnabled();
  await page.locator('#opscript-run').click();
  const out = page.locator('#opscript-out');
  // The example splits the 64-page zone and merges it back: the last buddyinfo shows one
  // order-6 block again, and the checker agrees.
  await expect(out).toContainText('check: ok', { timeout: 20_000 });
  await expect(out).toContainText('pfn=0x0 order=3');
  const text = (await out.textContent()) ?? '';
  const buddyinfo = text.split('\n').filter((l) => l.startsWith('Node 0, zone   Normal'));
  expect(buddyinfo.at(-1)?.trim().split(/\s+/).slice(4).map(Number)).toEqual([0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0]);
  await expect(page.getByText(/op script: \d+ events, 64 pages, 2 CPUs/)).toBeVisible();
  await page.screenshot({ path: 'test-results/buddylab-opscript.png', fullPage: true });

  // A bad line is reported by the core itself, and the page stays usable.
  await page.locator('#opscript-text').fill('zone pages=64\nalloc order=12\n');
  await page.locator('#opscript-run').click();
  await expect(out).toContainText('line 2: ');
  await expect(page.locator('#opscript-run')).toBeEnabled();
  expect(errors).toEqual([]);
});

test('a zone larger than the browser core\'s fixed memory is refused with a message, and the next script runs', async ({ page }) => {
  const errors: string[] = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto('/?workbench');
  await expect(page.locator('#opscript-run')).toBeEnabled();
  // 2^24 pages and an event log of 2^24 records are within the core's limits, but their
  // struct pages (256 MB) and records (512 MB) do not fit the web build's 512 MB heap: malloc
  // must fail (ABORTING_MALLOC=0) and the core say so, not abort.
  await page.locator('#opscript-text').fill('zone pages=16777216 cpus=1 preset=v4.16 log=16777216\nbuddyinfo\n');
  await page.locator('#opscript-run').click();
  const out = page.locator('#opscript-out');
  await expect(out).toContainText('line 1: zone: the host is out of memory', { timeout: 30_000 });
  await expect(page.locator('#opscript-run')).toBeEnabled();
  await page.locator('#opscript-text').fill('zone pages=64\nalloc order=0 cpu=0\ncheck\n');
  await page.locator('#opscript-run').click();
  await expect(out).toContainText('check: ok', { timeout: 20_000 });
  expect(errors).toEqual([]);
});

test('a scenario whose zone the player cannot show is refused before it runs, at every width', async ({ page }) => {
  const errors: string[] = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(e.message));
  // the largest link a user may share: 4,194,304 pages over the modelled machine's 112 CPUs
  // (the core's pcp room makes the zone larger than the player holds). It used to run for 30 s
  // and then have its log rejected.
  for (const [w, h] of [[390, 844], [1440, 900], [1920, 1080]] as const) {
    await page.setViewportSize({ width: w, height: h });
    await page.goto('/#pages=4194304&cpus=112&preset=v5.18&workload=page_fault1&seed=1&step=0');
    await page.getByRole('button', { name: 'Run scenario' }).click();
    await expect(page.locator('#run-msg')).toContainText(/this run's zone would have [\d,]+ pages; the player shows at most 4,194,304/, {
      timeout: 20_000,
    });
    await expect(page.getByRole('button', { name: 'Run scenario' })).toBeEnabled();
    await page.locator('#run-msg').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `test-results/buddylab-zone-refused-${w}.png` });
  }
  // one more CPU than the machine has is refused by the link itself
  await page.goto('/#cpus=113');
  await expect(page.getByRole('alert')).toContainText('cpus=113: must be between 1 and 112');
  expect(errors).toEqual([]);
});
