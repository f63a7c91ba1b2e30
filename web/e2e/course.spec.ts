// The teaching surface as a student and a lecturer meet it: the front page is the course, a run
// ends in a labelled results card, no page a student sees shows repository paths or build
// jargon, every page works at phone, laptop and projector sizes and from the keyboard, and
// axe finds nothing serious on any of them.
import { expect, frame, test, type Page } from './fixtures';
import { axe } from './axe';
import { mkdirSync, readdirSync } from 'node:fs';
import { watchConsole } from './console-errors';

/** the course's lessons: one Markdown file each in lessons/ */
const LESSONS = readdirSync('lessons').filter((f) => f.endsWith('.md')).length;

const SIZES = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'laptop', width: 1440, height: 900 },
  { name: 'projector', width: 1920, height: 1080 },
] as const;

/** Every kind of page, each at a link a student would follow; `ready` waits until it has drawn. */
const PAGES: { name: string; url: string; ready: (p: Page) => Promise<void> }[] = [
  { name: 'home', url: '/', ready: async (p) => void (await expect(p.locator('.home-lessons li')).toHaveCount(LESSONS)) },
  { name: 'lessons', url: '/?lessons', ready: async (p) => void (await expect(p.locator('.lesson-list li').first()).toBeVisible()) },
  {
    name: 'lesson',
    url: '/?lesson=buddy&step=1',
    ready: async (p) => void (await expect(p.locator('.lesson-stage')).toHaveAttribute('data-ready', '1', { timeout: 120_000 })),
  },
  {
    name: 'compare',
    url: '/?compare=v4.16,v4.17&cpus=8&pages=64&seed=1&tasks=1,8',
    ready: async (p) => void (await expect(p.locator('.compare-page.ready')).toBeVisible({ timeout: 120_000 })),
  },
  { name: 'fidelity', url: '/?fidelity', ready: async (p) => void (await expect(p.locator('#fidelity-table tbody tr').first()).toBeVisible()) },
  {
    name: 'workbench',
    url: '/?workbench',
    ready: async (p) => {
      await p.locator('#run-scenario').click();
      await expect(p.locator('#results')).toBeVisible({ timeout: 90_000 });
      await expect(p.locator('#views')).not.toHaveClass(/\bempty\b/);
    },
  },
];

/** Repository paths and build words a student has no use for. */
const JARGON = [
  /\b(?:docs|web|wasm-core|lessons|public|scripts|src)\/[\w.-]+/,
  /\b[\w-]+\.(?:md|ts|c|h|mjs)\b/,
  /\bmake (?:start|test|wasm|native|serve|bench|fidelity)\b/,
  /\bnpm\b|\bvite\b|\bemcc\b|\bemscripten\b|coi-serviceworker/i,
  /blab_js_\w+|\bstats \w+=\d/,
  /\bundefined\b|\bNaN\b|\[object /,
];

function jargonIn(text: string): string[] {
  return JARGON.flatMap((re) => {
    const m = re.exec(text);
    return m ? [`${re}: …${text.slice(Math.max(0, m.index - 40), m.index + m[0].length + 20).replace(/\s+/g, ' ')}…`] : [];
  });
}

test('the front page is the course: lessons in order with progress, and compare, your own data, the workbench one link each', async ({ page }) => {
  const errors = watchConsole(page);
  await page.goto('/?lesson=buddy&step=1');
  await expect(page.locator('.lesson-stage')).toHaveAttribute('data-ready', '1', { timeout: 120_000 });
  await page.getByRole('button', { name: 'Next step (PageDown)' }).click();
  await page.goto('/');
  const items = page.locator('.home-lessons li');
  await expect(items).toHaveCount(LESSONS);
  expect(await items.evaluateAll((lis) => lis.map((li) => li.getAttribute('data-lesson')))).toEqual(['buddy', 'hotcold', 'prefetch', 'singlepass', 'slubprefetch', 'skipmerge', 'capstone', 'autotune', 'tail']);
  // this browser's progress: lesson 1 was left at step 2
  await expect(items.first().locator('.home-progress')).toHaveText(/^step 2 of \d+$/);
  await expect(page.getByRole('link', { name: /^Continue lesson 1: The buddy allocator$/ })).toHaveAttribute('href', '?lesson=buddy&step=2');
  for (const [name, href] of [
    ['Compare two kernels', '?compare'],
    ['Every kernel on one chart', '?timemachine'],
    ['Load your own trace or zoneinfo', '?workbench=import'],
    ['Workbench (for experts)', '?workbench'],
  ]) await expect(page.getByRole('link', { name: name!, exact: true })).toHaveAttribute('href', href!);
  // "your own data" opens the workbench at the import panels
  await page.getByRole('link', { name: 'Load your own trace or zoneinfo' }).click();
  await expect(page.locator('#trace-import-title')).toBeFocused();
  await expect(page.locator('#trace-file')).toBeVisible();
  expect(errors).toEqual([]);
});

test('old deep links still open what they opened: a workbench hash, ?lessons, ?lesson=, ?compare=', async ({ page }) => {
  await page.goto('/#pages=256&cpus=2&preset=v4.16&workload=page_fault1&seed=7&step=0');
  await expect(page.locator('#scenario-form')).toBeVisible();
  await expect(page.locator('#sc-seed')).toHaveValue('7');
  await page.goto('/?lessons');
  await expect(page.locator('.lesson-list li')).toHaveCount(LESSONS);
  await page.goto('/?lesson=hotcold&step=2');
  await expect(page.locator('.step-counter')).toHaveText(/^step 2 of/);
  await page.goto('/?compare=v4.16,v4.17&cpus=4&pages=64&tasks=1');
  await expect(page.locator('#diff-table')).toBeVisible({ timeout: 120_000 });
});

test('a run ends in a labelled results card: score with its unit, zone->lock, acquisitions per page, prefetches, refills and drains, and how it was made', async ({ page }) => {
  await page.goto('/?workbench#pages=4096&cpus=4&preset=v4.17&workload=page_fault1&seed=1&step=0');
  await page.locator('#run-scenario').click();
  const card = page.locator('#results');
  await expect(card).toBeVisible({ timeout: 90_000 });
  const value = (m: string) => card.locator(`[data-measure="${m}"] .results-value`);
  await expect(card.locator('h3')).toHaveText('Results: page_fault1 on v4.17, 4 tasks');
  await expect(value('score')).toHaveText(/^[\d,]+ pages\/s$/);
  await expect(value('zone-contention')).toHaveText(/^\d+\.\d\d %$/);
  await expect(value('acq-per-page')).toHaveText(/^\d+\.\d{3}$/);
  await expect(value('prefetch')).toHaveText(/^[\d,]+ \/ [\d,]+ \/ [\d,]+$/);
  // how many of each, and the pages they moved: drains are counted as drains, not pages
  await expect(value('refills')).toHaveText(/^[1-9][\d,]* refills?, [\d,]+ pages?$/);
  await expect(value('drains')).toHaveText(/^[1-9][\d,]* drains?, [\d,]+ pages?$/);
  await expect(card.locator('dt')).toHaveText([
    'score',
    'zone->lock contention',
    'zone->lock acquisitions per page',
    'buddy prefetches: in time / late / wasted',
    'memory bandwidth',
    'the limit that binds',
    'pcp refills (rmqueue_bulk)',
    'pcp drains (free_pcppages_bulk)',
    'pcp lists',
    'allocation latency p50 / p99 / p99.9',
    'free latency p50 / p99 / p99.9',
    'rmqueue_bulk() p50 / p99 / p99.9',
    'free_pcppages_bulk() p50 / p99 / p99.9',
    // every parameter of the run, under "Every parameter of this run"
    'workload', 'preset', 'tasks', 'pages per task', 'rounds (the first a warm-up)', 'seed', 'clear_page() lines', 'pcp batch', 'pcp high', 'latency',
  ]);
  // v4.17 prefetches the buddy: some prefetches land in time
  expect(Number((await value('prefetch').innerText()).split(' / ')[0]!.replace(/,/g, ''))).toBeGreaterThan(0);
  await expect(card.locator('.howmade-cmd')).toHaveText('blab sim --workload page_fault1 --cpus 4 --preset v4.17 --pages 1024 --iterations 2 --seed 1 --clear-lines 8 --latency');
  // no key=value dump anywhere near Run
  await expect(page.locator('#scenario-form')).not.toContainText(/\w=\d/);
  // the results sit right under the Run button
  const run = (await page.locator('#run-scenario').boundingBox())!;
  const top = (await card.boundingBox())!;
  expect(top.y - (run.y + run.height)).toBeLessThan(120);
});

/** The text a student meets on the page, as rendered and as assistive technology reads it
 *  (labels, alternatives). The lesson's "Where in the C" pane shows the core's own file and line
 *  on purpose (a student finds the function there): it is the one place paths belong, so it is
 *  left out. */
async function studentText(page: Page): Promise<string> {
  return page.evaluate(() => {
    const panes = [...document.querySelectorAll<HTMLElement>('.source-pane')];
    for (const e of panes) e.style.display = 'none';
    const seen = [document.body.innerText, ...[...document.querySelectorAll('[aria-label], [title], [alt]')].filter((e) => !e.closest('.source-pane')).map((e) => `${e.getAttribute('aria-label') ?? ''} ${e.getAttribute('title') ?? ''} ${e.getAttribute('alt') ?? ''}`)].join('\n');
    for (const e of panes) e.style.display = '';
    return seen;
  });
}

// Each page loads once, at the phone's size, and is then widened to the laptop's and the
// projector's (a window resized, a tablet turned), so the checks at each size cost no new load
// and no new run; other specs load pages at 1600 px and every lesson slide at 1920 x 1080.
test('every page at phone, laptop and projector sizes: no repository paths or build jargon, no sideways scroll, nothing serious or critical for axe', async ({ page }) => {
  test.setTimeout(900_000);
  mkdirSync('test-results', { recursive: true });
  const problems: string[] = [];
  for (const p of PAGES) {
    await page.setViewportSize({ width: SIZES[0].width, height: SIZES[0].height });
    await page.goto(p.url);
    await p.ready(page);
    for (const size of SIZES) {
      await page.setViewportSize({ width: size.width, height: size.height });
      await frame(page);
      // each size's layout shows its own text (a narrow one folds some away); the workbench,
      // the experts' page, is not held to it
      if (p.name !== 'workbench') for (const j of jargonIn(await studentText(page))) problems.push(`${p.name} at ${size.name}: jargon ${j}`);
      const wide = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      if (wide > 0) problems.push(`${p.name} at ${size.name}: ${wide} px wider than the screen`);
      const r = await axe(page).analyze();
      for (const v of r.violations.filter((x) => x.impact === 'serious' || x.impact === 'critical'))
        problems.push(`${p.name} at ${size.name}: ${v.id} at ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join('; ')}`);
      await page.screenshot({ path: `test-results/course-${p.name}-${size.width}.png`, fullPage: size.width === 390 });
    }
  }
  // the workbench with every drawer open: what folds away must fit the screen too
  for (const size of SIZES) {
    await page.setViewportSize({ width: size.width, height: size.height });
    await page.goto('/?workbench');
    const closed = page.locator('details.drawer:not([open]) > summary');
    for (let n = await closed.count(); n > 0; n--) await closed.first().click();
    const wide = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    if (wide > 0) problems.push(`workbench at ${size.name}, drawers open: ${wide} px wider than the screen`);
  }
  expect(problems).toEqual([]);
});

test('phone: the scenario folds into a drawer, Run and its results come first, the other tools wait in a drawer', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/?workbench');
  const run = page.locator('#run-scenario');
  await expect(run).toBeInViewport();
  await expect(page.locator('#scenario-settings')).not.toHaveAttribute('open', '');
  await expect(page.locator('#tools')).not.toHaveAttribute('open', '');
  await expect(page.locator('#sc-cpus')).toBeHidden();
  await run.click();
  await expect(page.locator('#results [data-measure="score"]')).toBeInViewport({ timeout: 90_000 });
  // the drawer opens on demand and the fields are there
  await page.locator('#scenario-settings > summary').click();
  await expect(page.locator('#sc-cpus')).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});

/** The accessible name of the element that has focus after `n` presses of Tab from the top. */
async function afterTabs(page: Page, n: number): Promise<string[]> {
  const seen: string[] = [];
  for (let i = 0; i < n; i++) {
    await page.keyboard.press('Tab');
    seen.push(await page.evaluate(() => {
      const e = document.activeElement as HTMLElement | null;
      return (e?.getAttribute('aria-label') ?? e?.innerText ?? '').trim().slice(0, 60);
    }));
  }
  return seen;
}

// the header holds the skip link, four pages (Course, Compare, Exercises, Workbench) and the
// theme toggle, so a page's main action is the seventh stop at the latest
test('keyboard only: each page\'s main action within 7 Tab presses, and the skip link works on every page', async ({ page }) => {
  test.setTimeout(300_000);
  const main: Record<string, RegExp> = {
    home: /^Start with lesson 1|^Continue lesson/,
    lessons: /^1\. The buddy allocator$/,
    lesson: /Next step|Run|Check my prediction/,
    compare: /^Play all/,
    workbench: /^Run scenario$/,
    // a page to read: its main action is its content, whose first link is reached in 7
    fidelity: /^← the course$/,
  };
  for (const p of PAGES) {
    await page.goto(p.url);
    await (p.name === 'workbench' ? Promise.resolve() : p.ready(page));
    const seen = await afterTabs(page, 7);
    expect(seen.some((s) => main[p.name]!.test(s)), `${p.name}: ${JSON.stringify(seen)}`).toBe(true);
    // from the top, Tab once, Enter: the skip link moves focus into the main content
    await page.goto(p.url);
    await page.keyboard.press('Tab');
    await expect(page.locator('a.skip')).toBeFocused();
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => !!document.activeElement?.closest('#app')), p.name).toBe(true);
  }
  // the workbench from the keyboard alone: run, step, the next drain
  await page.goto('/?workbench');
  for (let i = 0; i < 7; i++) {
    await page.keyboard.press('Tab');
    if (await page.locator('#run-scenario').evaluate((e) => e === document.activeElement)) break;
  }
  await expect(page.locator('#run-scenario')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.locator('#results')).toBeVisible({ timeout: 90_000 });
  await page.keyboard.press('d');
  await expect(page.locator('#event-line')).toContainText('free_pcppages_bulk()');
});
