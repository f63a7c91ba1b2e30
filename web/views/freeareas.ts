// Free areas: one row per order, each free block a mark at its place in the zone, nr_free at
// the end of the row. The current event's blocks are outlined: for a MERGE the block and its
// buddy in row `order` and the combined block in row `order + 1`; for a SPLIT the halves.

import { scaleLinear } from 'd3-scale';
import { format } from 'd3-format';
import { select } from 'd3-selection';
import 'd3-transition';
import { EV, splitHalves, type EventLog } from '../log/events';
import { PAGE, PF, type ZoneState } from '../log/state';
import type { Player } from '../log/player';
import { fragIndex, formatIndex } from '../log/fragindex';
import { COLORS, cssRgb, orderRgb, rgbCss } from '../ui/palette';
import { beginCanvas, el, onResize, reducedMotion } from '../ui/dom';
import { figureFont } from '../ui/figfont';
import type { FigureTerm } from './terms';
import { createCanvasAxis } from '../ui/canvas-axis';
import { selectPfn } from './pfn-dialog';

/** up to this many pages, free blocks are drawn one by one; above, as per-pixel coverage */
const SMALL_ZONE = 16384;
const ROW_GAP = 6;
/** the pfn axis strip at the normal figure type; it grows with the type */
const AXIS_MIN_H = 22;
const fmt = format(',');
/** rows and the pfn axis grow with the figure type (presenter mode) */
const rowHeight = (fs: number) => Math.max(26, Math.ceil(fs * 1.35));

interface Outline {
  order: number;
  pfn: number;
  color: string;
}

function outlines(log: EventLog, i: number | undefined): Outline[] {
  if (i === undefined) return [];
  const t = log.type[i]!;
  const pfn = log.pfn[i]!;
  const o = log.order[i]!;
  const start = log.pfn[0]!;
  switch (t) {
    case EV.MERGE: {
      const buddy = start + log.arg0[i]!;
      return [
        { order: o, pfn, color: COLORS.highlight },
        { order: o, pfn: buddy, color: COLORS.buddy },
        { order: o + 1, pfn: Math.min(pfn, buddy), color: COLORS.highlight },
      ];
    }
    case EV.SPLIT: {
      const { listed, kept } = splitHalves(log, i);
      return [
        { order: o + 1, pfn, color: COLORS.highlight },
        { order: o, pfn: kept, color: COLORS.highlight },
        { order: o, pfn: listed, color: COLORS.buddy },
      ];
    }
    case EV.BUDDY_ADD:
    case EV.BUDDY_DEL:
      return [{ order: o, pfn, color: COLORS.highlight }];
    default:
      return [];
  }
}

/** True when a record between the two steps changes or explains the free lists (or too many to scan). */
function buddyRecordsBetween(log: EventLog, a: number, b: number): boolean {
  const lo = Math.min(a, b);
  const hi = Math.max(a, b);
  if (hi - lo > 4096) return true;
  for (let i = lo; i < hi; i++) {
    const t = log.type[i]!;
    if (t === EV.BUDDY_ADD || t === EV.BUDDY_DEL || t === EV.SPLIT || t === EV.MERGE || t === EV.PAGEBLOCK_MT) return true;
  }
  return false;
}

/**
 * What the free areas show of the running compactions (one per CPU that compacts): the order
 * each wants and the pageblock its scanner reached. Equal keys, equal marks: no redraw needed.
 */
function compactionKey(s: ZoneState): string {
  return s
    .runningCompactions()
    .map((c) => `${c.cpu}:${c.order}:${c.scanPfn}`)
    .join(',');
}

export function createFreeAreasView(body: HTMLElement) {
  const wrap = el('div', { class: 'freeareas' });
  const labels = el('div', { class: 'fa-labels', 'aria-hidden': 'true' });
  const canvas = el('canvas', {
    class: 'fa-canvas',
    role: 'img',
    'aria-label': 'Free blocks per order, placed by pfn. The same numbers are in the /proc/buddyinfo panel.',
  });
  const counts = el('div', { class: 'fa-counts' });
  const plot = el('div', { class: 'fa-plot canvas-host' }, canvas);
  const axis = createCanvasAxis(plot, AXIS_MIN_H, 'fa-axis');
  wrap.append(labels, plot, counts);
  body.append(wrap);
  let lastNr: number[] = [];
  let labelRows: HTMLDivElement[] = [];
  let countRows: HTMLDivElement[] = [];
  const cover = createCoverage();
  let lastStep = -1;
  let current: Player | undefined;
  // A one-step MERGE or SPLIT animates (d3-transition): the merged block rises a row, the half
  // expand() lists drops one. Only a transient overlay: the picture underneath is always the state at the step.
  let anim: { pfn: number; pages: number; fromOrder: number; toOrder: number; k: number } | undefined;
  const ANIM_MS = 320;
  // what prose points at (a pfn, an order's row, nr_free), outlined until it lets go
  let marked: FigureTerm | undefined;

  function startAnimation(p: Player) {
    const i = p.currentIndex();
    anim = undefined;
    select(canvas).interrupt('move');
    if (i === undefined || p.step !== lastStep + 1 || reducedMotion()) return;
    const t = p.log.type[i]!;
    const o = p.log.order[i]!;
    const pfn = p.log.pfn[i]!;
    if (t === EV.MERGE) {
      const buddy = p.log.pfn[0]! + p.log.arg0[i]!;
      anim = { pfn: Math.min(pfn, buddy), pages: 2 ** (o + 1), fromOrder: o, toOrder: o + 1, k: 0 };
    } else if (t === EV.SPLIT) {
      anim = { pfn: splitHalves(p.log, i).listed, pages: 2 ** o, fromOrder: o + 1, toOrder: o, k: 0 };
    }
    if (!anim) return;
    const a = anim;
    select(canvas)
      .transition('move')
      .duration(ANIM_MS)
      .tween('move', () => (k: number) => {
        a.k = k;
        if (current) draw(current, false);
      })
      .on('end interrupt', () => {
        if (anim !== a) return;
        anim = undefined;
        if (current) draw(current, false);
      });
  }

  onResize(canvas, () => {
    if (current) draw(current, false);
  });
  // a click on a free block opens the history of its first page
  canvas.addEventListener('click', (ev) => {
    const p = current;
    if (!p) return;
    const r = canvas.getBoundingClientRect();
    const s = p.state;
    const row = Math.floor((ev.clientY - r.top) / (rowHeight(figureFont(canvas).px) + ROW_GAP));
    const order = s.nrOrders - 1 - row;
    if (row < 0 || order < 0) return;
    const pfn = Math.floor(s.geo.startPfn + ((ev.clientX - r.left) / r.width) * s.geo.pages);
    const head = pfn - (pfn % 2 ** order);
    const pg = s.page(head);
    if (pg && pg.state === PAGE.BUDDY && pg.order === order) selectPfn(canvas, head);
  });

  let drawnPlayer: Player | undefined;
  let drawnOutlined = false;
  let drawnCompacting = '';
  function update(p: Player) {
    const same = p === drawnPlayer;
    const from = lastStep;
    current = p;
    if (p.step !== lastStep) startAnimation(p);
    lastStep = p.step;
    // Most records (pcp adds and deletes, allocations, accesses, locks) leave the free areas as
    // they are: then, with no outline to add or erase, the picture stands and is not redrawn.
    const outlined = outlines(p.log, p.currentIndex()).length > 0;
    const compacting = compactionKey(p.state);
    if (same && !anim && !outlined && !drawnOutlined && compacting === drawnCompacting && !buddyRecordsBetween(p.log, from, p.step)) return;
    drawnPlayer = p;
    drawnOutlined = outlined;
    drawnCompacting = compacting;
    draw(p, true);
  }

  /** fresh: a new step (labels and nr_free change marks); otherwise an animation frame */
  function draw(p: Player, fresh: boolean) {
    const s = p.state;
    const g = s.geo;
    const orders = Array.from({ length: s.nrOrders }, (_, k) => s.nrOrders - 1 - k); // top order first
    const fs = figureFont(canvas).px;
    const ROW_H = rowHeight(fs);
    const AXIS_H = Math.max(AXIS_MIN_H, Math.ceil(fs * 1.7));
    canvas.dataset['fontPx'] = String(fs);
    const height = orders.length * (ROW_H + ROW_GAP) + AXIS_H;
    if (wrap.style.height !== `${height}px`) wrap.style.height = `${height}px`;
    const nr = orders.map((o) => s.nrFreeOrder(o));
    const nrAscending = [...nr].reverse();

    if (fresh) {
      // DOM writes only where something changed: text that is set every frame costs a layout
      if (orders.length !== labelRows.length || labelRows[0]?.style.height !== `${ROW_H}px`) {
        labelRows = orders.map((o) => el('div', { class: 'fa-label', text: `order ${o}` }));
        countRows = orders.map(() => el('div', { class: 'fa-count' }, el('span'), el('span', { class: 'fa-frag' })));
        for (const d of [...labelRows, ...countRows]) {
          d.style.height = `${ROW_H}px`;
          d.style.marginBottom = `${ROW_GAP}px`;
        }
        labels.replaceChildren(...labelRows);
        counts.replaceChildren(...countRows);
        lastNr = [];
      }
      orders.forEach((o, k) => {
        const d = countRows[k]!;
        const changed = lastNr.length > 0 && lastNr[k] !== nr[k];
        if (changed !== d.classList.contains('changed')) d.classList.toggle('changed', changed);
        if (lastNr.length && lastNr.every((v, j) => v === nr[j])) return;
        const [count, frag] = d.children as unknown as [HTMLSpanElement, HTMLSpanElement];
        const t = `nr_free ${fmt(nr[k]!)}`;
        if (count.textContent !== t) count.textContent = t;
        // mm/vmstat.c's measures for a request of this order (log/fragindex.ts)
        const fi = fragIndex(nrAscending, o);
        const ft = `unusable ${formatIndex(fi.unusable)} · extfrag ${formatIndex(fi.extfrag)}`;
        if (frag.textContent !== ft) frag.textContent = ft;
      });
      lastNr = nr;
    }

    const drawing = beginCanvas(canvas);
    if (!drawing) return;
    const { ctx, w, h } = drawing;
    ctx.clearRect(0, 0, w, h);
    const x = scaleLinear().domain([g.startPfn, g.startPfn + g.pages]).range([0, w]);
    const rowY = (o: number) => (s.nrOrders - 1 - o) * (ROW_H + ROW_GAP);

    // lane backgrounds
    ctx.fillStyle = COLORS.unknown;
    for (const o of orders) ctx.fillRect(0, rowY(o), w, ROW_H);

    const colors = orders.map(() => '');
    for (let o = 0; o < s.nrOrders; o++) colors[o] = rgbCss(orderRgb(o, g.maxOrder));
    if (g.pages <= SMALL_ZONE) {
      // every block drawn on its own, with a gap between blocks once they are 4 px wide
      const pxPerPage = w / g.pages;
      for (let i = 0; i < g.pages; ) {
        if (s.pageState[i] === PAGE.BUDDY && s.pageFlags[i]! & PF.HEAD) {
          const o = s.pageOrder[i]!;
          const size = 2 ** o;
          const bw = size * pxPerPage;
          const gap = bw >= 4 ? 1 : 0;
          ctx.fillStyle = s.pageFlags[i]! & PF.MERGE_SKIPPED ? COLORS.mergeSkipped : colors[o]!;
          ctx.fillRect(i * pxPerPage, rowY(o) + 2, Math.max(bw - gap, 1), ROW_H - 4);
          i += size;
        } else i++;
      }
    } else {
      // a big zone: many pages per device pixel. One pixel column per device pixel and order,
      // coloured by how much of it is free at that order; only the columns whose pages moved
      // since the last frame are recomputed (Player.changedPages).
      const img = cover.update(p, Math.round(w * drawing.dpr));
      ctx.imageSmoothingEnabled = false;
      for (let o = 0; o < s.nrOrders; o++) ctx.drawImage(img, 0, o, img.width, 1, 0, rowY(o) + 2, w, ROW_H - 4);
    }

    // the current event's blocks
    ctx.lineWidth = 2;
    for (const ol of outlines(p.log, p.currentIndex())) {
      if (ol.order >= s.nrOrders) continue;
      const x0 = x(ol.pfn);
      const bw = Math.max(x(ol.pfn + 2 ** ol.order) - x0, 3);
      ctx.strokeStyle = ol.color;
      ctx.strokeRect(x0 - 1, rowY(ol.order), bw + 1, ROW_H);
    }

    // each running compaction, in the row of the order it wants a block of: a dashed mark over
    // the pageblock its scanner reached (the whole row before its first pageblock)
    const pbPages = 2 ** g.pageblockOrder;
    ctx.save();
    ctx.setLineDash([4, 3]);
    ctx.strokeStyle = COLORS.compaction;
    for (const c of s.runningCompactions()) {
      if (c.order >= s.nrOrders) continue;
      const x0 = c.scanPfn >= 0 ? x(Math.max(g.startPfn, c.scanPfn)) : 0;
      const x1 = c.scanPfn >= 0 ? x(Math.min(g.startPfn + g.pages, c.scanPfn - (c.scanPfn % pbPages) + pbPages)) : w;
      ctx.strokeRect(x0 + 1, rowY(c.order) + 1, Math.max(x1 - x0, 3) - 2, ROW_H - 2);
    }
    ctx.restore();

    // what the prose points at: a pfn (a band through every row), an order's row
    if (marked?.kind === 'pfn' && marked.pfn >= g.startPfn && marked.pfn < g.startPfn + g.pages) {
      ctx.strokeStyle = FOCUS;
      ctx.lineWidth = 3;
      const x0 = x(marked.pfn);
      ctx.strokeRect(x0 - 2, 0, Math.max(x(marked.pfn + 1) - x0, 3) + 4, orders.length * (ROW_H + ROW_GAP) - ROW_GAP);
    } else if (marked?.kind === 'order' && marked.order < s.nrOrders) {
      ctx.strokeStyle = FOCUS;
      ctx.lineWidth = 3;
      ctx.strokeRect(1.5, rowY(marked.order) + 1.5, w - 3, ROW_H - 3);
    }
    ctx.lineWidth = 2;

    if (anim && anim.toOrder < s.nrOrders) {
      const k = anim.k;
      const e = k; // d3-transition eases it already
      const yy = rowY(anim.fromOrder) + (rowY(anim.toOrder) - rowY(anim.fromOrder)) * e;
      const x0 = x(anim.pfn);
      const bw = Math.max(x(anim.pfn + anim.pages) - x0, 3);
      ctx.globalAlpha = 0.85 * (1 - k * 0.6);
      ctx.fillStyle = colors[anim.toOrder]!;
      ctx.fillRect(x0, yy + 2, bw, ROW_H - 4);
      ctx.globalAlpha = 1;
      ctx.strokeStyle = COLORS.highlight;
      ctx.strokeRect(x0, yy + 1, bw, ROW_H - 2);
    }

    // the pfn axis (d3-axis), ticks on power-of-two pfn boundaries: the numbers a block's
    // alignment is about; as many as labels of the figure's type fit
    const want = Math.max(2, Math.floor(w / (fs * 9)));
    const tickStep = 2 ** Math.max(0, Math.ceil(Math.log2(g.pages / want)));
    const ticks: number[] = [];
    for (let t = Math.ceil(g.startPfn / tickStep) * tickStep; t <= g.startPfn + g.pages; t += tickStep) ticks.push(t);
    axis.draw(x, w, ticks, (t) => `0x${t.toString(16)}`, AXIS_H);
  }

  function mark(t: FigureTerm | undefined) {
    marked = t;
    for (const d of countRows) d.classList.toggle('marked', t?.kind === 'name' && t.name === 'nr_free');
    labelRows.forEach((d, k) => d.classList.toggle('marked', t?.kind === 'order' && t.order === labelRows.length - 1 - k));
    if (current) draw(current, false);
  }

  return { update, mark };
}

/** the outline of what prose points at: the page's focus colour */
const FOCUS = '#f0e442';

/**
 * Free-page coverage of a big zone, one pixel per (device pixel column, order): full colour when
 * the column is all free at that order, fainter when only part of it is, background when none.
 * Kept between frames; a step recomputes only the columns over the pages that moved.
 */
function createCoverage() {
  let canvas: HTMLCanvasElement | undefined;
  let image: ImageData | undefined;
  let px: Uint32Array | undefined;
  let player: Player | undefined;
  let step = -1;
  let width = 0;
  let colors: [number, number, number][] = [];
  const bg = cssRgb(COLORS.unknown);
  const skipped = cssRgb(COLORS.mergeSkipped);
  const pack = ([r, g, b]: [number, number, number]) => (255 << 24) | (b << 16) | (g << 8) | r;
  const mix = (c: [number, number, number], a: number) => pack([0, 1, 2].map((k) => Math.round(bg[k]! + (c[k]! - bg[k]!) * a)) as [number, number, number]);

  function column(p: Player, x: number, free: Int32Array, skip: Int32Array) {
    const s = p.state;
    const n = s.geo.pages;
    const p0 = Math.floor((x * n) / width);
    const p1 = Math.max(p0 + 1, Math.floor(((x + 1) * n) / width));
    free.fill(0);
    skip.fill(0);
    for (let i = p0; i < p1; i++) {
      if (s.pageState[i] !== PAGE.BUDDY) continue;
      const o = s.pageOrder[i]!;
      free[o]!++;
      if (s.pageFlags[i]! & PF.MERGE_SKIPPED) skip[o]!++;
    }
    const per = p1 - p0;
    for (let o = 0; o < s.nrOrders; o++) {
      const f = free[o]!;
      px![o * width + x] = f === 0 ? pack(bg) : mix(skip[o]! * 2 > f ? skipped : colors[o]!, 0.35 + (0.65 * f) / per);
    }
  }

  return {
    update(p: Player, w: number): HTMLCanvasElement {
      const s = p.state;
      const rows = s.nrOrders;
      let ranges = p === player && w === width ? p.changedPages(step, s.step) : null;
      if (!canvas || w !== width || canvas.height !== rows || p !== player) {
        width = Math.max(1, w);
        canvas = document.createElement('canvas');
        canvas.width = width;
        canvas.height = rows;
        image = new ImageData(width, rows);
        px = new Uint32Array(image.data.buffer);
        colors = Array.from({ length: rows }, (_, o) => orderRgb(o, s.geo.maxOrder));
        ranges = null;
      }
      player = p;
      step = s.step;
      const free = new Int32Array(rows);
      const skip = new Int32Array(rows);
      const n = s.geo.pages;
      if (ranges === null) {
        for (let x = 0; x < width; x++) column(p, x, free, skip);
        canvas.getContext('2d')!.putImageData(image!, 0, 0);
        return canvas;
      }
      let lo = width;
      let hi = -1;
      const done = new Set<number>();
      for (const [first, count] of ranges) {
        const x0 = Math.floor((first * width) / n);
        const x1 = Math.min(width - 1, Math.floor(((first + count - 1) * width) / n) + 1);
        for (let x = Math.max(0, x0 - 1); x <= x1; x++) {
          if (done.has(x)) continue;
          done.add(x);
          column(p, x, free, skip);
          lo = Math.min(lo, x);
          hi = Math.max(hi, x);
        }
      }
      if (hi >= lo) canvas.getContext('2d')!.putImageData(image!, 0, 0, lo, 0, hi - lo + 1, rows);
      return canvas;
    },
  };
}
