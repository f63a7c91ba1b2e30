// Colours that survive a projector and colour blindness: viridis for "free at order k" (a
// sequential scale, readable in grey), Okabe–Ito for the categorical states. Every state is also
// named in text (legend, hover panel), so colour is never the only cue.

const VIRIDIS = [
  '#440154', '#482475', '#414487', '#355f8d', '#2a788e', '#21918c',
  '#22a884', '#44bf70', '#7ad151', '#bddf26', '#fde725',
];

function hex(h: string): [number, number, number] {
  return [parseInt(h.slice(1, 3), 16), parseInt(h.slice(3, 5), 16), parseInt(h.slice(5, 7), 16)];
}

/** viridis(t), t in 0..1 */
export function viridis(t: number): [number, number, number] {
  const x = Math.max(0, Math.min(1, t)) * (VIRIDIS.length - 1);
  const i = Math.min(VIRIDIS.length - 2, Math.floor(x));
  const a = hex(VIRIDIS[i]!);
  const b = hex(VIRIDIS[i + 1]!);
  const f = x - i;
  return [0, 1, 2].map((k) => Math.round(a[k]! + (b[k]! - a[k]!) * f)) as [number, number, number];
}

/** Colour of a free block of `order` (the dark purple end is skipped: it vanishes on the dark background). */
export function orderRgb(order: number, maxOrder: number): [number, number, number] {
  return viridis(0.28 + 0.72 * (maxOrder === 0 ? 1 : order / maxOrder));
}

export const rgbCss = ([r, g, b]: [number, number, number]) => `rgb(${r} ${g} ${b})`;

export const COLORS = {
  background: '#10141c',
  unknown: '#232a36',
  allocated: '#9aa3ae',
  pcpHot: '#E69F00', // Okabe–Ito orange
  pcpCold: '#9c6b00',
  transit: '#CC79A7', // reddish purple: in the allocator's hands
  mergeSkipped: '#D55E00', // vermillion
  running: '#6b7280',
  spinning: '#D55E00',
  holding: '#56B4E9', // sky blue
  // lru_lock's lanes, apart from zone->lock's (docs/events.md: lock id 1)
  lruSpinning: '#F0E442', // yellow
  lruHolding: '#009E73', // bluish green
  highlight: '#ffffff',
  buddy: '#F0E442', // yellow: the buddy of the block being merged
  compaction: '#009E73', // bluish green: compaction's scanner and migrations
} as const;

export function cssRgb(h: string): [number, number, number] {
  return hex(h);
}
