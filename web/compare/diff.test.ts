// The compare view's diff rows on the real core (the Node WASM build): each workload's rows, the
// core's own numbers in them, and the % column saying which way is better.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { simScenario, type BlabFactory, type BlabModule } from '../engine/blab-module';
import { delta, diffCsvColumns, diffCsvRows, diffRows, measures, spreadDelta, WINDOW_NOTE, type DiffColumn } from './diff';
import { compareRequest, measuredSeeds, replayRequest } from './compare-request';
import { WITHIN_SPREAD } from '../lessons/compute';
import { parseCompare, type CompareState } from './compare-url';

const modulePath = join(import.meta.dirname, '..', '..', 'build', 'wasm', 'node', 'blab.js');
let m: BlabModule;
beforeAll(async () => {
  if (!existsSync(modulePath)) throw new Error(`${modulePath} is missing: run "make wasm" first`);
  m = await (createRequire(import.meta.url)(modulePath) as BlabFactory)({ noInitialRun: true });
});

/** Every configuration of the link at its seeds, counters only (as the page's pool runs them;
 * the replayed fragmentation is the page's). */
function columns(s: CompareState): DiffColumn[] {
  return s.configs.map((c) => ({
    label: c.label,
    fragmentation: 0,
    stats: measuredSeeds(s).map((seed) => {
      const r = simScenario(m, compareRequest(s, c, s.cpus, seed));
      if (r.status !== 0 || !r.stats) throw new Error(r.stderr);
      return r.stats;
    }),
  }));
}
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

const row = (rows: string[][], name: RegExp) => {
  const r = rows.find((x) => name.test(x[0]!));
  if (!r) throw new Error(`no row ${name}`);
  return r;
};

describe('the diff table', () => {
  it('says which way a change is, for a figure where higher is better and one where lower is', () => {
    expect(delta(110, 100, 'higher')).toBe('+10.0% better');
    expect(delta(110, 100, 'lower')).toBe('+10.0% worse');
    expect(delta(90, 100, 'lower')).toBe('-10.0% better');
    expect(delta(90, 100, 'higher')).toBe('-10.0% worse');
    expect(delta(90, 100, null)).toBe('-10.0%');
    expect(delta(100, 100, 'higher')).toBe('±0.0%');
    expect(delta(5, 0, 'higher')).toBe('n/a');
    expect(delta(undefined, 100, 'lower')).toBe('n/a');
    const s = (min: number, max: number) => ({ mean: (min + max) / 2, min, max, n: 3 });
    expect(spreadDelta(s(100, 110), s(95, 105), 'higher')).toBe(`+5.0% better (${WITHIN_SPREAD})`);
    expect(spreadDelta(s(100, 110), s(80, 90), 'higher')).toBe('+23.5% better');
  });

  it('measures at the link\'s size, and replays a cut-down copy of it that the player can step through', () => {
    const s = parseCompare('?compare=v4.16,v4.17&cpus=56');
    expect(compareRequest(s, s.configs[0]!, 56)).toMatchObject({ cpus: 56, pages: 4096, cacheScale: 8, maxEvents: 0, iterations: 2, clearLines: 64 });
    const replay = replayRequest(s, s.configs[0]!, 1 << 21);
    expect(replay).toMatchObject({ cpus: 56, pages: 292, iterations: 1, clearLines: 8, maxEvents: 1 << 21 });
    if (replay.workload === 'hackbench') throw new Error('page_fault1 asked for');
    expect(replay.pages * replay.cpus).toBeLessThanOrEqual(1 << 14);
    // hackbench's runs in its own fields: the state's cpus are its groups, its size the messages
    const hb = parseCompare('?compare=v4.16,v4.16:prefetch=off&workload=hackbench&cpus=8');
    expect(compareRequest(hb, hb.configs[1]!, 8)).toMatchObject({ workload: 'hackbench', groups: 8, loops: hb.pages, slubPrefetch: false, sameCpu: false });
    expect(compareRequest(hb, hb.configs[0]!, 8)).not.toHaveProperty('pages');
    expect(measuredSeeds(s)).toEqual([1, 2, 3]);
  });

  it('gives the change of a percentage in percentage points, not percent', () => {
    // contention 2.26 % -> 3.00 %: 0.74 percentage points more, not "+32.7%"
    expect(delta(3, 2.26, 'lower', true)).toBe('+0.74 pp worse');
    expect(delta(50, 75, 'higher', true)).toBe('-25.00 pp worse');
    expect(delta(2.26, 2.26, 'lower', true)).toBe('±0.00 pp');
    const pctRows = measures('page_fault1').filter((m) => /%/.test(m.name));
    expect(pctRows.length).toBeGreaterThan(0);
    for (const m of pctRows) expect(m.percent, m.name).toBe(true);
    expect(measures('stress_highalloc')[0]!.percent).toBe(true);
  });

  it('has rows that make sense for each workload', () => {
    const names = (w: Parameters<typeof measures>[0]) => measures(w).map((x) => x.name).join('\n');
    // page_fault1 scores its scored rounds: its lock contention of those rounds comes right
    // after, the whole run's (warm-up included) is said to be so
    expect(names('page_fault1')).toMatch(/^throughput \(pages faulted \/ s\)\nzone->lock contention in the scored rounds .*\nlru_lock contention in the scored rounds .*\nzone->lock contention over the whole run with its warm-up/);
    expect(names('trunc')).not.toMatch(/scored rounds/);
    // a workload that scores part of each run says which part its lock rows cover
    expect(WINDOW_NOTE.trunc).toMatch(/score counts the truncates only.*other rows count the whole run/);
    expect(WINDOW_NOTE.parallel_free).toMatch(/score counts the frees only.*other rows count the whole run/);
    expect(WINDOW_NOTE.page_fault1).toBeUndefined();
    expect(names('trunc')).toMatch(/lru_lock contention/);
    expect(names('hackbench')).toMatch(/^throughput \(messages \/ s\)\ntime until the last message is read/);
    expect(names('hackbench')).toMatch(/ALLOC_FASTPATH.*ALLOC_SLOWPATH.*FREE_FASTPATH.*FREE_SLOWPATH.*prefetch hits.*prefetch late.*prefetch wasted/s);
    expect(names('hackbench')).not.toMatch(/order-9/);
    expect(names('stress_highalloc')).toMatch(/^order-9 success \(% of attempts\)\n.*cycles per attempt.*unusable free space index at order 9/s);
    expect(names('stress_highalloc')).not.toMatch(/throughput/);
    expect(names('mixed')).toMatch(/^throughput \(order-0 pages \/ s\)\n.*lru_lock contention.*order-9 blocks got/s);
  });

  it('compares hackbench with and without the freelist prefetch on the core: time lower, messages/s higher, the same way', () => {
    const s = parseCompare('?compare=v5.18,v5.18:prefetch=off&workload=hackbench&cpus=4&messages=100');
    const cols = columns(s);
    const rows = diffRows(cols, 'hackbench');
    expect(rows[0]).toEqual(['measure', 'better', 'v5.18', 'v5.18:prefetch=off', 'v5.18:prefetch=off vs v5.18']);
    const score = row(rows, /^throughput/);
    const time = row(rows, /^time until/);
    const means = cols.map((c) => Math.round(mean(c.stats.map((x) => x.score))).toLocaleString('en'));
    expect(score.slice(1, 4)).toEqual(['higher', ...means]);
    expect(time[1]).toBe('lower');
    expect(time[2]).toBe(Math.round(mean(cols[0]!.stats.map((x) => x.elapsed!))).toLocaleString('en'));
    // the same messages in a shorter time is more messages per second: both cells agree
    const word = (cell: string) => cell.split(' ')[1];
    expect(word(score[4]!)).toMatch(/^(better|worse)$/);
    expect(word(time[4]!)).toBe(word(score[4]!));
    // prefetch_freepointer() runs only where the prefetch is on
    const pf = row(rows, /^freelist prefetches/);
    expect(Number(pf[2]!.replace(/,/g, ''))).toBeGreaterThan(0);
    expect(pf[3]).toBe('0');
    expect(row(rows, /^remote frees/)[2]).toBe(String(cols[0]!.stats[0]!.slabFreeRemote));
    for (const x of cols[0]!.stats) expect(x.slabAllocFast! + x.slabAllocSlow!).toBe(x.messages);
    // the CSV has each column's min and max too
    expect(diffCsvColumns(cols).slice(0, 8)).toEqual(['measure', 'better', 'v5.18', 'v5.18 min', 'v5.18 max', 'v5.18:prefetch=off', 'v5.18:prefetch=off min', 'v5.18:prefetch=off max']);
    for (const r of rows.slice(1)) expect(r.slice(2, 4)).not.toContain('n/a');
  }, 60_000);

  it("compares stress_highalloc's order-9 attempts with the core's success % and unusable index", () => {
    const s = parseCompare('?compare=v4.16,lu-rfc-p4&workload=stress_highalloc&cpus=2&pages=2048&attempts=4');
    const cols = columns(s);
    const rows = diffRows(cols, 'stress_highalloc');
    const success = row(rows, /^order-9 success/);
    expect(success.slice(1, 4)).toEqual(['higher', ...cols.map((c) => Math.round(mean(c.stats.map((x) => x.score))).toLocaleString('en'))]);
    expect(row(rows, /^order-9 attempts/).slice(1, 4)).toEqual(['—', '4', '4']);
    expect(row(rows, /^cycles per attempt/)[1]).toBe('lower');
    expect(row(rows, /^unusable free space index/)[2]).toBe((mean(cols[0]!.stats.map((x) => x.hiUnusable!)) / 1000).toFixed(3));
    for (const r of rows.slice(1)) expect(r.slice(2, 4)).not.toContain('n/a');
    // success is a percentage: its change is in percentage points
    expect(success[4]).toMatch(/^(±0\.00|[+-]\d+\.\d\d) pp( better| worse)?( \(within the spread\))?$/);
  }, 60_000);

  it('writes the CSV with plain numbers, the change as a number with its unit, and the verdict in its own column', () => {
    const s = parseCompare('?compare=v4.16,v4.17&cpus=8&pages=512');
    const cols = columns(s);
    const vs = 'v4.17 vs v4.16';
    expect(diffCsvColumns(cols)).toEqual(['measure', 'better', 'v4.16', 'v4.16 min', 'v4.16 max', 'v4.17', 'v4.17 min', 'v4.17 max', vs, `${vs} unit`, `${vs} verdict`, `${vs} inside the spread`]);
    const rows = diffCsvRows(cols, 'page_fault1');
    const scores = cols.map((c) => c.stats.map((x) => x.score));
    const score = rows.find((r) => /^throughput/.test(String(r[0])))!;
    expect(score.slice(1, 8)).toEqual(['higher', Math.round(mean(scores[0]!)), Math.min(...scores[0]!), Math.max(...scores[0]!), Math.round(mean(scores[1]!)), Math.min(...scores[1]!), Math.max(...scores[1]!)]);
    expect(score[8]).toBeCloseTo(((mean(scores[1]!) - mean(scores[0]!)) / mean(scores[0]!)) * 100, 3);
    expect(score[9]).toBe('%');
    expect(['better', 'worse', 'same']).toContain(score[10]);
    expect(['yes', 'no']).toContain(score[11]);
    // page_fault1's first contention row is the scored rounds', the window of its score
    const zone = cols.map((c) => mean(c.stats.map((x) => x.scoredZoneBp / 100)));
    const cont = rows.find((r) => /^zone->lock contention/.test(String(r[0])))!;
    expect(cont[2]).toBeCloseTo(zone[0]!, 6);
    expect(cont[8]).toBeCloseTo(zone[1]! - zone[0]!, 4);
    expect(cont[9]).toBe('pp');
    for (const r of rows) for (const c of r.slice(2)) expect(typeof c === 'number' || c === null || ['%', 'pp', 'better', 'worse', 'same', 'yes', 'no', ''].includes(c)).toBe(true);
  }, 60_000);

  it('has a row per latency percentile, lower is better, in µs of model time; rows no run has are left out', () => {
    const s = parseCompare('?compare=v6.7:pcp_batch_scale_max=0,v6.7&cpus=4&pages=1024');
    expect(s.configs[0]!.pcpBatchScaleMax).toBe(0);
    expect(compareRequest(s, s.configs[0]!, 4)).toMatchObject({ pcpBatchScaleMax: 0, latency: true });
    const cols = columns(s);
    const rows = diffRows(cols, 'page_fault1');
    const p99 = row(rows, /^rmqueue_bulk\(\) per refill, p99 \(µs of model time\)$/);
    expect(p99[1]).toBe('lower');
    const us = cols.map((c) => mean(c.stats.map((x) => x.latRefillP99 / x.latCpuMhz)));
    expect(p99.slice(2, 4)).toEqual(us.map((v) => v.toFixed(2)));
    // refills of up to 2,016 pages take longer than refills of 63: the default's change is worse
    expect(us[1]!).toBeGreaterThan(us[0]!);
    expect(p99[4]).toMatch(/worse/);
    for (const name of [/^allocation latency p50 /, /^allocation latency p99 /, /^allocation latency p99\.9 /, /^allocation latency, longest/, /^free latency p99 /])
      expect(row(rows, name)[1]).toBe('lower');
    // 6.7's page_fault1 lists never reach high: no drain call, so no drain rows
    expect(rows.some((r) => /^free_pcppages_bulk\(\)/.test(r[0]!))).toBe(false);
    // a configuration older than the option is refused in the link, saying why
    expect(() => parseCompare('?compare=v5.18:pcp_batch_scale_max=3,v6.7')).toThrow('preset v5.18 has no CONFIG_PCP_BATCH_SCALE_MAX (it came with 6.7, 52166607ecc9)');
    expect(() => parseCompare('?compare=v6.7:pcp_batch_scale_max=9,v6.7')).toThrow('pcp_batch_scale_max=9: must be between 0 and 6');
  }, 60_000);
});
