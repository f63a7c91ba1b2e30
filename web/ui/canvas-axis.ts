// An axis under a canvas drawing, from d3-axis: the canvas draws the marks, an SVG laid over its
// bottom strip draws the ticks and their labels, so the labels are text (crisp at any zoom,
// read by the SVG export) and no view draws ticks by hand.
import { axisBottom } from 'd3-axis';
import type { ScaleLinear } from 'd3-scale';
import { select } from 'd3-selection';

const SVG_NS = 'http://www.w3.org/2000/svg';

export interface CanvasAxis {
  readonly svg: SVGSVGElement;
  /** Draws the axis of scale x (in the canvas's CSS pixels) across a strip `width` wide; the
   * strip is `height` px tall when given (it grows with the figure type in presenter mode). */
  draw(x: ScaleLinear<number, number>, width: number, ticks: readonly number[], label: (v: number) => string, height?: number): void;
}

/** An SVG strip `height` px tall for the bottom of `host` (which must be position: relative). */
export function createCanvasAxis(host: HTMLElement, height: number, cls: string): CanvasAxis {
  const svg = document.createElementNS(SVG_NS, 'svg');
  svg.setAttribute('class', `canvas-axis ${cls}`);
  svg.setAttribute('aria-hidden', 'true'); // the canvas's aria-label says what the picture shows
  svg.style.height = `${height}px`;
  const g = document.createElementNS(SVG_NS, 'g');
  svg.append(g);
  host.append(svg);
  let key = '';
  return {
    svg,
    draw(x, width, ticks, label, h) {
      const k = `${x.domain().join()}|${x.range().join()}|${width}|${h}|${ticks.join()}|${ticks.map(label).join()}`;
      if (k === key) return; // unchanged: no DOM writes
      key = k;
      if (h !== undefined && h !== height) {
        height = h;
        svg.style.height = `${height}px`;
      }
      svg.setAttribute('viewBox', `0 0 ${Math.max(1, width)} ${height}`);
      svg.setAttribute('width', String(Math.max(1, width)));
      select(g)
        .call(axisBottom(x).tickValues(ticks).tickFormat((v) => label(Number(v))).tickSize(4).tickSizeOuter(0))
        .attr('font-size', null)
        .attr('font-family', null)
        .call((sel) => sel.select('.domain').remove())
        // a label at either end stays inside the strip
        .selectAll<SVGTextElement, number>('.tick text')
        .attr('text-anchor', (v) => (x(v) < 24 ? 'start' : x(v) > width - 40 ? 'end' : 'middle'));
    },
  };
}
