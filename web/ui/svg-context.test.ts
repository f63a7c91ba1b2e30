// The canvas stand-in the SVG export draws into: what the views call comes out as SVG elements.
import { describe, expect, it } from 'vitest';
import { SvgContext } from './svg-context';

describe('SvgContext', () => {
  it('writes rectangles, text and paths in the transformed space, with the state in force', () => {
    const c = new SvgContext(200, 100);
    c.setTransform(2, 0, 0, 2, 0, 0); // a view drawing at devicePixelRatio 2
    c.fillStyle = '#ff0000';
    c.fillRect(1, 2, 3, 4);
    c.save();
    c.globalAlpha = 0.5;
    c.font = 'bold 12px ui-monospace, monospace';
    c.textAlign = 'center';
    c.textBaseline = 'middle';
    c.fillText('order <0>', 10, 20);
    c.restore();
    c.strokeStyle = '#00ff00';
    c.lineWidth = 1;
    c.setLineDash([4, 3]);
    c.beginPath();
    c.moveTo(0, 0);
    c.lineTo(5, 5);
    c.stroke();
    const svg = c.fragment();
    expect(svg).toContain('<rect x="2" y="4" width="6" height="8" fill="#ff0000"/>');
    expect(svg).toContain('<text x="20" y="40" font-size="24" font-family="ui-monospace, monospace" font-weight="bold" text-anchor="middle" dominant-baseline="central" fill="#ff0000" opacity="0.5">order &lt;0&gt;</text>');
    expect(svg).toContain('<path d="M0,0L10,10" fill="none" stroke="#00ff00" stroke-width="2" stroke-dasharray="8 6"/>');
    // restore() put the alpha back: the path is opaque
    expect(svg).not.toMatch(/<path[^>]*opacity/);
  });

  it('a clear of the whole canvas starts the picture afresh; a clip is a clipPath', () => {
    const c = new SvgContext(50, 50);
    c.fillRect(0, 0, 10, 10);
    c.clearRect(0, 0, 50, 50);
    c.beginPath();
    c.rect(0, 10, 50, 20);
    c.clip();
    c.fillRect(5, 5, 5, 5);
    const svg = c.fragment();
    expect(svg.match(/<rect/g)).toHaveLength(1);
    expect(svg).toContain('<clipPath id="c-clip0"><path d="M0,10L50,10L50,30L0,30Z"/></clipPath>');
    expect(svg).toContain('clip-path="url(#c-clip0)"');
  });
});
