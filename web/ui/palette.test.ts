// The figures keep their meaning for a colour-blind reader, in both themes: the states a figure
// tells apart by colour stay apart (CIE76 ΔE) under simulated protanopia, deuteranopia and
// tritanopia (Machado, Oliveira & Fernandes 2009, severity 1), and every state stands off the
// theme's ground. Colour is never the only cue (legends name each one), so this is the floor.
import { describe, expect, it } from 'vitest';
import { COLORS, cssRgb, themeColors, type ThemeName } from './palette';

type Rgb = [number, number, number];
const MACHADO: Record<string, number[][]> = {
  none: [[1, 0, 0], [0, 1, 0], [0, 0, 1]],
  protanopia: [[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216], [-0.003882, -0.048116, 1.051998]],
  deuteranopia: [[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413], [-0.01182, 0.04294, 0.968881]],
  tritanopia: [[1.255528, -0.076749, -0.178779], [-0.078411, 0.930809, 0.147602], [0.004733, 0.691367, 0.3039]],
};
const lin = (c: number) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
function lab(rgb: Rgb, m: number[][]): Rgb {
  const l = rgb.map((c) => lin(c / 255));
  const s = m.map((row) => Math.min(1, Math.max(0, row[0]! * l[0]! + row[1]! * l[1]! + row[2]! * l[2]!)));
  const X = (0.4124 * s[0]! + 0.3576 * s[1]! + 0.1805 * s[2]!) / 0.95047;
  const Y = 0.2126 * s[0]! + 0.7152 * s[1]! + 0.0722 * s[2]!;
  const Z = (0.0193 * s[0]! + 0.1192 * s[1]! + 0.9505 * s[2]!) / 1.08883;
  const f = (t: number) => (t > 0.008856 ? Math.cbrt(t) : 7.787 * t + 16 / 116);
  return [116 * f(Y) - 16, 500 * (f(X) - f(Y)), 200 * (f(Y) - f(Z))];
}
const dE = (a: string, b: string, m: number[][]) => {
  const [p, q] = [lab(cssRgb(a), m), lab(cssRgb(b), m)];
  return Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]);
};

/** the states each figure tells apart by colour alone within one mark */
const FIGURES = (t: ThemeName): Record<string, string[]> => ({
  'pcp lists': [COLORS.pcpHot, COLORS.pcpCold],
  'a CPU on zone->lock': [COLORS.spinning, COLORS.holding, COLORS.running],
  'lock timeline': [COLORS.spinning, COLORS.holding, themeColors(t).lruSpinning, COLORS.lruHolding],
  'mem_map states': [COLORS.allocated, COLORS.pcpHot, COLORS.transit, COLORS.mergeSkipped],
  'current event and its buddy': [themeColors(t).highlight, themeColors(t).buddy],
});
// ΔE 10 and more reads as two colours at a glance; 20 against the ground keeps a mark in view
const APART = 10;
const OFF_GROUND = 20;

describe('the palette for colour-blind readers, in both themes', () => {
  for (const theme of ['dark', 'light'] as const)
    for (const [vision, m] of Object.entries(MACHADO))
      it(`${theme} theme, ${vision}: a figure's states stay apart and off the ground`, () => {
        const bad: string[] = [];
        for (const [fig, cols] of Object.entries(FIGURES(theme))) {
          for (let i = 0; i < cols.length; i++) {
            for (let j = i + 1; j < cols.length; j++) {
              const d = dE(cols[i]!, cols[j]!, m);
              if (d < APART) bad.push(`${fig}: ${cols[i]} ~ ${cols[j]} (ΔE ${d.toFixed(1)})`);
            }
            const g = dE(cols[i]!, themeColors(theme).unknown, m);
            const bg = dE(cols[i]!, themeColors(theme).background, m);
            if (Math.min(g, bg) < OFF_GROUND) bad.push(`${fig}: ${cols[i]} on the ${theme} ground (ΔE ${Math.min(g, bg).toFixed(1)})`);
          }
        }
        expect(bad).toEqual([]);
      });
});
