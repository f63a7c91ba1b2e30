// mem_map's canvas drawing, for a band of grid rows at a time: the page picture scaled up
// (memmap-image.ts), cell gaps and pageblock borders once they can be seen, then the outlines:
// the current record's block, the running compactions (scanner and migration line) and the
// page in focus. The view (memmap.ts) decides which bands to draw; drawing a band here gives the
// same pixels there as drawing the whole picture.
import type { ZoneState } from '../log/state';
import type { Player } from '../log/player';
import { COLORS } from '../ui/palette';
import type { PageGrid } from './memmap-image';

/** Where the grid is drawn: its offset in CSS px and the size of one cell. */
export interface MapView {
  panX: number;
  panY: number;
  cell: number;
}

/** Outlines `count` consecutive cells from index i0 (one rectangle per grid row). */
function outlineRun(ctx: CanvasRenderingContext2D, g: PageGrid, v: MapView, i0: number, count: number) {
  let i = i0;
  const end = i0 + count;
  while (i < end) {
    const r = Math.floor(i / g.cols);
    const c = i % g.cols;
    const n = Math.min(end - i, g.cols - c);
    ctx.strokeRect(v.panX + c * v.cell - 1, v.panY + r * v.cell - 1, Math.max(n * v.cell, 2) + 2, Math.max(v.cell, 2) + 2);
    i += n;
  }
}

/** Black under the highlight colour: visible on every state colour, yellow included. */
function outlineHighlight(ctx: CanvasRenderingContext2D, g: PageGrid, v: MapView, i0: number, count: number) {
  ctx.strokeStyle = '#000000';
  ctx.lineWidth = 4;
  outlineRun(ctx, g, v, i0, count);
  ctx.strokeStyle = COLORS.highlight;
  ctx.lineWidth = 2;
  outlineRun(ctx, g, v, i0, count);
}

/** Grid rows [first, end) that an outline of `count` cells from cell index i0 covers. */
const rowsOf = (g: PageGrid, i0: number, count: number): [number, number] => [Math.floor(i0 / g.cols), Math.floor((i0 + Math.max(1, count) - 1) / g.cols) + 1];

/** Grid rows of a frame's outlines: the current event's block, the focused page, the compactions. */
export function outlineRows(p: Player, g: PageGrid, focus: number | undefined): [number, number][] {
  const geo = p.state.geo;
  const out: [number, number][] = [];
  const cur = p.currentIndex();
  if (cur !== undefined && cur > 0) {
    const i0 = p.log.pfn[cur]! - geo.startPfn;
    if (i0 >= 0 && i0 < geo.pages) out.push(rowsOf(g, g.lead + i0, Math.min(2 ** p.log.order[cur]!, geo.pages - i0)));
  }
  if (focus !== undefined && focus - geo.startPfn >= 0 && focus - geo.startPfn < geo.pages) out.push(rowsOf(g, g.lead + focus - geo.startPfn, 1));
  // every running compaction's scanner pageblock, and its migration line's rows (from one
  // end to the other: the line crosses every row between)
  const pbPages = 2 ** geo.pageblockOrder;
  for (const c of p.state.runningCompactions()) {
    if (c.scanPfn >= 0 && c.scanPfn - geo.startPfn < geo.pages) {
      const i0 = c.scanPfn - geo.startPfn;
      out.push(rowsOf(g, g.lead + i0, Math.min(pbPages - (c.scanPfn % pbPages), geo.pages - i0)));
    }
    if (c.migrateFrom >= 0 && c.migrateTo >= 0) {
      const lo = Math.min(c.migrateFrom, c.migrateTo) - geo.startPfn;
      const hi = Math.max(c.migrateFrom, c.migrateTo) - geo.startPfn;
      out.push(rowsOf(g, g.lead + lo, hi - lo + 1));
    }
  }
  return out;
}

/** The visible cells of rows [ra, rb): columns c0..c1, rows r0..r1. */
interface CellRange {
  c0: number;
  c1: number;
  r0: number;
  r1: number;
}

/** A border wherever the pageblock changes between neighbouring cells. */
function drawPageblockBorders(ctx: CanvasRenderingContext2D, s: ZoneState, g: PageGrid, v: MapView, { c0, c1, r0, r1 }: CellRange) {
  const { cols, lead } = g;
  const { panX, panY, cell } = v;
  const pbPages = 2 ** s.geo.pageblockOrder;
  // borders only when a pageblock's narrow side is at least 6 px, or they drown the colours
  const pbNarrow = pbPages >= cols ? (pbPages / cols) * cell : Math.min(pbPages * cell, cell * 1e9);
  if (!(pbNarrow >= 6 && cell >= 1.5)) return;
  ctx.strokeStyle = COLORS.text;
  ctx.lineWidth = cell >= 12 ? 2 : 1;
  ctx.beginPath();
  // j is a cell index; its pfn is base + j (base is aligned to cols)
  const base = s.geo.startPfn - lead;
  const end = lead + s.geo.pages;
  const pb = (j: number) => Math.floor((base + j) / pbPages);
  const wholeRows = pbPages % cols === 0;
  for (let r = r0; r < r1; r++) {
    if (wholeRows) {
      // pageblocks are whole rows (the usual case): one line per boundary row
      if ((base / cols + r + 1) % (pbPages / cols) === 0 && (r + 1) * cols < end) {
        ctx.moveTo(panX + c0 * cell, panY + (r + 1) * cell);
        ctx.lineTo(panX + c1 * cell, panY + (r + 1) * cell);
      }
      continue;
    }
    // horizontal borders under this row, merged into runs: one segment per run, not per cell
    let run = -1;
    for (let c = c0; c <= c1; c++) {
      const j = r * cols + c;
      const border = c < c1 && j >= lead && j + cols < end && pb(j + cols) !== pb(j);
      if (border && run < 0) run = c;
      if (!border && run >= 0) {
        ctx.moveTo(panX + run * cell, panY + (r + 1) * cell);
        ctx.lineTo(panX + c * cell, panY + (r + 1) * cell);
        run = -1;
      }
    }
    // vertical borders inside this row: only where a pageblock ends mid-row
    const rowFirst = r * cols;
    const firstBoundary = pbPages - ((base + rowFirst) % pbPages);
    let c = firstBoundary - 1; // the last cell of a pageblock in this row
    if (c < c0) c += Math.ceil((c0 - c) / pbPages) * pbPages;
    for (; c < c1 && c + 1 < cols; c += pbPages) {
      const j = rowFirst + c;
      if (j + 1 >= end) break;
      if (j < lead) continue;
      ctx.moveTo(panX + (c + 1) * cell, panY + r * cell);
      ctx.lineTo(panX + (c + 1) * cell, panY + (r + 1) * cell);
    }
  }
  ctx.stroke();
}

/**
 * The running compactions (docs/skipmerge.md), one per CPU that compacts: the pageblock each
 * scanner has reached, and each one's last migrated block with a line from where it was to
 * where it went. Several CPUs may compact at once (the `mixed` workload's huge-page tasks).
 */
function drawCompaction(ctx: CanvasRenderingContext2D, s: ZoneState, g: PageGrid, v: MapView) {
  const geo = s.geo;
  const pbPages = 2 ** geo.pageblockOrder;
  const center = (pfn: number): [number, number] => {
    const j = g.lead + pfn - geo.startPfn;
    return [v.panX + (j % g.cols) * v.cell + v.cell / 2, v.panY + Math.floor(j / g.cols) * v.cell + v.cell / 2];
  };
  for (const c of s.runningCompactions()) {
    ctx.strokeStyle = COLORS.compaction;
    ctx.lineWidth = 3;
    const scan = c.scanPfn;
    if (scan >= 0 && scan - geo.startPfn < geo.pages) {
      const i0 = scan - geo.startPfn;
      outlineRun(ctx, g, v, g.lead + i0, Math.min(pbPages - (scan % pbPages), geo.pages - i0));
    }
    const from = c.migrateFrom;
    const to = c.migrateTo;
    if (from < 0 || to < 0) continue;
    outlineRun(ctx, g, v, g.lead + from - geo.startPfn, 1);
    outlineRun(ctx, g, v, g.lead + to - geo.startPfn, 1);
    const [x0, y0] = center(from);
    const [x1, y1] = center(to);
    ctx.beginPath();
    ctx.moveTo(x0, y0);
    ctx.lineTo(x1, y1);
    ctx.stroke();
    ctx.beginPath();
    ctx.arc(x1, y1, Math.max(2, v.cell / 4), 0, 2 * Math.PI);
    ctx.fillStyle = COLORS.compaction;
    ctx.fill();
  }
}

export interface RowBand {
  /** grid rows [ra, rb) */
  ra: number;
  rb: number;
  /** the whole picture (true), or only those rows */
  full: boolean;
  /** the band's CSS px on the canvas */
  y0: number;
  y1: number;
}

/** Background, cells, grid and pageblock borders, then outlines, for one band of grid rows. */
export function drawRows(ctx: CanvasRenderingContext2D, p: Player, g: PageGrid, v: MapView, w: number, h: number, band: RowBand, focus: number | undefined) {
  const s = p.state;
  const { ra, rb, y0, y1 } = band;
  const { cols, rows } = g;
  const { panX, panY, cell } = v;
  ctx.fillStyle = COLORS.background;
  ctx.fillRect(0, y0, w, y1 - y0);
  ctx.imageSmoothingEnabled = false;
  if (band.full) ctx.drawImage(g.off, panX, panY, cols * cell, rows * cell);
  else if (rb > ra) ctx.drawImage(g.off, 0, ra, cols, rb - ra, panX, panY + ra * cell, cols * cell, (rb - ra) * cell);

  // cell gaps and pageblock borders once cells are big enough to see them
  const range: CellRange = {
    c0: Math.max(0, Math.floor(-panX / cell)),
    c1: Math.min(cols, Math.ceil((w - panX) / cell)),
    r0: Math.max(ra, Math.floor(-panY / cell)),
    r1: Math.min(rb, Math.ceil((h - panY) / cell)),
  };
  const { c0, c1, r0, r1 } = range;
  if (cell >= 6) {
    ctx.strokeStyle = 'rgba(16,20,28,0.85)';
    ctx.lineWidth = 1;
    ctx.beginPath();
    for (let c = c0; c <= c1; c++) {
      ctx.moveTo(panX + c * cell + 0.5, panY + r0 * cell);
      ctx.lineTo(panX + c * cell + 0.5, panY + r1 * cell);
    }
    for (let r = r0; r <= r1; r++) {
      ctx.moveTo(panX + c0 * cell, panY + r * cell + 0.5);
      ctx.lineTo(panX + c1 * cell, panY + r * cell + 0.5);
    }
    ctx.stroke();
  }
  drawPageblockBorders(ctx, s, g, v, range);

  // the current event's block, and the hovered / inspected page
  const geo = s.geo;
  const cur = p.currentIndex();
  if (cur !== undefined && cur > 0) {
    const i0 = p.log.pfn[cur]! - geo.startPfn;
    if (i0 >= 0 && i0 < geo.pages) outlineHighlight(ctx, g, v, g.lead + i0, Math.min(2 ** p.log.order[cur]!, geo.pages - i0));
  }
  drawCompaction(ctx, s, g, v);
  if (focus !== undefined) {
    const i = focus - geo.startPfn;
    if (i >= 0 && i < geo.pages) outlineHighlight(ctx, g, v, g.lead + i, 1);
  }
}
