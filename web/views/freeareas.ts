// Free areas: one row per order, each free block a mark at its place in the zone
// (freeareas-paint.ts), nr_free and mm/vmstat.c's fragmentation indices at the end of the row,
// the pfn axis under it. The current event's blocks are outlined, a one-step merge or split
// moves its block between rows, and a click on a free block opens its history. Redrawn only
// when a record changed or explains the free lists.

import { format } from 'd3-format';
import { select } from 'd3-selection';
import 'd3-transition';
import { EV, splitHalves, type EventLog } from '../log/events';
import { createCoverage, outlines, paintFreeAreas, type BlockMove } from './freeareas-paint';
import { PAGE, type ZoneState } from '../log/state';
import type { Player } from '../log/player';
import { fragIndex, formatIndex } from '../log/fragindex';
import { beginCanvas, el, onResize, reducedMotion } from '../ui/dom';
import { figureFont } from '../ui/figfont';
import type { FigureTerm } from './terms';
import { createCanvasAxis } from '../ui/canvas-axis';
import { selectPfn } from './pfn-dialog';

const ROW_GAP = 6;
/** the pfn axis strip at the normal figure type; it grows with the type */
const AXIS_MIN_H = 22;
const fmt = format(',');
/** rows and the pfn axis grow with the figure type (presenter mode) */
const rowHeight = (fs: number) => Math.max(26, Math.ceil(fs * 1.35));

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

/** The rows' labels beside the canvas (order k) and what follows each row: nr_free and mm/vmstat.c's
 * fragmentation indices for a request of that order (log/fragindex.ts). */
class OrderRows {
  private labelRows: HTMLDivElement[] = [];
  private countRows: HTMLDivElement[] = [];
  private lastNr: number[] = [];

  constructor(
    private readonly labels: HTMLElement,
    private readonly counts: HTMLElement,
  ) {}

  /** orders top first, nr_free of each; a count that changed since the last step is marked. An
   * imported trace knows only the blocks it saw freed: its counts are those, said so. */
  write(orders: number[], nr: number[], rowH: number, imported = false) {
    if (orders.length !== this.labelRows.length || this.labelRows[0]?.style.height !== `${rowH}px`) {
      this.labelRows = orders.map((o) => el('div', { class: 'fa-label', text: `order ${o}` }));
      this.countRows = orders.map(() =>
        el(
          'div',
          { class: 'fa-count' },
          el('span'),
          el('span', { class: 'fa-frag', title: "the kernel's fragmentation indices (unusable_free_index() and fragmentation_index() in mm/vmstat) for a request of this order: unusable = the share of free memory in blocks too small for it; extfrag = how far a failure would be fragmentation, not want of memory (0..1, n/a when it would not fail)" }),
        ),
      );
      for (const d of [...this.labelRows, ...this.countRows]) {
        d.style.height = `${rowH}px`;
        d.style.marginBottom = `${ROW_GAP}px`;
      }
      this.labels.replaceChildren(...this.labelRows);
      this.counts.replaceChildren(...this.countRows);
      this.lastNr = [];
    }
    const lastNr = this.lastNr;
    const nrAscending = [...nr].reverse();
    orders.forEach((o, k) => {
      const d = this.countRows[k]!;
      const changed = lastNr.length > 0 && lastNr[k] !== nr[k];
      if (changed !== d.classList.contains('changed')) d.classList.toggle('changed', changed);
      if (lastNr.length && lastNr.every((v, j) => v === nr[j])) return;
      const [count, frag] = d.children as unknown as [HTMLSpanElement, HTMLSpanElement];
      const t = imported ? `${fmt(nr[k]!)} traced` : `nr_free ${fmt(nr[k]!)}`;
      if (count.textContent !== t) count.textContent = t;
      const fi = fragIndex(nrAscending, o);
      const ft = imported ? 'free before the trace: unknown' : `unusable ${formatIndex(fi.unusable)} · extfrag ${formatIndex(fi.extfrag)}`;
      if (frag.textContent !== ft) frag.textContent = ft;
    });
    this.lastNr = nr;
  }

  /** nr_free or an order's row, when the prose points at it */
  mark(t: FigureTerm | undefined) {
    for (const d of this.countRows) d.classList.toggle('marked', t?.kind === 'name' && t.name === 'nr_free');
    this.labelRows.forEach((d, k) => d.classList.toggle('marked', t?.kind === 'order' && t.order === this.labelRows.length - 1 - k));
  }
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
  const rows = new OrderRows(labels, counts);
  const cover = createCoverage();
  let lastStep = -1;
  let current: Player | undefined;
  // A one-step MERGE or SPLIT animates (d3-transition): the merged block rises a row, the half
  // expand() lists drops one. Only a transient overlay: the picture underneath is always the state at the step.
  let anim: BlockMove | undefined;
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
  /** the figure type the rows were laid out at: lecture mode (L) changes it with no new step */
  let drawnFont = 0;
  let writtenRowH = 0;
  function update(p: Player) {
    const same = p === drawnPlayer && figureFont(canvas).px === drawnFont;
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
    drawnFont = fs;
    const ROW_H = rowHeight(fs);
    const AXIS_H = Math.max(AXIS_MIN_H, Math.ceil(fs * 1.7));
    canvas.dataset['fontPx'] = String(fs);
    const height = orders.length * (ROW_H + ROW_GAP) + AXIS_H;
    if (wrap.style.height !== `${height}px`) wrap.style.height = `${height}px`;
    const nr = orders.map((o) => s.nrFreeOrder(o));

    // DOM writes only where something changed: text that is set every frame costs a layout;
    // rows laid out at another type size (lecture mode came or went) are laid out again
    if (fresh || ROW_H !== writtenRowH) rows.write(orders, nr, ROW_H, g.imported);
    writtenRowH = ROW_H;

    const drawing = beginCanvas(canvas);
    if (!drawing) return;
    const x = paintFreeAreas(p, { ...drawing, rowH: ROW_H, rowGap: ROW_GAP, cover, anim, marked });
    const w = drawing.w;

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
    rows.mark(t);
    if (current) draw(current, false);
  }

  return { update, mark };
}

