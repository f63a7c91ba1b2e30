// The latency contract between the C core and the page (make wasm): a run's latency JSON reads
// back whole, its counts are the run's, and every bucket's longest call is found in the run's
// own event log where the core says it ran (the record a click on a bucket goes to); the core's
// histogram parser reads the committed funclatency / bpftrace fixtures, refuses the bad ones
// with their line, and each histogram is matched to the series its function measures.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { histText, simScenario, type BlabFactory, type BlabModule } from '../engine/blab-module';
import { decodeEvents, EV } from './events';
import { overlayMatch, ownSeries, parseHistText, pickHistogram, realBucketsNs } from './histtext-json';
import { LAT_PATHS, LAT_SERIES, parseLatency, seriesSummary } from './latency-json';
import { findCallRecord } from './latency-record';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const modulePath = join(root, 'build', 'wasm', 'node', 'blab.js');
const traces = join(root, 'wasm-core', 'tests', 'traces');
let m: BlabModule;
beforeAll(async () => {
  if (!existsSync(modulePath)) throw new Error(`${modulePath} is missing: run "make wasm" first`);
  m = await (createRequire(import.meta.url)(modulePath) as BlabFactory)({ noInitialRun: true });
}, 60_000);

describe('a model run with its latencies', () => {
  it.each([
    ['v6.7', 'page_fault1'],
    ['v6.19', 'page_fault1'],
    ['v4.16', 'trunc'],
    ['v2.5.44', 'page_fault1'],
  ] as const)('%s %s: counts are the run’s, and every bucket’s longest call is in the log', (preset, workload) => {
    const r = simScenario(m, { workload, preset, cpus: 3, pages: 700, iterations: 2, seed: 1, maxEvents: 1 << 20, latency: true });
    expect(r.stderr).toBe('');
    const lat = r.latency!;
    const s = r.stats!;
    expect(lat.cyclesPerUs).toBe(s.latCpuMhz);
    expect([lat.alloc.count, lat.alloc.p99, lat.alloc.max]).toEqual([s.latAllocCount, s.latAllocP99, s.latAllocMax]);
    expect(lat.paths.rmqueue_bulk.count).toBe(s.pcpRefills);
    expect(lat.alloc.log2.reduce((a, c) => a + c, 0)).toBe(lat.alloc.count);
    const log = decodeEvents(r.events);
    expect(log.type[log.length - 1]).not.toBe(EV.LOG_FULL);
    let found = 0;
    for (const ser of LAT_SERIES) {
      const sum = seriesSummary(lat, ser.id);
      // each nonzero bucket has its longest call, inside the bucket
      expect(sum.longest.map((c) => c.slot)).toEqual(sum.log2.flatMap((c, i) => (c ? [i + 1] : [])));
      for (const c of sum.longest) {
        const ns = Math.floor((c.cycles * 1000) / lat.cyclesPerUs);
        expect(c.slot).toBe(ns <= 1 ? 1 : Math.floor(Math.log2(ns)) + 1);
        const hit = findCallRecord(log, c, ser.record);
        expect(hit, `${ser.id} slot ${c.slot}`).toMatchObject({ ok: true });
        if (hit.ok && (ser.record === 'ALLOC' || ser.record === 'FREE')) expect(log.pfn[hit.index]).toBe(c.pfn);
        found++;
      }
    }
    expect(found).toBeGreaterThan(2);
  });

  it('a call past the log’s bound is said to be so, never guessed', () => {
    const r = simScenario(m, { workload: 'page_fault1', preset: 'v6.7', cpus: 2, pages: 2048, iterations: 2, seed: 1, maxEvents: 3000, latency: true });
    const log = decodeEvents(r.events);
    expect(log.type[log.length - 1]).toBe(EV.LOG_FULL);
    const tail = r.latency!.alloc.longest.at(-1)!;
    const hit = findCallRecord(log, tail, 'ALLOC');
    expect(hit.ok).toBe(false);
    if (!hit.ok) expect(hit.why).toMatch(/event log stopped at its bound \(3,000 records\)/);
  });

  it('refuses JSON that is not the core’s, naming the field', () => {
    expect(() => parseLatency('{}')).toThrow('latency: expected cycles, with log2 histograms in nsecs');
    expect(() => parseLatency('{"unit":"cycles","log2_unit":"nsecs","cycles_per_us":0}')).toThrow('cycles_per_us is 0');
    expect(() => parseLatency('{"unit":"cycles","log2_unit":"nsecs","cycles_per_us":2500,"paths":{}}')).toThrow('latency: paths.alloc_pcp is not an object');
    // a run that did not ask has no latencies at all
    expect(simScenario(m, { workload: 'page_fault1', preset: 'v5.18', cpus: 2, pages: 64, iterations: 1, seed: 1, maxEvents: 0 }).latency).toBeUndefined();
    expect(LAT_PATHS).toHaveLength(8);
  });
});

describe('a kernel’s histogram text, read by the core', () => {
  const read = (file: string) => histText(m, readFileSync(join(traces, file), 'utf8'));

  it('reads the committed recording of this machine and matches it to the refills', () => {
    const r = read('bpftrace-rmqueue_bulk-span.hist.txt');
    expect(r.status).toBe(0);
    const [h] = parseHistText(r.stdout);
    expect(h).toMatchObject({ kind: 'hist', name: '@rmqueue_bulk_span_ns', unit: 'nsecs', function: 'rmqueue_bulk', total: 329 });
    expect(ownSeries(h!)).toBe('rmqueue_bulk');
    expect(overlayMatch(h!, 'rmqueue_bulk')).toEqual({ ok: true, series: 'rmqueue_bulk' });
    // over another series it is not drawn, and the message says where it belongs
    const no = overlayMatch(h!, 'alloc');
    expect(no.ok).toBe(false);
    if (!no.ok) expect(no.why).toBe(
      "rmqueue_bulk (@rmqueue_bulk_span_ns) measures the model's each rmqueue_bulk() call (a refill), not every allocation: choose that path to see the two together.",
    );
    expect(realBucketsNs(h!)[0]).toEqual({ lo: 4096, hi: 8192, count: 2 });
  });

  it('reads funclatency in usecs (two functions) and lhist, in ns', () => {
    const hs = parseHistText(read('funclatency-usecs.hist.txt').stdout);
    expect(hs.map((h) => [h.function, ownSeries(h), h.unit])).toEqual([
      ['rmqueue_bulk', 'rmqueue_bulk', 'usecs'],
      ['free_pcppages_bulk', 'free_pcppages_bulk', 'usecs'],
    ]);
    expect(realBucketsNs(hs[0]!)[1]).toEqual({ lo: 2000, hi: 4000, count: 60 });
    const [l] = parseHistText(read('bpftrace-lhist.hist.txt').stdout);
    expect(l).toMatchObject({ kind: 'lhist', step: 2, unit: 'usecs' });
    // the open last bucket has no width to draw
    expect(realBucketsNs(l!).at(-1)).toEqual({ lo: 8000, hi: 10000, count: 0 });
  });

  it('refuses the bad fixtures whole, with their line and reason', () => {
    const bad = read('bad-lhist.hist.txt');
    expect(bad.status).toBe(1);
    expect(bad.stderr).toBe("line 5: bucket [2000, 3500) is 1500 wide; this lhist()'s step is 1000 (its first bucket)");
    expect(read('bad-funclatency.hist.txt').stderr).toMatch(/^line \d+: /);
    expect(histText(m, 'nothing here\n').status).toBe(1);
  });

  it('says why a histogram of a function the model does not measure is not drawn', () => {
    const text = 'Tracing 1 functions for "do_anonymous_page"... Hit Ctrl-C to end.\n\n     nsecs               : count     distribution\n         0 -> 1          : 0        |                                        |\n         2 -> 3          : 4        |****************************************|\n';
    const r = histText(m, text);
    expect(r.status).toBe(0);
    const h = pickHistogram(parseHistText(r.stdout));
    expect(ownSeries(h)).toBeUndefined();
    const no = overlayMatch(h, 'alloc');
    expect(no.ok).toBe(false);
    if (!no.ok) expect(no.why).toMatch(/^"do_anonymous_page": the model has no calls that measure this; it compares rmqueue_bulk, free_pcppages_bulk/);
  });
});
