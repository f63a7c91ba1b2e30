// The compare page's measured runs and what it shows of them: the default link's runs are the
// ones the build ships, the chart's "% of the first" and y span, and where the replays start.
import { describe, expect, it } from 'vitest';
import { pointKey } from '../engine/point';
import { encodeEvents, decodeEvents, EV } from '../log/events';
import { yDomain, wrapText } from '../views/throughput';
import { percentOfFirst } from './compare-chart';
import { COMPARE_SET, defaultCompareKeys, measuredRequests } from './compare-points';
import { DEFAULT_COMPARE, parseCompare } from './compare-url';
import { firstDifference } from './replay-columns';

describe('the default compare link ships its measured runs', () => {
  it('ships every run the default link measures, once each: the chart at 8 task counts and 3 seeds at 56', () => {
    const link = parseCompare('?compare=v4.16,v4.17&cpus=56');
    expect(link).toEqual(DEFAULT_COMPARE);
    const r = measuredRequests(link);
    expect(r.chart.length).toBe(2 * 8);
    expect(r.diff.length).toBe(2 * 3);
    const keys = defaultCompareKeys();
    expect(new Set(keys).size).toBe(keys.length);
    expect(new Set(keys)).toEqual(new Set([...r.chart, ...r.diff].map(pointKey)));
    // 56 tasks, seed 1 is a chart point and the first seed of the table: run once
    expect(keys.length).toBe(2 * 8 + 2 * 3 - 2);
    // the kernel-sized run at 56 tasks (a key's optional fields, such as latency, follow these)
    expect(keys.filter((k) => k.startsWith('workload=page_fault1 preset=v4.17 cpus=56 pages=4096 iterations=2 seed=1 batch=0 high=0 clear_lines=64 cache_scale=8'))).toHaveLength(1);
    expect(COMPARE_SET).toBe('compare');
  });

  it('another link ships nothing of its own: some of its runs are not among the default ones', () => {
    const keys = new Set(defaultCompareKeys());
    const other = measuredRequests(parseCompare('?compare=v4.16,v4.17&cpus=28&pages=1024'));
    expect([...other.chart, ...other.diff].some((r) => !keys.has(pointKey(r)))).toBe(true);
  });
});

describe('the chart shows the difference it exists for', () => {
  const series = [
    { label: 'v4.16', points: [{ tasks: 1, score: 1e6 }, { tasks: 56, score: 8.33e6 }] },
    { label: 'v4.17', points: [{ tasks: 1, score: 1.01e6 }, { tasks: 56, score: 8.71e6 }, { tasks: 88, score: 9e6 }] },
  ];

  it('as % of the first configuration: the first a flat 100, the others relative to it at each task count', () => {
    const pct = percentOfFirst(series);
    expect(pct[0]!.points.map((p) => p.score)).toEqual([100, 100]);
    expect(pct[1]!.points.map((p) => [p.tasks, Number(p.score.toFixed(2))])).toEqual([
      [1, 101],
      [56, 104.56],
    ]);
  });

  it('scaled to the data: the span of the scores, not 0 to the linear line', () => {
    const pts = series.flatMap((s) => s.points).filter((p) => p.tasks === 56);
    const [lo, hi] = yDomain(pts, false);
    expect(lo).toBeGreaterThan(8e6);
    expect(hi).toBeLessThan(9e6);
    // the two lines lie a good part of the plot apart, where from 0 they would be 3 % of it
    expect((8.71e6 - 8.33e6) / (hi - lo)).toBeGreaterThan(0.5);
    expect(yDomain(pts, true)).toEqual([0, 8.71e6]);
  });

  it('wraps a long title on a narrow chart instead of cutting it', () => {
    const lines = wrapText('page_fault1 score against tasks: v4.16, v4.17, v4.17-pick, v5.18', 300, 14);
    expect(lines.length).toBeGreaterThan(1);
    expect(lines.join(' ')).toBe('page_fault1 score against tasks: v4.16, v4.17, v4.17-pick, v5.18');
    for (const l of lines) expect(l.length * 14 * 0.56).toBeLessThanOrEqual(300);
  });
});

describe('the replays start where the configurations first differ', () => {
  const rec = (type: number, time: number, path = 0) => ({ type, time, path, cpu: 0, pfn: 0x100, order: 0, mt: 1, flags: 0, arg0: 0, arg1: 0 });
  // a zone set-up record first, as every log has
  const log = (recs: ReturnType<typeof rec>[]) => decodeEvents(encodeEvents([{ ...rec(EV.ZONE_INIT, 0), arg0: 16, arg1: 1, order: 4, flags: 2 }, ...recs]));
  it('finds the first record in which the logs part, at the later of their times', async () => {
    const a = log([rec(EV.ALLOC, 10), rec(EV.FREE, 20), rec(EV.PCP_DRAIN, 30, 6)]);
    const b = log([rec(EV.ALLOC, 10), rec(EV.FREE, 20), rec(EV.PCP_DRAIN, 35, 5)]);
    expect(await firstDifference([a, b])).toBe(35);
    // read in slices of one record: the same answer
    expect(await firstDifference([a, b], 1)).toBe(35);
    expect(await firstDifference([a, a])).toBeUndefined();
    expect(await firstDifference([a])).toBeUndefined();
  });
});
