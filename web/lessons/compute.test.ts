// Lesson tables on the real core (the Node WASM build): every number comes from a run, the
// same table computes the same numbers twice, and a predict answer resolves from it.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { simScenario, type BlabFactory, type BlabModule } from '../engine/blab-module';
import { acqPerPage, type SimStats } from '../engine/simstats';
import { serialPoints, type PointsRunner } from '../engine/point';
import { cellSpread, computeTable, formatMetric, simRequest, gainPct, gainText, metricValue, resolveRef, signedPct, tableCells, tableWarnings, WITHIN_SPREAD, type TableResult } from './compute';
import { parseLesson } from './parse';
import type { LessonTable } from './lesson';

const root = join(import.meta.dirname, '..', '..');
const modulePath = join(root, 'build', 'wasm', 'node', 'blab.js');
let m: BlabModule;
let run: PointsRunner;
beforeAll(async () => {
  if (!existsSync(modulePath)) throw new Error(`${modulePath} is missing: run "make wasm" first`);
  m = await (createRequire(import.meta.url)(modulePath) as BlabFactory)({ noInitialRun: true });
  run = serialPoints(async (req) => simScenario(m, req));
});

/** A table cut down for a unit test: fewer rows, one seed (the real ones run in the browser). */
const cut = (t: LessonTable, tasks: number[], seeds = 1): LessonTable => ({ ...t, tasks, seeds });
/** A table whose runs map pages (any but hackbench's), so a test may change its size. */
function pagesTable(t: LessonTable): Exclude<LessonTable, { workload: 'hackbench' }> {
  if (t.workload === 'hackbench') throw new Error(`table ${t.name} runs hackbench: it has loops, not pages`);
  return t;
}
/** The k-th seed's counters of row i, config j. */
const at = (r: TableResult, i: number, j: number, k = 0) => r.runs[i]![j]![k]!;

const hotcold = () => parseLesson('lessons/02-hotcold.md', readFileSync(join(root, 'lessons', '02-hotcold.md'), 'utf8'));

describe('lesson tables on the core', () => {
  it('computes lesson 2\'s lock table: 2 acquisitions per page without pcp lists, far fewer with them', async () => {
    const l = hotcold();
    const t = pagesTable(l.tables['locks']!);
    expect([t.pages, t.seeds, t.cacheScale]).toEqual([4096, 3, 8]);
    const a = await computeTable(run, t);
    const b = await computeTable(run, t);
    expect(tableCells(a, true)).toEqual(tableCells(b, true));
    expect(a.runs).toEqual(b.runs);
    // no pcp: every page is one allocation and one free under zone->lock, whatever the seed
    for (let k = 0; k < t.seeds; k++) expect(acqPerPage(at(a, 0, 0, k))).toBeCloseTo(2, 2);
    expect(acqPerPage(at(a, 0, 1))).toBeLessThan(0.5);
    const step = l.steps.find((s) => s.table === 'locks')!;
    if (step.predict?.kind !== 'number' || typeof step.predict.answer === 'number') throw new Error('expected answer_from');
    // an answer is the mean over the seeds (8 tasks, v2.5.45)
    const eight = t.tasks.indexOf(8);
    const mean = [0, 1, 2].reduce((x, k) => x + acqPerPage(at(a, eight, 1, k)), 0) / 3;
    expect(resolveRef(step.predict.answer, a)).toBeCloseTo(mean, 9);
  }, 120_000);

  it('gives the same table whatever order the points come back in (a pool finishes them in any order)', async () => {
    const t = cut(hotcold().tables['sdet']!, [1, 2], 2);
    const serial = await computeTable(run, t);
    const reversed: PointsRunner = async (reqs, onPoint) => {
      const outs: SimStats[] = [];
      await run(reqs, (i, stats) => (outs[i] = stats));
      for (let i = reqs.length - 1; i >= 0; i--) onPoint(i, outs[i]!);
    };
    const rows: number[] = [];
    const other = await computeTable(reversed, t, t.configs, (_r, i) => rows.push(i));
    expect(other.runs).toEqual(serial.runs);
    expect(tableCells(other, true)).toEqual(tableCells(serial, true));
    expect(rows).toEqual([1, 0]); // each row reported once, when its last run came in
  }, 120_000);

  it('applies batch and high overrides and reports them in the counters', async () => {
    const r = simScenario(m, { workload: 'page_fault1', cpus: 2, pages: 64, iterations: 1, seed: 1, preset: 'v4.16', maxEvents: 0, batch: 5, high: 20, clearLines: 4 });
    expect(r.status).toBe(0);
    expect(r.events.byteLength).toBe(0); // maxEvents 0: no log
    const s = r.stats!;
    expect([s.batch, s.high]).toEqual([5, 20]);
    const bad = simScenario(m, { workload: 'page_fault1', cpus: 2, pages: 64, iterations: 1, seed: 1, preset: 'v4.16', maxEvents: 0, clearLines: 65 });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/clear_lines must be 1..64/);
  });

  it("computes lesson 5's hackbench table: the prefetch gains with remote frees, hardly at all on the same CPU", async () => {
    const l = parseLesson('lessons/05-slub-prefetch.md', readFileSync(join(root, 'lessons', '05-slub-prefetch.md'), 'utf8'));
    const remote = await computeTable(run, cut(l.tables['hackbench']!, l.tables['hackbench']!.tasks));
    const control = await computeTable(run, cut(l.tables['control']!, l.tables['control']!.tasks));
    // the table's runs say what they are in hackbench's own fields, as the lesson does: its rows
    // are groups, its loops the messages each sender sends, each config's switches by name
    const t = l.tables['hackbench']!;
    if (t.workload !== 'hackbench') throw new Error('lesson 5 table "hackbench" runs hackbench');
    expect([t.tasks, t.loops]).toEqual([[2, 4, 8], 4000]);
    expect(simRequest(t, t.configs[0]!, 4)).toMatchObject({ workload: 'hackbench', groups: 4, loops: 4000, slubPrefetch: false, sameCpu: false });
    expect(tableCells(remote)[0]![0]).toBe('groups');
    // its configs differ in SLUB's switches: no advice about the pcp lists' pages per task
    expect(tableWarnings(remote)).toEqual([]);
    expect(simRequest(l.tables['control']!, l.tables['control']!.configs[1]!, 4)).toMatchObject({ slubPrefetch: true, sameCpu: true });
    // columns: prefetch off, on (virtual ms: lower is faster)
    for (let i = 0; i < remote.table.tasks.length; i++) {
      const [remoteOff, remoteOn, sameOff, sameOn] = [at(remote, i, 0), at(remote, i, 1), at(control, i, 0), at(control, i, 1)].map((s) => metricValue(s, 'time_ms'));
      expect(remoteOn!).toBeLessThan(remoteOff! * 0.99);
      expect(Math.abs(gainPct(sameOff!, sameOn!))).toBeLessThan(0.5);
      expect(sameOff!).toBeLessThan(remoteOff!); // no cache-to-cache transfers at all
    }
  }, 120_000);

  it("computes lesson 6's tables: zone->lock contention down and lru_lock up at 56 tasks; order 9 dearer with skip-merge", async () => {
    const l = parseLesson('lessons/06-skip-merge.md', readFileSync(join(root, 'lessons', '06-skip-merge.md'), 'utf8'));
    const zl = await computeTable(run, cut(l.tables['zlock']!, [56]));
    const [base, p2, p4] = [0, 1, 2].map((j) => at(zl, 0, j)); // v4.16, lu-rfc-p2, lu-rfc-p4
    expect(p4!.zoneBp).toBeLessThan(base!.zoneBp);
    // the table's own metric, the scored round: the cover letter's "about 0" (under 5 %)
    expect(metricValue(p4!, 'zone_bp_scored')).toBeLessThan(5);
    expect(metricValue(base!, 'zone_bp_scored')).toBeGreaterThan(30);
    expect(p4!.lruBp).toBeGreaterThan(base!.lruBp * 2); // v4.16 already queues a little on the shared LRU list
    expect(p4!.lruBp).toBeGreaterThan(p2!.lruBp);
    const frag = await computeTable(run, cut(l.tables['hifrag']!, l.tables['hifrag']!.tasks));
    const cost = await computeTable(run, cut(l.tables['hicost']!, l.tables['hicost']!.tasks));
    for (let i = 0; i < frag.table.tasks.length; i++) {
      expect(metricValue(at(frag, i, 1), 'hi_unusable')).toBeGreaterThan(metricValue(at(frag, i, 0), 'hi_unusable'));
      // the cost table sets the two compacting presets side by side (lu-rfc-p2, lu-rfc-p4): each
      // far dearer than the base, which finds a free order-9 block (hifrag's runs, column 0)
      for (const j of [0, 1]) {
        expect(metricValue(at(cost, i, j), 'hi_ms')).toBeGreaterThan(100 * metricValue(at(frag, i, 0), 'hi_ms'));
        expect(at(cost, i, j).hiMerged).toBeGreaterThan(0); // compaction merged the skipped pages back
      }
      expect(at(frag, i, 0).hiMerged).toBe(0); // the base merged them on free
    }
  }, 300_000);

  it("computes lesson 9's latency tables: each refill's p99 doubles with each step of the cap while every allocation's p99 stays a pcp hit; 6.16 drains in shorter calls than 6.7", async () => {
    const l = parseLesson('lessons/09-throughput-vs-tail.md', readFileSync(join(root, 'lessons', '09-throughput-vs-tail.md'), 'utf8'));
    // the 2-task row: the same runs feed the refill and every-allocation tables
    const refill = await computeTable(run, cut(l.tables['refill']!, [2]));
    const p99 = refill.configs.map((_, j) => metricValue(at(refill, 0, j), 'lat_refill_p99_us'));
    for (let j = 1; j < p99.length; j++) expect(p99[j]! / p99[j - 1]!).toBeGreaterThan(1.6); // batch << j: twice the pages a step
    const alloc = refill.configs.map((_, j) => metricValue(at(refill, 0, j), 'lat_alloc_p99_us'));
    expect(Math.max(...alloc)).toBeLessThan(p99[0]! / 10); // the 99th percentile never reaches a refill
    expect(metricValue(at(refill, 0, 5), 'lat_alloc_max_us')).toBeGreaterThan(metricValue(at(refill, 0, 0), 'lat_alloc_max_us') * 10);
    const drain = await computeTable(run, cut(l.tables['drain']!, [2]));
    const [whole, chunks, v619] = [0, 1, 2].map((j) => metricValue(at(drain, 0, j), 'lat_drain_max_us'));
    expect(whole!).toBeGreaterThan(chunks! * 4); // "several times shorter"
    expect(v619!).toBe(chunks!); // a drain_pages(): 6.19's change is to the other callers
    expect(() => metricValue({ ...at(drain, 0, 0), latCpuMhz: 0 }, 'lat_drain_max_us')).toThrow(/counted no latencies/);
  }, 300_000);

  it('formats gains without a negative zero, and says when a change is inside the seeds\' spread', () => {
    expect([signedPct(4.26), signedPct(-1.24), signedPct(-0.01), signedPct(0)]).toEqual(['+4.3%', '-1.2%', '±0.0%', '±0.0%']);
    const s = (min: number, max: number) => ({ mean: (min + max) / 2, min, max, n: 3 });
    expect(gainText(s(100, 110), s(105, 115))).toBe(`+4.8% (${WITHIN_SPREAD})`);
    expect(gainText(s(100, 110), s(120, 130))).toBe('+19.0%');
    expect(gainText({ mean: 100, min: 100, max: 100, n: 1 }, { mean: 100, min: 100, max: 100, n: 1 })).toBe('±0.0%');
  });

  it("never shows a measured time as 0.000, nor a change of millions of percent (lesson 6's order-9 attempts)", () => {
    // v4.16 finds a free order-9 block in 50 cycles (0.00002 ms); the RFC's presets compact first
    const v416 = 50 / 2_500_000;
    const p2 = 0.812;
    expect(formatMetric('hi_ms', v416)).toBe('0.000020');
    expect(formatMetric('hi_ms', 0)).toBe('0.000');
    expect(formatMetric('hi_ms', p2)).toBe('0.812');
    expect(formatMetric('time_ms', 2.4764)).toBe('2.476');
    expect(signedPct(gainPct(v416, p2))).toBe('×41,000');
    expect([signedPct(999), signedPct(-99.9)]).toEqual(['+999.0%', '-99.9%']);
  });

  it('shows each row with its mean, and min..max for the CSV, from the seeds the core ran', async () => {
    const t = cut(hotcold().tables['locks']!, [1], 3);
    const r = await computeTable(run, t);
    const sp = cellSpread(r, 0, 1);
    const csv = tableCells(r, true);
    expect(csv[0]).toEqual(['tasks', 'v2.5.44', 'v2.5.44 min', 'v2.5.44 max', 'v2.5.45', 'v2.5.45 min', 'v2.5.45 max']);
    expect(csv[1]!.slice(4)).toEqual([sp.mean, sp.min, sp.max].map((v) => v.toFixed(3)));
    expect(tableCells(r)[1]).toEqual(['1', csv[1]![1], csv[1]![4]]);
  }, 120_000);

  it('warns, from the counters, where a pcp list was never drained and says what to change', async () => {
    // 64 pages per task never bring a list up to high (186): free_pcppages_bulk() never runs
    const t: LessonTable = { ...pagesTable(cut(hotcold().tables['locks']!, [1, 2])), pages: 64, configs: [{ label: 'v4.16', preset: 'v4.16' }] };
    const small = await computeTable(run, t);
    const w = tableWarnings(small);
    expect(w).toHaveLength(1);
    expect(w[0]!.where).toEqual(['v4.16 at 1, 2 tasks']);
    expect(w[0]!.text).toMatch(/^the pcp lists never drained: free_pcppages_bulk\(\) never ran.*high \(186\).*more pages than high, or lower high/);
    const real = await computeTable(run, { ...t, pages: 4096 });
    expect(tableWarnings(real)).toEqual([]);
  }, 120_000);
});
