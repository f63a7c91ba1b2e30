// Every workload the panel offers exists in the C core (no made-up workloads), and each maps a
// scenario onto arguments the core accepts.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { coreWorkloads, simScenario, type BlabFactory, type BlabModule } from '../engine/blab-module';
import { HIGHALLOC_ATTEMPTS, WORKLOAD_TABLE, workloadEntry } from './workloads';
import { URL_LIMITS, WORKLOADS } from './url';
import { runRequest, scenarioRequest, sizedInput } from './request';
import { Player } from '../log/player';
import { decodeEvents } from '../log/events';

/** web/engine/engine.ts MAX_SIM_EVENTS, the bound of a panel run's log (that module starts the
 * engine worker when imported, so the number is repeated here) */
const MAX_SIM_EVENTS = 1 << 21;

const modulePath = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'build', 'wasm', 'node', 'blab.js');
let m: BlabModule;
beforeAll(async () => {
  if (!existsSync(modulePath)) throw new Error(`${modulePath} is missing: run "make wasm" first`);
  m = await (createRequire(import.meta.url)(modulePath) as BlabFactory)({ noInitialRun: true });
});

describe('the workload table', () => {
  it('lists only workloads the core has, each once, and the URL accepts exactly these', () => {
    const core = coreWorkloads(m);
    expect(core).toContain('page_fault1');
    const names = WORKLOAD_TABLE.map((w) => w.name);
    expect(new Set(names).size).toBe(names.length);
    for (const n of names) expect(core).toContain(n);
    expect(Object.keys(WORKLOADS)).toEqual(names);
  });
  it('each entry turns a small scenario into a run the core accepts', () => {
    for (const w of WORKLOAD_TABLE) {
      const { tasks, size } = w.size(256, 2);
      const r = simScenario(m, { ...runRequest({ ...sizedInput(w.name, tasks, size), seed: 1, preset: 'v5.18' }), maxEvents: 4096 });
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
      expect(w.description.length).toBeGreaterThan(40);
    }
  });
  it('keeps the page allocator workloads small at the largest scenario a link may ask for, and the core takes them', () => {
    for (const name of ['parallel_free', 'trunc', 'stress_highalloc', 'mixed'] as const) {
      const w = workloadEntry(name)!;
      for (const [zone, cpus] of [
        [URL_LIMITS.maxPages, URL_LIMITS.maxCpus],
        [URL_LIMITS.minPages, 1],
      ] as const) {
        const { tasks, size } = w.size(zone, cpus);
        const req = runRequest({ workload: name, cpus: tasks, pages: size, seed: 1, preset: 'lu-rfc-p2' });
        if (req.workload === 'hackbench') throw new Error(`${name} asked for`);
        // the work a run does: pages per task x tasks x rounds (stress_highalloc: the fill,
        // which each attempt's compaction may scan, x attempts)
        const work = name === 'stress_highalloc' ? req.pages * req.iterations : req.cpus * req.pages * req.iterations;
        expect(work, `${name} ${zone}/${cpus}`).toBeLessThanOrEqual(1 << 17);
        const r = simScenario(m, { ...req, maxEvents: MAX_SIM_EVENTS });
        expect(r.stderr, `${name} ${zone}/${cpus}`).toBe('');
        expect(r.status).toBe(0);
        // the whole log replays in the player (mixed: up to 56 huge-page tasks compacting side by side)
        expect(new Player(decodeEvents(r.events)).length, `${name} ${zone}/${cpus}`).toBe(r.events.byteLength / 32);
      }
    }
    // stress_highalloc: the scenario's zone is the fill, cpu 0 makes the order-9 attempts
    expect(scenarioRequest({ workload: 'stress_highalloc', pages: 4096, cpus: 4, preset: 'v4.16', seed: 1 })).toMatchObject({ cpus: 4, pages: 4096, iterations: HIGHALLOC_ATTEMPTS });
    const out = simScenario(m, { ...scenarioRequest({ workload: 'stress_highalloc', pages: 4096, cpus: 4, preset: 'v4.16', seed: 1 }), maxEvents: 0 });
    expect(out.stats!.hiAttempts).toBe(HIGHALLOC_ATTEMPTS);
  }, 240_000); // mixed at 112 CPUs alone fills its 2^21-record log bound: ~10 s here

  it('refuses a name the core does not have, listing the ones it has', () => {
    expect(() => simScenario(m, { workload: 'no_such' as 'trunc', cpus: 1, pages: 16, iterations: 1, seed: 1, preset: 'v5.18', maxEvents: 16 })).toThrow(
      /the core has no workload "no_such"; it has page_fault1/,
    );
    expect(workloadEntry('no_such')).toBeUndefined();
  });
});
