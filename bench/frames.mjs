#!/usr/bin/env node
// Frame time while playing: the DESIGN budget (p95 <= 16.7 ms for a 262,144-page zone with 16
// CPUs animating), measured the way a user gets there. Serves dist/ with `vite preview`, opens
// it in headless Debian Chromium, runs the page_fault1 scenario (262,144 pages, 16 CPUs) in the
// app's own WASM engine, then plays the log and records requestAnimationFrame deltas.
//
//   node bench/frames.mjs [--frames N] [--speeds 1,64] [--pages N] [--cpus N] [--view ID]
//                         [--results bench/results.json] [--profile FILE.json] [--trace FILE.json]
//
// Prints one JSON line per speed: {speed, frames, p50, p95, p99, max} in ms. --results merges
// the figures into that results file (make bench). --profile writes a CPU profile (Chrome
// DevTools format) of the playing at the last speed; --trace a Chrome trace.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { launchChromium, startPreview } from './preview.mjs';

const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : dflt;
};
const FRAMES = Number(arg('frames', '600'));
const SPEEDS = arg('speeds', '1,64').split(',').map(Number);
const PROFILE = arg('profile', '');
const TRACE = arg('trace', '');
const RESULTS = arg('results', '');
const figures = [];
const PAGES = Number(arg('pages', '262144'));
const CPUS = Number(arg('cpus', '16'));
// --view ID: scroll that panel into view first (e.g. lock-timeline, which sits below the fold
// of the 1600x1000 window and so is not drawn while playing unless it is on screen)
const VIEW = arg('view', '');

const { url, stop } = await startPreview();
const browser = await launchChromium();
try {
  const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
  page.on('pageerror', (e) => console.error(`page error: ${e}`));
  await page.goto(`${url}/#pages=${PAGES}&cpus=${CPUS}&preset=v4.17&workload=page_fault1&seed=1&step=0`);
  const t0 = Date.now();
  await page.getByRole('button', { name: 'Run scenario' }).click();
  // a run ends in the results card (#results); a refusal or failure in the run message
  await Promise.race([
    page.locator('#results').waitFor({ state: 'visible', timeout: 300_000 }),
    page.locator('#run-msg').filter({ hasText: /error|limit|stopped|rejected|refused|cannot/i }).waitFor({ timeout: 300_000 }),
  ]);
  if (!(await page.locator('#results').isVisible())) throw new Error(`the scenario did not run: ${await page.locator('#run-msg').textContent()}`);
  const msg = ((await page.locator('#results').innerText()) ?? '').replace(/\s+/g, ' ').slice(0, 160);
  const events = await page.evaluate(() => window.buddylab.snapshot().length);
  const zonePages = Number(((await page.locator('.loglabel').textContent()) ?? '').match(/events, ([\d,]+) pages/)?.[1]?.replace(/,/g, '') ?? NaN);
  console.error(`scenario ran in ${((Date.now() - t0) / 1000).toFixed(1)} s: ${events} events; ${msg}`);
  // start at the first pcp drain: the busiest part of the animation (merges, many pages move)
  await page.locator('#jump-kind').selectOption('drain');
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press(']');
  if (VIEW) await page.locator(`#${VIEW}`).scrollIntoViewIfNeeded();
  const cdp = PROFILE ? await page.context().newCDPSession(page) : null;
  for (const [k, speed] of SPEEDS.entries()) {
    await page.locator('#speed').selectOption(String(speed));
    const last = k === SPEEDS.length - 1;
    if (TRACE && last) await browser.startTracing(page, { path: TRACE, categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'cc', 'gpu', 'viz', 'blink'] });
    if (cdp && last) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
      await cdp.send('Profiler.start');
    }
    const play = (frames) =>
      page.evaluate(async (frames) => {
        const app = window.buddylab;
        app.play();
        const out = [];
        let prev = performance.now();
        await new Promise((resolve) => {
          const f = (now) => {
            out.push(now - prev);
            prev = now;
            if (out.length < frames + 10) requestAnimationFrame(f);
            else resolve();
          };
          requestAnimationFrame(f);
        });
        app.pause();
        return out.slice(10);
      }, frames);
    const d = await play(FRAMES);
    if (TRACE && last) await browser.stopTracing();
    if (cdp && last) {
      const { profile } = await cdp.send('Profiler.stop');
      writeFileSync(PROFILE, JSON.stringify(profile));
    }
    const quant = (xs, p) => {
      const s = [...xs].sort((a, b) => a - b);
      return +s[Math.min(s.length - 1, Math.floor(s.length * p))].toFixed(1);
    };
    const q = (p) => quant(d, p);
    // A second, traced pass: CPU time (thread time, not wall time) Chromium spent per frame on
    // the page's main thread (rAF callbacks, style, layout, paint, commit) and in the display
    // compositor. On a shared, loaded host the rAF deltas above include waiting for a CPU;
    // these say what a frame costs when it gets one.
    const traceFile = `${tmpdir()}/buddylab-frames-${process.pid}.json`;
    await browser.startTracing(page, { path: traceFile, categories: ['cc', 'viz', 'benchmark'] });
    await play(Math.min(FRAMES, 300));
    await browser.stopTracing();
    const tev = JSON.parse(readFileSync(traceFile, 'utf8')).traceEvents ?? [];
    rmSync(traceFile, { force: true });
    const cpuOf = (name) => tev.filter((e) => e.ph === 'X' && e.name === name && e.tdur !== undefined).map((e) => e.tdur / 1000);
    const main = cpuOf('ProxyMain::BeginMainFrame');
    const comp = cpuOf('Display::DrawAndSwap');
    const r = {
      pages: PAGES, cpus: CPUS, speed, frames: d.length, p50: q(0.5), p95: q(0.95), p99: q(0.99), max: +Math.max(...d).toFixed(1),
      mainCpuP50: main.length ? quant(main, 0.5) : null, mainCpuP95: main.length ? quant(main, 0.95) : null,
      compositorCpuP95: comp.length ? quant(comp, 0.95) : null, tracedFrames: main.length,
    };
    console.log(JSON.stringify(r));
    figures.push({
      name: `browser frame time playing page_fault1, ${PAGES} pages x ${CPUS} CPUs, ${speed}x${VIEW ? `, #${VIEW} in view` : ''}, p95`,
      unit: 'ms',
      median: r.p95,
      p50: r.p50,
      p99: r.p99,
      max: r.max,
      frames: r.frames,
      main_thread_cpu_per_frame_p50: r.mainCpuP50,
      main_thread_cpu_per_frame_p95: r.mainCpuP95,
      compositor_cpu_per_frame_p95: r.compositorCpuP95,
      budget: 16.7,
      met: r.p95 <= 16.7,
      note: `requestAnimationFrame deltas in headless Chromium (software compositing), viewport 1600x1000, from the first pcp drain; zone ${zonePages} pages, ${events} events; host load average ${loadavg()[0].toFixed(1)}`,
    });
  }
} finally {
  await browser.close();
  stop();
}
if (RESULTS) {
  const all = existsSync(RESULTS) ? JSON.parse(readFileSync(RESULTS, 'utf8')) : { figures: [] };
  all.figures = [...all.figures.filter((f) => !f.name.startsWith('browser frame time')), ...figures];
  writeFileSync(RESULTS, JSON.stringify(all, null, 2) + '\n');
  console.log(`merged ${figures.length} frame-time figures into ${RESULTS}`);
}
