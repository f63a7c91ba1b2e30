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

import { axisBottom, axisLeft } from 'd3-axis';
import { format } from 'd3-format';
import { scaleLinear, type ScaleLinear } from 'd3-scale';
import { select } from 'd3-selection';
import { line, symbol, symbolCircle, symbolCross, symbolDiamond, symbolSquare, symbolStar, symbolTriangle } from 'd3-shape';
import 'd3-transition';
import { reducedMotion } from '../ui/dom';
import { COLORS } from '../ui/palette';
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
  /** the y axis starts at 0 (default), or spans the plotted values only, so lines a few
   * percent apart do not lie on each other */
  yFromZero?: boolean;
  /** viewBox size (default: the container's width, 360 to 640, and 360 high); the SVG itself
   * scales to its container's width */
  width?: number;
  height?: number;
}

/** Okabe–Ito, in an order where neighbours differ in lightness too (projector, colour blindness). */
const SERIES_DARK = ['#56B4E9', '#E69F00', '#009E73', '#F0E442', '#CC79A7', '#D55E00', '#0072B2', '#FFFFFF'] as const;
// on white the yellow and the white series would vanish: a darker yellow and black take their places
const SERIES_LIGHT = ['#0072B2', '#E69F00', '#009E73', '#8a7a00', '#CC79A7', '#D55E00', '#56B4E9', '#000000'] as const;
/** The colour of series i in the page's theme (Okabe–Ito, in the order the charts have always used). */
export const seriesColor = (i: number): string => {
  const set = document.documentElement.dataset['theme'] === 'light' ? SERIES_LIGHT : SERIES_DARK;
  return set[i % set.length]!;
};
/** One marker shape per series (d3-shape's symbols), so colour is never the only cue. */
const MARKERS = [symbolCircle, symbolSquare, symbolTriangle, symbolDiamond, symbolCross, symbolStar] as const;
/** the linear line and the axes: quiet, in the page's theme */
const linearColor = () => COLORS.muted;
/** how long a redraw eases lines and points to their new places (none with reduced motion) */
const EASE_MS = 300;

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

/** `s` in lines that fit `width` px at `size` px type, broken at spaces (a phone's narrow chart
 * wraps its title rather than cutting it); a word longer than a line is cut. */
export function wrapText(s: string, width: number, size: number): string[] {
  const max = Math.max(4, Math.floor(width / (size * 0.56)));
  const lines: string[] = [];
  let cur = '';
  for (const word of s.split(/\s+/)) {
    const w = word.length > max ? `${word.slice(0, max - 1)}…` : word;
    if (cur && cur.length + 1 + w.length > max) {
      lines.push(cur);
      cur = w;
    } else cur = cur ? `${cur} ${w}` : w;
  }
  if (cur) lines.push(cur);
  return lines;
}

/** The points of a series in task order, without non-finite or negative values. */
function clean(s: ThroughputSeries): ThroughputPoint[] {
  return s.points
    .filter((p) => Number.isFinite(p.tasks) && Number.isFinite(p.score) && p.tasks > 0 && p.score >= 0)
    .sort((a, b) => a.tasks - b.tasks);
}

/** The y axis's span: 0 to the top value, or the plotted values with a little room each side
 * (at least 2 % of the top, so a flat line is not blown up to fill the plot). */
export function yDomain(pts: readonly ThroughputPoint[], fromZero: boolean): [number, number] {
  const scores = pts.map((p) => p.score);
  const hi = Math.max(1, ...scores);
  if (fromZero || !scores.length) return [0, hi];
  const lo = Math.min(...scores);
  const pad = Math.max((hi - lo) * 0.08, hi * 0.02);
  return [Math.max(0, lo - pad), hi + pad];
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

/** one child `<g class=cls>` of parent, made on the first draw */
function part(parent: Element, cls: string) {
  let g = parent.querySelector<SVGGElement>(`:scope > g.${cls}`);
  if (!g) {
    g = document.createElementNS(SVG_NS, 'g');
    g.setAttribute('class', cls);
    parent.append(g);
  }
  return select(g);
}

interface ChartFrame {
  x: ScaleLinear<number, number>;
  y: ScaleLinear<number, number>;
  w: number;
  h: number;
  m: { top: number; right: number; bottom: number; left: number };
  maxTasks: number;
  /** the chart's title, wrapped to the width */
  titleLines: string[];
}

/** The axes (d3-axis, the y ticks drawn across the plot as grid lines), their titles and the chart's. */
function drawAxes(svg: SVGSVGElement, { x, y, w: W, h: H, m, maxTasks, titleLines }: ChartFrame, opts: ThroughputChartOptions, unit: string) {
  const axes = part(svg, 'tp-axes');
  const yAxis = part(axes.node()!, 'tp-y').attr('transform', `translate(${m.left},0)`);
  yAxis.call(axisLeft(y).ticks(5).tickFormat((v) => fmtScore(Number(v))).tickSizeInner(-(W - m.left - m.right)).tickSizeOuter(0).tickPadding(6));
  yAxis.selectAll('.tick line').attr('stroke', COLORS.grid);
  const taskTicks = x.ticks(Math.min(8, maxTasks)).filter((t) => Number.isInteger(t));
  const xAxis = part(axes.node()!, 'tp-x').attr('transform', `translate(0,${H - m.bottom})`);
  xAxis.call(axisBottom(x).tickValues(taskTicks).tickFormat((v) => String(v)).tickSizeOuter(0));
  for (const a of [xAxis, yAxis]) {
    a.attr('font-size', 13).attr('font-family', null);
    a.selectAll('.domain').attr('stroke', linearColor());
    a.selectAll('.tick text').attr('fill', COLORS.text);
  }
  xAxis.selectAll('.tick line').attr('stroke', linearColor());
  const titles = [
    { cls: 'tp-xlabel', x: (m.left + W - m.right) / 2, y: H - 6, t: opts.xLabel ?? 'tasks (one per CPU)', anchor: 'middle', rotate: false },
    { cls: 'tp-ylabel', x: 14, y: (m.top + H - m.bottom) / 2, t: opts.yLabel ?? `score (${unit})`, anchor: 'middle', rotate: true },
    ...titleLines.map((t, k) => ({ cls: `tp-title tp-title-${k}`, x: m.left, y: 18 + k * 17, t, anchor: 'start', rotate: false })),
  ];
  axes
    .selectAll<SVGTextElement, (typeof titles)[number]>('text.tp-axis-title')
    .data(titles, (d) => d.cls)
    .join('text')
    .attr('class', (d) => `tp-axis-title ${d.cls}`)
    .attr('x', (d) => d.x)
    .attr('y', (d) => d.y)
    .attr('text-anchor', (d) => d.anchor)
    .attr('transform', (d) => (d.rotate ? `rotate(-90 ${d.x} ${d.y})` : null))
    .attr('font-weight', (d) => (d.cls.startsWith('tp-title') ? 650 : null))
    .attr('fill', COLORS.text)
    .attr('font-size', (d) => (d.cls.startsWith('tp-title') ? 14 : 13))
    .text((d) => d.t);
}

/**
 * Draws (or redraws) the chart into `svg`. Safe to call with empty or partial series, e.g. while
 * a sweep is still running: lines and points already there move to their new places (d3-
 * transition), new ones fade in. Axes are d3-axis, lines d3-shape.
 */
export function drawThroughputChart(
  svg: SVGSVGElement,
  series: readonly ThroughputSeries[],
  opts: ThroughputChartOptions = {},
): void {
  // the width of the box it is drawn in (a phone's is narrower), so its type stays readable
  const box = svg.parentElement?.clientWidth ?? 0;
  const W = opts.width ?? (box > 0 ? Math.max(360, Math.min(640, Math.round(box))) : 640);
  const H = opts.height ?? 360;
  svg.style.aspectRatio = `${W} / ${H}`;
  const title = opts.title ?? 'Throughput';
  const unit = opts.unit ?? 'pages/s';
  const m = { top: 12, right: 96, bottom: 44, left: 64 };
  const titleLines = opts.title ? wrapText(opts.title, W - m.left - 4, 14) : [];
  m.top += titleLines.length * 17;
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
  const x = scaleLinear().domain([0, maxTasks]).nice().range([m.left, W - m.right]);
  const y = scaleLinear().domain(yDomain(allPts, opts.yFromZero ?? true)).nice().range([H - m.bottom, m.top]);
  const ms = reducedMotion() ? 0 : EASE_MS;

  const root = select(svg);
  svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', describeThroughput(series, title));
  svg.classList.add('throughput-svg');
  drawAxes(svg, { x, y, w: W, h: H, m, maxTasks, titleLines }, opts, unit);

  const path = line<ThroughputPoint>()
    .x((p) => x(p.tasks))
    .y((p) => y(p.score));
  // end labels, nudged apart so that lines ending close together stay readable
  const labels: { y: number; text: string; color: string }[] = [];

  root
    .selectAll<SVGPathElement, ThroughputPoint[]>('path.tp-linear')
    .data(linPts.length > 1 ? [linPts] : [])
    .join((enter) => enter.append('path').attr('class', 'tp-linear').attr('fill', 'none').attr('opacity', 0).attr('d', path))
    .attr('stroke', linearColor())
    .attr('stroke-width', 1.5)
    .attr('stroke-dasharray', '6 5')
    .transition()
    .duration(ms)
    .attr('opacity', 1)
    .attr('d', path);
  if (linPts.length > 1) labels.push({ y: y(linPts.at(-1)!.score), text: lin!.label, color: linearColor() });

  const groups = root
    .selectAll<SVGGElement, (typeof lines)[number]>('g.tp-series')
    .data(lines, (l) => l.label)
    .join('g')
    .attr('class', 'tp-series')
    .attr('data-label', (l) => l.label);
  groups.each(function (l, i) {
    const color = seriesColor(i);
    const g = select(this);
    g.selectAll<SVGPathElement, ThroughputPoint[]>('path.tp-line')
      .data(l.pts.length > 1 ? [l.pts] : [])
      .join((enter) => enter.append('path').attr('class', 'tp-line').attr('fill', 'none').attr('opacity', 0).attr('d', path))
      .attr('stroke', color)
      .attr('stroke-width', 2.5)
      .transition()
      .duration(ms)
      .attr('opacity', 1)
      .attr('d', path);
    const marker = symbol(MARKERS[i % MARKERS.length]!, 72);
    g.selectAll<SVGPathElement, ThroughputPoint>('path.tp-point')
      .data(l.pts, (p) => String(p.tasks))
      .join((enter) => {
        const e = enter.append('path').attr('class', 'tp-point').attr('opacity', 0);
        e.append('title');
        e.attr('transform', (p) => `translate(${x(p.tasks)},${y(p.score)})`);
        return e;
      })
      .attr('d', marker)
      .attr('fill', color)
      .attr('stroke', color)
      .attr('stroke-width', 1.5)
      .call((sel) => sel.select('title').text((p) => `${l.label}: ${fmtScore(p.score)} ${unit} at ${p.tasks} task${p.tasks === 1 ? '' : 's'}`))
      .transition()
      .duration(ms)
      .attr('opacity', 1)
      .attr('transform', (p) => `translate(${x(p.tasks)},${y(p.score)})`);
    const last = l.pts.at(-1);
    if (last) labels.push({ y: y(last.score), text: l.label, color });
  });
  labels.sort((a, b) => a.y - b.y);
  for (let i = 1; i < labels.length; i++) labels[i]!.y = Math.max(labels[i]!.y, labels[i - 1]!.y + 14);
  part(svg, 'tp-labels')
    .selectAll<SVGTextElement, (typeof labels)[number]>('text')
    .data(labels, (l) => l.text)
    .join('text')
    .attr('x', W - m.right + 8)
    .attr('font-size', 13)
    .attr('fill', (l) => l.color)
    .text((l) => l.text)
    .transition()
    .duration(ms)
    .attr('y', (l) => l.y + 4);
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
