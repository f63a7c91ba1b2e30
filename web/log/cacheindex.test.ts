// The cache index against brute force on a real model-machine log (WASM core), and the state's
// per-CPU counters against a count of the records: what the cache view shows.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { simScenario, type BlabFactory } from '../engine/blab-module';
import { EV, FLAG, decodeEvents, type EventLog } from './events';
import { CacheIndex, STRIP, stripKind } from './cacheindex';
import { Player } from './player';
import { CACHE } from './state';

const modulePath = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'build', 'wasm', 'node', 'blab.js');
let log: EventLog;
beforeAll(async () => {
  if (!existsSync(modulePath)) throw new Error(`${modulePath} is missing: run "make wasm" first`);
  const m = await (createRequire(import.meta.url)(modulePath) as BlabFactory)({ noInitialRun: true });
  // v4.17 prefetches the buddy in free_pcppages_bulk: the log has PREFETCH records
  const r = simScenario(m, { workload: 'page_fault1', cpus: 4, pages: 256, iterations: 1, seed: 1, preset: 'v4.17', maxEvents: 1 << 20 });
  log = decodeEvents(r.events);
});

const isCache = (t: number) => t === EV.ACCESS || t === EV.PREFETCH || t === EV.PREFETCH_WASTED;

describe('CacheIndex.recent', () => {
  it('is the last n cache records of the CPU before the step, oldest first', () => {
    const idx = new CacheIndex(log, 4);
    expect(idx.present).toBe(true);
    for (const step of [0, 10, Math.floor(log.length / 2), log.length]) {
      for (const cpu of [0, 3]) {
        const want: number[] = [];
        for (let i = step - 1; i >= 0 && want.length < 20; i--) if (isCache(log.type[i]!) && log.cpu[i] === cpu) want.unshift(i);
        expect(idx.recent(cpu, step, 20)).toEqual(want);
      }
    }
    expect(idx.recent(9, log.length, 5)).toEqual([]);
  });
  it('names every kind: access outcomes, prefetch issued, prefetch wasted', () => {
    const kinds = new Set<number>();
    for (let i = 0; i < log.length; i++) if (isCache(log.type[i]!)) kinds.add(stripKind(log, i));
    expect(kinds.has(STRIP.PREFETCH)).toBe(true);
    expect(kinds.has(0)).toBe(true); // L1 hits
    expect(kinds.has(4)).toBe(true); // misses to memory
    for (const k of kinds) expect(k).toBeLessThanOrEqual(STRIP.WASTED);
  });
});

describe('per-CPU cache counters in the player state', () => {
  it('equal the number of records of each outcome up to the step', () => {
    const p = new Player(log);
    for (const step of [Math.floor(log.length / 3), log.length]) {
      const s = p.seek(step);
      for (let cpu = 0; cpu < 4; cpu++) {
        const want = new Array(CACHE.WIDTH).fill(0);
        for (let i = 0; i < step; i++) {
          if (log.cpu[i] !== cpu) continue;
          if (log.type[i] === EV.ACCESS) want[log.flags[i]! & FLAG.OUTCOME_MASK]++;
          else if (log.type[i] === EV.PREFETCH) {
            want[CACHE.ISSUED]++;
            // a PREFETCH of a line already in L1 says so in its arg1: the redundant fate
            if (log.arg1[i]) want[CACHE.REDUNDANT]++;
          } else if (log.type[i] === EV.PREFETCH_WASTED) want[CACHE.WASTED]++;
        }
        const b = cpu * CACHE.WIDTH;
        expect(Array.from(s.cache.subarray(b, b + CACHE.WIDTH))).toEqual(want);
      }
    }
  });
});
