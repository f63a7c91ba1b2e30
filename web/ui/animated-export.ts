// A run of figures as one animated GIF, for slides that cannot show a web page: each frame is a
// figure's own vector SVG (image.ts) drawn onto a canvas, then reduced to its 256 colours and
// written by gifenc. GIF rather than WebM: every slide program plays it (Google Slides and
// Keynote take no WebM), its frames and their times are exact rather than recorded in real time
// by MediaRecorder, and the same figures make the same bytes.
import { GIFEncoder, applyPalette, quantize } from 'gifenc';
import { svgImage } from './image';

/** The most pixels one frame may have: 1600 x 1000, a slide's width at twice a small figure. */
export const GIF_MAX_PIXELS = 1600 * 1000;
/** At most this scale: twice the figure's CSS size, as the PNG export (crisp on a projector). */
const MAX_SCALE = 2;

export interface GifOptions {
  /** how long each frame stays, in ms (GIF counts hundredths of a second) */
  delayMs: number;
  /** what shows where a smaller frame does not reach (the figure's panel colour) */
  background: string;
  /** told after each frame is written */
  onFrame?(done: number, of: number): void;
}

/** The frame's size: the largest figure's, scaled to at most MAX_SCALE and GIF_MAX_PIXELS. */
export function gifFrameSize(sizes: readonly { width: number; height: number }[]): { width: number; height: number; scale: number } {
  const w = Math.max(1, ...sizes.map((s) => s.width));
  const h = Math.max(1, ...sizes.map((s) => s.height));
  const scale = Math.min(MAX_SCALE, Math.sqrt(GIF_MAX_PIXELS / (w * h)));
  return { width: Math.max(1, Math.floor(w * scale)), height: Math.max(1, Math.floor(h * scale)), scale };
}

/** The SVG documents as the frames of one looping GIF, each `delayMs` long, top-left aligned. */
export async function svgsToGif(svgs: readonly string[], o: GifOptions): Promise<Blob> {
  if (!svgs.length) throw new Error('no figures to animate');
  const images = await Promise.all(svgs.map(svgImage));
  const size = gifFrameSize(images.map((i) => ({ width: i.width, height: i.height })));
  const canvas = document.createElement('canvas');
  canvas.width = size.width;
  canvas.height = size.height;
  const ctx = canvas.getContext('2d', { willReadFrequently: true });
  if (!ctx) throw new Error('this browser gives no 2D canvas');
  const gif = GIFEncoder();
  for (const [k, img] of images.entries()) {
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.fillStyle = o.background || '#ffffff';
    ctx.fillRect(0, 0, size.width, size.height);
    ctx.setTransform(size.scale, 0, 0, size.scale, 0, 0);
    ctx.drawImage(img, 0, 0);
    const { data } = ctx.getImageData(0, 0, size.width, size.height);
    const palette = quantize(data, 256);
    gif.writeFrame(applyPalette(data, palette), size.width, size.height, { palette, delay: o.delayMs });
    o.onFrame?.(k + 1, images.length);
    // the page stays responsive between frames
    await new Promise((r) => setTimeout(r, 0));
  }
  gif.finish();
  return new Blob([gif.bytes()], { type: 'image/gif' });
}
