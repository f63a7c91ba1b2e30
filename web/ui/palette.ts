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

/** What depends on the page's theme (web/ui/theme.ts): the ground, text and outlines. The
 * states' Okabe–Ito colours are the same in both; the yellow that marks a buddy on the dark
 * ground is lost on white, so the light theme marks it in Okabe–Ito blue. */
const THEMED = {
  dark: { background: '#10141c', unknown: '#232a36', highlight: '#ffffff', buddy: '#F0E442', lruSpinning: '#F0E442', focus: '#f0e442', text: '#e6edf3', muted: '#aab4c0', grid: '#4a5568', ink: '#10141c' },
  light: { background: '#ffffff', unknown: '#dde3ea', highlight: '#000000', buddy: '#0072B2', lruSpinning: '#b8a500', focus: '#0072B2', text: '#111827', muted: '#4b5563', grid: '#8b96a5', ink: '#10141c' },
} as const;
export type ThemeName = keyof typeof THEMED;
const themed = () => THEMED[typeof document !== 'undefined' && document.documentElement.dataset['theme'] === 'light' ? 'light' : 'dark'];
/** The theme-dependent colours of `theme` (tests check both). */
export const themeColors = (theme: ThemeName) => THEMED[theme];

export const COLORS = {
  get background() {
    return themed().background;
  },
  get unknown() {
    return themed().unknown;
  },
  // darker than the reddish purple of 'in transit', which a red-green colour-blind eye sees as grey
  allocated: '#767f8b',
  pcpHot: '#E69F00', // Okabe–Ito orange
  pcpCold: '#9c6b00',
  transit: '#CC79A7', // reddish purple: in the allocator's hands
  mergeSkipped: '#D55E00', // vermillion
  running: '#6b7280',
  spinning: '#D55E00',
  holding: '#56B4E9', // sky blue
  // lru_lock's lanes, apart from zone->lock's (docs/events.md: lock id 1)
  get lruSpinning() {
    return themed().lruSpinning; // yellow (darker on white)
  },
  lruHolding: '#009E73', // bluish green
  /** the current event's outline: white on the dark ground, black on the light */
  get highlight() {
    return themed().highlight;
  },
  /** the buddy of the block being merged */
  get buddy() {
    return themed().buddy;
  },
  compaction: '#009E73', // bluish green: compaction's scanner and migrations
  /** what prose points at in a figure */
  get focus() {
    return themed().focus;
  },
  /** labels, and the quieter ones, drawn in canvases */
  get text() {
    return themed().text;
  },
  get muted() {
    return themed().muted;
  },
  /** outlines and grid lines drawn in canvases */
  get grid() {
    return themed().grid;
  },
};

export function cssRgb(h: string): [number, number, number] {
  return hex(h);
}
