// Kernel-sized runs for `make bench` (called by bench/run.mjs), each figure beside its budget:
//  - the compare view's default sweep (v4.16 and v4.17, tasks 1..112 at 8 points, 4096 pages
//    per task), cold cache (a fresh browser context each time), headless Chromium: ms from
//    navigation to the chart's last point (<= 4 s); the longest main-thread task while the
//    pool ran (<= 50 ms); Cancel: ms until every pool worker has stopped (<= 200 ms);
//  - the same sweep natively, blab sim --jobs 2, wall time (<= 3 s), and --jobs 1 beside it;
//  - each lesson: its first table visible, shipped with the build (<= 1 s), and "Run live" of
//    all its tables in the browser (<= 15 s);
//  - the time machine: drawn from its shipped runs (<= 1 s, as a lesson's first table), and
//    "Run live" of its 42 runs (<= 15 s, as a lesson's);
//  - a cold precompute of every shipped run with the native core (no budget: the build's
//    cost the first time; later builds take the results from build/results).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchChromium, startPreview } from './preview.mjs';
import { mainThreadTasks } from '../scripts/trace-tasks.mjs';

const DEFAULT_COMPARE = '/?compare=v4.16,v4.17&cpus=56';
const SWEEP_TASKS = '1,16,28,44,56,72,88,112';
const REPS = 3;

const spread = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return { min: s[0], median: s[Math.floor(s.length / 2)], max: s[s.length - 1], runs: s.length };
};
const load = () => `host load average ${loadavg()[0].toFixed(1)}`;

/** The wall time of a command, in seconds. */
function wall(argv) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(argv[0], argv.slice(1), { encoding: 'utf8', maxBuffer: 1 << 26 });
  if (r.status !== 0) throw new Error(`${argv.join(' ')} failed (${r.status}): ${r.stderr}`);
  return Number(process.hrtime.bigint() - t0) / 1e9;
}

export function nativeFigures(figs) {
  const sweep = ['build/native/blab', 'sim', '--workload', 'page_fault1', '--cpus', SWEEP_TASKS, '--preset', 'v4.16,v4.17', '--pages', '4096', '--cache-scale', '8'];
  for (const jobs of [1, 2]) {
    const s = spread(Array.from({ length: REPS }, () => wall([...sweep, '--jobs', String(jobs)])));
    figs.push({
      name: `compare's default sweep natively, blab sim --jobs ${jobs}`,
      unit: 's',
      ...s,
      ...(jobs === 2 ? { budget: 3, met: s.median <= 3 } : {}),
      note: `${sweep.slice(1).join(' ')} --jobs ${jobs}; wall time; ${load()}`,
    });
  }
  // every point the build ships (the lesson tables' and the time machine's), into an empty
  // cache: what the first build costs
  const dir = mkdtempSync(join(tmpdir(), 'blab-precompute-'));
  try {
    // the points the build asked for (web/lessons/precompute.ts keeps the list beside its cache)
    const file = 'build/results/shipped-points.txt';
    const n = readFileSync(file, 'utf8').trim().split('\n').length;
    const s = wall(['build/native/blab', 'sim', '--points', file, '--jobs', '2', '--cache', join(dir, 'cache')]);
    const again = wall(['build/native/blab', 'sim', '--points', file, '--jobs', '2', '--cache', join(dir, 'cache')]);
    figs.push({ name: 'shipped runs (lesson tables, time machine) precomputed natively, cold cache, --jobs 2', unit: 's', median: +s.toFixed(2), note: `${n} runs; the second build with the cache: ${again.toFixed(2)} s; ${load()}` });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Lesson ids and the 1-based step of each one's first table, read off lessons/*.md. */
function lessonTables() {
  const out = [];
  for (const f of readdirSync('lessons').filter((x) => x.endsWith('.md')).sort()) {
    const text = readFileSync(join('lessons', f), 'utf8');
    const id = /^id: (\S+)$/m.exec(text)?.[1];
    const steps = text.split(/^## /m).slice(1);
    const i = steps.findIndex((s) => /^table: /m.test(s));
    if (id && i >= 0) out.push({ id, step: i + 1 });
  }
  return out;
}

export async function compareFigures(browser, url, figs) {
  const lastPoint = [];
  const longest = [];
  const longestCpu = [];
  const driverCpu = [];
  for (let k = 0; k < REPS; k++) {
    const context = await browser.newContext(); // an empty IndexedDB: cold cache
    await context.addInitScript(() => {
      const w = window;
      w.benchLongTasks = [];
      new PerformanceObserver((l) => l.getEntries().forEach((e) => w.benchLongTasks.push([e.startTime, e.duration]))).observe({ entryTypes: ['longtask'] });
    });
    const page = await context.newPage();
    await page.goto(url + DEFAULT_COMPARE);
    // traced from the page's mount, the replays and the pool's part: each main-thread task's
    // thread CPU time beside its wall time
    await page.locator('html[data-mounted]').waitFor({ timeout: 60_000 });
    const trace = join(tmpdir(), `blab-runs-trace-${process.pid}.json`);
    await browser.startTracing(page, { path: trace, categories: ['toplevel', 'disabled-by-default-devtools.timeline'] });
    const chart = page.locator('.compare-chart[data-last-point-ms]');
    await chart.waitFor({ timeout: 300_000 });
    await browser.stopTracing();
    const traced = mainThreadTasks(JSON.parse(readFileSync(trace, 'utf8')));
    longestCpu.push(+Math.max(0, ...traced.page.map((t) => t.cpu)).toFixed(1));
    driverCpu.push(+Math.max(0, ...traced.devtools.map((t) => t.cpu)).toFixed(1));
    rmSync(trace, { force: true });
    lastPoint.push(Number(await chart.getAttribute('data-last-point-ms')));
    const from = Number(await page.locator('.compare-chart').getAttribute('data-measure-start-ms'));
    const tasks = await page.evaluate(() => window.benchLongTasks);
    longest.push(Math.round(Math.max(0, ...tasks.filter(([t]) => t >= from).map(([, d]) => d))));
    await context.close();
  }
  const s = spread(lastPoint);
  figs.push({ name: "compare's default sweep in the browser, cold cache: last chart point", unit: 'ms', ...s, budget: 4000, met: s.median <= 4000, note: `${DEFAULT_COMPARE}: 2 presets x 8 task counts x 4096 pages, after 2 small replays; ms from navigation; pool of ${await hardwareThreads(browser, url)} workers; ${load()}` });
  const l = spread(longest);
  figs.push({ name: 'longest main-thread task while the pool runs (wall)', unit: 'ms', ...l, budget: 50, met: l.max <= 50, note: `PerformanceObserver longtask entries (over 50 ms; 0 = none) from the start of the measured runs to the last point; on a loaded host wall time includes waiting for a CPU; ${load()}` });
  const lc = spread(longestCpu);
  figs.push({ name: 'longest main-thread task, replays and pool (thread CPU)', unit: 'ms', ...lc, budget: 50, met: lc.max <= 50, note: `a Chromium trace from the page's mount to the last point (the replays decoded, built and drawn, then the pool's runs): the longest RunTask of the renderer main thread, its thread CPU time (tdur), not counting the tasks that ran this bench's own DevTools commands (Playwright's waits: ${spread(driverCpu).median} ms median of their longest; scripts/trace-tasks.mjs)` });

  // Cancel: from the click until every pool worker (named buddylab-pool) answers again, i.e.
  // its run has stopped (a worker busy in a run answers only when the run returns)
  const cancels = [];
  for (let k = 0; k < REPS; k++) {
    const context = await browser.newContext();
    const page = await context.newPage();
    const pool = [];
    page.on('worker', async (w) => {
      if ((await w.evaluate(() => self.name).catch(() => '')) === 'buddylab-pool') pool.push(w);
    });
    await page.goto(url + DEFAULT_COMPARE);
    const bar = page.locator('.compare-diff .sweep-progress');
    await bar.filter({ hasText: /[1-9]\d* of \d+ runs/ }).waitFor({ timeout: 300_000 });
    const t0 = performance.now();
    await bar.getByRole('button', { name: 'Cancel' }).click();
    const free = await Promise.all(pool.map((w) => w.evaluate(() => 0).then(() => performance.now())));
    cancels.push(Math.round(Math.max(...free) - t0));
    await context.close();
  }
  const c = spread(cancels);
  figs.push({ name: 'Cancel: every pool worker stopped', unit: 'ms', ...c, budget: 200, met: c.max <= 200, note: `from the click (Playwright) until the last pool worker answers again (its run stopped by the core's cancel flag), cancelled once a point was in; ${load()}` });
}

async function hardwareThreads(browser, url) {
  const page = await browser.newPage();
  await page.goto(url);
  const n = await page.evaluate(() => Math.max(1, Math.min(8, navigator.hardwareConcurrency || 2)));
  await page.close();
  return n;
}

export async function lessonFigures(browser, url, figs) {
  for (const { id, step } of lessonTables()) {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${url}/?lesson=${id}&step=${step}`);
    let from = 0; // navigation start, or the moment a predict question was answered
    const form = page.locator('form.predict');
    await page.locator('.lesson-stage').waitFor();
    if (await form.count()) {
      if (await form.locator('input[type=radio]').count()) await form.locator('input[type=radio]').first().check();
      else await form.locator('input[type=number]').fill('0');
      from = await page.evaluate(() => performance.now());
      await form.getByRole('button', { name: 'Check my prediction' }).click();
    }
    const table = page.locator('.lesson-stage .tables[data-complete-ms]').first();
    await table.waitFor({ timeout: 300_000 });
    const first = Math.round(Number(await table.getAttribute('data-complete-ms')) - from);
    figs.push({ name: `lesson ${id}: first table visible (shipped with the build)`, unit: 'ms', median: first, budget: 1000, met: first <= 1000, note: `?lesson=${id}&step=${step}; from ${from ? 'answering its predict question' : 'navigation'}` });
    await page.locator('.lesson-stage').getByRole('button', { name: /^Run live/ }).click();
    const box = page.locator('.lesson-stage .live-box[data-live=done]');
    await box.waitFor({ timeout: 600_000 });
    const live = Number(await box.getAttribute('data-live-ms'));
    const summary = (await box.innerText()).split('\n').find((l) => l.startsWith('ran live')) ?? '';
    figs.push({ name: `lesson ${id}: Run live, all tables`, unit: 'ms', median: live, budget: 15000, met: live <= 15000, note: `${summary}; ${load()}` });
    await context.close();
  }
}

/** The time machine: its 42 shipped runs drawn (from navigation), then Run live of all 42. */
export async function timeMachineFigures(browser, url, figs) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${url}/?timemachine`);
  const status = page.locator('#tm-status[data-complete-ms]');
  await status.waitFor({ timeout: 300_000 });
  const shown = Number(await status.getAttribute('data-complete-ms'));
  figs.push({ name: 'time machine: every kernel drawn (shipped with the build)', unit: 'ms', median: shown, budget: 1000, met: shown <= 1000, note: `?timemachine, from navigation; ${await status.innerText()}` });
  await page.locator('#tm-live').click();
  const box = page.locator('.live-box[data-live=done]');
  await box.waitFor({ timeout: 600_000 });
  const live = Number(await box.getAttribute('data-live-ms'));
  const summary = (await box.innerText()).split('\n').find((l) => l.startsWith('ran live')) ?? '';
  figs.push({ name: 'time machine: Run live, 42 runs', unit: 'ms', median: live, budget: 15000, met: live <= 15000, note: `${summary}; ${load()}` });
  await context.close();
}

export async function runsFigures(results) {
  const figs = results.figures;
  nativeFigures(figs);
  const { url, stop } = await startPreview();
  const browser = await launchChromium();
  try {
    await compareFigures(browser, url, figs);
    await lessonFigures(browser, url, figs);
    await timeMachineFigures(browser, url, figs);
  } finally {
    await browser.close();
    stop();
  }
}
