// A panel as a vector SVG document, or as a PNG at twice its size. Everything stays vector:
// an SVG drawing is copied with its computed colours, a canvas drawing comes from the view
// drawn again into an SvgContext (svg-context.ts: rects, paths and <text>), and the panel's own
// text (labels, counts, /proc text, legend entries) becomes <text> at the place it sits on the
// page, coloured boxes (legend swatches) <rect>. Controls (buttons, inputs) are left out.
// Only the panel's own nodes are used: nothing from outside the page.
import type { SvgContext } from './svg-context';

const SVG_NS = 'http://www.w3.org/2000/svg';
const TITLE_H = 28;

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const n = (v: number) => (Number.isInteger(v) ? String(v) : v.toFixed(2).replace(/\.?0+$/, ''));

/** Parts of a panel that are controls, not picture. */
const SKIP = 'button, input, select, textarea, label, .export-buttons, .howmade, .mm-tools, .lt-toggle, script, style';

function shown(e: Element): boolean {
  if (e.closest('[hidden]')) return false;
  const cs = getComputedStyle(e);
  return cs.display !== 'none' && cs.visibility !== 'hidden';
}

function textStyle(e: Element): string {
  const cs = getComputedStyle(e);
  const family = cs.fontFamily.replace(/"/g, "'");
  return `font-size="${n(parseFloat(cs.fontSize))}" font-family="${esc(family)}"${Number(cs.fontWeight) >= 600 ? ' font-weight="bold"' : ''} fill="${esc(cs.color)}"`;
}

/** A text node as one <text> per line it wraps onto (words grouped by their line box). */
function textLines(node: Text, ox: number, oy: number): string[] {
  const parent = node.parentElement!;
  const text = node.data;
  const style = textStyle(parent);
  const pre = /^pre/.test(getComputedStyle(parent).whiteSpace);
  const range = document.createRange();
  const out: string[] = [];
  const emit = (s: string, r: DOMRect) => {
    if (!s.trim() || r.width === 0) return;
    out.push(`<text x="${n(r.left - ox)}" y="${n(r.bottom - oy - r.height * 0.22)}" ${style}${pre ? ' xml:space="preserve"' : ''}>${esc(pre ? s : s.trim())}</text>`);
  };
  // split at line breaks (pre) or at spaces (wrapped prose), then join pieces on one line box
  const pieces = pre ? text.split(/(?<=\n)/) : text.split(/(?<= )/);
  let at = 0;
  let line = '';
  let box: DOMRect | undefined;
  for (const p of pieces) {
    range.setStart(node, at);
    range.setEnd(node, at + p.length);
    at += p.length;
    const rects = [...range.getClientRects()].filter((r) => r.width > 0);
    const r = rects[0];
    if (!r) continue;
    if (box && Math.abs(r.top - box.top) < 2 && !(pre && line.endsWith('\n'))) {
      line += p;
      box = new DOMRect(box.left, box.top, r.right - box.left, Math.max(box.height, r.height));
    } else {
      if (box) emit(line.replace(/\n$/, ''), box);
      line = p;
      box = r;
    }
  }
  if (box) emit(line.replace(/\n$/, ''), box);
  return out;
}

function inlineStyles(src: Element, dst: Element): void {
  const cs = getComputedStyle(src);
  for (const p of ['fill', 'stroke', 'stroke-width', 'stroke-dasharray', 'font-size', 'font-family', 'font-weight', 'opacity', 'text-anchor', 'dominant-baseline']) {
    const v = cs.getPropertyValue(p);
    if (v) (dst as SVGElement).style.setProperty(p, v);
  }
  for (let i = 0; i < src.children.length; i++) inlineStyles(src.children[i]!, dst.children[i]!);
}

/**
 * The panel's body as one standalone SVG document with `title` above it. `canvases` holds the
 * vector drawing of each canvas in the panel (the view drawn into an SvgContext); a canvas
 * without one is left out rather than pasted in as a bitmap.
 */
export function panelToSvg(panel: HTMLElement, title: string, canvases: ReadonlyMap<HTMLCanvasElement, SvgContext> = new Map()): string {
  const body = panel.querySelector<HTMLElement>('.panel-body') ?? panel;
  const r = body.getBoundingClientRect();
  const w = Math.max(1, Math.round(r.width));
  const h = Math.max(1, Math.round(body.scrollHeight || r.height));
  const ox = r.left;
  const oy = r.top - TITLE_H;
  const { backgroundColor: bg, color: ink } = getComputedStyle(panel);
  const parts: string[] = [
    `<rect width="100%" height="100%" fill="${esc(bg && bg !== 'rgba(0, 0, 0, 0)' ? bg : '#171d28')}"/>`,
    // the title in the panel's own text colour: dark on the light theme's panel, light on the dark
    `<text x="4" y="19" font-size="15" font-weight="bold" font-family="sans-serif" fill="${esc(ink || '#e6edf3')}">${esc(title)}</text>`,
  ];
  const walk = (e: Element) => {
    if (e.matches(SKIP) || !shown(e)) return;
    const er = e.getBoundingClientRect();
    if (e instanceof SVGSVGElement) {
      const g = e.cloneNode(true) as SVGSVGElement;
      inlineStyles(e, g);
      g.setAttribute('x', n(er.left - ox));
      g.setAttribute('y', n(er.top - oy));
      g.setAttribute('width', n(er.width));
      g.setAttribute('height', n(er.height));
      g.removeAttribute('class');
      g.removeAttribute('style');
      parts.push(new XMLSerializer().serializeToString(g));
      return;
    }
    if (e instanceof HTMLCanvasElement) {
      const v = canvases.get(e);
      if (v) parts.push(`<g transform="translate(${n(er.left - ox)},${n(er.top - oy)})">${v.fragment()}</g>`);
      return;
    }
    // a coloured box (a legend swatch, a bar): its background as a rect
    const cs = getComputedStyle(e);
    if (e !== body && cs.backgroundColor !== 'rgba(0, 0, 0, 0)' && er.width > 0 && er.height > 0 && er.width * er.height < 40_000) {
      const stroke = parseFloat(cs.borderTopWidth) > 0 ? ` stroke="${esc(cs.borderTopColor)}"` : '';
      parts.push(`<rect x="${n(er.left - ox)}" y="${n(er.top - oy)}" width="${n(er.width)}" height="${n(er.height)}" rx="${n(parseFloat(cs.borderTopLeftRadius) || 0)}" fill="${esc(cs.backgroundColor)}"${stroke}/>`);
    }
    for (const c of e.childNodes) {
      if (c instanceof Text) parts.push(...textLines(c, ox, oy));
      else if (c instanceof Element) walk(c);
    }
  };
  walk(body);
  return (
    `<svg xmlns="${SVG_NS}" width="${w}" height="${h + TITLE_H}" viewBox="0 0 ${w} ${h + TITLE_H}">` +
    `<title>${esc(title)}</title>${parts.join('')}</svg>`
  );
}

/** Each view's vector export, by its panel section: a view sets it when it is mounted
 * (web/views/registry.ts), the export buttons use it. */
const exporters = new WeakMap<HTMLElement, (title: string) => string>();

export function setPanelExporter(panel: HTMLElement, toSvg: (title: string) => string): void {
  exporters.set(panel, toSvg);
}

/** The panel as vector SVG: its view's own export if it has one, else the panel as it stands. */
export function exportPanelSvg(panel: HTMLElement, title: string): string {
  return (exporters.get(panel) ?? ((t: string) => panelToSvg(panel, t)))(title);
}

/** The pixel scale of exported PNGs: twice the picture's CSS size, for slides and print. */
export const PNG_SCALE = 2;

/** An SVG document as a decoded image, ready to draw onto a canvas. */
export async function svgImage(svg: string): Promise<HTMLImageElement> {
  const url = URL.createObjectURL(new Blob([svg], { type: 'image/svg+xml' }));
  try {
    const img = new Image();
    img.src = url;
    await img.decode();
    return img;
  } finally {
    URL.revokeObjectURL(url);
  }
}

/** Renders an SVG document to a PNG blob at PNG_SCALE times its size. */
export async function svgToPng(svg: string): Promise<Blob> {
  const img = await svgImage(svg);
  const c = document.createElement('canvas');
  c.width = Math.round(img.width * PNG_SCALE);
  c.height = Math.round(img.height * PNG_SCALE);
  const ctx = c.getContext('2d');
  if (!ctx) throw new Error('this browser gives no 2D canvas');
  ctx.scale(PNG_SCALE, PNG_SCALE);
  ctx.drawImage(img, 0, 0);
  return await new Promise((resolve, reject) => c.toBlob((b) => (b ? resolve(b) : reject(new Error('PNG encoding failed'))), 'image/png'));
}
