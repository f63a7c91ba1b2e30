// The legend: every colour named in words, with the kernel's term for it.

import { select } from 'd3-selection';
import { COLORS, orderRgb, rgbCss } from './palette';
import { el } from './dom';
import './legend.css';

export function createLegend(body: HTMLElement) {
  const ul = el('ul', { class: 'legend' });
  body.append(ul);
  let shown = -1;
  /** The order colours follow the zone's top order; redrawn only when it changes. */
  function update(maxOrder: number) {
    if (maxOrder === shown) return;
    shown = maxOrder;
    const step = Math.max(1, Math.ceil(maxOrder / 5));
    const orders: number[] = [];
    for (let o = 0; o < maxOrder; o += step) orders.push(o);
    orders.push(maxOrder);
    drawItems(ul, [
      ...orders.map((o) => ({ color: rgbCss(orderRgb(o, maxOrder)), label: `free, order ${o}` })),
      { color: COLORS.pcpHot, label: 'pcp list (hot)' },
      { color: COLORS.pcpCold, label: 'pcp list (cold)' },
      { color: COLORS.allocated, label: 'allocated' },
      { color: COLORS.transit, label: 'in transit (held by the allocator)' },
      { color: COLORS.mergeSkipped, label: 'merge skipped' },
      { color: COLORS.unknown, label: 'not in the log yet' },
      { color: COLORS.spinning, label: 'zone->lock: spinning' },
      { color: COLORS.holding, label: 'zone->lock: holding' },
      { color: COLORS.lruSpinning, label: 'lru_lock: spinning' },
      { color: COLORS.lruHolding, label: 'lru_lock: holding' },
      { color: COLORS.highlight, label: 'outline: current event' },
      { color: COLORS.buddy, label: 'outline: buddy / upper half' },
      { color: COLORS.compaction, label: 'outline: compaction scanner / migration' },
    ]);
  }
  update(10);
  return { update };
}

/** One row per entry: its swatch (a box, a line or an outline in the colour) and its words. */
function drawItems(ul: HTMLUListElement, items: readonly LegendItem[]) {
  select(ul)
    .selectAll('li')
    .data(items)
    .join('li')
    .call((li) => {
      li.selectAll('span').remove();
      li.append('span')
        .attr('class', (d) => `swatch swatch-${d.kind ?? 'fill'}`)
        .attr('aria-hidden', 'true')
        .style('--swatch', (d) => d.color);
      li.append('span').text((d) => d.label);
    });
}

/** How a legend entry's swatch looks: a filled box, a line (solid or dashed), or an outline. */
export interface LegendItem {
  color: string;
  label: string;
  kind?: 'fill' | 'line' | 'dash' | 'outline';
}

/**
 * The legend under one figure: only the colours that figure uses, each named in words. Redrawn
 * only when its entries change.
 */
export function createFigureLegend(parent: HTMLElement) {
  const ul = el('ul', { class: 'legend figure-legend', 'aria-label': 'Colours in this figure' });
  parent.append(ul);
  let shown = '';
  function set(items: readonly LegendItem[]) {
    const key = items.map((i) => `${i.color}|${i.label}|${i.kind ?? 'fill'}`).join(';');
    if (key === shown) return;
    shown = key;
    ul.hidden = items.length === 0;
    drawItems(ul, items);
  }
  return { set, root: ul };
}
