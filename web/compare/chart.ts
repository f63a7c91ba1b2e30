// Throughput against tasks for every configuration of a compare, and the linear line (the
// first configuration's 1-task score times tasks), as an SVG the export can save as it is.
// Each line also carries its name at its end, so colour is never the only cue.
import { scaleLinear } from 'd3-scale';

const SVG_NS = 'http://www.w3.org/2000/svg';
/** Okabe-Ito, distinct under colour blindness and on the dark background */
export const SERIES_COLORS = ['#56B4E9', '#E69F00', '#CC79A7', '#009E73'] as const;

export interface Series {
  label: string;
  points: { tasks: number; score: number }[];
}

function node<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Record<string, string | number>, text?: string): SVGElementTagNameMap[K] {
  const e = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (text !== undefined) e.textContent = text;
  return e;
}

export function drawThroughputChart(series: Series[], title: string): SVGSVGElement {
  const W = 640;
  const H = 320;
  const M = { l: 84, r: 130, t: 28, b: 44 };
  const svg = node('svg', { viewBox: `0 0 ${W} ${H}`, class: 'throughput-chart', role: 'img', 'aria-label': title });
  svg.append(node('title', {}, title));
  const tasks = [...new Set(series.flatMap((s) => s.points.map((p) => p.tasks)))].sort((a, b) => a - b);
  const first = series[0]?.points.find((p) => p.tasks === 1)?.score;
  const linear = first === undefined ? [] : tasks.map((t) => ({ tasks: t, score: first * t }));
  const maxY = Math.max(1, ...series.flatMap((s) => s.points.map((p) => p.score)), ...linear.map((p) => p.score));
  const x = scaleLinear().domain([0, Math.max(1, ...tasks)]).range([M.l, W - M.r]);
  const y = scaleLinear().domain([0, maxY]).nice().range([H - M.b, M.t]);
  const axis = node('g', { class: 'axis', fill: '#aab4c0', 'font-size': 12 });
  for (const v of y.ticks(5)) {
    axis.append(node('line', { x1: M.l, x2: W - M.r, y1: y(v), y2: y(v), stroke: '#2e3748' }));
    axis.append(node('text', { x: M.l - 6, y: y(v) + 4, 'text-anchor': 'end' }, v >= 1e6 ? `${v / 1e6}M` : String(v)));
  }
  for (const t of tasks) axis.append(node('text', { x: x(t), y: H - M.b + 16, 'text-anchor': 'middle' }, String(t)));
  axis.append(node('text', { x: (M.l + W - M.r) / 2, y: H - 6, 'text-anchor': 'middle' }, 'tasks (one per CPU)'));
  axis.append(node('text', { x: 14, y: M.t - 10 }, 'score, pages faulted per second (model)'));
  svg.append(axis);
  const path = (pts: { tasks: number; score: number }[]) => pts.map((p, i) => `${i ? 'L' : 'M'}${x(p.tasks).toFixed(1)},${y(p.score).toFixed(1)}`).join('');
  const label = (pts: { tasks: number; score: number }[], text: string, color: string, dy: number) => {
    const end = pts[pts.length - 1];
    if (end) svg.append(node('text', { x: x(end.tasks) + 6, y: y(end.score) + 4 + dy, fill: color, 'font-size': 12 }, text));
  };
  if (linear.length) {
    svg.append(node('path', { d: path(linear), fill: 'none', stroke: '#aab4c0', 'stroke-dasharray': '4 4', 'stroke-width': 1.5 }));
    label(linear, 'linear', '#aab4c0', 0);
  }
  series.forEach((s, i) => {
    const color = SERIES_COLORS[i % SERIES_COLORS.length]!;
    svg.append(node('path', { d: path(s.points), fill: 'none', stroke: color, 'stroke-width': 2.5 }));
    for (const p of s.points) svg.append(node('circle', { cx: x(p.tasks), cy: y(p.score), r: 3.5, fill: color }));
    label(s.points, s.label, color, i * 13);
  });
  return svg;
}
