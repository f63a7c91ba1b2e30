import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { repeatTrace } from './trace-repeat';

describe('repeatTrace (test fixture generator)', () => {
  for (const f of ['pf1.perf.txt', 'pf1.tracefs.txt']) {
    it(`${f}: shifts every timestamp, keeps the header once, and reaches the line count`, () => {
      const text = readFileSync(`wasm-core/tests/traces/${f}`, 'utf8');
      const r = repeatTrace(text, 10_000, 10);
      expect(r.lines).toBeGreaterThanOrEqual(10_000);
      const lines = r.text.trimEnd().split('\n');
      expect(lines.filter((l) => l.startsWith('#')).length).toBe(text.split('\n').filter((l) => l.startsWith('#')).length);
      const stamps = lines.filter((l) => !l.startsWith('#')).map((l) => Number(/\]\s+(?:\S+\s+)?(\d+\.\d+):/.exec(l)![1]));
      const body = stamps.length / r.copies;
      expect(stamps[body]! - stamps[0]!).toBeCloseTo(10, 6);
      expect(stamps.at(-1)! - stamps[body - 1]!).toBeCloseTo(10 * (r.copies - 1), 3);
    });
  }
});
