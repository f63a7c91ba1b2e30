// The results card's figures: page_fault1's zone->lock contention is of the same scored rounds
// as its score (the whole run's, warm-up included, said beside it); other workloads' are of the
// whole run, as the core counts them.
import { describe, expect, it } from 'vitest';
import type { SimStats } from '../engine/simstats';
import { EventLog } from '../log/events';
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
