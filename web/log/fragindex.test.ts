import { describe, expect, it } from 'vitest';
import { fragIndex, formatIndex } from './fragindex';

describe('fragmentation indices (mm/vmstat.c)', () => {
  // 16 free pages in 6 blocks: 4 x order 0, 1 x order 2, 1 x order 3
  const nr = [4, 0, 1, 1, 0];
  it('computes the unusable free space index', () => {
    expect(fragIndex(nr, 0).unusable).toBe(0);
    expect(fragIndex(nr, 3).unusable).toBe(500);
    expect(fragIndex(nr, 4).unusable).toBe(1000);
    expect(fragIndex([0, 0, 0], 1).unusable).toBe(1000);
  });
  it('computes the extfrag index, -1000 when a block is free', () => {
    expect(fragIndex(nr, 3).extfrag).toBe(-1000);
    expect(fragIndex(nr, 4).extfrag).toBe(667); // 1000 - (1000 + 16000/16) / 6
    expect(fragIndex([28, 0, 0, 0, 0], 3).extfrag).toBe(840);
    expect(fragIndex([0, 0, 0], 2).extfrag).toBe(0);
  });
  it('rejects an order outside the table', () => {
    expect(() => fragIndex(nr, 5)).toThrow(RangeError);
    expect(() => fragIndex(nr, -1)).toThrow(RangeError);
  });
  it('prints like debugfs', () => {
    expect(formatIndex(667)).toBe('0.667');
    expect(formatIndex(-1000)).toBe('-1.000');
    expect(formatIndex(1000)).toBe('1.000');
    expect(formatIndex(5)).toBe('0.005');
  });
});
