// The time machine page (?timemachine): page_fault1 on the model machine for every kernel preset
// from v2.5.44 to v6.19 at 1, 16 and 112 tasks (timemachine-runs.ts), drawn as one chart and a
// table (timemachine.ts). Aaron Lu's 2018 RFC was never merged, so it has no place on the
// kernel's timeline and is left out. The build ships the default page's runs (the native core
// computed them), so it draws at once; "Run live" runs them again in this browser's worker pool
// and checks every counter against the shipped ones. ?timemachine&tasks=1,2&pages=256 makes it
// smaller (the end-to-end test's way): such runs are not shipped and go through the pool and
// the results cache.
import { CORE_HASH } from '../engine/core-hash';
import { EngineClient } from '../engine/engine-client';
import { pointKey, type PointsRunner } from '../engine/point';
import { PoolCancelled, SimPool, type PointSource } from '../engine/pool';
import { ResultsCache } from '../engine/results-cache';
import { statsDiffer, type SimStats } from '../engine/simstats';
import { shippedSet } from '../lessons/tables';
import { el, panel } from '../ui/dom';
import { progressBar } from '../ui/progress-bar';
import { bindsSummary, drawTimeMachine, timeMachineTable } from './timemachine';
import { TIME_MACHINE, TIME_MACHINE_SET, parseTimeSpec, runTimeMachine, timeMachinePoints, timelinePresets, type TimePoint, type TimeSpec } from './timemachine-runs';
import '../lessons/lessons.css';
import './timemachine.css';

export function mountTimeMachine(root: HTMLElement, search: string): void {
  root.replaceChildren();
  const page = el('div', { class: 'timemachine', id: 'timemachine' });
  root.append(page);
  const verdict = el('p', { class: 'tm-verdict', id: 'tm-verdict' });
  page.append(
    el('h2', { class: 'page-title', text: 'Time machine: page_fault1 from v2.5.44 to v6.19' }),
    el('p', {}, el('a', { href: './', text: '← the workbench' }), ' · ', el('a', { href: '?lessons', text: 'lessons' }), ' · ', el('a', { href: '?fidelity', text: 'how close is the model?' })),
    el(
      'p',
      { class: 'tm-model-seed' },
      el('strong', { text: 'Where the model and the kernels’ own numbers part: ' }),
      'every kernel here runs on one zone, one zone->lock for all 112 CPUs (the browser’s model; the seeds’ machines had a zone per node), and the table says for each point which limit binds. ' +
        'With one lock for both sockets the many-task points are bound by zone->lock, and a few cycles more under it cost a few percent: 5.18’s single pass against 5.17 is the case in point. ' +
        'Seed 002’s machine, with a zone per node, ran flat at 25.5 to 27.7 M pages/s from 30 to 320 processes, bound by its memory bandwidth, and measured 5.18 within noise; ' +
        'the model at that topology does the same (',
      el('a', { href: '?fidelity#claim-002-plateau', text: 'claims 002-plateau, 002-pf1-48 and 002-pf1-110' }),
      ').',
    ),
    verdict,
  );
  let spec: TimeSpec;
  try {
    spec = parseTimeSpec(search);
  } catch (e) {
    page.append(el('p', { class: 'import-alert', role: 'alert', text: `This time machine link is wrong: ${e instanceof Error ? e.message : String(e)}` }));
    return;
  }
  const presets = timelinePresets();
  const todo = timeMachinePoints(spec);
  const scale = todo[0]!.req.cacheScale ?? 1;
  page.append(
    el('p', {
      text:
        `The same will-it-scale page_fault1 on the model machine (2 sockets x 28 cores x 2 threads) for every kernel the tool models, ` +
        `at ${spec.tasks.join(', ')} tasks, ${spec.pages.toLocaleString('en')} pages per task per round, ${TIME_MACHINE.iterations} rounds (the first a warm-up, not scored), seed ${TIME_MACHINE.seed}, ` +
        `clear_page() through all 64 cache lines${scale > 1 ? `, L2 and LLC divided by ${scale} (the footprint-to-cache ratio of will-it-scale’s 128 MB)` : ''}. ` +
        'pcp sizes are each kernel’s own formulas for a 96 GB node with 56 CPUs. Aaron Lu’s 2018 RFC was never merged and is not on this line (its lesson has it).',
    }),
    el(
      'p',
      {},
      'Score and contention are both of the scored rounds. The warm-up splits every page out of high-order blocks under zone->lock, which a minutes-long benchmark does once; ' +
        'the table gives the whole run’s contention in brackets. From 6.7 a CPU’s pcp list grows while it frees, up to high_max, so the warm-up’s frees stay on the list and the scored round, served from it, does not wait for zone->lock: ',
      el('a', { href: '?lesson=autotune&step=1', text: 'lesson 8' }),
      ' shows how.',
    ),
    // what the jump at 6.7 is and is not: the lists hold a whole round, and with zone->lock out
    // of the way only the CPUs' own work bounds the model's score
    el('p', {
      class: 'tm-caveat',
      id: 'tm-caveat',
      text:
        'Read the jump at 6.7 with care. Each list may grow to high_max, an eighth of the zone over its CPUs, so here a CPU keeps its whole round of pages and the scored round never meets zone->lock. ' +
        'With the lock out of the way nothing else holds the model’s score back: the model machine has no memory-bandwidth limit, while a real machine clears pages no faster than its memory takes the stores ' +
        '(seed 002’s 2-socket machine ran flat at about 25 M pages a second, some 100 GB/s, from 30 to 320 processes). The lines after 6.7 show what the kernel stopped waiting for, not a score a machine would reach.',
    }),
  );
  const body = panel(page, 'tm-panel', 'Score and zone->lock contention, kernel by kernel');
  const status = el('p', { class: 'import-status', id: 'tm-status', role: 'status' });
  const chart = el('div', { class: 'tm-chart-host', id: 'tm-chart' });
  const numbers = el('div', { id: 'tm-table' });
  const liveBtn = el('button', { type: 'button', class: 'run-live', id: 'tm-live', text: 'Run live' });
  const liveBox = el('div', { class: 'live-box' }, liveBtn, el('span', { class: 'hint', text: ' runs every point again here, in WebAssembly, and checks that every counter is the same number the native core counted for the build' }));
  const bar = progressBar('the time machine’s runs', () => pool.cancel());
  body.append(bar.root, status, chart, numbers);
  const draw = (points: TimePoint[]) => {
    drawTimeMachine(chart, points, presets, spec.tasks);
    numbers.replaceChildren(timeMachineTable(points, presets, spec.tasks));
    verdict.textContent = bindsSummary(points, presets, spec.tasks);
  };
  draw([]);
  const pool = new SimPool(undefined, new ResultsCache());
  const started = performance.now();
  void (async () => {
    const known = await shippedSet(TIME_MACHINE_SET);
    const why = EngineClient.unsupported();
    if (why && todo.some((p) => !known.has(pointKey(p.req)))) {
      bar.finish('');
      status.textContent = `The runs cannot start here: ${why}.`;
      return;
    }
    const sources = new Map<PointSource, number>();
    const runner: PointsRunner = (reqs, onPoint) =>
      pool.run(reqs, {
        known,
        onProgress: (p) => bar.update(p),
        onPoint: (p) => {
          sources.set(p.source, (sources.get(p.source) ?? 0) + 1);
          onPoint(p.index, p.stats);
        },
      });
    const points = await runTimeMachine(runner, spec, draw);
    const given = sources.get('given') ?? 0;
    const parts = [
      given ? `${given} shipped with the page (the native core ran them at build time, core ${CORE_HASH})` : '',
      sources.get('cache') ? `${sources.get('cache')} from this browser’s results cache` : '',
      sources.get('run') ? `${sources.get('run')} run here on ${pool.size} worker${pool.size === 1 ? '' : 's'}` : '',
    ].filter(Boolean);
    status.textContent = `${points.length} runs in ${((performance.now() - started) / 1000).toFixed(1)} s: ${parts.join(', ')}.`;
    status.dataset['completeMs'] = String(Math.round(performance.now())); // make bench reads it: ms from navigation
    bar.finish('');
    // Run live checks this browser's runs against the shipped ones: only where there are some
    if (given && !why) body.append(liveBox);
    liveBtn.addEventListener('click', () => void runLive(known));
  })().catch((e: unknown) => {
    bar.finish('');
    status.textContent = e instanceof PoolCancelled ? 'The runs were cancelled: reload the page to run them again.' : `The runs stopped: ${e instanceof Error ? e.message : String(e)}`;
  });

  /** every point again in this browser, each checked against the shipped run of its key; the
   * chart is redrawn from them once all are in (a cancelled Run live leaves the shipped one) */
  let lastLive: HTMLElement | null = null;
  async function runLive(known: ReadonlyMap<string, SimStats>): Promise<void> {
    liveBtn.disabled = true;
    delete liveBox.dataset['live'];
    lastLive?.remove();
    const live = progressBar('Run live', () => pool.cancel());
    lastLive = live.root;
    liveBox.append(live.root);
    const t0 = performance.now();
    let same = 0;
    const differ: string[] = [];
    try {
      const runLiveOnly: PointsRunner = (reqs, onPoint) =>
        pool.run(reqs, {
          readCache: false,
          onProgress: (p) => live.update(p),
          onPoint: (p) => {
            const ref = known.get(p.key);
            if (ref && statsDiffer(ref, p.stats) === null) same++;
            else differ.push(pointKey(reqs[p.index]!));
            onPoint(p.index, p.stats);
          },
        });
      draw(await runTimeMachine(runLiveOnly, spec));
      const ms = performance.now() - t0;
      live.finish(
        `ran live in ${(ms / 1000).toFixed(1)} s: ${same} of ${todo.length} runs with every counter the same as the shipped runs` +
          (differ.length ? `; not the same: ${differ.slice(0, 3).join('; ')}${differ.length > 3 ? ` and ${differ.length - 3} more` : ''}` : ''),
      );
      liveBox.dataset['live'] = 'done';
      liveBox.dataset['liveMs'] = String(Math.round(ms));
    } catch (e) {
      live.finish(e instanceof PoolCancelled ? 'Run live cancelled' : `Run live stopped: ${e instanceof Error ? e.message : String(e)}`);
    } finally {
      liveBtn.disabled = false;
    }
  }
}
