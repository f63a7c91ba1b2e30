// mem_map: every pfn one cell, coloured by where the page is. One pixel per page goes into an
// ImageData (cols x rows), which is scaled up onto the visible canvas with smoothing off, so a
// 262,144-page zone costs one 256K-pixel fill per frame, never a DOM node per page.
// Zoom with the wheel or the +/- buttons, pan by dragging; hover shows the struct page fields.

import { CPU_NONE, MIGRATETYPES } from '../log/events';
import { PAGE, PAGE_STATE_NAMES, PF, type PageState, type ZoneState } from '../log/state';
import type { Player } from '../log/player';
import { COLORS, cssRgb, orderRgb } from '../ui/palette';
import { beginCanvas, el, onResize, sizeOf } from '../ui/dom';
import { hexPfn } from '../log/describe';
import type { FigureTerm } from './terms';
import { selectPfn } from './pfn-dialog';

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

export function createMemMapView(body: HTMLElement) {
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

  let player: Player | undefined;
  let zoom = 1;
  let panX = 0; // grid offset in CSS px
  let panY = 0;
  let hoverPfn: number | undefined;
  /** the pfn prose points at (a lesson's "pfn 2"), outlined like a hovered page */
  let markedPfn: number | undefined;
  let pinnedPfn: number | undefined;
  let table: Uint32Array | undefined;
  let image: ImageData | undefined;
  let pixels: Uint32Array | undefined;
  let off: HTMLCanvasElement | undefined;
  let cols = 1;
  let rows = 1;
  /** empty cells before the zone's first page, so that cell columns follow pfn % cols */
  let lead = 0;
  let geoKey = '';

  const baseCell = () => {
    const r = sizeOf(canvas);
    return Math.min(r.w / cols, r.h / rows);
  };

  function setup(s: ZoneState) {
    const key = `${s.geo.startPfn}/${s.geo.pages}/${s.geo.maxOrder}`;
    if (key === geoKey) return;
    geoKey = key;
    cols = gridColumns(s.geo.pages);
    lead = s.geo.startPfn % cols;
    rows = Math.ceil((s.geo.pages + lead) / cols);
    table = colorTable(s.geo.maxOrder);
    off = document.createElement('canvas');
    off.width = cols;
    off.height = rows;
    image = new ImageData(cols, rows);
    pixels = new Uint32Array(image.data.buffer);
    zoom = 1;
    panX = 0;
    panY = 0;
    paintedStep = -1;
    paintedPlayer = undefined;
    viewChanged = true;
  }

  let paintedStep = -1;
  let paintedPlayer: Player | undefined;
  /** grid rows whose pixels changed in the last paint, [first, end) */
  let changedRows: [number, number][] | null = null;
  /**
   * Brings the 1-pixel-per-page image up to the player's step. Only the pages that the records
   * between the painted step and this one moved are recoloured (Player.changedPages); a seek
   * far away repaints everything. Sets changedRows for draw().
   */
  function paintPixels(p: Player) {
    const s = p.state;
    if (p === paintedPlayer && s.step === paintedStep) {
      changedRows = [];
      return;
    }
    const ranges = p === paintedPlayer ? p.changedPages(paintedStep, s.step) : null;
    paintedPlayer = p;
    paintedStep = s.step;
    const lut = table!;
    const px = pixels!;
    const st = s.pageState;
    const ord = s.pageOrder;
    const fl = s.pageFlags;
    const n = s.geo.pages;
    const ctx = off!.getContext('2d')!;
    if (ranges === null) {
      // one table lookup per page: (state, order, merge-skipped, cold) -> colour
      px.fill(0, 0, lead);
      for (let i = 0; i < n; i++) px[lead + i] = lut[(st[i]! << 7) | (ord[i]! << 2) | ((fl[i]! >> 1) & 3)]!;
      px.fill(0, lead + n);
      ctx.putImageData(image!, 0, 0);
      changedRows = null;
      return;
    }
    const rowsHit: [number, number][] = [];
    for (const [first, count] of ranges) {
      for (let i = first; i < first + count; i++) px[lead + i] = lut[(st[i]! << 7) | (ord[i]! << 2) | ((fl[i]! >> 1) & 3)]!;
      rowsHit.push([Math.floor((lead + first) / cols), Math.floor((lead + first + count - 1) / cols) + 1]);
    }
    changedRows = mergeBands(rowsHit);
    for (const [r0, r1] of changedRows) ctx.putImageData(image!, 0, 0, 0, r0, cols, r1 - r0);
  }

  /** Grid rows [first, end) that an outline of `count` cells from cell index i0 covers. */
  const rowsOf = (i0: number, count: number): [number, number] => [Math.floor(i0 / cols), Math.floor((i0 + Math.max(1, count) - 1) / cols) + 1];
  /** rows of the outlines drawn last time: they must be repainted to erase them */
  let outlinedRows: [number, number][] = [];
  /** Grid rows of this frame's outlines: the current event's block and the focused page. */
  function outlineRows(p: Player): [number, number][] {
    const g = p.state.geo;
    const out: [number, number][] = [];
    const cur = p.currentIndex();
    if (cur !== undefined && cur > 0) {
      const i0 = p.log.pfn[cur]! - g.startPfn;
      if (i0 >= 0 && i0 < g.pages) out.push(rowsOf(lead + i0, Math.min(2 ** p.log.order[cur]!, g.pages - i0)));
    }
    const focus = pinnedPfn ?? hoverPfn ?? markedPfn;
    if (focus !== undefined && focus - g.startPfn >= 0 && focus - g.startPfn < g.pages) out.push(rowsOf(lead + focus - g.startPfn, 1));
    // every running compaction's scanner pageblock, and its migration line's rows (from one
    // end to the other: the line crosses every row between)
    const pbPages = 2 ** g.pageblockOrder;
    for (const c of p.state.runningCompactions()) {
      if (c.scanPfn >= 0 && c.scanPfn - g.startPfn < g.pages) {
        const i0 = c.scanPfn - g.startPfn;
        out.push(rowsOf(lead + i0, Math.min(pbPages - (c.scanPfn % pbPages), g.pages - i0)));
      }
      if (c.migrateFrom >= 0 && c.migrateTo >= 0) {
        const lo = Math.min(c.migrateFrom, c.migrateTo) - g.startPfn;
        const hi = Math.max(c.migrateFrom, c.migrateTo) - g.startPfn;
        out.push(rowsOf(lead + lo, hi - lo + 1));
      }
    }
    return out;
  }

  /** Set by anything that moves or rescales the picture: the next draw repaints it all. */
  let viewChanged = true;

  /**
   * Draws the picture. While playing, only bands of grid rows are repainted: the rows whose
   * pages changed, and the rows of the outlines drawn last time and this time. Each band is
   * clipped and drawn exactly as the full picture would be there, so the result is the same
   * pixels as a full redraw at a fraction of the cost on a 262,144-page zone.
   */
  function draw() {
    const p = player;
    if (!p) return;
    const s = p.state;
    setup(s);
    paintPixels(p);
    const drawing = beginCanvas(canvas);
    if (!drawing) return;
    const { ctx, w, h, dpr } = drawing;
    const sizeKey = `${canvas.width}x${canvas.height}`;
    if (sizeKey !== drawnSize) {
      drawnSize = sizeKey;
      viewChanged = true;
    }
    const cell = baseCell() * zoom;
    const nowOutlined = outlineRows(p);
    if (viewChanged || changedRows === null) {
      drawRows(ctx, s, w, h, cell, 0, rows, true);
    } else {
      const bands = mergeBands([...changedRows, ...outlinedRows, ...nowOutlined].map(([a, b]) => [a - 1, b + 1]));
      for (const [a, b] of bands) {
        // whole device pixels, a few beyond the rows, so outline strokes are erased too
        const y0 = Math.max(0, Math.floor((panY + a * cell) * dpr) / dpr - 3);
        const y1 = Math.min(h, Math.ceil((panY + b * cell) * dpr) / dpr + 3);
        if (y1 <= y0) continue;
        ctx.save();
        ctx.beginPath();
        ctx.rect(0, y0, w, y1 - y0);
        ctx.clip();
        // one row more on each side, so borders and grid lines on the band's edges are drawn too
        drawRows(ctx, s, w, h, cell, Math.max(0, Math.floor((y0 - panY) / cell) - 1), Math.min(rows, Math.ceil((y1 - panY) / cell) + 1), false, y0, y1);
        ctx.restore();
      }
    }
    outlinedRows = nowOutlined;
    viewChanged = false;
    const z = `zoom ${zoom >= 10 ? Math.round(zoom) : zoom.toFixed(1)}x · ${cols}×${rows} cells`;
    if (zoomLabel.textContent !== z) zoomLabel.textContent = z;
  }
  let drawnSize = '';

  /** Background, cells, grid and pageblock borders, then outlines, for grid rows [ra, rb). */
  function drawRows(ctx: CanvasRenderingContext2D, s: ZoneState, w: number, h: number, cell: number, ra: number, rb: number, full: boolean, y0 = 0, y1 = h) {
    const p = player!;
    ctx.fillStyle = COLORS.background;
    ctx.fillRect(0, y0, w, y1 - y0);
    ctx.imageSmoothingEnabled = false;
    if (full) ctx.drawImage(off!, panX, panY, cols * cell, rows * cell);
    else if (rb > ra) ctx.drawImage(off!, 0, ra, cols, rb - ra, panX, panY + ra * cell, cols * cell, (rb - ra) * cell);

    // cell gaps and pageblock borders once cells are big enough to see them
    const g = s.geo;
    const c0 = Math.max(0, Math.floor(-panX / cell));
    const c1 = Math.min(cols, Math.ceil((w - panX) / cell));
    const r0 = Math.max(ra, Math.floor(-panY / cell));
    const r1 = Math.min(rb, Math.ceil((h - panY) / cell));
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
    const pbPages = 2 ** g.pageblockOrder;
    // borders only when a pageblock's narrow side is at least 6 px, or they drown the colours
    const pbNarrow = pbPages >= cols ? (pbPages / cols) * cell : Math.min(pbPages * cell, cell * 1e9);
    if (pbNarrow >= 6 && cell >= 1.5) {
      // a border wherever the pageblock changes between neighbouring cells
      ctx.strokeStyle = '#e6edf3';
      ctx.lineWidth = cell >= 12 ? 2 : 1;
      ctx.beginPath();
      // j is a cell index; its pfn is base + j (base is aligned to cols)
      const base = g.startPfn - lead;
      const end = lead + g.pages;
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

    // the current event's block, and the hovered / inspected page
    const cur = p.currentIndex();
    if (cur !== undefined && cur > 0) {
      const pfn = p.log.pfn[cur]!;
      const order = p.log.order[cur]!;
      const i0 = pfn - g.startPfn;
      if (i0 >= 0 && i0 < g.pages) {
        const n = Math.min(2 ** order, g.pages - i0);
        ctx.strokeStyle = '#000000';
        ctx.lineWidth = 4;
        outlineRun(ctx, lead + i0, n, cell);
        ctx.strokeStyle = COLORS.highlight;
        ctx.lineWidth = 2;
        outlineRun(ctx, lead + i0, n, cell);
      }
    }
    drawCompaction(ctx, s, cell, pbPages);
    const focus = pinnedPfn ?? hoverPfn ?? markedPfn;
    if (focus !== undefined) {
      const i = focus - g.startPfn;
      if (i >= 0 && i < g.pages) {
        // black under white: visible on every state colour, yellow included
        ctx.strokeStyle = '#000000';
        ctx.lineWidth = 4;
        outlineRun(ctx, lead + i, 1, cell);
        ctx.strokeStyle = COLORS.highlight;
        ctx.lineWidth = 2;
        outlineRun(ctx, lead + i, 1, cell);
      }
    }
  }

  /**
   * The running compactions (docs/skipmerge.md), one per CPU that compacts: the pageblock each
   * scanner has reached, and each one's last migrated block with a line from where it was to
   * where it went. Several CPUs may compact at once (the `mixed` workload's huge-page tasks).
   */
  function drawCompaction(ctx: CanvasRenderingContext2D, s: ZoneState, cell: number, pbPages: number) {
    const g = s.geo;
    const center = (pfn: number): [number, number] => {
      const j = lead + pfn - g.startPfn;
      return [panX + (j % cols) * cell + cell / 2, panY + Math.floor(j / cols) * cell + cell / 2];
    };
    for (const c of s.runningCompactions()) {
      ctx.strokeStyle = COLORS.compaction;
      ctx.lineWidth = 3;
      const scan = c.scanPfn;
      if (scan >= 0 && scan - g.startPfn < g.pages) {
        const i0 = scan - g.startPfn;
        outlineRun(ctx, lead + i0, Math.min(pbPages - (scan % pbPages), g.pages - i0), cell);
      }
      const from = c.migrateFrom;
      const to = c.migrateTo;
      if (from < 0 || to < 0) continue;
      outlineRun(ctx, lead + from - g.startPfn, 1, cell);
      outlineRun(ctx, lead + to - g.startPfn, 1, cell);
      const [x0, y0] = center(from);
      const [x1, y1] = center(to);
      ctx.beginPath();
      ctx.moveTo(x0, y0);
      ctx.lineTo(x1, y1);
      ctx.stroke();
      ctx.beginPath();
      ctx.arc(x1, y1, Math.max(2, cell / 4), 0, 2 * Math.PI);
      ctx.fillStyle = COLORS.compaction;
      ctx.fill();
    }
  }

  /** Outlines `count` consecutive cells from index i0 (one rectangle per grid row). */
  function outlineRun(ctx: CanvasRenderingContext2D, i0: number, count: number, cell: number) {
    let i = i0;
    const end = i0 + count;
    while (i < end) {
      const r = Math.floor(i / cols);
      const c = i % cols;
      const n = Math.min(end - i, cols - c);
      ctx.strokeRect(panX + c * cell - 1, panY + r * cell - 1, Math.max(n * cell, 2) + 2, Math.max(cell, 2) + 2);
      i += n;
    }
  }

  function showPage(pfn: number | undefined) {
    historyBtn.disabled = pinnedPfn === undefined || player?.state.page(pinnedPfn) === undefined;
    hover.replaceChildren();
    if (pfn === undefined || !player) {
      hover.append(el('p', { class: 'muted', text: 'Hover a cell, or type a pfn, to see its struct page fields.' }));
      return;
    }
    const lines = pageDescription(player.state, pfn);
    hover.append(el('p', { class: 'mm-hover-title', text: lines[0]! }), ...lines.slice(1).map((l) => el('p', { text: l })));
  }

  function pfnAt(ev: MouseEvent): number | undefined {
    if (!player) return undefined;
    const r = canvas.getBoundingClientRect();
    const cell = baseCell() * zoom;
    const c = Math.floor((ev.clientX - r.left - panX) / cell);
    const row = Math.floor((ev.clientY - r.top - panY) / cell);
    if (c < 0 || c >= cols || row < 0 || row >= rows) return undefined;
    const i = row * cols + c - lead;
    return i >= 0 && i < player.state.geo.pages ? player.state.geo.startPfn + i : undefined;
  }

  function zoomAt(factor: number, cx: number, cy: number) {
    const maxZoom = Math.max(1, 48 / baseCell());
    const z = Math.max(1, Math.min(maxZoom, zoom * factor));
    const k = z / zoom;
    panX = cx - (cx - panX) * k;
    panY = cy - (cy - panY) * k;
    zoom = z;
    clampPan();
    draw();
  }

  let drawnView = '';
  function clampPan() {
    const r = sizeOf(canvas);
    const cell = baseCell() * zoom;
    const gw = cols * cell;
    const gh = rows * cell;
    panX = gw <= r.w ? (r.w - gw) / 2 : Math.min(0, Math.max(r.w - gw, panX));
    panY = gh <= r.h ? (r.h - gh) / 2 : Math.min(0, Math.max(r.h - gh, panY));
    const view = `${panX},${panY},${cell}`;
    if (view !== drawnView) {
      drawnView = view;
      viewChanged = true;
    }
  }

  canvas.addEventListener(
    'wheel',
    (ev) => {
      ev.preventDefault();
      const r = canvas.getBoundingClientRect();
      zoomAt(ev.deltaY < 0 ? 1.25 : 0.8, ev.clientX - r.left, ev.clientY - r.top);
    },
    { passive: false },
  );
  let drag: { x: number; y: number; px: number; py: number } | undefined;
  canvas.addEventListener('pointerdown', (ev) => {
    drag = { x: ev.clientX, y: ev.clientY, px: panX, py: panY };
    canvas.setPointerCapture(ev.pointerId);
  });
  canvas.addEventListener('pointerup', (ev) => {
    if (drag && Math.abs(ev.clientX - drag.x) + Math.abs(ev.clientY - drag.y) < 4) {
      pinnedPfn = pfnAt(ev);
      showPage(pinnedPfn);
      draw();
      // a click on a page opens its history
      if (pinnedPfn !== undefined) selectPfn(canvas, pinnedPfn);
    }
    drag = undefined;
  });
  historyBtn.addEventListener('click', () => {
    if (pinnedPfn !== undefined) selectPfn(historyBtn, pinnedPfn);
  });
  canvas.addEventListener('pointermove', (ev) => {
    if (drag) {
      panX = drag.px + ev.clientX - drag.x;
      panY = drag.py + ev.clientY - drag.y;
      clampPan(); // marks the view changed when the picture moved
      draw();
      return;
    }
    const pfn = pfnAt(ev);
    if (pfn !== hoverPfn) {
      hoverPfn = pfn;
      if (pinnedPfn === undefined) showPage(pfn);
      draw();
    }
  });
  canvas.addEventListener('pointerleave', () => {
    hoverPfn = undefined;
    if (pinnedPfn === undefined) showPage(undefined);
    draw();
  });
  const centre = () => {
    const r = sizeOf(canvas);
    return [r.w / 2, r.h / 2] as const;
  };
  zoomIn.addEventListener('click', () => zoomAt(2, ...centre()));
  zoomOut.addEventListener('click', () => zoomAt(0.5, ...centre()));
  zoomReset.addEventListener('click', () => {
    zoom = 1;
    clampPan();
    draw();
  });
  pfnInput.addEventListener('change', () => {
    const raw = pfnInput.value.trim();
    const v = /^0x[0-9a-f]{1,13}$/i.test(raw) ? parseInt(raw, 16) : /^[0-9]{1,15}$/.test(raw) ? Number(raw) : NaN;
    if (!player || Number.isNaN(v)) {
      pinnedPfn = undefined;
      hover.replaceChildren(el('p', { text: raw === '' ? '' : `"${raw.slice(0, 20)}" is not a pfn (decimal or 0x hex)` }));
      draw();
      return;
    }
    pinnedPfn = v;
    showPage(v);
    draw();
  });
  // redraw from the size cache's own observer, so the redraw never sees a stale size
  onResize(canvas, () => {
    clampPan();
    draw();
  });

  showPage(undefined);

  return {
    mark(t: FigureTerm | undefined) {
      markedPfn = t?.kind === 'pfn' ? t.pfn : undefined;
      viewChanged = true;
      draw();
    },
    update(p: Player) {
      player = p;
      setup(p.state);
      clampPan();
      draw();
      const line = compactionLine(p.state);
      if (compacting.textContent !== line) compacting.textContent = line;
      if (compacting.hidden !== (line === '')) compacting.hidden = line === '';
      if (pinnedPfn !== undefined) showPage(pinnedPfn);
    },
  };
}
