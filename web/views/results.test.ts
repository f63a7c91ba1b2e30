// The results card's figures: page_fault1's zone->lock contention is of the same scored rounds
// as its score (the whole run's, warm-up included, said beside it); other workloads' are of the
// whole run, as the core counts them.
import { describe, expect, it } from 'vitest';
import type { SimStats } from '../engine/simstats';
import { EV, EventLog, FLAG, decodeEvents, encodeEvents } from '../log/events';
import { SIM_STATS } from '../scenario/core-schema';
import { runRequest } from '../scenario/request';
import { latencyRows, resultRows } from './results';

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

  it('shows the latencies a run counted, in model time, and none of a run that did not count them', () => {
    expect(latencyRows(stats({ latAllocCount: 0 }))).toEqual([]);
    const rows = latencyRows(stats({ latCpuMhz: 2500, latAllocCount: 131_072, latAllocP50: 260, latAllocP99: 260, latAllocP999: 23_932, latAllocMax: 156_190, latRefillCount: 1056, latRefillP50: 23_551, latRefillP99: 59_714, latRefillP999: 146_681, latRefillMax: 156_166 }));
    expect(rows.map((r) => r[0])).toEqual(['lat-alloc', 'lat-refill']); // no frees, no drains counted
    expect(rows[0]![2]).toBe('104 ns / 104 ns / 9.57 µs');
    expect(rows[0]![3]).toContain('longest 62.5 µs; 131,072 allocations, model time at 2,500 cycles a µs');
    expect(rows[1]![2]).toBe('9.42 µs / 23.9 µs / 58.7 µs');
  });
});

describe('results card: memory bandwidth and the limit that binds', () => {
  const request = runRequest({ workload: 'page_fault1', cpus: 112, pages: 4096, preset: 'v5.17', seed: 1 });
  it('gives the traffic in GB/s and the busiest socket’s share of its limit', () => {
    const rows = resultRows({ request, stats: stats({ memMbs: 183_456, memUtilBp: 9_187, memLimitMbs: 99_821, memWaitBp: 3_012, binds: 3 }), log: new EventLog(0) });
    expect(rows.find((r) => r[0] === 'memory')![2]).toBe('183.5 GB/s, 91.9 % of a socket’s 99.8 GB/s');
    const b = rows.find((r) => r[0] === 'binds')!;
    expect(b[2]).toBe('memory bandwidth');
    expect(b[3]).toBe('the CPUs spent 30.1 % of their time waiting on it, more than on any other');
  });
  it('names zone->lock by the core’s name, and says when nothing binds', () => {
    const z = resultRows({ request, stats: stats({ zoneBp: 9_070, binds: 1, memLimitMbs: 99_821 }), log: new EventLog(0) }).find((r) => r[0] === 'binds')!;
    expect(z[2]).toBe('zone->lock');
    const none = resultRows({ request, stats: stats({ binds: 0 }), log: new EventLog(0) });
    expect(none.find((r) => r[0] === 'binds')![2]).toBe('none: no wait took 10 % of the CPUs’ time');
    expect(none.find((r) => r[0] === 'memory')![2]).toBe('0.0 GB/s (no limit)');
  });
});
