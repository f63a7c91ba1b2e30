// The compare view's diff rows on the real core (the Node WASM build): each workload's rows, the
// core's own numbers in them, and the % column saying which way is better.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { simScenario, type BlabFactory, type BlabModule } from '../engine/blab-module';
import { delta, diffCsvColumns, diffCsvRows, diffRows, measures, type DiffColumn } from './diff';
import { compareRequest } from './request';
import { parseCompare, type CompareState } from './url';

const modulePath = join(import.meta.dirname, '..', '..', 'build', 'wasm', 'node', 'blab.js');
let m: BlabModule;
beforeAll(async () => {
  if (!existsSync(modulePath)) throw new Error(`${modulePath} is missing: run "make wasm" first`);
  m = await (createRequire(import.meta.url)(modulePath) as BlabFactory)({ noInitialRun: true });
});

/** Every configuration of the link, counters only (the replayed fragmentation is the page's). */
function columns(s: CompareState): DiffColumn[] {
  return s.configs.map((c) => {
    const r = simScenario(m, compareRequest(s, c, s.cpus, 0));
    if (r.status !== 0) throw new Error(r.stderr);
    return { label: c.label, stats: r.stats!, fragmentation: 0 };
  });
}

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
    expect(names('page_fault1')).toMatch(/^throughput \(pages faulted \/ s\)\n.*zone->lock contention/s);
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
    expect(score.slice(1, 4)).toEqual(['higher', cols[0]!.stats.score.toLocaleString('en'), cols[1]!.stats.score.toLocaleString('en')]);
    expect(time[1]).toBe('lower');
    expect(time[2]).toBe(cols[0]!.stats.elapsed.toLocaleString('en'));
    // the same messages in a shorter time is more messages per second: both cells agree
    const word = (cell: string) => cell.split(' ')[1];
    expect(word(score[4]!)).toMatch(/^(better|worse)$/);
    expect(word(time[4]!)).toBe(word(score[4]!));
    // prefetch_freepointer() runs only where the prefetch is on
    const pf = row(rows, /^freelist prefetches/);
    expect(Number(pf[2]!.replace(/,/g, ''))).toBeGreaterThan(0);
    expect(pf[3]).toBe('0');
    expect(row(rows, /^remote frees/)[2]).toBe(String(cols[0]!.stats.slabFreeRemote));
    expect(cols[0]!.stats.slabAllocFast + cols[0]!.stats.slabAllocSlow).toBe(cols[0]!.stats.messages);
    for (const r of rows.slice(1)) expect(r.slice(2, 4)).not.toContain('n/a');
  }, 60_000);

  it("compares stress_highalloc's order-9 attempts with the core's success % and unusable index", () => {
    const s = parseCompare('?compare=v4.16,lu-rfc-p4&workload=stress_highalloc&cpus=2&pages=2048&attempts=4');
    const cols = columns(s);
    const rows = diffRows(cols, 'stress_highalloc');
    const success = row(rows, /^order-9 success/);
    expect(success.slice(1, 4)).toEqual(['higher', String(cols[0]!.stats.score), String(cols[1]!.stats.score)]);
    expect(row(rows, /^order-9 attempts/).slice(1, 4)).toEqual(['—', '4', '4']);
    expect(row(rows, /^cycles per attempt/)[1]).toBe('lower');
    expect(row(rows, /^unusable free space index/)[2]).toBe((cols[0]!.stats.hiUnusable / 1000).toFixed(3));
    for (const r of rows.slice(1)) expect(r.slice(2, 4)).not.toContain('n/a');
    // success is a percentage: its change is in percentage points
    expect(success[4]).toMatch(/^(±0\.00|[+-]\d+\.\d\d) pp( better| worse)?$/);
  }, 60_000);

  it('writes the CSV with plain numbers, the change as a number with its unit, and the verdict in its own column', () => {
    const s = parseCompare('?compare=v4.16,v4.17&cpus=8&pages=512');
    const cols = columns(s);
    expect(diffCsvColumns(cols)).toEqual(['measure', 'better', 'v4.16', 'v4.17', 'v4.17 vs v4.16', 'v4.17 vs v4.16 unit', 'v4.17 vs v4.16 verdict']);
    const rows = diffCsvRows(cols, 'page_fault1');
    const score = rows.find((r) => /^throughput/.test(String(r[0])))!;
    expect(score.slice(1, 4)).toEqual(['higher', cols[0]!.stats.score, cols[1]!.stats.score]);
    expect(score[4]).toBeCloseTo(((cols[1]!.stats.score - cols[0]!.stats.score) / cols[0]!.stats.score) * 100, 3);
    expect(score[5]).toBe('%');
    expect(['better', 'worse', 'same']).toContain(score[6]);
    const cont = rows.find((r) => /^zone->lock contention/.test(String(r[0])))!;
    expect(cont[2]).toBe(cols[0]!.stats.zoneBp / 100);
    expect(cont[4]).toBeCloseTo((cols[1]!.stats.zoneBp - cols[0]!.stats.zoneBp) / 100, 6);
    expect(cont[5]).toBe('pp');
    for (const r of rows) for (const c of r.slice(2)) expect(typeof c === 'number' || c === null || ['%', 'pp', 'better', 'worse', 'same', ''].includes(c)).toBe(true);
  }, 60_000);
});
