// "What just happened": the current record drawn as a small moving picture. A split drops the
// half expand() lists (the upper one; the lower one on the 2002 presets) to the order below, a
// merge joins a block with its buddy one order up, a refill
// moves a batch from the buddy lists to a CPU's pcp list and a drain moves pages back, and a
// prefetch races the read that needs it (a hit lands first, a late one lands after the CPU
// started waiting, a wasted one is evicted unread). Animated with d3-transition; with reduced
// motion the picture is drawn at its end at once. Everything drawn is read off the record.
import { select, type Selection } from 'd3-selection';
import 'd3-transition';
import { ACCESS_OUTCOMES, EV, FLAG, eventName, splitHalves, type EventLog, type SplitHalves } from '../log/events';
import { hexPfn } from '../log/describe';
import type { Player } from '../log/player';
import { COLORS, orderRgb, rgbCss } from '../ui/palette';
import { reducedMotion, sizeOf } from '../ui/dom';
import { figureFont } from '../ui/figfont';
import type { LegendItem } from '../ui/legend';

const SVG_NS = 'http://www.w3.org/2000/svg';
/** access outcomes a prefetch decides (blab_events.h BLAB_ACC_*) */
const PF_HIT = 5;
const PF_LATE = 6;
/** refills and drains draw at most this many pages, and say how many more */
const MAX_SQUARES = 24;

type Kind = 'split' | 'merge' | 'refill' | 'drain' | 'prefetch' | 'hit' | 'late' | 'wasted' | 'none';

/** What kind of picture record i gets. */
export function eventKind(log: EventLog, i: number | undefined): Kind {
  if (i === undefined) return 'none';
  const t = log.type[i]!;
  const end = (log.flags[i]! & FLAG.END) !== 0;
  if (t === EV.SPLIT) return 'split';
  if (t === EV.MERGE) return 'merge';
  if (t === EV.RMQUEUE_BULK && !end) return 'refill';
  if (t === EV.PCP_DRAIN && !end) return 'drain';
  if (t === EV.PREFETCH) return 'prefetch';
  if (t === EV.PREFETCH_WASTED) return 'wasted';
  if (t === EV.ACCESS) {
    const o = log.flags[i]! & FLAG.OUTCOME_MASK;
    if (o === PF_HIT) return 'hit';
    if (o === PF_LATE) return 'late';
  }
  return 'none';
}

/** how far back a record with no picture looks for the last one that has one */
const LOOK_BACK = 512;

/**
 * The record the picture shows at record i: i itself when it has a picture, else the last one
 * before it that had (a refill in progress while its pages go on the list), else undefined.
 */
export function picturedRecord(log: EventLog, i: number | undefined): number | undefined {
  if (i === undefined) return undefined;
  for (let j = i; j >= 0 && j >= i - LOOK_BACK; j--) if (eventKind(log, j) !== 'none') return j;
  return undefined;
}

/** The colours of the picture for the current record, for its legend. */
export function eventLegend(p: Player): LegendItem[] {
  const i = picturedRecord(p.log, p.currentIndex());
  const max = p.state.geo.maxOrder;
  const o = i === undefined ? 0 : p.log.order[i]!;
  switch (eventKind(p.log, i)) {
    case 'split':
      return [
        { color: rgbCss(orderRgb(o + 1, max)), label: `order ${o + 1} block` },
        { color: rgbCss(orderRgb(o, max)), label: `its halves, order ${o}` },
        { color: COLORS.buddy, label: `${i === undefined ? 'upper' : splitHalves(p.log, i).side} half, to free_area`, kind: 'outline' },
      ];
    case 'merge':
      return [
        { color: rgbCss(orderRgb(o, max)), label: `order ${o}: the block and its buddy` },
        { color: rgbCss(orderRgb(o + 1, max)), label: `merged, order ${o + 1}` },
        { color: COLORS.buddy, label: 'the buddy', kind: 'outline' },
      ];
    case 'refill':
    case 'drain':
      return [
        { color: rgbCss(orderRgb(o, max)), label: 'free on the buddy lists' },
        { color: COLORS.pcpHot, label: 'on the pcp list' },
      ];
    case 'prefetch':
    case 'hit':
    case 'late':
    case 'wasted':
      return [
        { color: COLORS.holding, label: 'prefetched line in flight' },
        { color: COLORS.compaction, label: 'landed before the read (hit)' },
        { color: COLORS.pcpHot, label: 'the CPU waits (late)' },
        { color: COLORS.mergeSkipped, label: 'evicted unread (wasted)' },
      ];
    default:
      return [];
  }
}

type G = Selection<SVGGElement, unknown, null, undefined>;

export function createEventView(body: HTMLElement) {
  const svg = document.createElementNS(SVG_NS, 'svg');
  svg.setAttribute('class', 'event-svg');
  svg.setAttribute('role', 'img');
  // the caption is HTML under the picture: a long one wraps instead of running off the SVG
  const caption = document.createElement('p');
  caption.className = 'ev-caption';
  body.append(svg, caption);
  let drawn: { log: EventLog; i: number | undefined } | undefined;

  function update(p: Player) {
    const i = p.currentIndex();
    if (drawn && drawn.log === p.log && drawn.i === i) return;
    drawn = { log: p.log, i };
    draw(p, i);
  }

  function draw(p: Player, now: number | undefined) {
    const f = figureFont(svg);
    const fs = f.px;
    const W = Math.max(200, Math.round(sizeOf(body).w || 600));
    const rowH = Math.round(fs * 2.2);
    const H = Math.round(rowH * 2 + fs * 1.2);
    svg.setAttribute('width', String(W));
    svg.setAttribute('height', String(H));
    svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
    svg.style.fontSize = `${fs}px`;
    const root = select(svg);
    root.selectAll('*').interrupt().remove();
    const g: G = root.append('g');
    // a record with no picture of its own shows the last one that had, still, and says so
    const i = picturedRecord(p.log, now);
    const kind = eventKind(p.log, i);
    svg.dataset['kind'] = kind;
    // the animation's length: a moment to see it, nothing when motion is reduced or it is past
    const dur = reducedMotion() || i !== now ? 0 : 650;
    const before = i !== undefined && now !== undefined && i !== now ? `Record ${i}, ${now - i} before this one: ` : '';
    const L = { fs, W, H, rowH, dur, labelW: Math.round(fs * 8.5), caption: (t: string) => (caption.textContent = before + t) };
    caption.textContent = '';
    if (i === undefined || kind === 'none') {
      const what = now === undefined ? 'before the first record' : `${eventName(p.log.type[now]!)}: nothing has moved between lists or caches lately`;
      text(g, L.W / 2, L.H / 2, what, 'middle').attr('class', 'ev-muted');
      svg.setAttribute('aria-label', what);
      return;
    }
    const max = p.state.geo.maxOrder;
    const log = p.log;
    const cpu = log.cpu[i]!;
    const pfn = log.pfn[i]!;
    const o = log.order[i]!;
    switch (kind) {
      case 'split': {
        const halves = splitHalves(log, i);
        split(g, L, pfn, o, max, halves);
        svg.setAttribute('aria-label', `expand(): the order-${o + 1} block at pfn ${hexPfn(pfn)} splits; its ${halves.side} half goes to free_area[${o}]`);
        break;
      }
      case 'merge': {
        const buddy = log.pfn[0]! + log.arg0[i]!;
        merge(g, L, pfn, buddy, o, max);
        svg.setAttribute('aria-label', `__free_one_page(): pfn ${hexPfn(pfn)} and its buddy ${hexPfn(buddy)} merge into an order-${o + 1} block`);
        break;
      }
      case 'refill':
      case 'drain': {
        const n = log.arg0[i]!;
        move(g, L, kind, cpu, n, o, max);
        svg.setAttribute('aria-label', kind === 'refill' ? `rmqueue_bulk(): ${n} blocks from the buddy lists to cpu ${cpu}'s pcp list` : `free_pcppages_bulk(): ${n} pages from cpu ${cpu}'s pcp list back to the buddy lists`);
        break;
      }
      default: {
        const cycles = log.arg0[i]!;
        race(g, L, kind, pfn, cycles);
        const outcome = kind === 'wasted' ? 'wasted' : kind === 'prefetch' ? 'issued' : ACCESS_OUTCOMES[log.flags[i]! & FLAG.OUTCOME_MASK];
        svg.setAttribute('aria-label', `prefetch of pfn ${hexPfn(pfn)}: ${outcome}`);
      }
    }
  }

  return { update };
}

interface Layout {
  fs: number;
  W: number;
  H: number;
  rowH: number;
  dur: number;
  labelW: number;
  /** the line under the picture */
  caption(text: string): void;
}

function text(g: G, x: number, y: number, s: string, anchor: 'start' | 'middle' | 'end' = 'start') {
  return g.append('text').attr('x', x).attr('y', y).attr('text-anchor', anchor).attr('dominant-baseline', 'middle').text(s);
}

function block(g: G, x: number, y: number, w: number, h: number, fill: string, stroke?: string) {
  return g
    .append('rect')
    .attr('x', x)
    .attr('y', y)
    .attr('width', w)
    .attr('height', h)
    .attr('rx', 3)
    .attr('fill', fill)
    .attr('stroke', stroke ?? 'none')
    .attr('stroke-width', stroke ? 3 : 0);
}

/** Two rows, order o+1 above order o; the plot starts after the row labels. */
function rows(g: G, L: Layout, upper: string, lower: string) {
  const y0 = L.fs * 0.4;
  const y1 = y0 + L.rowH;
  text(g, 0, y0 + L.rowH / 2, upper).attr('class', 'ev-label');
  text(g, 0, y1 + L.rowH / 2, lower).attr('class', 'ev-label');
  return { y0, y1, x0: L.labelW, w: L.W - L.labelW - L.fs };
}

/** A split: the listed half (outlined) drops to free_area[o], the kept one stays to be cut further. */
function split(g: G, L: Layout, pfn: number, o: number, max: number, halves: SplitHalves) {
  const { y0, y1, x0, w } = rows(g, L, `order ${o + 1}`, `free_area[${o}]`);
  const bw = Math.min(w, L.fs * 16);
  const h = L.rowH - 6;
  const half = bw / 2;
  const colour = rgbCss(orderRgb(o, max));
  const [keptX, listedX] = halves.side === 'upper' ? [x0, x0 + half + 2] : [x0 + half + 2, x0];
  const whole = block(g, x0, y0 + 3, bw, h, rgbCss(orderRgb(o + 1, max)));
  const kept = block(g, keptX, y0 + 3, half - 2, h, colour).attr('opacity', 0);
  const listed = block(g, listedX, y0 + 3, half - 2, h, colour, COLORS.buddy).attr('opacity', 0).classed('ev-moving', true);
  whole.transition().duration(L.dur / 3).attr('opacity', 0);
  kept.transition().duration(L.dur / 3).attr('opacity', 1);
  listed.transition().duration(L.dur / 3).attr('opacity', 1).transition().duration(L.dur).attr('y', y1 + 3);
  text(g, x0 + bw + L.fs, y0 + L.rowH / 2, `pfn ${hexPfn(pfn)} .. ${hexPfn(pfn + 2 ** (o + 1) - 1)}`).attr('class', 'ev-note');
  const keptSide = halves.side === 'upper' ? 'lower' : 'upper';
  L.caption(`expand(): the ${halves.side} half, pfn ${hexPfn(halves.listed)}, goes on free_area[${o}]; the ${keptSide} half, pfn ${hexPfn(halves.kept)}, is split further or handed out.`);
}

function merge(g: G, L: Layout, pfn: number, buddy: number, o: number, max: number) {
  const { y0, y1, x0, w } = rows(g, L, `order ${o + 1}`, `free_area[${o}]`);
  const bw = Math.min(w, L.fs * 16);
  const h = L.rowH - 6;
  const half = bw / 2;
  const [left, right] = pfn < buddy ? [pfn, buddy] : [buddy, pfn];
  const colour = rgbCss(orderRgb(o, max));
  const a = block(g, x0 - L.fs, y1 + 3, half - 2, h, colour, left === buddy ? COLORS.buddy : COLORS.highlight).classed('ev-moving', true);
  const b = block(g, x0 + half + 2 + L.fs, y1 + 3, half - 2, h, colour, right === buddy ? COLORS.buddy : COLORS.highlight).classed('ev-moving', true);
  a.transition().duration(L.dur).attr('x', x0).attr('y', y0 + 3);
  b.transition().duration(L.dur).attr('x', x0 + half + 2).attr('y', y0 + 3);
  block(g, x0, y0 + 3, bw, h, rgbCss(orderRgb(o + 1, max)))
    .attr('opacity', 0)
    .transition()
    .delay(L.dur)
    .duration(L.dur / 3)
    .attr('opacity', 1);
  text(g, x0 + bw + L.fs, y1 + L.rowH / 2, `pfn ${hexPfn(pfn)} + buddy ${hexPfn(buddy)}`).attr('class', 'ev-note');
  L.caption(`__free_one_page(): buddy pfn = ${hexPfn(pfn)} ^ (1 << ${o}) = ${hexPfn(buddy)}, free: one order-${o + 1} block at pfn ${hexPfn(left)}.`);
}

function move(g: G, L: Layout, kind: 'refill' | 'drain', cpu: number, n: number, o: number, max: number) {
  const boxW = (L.W - L.fs * 4) / 2;
  const top = L.fs * 1.8;
  const boxH = L.H - top - 4;
  const buddyX = 0;
  const pcpX = L.W - boxW;
  g.append('rect').attr('class', 'ev-box').attr('x', buddyX).attr('y', top).attr('width', boxW).attr('height', boxH).attr('rx', 6);
  g.append('rect').attr('class', 'ev-box').attr('x', pcpX).attr('y', top).attr('width', boxW).attr('height', boxH).attr('rx', 6);
  text(g, buddyX, top - L.fs * 0.8, `free_area[${o}] (buddy)`).attr('class', 'ev-label');
  text(g, pcpX, top - L.fs * 0.8, `cpu ${cpu}'s pcp list`).attr('class', 'ev-label');
  const shown = Math.min(n, MAX_SQUARES);
  const sq = Math.max(6, Math.min(L.fs, (boxW - 8) / Math.min(shown, 12) - 3));
  const perRow = Math.max(1, Math.floor((boxW - 8) / (sq + 3)));
  const at = (x: number, k: number) => ({ x: x + 6 + (k % perRow) * (sq + 3), y: top + 6 + Math.floor(k / perRow) * (sq + 3) });
  const [from, to] = kind === 'refill' ? [buddyX, pcpX] : [pcpX, buddyX];
  const fromColour = kind === 'refill' ? rgbCss(orderRgb(o, max)) : COLORS.pcpHot;
  const toColour = kind === 'refill' ? COLORS.pcpHot : rgbCss(orderRgb(o, max));
  for (let k = 0; k < shown; k++) {
    const a = at(from, k);
    const b = at(to, k);
    block(g, a.x, a.y, sq, sq, fromColour)
      .classed('ev-moving', true)
      .transition()
      .delay(L.dur === 0 ? 0 : (k * L.dur) / shown / 2)
      .duration(L.dur)
      .attr('x', b.x)
      .attr('y', b.y)
      .attr('fill', toColour);
  }
  const more = n > shown ? ` (${n - shown} more not drawn)` : '';
  L.caption(kind === 'refill' ? `rmqueue_bulk(): ${n} ${n === 1 ? 'block' : 'blocks'} under one zone->lock hold${more}.` : `free_pcppages_bulk(): ${n} pages back to the buddy${more}.`);
}

/** A prefetched line racing the read that needs it, on one time axis. */
function race(g: G, L: Layout, kind: Kind, pfn: number, cycles: number) {
  const x0 = L.labelW;
  const x1 = L.W - L.fs;
  const y = L.fs * 0.4 + L.rowH * 0.9;
  g.append('line').attr('class', 'ev-axis').attr('x1', x0).attr('x2', x1).attr('y1', y).attr('y2', y);
  text(g, 0, y, `pfn ${hexPfn(pfn)}`).attr('class', 'ev-label');
  const issue = x0;
  const use = x0 + (x1 - x0) * 0.55;
  const land = kind === 'late' ? x0 + (x1 - x0) * 0.85 : x0 + (x1 - x0) * 0.35;
  g.append('line').attr('class', 'ev-tick').attr('x1', issue).attr('x2', issue).attr('y1', y - L.fs).attr('y2', y + L.fs);
  text(g, issue, y + L.fs * 1.6, 'prefetch()', 'start').attr('class', 'ev-note');
  if (kind !== 'prefetch' && kind !== 'wasted') {
    g.append('line').attr('class', 'ev-tick ev-use').attr('x1', use).attr('x2', use).attr('y1', y - L.fs).attr('y2', y + L.fs);
    text(g, use, y - L.fs * 1.5, 'the read', 'middle').attr('class', 'ev-note');
  }
  const sq = L.fs;
  const line = block(g, issue, y - sq / 2, sq, sq, COLORS.holding).classed('ev-moving', true);
  const end = kind === 'prefetch' ? x1 - sq : kind === 'wasted' ? use : land;
  const arrived = kind === 'hit' ? COLORS.compaction : kind === 'late' ? COLORS.pcpHot : COLORS.holding;
  const t = line.transition().duration(L.dur).attr('x', end - sq / 2).attr('fill', arrived);
  if (kind === 'late') {
    // the CPU reached the read first and waits for the rest of the flight
    block(g, use, y - sq * 0.15, land - use, sq * 0.3, COLORS.pcpHot).attr('opacity', 0).transition().delay(L.dur).duration(L.dur / 3).attr('opacity', 1);
  }
  if (kind === 'wasted') t.transition().duration(L.dur).attr('fill', COLORS.mergeSkipped).attr('opacity', 0.35);
  const said =
    kind === 'hit'
      ? `prefetch hit: the line landed before the read (${cycles} cycles paid)`
      : kind === 'late'
        ? `late prefetch: the read waited ${cycles} cycles for a line still in flight`
        : kind === 'wasted'
          ? 'wasted: the prefetched line was evicted before anyone read it'
          : `prefetch(): the line lands in ${cycles} cycles; the CPU goes on meanwhile`;
  L.caption(said);
}
