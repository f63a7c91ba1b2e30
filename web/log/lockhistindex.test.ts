// The lock histograms against a brute-force count over a real model-machine log (WASM core).
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { simScenario, type BlabFactory } from '../engine/blab-module';
import { EV, decodeEvents, type EventLog } from './events';
import { LockHistograms, NR_BINS, binLow, binOf } from './lockhistindex';

const modulePath = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'build', 'wasm', 'node', 'blab.js');
let log: EventLog;
beforeAll(async () => {
  if (!existsSync(modulePath)) throw new Error(`${modulePath} is missing: run "make wasm" first`);
  const m = await (createRequire(import.meta.url)(modulePath) as BlabFactory)({ noInitialRun: true });
  const r = simScenario(m, { workload: 'page_fault1', cpus: 8, pages: 256, iterations: 1, seed: 1, preset: 'v4.16', maxEvents: 1 << 20 });
  log = decodeEvents(r.events);
});

describe('binOf', () => {
  it('puts 0 alone and v in [2^(k-1), 2^k) in bin k', () => {
    expect([0, 1, 2, 3, 4, 7, 8, 1000].map(binOf)).toEqual([0, 1, 2, 2, 3, 3, 4, 10]);
    for (let k = 1; k < NR_BINS - 1; k++) expect(binOf(binLow(k))).toBe(k);
    expect(binOf(2 ** 40)).toBe(NR_BINS - 1);
  });
});

describe('LockHistograms', () => {
  it('counts, at any step, exactly the acquisitions and releases recorded before it', () => {
    for (const lock of [0, 1]) {
      const h = new LockHistograms(log, lock);
      expect(h.present).toBe(true);
      for (const step of [0, 1, Math.floor(log.length / 3), Math.floor(log.length / 2) + 7, log.length]) {
        const got = h.at(step);
        const wait = new Array(NR_BINS).fill(0);
        const hold = new Array(NR_BINS).fill(0);
        let spun = 0;
        let held = 0;
        for (let i = 0; i < step; i++) {
          if (log.mt[i] !== lock) continue;
          if (log.type[i] === EV.LOCK_ACQUIRE) {
            wait[binOf(log.arg0[i]!)]++;
            spun += log.arg0[i]!;
          } else if (log.type[i] === EV.LOCK_RELEASE) {
            hold[binOf(log.arg0[i]!)]++;
            held += log.arg0[i]!;
          }
        }
        expect(got.wait.counts).toEqual(wait);
        expect(got.hold.counts).toEqual(hold);
        expect(got.wait.total).toBe(spun);
        expect(got.hold.total).toBe(held);
        expect(got.contended).toBe(got.wait.n - wait[0]);
      }
    }
  });
  it('8 CPUs on page_fault1 contend: some waits are above zero by the end', () => {
    const end = new LockHistograms(log, 0).at(log.length);
    expect(end.wait.n).toBeGreaterThan(10);
    expect(end.contended).toBeGreaterThan(0);
    expect(end.hold.counts.slice(1).some((c) => c > 0)).toBe(true);
  });
  it('a lock the log never takes is absent', () => {
    expect(new LockHistograms(log, 2).present).toBe(false);
  });
});
