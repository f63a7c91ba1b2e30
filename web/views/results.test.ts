// The results card's figures: page_fault1's zone->lock contention is of the same scored rounds
// as its score (the whole run's, warm-up included, said beside it); other workloads' are of the
// whole run, as the core counts them.
import { describe, expect, it } from 'vitest';
import type { SimStats } from '../engine/simstats';
import { EV, EventLog, FLAG, decodeEvents, encodeEvents } from '../log/events';
import { SIM_STATS } from '../scenario/core-schema';
import { runRequest } from '../scenario/request';
import { resultRows } from './results';

const stats = (over: Partial<SimStats>): SimStats => ({ ...(Object.fromEntries(SIM_STATS.map((k) => [k, 0])) as SimStats), ...over });

describe('results card', () => {
  it('gives page_fault1 the scored rounds’ contention, the window of its score', () => {
    const request = runRequest({ workload: 'page_fault1', cpus: 112, pages: 4096, preset: 'v6.7', seed: 1 });
    const rows = resultRows({ request, stats: stats({ score: 36_182_622, zoneBp: 5811, scoredZoneBp: 0 }), log: new EventLog(0) });
    const row = rows.find((r) => r[0] === 'zone-contention')!;
    expect(row[2]).toBe('0.00 %');
    expect(row[3]).toBe('of the scored rounds’ CPU time spent spinning on zone->lock (58.11 % over the whole run, warm-up included)');
    expect(rows.find((r) => r[0] === 'score')![3]).toBe('summed over tasks, the warm-up round left out');
  });

  it('gives the other workloads the whole run’s, and says so where their score counts less', () => {
    const request = runRequest({ workload: 'trunc', cpus: 1, pages: 4096, preset: 'v5.18', seed: 1 });
    const row = resultRows({ request, stats: stats({ zoneBp: 1234, scoredZoneBp: 0 }), log: new EventLog(0) }).find((r) => r[0] === 'zone-contention')!;
    expect(row[2]).toBe('12.34 %');
    expect(row[3]).toBe('of all CPUs’ time spent spinning on zone->lock, over the whole run: the set-up the score leaves out included');
    const hb = runRequest({ workload: 'hackbench', groups: 2, loops: 10, preset: 'v5.18', seed: 1 });
    expect(resultRows({ request: hb, stats: stats({ zoneBp: 5 }), log: new EventLog(0) }).find((r) => r[0] === 'zone-contention')![3]).toBe('of all CPUs’ time spent spinning on zone->lock');
  });

  it('counts drains and refills as events with the pages they moved, and calls a 6.7+ high high_min', () => {
    const log = decodeEvents(
      encodeEvents([
        { type: EV.ZONE_INIT, pfn: 0x100, order: 4, arg0: 16, arg1: 1, flags: 2, cpu: 0xffff },
        { type: EV.RMQUEUE_BULK, order: 0, cpu: 0, arg0: 63 },
        { type: EV.RMQUEUE_BULK, order: 1, cpu: 0, arg0: 31 },
        { type: EV.PCP_DRAIN, cpu: 0, arg0: 40, arg1: 600 },
        { type: EV.PCP_DRAIN, cpu: 0, arg0: 40, arg1: 560, flags: FLAG.END },
      ]),
    );
    const request = runRequest({ workload: 'page_fault1', cpus: 2, pages: 4096, preset: 'v6.7', seed: 1 });
    const rows = resultRows({ request, stats: stats({ batch: 63, high: 576 }), log });
    const row = (id: string) => rows.find((r) => r[0] === id)!;
    expect(row('refills')[2]).toBe('2 refills, 125 pages');
    expect(row('drains')[2]).toBe('1 drain, 40 pages');
    expect(row('pcp')[2]).toBe('batch 63, high_min 576');
    expect(row('pcp')[3]).toContain('not from this run’s zone');
    const old = runRequest({ workload: 'page_fault1', cpus: 2, pages: 4096, preset: 'v4.16', seed: 1 });
    expect(resultRows({ request: old, stats: stats({ batch: 31, high: 186 }), log }).find((r) => r[0] === 'pcp')![2]).toBe('batch 31, high 186');
  });
});
