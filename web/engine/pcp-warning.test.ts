// The pcp warnings from a run's counters, and which workloads get them at all.
import { describe, expect, it } from 'vitest';
import { SIM_STATS } from '../scenario/core-schema';
import { groupedWarnings, pcpWarnings, pcpWarningsApply } from './pcp-warning';
import type { SimStats } from './simstats';

const stats = (over: Partial<SimStats>): SimStats => ({ ...(Object.fromEntries(SIM_STATS.map((k) => [k, 0])) as SimStats), ...over });

describe('pcp warnings', () => {
  it('says which lists never drained or never refilled, with high and what to change', () => {
    const w = pcpWarnings(stats({ pcpUsed: 4, pcpUndrained: 4, pcpUnrefilled: 2, high: 186 }));
    expect(w).toHaveLength(2);
    expect(w[0]).toMatch(/^the pcp lists never drained: free_pcppages_bulk\(\) never ran.*\(186\)/);
    expect(w[1]).toMatch(/^the pcp lists of 2 of 4 CPUs never refilled: rmqueue_bulk\(\) never ran/);
    expect(pcpWarnings(stats({ pcpUsed: 4 }))).toEqual([]);
    expect(pcpWarnings(stats({ pcpUndrained: 3 }))).toEqual([]); // no list used: nothing to say
  });

  it("calls a 6.7+ list's starting high what it is, high_min, and says it moves", () => {
    const [w] = pcpWarnings(stats({ pcpUsed: 2, pcpUndrained: 2, high: 576 }), 'v6.7');
    expect(w).toContain('its high (which starts at high_min, 576, and rises with every refill)');
    expect(w).not.toMatch(/up to high \(576\)/);
    expect(pcpWarnings(stats({ pcpUsed: 2, pcpUndrained: 2, high: 576 }), 'v6.0')[0]).toContain('up to high (576)');
  });

  it("keeps 'never drained' off a table that reads drain_pages()' own calls, not 'never refilled'", () => {
    const s = stats({ pcpUsed: 2, pcpUndrained: 2, pcpUnrefilled: 1, high: 576 });
    expect(pcpWarnings(s, 'v4.16', 'lat_drain_max_us')).toEqual([pcpWarnings(s, 'v4.16')[1]]);
    expect(pcpWarnings(s, 'v4.16', 'lat_alloc_max_us')).toHaveLength(2);
    const runs = [{ label: 'v6.7', preset: 'v6.7', tasks: 2, stats: stats({ pcpUsed: 2, pcpUndrained: 2, high: 576 }) }];
    expect(groupedWarnings(runs, 'lat_drain_p99_us')).toEqual([]);
    expect(groupedWarnings(runs)).toHaveLength(1);
  });

  it('warns for the page workloads, not for hackbench, whose configurations differ in SLUB', () => {
    expect(['page_fault1', 'parallel_free', 'stress_highalloc', 'mixed'].every(pcpWarningsApply)).toBe(true);
    expect(pcpWarningsApply('hackbench')).toBe(false);
  });
});
