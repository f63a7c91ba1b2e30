// The latency view's numbers: shares of each bucket, the tail and the call it goes to, the
// percentile markers (merged where two are one value, none for a sum of paths), an lhist()'s
// share spread over its width, and the overlay drawn only over the series its function measures.
import { describe, expect, it } from 'vitest';
import type { RealHistogram } from '../log/histtext-json';
import { LAT_PATHS, type LatencyReport, type LatSummary } from '../log/latency-json';
import { markers, mergedMarkers, modelBars, nsDomain, nsText, overlayState, realBars, tailBar } from './latency-data';

const none: LatSummary = { count: 0, min: 0, avg: 0, max: 0, p50: 0, p50Lo: 0, p99: 0, p99Lo: 0, p999: 0, p999Lo: 0, log2: [], longest: [] };
const summary = (o: Partial<LatSummary>): LatSummary => ({ ...none, ...o });

/** 1,000 allocations: 990 pcp hits of 104 ns (slot 7), 10 refills of 40 µs (slot 16). */
function report(): LatencyReport {
  const hits = summary({ count: 990, min: 260, max: 260, p50: 260, p50Lo: 260, p99: 260, p99Lo: 260, p999: 260, p999Lo: 260, log2: [0, 0, 0, 0, 0, 0, 990], longest: [{ slot: 7, cpu: 1, start: 500, cycles: 260, pfn: 4096 }] });
  const refills = summary({ count: 10, min: 90_000, max: 100_000, p50: 95_000, p50Lo: 94_900, p99: 100_000, p99Lo: 100_000, p999: 100_000, p999Lo: 100_000, log2: [...new Array(15).fill(0), 10], longest: [{ slot: 16, cpu: 2, start: 9000, cycles: 100_000, pfn: 4200 }] });
  const alloc = summary({ count: 1000, min: 260, max: 100_000, p50: 260, p50Lo: 260, p99: 260, p99Lo: 260, p999: 100_000, p999Lo: 100_000, log2: [0, 0, 0, 0, 0, 0, 990, 0, 0, 0, 0, 0, 0, 0, 0, 10], longest: [...hits.longest, ...refills.longest] });
  const paths = Object.fromEntries(LAT_PATHS.map((p) => [p, p === 'alloc_pcp' ? hits : p === 'alloc_refill' ? refills : none])) as LatencyReport['paths'];
  return { cyclesPerUs: 2500, alloc, free: none, paths, cpus: [] };
}

const real = (o: Partial<RealHistogram>): RealHistogram => ({ kind: 'hist', name: '@rmqueue_bulk_ns', unit: 'nsecs', line: 3, function: 'rmqueue_bulk', mask: 0x40, total: 4, step: 0, buckets: [[4096, 8191, 1], [8192, 16383, 3]], ...o });

describe('latency view data', () => {
  it('makes each bucket a share of its series’ calls, the tail its slowest, with the call a click goes to', () => {
    const bars = modelBars(report(), 'alloc');
    expect(bars.map((b) => [b.slot, b.lo, b.hi, b.count, b.share])).toEqual([
      [7, 64, 128, 990, 99],
      [16, 32768, 65536, 10, 1],
    ]);
    expect(tailBar(bars)!.longest).toEqual({ slot: 16, cpu: 2, start: 9000, cycles: 100_000, pfn: 4200 });
    expect(modelBars(report(), 'free')).toEqual([]);
    expect(tailBar([])).toBeUndefined();
  });

  it('marks p50, p99, p99.9 in ns of the modelled clock, one label where two are one value', () => {
    const ms = markers(report(), 'alloc');
    expect(ms.map((m) => [m.name, m.ns, m.exact])).toEqual([
      ['p50', 104, true],
      ['p99', 104, true],
      ['p99.9', 40_000, true],
    ]);
    expect(mergedMarkers(ms).map((m) => [m.names.join(' = '), m.ns])).toEqual([
      ['p50 = p99', 104],
      ['p99.9', 40_000],
    ]);
    expect(markers(report(), 'alloc_refill').find((m) => m.name === 'p50')!.exact).toBe(false); // 94,900 .. 95,000
    // a sum of two paths has its buckets but no percentiles of its own
    expect(markers(report(), 'alloc_pcplist')).toEqual([]);
    expect(modelBars(report(), 'alloc_pcplist').map((b) => b.count)).toEqual([990, 10]);
    expect(markers(report(), 'free')).toEqual([]);
  });

  it('spreads an lhist() bucket’s share over its width, and leaves a log2 bucket’s as it is', () => {
    expect(realBars(real({})).map((b) => [b.lo, b.hi, b.share, b.perOctave])).toEqual([
      [4096, 8192, 25, 25],
      [8192, 16384, 75, 75],
    ]);
    // 1..2 us is one octave; 2..3 us 0.585 of one: a quarter of the calls there stand taller
    const lh = realBars(real({ kind: 'lhist', unit: 'usecs', step: 1, buckets: [[1, 1, 1], [2, 2, 3], [3, null, 5]] }));
    expect(lh.map((b) => [b.lo, b.hi, b.share])).toEqual([
      [1000, 2000, 25],
      [2000, 3000, 75],
    ]);
    expect(lh[0]!.perOctave).toBeCloseTo(25);
    expect(lh[1]!.perOctave).toBeCloseTo(75 / Math.log2(1.5));
    expect(realBars(real({ unit: '' }))).toEqual([]);
  });

  it('covers every source’s and the kernel’s buckets in whole octaves', () => {
    expect(nsDomain([modelBars(report(), 'alloc')], realBars(real({})))).toEqual([64, 65536]);
    expect(nsDomain([], [])).toEqual([1, 1024]);
  });

  it('draws the kernel’s histogram only over the series its function measures, and says so', () => {
    const d = { sources: [{ label: 'v6.7', report: report() }], real: { label: 'bpftrace hist() @rmqueue_bulk_ns', hist: real({}) } };
    expect(overlayState(d, 'rmqueue_bulk')).toEqual({ draw: true, note: "bpftrace hist() @rmqueue_bulk_ns: drawn over the model's each rmqueue_bulk() call (a refill)." });
    const no = overlayState(d, 'alloc_refill');
    expect(no.draw).toBe(false);
    expect(no.note).toContain('measures the model\'s each rmqueue_bulk() call (a refill), not allocations that refilled the list');
    expect(overlayState({ sources: [] }, 'alloc')).toEqual({ draw: false, note: '' });
  });

  it('says lengths as a reader says them', () => {
    expect([104, 999.6, 1000, 4700, 23_885.6, 100_000, 1_874_000].map(nsText)).toEqual(['104 ns', '1 µs', '1 µs', '4.7 µs', '23.9 µs', '100 µs', '1.87 ms']);
  });
});
