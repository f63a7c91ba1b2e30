// The free areas' canvas: one row per order, each free block a mark at its place in the zone
// (a big zone as per-pixel coverage, kept between frames and recomputed only where pages
// moved), then on top the current record's blocks, the running compactions, what the prose
// points at and the moving block of a one-step merge or split. freeareas.ts owns the rows'
// labels and counts, the axis and when to draw.
import { scaleLinear, type ScaleLinear } from 'd3-scale';
import { EV, splitHalves, type EventLog } from '../log/events';
import { PAGE, PF } from '../log/state';
import type { Player } from '../log/player';
import { COLORS, cssRgb, orderRgb, rgbCss } from '../ui/palette';
import type { FigureTerm } from './terms';

/** up to this many pages, free blocks are drawn one by one; above, as per-pixel coverage */
const SMALL_ZONE = 16384;
/** the outline of what prose points at: the page's focus colour */

interface Outline {
  order: number;
  pfn: number;
  color: string;
}

/** The current record's blocks: for a MERGE the block and its buddy in row `order` and the
 * combined block in row `order + 1`; for a SPLIT the halves. */
export function outlines(log: EventLog, i: number | undefined): Outline[] {
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

/** A merged block rising a row, or the half expand() lists dropping one, k of the way there. */
export interface BlockMove {
  pfn: number;
  pages: number;
  fromOrder: number;
  toOrder: number;
  k: number;
}

export interface PaintFrame {
  ctx: CanvasRenderingContext2D;
  w: number;
  h: number;
  dpr: number;
  /** a row's height and the gap under it */
  rowH: number;
  rowGap: number;
  cover: Coverage;
  anim: BlockMove | undefined;
  marked: FigureTerm | undefined;
}

/** Paints the rows of the player's state; returns the pfn scale the axis is drawn with. */
export function paintFreeAreas(p: Player, f: PaintFrame): ScaleLinear<number, number> {
  const s = p.state;
  const g = s.geo;
  const { ctx, w, h, rowH: ROW_H, rowGap: ROW_GAP, anim, marked } = f;
  ctx.clearRect(0, 0, w, h);
  const x = scaleLinear().domain([g.startPfn, g.startPfn + g.pages]).range([0, w]);
  const rowY = (o: number) => (s.nrOrders - 1 - o) * (ROW_H + ROW_GAP);

  // lane backgrounds
  ctx.fillStyle = COLORS.unknown;
  for (let o = s.nrOrders - 1; o >= 0; o--) ctx.fillRect(0, rowY(o), w, ROW_H);

  const colors: string[] = [];
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
    const img = f.cover.update(p, Math.round(w * f.dpr));
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
    ctx.strokeStyle = COLORS.focus;
    ctx.lineWidth = 3;
    const x0 = x(marked.pfn);
    ctx.strokeRect(x0 - 2, 0, Math.max(x(marked.pfn + 1) - x0, 3) + 4, s.nrOrders * (ROW_H + ROW_GAP) - ROW_GAP);
  } else if (marked?.kind === 'order' && marked.order < s.nrOrders) {
    ctx.strokeStyle = COLORS.focus;
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
  return x;
}

export interface Coverage {
  /** the coverage picture for the player's step at `w` device pixels: one row per order */
  update(p: Player, w: number): HTMLCanvasElement;
}

/**
 * Free-page coverage of a big zone, one pixel per (device pixel column, order): full colour when
 * the column is all free at that order, fainter when only part of it is, background when none.
 * Kept between frames; a step recomputes only the columns over the pages that moved.
 */
export function createCoverage(): Coverage {
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
