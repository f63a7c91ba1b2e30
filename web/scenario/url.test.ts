import { describe, expect, it } from 'vitest';
import { DEFAULT_SCENARIO, formatHash, parseHash, presetBatchScaleMax } from './url';

describe('URL hash state', () => {
  it('gives the defaults for an empty hash', () => {
    expect(parseHash('')).toEqual({ scenario: DEFAULT_SCENARIO, step: 0 });
    expect(parseHash('#')).toEqual({ scenario: DEFAULT_SCENARIO, step: 0 });
  });

  it('round-trips', () => {
    const u = { scenario: { pages: 262144, cpus: 16, preset: 'v4.17-pick' as const, workload: 'page_fault1' as const, seed: 42 }, step: 12345 };
    expect(parseHash(formatHash(u))).toEqual(u);
  });

  it('keeps CONFIG_PCP_BATCH_SCALE_MAX, 0..6 and on a 6.7+ preset only, and refuses the rest saying why', () => {
    const u = { scenario: { ...DEFAULT_SCENARIO, preset: 'v6.7' as const, pcpBatchScaleMax: 0 }, step: 3 };
    expect(formatHash(u)).toContain('&pcp_batch_scale_max=0&');
    expect(parseHash(formatHash(u))).toEqual(u);
    // the preset may come after it in a hand-written link
    expect(parseHash('pcp_batch_scale_max=6&preset=v6.19').scenario.pcpBatchScaleMax).toBe(6);
    expect(formatHash({ scenario: DEFAULT_SCENARIO, step: 0 })).not.toContain('pcp_batch_scale_max');
    expect(() => parseHash('preset=v6.7&pcp_batch_scale_max=7')).toThrow('pcp_batch_scale_max=7: must be between 0 and 6');
    expect(() => parseHash('preset=v6.7&pcp_batch_scale_max=-1')).toThrow('pcp_batch_scale_max=-1: expected a whole number');
    expect(() => parseHash('preset=v6.7&pcp_batch_scale_max=3x')).toThrow('expected a whole number');
    expect(() => parseHash('preset=v5.18&pcp_batch_scale_max=3')).toThrow(
      'pcp_batch_scale_max=3: preset v5.18 has no CONFIG_PCP_BATCH_SCALE_MAX (it came with 6.7, 52166607ecc9)',
    );
    expect(['v6.0', 'v6.7', 'v6.16', 'v6.19'].map(presetBatchScaleMax)).toEqual([undefined, 5, 5, 5]);
  });

  it('accepts every workload of the table, the page allocator ones from the fidelity and skip-merge work included', () => {
    for (const w of ['parallel_free', 'trunc', 'stress_highalloc', 'mixed'] as const) {
      const u = { scenario: { ...DEFAULT_SCENARIO, workload: w, cpus: 8 }, step: 3 };
      expect(parseHash(formatHash(u))).toEqual(u);
    }
  });

  it.each([
    ['#pages=1099511627776', /pages=1099511627776: must be between 16 and 4194304/],
    ['#pages=1000', /pages=1000: must be a power of two/],
    ['#cpus=0', /cpus=0: must be between 1 and 112/],
    // the modelled machine's CPUs (the core's, web/log/core-limits.ts): the form offers no more
    ['#cpus=113', /cpus=113: must be between 1 and 112/],
    ['#cpus=-1', /cpus=-1: expected a whole number/],
    ['#cpus=1e3', /expected a whole number/],
    ['#seed=99999999999999999', /expected a whole number/],
    ['#step=2147483648', /step=2147483648: must be between/],
    ['#preset=evil', /preset=evil: unknown; one of v2.5.44, v2.5.45/],
    ['#preset=__proto__', /unknown/],
    ['#workload=constructor', /workload=constructor: unknown/],
    // only workloads in web/scenario/workloads.ts (the core's table): none is made up
    ['#workload=kernbench', /workload=kernbench: unknown; one of page_fault1, hackbench, parallel_free, trunc, stress_highalloc, mixed/],
    ['#color=red', /unknown key "color"/],
    ['#cpus=2&cpus=3', /cpus appears twice/],
    ['#cpus', /"cpus": expected key=value/],
    ['#seed=%E0%A4%A', /seed: the value is not valid URL encoding/],
    ['#' + 'a'.repeat(600), /600 characters; the limit is 512/],
  ])('rejects %s', (hash, msg) => {
    expect(() => parseHash(hash)).toThrow(msg);
  });
});
