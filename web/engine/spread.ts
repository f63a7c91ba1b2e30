// What several seeds of one configuration say: the mean, and the spread as min..max. The model
// is deterministic, so its only run-to-run noise is the one the seed puts in (each task's start
// offset); a difference between two configurations smaller than that noise is not a result.

export interface Spread {
  mean: number;
  min: number;
  max: number;
  /** how many values (seeds) */
  n: number;
}

export function spreadOf(values: readonly number[]): Spread {
  if (values.length === 0) throw new Error('a spread needs at least one value');
  let min = Infinity;
  let max = -Infinity;
  let sum = 0;
  for (const v of values) {
    min = Math.min(min, v);
    max = Math.max(max, v);
    sum += v;
  }
  return { mean: sum / values.length, min, max, n: values.length };
}

/** True when the two ranges overlap: some seed of one lies as far as some seed of the other,
 * so the difference of the means is inside the run-to-run spread. One seed each: never. */
export function insideSpread(a: Spread, b: Spread): boolean {
  if (a.n < 2 && b.n < 2) return false;
  return a.min <= b.max && b.min <= a.max;
}
