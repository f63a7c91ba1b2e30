import { describe, expect, it } from 'vitest';
import { histBins, histCpus, histTotals, parsePcpHistogram } from './pcphist-json';

describe('pcp histograms from the core', () => {
  const h = parsePcpHistogram('{"refill":{"0":[[63,2],[126,1]],"1":[[63,1]]},"drain":{"1":[[185,1]]},"dropped":0}');

  it('reads sizes per CPU and sums them', () => {
    expect(histCpus(h)).toEqual([0, 1]);
    expect(histBins(h, 'refill')).toEqual([
      [63, 3],
      [126, 1],
    ]);
    expect(histBins(h, 'refill', 1)).toEqual([[63, 1]]);
    expect(histTotals(h, 'refill')).toEqual({ count: 4, pages: 63 * 3 + 126 });
    expect(histTotals(h, 'drain')).toEqual({ count: 1, pages: 185 });
  });

  it('refuses anything but the core’s shape', () => {
    expect(() => parsePcpHistogram('{"drain":{},"dropped":0}')).toThrow(/"refill" is not an object/);
    expect(() => parsePcpHistogram('{"refill":{},"drain":{}}')).toThrow(/dropped/);
    expect(() => parsePcpHistogram('{"refill":{"x":[]},"drain":{},"dropped":0}')).toThrow(/not a CPU number/);
    expect(() => parsePcpHistogram('{"refill":{"0":[[63]]},"drain":{},"dropped":0}')).toThrow(/\[size, count\]/);
    expect(() => parsePcpHistogram('{"refill":{"0":[[0,1]]},"drain":{},"dropped":0}')).toThrow(/\[size, count\]/);
    expect(() => parsePcpHistogram('{"refill":{"5000":[]},"drain":{},"dropped":0}')).toThrow(/not a CPU number/);
  });
});
