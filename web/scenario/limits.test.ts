// docs/limits.md "In the browser" and web/scenario/limits.ts must say the same: one row per limit,
// the same value.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BROWSER_LIMITS, LimitError, checkLimit } from './limits';

describe('browser limits', () => {
  it('docs/limits.md lists every limit of web/scenario/limits.ts with its value', () => {
    const doc = readFileSync('docs/limits.md', 'utf8');
    const section = doc.slice(doc.indexOf('## In the browser'), doc.indexOf('\n## ', doc.indexOf('## In the browser') + 5));
    const rows = new Map(
      [...section.matchAll(/^\| ([^|]+?) \| ([\d,]+) \|/gm)].map((m) => [m[1]!, Number(m[2]!.replace(/,/g, ''))]),
    );
    expect(Object.fromEntries(rows)).toEqual(BROWSER_LIMITS);
  });

  it('checkLimit names the limit and both numbers', () => {
    expect(() => checkLimit('trace events (browser)', 1_000_001, 'the trace')).toThrow(LimitError);
    expect(() => checkLimit('trace events (browser)', 1_000_001, 'the trace')).toThrow(
      'the trace is 1,000,001; the limit (trace events (browser)) is 1,000,000',
    );
    expect(() => checkLimit('CPUs (URL, scenario)', Number.NaN, 'cpus')).toThrow(LimitError);
    expect(() => checkLimit('CPUs (URL, scenario)', 112, 'cpus')).not.toThrow();
    expect(() => checkLimit('CPUs (URL, scenario)', 113, 'cpus')).toThrow(LimitError);
  });
});
