// pcp refill and drain sizes: how many pages each rmqueue_bulk() refill and each drain moved,
// per CPU or summed, for a model run (filled bars) and an imported kernel trace (outlined bars)
// on one chart each, so a user sees where the model and their kernel differ. The bars are
// shares of each source's own refills (or drains): a trace of 1 s and a model run of 50 ms
// then stand side by side. The x axis is pages on a log2 scale, ticked at batch x 2^k (63, 126,
// ... 2016), the sizes a 6.7+ kernel refills with. Draws only what it is handed; the core counts.
import { axisBottom, axisLeft } from 'd3-axis';
import { format } from 'd3-format';
import { scaleLinear, scaleLog } from 'd3-scale';
import { select } from 'd3-selection';
import { histBins, histCpus, histTotals, type PcpHistKind, type PcpHistogram } from '../log/pcphist-json';
import { el, onResize, sizeOf } from '../ui/dom';
import './pcphist.css';

export interface PcpHistSource {
  /** "model: v6.19, page_fault1, 2 tasks", "trace: pf1.perf.txt" */
  label: string;
  hist: PcpHistogram;
}

/** What the view draws: the model's run, a trace's, or both over each other. */
export interface PcpHistData {
  model?: PcpHistSource;
  trace?: PcpHistSource;
}

const MODEL_COLOR = '#56B4E9';
const TRACE_COLOR = '#E69F00';
const H = 220;
const M = { top: 26, right: 16, bottom: 42, left: 52 };
const pct = format('.1~f');
const KINDS: { kind: PcpHistKind; title: string; what: string }[] = [
  { kind: 'refill', title: 'refills: rmqueue_bulk()', what: 'pages put on the list by one refill' },
  { kind: 'drain', title: 'drains: free_pcppages_bulk()', what: 'pages one drain gave back' },
];

/** The sizes of one source and kind as shares (%) of that source's events. */
function shares(src: PcpHistSource | undefined, kind: PcpHistKind, cpu: number | undefined): [number, number, number][] {
  if (!src) return [];
  const bins = histBins(src.hist, kind, cpu);
  const total = bins.reduce((n, [, c]) => n + c, 0);
  return total ? bins.map(([size, count]) => [size, count, (100 * count) / total]) : [];
}

/** A sentence per source: how many, which sizes, the most common one. */
function describe(src: PcpHistSource | undefined, kind: PcpHistKind, cpu: number | undefined): string {
  if (!src) return '';
  const bins = histBins(src.hist, kind, cpu);
  if (!bins.length) return `${src.label}: no ${kind}s.`;
  const n = bins.reduce((s, [, c]) => s + c, 0);
  const top = [...bins].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0]!;
  const sizes = bins.length <= 8 ? bins.map(([s]) => s).join(', ') : `${bins[0]![0]} to ${bins.at(-1)![0]} (${bins.length} sizes)`;
  return `${src.label}: ${n.toLocaleString('en')} ${kind}${n === 1 ? '' : 's'} of ${sizes} pages; most often ${top[0]} (${top[1].toLocaleString('en')}x).`;
}

/** One chart, drawn `width` wide (a phone's is narrower, its text the same size). */
function drawKind(box: HTMLElement, width: number, kind: PcpHistKind, title: string, what: string, d: PcpHistData, cpu: number | undefined): void {
  const W = Math.max(300, Math.min(640, Math.round(width) || 640));
  const model = shares(d.model, kind, cpu);
  const trace = shares(d.trace, kind, cpu);
  const sizes = [...model, ...trace].map(([s]) => s);
  const maxSize = Math.max(2048, ...sizes);
  const x = scaleLog().base(2).domain([1, maxSize * 1.3]).range([M.left, W - M.right]);
  const maxShare = Math.max(10, ...model.map((b) => b[2]), ...trace.map((b) => b[2]));
  const y = scaleLinear().domain([0, maxShare]).nice().range([H - M.bottom, M.top]);
  const label = `${title} (${cpu === undefined ? 'all CPUs' : `cpu ${cpu}`}): ${[describe(d.model, kind, cpu), describe(d.trace, kind, cpu)].filter(Boolean).join(' ')}`;
  const chart = select(box)
    .append('svg')
    .attr('viewBox', `0 0 ${W} ${H}`)
    .attr('role', 'img')
    .attr('aria-label', label)
    .attr('class', 'pcphist-chart');
  chart.append('text').attr('x', M.left).attr('y', 16).attr('class', 'pcphist-title').text(title);
  // shares on the left (d3-axis), its ticks drawn across as the grid
  chart
    .append('g')
    .attr('class', 'pcphist-axis pcphist-y')
    .attr('transform', `translate(${M.left},0)`)
    .call(
      axisLeft(y)
        .ticks(4)
        .tickFormat((v) => `${String(v)}%`)
        .tickSize(-(W - M.left - M.right))
        .tickSizeOuter(0),
    )
    .attr('font-size', null)
    .attr('font-family', null);
  // pages on a log2 axis, ticked at 1, 8, then batch x 2^k (63 .. 2016) and powers of two
  // beyond; on a narrow chart the in-between ticks go, so the labels do not overlap
  const narrow = W < 420;
  const ticks = [1, 8, 63, 126, 252, 504, 1008, 2016, ...[4096, 8192, 16384, 32768, 65536].filter((v) => v <= maxSize)].filter(
    (v) => !narrow || ![126, 504, 1008, 8192, 32768].includes(v),
  );
  chart
    .append('g')
    .attr('class', 'pcphist-axis pcphist-x')
    .attr('transform', `translate(0,${H - M.bottom})`)
    .call(axisBottom(x).tickValues(ticks).tickFormat((v) => String(v)).tickSize(4).tickSizeOuter(0))
    .attr('font-size', null)
    .attr('font-family', null);
  chart
    .append('text')
    .attr('x', (M.left + W - M.right) / 2)
    .attr('y', H - 6)
    .attr('text-anchor', 'middle')
    .attr('class', 'pcphist-label')
    .text(`${what} (log scale)`);
  // bars: the model filled, the trace outlined beside it, each a share of its own total
  const bar = (bins: [number, number, number][], color: string, dx: number, filled: boolean, who: string) => {
    chart
      .selectAll(`rect.pcphist-${who}`)
      .data(bins)
      .join('rect')
      .attr('class', `pcphist-bar pcphist-${who}`)
      .attr('x', ([size]) => x(size) + dx)
      .attr('y', ([, , share]) => y(share))
      .attr('width', 5)
      .attr('height', ([, , share]) => Math.max(1, y(0) - y(share)))
      .attr('fill', filled ? color : 'none')
      .attr('stroke', color)
      .attr('stroke-width', filled ? 0 : 1.5)
      .append('title')
      .text(([size, count, share]) => `${who}: ${count.toLocaleString('en')} ${kind}${count === 1 ? '' : 's'} of ${size} pages (${pct(share)}%)`);
  };
  bar(model, MODEL_COLOR, -5.5, true, 'model');
  bar(trace, TRACE_COLOR, 0.5, false, 'trace');
  if (!model.length && !trace.length)
    chart
      .append('text')
      .attr('x', (M.left + W - M.right) / 2)
      .attr('y', (M.top + H - M.bottom) / 2)
      .attr('text-anchor', 'middle')
      .attr('class', 'pcphist-label')
      .text(`no ${kind}s`);
}

function totalsTable(d: PcpHistData): HTMLTableElement {
  const t = el('table', { class: 'isum-table pcphist-totals' }, el('caption', { text: 'refills and drains in all' }));
  const head = el('tr');
  for (const h of ['source', 'refills', 'pages refilled', 'drains', 'pages drained']) head.append(el('th', { scope: 'col', text: h }));
  t.append(el('thead', {}, head));
  const body = el('tbody');
  for (const src of [d.model, d.trace]) {
    if (!src) continue;
    const r = histTotals(src.hist, 'refill');
    const dr = histTotals(src.hist, 'drain');
    const row = el('tr');
    for (const c of [src.label, r.count, r.pages, dr.count, dr.pages]) row.append(el('td', { text: typeof c === 'number' ? c.toLocaleString('en') : c }));
    body.append(row);
  }
  t.append(body);
  return t;
}

export function createPcpHistView(body: HTMLElement): { update(d: PcpHistData): void } {
  const cpuSel = el('select', { class: 'pcphist-cpu', 'aria-label': 'which CPU' });
  const legend = el('p', { class: 'hint pcphist-legend' });
  const charts = el('div', { class: 'pcphist-charts' });
  const totals = el('div', { class: 'pcphist-totals-box' });
  body.append(el('label', { text: 'CPU ' }, cpuSel), legend, charts, totals);
  let last: PcpHistData = {};
  let drawnAt = 0;
  const draw = () => {
    const cpu = cpuSel.value === 'all' ? undefined : Number(cpuSel.value);
    drawnAt = Math.round(sizeOf(charts).w);
    // the grid's columns as pcphist.css lays them out: 22rem at least, 0.5rem apart
    const rem = 16;
    const cols = Math.min(KINDS.length, Math.max(1, Math.floor((drawnAt + 0.5 * rem) / (22.5 * rem))));
    const boxW = (drawnAt - (cols - 1) * 0.5 * rem) / cols;
    charts.replaceChildren();
    for (const k of KINDS) {
      const box = el('div', { class: 'pcphist-box' });
      charts.append(box);
      drawKind(box, boxW, k.kind, k.title, k.what, last, cpu);
    }
    totals.replaceChildren(totalsTable(last));
  };
  cpuSel.addEventListener('change', draw);
  // drawn at the boxes' width: a new width (a phone turned, a window resized) draws again
  onResize(charts, () => {
    if (Math.round(sizeOf(charts).w) !== drawnAt && (last.model || last.trace)) draw();
  });
  return {
    update(d) {
      last = d;
      const cpus = [...new Set([...(d.model ? histCpus(d.model.hist) : []), ...(d.trace ? histCpus(d.trace.hist) : [])])].sort((a, b) => a - b);
      const keep = cpuSel.value;
      cpuSel.replaceChildren(el('option', { value: 'all', text: 'all, summed' }), ...cpus.map((c) => el('option', { value: String(c), text: `cpu ${c}` })));
      cpuSel.value = keep && [...cpuSel.options].some((o) => o.value === keep) ? keep : 'all';
      legend.replaceChildren(
        ...(d.model ? [el('span', { class: 'pcphist-key pcphist-key-model', text: `■ ${d.model.label}` }), ' '] : []),
        ...(d.trace ? [el('span', { class: 'pcphist-key pcphist-key-trace', text: `□ ${d.trace.label}` })] : []),
        d.model || d.trace ? ' — bars are shares of each one’s own refills or drains' : 'nothing to draw yet',
      );
      draw();
    },
  };
}
