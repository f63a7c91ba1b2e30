// The real machine in the WASM module, run by Node: page_fault1 on 2 Emscripten pthreads.
// Structure and nonzero progress only; speeds are measured by `make bench`, never here.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { BlabFactory } from './blab-module';
import { chooseMachine, parseField, workerLimit, MAX_WORKERS } from '../panels/real-panel';
import { runReal, type RealModule } from './real-run';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const modulePath = join(root, 'build', 'wasm', 'node', 'blab.js');

let m: RealModule;
beforeAll(async () => {
  if (!existsSync(modulePath)) throw new Error(`${modulePath} is missing: run "make wasm" first`);
  const factory = createRequire(import.meta.url)(modulePath) as BlabFactory;
  m = (await factory({ noInitialRun: true, blabPoolSize: 2 })) as unknown as RealModule;
});

describe('real machine in WASM (Node)', () => {
  it('runs page_fault1 on 2 threads: every worker faults pages, locks are counted, the zone ends whole', async () => {
    const seen: number[][] = [];
    const r = await runReal(m, { preset: 'v4.16', workers: 2, pages: 1024, seconds: 1, warmup: 1 }, (s) => seen.push(s.perWorker));
    expect(r.seconds).toHaveLength(2);
    expect(r.seconds[0]?.warmup).toBe(true);
    expect(r.seconds[1]?.warmup).toBe(false);
    expect(seen).toHaveLength(2);
    for (const s of r.seconds) expect(s.perWorker).toHaveLength(2);
    // every worker made progress (a loaded machine may starve one for a second, not for two)
    for (const w of [0, 1]) expect(r.seconds.reduce((a, s) => a + (s.perWorker[w] ?? 0), 0)).toBeGreaterThan(0);
    expect(r.average).toBeGreaterThanOrEqual(0);
    expect(r.batch).toBeGreaterThan(0);
    expect(r.high).toBeGreaterThan(r.batch);
    // with pcp lists zone->lock is taken once per batch, far less than once a page
    expect(r.zoneLock.acquisitionsPerPage).toBeGreaterThan(0);
    expect(r.zoneLock.acquisitionsPerPage).toBeLessThan(1);
    // lru_lock once per 15 pages faulted and once per 15 unmapped
    expect(r.lruLock.acquisitionsPerPage).toBeGreaterThan(0);
    expect(r.zoneLock.spinPctPerWorker).toHaveLength(2);
    expect(r.prefetch).toBe(false); // WebAssembly has no prefetch instruction
  }, 60_000);

  it('takes zone->lock for every page without pcp lists (v2.5.44)', async () => {
    const r = await runReal(m, { preset: 'v2.5.44', workers: 1, pages: 512, seconds: 1, warmup: 0 });
    expect(r.batch).toBe(0);
    expect(r.zoneLock.acquisitionsPerPage).toBeGreaterThan(1.5); // alloc and free, about 2
  }, 60_000);

  it('refuses bad runs with the core\'s message', async () => {
    await expect(runReal(m, { preset: 'v9', workers: 1, pages: 512, seconds: 1, warmup: 0 })).rejects.toThrow("unknown preset 'v9'");
    await expect(runReal(m, { preset: 'v4.16', workers: 65, pages: 512, seconds: 1, warmup: 0 })).rejects.toThrow('threads must be 1..64');
    await expect(runReal(m, { preset: 'v4.16', workers: 1, pages: 0, seconds: 1, warmup: 0 })).rejects.toThrow('pages must be');
    await expect(runReal(m, { preset: 'v4.16', workers: 1, pages: 512, seconds: 0, warmup: 0 })).rejects.toThrow('seconds must be');
  });
});

describe('real-machine panel logic', () => {
  it('runs real threads only when isolated with shared memory', () => {
    expect(chooseMachine(true, true)).toBe('real');
    expect(chooseMachine(false, true)).toBe('model');
    expect(chooseMachine(true, false)).toBe('model');
  });
  it('bounds workers by the device and MAX_WORKERS', () => {
    expect(workerLimit(2)).toBe(2);
    expect(workerLimit(256)).toBe(MAX_WORKERS);
    expect(workerLimit(undefined)).toBe(1);
    expect(workerLimit(0)).toBe(1);
  });
  it('parses form fields strictly', () => {
    expect(parseField('Workers', ' 3 ', 1, 4)).toBe(3);
    expect(() => parseField('Workers', '5', 1, 4)).toThrow('Workers: 5 is outside 1..4');
    expect(() => parseField('Seconds', '1.5', 1, 60)).toThrow('Seconds: give a whole number 1..60');
    expect(() => parseField('Seconds', '', 1, 60)).toThrow('whole number');
  });
});
