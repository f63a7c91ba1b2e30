import { describe, expect, it } from 'vitest';
import { CompareUrlError, DEFAULT_COMPARE, defaultsFor, formatCompare, parseCompare } from './compare-url';
import { presetSlubPrefetch } from '../scenario/request';

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

  it('runs hackbench with groups, messages per sender and a prefetch switch per configuration', () => {
    const s = parseCompare('?compare=v5.18,v5.18:prefetch=off&workload=hackbench&cpus=8&messages=200&seed=2&tasks=2,8');
    expect(s).toMatchObject({ workload: 'hackbench', cpus: 8, pages: 200, seed: 2, tasks: [2, 8], attempts: 0 });
    expect(s.configs[0]!.slubPrefetch).toBeUndefined();
    expect(s.configs[1]).toMatchObject({ preset: 'v5.18', slubPrefetch: false });
    expect(formatCompare(s)).toBe('?compare=v5.18,v5.18:prefetch=off&workload=hackbench&cpus=8&messages=200&seed=2&tasks=2,8');
    expect(parseCompare(formatCompare(s))).toEqual(s);
    // a bare hackbench link: its own defaults, not page_fault1's 56 CPUs x 64 pages
    expect(parseCompare('?compare&workload=hackbench')).toEqual(defaultsFor('hackbench'));
    expect(defaultsFor('hackbench')).toMatchObject({ cpus: 8, pages: 4000 });
  });

  it('keeps the playback time only when the link gives one (without: where the replays first differ), and the chart\'s y axis', () => {
    expect(DEFAULT_COMPARE.t).toBe(-1);
    expect(parseCompare('?compare=v4.16,v4.17&t=0').t).toBe(0);
    expect(formatCompare(parseCompare('?compare=v4.16,v4.17&t=0'))).toContain('&t=0');
    expect(formatCompare(DEFAULT_COMPARE)).not.toContain('t=');
    expect(DEFAULT_COMPARE.chart).toBe('data');
    for (const m of ['linear', 'pct'] as const) {
      const s = parseCompare(`?compare=v4.16,v4.17&chart=${m}`);
      expect(s.chart).toBe(m);
      expect(parseCompare(formatCompare(s))).toEqual(s);
    }
    expect(formatCompare(DEFAULT_COMPARE)).not.toContain('chart=');
    expect(() => parseCompare('?compare=v4.16,v4.17&chart=log')).toThrow(/chart=log: one of data, linear, pct/);
    expect(() => parseCompare('?compare=v4.16,lu-rfc-p4&workload=stress_highalloc&chart=pct')).toThrow(/no chart against tasks/);
  });

  it("takes the preset's SLUB freelist prefetch when a hackbench configuration does not say", () => {
    expect(presetSlubPrefetch('v5.18')).toBe(true);
    expect(presetSlubPrefetch('v2.6.25')).toBe(false);
  });

  it('runs stress_highalloc with a fill and attempts, and no chart against tasks', () => {
    const s = parseCompare('?compare=v4.16,lu-rfc-p2,lu-rfc-p4&workload=stress_highalloc&cpus=4&pages=4096&attempts=8&t=5');
    expect(s).toMatchObject({ workload: 'stress_highalloc', cpus: 4, pages: 4096, attempts: 8, tasks: [], t: 5 });
    expect(formatCompare(s)).not.toContain('tasks');
    expect(parseCompare(formatCompare(s))).toEqual(s);
  });

  it('runs mixed with its CPUs bounded by what the player follows, and sweeps more tasks for the chart', () => {
    const s = parseCompare('?compare=v4.16,lu-rfc-p4&workload=mixed&cpus=3&pages=1024&tasks=2,4,16');
    expect(s).toMatchObject({ workload: 'mixed', cpus: 3, pages: 1024, tasks: [2, 4, 16] });
    expect(parseCompare(formatCompare(s))).toEqual(s);
  });

  it('gives the defaults for a bare ?compare: the seeds\' sizes, 1 to 112 tasks at 8 points', () => {
    expect(parseCompare('?compare')).toEqual(DEFAULT_COMPARE);
    expect(DEFAULT_COMPARE).toMatchObject({ cpus: 56, pages: 4096, tasks: [1, 16, 28, 44, 56, 72, 88, 112] });
    expect(parseCompare('?compare=v4.16,v4.17&cpus=56')).toEqual(DEFAULT_COMPARE);
    // seed 000's 4-socket Skylake
    expect(parseCompare('?compare&cpus=224&tasks=1,224').tasks).toEqual([1, 224]);
  });

  it.each([
    ['?compare=v4.16', /2 to 4/],
    ['?compare=v4.16,v9.99', /unknown preset/],
    ['?compare=v4.16,v4.17:batch=0', /batch=0: must be between 1/],
    ['?compare=v4.16,v4.17:batch=9:high=3', /high must be at least batch/],
    ['?compare=v4.16,v4.16', /same configuration twice/],
    ['?compare=v4.16,v4.17&cpus=57&cpus=56', /appears twice/],
    ['?compare=v4.16,v4.17&cpus=300', /cpus=300: must be between 1 and 224/],
    ['?compare=v4.16,v4.17&cpus=224&pages=32768', /224 tasks x 32768 pages is 7340032 pages; the core's zone holds at most 4194304/],
    ['?compare=v4.16,v4.17&cpus=1&pages=32768&tasks=1,200', /200 tasks x 32768 pages/],
    ['?compare=v4.16,v4.17&bogus=1', /unknown key "bogus"/],
    ['?compare=v4.16,v4.17&workload=slab', /workload=slab: one of page_fault1, parallel_free, trunc, hackbench, stress_highalloc, mixed/],
    ['?compare=v4.16,v4.17&workload=hackbench&pages=64', /pages: hackbench takes messages= \(messages per sender\), not pages=/],
    ['?compare=v4.16,v4.17&messages=64', /messages: page_fault1 takes pages=/],
    ['?compare=v4.16,v4.17&workload=hackbench&cpus=1', /cpus=1: must be between 2 and 112/],
    ['?compare=v4.16,v4.17&workload=hackbench&messages=4001', /messages=4001: must be between 1 and 4000/],
    ['?compare=v4.16,v4.17&workload=hackbench&cpus=113', /cpus=113: must be between 2 and 112/],
    ['?compare=v4.16,v4.17:prefetch=off', /prefetch= is SLUB's freelist prefetch, for workload=hackbench only/],
    ['?compare=v5.18,v5.18:prefetch=maybe&workload=hackbench', /prefetch=maybe: on or off/],
    ['?compare=v5.18:prefetch=on,v5.18:prefetch=on&workload=hackbench', /same configuration twice/],
    ['?compare=v4.16,v4.17&workload=stress_highalloc&tasks=1,2', /tasks: stress_highalloc has no chart against tasks/],
    ['?compare=v4.16,v4.17&workload=stress_highalloc&pages=1024', /pages=1024: must be between 2048 and 8192/],
    ['?compare=v4.16,v4.17&workload=stress_highalloc&attempts=0', /attempts=0: must be between 1 and 16/],
    ['?compare=v4.16,v4.17&workload=stress_highalloc&cpus=9', /cpus=9: must be between 1 and 8/],
    ['?compare=v4.16,v4.17&attempts=4', /attempts: only stress_highalloc makes order-9 attempts, not page_fault1/],
    ['?compare=v4.16,v4.17&workload=mixed&cpus=1', /cpus=1: must be between 2 and/],
    ['?compare=v4.16,v4.17&workload=mixed&tasks=1', /tasks=1: must be between 2 and 16/],
    ['?compare=v4.16,v4.17&workload=mixed&cpus=3&pages=32769', /pages=32769: must be between 1 and 32768/],
    ['?compare=v4.16,v4.17&workload=__proto__', /workload=__proto__: one of/],
    ['?compare=v4.16,v4.17&seed=-1', /expected a whole number/],
    ['?cpus=4', /not a compare link/],
    [`?compare=${'v4.16,'.repeat(200)}`, /the limit is 600/],
  ])('%s is refused with a reason', (q, why) => {
    expect(() => parseCompare(q)).toThrow(CompareUrlError);
    expect(() => parseCompare(q)).toThrow(why);
  });
});
