// Buddy tree, for small zones: the binary tree of aligned blocks. A node at order k is either a
// block (filled with its state's colour), split (an outline, with edges to its two halves), or
// inside a larger block (not drawn). Buddies are siblings: pfn ^ (1 << order).

import { EV, splitHalves } from '../log/events';
import { PAGE, PF } from '../log/state';
import type { Player } from '../log/player';
import { COLORS, orderRgb, rgbCss } from '../ui/palette';
import { beginCanvas, el, fitCanvas, onResize } from '../ui/dom';
import { figureFont, monoFont } from '../ui/figfont';
import type { FigureTerm } from './terms';

export const TREE_MAX_PAGES = 1024;
/** the outline of what prose points at: the page's focus colour */

export function createBuddyTreeView(body: HTMLElement) {
  const canvas = el('canvas', {
    class: 'bt-canvas',
    role: 'img',
    'aria-label': 'Buddy tree of the zone: see the free areas and mem_map panels for the same state in text',
  });
  const note = el('p', { class: 'panel-note' });
  body.append(canvas, note);

  let last: Player | undefined;
  // what prose points at: a pfn (every block that holds it, up the tree) or an order's row
  let marked: FigureTerm | undefined;
  onResize(canvas, () => {
    if (last) update(last);
  });

  function update(p: Player) {
    last = p;
    const s = p.state;
    const g = s.geo;
    if (g.pages > TREE_MAX_PAGES) {
      canvas.style.display = 'none';
      note.textContent = `The buddy tree is drawn for zones of up to ${TREE_MAX_PAGES.toLocaleString('en')} pages; this zone has ${g.pages.toLocaleString('en')}.`;
      return;
    }
    canvas.style.display = '';
    // label column and rows grow with the figure type (presenter mode)
    const fs = figureFont(canvas).px;
    const LABEL_W = Math.ceil(fs * 0.62 * 8 + 10);
    const ROW_H = Math.max(30, Math.ceil(fs * 1.7));
    canvas.dataset['fontPx'] = String(fs);
    const { w: cw } = fitCanvas(canvas);
    const plotW = cw - LABEL_W - 8;
    const pxPerPage = plotW / g.pages;
    // orders whose nodes are at least 3 px wide
    let lowest = 0;
    while (lowest < g.maxOrder && 2 ** lowest * pxPerPage < 3) lowest++;
    const rows = g.maxOrder - lowest + 1;
    const cssH = `${rows * ROW_H + 4}px`;
    if (canvas.style.height !== cssH) canvas.style.height = cssH;
    const drawing = beginCanvas(canvas);
    if (!drawing) return;
    const { ctx, w, h } = drawing;
    ctx.clearRect(0, 0, w, h);
    ctx.font = monoFont(fs);
    ctx.textBaseline = 'middle';
    const x = (pfn: number) => LABEL_W + (pfn - g.startPfn) * pxPerPage;
    const y = (order: number) => (g.maxOrder - order) * ROW_H + 2;
    const nodeH = ROW_H - 10;

    const cur = p.currentIndex();
    const hl = new Map<string, string>();
    if (cur !== undefined && cur > 0) {
      const t = p.log.type[cur]!;
      const pfn = p.log.pfn[cur]!;
      const o = p.log.order[cur]!;
      if (t === EV.MERGE) {
        hl.set(`${o}:${pfn}`, COLORS.highlight);
        hl.set(`${o}:${g.startPfn + p.log.arg0[cur]!}`, COLORS.buddy);
      } else if (t === EV.SPLIT) {
        hl.set(`${o + 1}:${pfn}`, COLORS.highlight);
        hl.set(`${o}:${splitHalves(p.log, cur).listed}`, COLORS.buddy);
      } else if (t >= EV.BUDDY_ADD && t <= EV.FREE) {
        hl.set(`${o}:${pfn}`, COLORS.highlight);
      }
    }

    for (let order = g.maxOrder; order >= lowest; order--) {
      const size = 2 ** order;
      const yy = y(order);
      ctx.fillStyle = marked?.kind === 'order' && marked.order === order ? COLORS.focus : COLORS.muted;
      ctx.textAlign = 'left';
      ctx.fillText(`order ${order}`, 4, yy + nodeH / 2);
      const first = Math.ceil(g.startPfn / size) * size;
      for (let pfn = first; pfn + size <= g.startPfn + g.pages; pfn += size) {
        const i = pfn - g.startPfn;
        const st = s.pageState[i]!;
        const po = s.pageOrder[i]!;
        const x0 = x(pfn);
        const bw = size * pxPerPage;
        const gap = bw > 6 ? 2 : 0;
        if (st !== PAGE.UNKNOWN && po > order) continue; // inside a larger block
        if (st !== PAGE.UNKNOWN && po === order && s.pageFlags[i]! & PF.HEAD) {
          ctx.fillStyle =
            st === PAGE.BUDDY
              ? s.pageFlags[i]! & PF.MERGE_SKIPPED
                ? COLORS.mergeSkipped
                : rgbCss(orderRgb(order, g.maxOrder))
              : st === PAGE.PCP
                ? s.pageFlags[i]! & PF.COLD
                  ? COLORS.pcpCold
                  : COLORS.pcpHot
                : st === PAGE.ALLOCATED
                  ? COLORS.allocated
                  : COLORS.transit;
          ctx.fillRect(x0 + gap / 2, yy, bw - gap, nodeH);
        } else if (order > lowest) {
          // split: outline, and edges to the two halves
          ctx.strokeStyle = COLORS.grid;
          ctx.lineWidth = 1;
          ctx.strokeRect(x0 + gap / 2 + 0.5, yy + 0.5, bw - gap - 1, nodeH - 1);
          ctx.beginPath();
          ctx.moveTo(x0 + bw / 2, yy + nodeH);
          ctx.lineTo(x0 + bw / 4, yy + ROW_H);
          ctx.moveTo(x0 + bw / 2, yy + nodeH);
          ctx.lineTo(x0 + (3 * bw) / 4, yy + ROW_H);
          ctx.stroke();
        }
        if (marked?.kind === 'pfn' && marked.pfn >= pfn && marked.pfn < pfn + size && (st === PAGE.UNKNOWN || po <= order)) {
          ctx.strokeStyle = COLORS.focus;
          ctx.lineWidth = 3;
          ctx.strokeRect(x0 + 2.5, yy + 1.5, bw - 5, nodeH - 3);
        }
        const mark = hl.get(`${order}:${pfn}`);
        if (mark) {
          ctx.strokeStyle = '#000';
          ctx.lineWidth = 4;
          ctx.strokeRect(x0 + 1, yy - 1, bw - 2, nodeH + 2);
          ctx.strokeStyle = mark;
          ctx.lineWidth = 2;
          ctx.strokeRect(x0 + 1, yy - 1, bw - 2, nodeH + 2);
        }
      }
    }
    note.textContent =
      lowest > 0
        ? `Orders below ${lowest} are too narrow to draw at this width; mem_map shows every page.`
        : 'Filled: a block, coloured by state. Outlined: split into two buddies below it.';
  }

  function mark(t: FigureTerm | undefined) {
    marked = t;
    if (last) update(last);
  }

  return { update, mark };
}
