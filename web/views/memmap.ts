// mem_map: every pfn one cell, coloured by where the page is. One pixel per page
// (memmap-image.ts) is scaled up onto the visible canvas with smoothing off, a band of rows at a
// time (memmap-draw.ts), so a 262,144-page zone never costs a DOM node per page. Zoom with the
// wheel or the +/- buttons, pan by dragging; hover shows the struct page fields.

import { CPU_NONE, MIGRATETYPES } from '../log/events';
import { PAGE, PAGE_STATE_NAMES, PF, type PageState, type ZoneState } from '../log/state';
import type { Player } from '../log/player';
import { beginCanvas, el, onResize, sizeOf } from '../ui/dom';
import { hexPfn } from '../log/describe';
import type { FigureTerm } from './terms';
import { selectPfn } from './pfn-dialog';
import { PageImage, mergeBands } from './memmap-image';
import { drawRows, outlineRows, type MapView } from './memmap-draw';

export function pageDescription(s: ZoneState, pfn: number): string[] {
  const pg = s.page(pfn);
  if (!pg) return [`pfn ${hexPfn(pfn)} is outside the zone`];
  const lines = [
    `pfn ${hexPfn(pfn)} (${pfn}) · struct page at vmemmap + ${hexPfn(pfn * 64)}`,
    `state: ${PAGE_STATE_NAMES[pg.state as PageState]}`,
  ];
  if (pg.state === PAGE.BUDDY) {
    const head = pfn - (pfn % 2 ** pg.order); // blocks are aligned on absolute pfn
    const list = `free_area[${pg.order}].free_list[${MIGRATETYPES[pg.mt] ?? pg.mt}]`;
    if (head === pfn) lines.push(`PageBuddy, buddy_order = ${pg.order}: on ${list}`);
    else lines.push(`inside the free order-${pg.order} block at pfn ${hexPfn(head)} (PageBuddy is on its first page only)`);
    if (pg.flags & PF.MERGE_SKIPPED) lines.push('merge skipped (buddy_merge_skipped)');
    lines.push(`buddy of the block: pfn ${hexPfn(head ^ (2 ** pg.order))} (pfn ^ (1 << ${pg.order}))`);
  } else if (pg.state === PAGE.PCP) {
    lines.push(`cpu ${pg.cpu}'s pcp list, order ${pg.order}${pg.flags & PF.COLD ? ', cold' : ''}`);
  } else if (pg.state === PAGE.ALLOCATED) {
    lines.push(`order ${pg.order}` + (pg.cpu !== CPU_NONE ? `, allocated by cpu ${pg.cpu}` : ', reserved at set-up'));
  }
  lines.push(`pageblock ${pg.pageblock}: ${MIGRATETYPES[pg.pageblockMt] ?? pg.pageblockMt}`);
  return lines;
}

/** CPUs the compaction line names one by one; the rest are counted. */
const COMPACTIONS_NAMED = 6;

/**
 * One line on the running compactions (one per CPU that compacts), for under the map:
 * the order each wants, the pageblock its scanner reached, what it merged and migrated so far.
 * Empty when none runs.
 */
export function compactionLine(s: ZoneState): string {
  const running = s.runningCompactions();
  if (running.length === 0) return '';
  const named = running.slice(0, COMPACTIONS_NAMED).map(
    (c) =>
      `cpu ${c.cpu} (order ${c.order}, ` +
      (c.scanPfn >= 0 ? `scanner at pageblock ${hexPfn(c.scanPfn)}` : 'scanner not started') +
      `, ${c.merged} merged, ${c.migrated} migrated)`,
  );
  const more = running.length - named.length;
  return (
    `compacting on ${running.length} CPU${running.length === 1 ? '' : 's'}: ${named.join('; ')}` +
    (more > 0 ? `; and ${more} more` : '')
  );
}

/** The view's elements: the zoom and pfn tools, the canvas, the compaction line, the hover text. */
function memMapDom(body: HTMLElement) {
  const tools = el('div', { class: 'mm-tools' });
  const zoomIn = el('button', { type: 'button', text: '+', 'aria-label': 'Zoom in on mem_map' });
  const zoomOut = el('button', { type: 'button', text: '−', 'aria-label': 'Zoom out of mem_map' });
  const zoomReset = el('button', { type: 'button', text: 'fit', 'aria-label': 'fit: show the whole zone' });
  const pfnInput = el('input', {
    type: 'text',
    id: 'mm-pfn',
    inputmode: 'numeric',
    placeholder: 'e.g. 0x1a0',
    size: 10,
    autocomplete: 'off',
  });
  const pfnLabel = el('label', { for: 'mm-pfn', text: 'inspect pfn' });
  const zoomLabel = el('span', { class: 'mm-zoom', 'aria-live': 'off' });
  // the page's provenance: every record it took part in (pfn-dialog.ts), for the pinned pfn
  const historyBtn = el('button', { type: 'button', class: 'mm-history', text: 'history', 'aria-label': 'History of the inspected pfn', disabled: true });
  tools.append(zoomOut, zoomIn, zoomReset, zoomLabel, pfnLabel, pfnInput, historyBtn);

  const stage = el('div', { class: 'mm-stage' });
  const canvas = el('canvas', {
    class: 'mm-canvas',
    tabindex: 0,
    role: 'img',
    'aria-label': 'mem_map: one cell per pfn, coloured by state, with pageblock borders. Use inspect pfn for a text description.',
  });
  const hover = el('div', { class: 'mm-hover', 'aria-live': 'polite' });
  // the running compactions in words (drawn in the map as green outlines and lines)
  const compacting = el('p', { class: 'mm-compaction', id: 'mm-compaction', 'aria-live': 'off' });
  compacting.hidden = true;
  stage.append(canvas);
  body.append(tools, stage, compacting, hover);
  return { zoomIn, zoomOut, zoomReset, pfnInput, zoomLabel, historyBtn, canvas, hover, compacting };
}

export function createMemMapView(body: HTMLElement): MemMapView {
  return new MemMapView(body);
}

class MemMapView {
  private readonly dom: ReturnType<typeof memMapDom>;
  private player: Player | undefined;
  private readonly img = new PageImage();
  private zoom = 1;
  /** the grid's offset in CSS px, and one cell's size */
  private readonly view: MapView = { panX: 0, panY: 0, cell: 1 };
  private hoverPfn: number | undefined;
  /** the pfn prose points at (a lesson's "pfn 2"), outlined like a hovered page */
  private markedPfn: number | undefined;
  private pinnedPfn: number | undefined;
  /** Set by anything that moves or rescales the picture: the next draw repaints it all. */
  private viewChanged = true;
  /** rows of the outlines drawn last time: they must be repainted to erase them */
  private outlinedRows: [number, number][] = [];
  private drawnSize = '';
  private drawnView = '';

  constructor(body: HTMLElement) {
    const d = (this.dom = memMapDom(body));
    wirePointer(d.canvas, {
      zoomAt: (f, x, y) => this.zoomAt(f, x, y),
      pan: () => this.view,
      panTo: (x, y) => {
        this.view.panX = x;
        this.view.panY = y;
        this.clampPan(); // marks the view changed when the picture moved
        this.draw();
      },
      click: (ev) => {
        this.pinnedPfn = this.pfnAt(ev);
        this.showPage(this.pinnedPfn);
        this.draw();
        // a click on a page opens its history
        if (this.pinnedPfn !== undefined) selectPfn(d.canvas, this.pinnedPfn);
      },
      hover: (ev) => {
        const pfn = ev ? this.pfnAt(ev) : undefined;
        if (ev && pfn === this.hoverPfn) return;
        this.hoverPfn = pfn;
        if (this.pinnedPfn === undefined) this.showPage(pfn);
        this.draw();
      },
    });
    d.historyBtn.addEventListener('click', () => {
      if (this.pinnedPfn !== undefined) selectPfn(d.historyBtn, this.pinnedPfn);
    });
    const centre = () => {
      const r = sizeOf(d.canvas);
      return [r.w / 2, r.h / 2] as const;
    };
    d.zoomIn.addEventListener('click', () => this.zoomAt(2, ...centre()));
    d.zoomOut.addEventListener('click', () => this.zoomAt(0.5, ...centre()));
    d.zoomReset.addEventListener('click', () => {
      this.zoom = 1;
      this.clampPan();
      this.draw();
    });
    d.pfnInput.addEventListener('change', () => this.inspect(d.pfnInput.value.trim()));
    // redraw from the size cache's own observer, so the redraw never sees a stale size
    onResize(d.canvas, () => {
      this.clampPan();
      this.draw();
    });
    this.showPage(undefined);
  }

  mark(t: FigureTerm | undefined) {
    this.markedPfn = t?.kind === 'pfn' ? t.pfn : undefined;
    this.viewChanged = true;
    this.draw();
  }

  update(p: Player) {
    const { compacting } = this.dom;
    this.player = p;
    this.setup(p.state);
    this.clampPan();
    this.draw();
    const line = compactionLine(p.state);
    if (compacting.textContent !== line) compacting.textContent = line;
    if (compacting.hidden !== (line === '')) compacting.hidden = line === '';
    if (this.pinnedPfn !== undefined) this.showPage(this.pinnedPfn);
  }

  private baseCell() {
    const r = sizeOf(this.dom.canvas);
    return Math.min(r.w / this.img.cols, r.h / this.img.rows);
  }

  private setup(s: ZoneState) {
    if (!this.img.setup(s)) return;
    this.zoom = 1;
    this.view.panX = 0;
    this.view.panY = 0;
    this.viewChanged = true;
  }

  /**
   * Draws the picture. While playing, only bands of grid rows are repainted: the rows whose
   * pages changed, and the rows of the outlines drawn last time and this time. Each band is
   * clipped and drawn exactly as the full picture would be there, so the result is the same
   * pixels as a full redraw at a fraction of the cost on a 262,144-page zone.
   */
  private draw() {
    const p = this.player;
    if (!p) return;
    const { img, view } = this;
    const { canvas, zoomLabel } = this.dom;
    this.setup(p.state);
    const changedRows = img.paint(p);
    const drawing = beginCanvas(canvas);
    if (!drawing) return;
    const { ctx, w, h, dpr } = drawing;
    const sizeKey = `${canvas.width}x${canvas.height}`;
    if (sizeKey !== this.drawnSize) {
      this.drawnSize = sizeKey;
      this.viewChanged = true;
    }
    const cell = (view.cell = this.baseCell() * this.zoom);
    const focus = this.pinnedPfn ?? this.hoverPfn ?? this.markedPfn;
    const nowOutlined = outlineRows(p, img, focus);
    if (this.viewChanged || changedRows === null) {
      drawRows(ctx, p, img, view, w, h, { ra: 0, rb: img.rows, full: true, y0: 0, y1: h }, focus);
    } else {
      const bands = mergeBands([...changedRows, ...this.outlinedRows, ...nowOutlined].map(([a, b]) => [a - 1, b + 1]));
      for (const [a, b] of bands) {
        // whole device pixels, a few beyond the rows, so outline strokes are erased too
        const y0 = Math.max(0, Math.floor((view.panY + a * cell) * dpr) / dpr - 3);
        const y1 = Math.min(h, Math.ceil((view.panY + b * cell) * dpr) / dpr + 3);
        if (y1 <= y0) continue;
        ctx.save();
        ctx.beginPath();
        ctx.rect(0, y0, w, y1 - y0);
        ctx.clip();
        // one row more on each side, so borders and grid lines on the band's edges are drawn too
        const ra = Math.max(0, Math.floor((y0 - view.panY) / cell) - 1);
        drawRows(ctx, p, img, view, w, h, { ra, rb: Math.min(img.rows, Math.ceil((y1 - view.panY) / cell) + 1), full: false, y0, y1 }, focus);
        ctx.restore();
      }
    }
    this.outlinedRows = nowOutlined;
    this.viewChanged = false;
    const z = `zoom ${this.zoom >= 10 ? Math.round(this.zoom) : this.zoom.toFixed(1)}x · ${img.cols}×${img.rows} cells`;
    if (zoomLabel.textContent !== z) zoomLabel.textContent = z;
  }

  private showPage(pfn: number | undefined) {
    const { hover, historyBtn } = this.dom;
    historyBtn.disabled = this.pinnedPfn === undefined || this.player?.state.page(this.pinnedPfn) === undefined;
    hover.replaceChildren();
    if (pfn === undefined || !this.player) {
      hover.append(el('p', { class: 'muted', text: 'Hover a cell, or type a pfn, to see its struct page fields.' }));
      return;
    }
    const lines = pageDescription(this.player.state, pfn);
    hover.append(el('p', { class: 'mm-hover-title', text: lines[0]! }), ...lines.slice(1).map((l) => el('p', { text: l })));
  }

  /** The pfn typed into "inspect pfn": pinned and described, or why it is not one. */
  private inspect(raw: string) {
    const v = /^0x[0-9a-f]{1,13}$/i.test(raw) ? parseInt(raw, 16) : /^[0-9]{1,15}$/.test(raw) ? Number(raw) : NaN;
    if (!this.player || Number.isNaN(v)) {
      this.pinnedPfn = undefined;
      this.dom.hover.replaceChildren(el('p', { text: raw === '' ? '' : `"${raw.slice(0, 20)}" is not a pfn (decimal or 0x hex)` }));
      this.draw();
      return;
    }
    this.pinnedPfn = v;
    this.showPage(v);
    this.draw();
  }

  private pfnAt(ev: MouseEvent): number | undefined {
    const { player, img, view } = this;
    if (!player) return undefined;
    const r = this.dom.canvas.getBoundingClientRect();
    const cell = this.baseCell() * this.zoom;
    const c = Math.floor((ev.clientX - r.left - view.panX) / cell);
    const row = Math.floor((ev.clientY - r.top - view.panY) / cell);
    if (c < 0 || c >= img.cols || row < 0 || row >= img.rows) return undefined;
    const i = row * img.cols + c - img.lead;
    return i >= 0 && i < player.state.geo.pages ? player.state.geo.startPfn + i : undefined;
  }

  private zoomAt(factor: number, cx: number, cy: number) {
    const { view } = this;
    const maxZoom = Math.max(1, 48 / this.baseCell());
    const z = Math.max(1, Math.min(maxZoom, this.zoom * factor));
    const k = z / this.zoom;
    view.panX = cx - (cx - view.panX) * k;
    view.panY = cy - (cy - view.panY) * k;
    this.zoom = z;
    this.clampPan();
    this.draw();
  }

  private clampPan() {
    const { view, img } = this;
    const r = sizeOf(this.dom.canvas);
    const cell = this.baseCell() * this.zoom;
    const gw = img.cols * cell;
    const gh = img.rows * cell;
    view.panX = gw <= r.w ? (r.w - gw) / 2 : Math.min(0, Math.max(r.w - gw, view.panX));
    view.panY = gh <= r.h ? (r.h - gh) / 2 : Math.min(0, Math.max(r.h - gh, view.panY));
    const v = `${view.panX},${view.panY},${cell}`;
    if (v !== this.drawnView) {
      this.drawnView = v;
      this.viewChanged = true;
    }
  }
}

interface PointerActions {
  zoomAt(factor: number, cx: number, cy: number): void;
  /** where the grid is now, and a drag's new place for it */
  pan(): MapView;
  panTo(x: number, y: number): void;
  /** a press and release that did not move: a click on a cell */
  click(ev: PointerEvent): void;
  /** the pointer moved over the map (undefined: it left) */
  hover(ev: PointerEvent | undefined): void;
}

/** The wheel zooms at the pointer; a drag pans; a click pins a page; hovering shows one. */
function wirePointer(canvas: HTMLCanvasElement, a: PointerActions) {
  canvas.addEventListener(
    'wheel',
    (ev) => {
      ev.preventDefault();
      const r = canvas.getBoundingClientRect();
      a.zoomAt(ev.deltaY < 0 ? 1.25 : 0.8, ev.clientX - r.left, ev.clientY - r.top);
    },
    { passive: false },
  );
  let drag: { x: number; y: number; px: number; py: number } | undefined;
  canvas.addEventListener('pointerdown', (ev) => {
    drag = { x: ev.clientX, y: ev.clientY, px: a.pan().panX, py: a.pan().panY };
    canvas.setPointerCapture(ev.pointerId);
  });
  canvas.addEventListener('pointerup', (ev) => {
    if (drag && Math.abs(ev.clientX - drag.x) + Math.abs(ev.clientY - drag.y) < 4) a.click(ev);
    drag = undefined;
  });
  canvas.addEventListener('pointermove', (ev) => {
    if (drag) a.panTo(drag.px + ev.clientX - drag.x, drag.py + ev.clientY - drag.y);
    else a.hover(ev);
  });
  canvas.addEventListener('pointerleave', () => a.hover(undefined));
}
