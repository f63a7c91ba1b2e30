// The time machine (?timemachine): page_fault1 on the model machine for every kernel preset
// from v2.5.44 to v6.19 at 1, 16 and 112 tasks, on one chart: the score above, zone->lock
// contention below, the kernels in release order along one axis. Aaron Lu's 2018 RFC was never
// merged, so it has no place on the kernel's timeline and is left out. The runs go one at a
// time through the engine worker, with progress; ?timemachine&tasks=1,2&pages=256 makes it
// smaller (the end-to-end test's way).
import { EngineClient } from '../engine/engine-client';
import type { ReplayResult, SimRequest } from '../engine/blab-module';
import { CORE_PRESETS } from '../scenario/core-schema';
import { el, panel } from '../ui/dom';
import { SERIES_COLORS } from '../views/throughput';
import { axisBottom, axisLeft } from 'd3-axis';
import { format } from 'd3-format';
import { scaleLinear, scaleLog, scalePoint } from 'd3-scale';
import { select } from 'd3-selection';
import { line } from 'd3-shape';
import '../lessons/lessons.css';
import './timemachine.css';

/** one run on the model machine: the page's engine worker, or the WASM core in a test */
type SimFn = (req: SimRequest) => Promise<ReplayResult>;

export const TIME_MACHINE = {
  tasks: [1, 16, 112],
  /** pages each task maps per round: 4 MB, so 112 tasks finish in the browser */
  pages: 1024,
  iterations: 2,
  seed: 1,
  limits: { maxTasks: 112, maxCounts: 4, minPages: 64, maxPages: 4096 },
} as const;

/** The kernels in release order: every preset named after one (not the RFC's). */
export function timelinePresets(): string[] {
  return CORE_PRESETS.map((p) => p.name).filter((n) => /^v\d/.test(n));
}

export interface TimePoint {
  preset: string;
  tasks: number;
  /** pages faulted per second of virtual time, all tasks */
  score: number;
  /** zone->lock spin, % of all CPUs' time */
  contention: number;
}

export interface TimeSpec {
  tasks: number[];
  pages: number;
}

/** ?timemachine[&tasks=1,16,112][&pages=1024], checked against the bounds; throws saying why. */
export function parseTimeSpec(search: string): TimeSpec {
  const q = new URLSearchParams(search);
  const L = TIME_MACHINE.limits;
  const tasksText = q.get('tasks');
  const tasks = tasksText === null ? [...TIME_MACHINE.tasks] : tasksText.split(',').map((t) => Number(t.trim()));
  if (!tasks.length || tasks.length > L.maxCounts || !tasks.every((t) => Number.isInteger(t) && t >= 1 && t <= L.maxTasks)) {
    throw new Error(`tasks: 1 to ${L.maxCounts} whole numbers, each 1..${L.maxTasks}`);
  }
  const pagesText = q.get('pages');
  const pages = pagesText === null ? TIME_MACHINE.pages : Number(pagesText);
  if (!Number.isInteger(pages) || pages < L.minPages || pages > L.maxPages) throw new Error(`pages: a whole number, ${L.minPages}..${L.maxPages}`);
  return { tasks: [...new Set(tasks)].sort((a, b) => a - b), pages };
}

/** Every (preset, tasks) run, preset by preset; onProgress after each. */
export async function runTimeMachine(sim: SimFn, spec: TimeSpec, onProgress: (done: number, total: number, points: TimePoint[]) => void, shouldStop: () => boolean = () => false): Promise<TimePoint[]> {
  const presets = timelinePresets();
  const points: TimePoint[] = [];
  const total = presets.length * spec.tasks.length;
  for (const preset of presets) {
    for (const tasks of spec.tasks) {
      if (shouldStop()) return points;
      const r = await sim({ workload: 'page_fault1', cpus: tasks, pages: spec.pages, iterations: TIME_MACHINE.iterations, seed: TIME_MACHINE.seed, preset, maxEvents: 2 });
      if (r.status !== 0 || !r.stats) throw new Error(`${preset} at ${tasks} tasks: ${r.stderr.trim() || `the core stopped with status ${r.status}`}`);
      points.push({ preset, tasks, score: r.stats.score, contention: r.stats.zoneBp / 100 });
      onProgress(points.length, total, points);
    }
  }
  return points;
}

const SVG_NS = 'http://www.w3.org/2000/svg';
const fmt = format('.3~s');
function svg(tag: string, attrs: Record<string, string | number> = {}, text?: string): SVGElement {
  const e = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (text !== undefined) e.textContent = text;
  return e;
}

/** One sentence per task count: the score and contention at the first and the last kernel. */
export function describeTimeMachine(points: readonly TimePoint[], presets: readonly string[], tasks: readonly number[]): string {
  const parts = tasks.map((t) => {
    const first = points.find((p) => p.tasks === t && p.preset === presets[0]);
    const last = [...points].reverse().find((p) => p.tasks === t);
    if (!first || !last) return `${t} tasks: not run yet`;
    return `${t} task${t === 1 ? '' : 's'}: ${fmt(first.score)} pages/s and ${first.contention.toFixed(1)}% zone->lock contention on ${first.preset}, ${fmt(last.score)} and ${last.contention.toFixed(1)}% on ${last.preset}`;
  });
  return `page_fault1 on the model machine across the kernels. ${parts.join('; ')}.`;
}

/** The chart: score (log scale) above, contention below, one line per task count. */
export function drawTimeMachine(host: HTMLElement, points: readonly TimePoint[], presets: readonly string[], tasks: readonly number[]): void {
  // drawn at the host's own width (a phone gets a narrower, taller chart, its text the same size)
  const W = Math.max(340, Math.min(900, Math.round(host.clientWidth) || 900));
  const H = W < 600 ? 560 : 520;
  const M = { left: 52, right: W < 600 ? 58 : 70, top: 28, mid: 40, bottom: 96 };
  const plotH = (H - M.top - M.mid - M.bottom) / 2;
  const x = scalePoint<string>().domain(presets).range([M.left, W - M.right]).padding(0.5);
  const scores = points.map((p) => p.score).filter((s) => s > 0);
  const yS = scaleLog()
    .domain([Math.min(...scores, 1e5) / 1.5, Math.max(...scores, 1e6) * 1.5])
    .range([M.top + plotH, M.top]);
  const yC = scaleLinear()
    .domain([0, Math.max(10, ...points.map((p) => p.contention))])
    .nice()
    .range([M.top + 2 * plotH + M.mid, M.top + plotH + M.mid]);
  const root = svg('svg', { viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': describeTimeMachine(points, presets, tasks), class: 'tm-chart' }) as SVGSVGElement;
  const title = (y: number, t: string) => root.append(svg('text', { x: M.left, y, class: 'tm-title' }, t));
  const narrow = W < 600;
  title(M.top - 10, narrow ? 'score (pages/s, log scale)' : 'page_fault1 score (pages/s, all tasks; log scale)');
  title(M.top + plotH + M.mid - 10, narrow ? 'zone->lock contention (%)' : 'zone->lock contention (% of all CPU time spinning)');
  // the y axes (d3-axis), their ticks drawn across the plot as its grid; the score's log axis
  // is ticked at 1, 2 and 5 of each power of ten
  const sel = select(root);
  const grid = -(W - M.left - M.right);
  const yAxis = (cls: string, axis: ReturnType<typeof axisLeft<number>>) =>
    sel
      .append('g')
      .attr('class', `tm-axis tm-y ${cls}`)
      .attr('transform', `translate(${M.left},0)`)
      .call(axis.tickSize(grid).tickSizeOuter(0))
      .attr('font-size', null)
      .attr('font-family', null);
  yAxis('tm-y-score', axisLeft<number>(yS).tickValues(yS.ticks(4).filter((v) => /^[125]/.test(String(v)))).tickFormat((v) => fmt(v)));
  yAxis('tm-y-contention', axisLeft<number>(yC).ticks(4).tickFormat((v) => `${v}%`));
  // the kernels along the bottom (d3-axis on the point scale), each with a dashed line up
  sel
    .append('g')
    .attr('class', 'tm-axis tm-x')
    .attr('transform', `translate(0,${M.top + 2 * plotH + M.mid})`)
    .call(axisBottom(x).tickSize(-(2 * plotH + M.mid)).tickSizeOuter(0).tickPadding(8))
    .attr('font-size', null)
    .attr('font-family', null)
    .call((g) => g.select('.domain').remove())
    .selectAll<SVGTextElement, string>('text')
    .attr('text-anchor', 'end')
    .attr('transform', 'rotate(-45)')
    .attr('dx', '-0.3em')
    .attr('dy', '0.6em');
  tasks.forEach((t, i) => {
    const color = SERIES_COLORS[i % SERIES_COLORS.length]!;
    const pts = presets.map((p) => points.find((q) => q.preset === p && q.tasks === t)).filter((q): q is TimePoint => q !== undefined);
    for (const [key, y, val] of [
      ['score', yS, (q: TimePoint) => Math.max(q.score, yS.domain()[0]!)],
      ['contention', yC, (q: TimePoint) => q.contention],
    ] as const) {
      const at = (q: TimePoint) => (y as (v: number) => number)(val(q));
      const path = line<TimePoint>()
        .x((q) => x(q.preset)!)
        .y(at);
      if (pts.length > 1) sel.append('path').attr('d', path(pts)).attr('fill', 'none').attr('stroke', color).attr('stroke-width', 2).attr('class', `tm-line tm-${key}`);
      sel
        .selectAll(`circle.tm-${key}.tm-t${t}`)
        .data(pts)
        .join('circle')
        .attr('cx', (q) => x(q.preset)!)
        .attr('cy', at)
        .attr('r', 3.5)
        .attr('fill', color)
        .attr('class', `tm-point tm-${key} tm-t${t}`)
        .append('title')
        .text((q) => `${q.preset}, ${t} task${t === 1 ? '' : 's'}: ${fmt(q.score)} pages/s, zone->lock ${q.contention.toFixed(2)}%`);
      const lastQ = pts.at(-1);
      if (lastQ) root.append(svg('text', { x: x(lastQ.preset)! + 8, y: at(lastQ) + 4, fill: color, class: 'tm-label' }, `${t} task${t === 1 ? '' : 's'}`));
    }
  });
  host.replaceChildren(root);
}

function table(points: readonly TimePoint[], presets: readonly string[], tasks: readonly number[]): HTMLTableElement {
  const t = el('table', { class: 'isum-table tm-table' }, el('caption', { text: 'the numbers behind the chart: score (pages/s) and zone->lock contention' }));
  const head = el('tr', {}, el('th', { scope: 'col', text: 'kernel' }));
  for (const n of tasks) head.append(el('th', { scope: 'col', text: `${n} task${n === 1 ? '' : 's'}` }));
  t.append(el('thead', {}, head));
  const body = el('tbody');
  for (const p of presets) {
    const row = el('tr', {}, el('th', { scope: 'row', text: p }));
    for (const n of tasks) {
      const q = points.find((x) => x.preset === p && x.tasks === n);
      row.append(el('td', { text: q ? `${fmt(q.score)}, ${q.contention.toFixed(1)}%` : '…' }));
    }
    body.append(row);
  }
  t.append(body);
  return t;
}

export function mountTimeMachine(root: HTMLElement, search: string, engine = new EngineClient()): void {
  root.replaceChildren();
  const page = el('div', { class: 'timemachine', id: 'timemachine' });
  root.append(page);
  page.append(
    el('h2', { class: 'page-title', text: 'Time machine: page_fault1 from v2.5.44 to v6.19' }),
    el('p', {}, el('a', { href: './', text: '← the workbench' }), ' · ', el('a', { href: '?lessons', text: 'lessons' })),
  );
  let spec: TimeSpec;
  try {
    spec = parseTimeSpec(search);
  } catch (e) {
    page.append(el('p', { class: 'import-alert', role: 'alert', text: `This time machine link is wrong: ${e instanceof Error ? e.message : String(e)}` }));
    return;
  }
  const presets = timelinePresets();
  page.append(
    el('p', {
      text:
        `The same will-it-scale page_fault1 on the model machine (2 sockets x 28 cores x 2 threads) for every kernel the tool models, ` +
        `at ${spec.tasks.join(', ')} tasks, ${spec.pages.toLocaleString('en')} pages per task per round, ${TIME_MACHINE.iterations} rounds (the first a warm-up), seed ${TIME_MACHINE.seed}. ` +
        'pcp sizes are each kernel’s own formulas for a 96 GB node with 56 CPUs. Aaron Lu’s 2018 RFC was never merged and is not on this line (its lesson has it).',
    }),
  );
  const body = panel(page, 'tm-panel', 'Score and zone->lock contention, kernel by kernel');
  const progress = el('progress', { id: 'tm-progress', max: 1, value: 0, 'aria-label': 'runs done' });
  const status = el('p', { class: 'import-status', id: 'tm-status', role: 'status' });
  const chart = el('div', { class: 'tm-chart-host', id: 'tm-chart' });
  const numbers = el('div', { id: 'tm-table' });
  body.append(progress, status, chart, numbers);
  const why = EngineClient.unsupported();
  if (why) {
    status.textContent = `The runs cannot start here: ${why}.`;
    return;
  }
  const draw = (points: TimePoint[]) => {
    drawTimeMachine(chart, points, presets, spec.tasks);
    numbers.replaceChildren(table(points, presets, spec.tasks));
  };
  draw([]);
  const started = performance.now();
  void runTimeMachine(
    (req) => engine.sim(req),
    spec,
    (done, total, points) => {
      progress.value = done / total;
      status.textContent = `${done} of ${total} runs (${((performance.now() - started) / 1000).toFixed(0)} s)…`;
      draw(points);
    },
  )
    .then((points) => {
      status.textContent = `${points.length} runs in ${((performance.now() - started) / 1000).toFixed(1)} s, in this page’s engine worker.`;
      progress.hidden = true;
    })
    .catch((e: unknown) => {
      status.textContent = `The runs stopped: ${e instanceof Error ? e.message : String(e)}`;
    });
}
