// Lesson tables on the real core (the Node WASM build): every number comes from a run, the
// same table computes the same numbers twice, and a predict answer resolves from it.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { simScenario, type BlabFactory, type BlabModule } from '../engine/blab-module';
import { acqPerPage } from '../engine/simstats';
import { computeTable, gainPct, metricValue, resolveRef, signedPct, tableCells, type SimRunner } from './compute';
import { parseLesson } from './parse';

const root = join(import.meta.dirname, '..', '..');
const modulePath = join(root, 'build', 'wasm', 'node', 'blab.js');
let m: BlabModule;
let run: SimRunner;
beforeAll(async () => {
  if (!existsSync(modulePath)) throw new Error(`${modulePath} is missing: run "make wasm" first`);
  m = await (createRequire(import.meta.url)(modulePath) as BlabFactory)({ noInitialRun: true });
  run = async (req) => simScenario(m, req);
});

const hotcold = () => parseLesson('lessons/02-hotcold.md', readFileSync(join(root, 'lessons', '02-hotcold.md'), 'utf8'));

describe('lesson tables on the core', () => {
  it('computes lesson 2\'s lock table: 2 acquisitions per page without pcp lists, far fewer with them', async () => {
    const l = hotcold();
    const t = l.tables['locks']!;
    const a = await computeTable(run, t);
    const b = await computeTable(run, t);
    expect(tableCells(a)).toEqual(tableCells(b));
    // no pcp: every page is one allocation and one free under zone->lock
    expect(acqPerPage(a.rows[0]![0]!)).toBeCloseTo(2, 2);
    expect(acqPerPage(a.rows[0]![1]!)).toBeLessThan(0.5);
    const step = l.steps.find((s) => s.table === 'locks')!;
    if (step.predict?.kind !== 'number' || typeof step.predict.answer === 'number') throw new Error('expected answer_from');
    expect(resolveRef(step.predict.answer, a)).toBeCloseTo(acqPerPage(a.rows[1]![1]!), 9); // 8 tasks, v2.5.45
  }, 60_000);

  it('applies batch and high overrides and reports them in the run\'s counters', async () => {
    const r = simScenario(m, { workload: 'page_fault1', cpus: 2, pages: 64, iterations: 1, seed: 1, preset: 'v4.16', maxEvents: 0, batch: 5, high: 20, clearLines: 4 });
    expect(r.status).toBe(0);
    expect(r.events.byteLength).toBe(0); // maxEvents 0: no log
    expect([r.stats!.batch, r.stats!.high]).toEqual([5, 20]);
    const bad = simScenario(m, { workload: 'page_fault1', cpus: 2, pages: 64, iterations: 1, seed: 1, preset: 'v4.16', maxEvents: 0, clearLines: 65 });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/clear_lines must be 1..64/);
  });

  it("computes lesson 5's hackbench table: the prefetch gains with remote frees, hardly at all on the same CPU", async () => {
    const l = parseLesson('lessons/05-slub-prefetch.md', readFileSync(join(root, 'lessons', '05-slub-prefetch.md'), 'utf8'));
    const remote = await computeTable(run, l.tables['hackbench']!);
    const control = await computeTable(run, l.tables['control']!);
    // columns: prefetch off, on (virtual ms: lower is faster)
    for (let i = 0; i < remote.rows.length; i++) {
      const [remoteOff, remoteOn, sameOff, sameOn] = [...remote.rows[i]!, ...control.rows[i]!].map((s) => metricValue(s, 'time_ms'));
      expect(remoteOn!).toBeLessThan(remoteOff! * 0.99);
      expect(Math.abs(gainPct(sameOff!, sameOn!))).toBeLessThan(0.5);
      expect(sameOff!).toBeLessThan(remoteOff!); // no cache-to-cache transfers at all
    }
  }, 60_000);

  it("computes lesson 6's tables: zone->lock contention down and lru_lock up at 56 tasks; order 9 dearer with skip-merge", async () => {
    const l = parseLesson('lessons/06-skip-merge.md', readFileSync(join(root, 'lessons', '06-skip-merge.md'), 'utf8'));
    const zl = await computeTable(run, l.tables['zlock']!);
    const last = zl.rows.at(-1)!; // 56 tasks; v4.16, lu-rfc-p2, lu-rfc-p4
    expect(last[2]!.zoneBp).toBeLessThan(last[0]!.zoneBp);
    expect(last[2]!.lruBp).toBeGreaterThan(last[0]!.lruBp * 2); // v4.16 already queues a little on the shared LRU list
    expect(last[2]!.lruBp).toBeGreaterThan(last[1]!.lruBp);
    const frag = await computeTable(run, l.tables['hifrag']!);
    const cost = await computeTable(run, l.tables['hicost']!);
    for (let i = 0; i < frag.rows.length; i++) {
      const [base, p2] = frag.rows[i]!.map((s) => metricValue(s, 'hi_unusable'));
      expect(p2!).toBeGreaterThan(base!);
      const [cb, c2] = cost.rows[i]!.map((s) => metricValue(s, 'hi_ms'));
      expect(c2!).toBeGreaterThan(cb!);
      expect(cost.rows[i]![1]!.hiMerged).toBeGreaterThan(0); // compaction merged the skipped pages back
      expect(cost.rows[i]![0]!.hiMerged).toBe(0); // v4.16 merged them on free
    }
  }, 120_000);

  it('formats gains without a negative zero', () => {
    expect([signedPct(4.26), signedPct(-1.24), signedPct(-0.01), signedPct(0)]).toEqual(['+4.3%', '-1.2%', '±0.0%', '±0.0%']);
  });
});
