// Small pure helpers of the views: row bands for mem_map's partial repaints, and the legend's
// text colour chosen for contrast (axe's color-contrast rule, WCAG 4.5:1).
import { describe, expect, it } from 'vitest';
import { mergeBands } from './memmap-image';
import { STRIP_STYLE, textOn } from './cache';
import { laneLayout } from './locktimeline';

describe('mergeBands', () => {
  it('sorts, drops empty bands, and merges overlapping or touching ones', () => {
    expect(mergeBands([[10, 12], [0, 3], [3, 5], [11, 20], [7, 7], [30, 31]])).toEqual([[0, 5], [10, 20], [30, 31]]);
    expect(mergeBands([])).toEqual([]);
  });
});

describe('textOn', () => {
  const lum = (hex: string) => {
    const lin = (c: number) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
    const [r, g, b] = [1, 3, 5].map((i) => lin(parseInt(hex.slice(i, i + 2), 16) / 255));
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
  };
  const ratio = (a: string, b: string) => {
    const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
    return (x! + 0.05) / (y! + 0.05);
  };
  it('gives at least 4.5:1 on every strip colour', () => {
    for (const s of STRIP_STYLE) expect(ratio(textOn(s.color), s.color), s.name).toBeGreaterThanOrEqual(4.5);
  });
  it('is white on dark and black on light', () => {
    expect(textOn('#10141c')).toBe('#ffffff');
    expect(textOn('#F0E442')).toBe('#000000');
  });
});

describe('laneLayout', () => {
  it('labels lanes no closer than a line of type, at every lane count, on a page and on a slide', () => {
    // 56 CPUs with lru_lock (64 lanes of 9 px) drew 13 px labels on every lane, one over another
    for (const fs of [13, 26])
      for (let all = 1; all <= 64; all++) {
        const { laneH, labelEvery } = laneLayout(all, fs);
        expect(laneH * labelEvery, `${all} lanes at ${fs} px`).toBeGreaterThanOrEqual(fs);
        if (laneH >= fs) expect(labelEvery).toBe(1); // a lane that fits its label keeps it
      }
    expect(laneLayout(64, 13)).toEqual({ laneH: 9, labelEvery: 2 });
    expect(laneLayout(8, 13)).toEqual({ laneH: 22, labelEvery: 1 });
    expect(laneLayout(16, 13)).toEqual({ laneH: 14, labelEvery: 1 }); // 8 CPUs with lru_lock, as the lessons draw them
  });
});
