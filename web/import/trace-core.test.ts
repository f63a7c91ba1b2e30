// The browser's importer against the real core (the Node WASM build): the committed fixtures,
// fed in odd-sized chunks as the worker feeds them, give exactly what `blab import` prints
// (tests/traces/expected/*.out), counts equal to a grep per tracepoint, and a replay the
// player accepts, with pages moving on its mem_map.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { EV, decodeEvents } from '../log/events';
import { Player } from '../log/player';
import { describeEvent } from '../log/describe';
import { PAGE } from '../log/state';
import { IMPORT_LIMITS } from '../scenario/limits';
import { parseSummary } from './summary';
import { TRACE_ERR, TraceImport, type TraceModule } from './trace-core';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const modulePath = join(root, 'build', 'wasm', 'node', 'blab.js');
const traces = join(root, 'wasm-core', 'tests', 'traces');
const KINDS = ['mm_page_alloc', 'mm_page_free', 'mm_page_free_batched', 'mm_page_pcpu_drain', 'mm_page_alloc_zone_locked', 'mm_page_alloc_extfrag'];

let m: TraceModule;
beforeAll(async () => {
  if (!existsSync(modulePath)) throw new Error(`${modulePath} is missing: run "make wasm" first`);
  const factory = createRequire(import.meta.url)(modulePath) as (o: Record<string, unknown>) => Promise<TraceModule>;
  m = await factory({ noInitialRun: true });
});

function run(bytes: Uint8Array, chunk: number) {
  const t = new TraceImport(m);
  try {
    for (let at = 0; at < bytes.length; at += chunk) if (!t.feed(bytes.subarray(at, at + chunk))) break;
    return t.finish();
  } finally {
    t.dispose();
  }
}

describe('trace import in the WASM core', () => {
  for (const name of ['pf1.perf', 'pf1.tracefs']) {
    it(`${name}: the summary is what blab import prints, whatever the chunk size`, () => {
      const bytes = readFileSync(join(traces, `${name}.txt`));
      const golden = readFileSync(join(traces, 'expected', `${name}.out`), 'utf8');
      // the browser lowers the event bound (limits.ts); the rest of the summary is the CLI's
      const expected = golden
        .slice(0, golden.indexOf('--- stderr'))
        .replace(/^limits line 4096 lines \d+ events \d+$/m, `limits line 4096 lines ${IMPORT_LIMITS.maxLines} events ${IMPORT_LIMITS.maxEvents}`);
      for (const chunk of [1 << 20, 4093, 77]) {
        const r = run(bytes, chunk);
        expect(r.status).toBe(0);
        expect(r.summary).toBe(expected);
      }
    });

    it(`${name}: per tracepoint, the counts equal grep -c 'NAME:'`, () => {
      const text = readFileSync(join(traces, `${name}.txt`), 'utf8');
      const s = parseSummary(run(new Uint8Array(Buffer.from(text)), 1 << 16).summary);
      for (const k of KINDS) {
        const grep = text.split('\n').filter((l) => l.includes(`${k}:`)).length;
        expect([k, s.kinds.find(([n]) => n === k)?.[1]]).toEqual([k, grep]);
      }
      expect(s.perCpu.reduce((a, c) => a + c.events, 0)).toBe(s.events);
      expect(s.refill.events).toBe(s.refills);
    });

    it(`${name}: the replay plays in the player and moves pages on mem_map`, () => {
      const r = run(readFileSync(join(traces, `${name}.txt`)), 1 << 20);
      const log = decodeEvents(r.events);
      expect(log.type[0]).toBe(EV.TRACE_ZONE);
      const s = parseSummary(r.summary);
      const p = new Player(log);
      expect(p.state.geo.imported).toBe(true);
      expect(p.state.geo.startPfn).toBe(s.pfnRange!.lo);
      expect(p.state.geo.pages).toBe(s.pfnRange!.pages);
      // the first refill puts its block on a pcp list: find the record and look at its page
      let i = 1;
      while (!(log.type[i] === EV.PCP_ADD)) i++;
      p.seek(i + 1);
      expect(p.state.page(log.pfn[i]!)?.state).toBe(PAGE.PCP);
      expect(p.state.pcpCount[log.cpu[i]!]).toBeGreaterThan(0);
      // and every ALLOC leaves its block allocated at that step
      let a = 1;
      while (!(log.type[a] === EV.ALLOC)) a++;
      p.seek(a + 1);
      expect(p.state.page(log.pfn[a]!)?.state).toBe(PAGE.ALLOCATED);
      p.seek(p.length);
      p.seek(0);
      expect(p.state.step).toBe(0);
      // the current-event line names the imported records in words
      expect(describeEvent(log, 0)).toBe(
        `imported kernel trace: pfns 0x${s.pfnRange!.lo.toString(16)} onwards, ${s.pfnRange!.pages} pages, ${s.cpus} CPUs; where each page sat when the recording began is unknown`,
      );
      const u = log.type.indexOf(EV.TRACE_UNKNOWN);
      if (s.unknownPages > 0) expect(describeEvent(log, u)).toMatch(/^cpu \d+: block pfn 0x[0-9a-f]+ order \d+ is freed but was allocated before the recording began$/);
    });

    it(`${name}: the worker's replay, decoded straight from the heap, is the records' decode column for column`, () => {
      const bytes = readFileSync(join(traces, `${name}.txt`));
      const want = decodeEvents(run(bytes, 1 << 20).events).columns();
      const t = new TraceImport(m, bytes.length); // with the replay's room reserved
      try {
        for (let at = 0; at < bytes.length; at += 4093) t.feed(bytes.subarray(at, at + 4093));
        const got = t.finishDecoded();
        expect(got.replayError).toBeUndefined();
        expect(got.result.events.byteLength).toBe(0);
        for (const [k, col] of Object.entries(want)) expect([k, Array.from(got.columns![k as keyof typeof want])]).toEqual([k, Array.from(col)]);
      } finally {
        t.dispose();
      }
    });

    it(`${name}: "next drain" and "next refill" stop at each drain and refill the summary counts`, () => {
      const r = run(readFileSync(join(traces, `${name}.txt`)), 1 << 20);
      const s = parseSummary(r.summary);
      const p = new Player(decodeEvents(r.events));
      const jumps = (kind: 'drain' | 'refill') => {
        const at: number[] = [];
        for (let step = p.findNext(kind, 0); step !== undefined; step = p.findNext(kind, step)) at.push(step);
        return at;
      };
      // the summary's 779-page drain of pf1.perf used to be invisible: "no later PCP_DRAIN"
      expect(s.drain.count).toBeGreaterThan(0);
      expect(jumps('drain').length).toBe(s.drain.count);
      expect(jumps('refill').length).toBe(s.refill.count);
      // the step it stops at is the drain's first page leaving the pcp list
      const first = jumps('drain')[0]!;
      expect(p.log.type[first - 1]).toBe(EV.PCP_DEL);
    });
  }

  it('a valid trace with an order-2 block at its highest pfn replays; the zone has MAX_PAGE_ORDER 10; time counts from the first event', () => {
    const text = [
      'a 1 [000] 3764.262443: kmem:mm_page_alloc: page=0x100 pfn=0x100 order=0 migratetype=1 gfp_flags=GFP_KERNEL',
      'a 1 [001] 3764.262500: kmem:mm_page_alloc: page=0x1fc pfn=0x1fc order=2 migratetype=1 gfp_flags=GFP_KERNEL',
      'a 1 [001] 3764.262600: kmem:mm_page_free: page=0x1fc pfn=0x1fc order=2',
      '',
    ].join('\n');
    const r = run(new Uint8Array(Buffer.from(text)), 1 << 16);
    expect(r.status).toBe(0);
    const log = decodeEvents(r.events);
    // used to fail with "block is outside the zone": the zone ended at the block's first pfn
    const p = new Player(log);
    expect(p.state.geo.startPfn + p.state.geo.pages - 1).toBe(0x1ff);
    p.seek(3); // after the order-2 block's allocation
    expect(p.state.page(0x1ff)?.state).toBe(PAGE.ALLOCATED);
    // orders 0..10 as the kernel has them, not the parser's bound of 15
    expect(p.state.geo.maxOrder).toBe(10);
    expect(p.state.nrOrders).toBe(11);
    // 0 at the first event, then the µs after it (not ns since boot)
    expect(Array.from(log.time)).toEqual([0, 0, 57_000, 157_000]);
  });

  it('empty, garbage and binary inputs say why', () => {
    expect(run(new Uint8Array(0), 10)).toMatchObject({ status: TRACE_ERR.EMPTY, error: 'empty input' });
    const g = run(readFileSync(join(traces, 'garbage.txt')), 5);
    expect(g.status).toBe(TRACE_ERR.NOEVENTS);
    expect(g.error).toMatch(/no kmem page events found \(4 lines: 2 skipped, 2 malformed\)/);
    expect(parseSummary(g.summary).malformedLines[0]).toEqual([3, 'bad or too large pfn=: 0xzz']);
    expect(g.events.byteLength).toBe(0);
  });

  it('a truncated trace imports what it has and names the cut line', () => {
    const text = readFileSync(join(traces, 'pf1.perf.txt'), 'utf8');
    const cut = text.slice(0, text.indexOf(' pfn=', 10_000) + 3);
    const r = run(new Uint8Array(Buffer.from(cut)), 1000);
    expect(r.status).toBe(0);
    const s = parseSummary(r.summary);
    expect(s.malformed).toBe(1);
    expect(s.malformedLines[0]![0]).toBe(s.lines);
  });
});
