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
    const items: [string, string][] = [
      ...orders.map((o): [string, string] => [rgbCss(orderRgb(o, maxOrder)), `free, order ${o}`]),
      [COLORS.pcpHot, 'pcp list (hot)'],
      [COLORS.pcpCold, 'pcp list (cold)'],
      [COLORS.allocated, 'allocated'],
      [COLORS.transit, 'in transit (held by the allocator)'],
      [COLORS.mergeSkipped, 'merge skipped'],
      [COLORS.unknown, 'not in the log yet'],
      [COLORS.spinning, 'zone->lock: spinning'],
      [COLORS.holding, 'zone->lock: holding'],
      [COLORS.lruSpinning, 'lru_lock: spinning'],
      [COLORS.lruHolding, 'lru_lock: holding'],
      [COLORS.highlight, 'outline: current event'],
      [COLORS.buddy, 'outline: buddy / upper half'],
      [COLORS.compaction, 'outline: compaction scanner / migration'],
    ];
    select(ul)
      .selectAll('li')
      .data(items)
      .join('li')
      .call((li) => {
        li.selectAll('span').remove();
        li.append('span').attr('class', 'swatch').attr('aria-hidden', 'true').style('background', (d) => d[0]);
        li.append('span').text((d) => d[1]);
      });
  }
  update(10);
  return { update };
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
  return { set, root: ul };
}
