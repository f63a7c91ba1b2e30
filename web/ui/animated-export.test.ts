import { describe, expect, it } from 'vitest';
import { GIF_MAX_PIXELS, gifFrameSize } from './animated-export';

describe('animated GIF frame size', () => {
  it('is the largest figure at twice its size, as the PNG export', () => {
    expect(gifFrameSize([{ width: 400, height: 200 }, { width: 300, height: 250 }])).toEqual({ width: 800, height: 500, scale: 2 });
  });

  it('stays within the pixel bound for a large figure, keeping its shape', () => {
    const s = gifFrameSize([{ width: 1900, height: 1200 }]);
    expect(s.width * s.height).toBeLessThanOrEqual(GIF_MAX_PIXELS);
    expect(s.scale).toBeLessThan(1);
    expect(s.width / s.height).toBeCloseTo(1900 / 1200, 2);
  });

  it('never gives an empty frame', () => {
    expect(gifFrameSize([{ width: 0, height: 0 }])).toEqual({ width: 2, height: 2, scale: 2 });
  });
});
