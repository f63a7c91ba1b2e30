// What each figure's legend lists: the colours that figure draws for this run, in words. A
// colour the run never produces (cold pages in a kernel without a cold list, merge-skipped
// blocks without the RFC) is left out, so the legend describes the picture in front of you.
import { EV, FLAG, type EventLog } from '../log/events';
import type { Player } from '../log/player';
import type { LegendItem } from '../ui/legend';
import { COLORS, orderRgb, rgbCss } from '../ui/palette';

interface LogTraits {
  cold: boolean;
  mergeSkipped: boolean;
  pcp: boolean;
  lru: boolean;
  compaction: boolean;
  /** a SPLIT that lists the lower half (the 2002 presets' expand()) */
  splitTop: boolean;
}

const traitCache = new WeakMap<EventLog, LogTraits>();

/** Read once per log. */
function traits(log: EventLog): LogTraits {
  let t = traitCache.get(log);
  if (t) return t;
  t = { cold: false, mergeSkipped: false, pcp: false, lru: false, compaction: false, splitTop: false };
  for (let i = 0; i < log.length; i++) {
    const type = log.type[i]!;
    if (type === EV.PCP_ADD) {
      t.pcp = true;
      if (log.flags[i]! & FLAG.COLD) t.cold = true;
    } else if (type === EV.BUDDY_ADD && log.flags[i]! & FLAG.MERGE_SKIPPED) t.mergeSkipped = true;
    else if (type === EV.LOCK_ACQUIRE && log.mt[i] === 1) t.lru = true;
    else if (type === EV.COMPACT_BEGIN) t.compaction = true;
    else if (type === EV.SPLIT && log.flags[i]! & FLAG.SPLIT_TOP) t.splitTop = true;
  }
  traitCache.set(log, t);
  return t;
}

/** A few of the order colours, lowest and highest always. */
function orderItems(maxOrder: number): LegendItem[] {
  const step = Math.max(1, Math.ceil(maxOrder / 4));
  const orders: number[] = [];
  for (let o = 0; o < maxOrder; o += step) orders.push(o);
  orders.push(maxOrder);
  return orders.map((o) => ({ color: rgbCss(orderRgb(o, maxOrder)), label: `free, order ${o}` }));
}

const when = (on: boolean, ...items: LegendItem[]) => (on ? items : []);

/** the outline of a merge's buddy or of the half a split lists: the lower half on 2002's expand() */
const buddyOutline = (t: LogTraits): LegendItem => ({ color: COLORS.buddy, label: `its buddy / ${t.splitTop ? 'lower' : 'upper'} half`, kind: 'outline' });

export function freeAreasLegend(p: Player): LegendItem[] {
  const t = traits(p.log);
  return [
    ...orderItems(p.state.geo.maxOrder),
    ...when(t.mergeSkipped, { color: COLORS.mergeSkipped, label: 'merge skipped' }),
    { color: COLORS.highlight, label: 'current event', kind: 'outline' },
    buddyOutline(t),
    ...when(t.compaction, { color: COLORS.compaction, label: 'compaction scanner', kind: 'outline' }),
  ];
}

export function blockStateLegend(p: Player): LegendItem[] {
  const t = traits(p.log);
  return [
    ...orderItems(p.state.geo.maxOrder),
    ...when(t.pcp, { color: COLORS.pcpHot, label: t.cold ? 'pcp list (hot)' : 'pcp list' }),
    ...when(t.cold, { color: COLORS.pcpCold, label: 'pcp list (cold)' }),
    { color: COLORS.allocated, label: 'allocated' },
    { color: COLORS.transit, label: 'in transit (the allocator holds it)' },
    ...when(t.mergeSkipped, { color: COLORS.mergeSkipped, label: 'merge skipped' }),
  ];
}

export function buddyTreeLegend(p: Player): LegendItem[] {
  return [
    ...blockStateLegend(p),
    { color: COLORS.grid, label: 'split into two buddies', kind: 'outline' },
    { color: COLORS.highlight, label: 'current event', kind: 'outline' },
    buddyOutline(traits(p.log)),
  ];
}

export function memMapLegend(p: Player): LegendItem[] {
  return [...blockStateLegend(p), { color: COLORS.unknown, label: 'not in the log yet' }];
}

export function pcpLegend(p: Player): LegendItem[] {
  const t = traits(p.log);
  return [
    { color: COLORS.pcpHot, label: t.cold ? 'hot pages' : 'pages on the list (count)' },
    ...when(t.cold, { color: COLORS.pcpCold, label: 'cold list' }),
    { color: '#ff8a65', label: 'high', kind: 'dash' },
    { color: '#56b4e9', label: 'batch', kind: 'dash' },
    { color: COLORS.spinning, label: 'spinning on zone->lock' },
    { color: COLORS.holding, label: 'holding zone->lock' },
  ];
}

export function lockTimelineLegend(p: Player): LegendItem[] {
  const t = traits(p.log);
  return [
    { color: COLORS.spinning, label: 'zone->lock: spinning' },
    { color: COLORS.holding, label: 'zone->lock: holding' },
    ...when(t.lru, { color: COLORS.lruSpinning, label: 'lru_lock: spinning' }, { color: COLORS.lruHolding, label: 'lru_lock: holding' }),
    { color: COLORS.highlight, label: 'now', kind: 'line' },
  ];
}
