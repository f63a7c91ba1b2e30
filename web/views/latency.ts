// The latency view: how long each page allocation or free took on the model machine, as the
// log2 histogram BCC's funclatency prints (bpf_log2l() buckets in ns of the modelled clock),
// one colour per configuration, with a marker at p50, p99 and p99.9 of each. An imported
// kernel histogram (funclatency, bpftrace hist() / lhist()) is drawn over the series its
// function measures, as an outline. A click on a bucket (or the tail button) asks the page to go
// to the longest call in it: a bubbling `latency-select` event the page that owns the player
// answers. Draws only what it is handed (latency-data.ts makes the numbers); the core counts.
import { axisBottom, axisLeft } from 'd3-axis';
import { scaleLog } from 'd3-scale';
import { select, type Selection } from 'd3-selection';
import { LAT_SERIES, seriesSummary, type LatCall, type LatRecordKind, type LatSeriesId } from '../log/latency-json';
import { el, onResize, sizeOf } from '../ui/dom';
import { figureFont } from '../ui/figfont';
import { seriesColor } from './throughput';
import { markers, mergedMarkers, modelBars, nsDomain, nsText, overlayState, realBars, tailBar, type LatencyData, type ModelBar, type RealBar } from './latency-data';
import './latency.css';

/** What a click on a bucket asks the page for: the source (its index in the data) and the call. */
export interface LatencySelect {
  source: number;
  call: LatCall;
  kind: LatRecordKind;
}

const colorOf = (i: number) => seriesColor(i);

/** d3's axis draws its own font; the figure's size comes from the stylesheet (--fig-font). */
const plainAxis = (g: ReturnType<typeof select<SVGGElement, unknown>>) => g.attr('font-size', null).attr('font-family', null);

interface Drawn {
  bars: ModelBar[][];
  real: RealBar[];
}

/** The chart into `svg`, `W` CSS px wide, labels at the figure's font size. */
function drawChart(svg: SVGSVGElement, W: number, px: number, d: LatencyData, id: LatSeriesId, showReal: boolean): Drawn {
  const bars = d.sources.map((s) => modelBars(s.report, id));
  const real = showReal && d.real ? realBars(d.real.hist) : [];
  const nSrc = Math.max(1, d.sources.length);
  // rows for the markers' labels above the plot: one per source, so two never share a line
  // the right margin holds half the last tick label ("2.1 ms"), centred on the axis end
  const M = { top: Math.round(px * 1.6 * nSrc + px * 0.6), right: Math.round(px * 2.4), bottom: Math.round(px * 3.4), left: Math.round(px * 4.2) };
  const H = Math.round(px * 18 + M.top);
  const [lo, hi] = nsDomain(bars, real);
  const x = scaleLog().base(2).domain([lo, hi]).range([M.left, W - M.right]);
  const shares = [...bars.flat().map((b) => b.share), ...real.map((b) => b.perOctave)].filter((v) => v > 0);
  const floor = Math.max(1e-4, Math.min(1, ...shares) / 2);
  const y = scaleLog().domain([floor, 100]).range([H - M.bottom, M.top]).clamp(true);
  const root = select(svg).attr('viewBox', `0 0 ${W} ${H}`).attr('width', W).attr('height', H);
  root.selectAll('*').remove();
  // ticks at powers of two, thinned until their labels fit side by side
  const octaves = Math.round(Math.log2(hi / lo));
  const room = Math.max(1, Math.floor((W - M.left - M.right) / (px * 4.2)));
  const every = Math.max(1, Math.ceil((octaves + 1) / room));
  const ticks = Array.from({ length: octaves + 1 }, (_, k) => lo * 2 ** k).filter((_, k) => k % every === 0);
  root
    .append('g')
    .attr('class', 'lat-axis lat-x')
    .attr('transform', `translate(0,${H - M.bottom})`)
    .call(axisBottom(x).tickValues(ticks).tickFormat((v) => nsText(Number(v))).tickSizeOuter(0))
    .call(plainAxis);
  root
    .append('text')
    .attr('class', 'lat-label')
    .attr('x', (M.left + W - M.right) / 2)
    .attr('y', H - px * 0.4)
    .attr('text-anchor', 'middle')
    .text('call length, log2 buckets as funclatency prints them');
  const yTicks = [100, 10, 1, 0.1, 0.01, 0.001, 0.0001].filter((v) => v >= floor);
  root
    .append('g')
    .attr('class', 'lat-axis lat-y')
    .attr('transform', `translate(${M.left},0)`)
    .call(axisLeft(y).tickValues(yTicks).tickFormat((v) => `${Number(v)}%`).tickSize(-(W - M.left - M.right)).tickSizeOuter(0))
    .call(plainAxis);
  // each bucket: the sources side by side inside its octave, filled; a click goes to its call
  const plot = root.append('g').attr('class', 'lat-bars');
  bars.forEach((bs, i) => {
    const kind = LAT_SERIES.find((s) => s.id === id)!.record;
    for (const b of bs) {
      const x0 = x(Math.max(b.lo, lo));
      const x1 = x(Math.min(b.hi, hi));
      const w = (x1 - x0) / nSrc;
      const rect = plot
        .append('rect')
        .attr('class', `lat-bar${b.longest ? ' lat-go' : ''}${b === tailBar(bs) ? ' lat-tail' : ''}`)
        .attr('x', x0 + i * w + 1)
        .attr('width', Math.max(1, w - 2))
        .attr('y', y(b.share))
        .attr('height', Math.max(1, y(floor) - y(b.share)))
        .attr('fill', colorOf(i))
        .attr('data-source', i)
        .attr('data-slot', b.slot);
      rect.append('title').text(`${d.sources[i]!.label}: ${b.count.toLocaleString('en')} calls of ${nsText(b.lo)} to ${nsText(b.hi)} (${b.share.toPrecision(3)}%)${b.longest ? `; click: the longest, ${nsText((b.longest.cycles * 1000) / d.sources[i]!.report.cyclesPerUs)} on cpu ${b.longest.cpu}` : ''}`);
      if (b.longest) {
        const call = b.longest;
        rect.on('click', () => svg.dispatchEvent(new CustomEvent<LatencySelect>('latency-select', { bubbles: true, detail: { source: i, call, kind } })));
      }
    }
  });
  // the kernel's histogram: an outline over the model's bars, each bucket its share per octave
  if (real.length) {
    const g = root.append('g').attr('class', 'lat-real');
    for (const b of real) {
      const x0 = x(Math.max(b.lo, lo));
      const x1 = x(Math.min(b.hi, hi));
      g.append('rect')
        .attr('x', x0)
        .attr('width', Math.max(1, x1 - x0))
        .attr('y', y(b.perOctave))
        .attr('height', Math.max(1, y(floor) - y(b.perOctave)))
        .append('title')
        .text(`${d.real!.label}: ${b.count.toLocaleString('en')} of ${nsText(b.lo)} to ${nsText(b.hi)} (${b.share.toPrecision(3)}%)`);
    }
  }
  // p50 / p99 / p99.9 of each source: a line across the plot, its label in the source's row
  d.sources.forEach((s, i) => {
    // two marks a few pixels apart (p99 and p99.9 in one bucket) share one label, or they overprint
    let prev: { x: number; label: Selection<SVGTextElement, unknown, null, undefined> } | undefined;
    for (const m of mergedMarkers(markers(s.report, id))) {
      if (m.ns < lo || m.ns > hi) continue;
      const mx = x(Math.max(m.ns, lo));
      const g = root.append('g').attr('class', 'lat-marker').attr('data-source', i);
      g.append('line').attr('x1', mx).attr('x2', mx).attr('y1', M.top - px * 0.3).attr('y2', H - M.bottom).attr('stroke', colorOf(i));
      g.append('title').text(`${s.label}: ${m.names.join(' = ')} = ${nsText(m.ns)}${m.exact ? '' : ' (within 1/128)'}`);
      if (prev && mx - prev.x < px * 5) {
        prev.label.text(`${prev.label.text()}, ${m.names.join(' = ')}`);
        continue;
      }
      const label = g
        .append('text')
        .attr('x', mx)
        .attr('y', px * 1.6 * (i + 1))
        .attr('text-anchor', mx > W - M.right - px * 4 ? 'end' : mx < M.left + px * 4 ? 'start' : 'middle')
        .attr('fill', colorOf(i))
        .text(m.names.join(' = '));
      prev = { x: mx, label };
    }
  });
  return { bars, real };
}

/** Each source's figures in a table: calls, p50, p99, p99.9, the longest (readable without the chart). */
function table(d: LatencyData, id: LatSeriesId): HTMLTableElement {
  const t = el('table', { class: 'isum-table lat-table' }, el('caption', { text: `${LAT_SERIES.find((s) => s.id === id)!.title}: model time (${d.sources[0]?.report.cyclesPerUs ?? 2500} cycles a µs)` }));
  const head = el('tr');
  for (const h of ['configuration', 'calls', 'p50', 'p99', 'p99.9', 'longest']) head.append(el('th', { scope: 'col', text: h }));
  const body = el('tbody');
  d.sources.forEach((s, i) => {
    const sm = seriesSummary(s.report, id);
    const f = (c: number) => (Number.isFinite(c) ? nsText((c * 1000) / s.report.cyclesPerUs) : 'n/a');
    const row = el('tr', {}, el('th', { scope: 'row' }, el('span', { class: 'swatch', style: `background:${colorOf(i)}` }), ` ${s.label}`));
    for (const v of [sm.count.toLocaleString('en'), f(sm.p50), f(sm.p99), f(sm.p999), sm.count ? f(sm.max) : 'n/a']) row.append(el('td', { text: v }));
    body.append(row);
  });
  t.append(el('thead', {}, head), body);
  return t;
}

export function createLatencyView(body: HTMLElement): { update(d: LatencyData): void } {
  const seriesSel = el('select', { class: 'lat-series', 'aria-label': 'which calls' });
  for (const s of LAT_SERIES) seriesSel.append(el('option', { value: s.id, text: s.title }));
  const note = el('p', { class: 'hint lat-note', role: 'status' });
  const chartBox = el('div', { class: 'lat-chart-box' });
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  svg.setAttribute('class', 'lat-chart');
  svg.setAttribute('role', 'img');
  // named before any run draws it: an imported trace has no latencies, and an image needs a name
  svg.setAttribute('aria-label', 'Latency histogram: no run with latencies yet');
  chartBox.append(svg);
  const tail = el('div', { class: 'lat-tail-buttons' });
  // a wide table scrolls in its box, which the keyboard must reach too
  const tableBox = el('div', { class: 'lat-table-box', tabindex: 0, role: 'region', 'aria-label': 'latency percentiles per run' });
  body.append(el('label', { class: 'lat-pick', text: 'calls ' }, seriesSel), note, chartBox, tail, tableBox);
  let last: LatencyData | undefined;
  let drawnAt = 0;
  const draw = () => {
    const d = last;
    if (!d) return;
    const id = seriesSel.value as LatSeriesId;
    const ov = overlayState(d, id);
    const empty = d.sources.every((s) => !seriesSummary(s.report, id).count);
    note.textContent = [empty ? `No ${LAT_SERIES.find((s) => s.id === id)!.title} in ${d.sources.length > 1 ? 'these runs' : 'this run'}.` : '', ov.note].filter(Boolean).join(' ');
    drawnAt = Math.round(sizeOf(chartBox).w) || 640;
    const px = figureFont(body).px;
    const { bars } = drawChart(svg, Math.max(280, drawnAt), px, d, id, ov.draw);
    svg.setAttribute('aria-label', `Latency of ${LAT_SERIES.find((s) => s.id === id)!.title}, log2 buckets: ${d.sources.map((s, i) => `${s.label} ${bars[i]!.length} buckets`).join('; ')}`);
    // the tail of each source, as a button a keyboard reaches (the bars are for the mouse)
    tail.replaceChildren(
      ...d.sources.flatMap((s, i) => {
        const t = tailBar(bars[i]!);
        if (!t?.longest) return [];
        const call = t.longest;
        const kind = LAT_SERIES.find((x) => x.id === id)!.record;
        const b = el('button', { type: 'button', class: 'small lat-tail-go', 'data-source': i, text: `${d.sources.length > 1 ? `${s.label}: ` : ''}go to the longest call (${nsText((call.cycles * 1000) / s.report.cyclesPerUs)}, cpu ${call.cpu}) ▶` });
        b.addEventListener('click', () => b.dispatchEvent(new CustomEvent<LatencySelect>('latency-select', { bubbles: true, detail: { source: i, call, kind } })));
        return [b];
      }),
    );
    tableBox.replaceChildren(table(d, id));
  };
  seriesSel.addEventListener('change', draw);
  onResize(chartBox, () => {
    if (last && Math.round(sizeOf(chartBox).w) !== drawnAt) draw();
  });
  return {
    update(d) {
      // the runs do not change while the player plays: draw only new data
      if (d === last) return;
      const prev = last;
      last = d;
      if (d.series && d.series !== prev?.series) seriesSel.value = d.series;
      draw();
    },
  };
}
