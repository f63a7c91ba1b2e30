// A view as SVG or PNG. SVG views are serialised as they are; canvas views are embedded as a
// bitmap inside an SVG (the pixels are all a canvas has). PNG draws the same picture onto a
// canvas. Only the panel's own nodes are used: nothing from outside the page.
const SVG_NS = 'http://www.w3.org/2000/svg';

/** The panel's drawing (its first svg and canvases) as one standalone SVG document. */
export function panelToSvg(panel: HTMLElement, title: string): string {
  const body = panel.querySelector('.panel-body') ?? panel;
  const r = body.getBoundingClientRect();
  const w = Math.max(1, Math.round(r.width));
  const h = Math.max(1, Math.round(r.height));
  const out = document.createElementNS(SVG_NS, 'svg');
  out.setAttribute('xmlns', SVG_NS);
  out.setAttribute('width', String(w));
  out.setAttribute('height', String(h + 24));
  out.setAttribute('viewBox', `0 0 ${w} ${h + 24}`);
  const bg = document.createElementNS(SVG_NS, 'rect');
  bg.setAttribute('width', '100%');
  bg.setAttribute('height', '100%');
  bg.setAttribute('fill', '#ffffff');
  const t = document.createElementNS(SVG_NS, 'text');
  t.setAttribute('x', '4');
  t.setAttribute('y', '16');
  t.setAttribute('font-family', 'sans-serif');
  t.setAttribute('font-size', '14');
  t.textContent = title;
  out.append(bg, t);
  for (const node of body.querySelectorAll('svg, canvas, pre')) {
    const nr = node.getBoundingClientRect();
    const x = nr.left - r.left;
    const y = nr.top - r.top + 24;
    if (node instanceof HTMLCanvasElement) {
      const img = document.createElementNS(SVG_NS, 'image');
      img.setAttribute('x', String(x));
      img.setAttribute('y', String(y));
      img.setAttribute('width', String(nr.width));
      img.setAttribute('height', String(nr.height));
      img.setAttribute('href', node.toDataURL('image/png'));
      out.append(img);
    } else if (node instanceof SVGSVGElement) {
      const g = node.cloneNode(true) as SVGSVGElement;
      g.setAttribute('x', String(x));
      g.setAttribute('y', String(y));
      // computed colours, so the file looks the same without the page's stylesheet
      inlineStyles(node, g);
      out.append(g);
    } else if (node instanceof HTMLElement) {
      node.textContent?.split('\n').forEach((line, i) => {
        const tl = document.createElementNS(SVG_NS, 'text');
        tl.setAttribute('x', String(x));
        tl.setAttribute('y', String(y + 14 * (i + 1)));
        tl.setAttribute('font-family', 'monospace');
        tl.setAttribute('font-size', '12');
        tl.setAttribute('xml:space', 'preserve');
        tl.textContent = line;
        out.append(tl);
      });
    }
  }
  return new XMLSerializer().serializeToString(out);
}

function inlineStyles(src: Element, dst: Element): void {
  const cs = getComputedStyle(src);
  for (const p of ['fill', 'stroke', 'stroke-width', 'font-size', 'font-family', 'opacity']) {
    const v = cs.getPropertyValue(p);
    if (v) (dst as SVGElement).style.setProperty(p, v);
  }
  for (let i = 0; i < src.children.length; i++) inlineStyles(src.children[i]!, dst.children[i]!);
}

/** Renders an SVG document to a PNG blob at the device's pixel ratio. */
export async function svgToPng(svg: string): Promise<Blob> {
  const url = URL.createObjectURL(new Blob([svg], { type: 'image/svg+xml' }));
  try {
    const img = new Image();
    img.src = url;
    await img.decode();
    const dpr = Math.min(window.devicePixelRatio || 1, 2);
    const c = document.createElement('canvas');
    c.width = Math.round(img.width * dpr);
    c.height = Math.round(img.height * dpr);
    const ctx = c.getContext('2d');
    if (!ctx) throw new Error('this browser gives no 2D canvas');
    ctx.scale(dpr, dpr);
    ctx.drawImage(img, 0, 0);
    return await new Promise((resolve, reject) => c.toBlob((b) => (b ? resolve(b) : reject(new Error('PNG encoding failed'))), 'image/png'));
  } finally {
    URL.revokeObjectURL(url);
  }
}
