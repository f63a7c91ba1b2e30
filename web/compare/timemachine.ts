// The time machine's chart (?timemachine): the score above, zone->lock contention in the same
// scored rounds below, one line per task count, the kernels in release order along one axis;
// and the table of the numbers behind it. What it runs is timemachine-runs.ts, the page that
// runs them timemachine-page.ts.
import { el } from '../ui/dom';
import { seriesColor } from '../views/throughput';
import { axisBottom, axisLeft } from 'd3-axis';
import { format } from 'd3-format';
import { scaleLinear, scaleLog, scalePoint } from 'd3-scale';
import { select } from 'd3-selection';
import { line } from 'd3-shape';
import type { TimePoint } from './timemachine-runs';

const SVG_NS = 'http://www.w3.org/2000/svg';
const fmt = format('.3~s');
/** the least distance between two line names at the chart's right edge, px */
const LABEL_GAP = 15;
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
  return `page_fault1 on the model machine across the kernels, scored rounds. ${parts.join('; ')}.`;
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
  title(M.top + plotH + M.mid - 10, narrow ? 'zone->lock, scored rounds (%)' : 'zone->lock contention (% of the scored rounds’ CPU time spinning)');
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
  // each line's name at its right end; names that would overlap (lines ending together, as
  // every one does at 0 % contention) are moved apart, the lowest kept on its line
  const labels: Record<'score' | 'contention', { x: number; y: number; color: string; text: string }[]> = { score: [], contention: [] };
  tasks.forEach((t, i) => {
    const color = seriesColor(i);
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
        .text((q) => `${q.preset}, ${t} task${t === 1 ? '' : 's'}: ${fmt(q.score)} pages/s, zone->lock ${q.contention.toFixed(2)}% in the scored rounds (${q.wholeRunContention.toFixed(2)}% over the whole run, warm-up included)`);
      const lastQ = pts.at(-1);
      if (lastQ) labels[key].push({ x: x(lastQ.preset)! + 8, y: at(lastQ) + 4, color, text: `${t} task${t === 1 ? '' : 's'}` });
    }
  });
  for (const list of Object.values(labels)) {
    list.sort((a, b) => b.y - a.y);
    list.forEach((l, i) => {
      if (i > 0) l.y = Math.min(l.y, list[i - 1]!.y - LABEL_GAP);
      root.append(svg('text', { x: l.x, y: l.y, fill: l.color, class: 'tm-label' }, l.text));
    });
  }
  host.replaceChildren(root);
}

export function timeMachineTable(points: readonly TimePoint[], presets: readonly string[], tasks: readonly number[]): HTMLTableElement {
  const t = el(
    'table',
    { class: 'isum-table tm-table' },
    el('caption', { text: 'the numbers behind the chart: score (pages/s) and zone->lock contention, both of the scored rounds; in brackets the contention of the whole run, warm-up included; under them the limit that binds the run (what its CPUs waited on longest: zone->lock, lru_lock or memory bandwidth) and the busiest socket’s memory traffic, % of what its controller carries' }),
  );
  const head = el('tr', {}, el('th', { scope: 'col', text: 'kernel' }));
  for (const n of tasks) head.append(el('th', { scope: 'col', text: `${n} task${n === 1 ? '' : 's'}` }));
  t.append(el('thead', {}, head));
  const body = el('tbody');
  for (const p of presets) {
    const row = el('tr', {}, el('th', { scope: 'row', text: p }));
    for (const n of tasks) {
      const q = points.find((x) => x.preset === p && x.tasks === n);
      row.append(
        q
          ? el(
              'td',
              {},
              el('span', { class: 'tm-v', text: fmt(q.score) }),
              el('span', { class: 'tm-sep', text: ', ' }),
              el('span', { class: 'tm-v', text: `${q.contention.toFixed(1)}%` }),
              el('span', { class: 'tm-v', text: ` (${q.wholeRunContention.toFixed(1)}%)` }),
              el('span', { class: `tm-binds is-${q.binds === 'memory bandwidth' ? 'memory' : q.binds === 'none' ? 'none' : 'lock'}`, text: `binds: ${q.binds}; memory ${q.memUtil.toFixed(0)}%` }),
            )
          : el('td', { text: '…' }),
      );
    }
    body.append(row);
  }
  t.append(body);
  return t;
}

/**
 * Which limits bind the points at the largest task count, in words, from the points the page
 * has (the core's verdict on each run): "at 112 tasks zone->lock binds every kernel" or "...
 * zone->lock binds v2.5.44 .. v5.18, memory bandwidth v6.7 .. v6.19".
 */
export function bindsSummary(points: readonly TimePoint[], presets: readonly string[], tasks: readonly number[]): string {
  const top = Math.max(...tasks);
  const at = presets.map((p) => points.find((q) => q.preset === p && q.tasks === top)).filter((q): q is TimePoint => q !== undefined);
  if (!at.length) return '';
  const groups: { binds: string; presets: string[] }[] = [];
  for (const q of at) {
    const last = groups.at(-1);
    if (last && last.binds === q.binds) last.presets.push(q.preset);
    else groups.push({ binds: q.binds, presets: [q.preset] });
  }
  const name = (b: string) => (b === 'none' ? 'nothing (no wait takes a tenth of the CPUs’ time)' : b);
  if (groups.length === 1 && at.length === presets.length) return `At ${top} tasks ${name(groups[0]!.binds)} binds every kernel.`;
  const span = (ps: string[]) => (ps.length === 1 ? ps[0]! : `${ps[0]} .. ${ps.at(-1)}`);
  return `At ${top} tasks ${groups.map((g) => `${name(g.binds)} binds ${span(g.presets)}`).join(', ')}.`;
}
