// Exports that are what they claim: SVG is vector with its labels as <text> (canvas views too:
// no bitmap inside), PNG is twice the picture's size, CSV has plain numbers and names every
// parameter of its runs, and every table and chart says which command makes it again.
import { expect, test, type Download, type Page } from './fixtures';
import { readFileSync } from 'node:fs';
import { watchConsole } from './console-errors';

async function saved(page: Page, click: () => Promise<void>): Promise<{ name: string; bytes: Buffer }> {
  const [d] = await Promise.all([page.waitForEvent('download'), click()]);
  return { name: (d as Download).suggestedFilename(), bytes: readFileSync((await d.path())!) };
}

/** The SVG's text contents and element counts, parsed by the browser's XML parser. */
function parsed(page: Page, svg: string) {
  return page.evaluate((s) => {
    const doc = new DOMParser().parseFromString(s, 'image/svg+xml');
    const bad = doc.querySelector('parsererror');
    return {
      error: bad ? bad.textContent : null,
      root: doc.documentElement.nodeName,
      texts: [...doc.querySelectorAll('text')].map((t) => t.textContent ?? ''),
      images: doc.querySelectorAll('image, foreignObject').length,
      rects: doc.querySelectorAll('rect').length,
      dataUrls: (s.match(/data:image/g) ?? []).length,
    };
  }, svg);
}

/** Width and height of a PNG, from its IHDR chunk. */
const pngSize = (b: Buffer) => ({ w: b.readUInt32BE(16), h: b.readUInt32BE(20) });

test('SVG export of canvas views is vector with its labels as <text>; PNG is twice the size', async ({ page }) => {
  const errors = watchConsole(page);
  await page.goto('/?workbench#pages=4096&cpus=4&preset=v4.17&workload=page_fault1&seed=1&step=0');
  await page.locator('#run-scenario').click();
  await expect(page.locator('#results [data-measure="score"]')).toBeVisible({ timeout: 90_000 });
  await page.keyboard.press('d');

  // free areas: a canvas view with DOM labels and a d3-axis of pfns
  const fa = await saved(page, () => page.getByRole('button', { name: /^Export Free areas.* as SVG$/ }).click());
  expect(fa.name).toBe('buddylab-free-areas.svg');
  const f = await parsed(page, fa.bytes.toString('utf8'));
  expect(f.error).toBeNull();
  expect(f.root).toBe('svg');
  expect(f.images).toBe(0);
  expect(f.dataUrls).toBe(0);
  expect(f.texts).toEqual(expect.arrayContaining(['Free areas: free_area[order]', 'order 10', 'order 0', '0x100000']));
  expect(f.texts.some((t) => /^nr_free \d+$/.test(t))).toBe(true);
  expect(f.rects).toBeGreaterThan(11); // a lane per order and the free blocks

  // mem_map: one pixel per page on the screen; in the file, rectangles
  const mm = await parsed(page, (await saved(page, () => page.getByRole('button', { name: /^Export mem_map.* as SVG$/ }).click())).bytes.toString('utf8'));
  expect(mm.images + mm.dataUrls).toBe(0);
  expect(mm.rects).toBeGreaterThan(50);

  // lock timeline: canvas lanes, labels and the d3-axis under them
  const lt = await parsed(page, (await saved(page, () => page.getByRole('button', { name: /^Export Lock timeline.* as SVG$/ }).click())).bytes.toString('utf8'));
  expect(lt.images + lt.dataUrls).toBe(0);
  expect(lt.texts).toEqual(expect.arrayContaining(['cpu 0', 'cpu 3']));
  expect(lt.texts.some((t) => /^now t = /.test(t))).toBe(true);

  // PNG: the same picture at twice the size
  const svgW = Number(/width="(\d+)"/.exec(fa.bytes.toString('utf8'))![1]);
  const png = await saved(page, () => page.getByRole('button', { name: /^Export Free areas.* as PNG$/ }).click());
  expect(png.name).toBe('buddylab-free-areas.png');
  expect(pngSize(png.bytes).w).toBe(2 * svgW);
  expect(errors).toEqual([]);
});

test('the throughput panel: d3 axes and lines, a vector SVG, a CSV of plain numbers with every parameter, and its command', async ({ page }) => {
  test.setTimeout(180_000);
  await page.goto('/?workbench');
  const panel = page.locator('#throughput');
  for (const cb of await panel.locator('input[name="tp-preset"]').all()) await cb.uncheck();
  await panel.locator('#tp-preset-v4-16').check();
  await panel.locator('#tp-preset-v4-17').check();
  await panel.locator('#tp-cpus').fill('1,2,4');
  await panel.locator('#tp-pages').selectOption('1024');
  await panel.getByRole('button', { name: 'Run sweep' }).click();
  await expect(panel.locator('#tp-status')).toContainText(/6 runs in/, { timeout: 120_000 });
  // axes from d3-axis (.tick groups), lines from d3-shape
  await expect(panel.locator('.tp-x .tick')).not.toHaveCount(0);
  await expect(panel.locator('.tp-y .tick text').first()).toHaveText(/\d/);
  await expect(panel.locator('.tp-series path.tp-line')).toHaveCount(2);
  // the command that makes the chart, every preset and task count in one
  await expect(panel.locator('.howmade-cmd')).toHaveText('blab sim --workload page_fault1 --cpus 1,2,4 --preset v4.16,v4.17 --pages 1024 --iterations 2 --seed 1 --clear-lines 64 --cache-scale 32');
  const csv = (await saved(page, () => panel.getByRole('button', { name: 'Export throughput-sweep as CSV' }).click())).bytes.toString('utf8');
  const lines = csv.trim().split('\r\n');
  const comments = lines.filter((l) => l.startsWith('#'));
  const [head, ...rows] = lines.filter((l) => !l.startsWith('#'));
  for (const k of ['workload: page_fault1', 'preset: v4.16,v4.17', 'pages per task: 1024', 'rounds (the first a warm-up): 2', 'seed: 1', 'clear_page() lines: 64', 'L2 and LLC sizes divided by: 32', "pcp batch: the preset's", 'tasks: 1,2,4'])
    expect(comments).toContain(`# ${k}`);
  expect(comments).toContain('# command: blab sim --workload page_fault1 --cpus 1,2,4 --preset v4.16,v4.17 --pages 1024 --iterations 2 --seed 1 --clear-lines 64 --cache-scale 32');
  expect(head).toBe('tasks,v4.16 (pages/s),v4.17 (pages/s),linear (pages/s)');
  expect(rows).toHaveLength(3);
  for (const r of rows) expect(r).toMatch(/^\d+(,\d+(\.\d+)?){3}$/);
  // the SVG: the chart's tick labels and series labels as text
  const svg = await parsed(page, (await saved(page, () => page.getByRole('button', { name: 'Export the throughput chart as SVG' }).click())).bytes.toString('utf8'));
  expect(svg.images).toBe(0);
  expect(svg.texts).toEqual(expect.arrayContaining(['v4.16', 'v4.17', 'linear', 'tasks (one per CPU)', 'score (pages/s)']));
});

test('compare: the diff CSV has plain numbers, changes in % or pp with their own unit and verdict columns; the t = label is never cut off', async ({ page }) => {
  test.setTimeout(180_000);
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/?compare=v4.16,v4.17&cpus=8&pages=512&seed=1&tasks=1,8');
    await expect(page.locator('.compare-page.ready')).toBeVisible({ timeout: 120_000 });
    const t = page.locator('.compare-bar .stepout');
    await expect(t).toHaveText(/^t = [\d,]+ cycles$/);
    // the whole label fits its box (it used to end in "cy")
    expect(await t.evaluate((e) => e.scrollWidth <= e.clientWidth + 1 && e.getBoundingClientRect().right <= window.innerWidth)).toBe(true);
  }
  const csv = (await saved(page, () => page.getByRole('button', { name: 'Export compare-diff as CSV' }).click())).bytes.toString('utf8');
  const lines = csv.trim().split('\r\n');
  expect(lines.filter((l) => l.startsWith('#'))).toEqual(expect.arrayContaining(['# workload: page_fault1', '# tasks: 8', '# pages per task: 512', '# seed: 1', "# configuration 1: preset v4.16, pcp batch the preset's, pcp high the preset's"]));
  const [head, ...rows] = lines.filter((l) => !l.startsWith('#'));
  // each configuration's mean over its seeds with their min and max; each change with its
  // unit, verdict and whether it is inside the seeds' spread
  expect(head).toBe('measure,better,v4.16,v4.16 min,v4.16 max,v4.17,v4.17 min,v4.17 max,v4.17 vs v4.16,v4.17 vs v4.16 unit,v4.17 vs v4.16 verdict,v4.17 vs v4.16 inside the spread');
  // no "17,889,561" in quotes, no "+5.2% better" in a cell
  expect(csv).not.toMatch(/"\d[\d,]*"/);
  expect(csv).not.toMatch(/% (better|worse)/);
  const score = rows.find((r) => r.startsWith('throughput'))!.split(',');
  expect(score.slice(2, 8).every((v) => /^\d+$/.test(v))).toBe(true);
  expect(score[9]).toBe('%');
  const cont = rows.find((r) => r.startsWith('zone->lock contention'))!;
  expect(cont).toMatch(/,pp,(better|worse|same),(yes|no)$/);
  // on the page, a change of a percentage reads in percentage points
  await expect(page.locator('#diff-table tr', { hasText: 'zone->lock contention' }).locator('td').last()).toHaveText(/^(±0\.00|[+-]\d+\.\d\d) pp( better| worse)?( \(within the spread\))?$/);
  await expect(page.locator('.compare-diff .howmade-cmd')).toContainText('blab sim --workload page_fault1 --cpus 8 --preset v4.16 --pages 512 --iterations 2 --seed 1 --clear-lines 64 --cache-scale 64');
});

test("a hackbench lesson table is in hackbench's own terms: groups on the page, in the CSV and in its blab command", async ({ page }) => {
  test.setTimeout(180_000);
  const errors = watchConsole(page);
  await page.goto('/?lesson=slubprefetch&step=3');
  const form = page.locator('form.predict');
  await form.locator('input[type=radio]').first().check();
  await form.getByRole('button', { name: 'Check my prediction' }).click();
  await expect(page.locator('.lesson-stage')).toHaveAttribute('data-ready', '3', { timeout: 120_000 });
  const table = page.locator('.tables[data-table="hackbench"]');
  await expect(table.locator('table.model thead th').first()).toHaveText('groups');
  await expect(table.locator('table.model tbody th')).toHaveText(['2', '4', '8']);
  await expect(table.locator('table.model caption')).toContainText('4000 messages per sender');
  // no advice about pages per task under a table of senders and messages
  await expect(table.locator('.pcp-warning')).toHaveCount(0);
  // one command per configuration and seed, each sweeping the groups at the table's loops
  const cmds = await table.locator('.howmade-cmd').allTextContents();
  expect(cmds.join('\n')).toContain('blab sim --workload hackbench --groups 2,4,8 --loops 4000 --slub-prefetch off --preset v4.16 --seed 1');
  expect(cmds.join('\n')).not.toMatch(/--cpus|--pages/);
  const csv = (await saved(page, () => table.getByRole('button', { name: 'Export hackbench-model as CSV' }).click())).bytes.toString('utf8');
  const lines = csv.trim().split('\r\n');
  expect(lines).toEqual(expect.arrayContaining(['# groups: 2,4,8', '# messages per sender: 4000']));
  expect(lines.some((l) => /^# (tasks|pages per task):/.test(l))).toBe(false);
  expect(lines.find((l) => !l.startsWith('#'))).toMatch(/^groups,prefetch off,prefetch off min,prefetch off max,prefetch on,/);
  expect(errors).toEqual([]);
});
