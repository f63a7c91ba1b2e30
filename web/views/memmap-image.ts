// mem_map's picture at one pixel per page: an ImageData of cols x rows on an offscreen canvas,
// which the view scales up with smoothing off (memmap.ts), so a 262,144-page zone costs one
// 256K-pixel fill, never a DOM node per page. Between two steps only the pages the records
// moved are recoloured (Player.changedPages), and the rows they sit in are what the view
// repaints.
import { PAGE, type ZoneState } from '../log/state';
import type { Player } from '../log/player';
import { COLORS, cssRgb, orderRgb } from '../ui/palette';

/** Sorts [first, end) bands and merges the ones that overlap or touch. */
export function mergeBands(bands: [number, number][]): [number, number][] {
  const sorted = bands.filter(([a, b]) => b > a).sort((x, y) => x[0] - y[0]);
  const out: [number, number][] = [];
  for (const [a, b] of sorted) {
    const last = out.at(-1);
    if (last && a <= last[1]) last[1] = Math.max(last[1], b);
    else out.push([a, b]);
  }
  return out;
}

/** Columns of the grid: a power of two near sqrt(pages), so aligned blocks stay rectangles. */
export function gridColumns(pages: number): number {
  return 2 ** Math.ceil(Math.log2(Math.sqrt(Math.max(1, pages))));
}

function packRgb([r, g, b]: [number, number, number]): number {
  return (255 << 24) | (b << 16) | (g << 8) | r; // little-endian ABGR in a Uint32 view
}

/**
 * Colour lookup table, index (state << 7) | (order << 2) | (merge-skipped) | (cold << 1):
 * the flag bits are PF.MERGE_SKIPPED (2) and PF.COLD (4) shifted right by one.
 */
function colorTable(maxOrder: number): Uint32Array {
  const lut = new Uint32Array(8 << 7).fill(packRgb(cssRgb(COLORS.unknown)));
  for (let order = 0; order < 32; order++) {
    for (let f = 0; f < 4; f++) {
      const at = (st: number) => (st << 7) | (order << 2) | f;
      const o = Math.min(order, maxOrder);
      lut[at(PAGE.BUDDY)] = f & 1 ? packRgb(cssRgb(COLORS.mergeSkipped)) : packRgb(orderRgb(o, maxOrder));
      lut[at(PAGE.PCP)] = packRgb(cssRgb(f & 2 ? COLORS.pcpCold : COLORS.pcpHot));
      lut[at(PAGE.ALLOCATED)] = packRgb(cssRgb(COLORS.allocated));
      lut[at(PAGE.TRANSIT)] = packRgb(cssRgb(COLORS.transit));
    }
  }
  return lut;
}

/** The grid the picture is laid out on: cell index = lead + pfn - startPfn. */
export interface PageGrid {
  cols: number;
  rows: number;
  /** empty cells before the zone's first page, so that cell columns follow pfn % cols */
  lead: number;
  /** the picture, one pixel per cell */
  readonly off: HTMLCanvasElement;
}

export class PageImage implements PageGrid {
  cols = 1;
  rows = 1;
  lead = 0;
  off = document.createElement('canvas');
  private table: Uint32Array | undefined;
  private image: ImageData | undefined;
  private pixels: Uint32Array | undefined;
  private geoKey = '';
  private paintedStep = -1;
  private paintedPlayer: Player | undefined;

  /** Lays the grid out for the zone; true when its geometry changed (the view starts over). */
  setup(s: ZoneState): boolean {
    const key = `${s.geo.startPfn}/${s.geo.pages}/${s.geo.maxOrder}`;
    if (key === this.geoKey) return false;
    this.geoKey = key;
    this.cols = gridColumns(s.geo.pages);
    this.lead = s.geo.startPfn % this.cols;
    this.rows = Math.ceil((s.geo.pages + this.lead) / this.cols);
    this.table = colorTable(s.geo.maxOrder);
    this.off = document.createElement('canvas');
    this.off.width = this.cols;
    this.off.height = this.rows;
    this.image = new ImageData(this.cols, this.rows);
    this.pixels = new Uint32Array(this.image.data.buffer);
    this.paintedStep = -1;
    this.paintedPlayer = undefined;
    return true;
  }

  /**
   * Brings the picture up to the player's step. Only the pages that the records between the
   * painted step and this one moved are recoloured; a seek far away repaints everything.
   * Returns the grid rows whose pixels changed, [first, end), or null for all of them.
   */
  paint(p: Player): [number, number][] | null {
    const s = p.state;
    if (p === this.paintedPlayer && s.step === this.paintedStep) return [];
    const ranges = p === this.paintedPlayer ? p.changedPages(this.paintedStep, s.step) : null;
    this.paintedPlayer = p;
    this.paintedStep = s.step;
    const { cols, lead } = this;
    const lut = this.table!;
    const px = this.pixels!;
    const st = s.pageState;
    const ord = s.pageOrder;
    const fl = s.pageFlags;
    const n = s.geo.pages;
    const ctx = this.off.getContext('2d')!;
    if (ranges === null) {
      // one table lookup per page: (state, order, merge-skipped, cold) -> colour
      px.fill(0, 0, lead);
      for (let i = 0; i < n; i++) px[lead + i] = lut[(st[i]! << 7) | (ord[i]! << 2) | ((fl[i]! >> 1) & 3)]!;
      px.fill(0, lead + n);
      ctx.putImageData(this.image!, 0, 0);
      return null;
    }
    const rowsHit: [number, number][] = [];
    for (const [first, count] of ranges) {
      for (let i = first; i < first + count; i++) px[lead + i] = lut[(st[i]! << 7) | (ord[i]! << 2) | ((fl[i]! >> 1) & 3)]!;
      rowsHit.push([Math.floor((lead + first) / cols), Math.floor((lead + first + count - 1) / cols) + 1]);
    }
    const changed = mergeBands(rowsHit);
    for (const [r0, r1] of changed) ctx.putImageData(this.image!, 0, 0, 0, r0, cols, r1 - r0);
    return changed;
  }
}
