// Tiny DOM helpers. Text only ever goes in through textContent: no HTML strings anywhere.

type Attrs = Record<string, string | number | boolean | undefined>;

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === false) continue;
    if (k === 'class') e.className = String(v);
    else if (k === 'text') e.textContent = String(v);
    else e.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children) e.append(c);
  return e;
}

/** A titled panel section; returns the body to draw into. */
export function panel(parent: HTMLElement, id: string, title: string, note?: string): HTMLElement {
  const headingId = `${id}-title`;
  const body = el('div', { class: 'panel-body' });
  const header = el('div', { class: 'panel-head' }, el('h2', { id: headingId, text: title }));
  if (note) header.append(el('p', { class: 'panel-note', text: note }));
  parent.append(el('section', { class: `panel panel-${id}`, id, 'aria-labelledby': headingId }, header, body));
  return body;
}

/** Resizes a canvas's backing store to its CSS size times devicePixelRatio; returns the ratio. */
export function fitCanvas(c: HTMLCanvasElement): { w: number; h: number; dpr: number } {
  const dpr = Math.min(window.devicePixelRatio || 1, 2);
  const r = c.getBoundingClientRect();
  const w = Math.max(1, Math.round(r.width));
  const h = Math.max(1, Math.round(r.height));
  if (c.width !== Math.round(w * dpr) || c.height !== Math.round(h * dpr)) {
    c.width = Math.round(w * dpr);
    c.height = Math.round(h * dpr);
  }
  return { w, h, dpr };
}

export const reducedMotion = (): boolean =>
  typeof window !== 'undefined' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
