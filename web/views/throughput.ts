// Throughput chart: will-it-scale-style score vs tasks, one line per preset, and the `linear`
// line (the 1-task score times tasks) that shows how far each line falls short of perfect
// scaling. An SVG with a fixed viewBox: it scales with its container and never reads layout.
//
// Reusable API (the lessons and compare pages draw with it too):
//
//   import { drawThroughputChart } from '../views/throughput';
//   drawThroughputChart(svgElement, [
//     { label: 'v4.16', points: [{ tasks: 1, score: 1.1e6 }, { tasks: 4, score: 4.2e6 }] },
//     { label: 'v4.17', points: [...] },
//   ], { title: 'page_fault1', linear: true });
//
// The function only draws what it is given; running the sweep is the engine's job
// (web/engine/sweep.ts). Lines are told apart by colour (Okabe–Ito), by marker shape and by a
// label at their right end, so colour is never the only cue.

import { format } from 'd3-format';
import { scaleLinear } from 'd3-scale';
import { select, type Selection } from 'd3-selection';
import type { ThroughputPoint, ThroughputSeries } from '../engine/sweep';

export interface ThroughputChartOptions {
  /** drawn above the plot and used in the accessible name */
  title?: string;
  /**
   * The `linear` line of will-it-scale: true (default) = the first series' 1-task score times
   * tasks; a series = draw that one as the linear line; false = none.
   */
  linear?: boolean | ThroughputSeries;
  /** what the score counts, for the y axis title and each point's tooltip; default "pages/s" */
  unit?: string;
  /** y axis title; default "score (UNIT)" */
  yLabel?: string;
  /** x axis title; default "tasks (one per CPU)" (hackbench: groups) */
  xLabel?: string;
  /** viewBox size; the SVG itself scales to its container's width */
  width?: number;
  height?: number;
}

/** Okabe–Ito, in an order where neighbours differ in lightness too (projector, colour blindness). */
export const SERIES_COLORS = ['#56B4E9', '#E69F00', '#009E73', '#F0E442', '#CC79A7', '#D55E00', '#0072B2', '#FFFFFF'] as const;
/** One marker shape per series (circle, square, triangle, diamond, ...), as SVG path builders. */
const MARKERS: ((x: number, y: number, r: number) => string)[] = [
  (x, y, r) => `M${x - r},${y}a${r},${r} 0 1,0 ${2 * r},0a${r},${r} 0 1,0 ${-2 * r},0`,
  (x, y, r) => `M${x - r},${y - r}h${2 * r}v${2 * r}h${-2 * r}Z`,
  (x, y, r) => `M${x},${y - r * 1.2}L${x + r * 1.1},${y + r * 0.8}L${x - r * 1.1},${y + r * 0.8}Z`,
  (x, y, r) => `M${x},${y - r * 1.3}L${x + r * 1.1},${y}L${x},${y + r * 1.3}L${x - r * 1.1},${y}Z`,
  (x, y, r) => `M${x - r},${y - r}L${x + r},${y + r}M${x - r},${y + r}L${x + r},${y - r}`,
  (x, y, r) => `M${x - r * 1.2},${y}h${2.4 * r}M${x},${y - r * 1.2}v${2.4 * r}`,
];
export const LINEAR_COLOR = '#aab4c0';

const SVG_NS = 'http://www.w3.org/2000/svg';
const fmtScore = format('.3~s');

/**
 * will-it-scale's `linear` column: the 1-task score of `base` times tasks, at every task count
 * any series has. Undefined when `base` has no 1-task point (then there is no honest linear line).
 */
export function linearSeries(base: ThroughputSeries, all: readonly ThroughputSeries[] = [base]): ThroughputSeries | undefined {
  const one = base.points.find((p) => p.tasks === 1);
  if (!one) return undefined;
  const tasks = [...new Set(all.flatMap((s) => s.points.map((p) => p.tasks)))].sort((a, b) => a - b);
  return { label: 'linear', points: tasks.map((t) => ({ tasks: t, score: one.score * t })) };
}

/** The points of a series in task order, without non-finite or negative values. */
function clean(s: ThroughputSeries): ThroughputPoint[] {
  return s.points
    .filter((p) => Number.isFinite(p.tasks) && Number.isFinite(p.score) && p.tasks > 0 && p.score >= 0)
    .sort((a, b) => a.tasks - b.tasks);
}

/** A one-sentence text alternative: every series' score at its highest task count. */
export function describeThroughput(series: readonly ThroughputSeries[], title = 'Throughput'): string {
  if (series.every((s) => clean(s).length === 0)) return `${title}: no results yet`;
  const parts = series.map((s) => {
    const pts = clean(s);
    const last = pts.at(-1);
    const first = pts[0];
    if (!last || !first) return `${s.label}: no points`;
    const per = first.tasks === 1 && last.tasks > 1 ? `, ${((last.score / (first.score * last.tasks)) * 100).toFixed(0)}% of linear` : '';
    return `${s.label} ${fmtScore(last.score)} at ${last.tasks} tasks${per}`;
  });
  return `${title}, score vs tasks: ${parts.join('; ')}`;
}

/**
 * Draws (or redraws) the chart into `svg`, replacing what was there. Safe to call with empty or
 * partial series, e.g. while a sweep is still running.
 */
export function drawThroughputChart(
  svg: SVGSVGElement,
  series: readonly ThroughputSeries[],
  opts: ThroughputChartOptions = {},
): void {
  const W = opts.width ?? 640;
  const H = opts.height ?? 360;
  const title = opts.title ?? 'Throughput';
  const unit = opts.unit ?? 'pages/s';
  const m = { top: opts.title ? 30 : 12, right: 96, bottom: 44, left: 64 };
  const lines = series.map((s) => ({ label: s.label, pts: clean(s) }));
  const lin =
    opts.linear === false
      ? undefined
      : typeof opts.linear === 'object'
        ? opts.linear
        : series[0]
          ? linearSeries(series[0], series)
          : undefined;
  const linPts = lin ? clean(lin) : [];
  const allPts = [...lines.flatMap((l) => l.pts), ...linPts];
  const maxTasks = Math.max(1, ...allPts.map((p) => p.tasks));
  const maxScore = Math.max(1, ...allPts.map((p) => p.score));
  const x = scaleLinear().domain([0, maxTasks]).nice().range([m.left, W - m.right]);
  const y = scaleLinear().domain([0, maxScore]).nice().range([H - m.bottom, m.top]);

  const root = select(svg);
  svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', describeThroughput(series, title));
  svg.classList.add('throughput-svg');
  root.selectAll('*').remove();
  const text = (g: Selection<SVGGElement, unknown, null, undefined>, tx: number, ty: number, s: string, anchor = 'middle') =>
    g.append('text').attr('x', tx).attr('y', ty).attr('text-anchor', anchor).attr('fill', '#e6edf3').attr('font-size', 13).text(s);

  // axes: grid lines with their tick labels, drawn by hand (d3-axis would be one more dependency)
  const axes = root.append<SVGGElement>('g').attr('class', 'tp-axes');
  for (const t of y.ticks(5)) {
    axes.append('line').attr('x1', m.left).attr('x2', W - m.right).attr('y1', y(t)).attr('y2', y(t)).attr('stroke', '#2e3748');
    text(axes, m.left - 6, y(t) + 4, fmtScore(t), 'end');
  }
  const taskTicks = x.ticks(Math.min(8, maxTasks)).filter((t) => Number.isInteger(t));
  for (const t of taskTicks) {
    axes.append('line').attr('x1', x(t)).attr('x2', x(t)).attr('y1', H - m.bottom).attr('y2', H - m.bottom + 5).attr('stroke', '#aab4c0');
    text(axes, x(t), H - m.bottom + 19, String(t));
  }
  axes.append('line').attr('x1', m.left).attr('x2', W - m.right).attr('y1', H - m.bottom).attr('y2', H - m.bottom).attr('stroke', '#aab4c0');
  axes.append('line').attr('x1', m.left).attr('x2', m.left).attr('y1', m.top).attr('y2', H - m.bottom).attr('stroke', '#aab4c0');
  text(axes, (m.left + W - m.right) / 2, H - 6, opts.xLabel ?? 'tasks (one per CPU)');
  text(axes, 14, (m.top + H - m.bottom) / 2, opts.yLabel ?? `score (${unit})`).attr(
    'transform',
    `rotate(-90 14 ${(m.top + H - m.bottom) / 2})`,
  );
  if (opts.title) text(axes, m.left, 18, opts.title, 'start').attr('font-weight', 650).attr('font-size', 14);

  const path = (pts: ThroughputPoint[]) => pts.map((p, i) => `${i ? 'L' : 'M'}${x(p.tasks).toFixed(1)},${y(p.score).toFixed(1)}`).join('');
  // end labels, nudged apart so that lines ending close together stay readable
  const labels: { y: number; text: string; color: string }[] = [];

  if (linPts.length > 1) {
    root
      .append('path')
      .attr('class', 'tp-linear')
      .attr('d', path(linPts))
      .attr('fill', 'none')
      .attr('stroke', LINEAR_COLOR)
      .attr('stroke-width', 1.5)
      .attr('stroke-dasharray', '6 5');
    const last = linPts.at(-1)!;
    labels.push({ y: y(last.score), text: lin!.label, color: LINEAR_COLOR });
  }
  lines.forEach((l, i) => {
    const color = SERIES_COLORS[i % SERIES_COLORS.length]!;
    const marker = MARKERS[i % MARKERS.length]!;
    const g = root.append('g').attr('class', 'tp-series').attr('data-label', l.label);
    if (l.pts.length > 1) g.append('path').attr('d', path(l.pts)).attr('fill', 'none').attr('stroke', color).attr('stroke-width', 2.5);
    for (const p of l.pts) {
      g.append('path')
        .attr('d', marker(x(p.tasks), y(p.score), 4.5))
        .attr('fill', color)
        .attr('stroke', color)
        .attr('stroke-width', 1.5)
        .append('title')
        .text(`${l.label}: ${fmtScore(p.score)} ${unit} at ${p.tasks} task${p.tasks === 1 ? '' : 's'}`);
    }
    const last = l.pts.at(-1);
    if (last) labels.push({ y: y(last.score), text: l.label, color });
  });
  labels.sort((a, b) => a.y - b.y);
  for (let i = 1; i < labels.length; i++) labels[i]!.y = Math.max(labels[i]!.y, labels[i - 1]!.y + 14);
  const lg = root.append('g').attr('class', 'tp-labels');
  for (const l of labels) lg.append('text').attr('x', W - m.right + 8).attr('y', l.y + 4).attr('fill', l.color).attr('font-size', 13).text(l.text);
}

/** An empty SVG element ready for drawThroughputChart(). */
export function createThroughputSvg(): SVGSVGElement {
  const svg = document.createElementNS(SVG_NS, 'svg');
  svg.setAttribute('class', 'throughput-svg');
  return svg;
}

/** The numbers as a table (the text alternative a screen reader can walk, and exact values). */
export function throughputTable(series: readonly ThroughputSeries[], linear = true): HTMLTableElement {
  const lin = linear && series[0] ? linearSeries(series[0], series) : undefined;
  const cols = lin ? [...series, lin] : [...series];
  const tasks = [...new Set(cols.flatMap((s) => s.points.map((p) => p.tasks)))].sort((a, b) => a - b);
  const table = document.createElement('table');
  table.className = 'tp-table';
  const head = table.createTHead().insertRow();
  for (const h of ['tasks', ...cols.map((s) => s.label)]) {
    const th = document.createElement('th');
    th.scope = 'col';
    th.textContent = h;
    head.append(th);
  }
  const body = table.createTBody();
  for (const t of tasks) {
    const row = body.insertRow();
    const th = document.createElement('th');
    th.scope = 'row';
    th.textContent = String(t);
    row.append(th);
    for (const s of cols) {
      const p = s.points.find((q) => q.tasks === t);
      row.insertCell().textContent = p ? Math.round(p.score).toLocaleString('en') : '–';
    }
  }
  return table;
}
