// The legend: every colour named in words, with the kernel's term for it.

import { select } from 'd3-selection';
import { COLORS, orderRgb, rgbCss } from './palette';
import { el } from './dom';

export function createLegend(body: HTMLElement, maxOrder = 10) {
  const items: [string, string][] = [
    ...[0, 2, 4, 6, 8, 10].map((o): [string, string] => [rgbCss(orderRgb(o, maxOrder)), `free, order ${o}`]),
    [COLORS.pcpHot, 'pcp list (hot)'],
    [COLORS.pcpCold, 'pcp list (cold)'],
    [COLORS.allocated, 'allocated'],
    [COLORS.transit, 'in transit (held by the allocator)'],
    [COLORS.mergeSkipped, 'merge skipped'],
    [COLORS.unknown, 'not in the log yet'],
    [COLORS.spinning, 'zone->lock: spinning'],
    [COLORS.holding, 'zone->lock: holding'],
    [COLORS.highlight, 'outline: current event'],
    [COLORS.buddy, 'outline: buddy / upper half'],
  ];
  const ul = el('ul', { class: 'legend' });
  body.append(ul);
  select(ul)
    .selectAll('li')
    .data(items)
    .join('li')
    .call((li) => {
      li.append('span').attr('class', 'swatch').attr('aria-hidden', 'true').style('background', (d) => d[0]);
      li.append('span').text((d) => d[1]);
    });
}
