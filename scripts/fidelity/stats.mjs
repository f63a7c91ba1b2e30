// Numbers over seeds and how docs/fidelity.md writes them.

export const mean = (a) => a.reduce((x, y) => x + y, 0) / a.length;
export const min = (a) => Math.min(...a);
export const max = (a) => Math.max(...a);

/** a signed percentage, one decimal: "+5.9%" */
export const pct = (x) => `${x >= 0 ? '+' : ''}${x.toFixed(1)}%`;
/** a signed number, one decimal: "+5.9" */
export const signed = (x) => `${x >= 0 ? '+' : ''}${x.toFixed(1)}`;
export const num = (x) => Math.round(x).toLocaleString('en-US');

/** "+5.9% (+5.2..+7.6)": the mean over seeds and their range; one seed: the value alone */
export function pctSpread(a) {
  if (a.length === 1) return pct(a[0]);
  return `${pct(mean(a))} (${signed(min(a))}..${signed(max(a))})`;
}

/** "91.4 (91.0..91.9)": a level (a contention %) over seeds */
export function levelSpread(a, digits = 1) {
  if (a.length === 1) return a[0].toFixed(digits);
  return `${mean(a).toFixed(digits)} (${min(a).toFixed(digits)}..${max(a).toFixed(digits)})`;
}
