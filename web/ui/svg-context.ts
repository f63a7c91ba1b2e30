// A stand-in for a canvas's 2D context that writes SVG instead of pixels: the vector path of the
// canvas views' export. A view draws into it exactly as into its canvas (the calls the views
// use: rectangles, paths, arcs, text, dashes, clip rectangles, images); rectangles become
// <rect>, paths <path>, text <text>, and an image drawn from another canvas (mem_map's one
// pixel per page, the free areas' coverage) becomes one <rect> per run of equal pixels in a
// row, so the file stays vector and its labels stay text.

type Matrix = [number, number, number, number, number, number];

/** What save() keeps and restore() puts back, as the 2D context does. */
const SAVED = ['fillStyle', 'strokeStyle', 'lineWidth', 'font', 'textAlign', 'textBaseline', 'globalAlpha', 'dash', 'm', 'clipId'] as const;
type Saved = Pick<SvgContext, (typeof SAVED)[number]>;

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const n = (v: number) => (Number.isInteger(v) ? String(v) : v.toFixed(2).replace(/\.?0+$/, ''));

/** "bold 12px ui-monospace, DejaVu Sans Mono, monospace" -> SVG font attributes. */
function fontAttrs(font: string, scale: number): string {
  const m = /^\s*(?:(italic)\s+)?(?:(bold|[1-9]00)\s+)?([\d.]+)px\s+(.+)$/.exec(font);
  if (!m) return 'font-size="10" font-family="sans-serif"';
  const [, italic, weight, size, family] = m;
  return (
    `font-size="${n(Number(size) * scale)}" font-family="${esc(family!.trim())}"` +
    (weight ? ` font-weight="${weight}"` : '') +
    (italic ? ' font-style="italic"' : '')
  );
}

const ANCHOR: Record<string, string> = { left: 'start', start: 'start', center: 'middle', right: 'end', end: 'end' };
const BASELINE: Record<string, string> = { top: 'hanging', hanging: 'hanging', middle: 'central', alphabetic: 'alphabetic', ideographic: 'ideographic', bottom: 'text-after-edge' };

export class SvgContext {
  // the drawing state, under the 2D context's own names (the views set them directly)
  fillStyle = '#000000';
  strokeStyle = '#000000';
  lineWidth = 1;
  font = '10px sans-serif';
  textAlign: CanvasTextAlign = 'start';
  textBaseline: CanvasTextBaseline = 'alphabetic';
  globalAlpha = 1;
  imageSmoothingEnabled = false;
  /** setLineDash()'s pattern, the transform, the clip path in force */
  dash: number[] = [];
  m: Matrix = [1, 0, 0, 1, 0, 0];
  clipId: string | undefined;
  private readonly stack: Saved[] = [];
  private out: string[] = [];
  private path = '';
  private clips: string[] = [];

  constructor(
    /** the canvas's size in CSS pixels: clearRect over all of it starts the picture afresh */
    readonly width: number,
    readonly height: number,
    private readonly idPrefix = 'c',
  ) {}

  save(): void {
    const s = Object.fromEntries(SAVED.map((k) => [k, this[k]])) as Saved;
    this.stack.push({ ...s, dash: [...this.dash], m: [...this.m] as Matrix });
  }
  restore(): void {
    const s = this.stack.pop();
    if (s) Object.assign(this, s);
  }
  setTransform(a: number, b: number, c: number, d: number, e: number, f: number): void {
    this.m = [a, b, c, d, e, f];
  }
  scale(x: number, y: number): void {
    const m = this.m;
    this.m = [m[0] * x, m[1] * x, m[2] * y, m[3] * y, m[4], m[5]];
  }
  translate(x: number, y: number): void {
    const m = this.m;
    this.m = [m[0], m[1], m[2], m[3], m[4] + m[0] * x + m[2] * y, m[5] + m[1] * x + m[3] * y];
  }
  setLineDash(d: number[]): void {
    this.dash = [...d];
  }
  getLineDash(): number[] {
    return [...this.dash];
  }
  measureText(text: string): TextMetrics {
    const size = Number(/([\d.]+)px/.exec(this.font)?.[1] ?? 10);
    return { width: text.length * size * 0.6 } as TextMetrics;
  }

  /** canvas x, y in the SVG's user space (the views never rotate or skew) */
  private px(x: number, y: number): [number, number] {
    const m = this.m;
    return [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]];
  }
  private get sx(): number {
    return Math.hypot(this.m[0], this.m[1]);
  }
  private common(): string {
    return (this.globalAlpha < 1 ? ` opacity="${n(this.globalAlpha)}"` : '') + (this.clipId ? ` clip-path="url(#${this.clipId})"` : '');
  }
  private box(x: number, y: number, w: number, h: number): string {
    const [x0, y0] = this.px(x, y);
    const [x1, y1] = this.px(x + w, y + h);
    return `x="${n(Math.min(x0, x1))}" y="${n(Math.min(y0, y1))}" width="${n(Math.abs(x1 - x0))}" height="${n(Math.abs(y1 - y0))}"`;
  }

  clearRect(x: number, y: number, w: number, h: number): void {
    const [x0, y0] = this.px(x, y);
    const [x1, y1] = this.px(x + w, y + h);
    // the views clear all of it before drawing a frame: the picture starts afresh
    if (x0 <= 0 && y0 <= 0 && x1 >= this.width && y1 >= this.height) this.out = [];
  }
  fillRect(x: number, y: number, w: number, h: number): void {
    this.out.push(`<rect ${this.box(x, y, w, h)} fill="${esc(this.fillStyle)}"${this.common()}/>`);
  }
  strokeRect(x: number, y: number, w: number, h: number): void {
    this.out.push(`<rect ${this.box(x, y, w, h)} fill="none" stroke="${esc(this.strokeStyle)}" stroke-width="${n(this.lineWidth * this.sx)}"${this.dashAttr()}${this.common()}/>`);
  }
  private dashAttr(): string {
    return this.dash.length ? ` stroke-dasharray="${this.dash.map((d) => n(d * this.sx)).join(' ')}"` : '';
  }

  beginPath(): void {
    this.path = '';
  }
  moveTo(x: number, y: number): void {
    const [a, b] = this.px(x, y);
    this.path += `M${n(a)},${n(b)}`;
  }
  lineTo(x: number, y: number): void {
    const [a, b] = this.px(x, y);
    this.path += `L${n(a)},${n(b)}`;
  }
  closePath(): void {
    this.path += 'Z';
  }
  rect(x: number, y: number, w: number, h: number): void {
    this.moveTo(x, y);
    this.lineTo(x + w, y);
    this.lineTo(x + w, y + h);
    this.lineTo(x, y + h);
    this.closePath();
  }
  arc(x: number, y: number, r: number, start: number, end: number): void {
    const full = Math.abs(end - start) >= 2 * Math.PI - 1e-9;
    const R = r * this.sx;
    const p = (t: number) => this.px(x + r * Math.cos(t), y + r * Math.sin(t));
    const [ax, ay] = p(start);
    this.path += `${this.path ? 'L' : 'M'}${n(ax)},${n(ay)}`;
    if (full) {
      const [bx, by] = p(start + Math.PI);
      this.path += `A${n(R)},${n(R)} 0 1 1 ${n(bx)},${n(by)}A${n(R)},${n(R)} 0 1 1 ${n(ax)},${n(ay)}`;
    } else {
      const [bx, by] = p(end);
      this.path += `A${n(R)},${n(R)} 0 ${end - start > Math.PI ? 1 : 0} 1 ${n(bx)},${n(by)}`;
    }
  }
  stroke(): void {
    if (this.path) this.out.push(`<path d="${this.path}" fill="none" stroke="${esc(this.strokeStyle)}" stroke-width="${n(this.lineWidth * this.sx)}"${this.dashAttr()}${this.common()}/>`);
  }
  fill(): void {
    if (this.path) this.out.push(`<path d="${this.path}" fill="${esc(this.fillStyle)}"${this.common()}/>`);
  }
  clip(): void {
    const id = `${this.idPrefix}-clip${this.clips.length}`;
    this.clips.push(`<clipPath id="${id}"><path d="${this.path}"/></clipPath>`);
    this.clipId = id;
  }

  fillText(text: string, x: number, y: number): void {
    const [a, b] = this.px(x, y);
    this.out.push(
      `<text x="${n(a)}" y="${n(b)}" ${fontAttrs(this.font, this.sx)} text-anchor="${ANCHOR[this.textAlign] ?? 'start'}" ` +
        `dominant-baseline="${BASELINE[this.textBaseline] ?? 'alphabetic'}" fill="${esc(this.fillStyle)}"${this.common()}>${esc(text)}</text>`,
    );
  }

  /** An image from another canvas (or ImageData): one rect per run of equal pixels in a row. */
  drawImage(src: HTMLCanvasElement | ImageData, ...a: number[]): void {
    const sw0 = src.width;
    const sh0 = src.height;
    let [sx, sy, sw, sh, dx, dy, dw, dh] = [0, 0, sw0, sh0, 0, 0, sw0, sh0];
    if (a.length === 2) [dx, dy] = a as [number, number];
    else if (a.length === 4) [dx, dy, dw, dh] = a as [number, number, number, number];
    else if (a.length === 8) [sx, sy, sw, sh, dx, dy, dw, dh] = a as [number, number, number, number, number, number, number, number];
    if (sw <= 0 || sh <= 0) return;
    const data = src instanceof ImageData ? src : src.getContext('2d')?.getImageData(sx, sy, sw, sh);
    if (!data) return;
    const off = src instanceof ImageData ? [sx, sy] : [0, 0];
    const px = data.data;
    const cw = dw / sw;
    const ch = dh / sh;
    const runs: string[] = [];
    for (let r = 0; r < sh; r++) {
      const row = (off[1]! + r) * data.width;
      let c = 0;
      while (c < sw) {
        const i = (row + off[0]! + c) * 4;
        const rgba = (px[i]! << 24) | (px[i + 1]! << 16) | (px[i + 2]! << 8) | px[i + 3]!;
        let e = c + 1;
        while (e < sw) {
          const j = (row + off[0]! + e) * 4;
          if (((px[j]! << 24) | (px[j + 1]! << 16) | (px[j + 2]! << 8) | px[j + 3]!) !== rgba) break;
          e++;
        }
        if (px[i + 3]! > 0) {
          const fill = `rgb(${px[i]},${px[i + 1]},${px[i + 2]})`;
          const alpha = px[i + 3]! < 255 ? ` fill-opacity="${n(px[i + 3]! / 255)}"` : '';
          runs.push(`<rect ${this.box(dx + c * cw, dy + r * ch, (e - c) * cw, ch)} fill="${fill}"${alpha}/>`);
        }
        c = e;
      }
    }
    this.out.push(`<g shape-rendering="crispEdges"${this.common()}>${runs.join('')}</g>`);
  }
  putImageData(data: ImageData, dx: number, dy: number): void {
    this.drawImage(data, dx, dy);
  }

  /** What was drawn since the last full clear, as an SVG fragment (a <g>, with its clip paths). */
  fragment(): string {
    return `<g>${this.clips.length ? `<defs>${this.clips.join('')}</defs>` : ''}${this.out.join('')}</g>`;
  }
}
