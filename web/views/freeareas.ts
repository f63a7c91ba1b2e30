// Free areas: one row per order, each free block a mark at its place in the zone, nr_free at
// the end of the row. The current event's blocks are outlined: for a MERGE the block and its
// buddy in row `order` and the combined block in row `order + 1`; for a SPLIT the halves.

import { select } from 'd3-selection';
import { scaleLinear } from 'd3-scale';
import { format } from 'd3-format';
import { EV, type EventLog } from '../engine/events';
import { PAGE, PF } from '../player/state';
import type { Player } from '../player/player';
import { fragIndex, formatIndex } from '../player/fragindex';
import { COLORS, orderRgb, rgbCss } from './palette';
import { beginCanvas, el, onResize, reducedMotion } from './dom';

const ROW_H = 26;
const ROW_GAP = 6;
const AXIS_H = 22;
const fmt = format(',');

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
    case EV.SPLIT:
      return [
        { order: o + 1, pfn, color: COLORS.highlight },
        { order: o, pfn, color: COLORS.highlight },
        { order: o, pfn: pfn + 2 ** o, color: COLORS.buddy },
      ];
    case EV.BUDDY_ADD:
    case EV.BUDDY_DEL:
      return [{ order: o, pfn, color: COLORS.highlight }];
    default:
      return [];
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
  wrap.append(labels, canvas, counts);
  body.append(wrap);
  let lastNr: number[] = [];
  let lastStep = -1;
  let current: Player | undefined;
  // A one-step MERGE or SPLIT animates: the merged block rises a row, the upper half drops one.
  // Only a transient overlay: the picture underneath is always the state at the step.
  let anim: { pfn: number; pages: number; fromOrder: number; toOrder: number; t0: number } | undefined;
  const ANIM_MS = 320;

  function startAnimation(p: Player) {
    const i = p.currentIndex();
    anim = undefined;
    if (i === undefined || p.step !== lastStep + 1 || reducedMotion()) return;
    const t = p.log.type[i]!;
    const o = p.log.order[i]!;
    const pfn = p.log.pfn[i]!;
    if (t === EV.MERGE) {
      const buddy = p.log.pfn[0]! + p.log.arg0[i]!;
      anim = { pfn: Math.min(pfn, buddy), pages: 2 ** (o + 1), fromOrder: o, toOrder: o + 1, t0: performance.now() };
    } else if (t === EV.SPLIT) {
      anim = { pfn: pfn + 2 ** o, pages: 2 ** o, fromOrder: o + 1, toOrder: o, t0: performance.now() };
    }
    if (anim) {
      const tick = () => {
        if (!anim || !current) return;
        draw(current, false);
        if (performance.now() - anim.t0 < ANIM_MS) requestAnimationFrame(tick);
        else {
          anim = undefined;
          draw(current, false);
        }
      };
      requestAnimationFrame(tick);
    }
  }

  onResize(canvas, () => {
    if (current) draw(current, false);
  });

  function update(p: Player) {
    current = p;
    if (p.step !== lastStep) startAnimation(p);
    lastStep = p.step;
    draw(p, true);
  }

  /** fresh: a new step (labels and nr_free change marks); otherwise an animation frame */
  function draw(p: Player, fresh: boolean) {
    const s = p.state;
    const g = s.geo;
    const orders = Array.from({ length: s.nrOrders }, (_, k) => s.nrOrders - 1 - k); // top order first
    const height = orders.length * (ROW_H + ROW_GAP) + AXIS_H;
    if (wrap.style.height !== `${height}px`) wrap.style.height = `${height}px`;
    const nr = orders.map((o) => s.nrFreeOrder(o));
    const nrAscending = [...nr].reverse();

    if (fresh) {
      select(labels)
        .selectAll<HTMLDivElement, number>('div')
        .data(orders)
        .join('div')
        .attr('class', 'fa-label')
        .style('height', `${ROW_H}px`)
        .style('margin-bottom', `${ROW_GAP}px`)
        .text((o) => `order ${o}`);

      select(counts)
        .selectAll<HTMLDivElement, number>('div')
        .data(orders)
        .join('div')
        .attr('class', (o, k) => (lastNr.length && lastNr[k] !== nr[k] ? 'fa-count changed' : 'fa-count'))
        .style('height', `${ROW_H}px`)
        .style('margin-bottom', `${ROW_GAP}px`)
        .each(function (o, k) {
          // mm/vmstat.c's measures for a request of this order (player/fragindex.ts)
          const fi = fragIndex(nrAscending, o);
          this.replaceChildren(
            el('span', { text: `nr_free ${fmt(nr[k]!)}` }),
            el('span', {
              class: 'fa-frag',
              text: `unusable ${formatIndex(fi.unusable)} · extfrag ${formatIndex(fi.extfrag)}`,
            }),
          );
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

    // free blocks: scan the block heads
    const colors = orders.map(() => '');
    for (let o = 0; o < s.nrOrders; o++) colors[o] = rgbCss(orderRgb(o, g.maxOrder));
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

    // the current event's blocks
    ctx.lineWidth = 2;
    for (const ol of outlines(p.log, p.currentIndex())) {
      if (ol.order >= s.nrOrders) continue;
      const x0 = x(ol.pfn);
      const bw = Math.max(x(ol.pfn + 2 ** ol.order) - x0, 3);
      ctx.strokeStyle = ol.color;
      ctx.strokeRect(x0 - 1, rowY(ol.order), bw + 1, ROW_H);
    }

    if (anim && anim.toOrder < s.nrOrders) {
      const k = Math.min(1, (performance.now() - anim.t0) / ANIM_MS);
      const e = 1 - (1 - k) ** 3; // ease-out
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

    // pfn axis
    const axisY = orders.length * (ROW_H + ROW_GAP) + 4;
    ctx.fillStyle = '#c9d1d9';
    ctx.font = '13px ui-monospace, SFMono-Regular, Menlo, monospace';
    ctx.textBaseline = 'top';
    // ticks on power-of-two pfn boundaries: the numbers a block's alignment is about
    const want = Math.max(2, Math.floor(w / 120));
    const tickStep = 2 ** Math.max(0, Math.ceil(Math.log2(g.pages / want)));
    const ticks: number[] = [];
    for (let t = Math.ceil(g.startPfn / tickStep) * tickStep; t <= g.startPfn + g.pages; t += tickStep) ticks.push(t);
    for (const t of ticks) {
      const tx = x(t);
      ctx.fillRect(tx, axisY - 4, 1, 4);
      ctx.textAlign = tx < 20 ? 'left' : tx > w - 40 ? 'right' : 'center';
      ctx.fillText(`0x${t.toString(16)}`, tx, axisY);
    }
  }

  return { update };
}
