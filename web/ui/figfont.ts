// The size figure labels are drawn at: --fig-font (and --fig-font-small) from the stylesheet,
// 13 px / 11 px on a normal page, 26 px / 24 px in presenter mode. Canvas views read it before
// they lay out, so their rows, lanes and label columns grow with the type instead of overlapping.
const cache = new WeakMap<Element, { v: number; px: number; small: number }>();
let version = 0;

/** Presenter mode changed the type: every figure reads its size again on its next draw. */
export function typeScaleChanged(): void {
  version++;
}

export function figureFont(e: Element): { px: number; small: number } {
  const c = cache.get(e);
  if (c && c.v === version) return c;
  const cs = getComputedStyle(e);
  const read = (name: string, dflt: number) => {
    const v = parseFloat(cs.getPropertyValue(name));
    return Number.isFinite(v) && v > 0 ? v : dflt;
  };
  const f = { v: version, px: read('--fig-font', 13), small: read('--fig-font-small', 11) };
  cache.set(e, f);
  return f;
}

/** A canvas font string at px, monospaced like the rest of the figures. */
export const monoFont = (px: number) => `${px}px ui-monospace, 'DejaVu Sans Mono', monospace`;
