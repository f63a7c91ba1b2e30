// Hold and wait time histograms and contention, per lock (zone->lock, lru_lock), up to the
// current step: the numbers behind the lane timeline beside it. Bins are powers of two of the
// log's time unit (cycles on the model machine); the x range is fixed for the whole log so bars
// grow in place as you play instead of moving.

import { axisBottom } from 'd3-axis';
import { scaleBand } from 'd3-scale';
import { select } from 'd3-selection';
import { format } from 'd3-format';
import { LOCK_NAMES, type EventLog } from '../log/events';
import { LockHistograms, NR_BINS, binLow, type LockHistogram } from '../log/lockhistindex';
import type { Player } from '../log/player';
import { COLORS } from '../ui/palette';
import { el } from '../ui/dom';

const SVG_NS = 'http://www.w3.org/2000/svg';
const W = 300;
const H = 150;
const M = { top: 22, right: 8, bottom: 30, left: 36 };
const si = format('.3~s');
const pct = format('.1%');

/** The bins [first, last] that the whole log uses, so the axis never moves while playing. */
function usedBins(end: LockHistogram): [number, number] {
  let a = end.counts.findIndex((c) => c > 0);
  let b = NR_BINS - 1 - [...end.counts].reverse().findIndex((c) => c > 0);
  if (a < 0) [a, b] = [0, 1];
  return [a, Math.max(b, a + 1)];
}

function binLabel(k: number): string {
  return k === 0 ? '0' : si(binLow(k));
}

function drawHistogram(svg: SVGSVGElement, h: LockHistogram, range: [number, number], title: string, color: string) {
  const [a, b] = range;
  const bins = Array.from({ length: b - a + 1 }, (_, i) => a + i);
  const max = Math.max(1, ...bins.map((k) => h.counts[k]!));
  const bw = (W - M.left - M.right) / bins.length;
  const y = (v: number) => H - M.bottom - ((H - M.top - M.bottom) * v) / max;
  const root = select(svg);
  root
    .selectAll<SVGRectElement, number>('rect.lh-bar')
    .data(bins)
    .join('rect')
    .attr('class', 'lh-bar')
    .attr('x', (_, i) => M.left + i * bw + 1)
    .attr('width', Math.max(1, bw - 2))
    .attr('y', (k) => y(h.counts[k]!))
    .attr('height', (k) => H - M.bottom - y(h.counts[k]!))
    .attr('fill', color);
  // the bins' axis (d3-axis on a band scale): every other label when they are narrow
  const every = bw < 22 ? Math.ceil(22 / bw) : 1;
  const band = scaleBand<number>().domain(bins).range([M.left, W - M.right]);
  root
    .selectAll<SVGGElement, null>('g.lh-axis')
    .data([null])
    .join('g')
    .attr('class', 'lh-axis')
    .attr('transform', `translate(0,${H - M.bottom})`)
    .call(
      axisBottom(band)
        .tickValues(bins.filter((_, i) => i % every === 0))
        .tickFormat(binLabel)
        .tickSize(3)
        .tickSizeOuter(0),
    )
    .attr('font-size', null)
    .attr('font-family', null);
  root
    .selectAll<SVGTextElement, string>('text.lh-t')
    .data([title, `${h.n.toLocaleString('en')} · max bin ${max.toLocaleString('en')}`])
    .join('text')
    .attr('class', (_, i) => (i ? 'lh-t lh-sub' : 'lh-t'))
    .attr('x', (_, i) => (i ? W - M.right : M.left))
    .attr('y', 14)
    .attr('text-anchor', (_, i) => (i ? 'end' : 'start'))
    .text((d) => d);
  root
    .selectAll<SVGTextElement, string>('text.lh-unit')
    .data(['cycles (bin from)'])
    .join('text')
    .attr('class', 'lh-unit')
    .attr('x', (W + M.left) / 2)
    .attr('y', H - 2)
    .attr('text-anchor', 'middle')
    .text((d) => d);
  const words = bins
    .filter((k) => h.counts[k]! > 0)
    .map((k) => `${h.counts[k]} from ${binLabel(k)}`)
    .join(', ');
  svg.setAttribute('aria-label', `${title}: ${h.n} records${words ? `; per bin: ${words}` : ''}`);
}

export function createLockHistView(body: HTMLElement) {
  const note = el('p', {
    class: 'panel-note',
    text: 'wait = cycles a CPU spun before it got the lock (LOCK_ACQUIRE arg0); hold = cycles it kept it (LOCK_RELEASE arg0). Up to now.',
  });
  body.append(note);
  const blocks = [0, 1].map((lock) => {
    const head = el('h3', { class: 'lh-head', text: LOCK_NAMES[lock]! });
    const stats = el('p', { class: 'lh-stats' });
    const svgs = [0, 1].map(() => {
      const s = document.createElementNS(SVG_NS, 'svg');
      s.setAttribute('viewBox', `0 0 ${W} ${H}`);
      s.setAttribute('class', 'lh-svg');
      s.setAttribute('role', 'img');
      s.setAttribute('aria-label', `${LOCK_NAMES[lock]} histogram: no records yet`);
      return s;
    });
    const box = el('div', { class: 'lh-lock', 'data-lock': lock }, head, stats, el('div', { class: 'lh-pair' }, ...svgs));
    body.append(box);
    return { lock, box, stats, svgs, key: '' };
  });
  let cache: { log: EventLog; hist: LockHistograms[]; ranges: [number, number][][] } | undefined;

  function update(p: Player) {
    if (!cache || cache.log !== p.log) {
      const hist = blocks.map((b) => new LockHistograms(p.log, b.lock));
      const ranges = hist.map((h) => {
        const end = h.at(p.length);
        return [usedBins(end.wait), usedBins(end.hold)];
      });
      cache = { log: p.log, hist, ranges };
      for (const b of blocks) b.key = '';
    }
    const cpus = p.state.geo.cpus;
    const t = Math.max(1, p.state.time);
    for (const b of blocks) {
      const h = cache.hist[b.lock]!;
      if (b.box.hidden === h.present) b.box.hidden = !h.present;
      if (!h.present) continue;
      const now = h.at(p.step);
      // redraw only when a record of this lock went by
      const key = `${now.wait.n}/${now.hold.n}`;
      if (key === b.key) continue;
      b.key = key;
      const acq = now.wait.n;
      const parts = [
        `${acq.toLocaleString('en')} acquisitions`,
        acq ? `${pct(now.contended / acq)} contended` : '',
        `spinning ${pct(now.wait.total / (cpus * t))} of ${cpus} CPUs' time`,
        now.hold.n ? `mean hold ${si(now.hold.total / now.hold.n)} cycles` : '',
      ].filter((x) => x);
      b.stats.textContent = parts.join(' · ');
      drawHistogram(b.svgs[0]!, now.wait, cache.ranges[b.lock]![0]!, 'wait (spin)', COLORS.spinning);
      drawHistogram(b.svgs[1]!, now.hold, cache.ranges[b.lock]![1]!, 'hold', COLORS.holding);
    }
  }
  return { update };
}
