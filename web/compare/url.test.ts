import { describe, expect, it } from 'vitest';
import { CompareUrlError, DEFAULT_COMPARE, formatCompare, parseCompare } from './url';

describe('compare URL state', () => {
  it('round-trips a compare of v4.16 vs v4.17 at 56 CPUs', () => {
    const s = parseCompare('?compare=v4.16,v4.17:batch=7:high=42&cpus=56&pages=64&seed=3&tasks=1,28,56&t=12345');
    expect(s.configs.map((c) => c.preset)).toEqual(['v4.16', 'v4.17']);
    expect(s.configs[1]).toMatchObject({ batch: 7, high: 42 });
    expect(s.cpus).toBe(56);
    expect(parseCompare(formatCompare(s))).toEqual(s);
  });

  it('picks an order-0 workload, and leaves it out of page_fault1 links as before', () => {
    const s = parseCompare('?compare=v5.18-prefetch,v5.18&workload=trunc&cpus=1&pages=1024&tasks=1');
    expect(s.workload).toBe('trunc');
    expect(formatCompare(s)).toContain('&workload=trunc&');
    expect(parseCompare(formatCompare(s))).toEqual(s);
    expect(formatCompare(DEFAULT_COMPARE)).not.toContain('workload');
    expect(parseCompare('?compare&workload=page_fault1')).toEqual(DEFAULT_COMPARE);
  });

  it('gives the defaults for a bare ?compare', () => {
    expect(parseCompare('?compare')).toEqual(DEFAULT_COMPARE);
  });

  it.each([
    ['?compare=v4.16', /2 to 4/],
    ['?compare=v4.16,v9.99', /unknown preset/],
    ['?compare=v4.16,v4.17:batch=0', /batch=0: must be between 1/],
    ['?compare=v4.16,v4.17:batch=9:high=3', /high must be at least batch/],
    ['?compare=v4.16,v4.16', /same configuration twice/],
    ['?compare=v4.16,v4.17&cpus=57&cpus=56', /appears twice/],
    ['?compare=v4.16,v4.17&cpus=200', /cpus=200: must be between 1 and 112/],
    ['?compare=v4.16,v4.17&cpus=112&pages=4096', /at most 32768 page faults/],
    ['?compare=v4.16,v4.17&bogus=1', /unknown key "bogus"/],
    // hackbench and the high-order workloads score something else than pages/s
    ['?compare=v4.16,v4.17&workload=hackbench', /workload=hackbench: one of page_fault1, parallel_free, trunc/],
    ['?compare=v4.16,v4.17&workload=__proto__', /workload=__proto__: one of/],
    ['?compare=v4.16,v4.17&seed=-1', /expected a whole number/],
    ['?cpus=4', /not a compare link/],
    [`?compare=${'v4.16,'.repeat(200)}`, /the limit is 600/],
  ])('%s is refused with a reason', (q, why) => {
    expect(() => parseCompare(q)).toThrow(CompareUrlError);
    expect(() => parseCompare(q)).toThrow(why);
  });
});
