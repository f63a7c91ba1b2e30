// Tiny DOM helpers. Text only ever goes in through textContent: no HTML strings anywhere.
import { SvgContext } from './svg-context';

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

// Element sizes, kept up to date by one ResizeObserver, so that drawing never reads layout
// (a getBoundingClientRect after a DOM write forces a synchronous layout: several per frame
// cost more than the drawing itself).
const sizes = new WeakMap<Element, { w: number; h: number }>();
const listeners = new WeakMap<Element, () => void>();
let observer: ResizeObserver | undefined;

/** Calls fn after the element's size changes, once the size cache holds the new size. */
export function onResize(e: Element, fn: () => void): void {
  sizeOf(e);
  listeners.set(e, fn);
}

/** The CSS size of an element, from the ResizeObserver cache (measured once on first use). */
export function sizeOf(e: Element): { w: number; h: number } {
  let s = sizes.get(e);
  if (!s) {
    const r = e.getBoundingClientRect();
    s = { w: r.width, h: r.height };
    sizes.set(e, s);
    observer ??= new ResizeObserver((entries) => {
      for (const en of entries) {
        const box = en.borderBoxSize?.[0];
        const v = sizes.get(en.target);
        if (!v) continue;
        const w = box ? box.inlineSize : en.contentRect.width;
        const h = box ? box.blockSize : en.contentRect.height;
        if (w === v.w && h === v.h) continue;
        v.w = w;
        v.h = h;
        listeners.get(en.target)?.();
      }
    });
    observer.observe(e);
  }
  return s;
}

/** Resizes a canvas's backing store to its CSS size times devicePixelRatio; returns the ratio. */
export function fitCanvas(c: HTMLCanvasElement): { w: number; h: number; dpr: number } {
  const dpr = Math.min(window.devicePixelRatio || 1, 2);
  const r = sizeOf(c);
  const w = Math.max(1, Math.round(r.w));
  const h = Math.max(1, Math.round(r.h));
  if (c.width !== Math.round(w * dpr) || c.height !== Math.round(h * dpr)) {
    c.width = Math.round(w * dpr);
    c.height = Math.round(h * dpr);
  }
  return { w, h, dpr };
}

/** While a view draws for an SVG export: its canvases inside `host` draw into SvgContexts. */
let recording: { host: Element; contexts: Map<HTMLCanvasElement, SvgContext> } | undefined;

/**
 * Runs `draw` with every canvas inside `host` drawing into an SvgContext (vector) instead of its
 * pixels; returns those contexts, by canvas, for the export to place.
 */
export function recordCanvases(host: Element, draw: () => void): Map<HTMLCanvasElement, SvgContext> {
  const contexts = new Map<HTMLCanvasElement, SvgContext>();
  recording = { host, contexts };
  try {
    draw();
  } finally {
    recording = undefined;
  }
  return contexts;
}

/** fitCanvas, then the 2D context drawing in CSS pixels; null if the browser gives no context. */
export function beginCanvas(
  c: HTMLCanvasElement,
): { ctx: CanvasRenderingContext2D; w: number; h: number; dpr: number } | null {
  if (recording?.host.contains(c)) {
    // measured now, not from the cache: the export's copy of the view was laid out just now
    const r = c.getBoundingClientRect();
    const w = Math.max(1, Math.round(r.width));
    const h = Math.max(1, Math.round(r.height));
    let ctx = recording.contexts.get(c);
    if (!ctx) recording.contexts.set(c, (ctx = new SvgContext(w, h, `c${recording.contexts.size}`)));
    // the views call only what SvgContext implements (web/ui/svg-context.ts)
    return { ctx: ctx as unknown as CanvasRenderingContext2D, w, h, dpr: 1 };
  }
  const { w, h, dpr } = fitCanvas(c);
  const ctx = c.getContext('2d');
  if (!ctx) return null;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  return { ctx, w, h, dpr };
}

export const reducedMotion = (): boolean =>
  typeof window !== 'undefined' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
