// The worker pool on the real core (the Node WASM build behind each "worker", finishing in a
// shuffled order): each point's counters are the serial run's in the order asked, longest points
// start first, cancel stops everything and rejects, a failing point says the core's reason; the
// results cache gives back whole records only.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { simScenario, type BlabFactory, type BlabModule, type SimRequest } from './blab-module';
import { pointKey, pointRequest, pointWork, willItScaleCacheScale } from './point';
import { PoolCancelled, SimPool, type PointRunner, type PoolProgress } from './pool';
import { ResultsCache } from './results-cache';
import { insideSpread, spreadOf } from './spread';
import { prng } from '../testing/prng';

const modulePath = join(import.meta.dirname, '..', '..', 'build', 'wasm', 'node', 'blab.js');
let m: BlabModule;
beforeAll(async () => {
  if (!existsSync(modulePath)) throw new Error(`${modulePath} is missing: run "make wasm" first`);
  m = await (createRequire(import.meta.url)(modulePath) as BlabFactory)({ noInitialRun: true });
});

const req = (cpus: number, preset = 'v4.16', seed = 1, pages = 64): SimRequest => ({ workload: 'page_fault1', cpus, pages, iterations: 2, seed, preset, maxEvents: 0 });

/** Workers that answer after a random delay, so they finish out of order; `log` records the
 * order points started in, `disposed` how often each worker was stopped. */
function fakeWorkers(seed: number) {
  const rnd = prng(seed);
  const log: SimRequest[] = [];
  const disposed: number[] = [];
  const make = (i: number): PointRunner => {
    disposed[i] = 0;
    let alive = true;
    return {
      sim: (r) => {
        alive = true;
        log.push(r);
        const out = simScenario(m, r);
        return new Promise((resolve, reject) =>
          setTimeout(() => (alive ? resolve(out) : reject(new Error('the engine was stopped'))), rnd.int(5)),
        );
      },
      dispose: () => {
        alive = false;
        disposed[i]!++;
      },
    };
  };
  return { make, log, disposed };
}

describe('sweep points', () => {
  it('have a key naming every argument with its default, and back', () => {
    const r = { ...req(8), batch: 31 };
    expect(pointKey(r)).toBe('workload=page_fault1 preset=v4.16 cpus=8 pages=64 iterations=2 seed=1 batch=31 high=0 clear_lines=64 cache_scale=1');
    expect(pointKey({ ...r, clearLines: 64, cacheScale: 1 })).toBe(pointKey(r));
    expect(pointKey(pointRequest(pointKey(r)))).toBe(pointKey(r));
    expect(() => pointRequest('workload=x; rm -rf')).toThrow(/unknown workload "x;"/);
    expect(pointWork(req(8))).toBe(8 * 64 * 2);
  });

  it("name hackbench's own fields, and the key reads back to the same request", () => {
    const hb: SimRequest = { workload: 'hackbench', groups: 4, loops: 100, slubPrefetch: true, sameCpu: false, seed: 2, preset: 'v4.16', maxEvents: 0 };
    const key = pointKey(hb);
    expect(key).toBe('workload=hackbench preset=v4.16 groups=4 loops=100 slub_prefetch=1 same_cpu=0 seed=2 batch=0 high=0 clear_lines=64 cache_scale=1');
    expect(pointRequest(key)).toEqual({ ...hb, clearLines: 64, cacheScale: 1 });
    expect(pointWork(hb)).toBe(400);
    // the native parser reads the same key (pointKey is what blab sim --points reads)
    expect(simScenario(m, pointRequest(key)).stats!.messages).toBe(400);
  });

  it('refuse a malformed key, saying which field and why', () => {
    const pf = pointKey(req(8));
    expect(() => pointRequest(pf.replace('workload=page_fault1', 'workload=hackbench'))).toThrow(/expected groups= at "cpus=8"/);
    expect(() => pointRequest(pf.replace('cpus=8', 'cpus=x'))).toThrow(/cpus: "x" is not a decimal number/);
    expect(() => pointRequest(pf.replace('cpus=8', 'cpus=257'))).toThrow(/cpus: more than 256/);
    expect(() => pointRequest(pf.replace(' cache_scale=1', ''))).toThrow(/ends before cache_scale=/);
    expect(() => pointRequest(`${pf} more`)).toThrow(/unexpected "more" after cache_scale/);
    // the defaults are spelt out: 0 is not a second spelling of them (as blab_sim_point_parse())
    expect(() => pointRequest(pf.replace('clear_lines=64', 'clear_lines=0'))).toThrow(/clear_lines: less than 1/);
    expect(() => pointRequest(pf.replace('cache_scale=1', 'cache_scale=0'))).toThrow(/cache_scale: less than 1/);
    expect(() => pointRequest(pf.replace('preset=v4.16', 'preset=v4;16'))).toThrow(/preset: 1 to 31/);
    expect(() => pointRequest('workload=hackbench preset=v4.16 groups=4 loops=1 slub_prefetch=2')).toThrow(/slub_prefetch: more than 1/);
    expect(() => pointRequest(`${pf}${' '.repeat(150)}`)).toThrow(/longer than 255 characters/);
    // the optional fields: in range, in their order, latency only as 1
    expect(() => pointRequest(`${pf} pcp_batch_scale_max=7`)).toThrow(/pcp_batch_scale_max: more than 6/);
    expect(() => pointRequest(`${pf} latency=0`)).toThrow(/latency: less than 1/);
    expect(() => pointRequest(`${pf} latency=1 pcp_batch_scale_max=3`)).toThrow(/unexpected "pcp_batch_scale_max=3" after cache_scale/);
    expect(() => pointRequest(`${pf} node_zones=0`)).toThrow(/node_zones: less than 1/);
    expect(() => pointRequest(`${pf} out_of_step=2`)).toThrow(/out_of_step: more than 1/);
    expect(() => pointRequest(`${pf} out_of_step=1 node_zones=1`)).toThrow(/unexpected "node_zones=1" after cache_scale/);
  });

  it("name seed 002's topology (a zone per node, tasks out of step) last, only when set, as the native key does", () => {
    const r: SimRequest = { workload: 'page_fault1', cpus: 60, pages: 32, iterations: 3, seed: 1, preset: 'v5.17', maxEvents: 0, nodeZones: true, outOfStep: true };
    const key = pointKey(r);
    expect(key).toBe('workload=page_fault1 preset=v5.17 cpus=60 pages=32 iterations=3 seed=1 batch=0 high=0 clear_lines=64 cache_scale=1 node_zones=1 out_of_step=1');
    expect(pointRequest(key)).toEqual({ ...r, clearLines: 64, cacheScale: 1 });
    expect(pointKey({ ...r, nodeZones: false, outOfStep: false })).not.toMatch(/node_zones|out_of_step/);
    // the core runs what the key names: 60 tasks over two sockets, each node's lru_lock shared
    // by half of them, so they spin on it less than on the one list of all 60
    const nodes = simScenario(m, pointRequest(key)).stats!;
    const one = simScenario(m, pointRequest(pointKey({ ...r, nodeZones: false }))).stats!;
    expect(nodes.lruSpin).toBeLessThan(one.lruSpin);
    expect(nodes.score).toBeGreaterThan(one.score);
    expect(simScenario(m, { workload: 'page_fault1', cpus: 4, pages: 32, iterations: 2, seed: 1, preset: 'v5.17', maxEvents: 0, outOfStep: true }).stderr).toMatch(/out_of_step: page_fault1 with 3 or more rounds only/);
  });

  it('name CONFIG_PCP_BATCH_SCALE_MAX and latency counting last, only when set, as the native key does', () => {
    const r: SimRequest = { ...req(2, 'v6.7'), pcpBatchScaleMax: 3, latency: true };
    const key = pointKey(r);
    expect(key).toBe('workload=page_fault1 preset=v6.7 cpus=2 pages=64 iterations=2 seed=1 batch=0 high=0 clear_lines=64 cache_scale=1 pcp_batch_scale_max=3 latency=1');
    expect(pointRequest(key)).toEqual({ ...r, clearLines: 64, cacheScale: 1 });
    expect(pointKey(req(2, 'v6.7'))).not.toContain('pcp_batch_scale_max');
    // the core runs what the key names: scale 0 refills batch pages at most, and the run's
    // latency counters are there with latency=1 and all 0 without
    const at0 = simScenario(m, pointRequest(pointKey({ ...req(2, 'v6.7', 1, 512), pcpBatchScaleMax: 0, latency: true }))).stats!;
    const at5 = simScenario(m, pointRequest(pointKey({ ...req(2, 'v6.7', 1, 512), latency: true }))).stats!;
    expect(at0.latRefillCount).toBeGreaterThan(at5.latRefillCount);
    expect(at0.latAllocCount).toBe(at0.pagesTotal);
    expect(at0.latCpuMhz).toBe(2500);
    const none = simScenario(m, pointRequest(pointKey(req(2, 'v6.7', 1, 512)))).stats!;
    expect([none.latCpuMhz, none.latAllocCount, none.latAllocMax]).toEqual([0, 0, 0]);
    expect([none.score, none.zoneAcq, none.pcpRefills]).toEqual([at5.score, at5.zoneAcq, at5.pcpRefills]);
    // a preset older than the option is refused by the core, as natively
    expect(simScenario(m, pointRequest(pointKey({ ...req(2, 'v4.16'), pcpBatchScaleMax: 3 }))).stderr).toMatch(/preset v4.16 has no CONFIG_PCP_BATCH_SCALE_MAX \(it came with 6.7, 52166607ecc9\)/);
  });

  it("scale the caches as will-it-scale's 128 MB are to the real ones", () => {
    expect([32768, 16384, 4096, 1024, 64, 1].map(willItScaleCacheScale)).toEqual([1, 2, 8, 32, 64, 64]);
  });

  it('spread over seeds: mean, min..max, and whether two overlap', () => {
    expect(spreadOf([3, 1, 2])).toEqual({ mean: 2, min: 1, max: 3, n: 3 });
    expect(insideSpread(spreadOf([1, 3]), spreadOf([2, 4]))).toBe(true);
    expect(insideSpread(spreadOf([1, 2]), spreadOf([3, 4]))).toBe(false);
    expect(insideSpread(spreadOf([1]), spreadOf([1]))).toBe(false); // one seed says nothing about noise
  });
});

describe('SimPool', () => {
  const sweep = [1, 4, 2, 8, 3, 2].flatMap((n) => [req(n, 'v4.16'), req(n, 'v4.17', 2)]);

  it('gives the serial run\'s counters, in the order asked, whatever the pool size and finishing order', async () => {
    const serial = sweep.map((r) => simScenario(m, r).stats);
    for (const size of [1, 2, 3, 5]) {
      const w = fakeWorkers(size);
      const pool = new SimPool(size, null, w.make);
      const seen: number[] = [];
      const out = await pool.run(sweep, { onPoint: (p) => seen.push(p.index) });
      expect(out).toEqual(serial);
      expect(seen.sort((a, b) => a - b)).toEqual(sweep.map((_, i) => i));
      // the task count listed twice ran once
      expect(w.log).toHaveLength(new Set(sweep.map(pointKey)).size);
    }
  }, 60_000);

  it('starts the longest points first, a higher priority before them', async () => {
    const w = fakeWorkers(7);
    await new SimPool(2, null, w.make).run([req(1), req(8), req(2), req(4)]);
    expect(w.log.map(pointWork)).toEqual([8, 4, 2, 1].map((n) => pointWork(req(n))));
    const v = fakeWorkers(8);
    await new SimPool(2, null, v.make).run([req(1), req(8), req(2), req(4)], { priority: (i) => (i === 0 ? 1 : 0) });
    expect(v.log.map(pointWork)).toEqual([1, 8, 4, 2].map((n) => pointWork(req(n))));
  });

  it('runs a replay with its event log ahead of the points waiting, and cancels it with them', async () => {
    const w = fakeWorkers(5);
    const pool = new SimPool(1, null, w.make);
    const replayReq = { ...req(2, 'v4.17'), maxEvents: 4096 };
    const points = pool.run([req(1), req(8), req(4)]);
    const replay = pool.replay(replayReq);
    const [out, r] = await Promise.all([points, replay]);
    expect(out).toEqual([1, 8, 4].map((n) => simScenario(m, req(n)).stats));
    // the first point had started; the replay went next, before the two still waiting
    expect(w.log.map((x) => x.maxEvents)).toEqual([0, 4096, 0, 0]);
    const serial = simScenario(m, replayReq);
    expect(r.stats).toEqual(serial.stats);
    expect(new Uint8Array(r.events)).toEqual(new Uint8Array(serial.events));
    expect(r.events.byteLength).toBeGreaterThan(0);

    const again = pool.replay(replayReq);
    pool.cancel();
    await expect(again).rejects.toBeInstanceOf(PoolCancelled);
    expect(pool.busy).toBe(0);
  });

  it('reports progress with a time-left estimate once a point has run', async () => {
    const pool = new SimPool(2, null, fakeWorkers(3).make);
    const seen: PoolProgress[] = [];
    await pool.run([req(1), req(2), req(4)], { onProgress: (p) => seen.push({ ...p }) });
    expect(seen[0]).toMatchObject({ done: 0, total: 3, etaMs: null });
    expect(seen.at(-1)).toMatchObject({ done: 3, total: 3, etaMs: 0 });
  });

  it('cancel stops every worker and rejects the run; the next run starts fresh', async () => {
    const w = fakeWorkers(11);
    const pool = new SimPool(3, null, w.make);
    const running = pool.run(sweep);
    await new Promise((r) => setTimeout(r, 1));
    pool.cancel();
    await expect(running).rejects.toBeInstanceOf(PoolCancelled);
    expect(w.disposed).toEqual([1, 1, 1]);
    expect(pool.busy).toBe(0);
    expect(await pool.run([req(2)])).toEqual([simScenario(m, req(2)).stats]);
  });

  it('cancel stops a busy worker through its cancel flag and keeps it loaded, where it can', async () => {
    const calls = { cancel: 0, dispose: 0, sims: 0 };
    let stop: ((r: ReturnType<typeof simScenario>) => void) | undefined;
    const runner: PointRunner = {
      sim: (r) => {
        calls.sims++;
        // the first run never ends by itself: only the cancel flag stops it
        if (calls.sims === 1) return new Promise((resolve) => (stop = resolve));
        return Promise.resolve(simScenario(m, r));
      },
      cancelRun: () => {
        calls.cancel++;
        stop?.({ status: 2, stdout: '', stderr: 'blab sim: cancelled\n', events: new ArrayBuffer(0) });
        return true;
      },
      dispose: () => calls.dispose++,
    };
    const pool = new SimPool(1, null, () => runner);
    const running = pool.run([req(2)]);
    await new Promise((r) => setTimeout(r, 1));
    pool.cancel();
    await expect(running).rejects.toBeInstanceOf(PoolCancelled);
    expect(calls).toEqual({ cancel: 1, dispose: 0, sims: 1 });
    // the same worker runs the next point
    expect(await pool.run([req(2)])).toEqual([simScenario(m, req(2)).stats]);
    expect(calls.dispose).toBe(0);
  });

  it("rejects a failing point with the core's reason", async () => {
    const pool = new SimPool(2, null, fakeWorkers(5).make);
    await expect(pool.run([req(1), { ...req(2), clearLines: 65 }])).rejects.toThrow(/clear_lines must be 1..64/);
  });

  it('takes known outputs and cached ones without running them, unless asked to run live', async () => {
    const w = fakeWorkers(13);
    const cache = new ResultsCache('test-hash'); // Node has no IndexedDB: the page's memory copy
    expect(cache.problem).toMatch(/no IndexedDB/);
    const pool = new SimPool(2, cache, w.make);
    const a = req(1);
    const b = req(2);
    const sources: string[] = [];
    await pool.run([a], { onPoint: (p) => sources.push(p.source) });
    const given = simScenario(m, b).stats!;
    await pool.run([a, b], { known: new Map([[pointKey(b), given]]), onPoint: (p) => sources.push(p.source) });
    expect(sources[0]).toBe('run');
    expect(sources.slice(1).sort()).toEqual(['cache', 'given']);
    expect(w.log).toHaveLength(1);
    await pool.run([a], { readCache: false });
    expect(w.log).toHaveLength(2);
  });

  it("rejects a point whose core returned no counters", async () => {
    const pool = new SimPool(1, null, () => ({ sim: () => Promise.resolve({ status: 0, stdout: '', stderr: '', events: new ArrayBuffer(0) }), dispose: () => {} }));
    await expect(pool.run([req(1)])).rejects.toThrow(/no counters/);
  });
});

describe('ResultsCache', () => {
  it('keeps records and gives back only whole ones', async () => {
    const cache = new ResultsCache('test-hash');
    const stats = simScenario(m, req(1)).stats!;
    await cache.put('k', stats);
    expect((await cache.getMany(['k', 'other'])).get('k')).toEqual(stats);
    expect((await cache.getMany(['other'])).size).toBe(0);
  });
});
