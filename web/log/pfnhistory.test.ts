// A page's history, on the hand-reasoned 16-page zone and on a real core's log against a
// brute-force scan of every record.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EV, decodeEvents, encodeEvents, type EventLog } from './events';
import { PfnHistory, pfnHistory } from './pfnhistory';
import { START, expand, mergeBack, setup, withTimes } from '../testing/zone16';
import { simScenario, type BlabFactory } from '../engine/blab-module';

describe('a pfn history', () => {
  const log = decodeEvents(encodeEvents(withTimes([...setup, ...expand, ...mergeBack])));
  const h = new PfnHistory(log);

  it('follows one page through split, alloc, free and merge, in log order', () => {
    const kinds = h.of(START).map((e) => e.kind);
    expect(kinds).toEqual([
      'buddy add', // set-up: the whole order-4 block
      'buddy del',
      'split', 'split', 'split', 'split', // expand() from order 4 down to 0
      'alloc',
      'free',
      'merge', 'merge', 'merge', 'merge', // __free_one_page() back to order 4
      'buddy add',
    ]);
    // each entry names its record and the block it moved
    const merges = h.of(START).filter((e) => e.kind === 'merge');
    expect(merges.map((e) => e.order)).toEqual([1, 2, 3, 4]);
    for (const e of h.of(START)) expect(log.pfn[e.index]).toBeGreaterThanOrEqual(START);
  });

  it('a buddy page has its own story: split off, added, deleted when its buddy merges', () => {
    // pfn START+8 is the upper half of the first split: it sat on free_area[3] until the merge
    const kinds = h.of(START + 9).map((e) => e.kind);
    expect(kinds).toEqual(['buddy add', 'buddy del', 'split', 'buddy add', 'merge', 'buddy del', 'buddy add']);
    expect(h.of(START - 1)).toEqual([]);
    expect(h.of(Number.NaN)).toEqual([]);
  });

  it('agrees with a scan of every record on a real page_fault1 log', async () => {
    const modulePath = join(import.meta.dirname, '..', '..', 'build', 'wasm', 'node', 'blab.js');
    if (!existsSync(modulePath)) throw new Error(`${modulePath} is missing: run "make wasm" first`);
    const m = await (createRequire(import.meta.url)(modulePath) as BlabFactory)({ noInitialRun: true });
    const r = simScenario(m, { workload: 'page_fault1', cpus: 2, pages: 300, iterations: 2, seed: 3, preset: 'v4.17', maxEvents: 1 << 20, clearLines: 8 });
    const real: EventLog = decodeEvents(r.events);
    const idx = pfnHistory(real);
    expect(pfnHistory(real)).toBe(idx); // once per log
    const start = real.pfn[0]!;
    const pages = real.arg0[0]!;
    const covers = (i: number, p: number) => {
      const t = real.type[i]!;
      const o = real.order[i]!;
      let head = real.pfn[i]!;
      let size = 2 ** o;
      if (t === EV.SPLIT) size *= 2;
      else if (t === EV.MERGE) {
        head = Math.min(head, start + real.arg0[i]!);
        size *= 2;
      } else if (![EV.ALLOC, EV.FREE, EV.PCP_ADD, EV.PCP_DEL, EV.BUDDY_ADD, EV.BUDDY_DEL].includes(t as never)) return false;
      return p >= head && p < head + size;
    };
    let kinds = new Set<string>();
    for (const p of [start, start + 1, start + 17, start + Math.floor(pages / 2), start + pages - 1]) {
      const want: number[] = [];
      for (let i = 1; i < real.length; i++) if (covers(i, p)) want.push(i);
      const got = idx.of(p);
      expect(got.map((e) => e.index)).toEqual(want);
      kinds = new Set([...kinds, ...got.map((e) => e.kind)]);
    }
    // the page_fault1 run refills and drains pcp lists: both show in the pages' histories
    expect([...kinds]).toEqual(expect.arrayContaining(['alloc', 'free', 'refill', 'drain']));
  });
});
