// Test fixtures only: a seeded generator for property tests (mulberry32), so a failing case
// is reproduced by its seed. Not for the model: the core has its own xoshiro256**.
export function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)]!;
  /** a string from an alphabet biased towards what parsers split on */
  const str = (max: number, alphabet = 'ab=&#%0123456789xX-_. \t\n:[]()/,') => {
    const n = int(max + 1);
    let s = '';
    for (let i = 0; i < n; i++) s += next() < 0.05 ? String.fromCharCode(int(0x10000)) : alphabet[int(alphabet.length)];
    return s;
  };
  /** mutates a valid input: delete, duplicate, insert or replace a slice */
  const mutate = (s: string) => {
    const at = int(s.length + 1);
    const len = int(8);
    switch (int(4)) {
      case 0:
        return s.slice(0, at) + s.slice(at + len);
      case 1:
        return s.slice(0, at) + s.slice(at, at + len).repeat(1 + int(3)) + s.slice(at);
      case 2:
        return s.slice(0, at) + str(6) + s.slice(at);
      default:
        return s.slice(0, at) + str(len) + s.slice(at + len);
    }
  };
  return { next, int, pick, str, mutate };
}
