// The contract between the C core and the web app, checked on the real WASM module:
// every golden op script run through blab_js_replay() prints what the native CLI printed
// (tests/golden/*.out), and its event log decodes and replays through the validating
// player without a single rejected transition, ending with the buddyinfo the core printed.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { Player } from '../log/player';
import { replayScript, simScenario, type BlabFactory, type BlabModule, type SimRequest } from './blab-module';
import { decodeEvents, EV, EVENT_TYPES, RECORD_SIZE } from '../log/events';
import { fragIndex } from '../log/fragindex';
import { LIMITS as PLAYER_LIMITS } from '../log/state';
import { URL_LIMITS } from '../scenario/url';
import { scenarioRequest } from '../scenario/request';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const modulePath = join(root, 'build', 'wasm', 'node', 'blab.js');
const goldenDir = join(root, 'wasm-core', 'tests', 'golden');

let m: BlabModule;
beforeAll(async () => {
  if (!existsSync(modulePath)) throw new Error(`${modulePath} is missing: run "make wasm" first`);
  const factory = createRequire(import.meta.url)(modulePath) as BlabFactory;
  m = await factory({ noInitialRun: true });
});

/** Splits a golden .out file into what `blab replay` printed on stdout, stderr, and its status. */
function parseGolden(text: string): { stdout: string; stderr: string; status: number } {
  const e = text.lastIndexOf('--- exit ');
  const s = text.lastIndexOf('--- stderr\n', e);
  if (e < 0 || s < 0) throw new Error('golden file without --- stderr / --- exit sections');
  return {
    stdout: text.slice(0, s),
    stderr: text.slice(s + '--- stderr\n'.length, e),
    status: Number(text.slice(e + '--- exit '.length).trim()),
  };
}

/** nr_free per order from the last `Node 0, zone   Normal ...` line printed. */
function lastBuddyinfo(stdout: string): number[] | null {
  const lines = stdout.split('\n').filter((l) => l.startsWith('Node 0, zone   Normal') && /\d\s*$/.test(l));
  const last = lines.at(-1);
  return last ? last.slice('Node 0, zone   Normal'.length).trim().split(/\s+/).map(Number) : null;
}

const goldens = readdirSync(goldenDir).filter((f) => f.endsWith('.ops')).sort();

describe('WASM core through the JS API', () => {
  it('has golden scripts to check', () => {
    expect(goldens.length).toBeGreaterThan(10);
  });

  it('uses the record size of docs/events.md', () => {
    expect(m._blab_js_event_size()).toBe(RECORD_SIZE);
  });

  for (const name of goldens) {
    it(`${name}: prints what the native CLI printed, and its log replays`, () => {
      const script = readFileSync(join(goldenDir, name), 'utf8');
      const want = parseGolden(readFileSync(join(goldenDir, name.replace(/\.ops$/, '.out')), 'utf8'));
      const got = replayScript(m, script);
      expect(got.stdout).toBe(want.stdout);
      expect(got.stderr).toBe(want.stderr);
      // The CLI exits 1 on a bad line, like the API's status; 2 is reserved for can't-run.
      expect(got.status).toBe(want.status);

      if (got.events.byteLength === 0) return; // scripts that fail before any zone exists
      const log = decodeEvents(got.events);
      const player = new Player(log); // replays every record, validating each transition
      expect(player.length).toBe(got.events.byteLength / RECORD_SIZE);

      // A script that ends on `buddyinfo` must leave the player with the same nr_free.
      const tail = script.trim().split('\n').at(-1)?.trim();
      const printed = lastBuddyinfo(got.stdout);
      const logFull = log.type[log.length - 1] === EV.LOG_FULL;
      if (tail === 'buddyinfo' && printed && !logFull) {
        const s = player.seek(player.length);
        const nrFree = printed.map((_, order) => {
          let n = 0;
          for (let mt = 0; mt < 6; mt++) n += s.nrFree[order * 6 + mt]!;
          return n;
        });
        expect(nrFree).toEqual(printed);
      }
    });
  }

  it('runs page_fault1 on the model machine; the log replays and ends with every page free', () => {
    const req = { workload: 'page_fault1', cpus: 2, pages: 64, iterations: 2, seed: 1, preset: 'v4.17', maxEvents: 1 << 20 } as const;
    const a = simScenario(m, req);
    expect(a.stderr).toBe('');
    expect(a.status).toBe(0);
    expect(a.stdout).toMatch(/^score \d+ pages\/s, zone->lock contention \d+\.\d\d %/);
    const log = decodeEvents(a.events);
    const player = new Player(log);
    const s = player.seek(player.length);
    // unmap freed every page and the pcp lists hold the rest: nothing is left allocated
    let allocated = 0;
    for (let i = 0; i < s.geo.pages; i++) if (s.pageState[i] === 3) allocated++;
    expect(allocated).toBe(0);
    expect(s.geo.cpus).toBe(2);
    // deterministic: the same request gives the same bytes
    const b = simScenario(m, req);
    expect(new Uint8Array(b.events)).toEqual(new Uint8Array(a.events));
  });

  it('runs hackbench in the WASM core; the slab log replays with every slab given back', () => {
    const req: SimRequest = { workload: 'hackbench', groups: 2, loops: 60, slubPrefetch: true, sameCpu: false, seed: 1, preset: 'v5.18', maxEvents: 1 << 20 };
    const a = simScenario(m, req);
    expect(a.stderr).toBe('');
    expect(a.status).toBe(0);
    expect(a.stdout).toMatch(/^120 messages in \d+ cycles, \d+ messages\/s, 120 remote frees, \d+ freelist prefetches \(\d+ hit\)/);
    const log = decodeEvents(a.events);
    const s = new Player(log).seek(log.length);
    expect(Array.from(s.slab.slabPfn).every((pfn) => pfn < 0)).toBe(true);
    expect(a.stats!.messages).toBe(120);
    expect(a.stats!.slabFreeRemote).toBe(120);
    const b = simScenario(m, { ...req, groups: 1 });
    expect(b.status).toBe(2);
    expect(b.stderr).toMatch(/remote frees need at least 2 groups \(or same-cpu\)/);
    // the same-CPU control: every free where the object was allocated
    expect(simScenario(m, { ...req, groups: 1, sameCpu: true }).stats!.slabFreeRemote).toBe(0);
  });

  it('cuts a sim log at its bound with LOG_FULL, and refuses bad requests with a message', () => {
    const cut = simScenario(m, { workload: 'page_fault1', cpus: 2, pages: 256, iterations: 1, seed: 1, preset: 'v4.16', maxEvents: 1000 });
    expect(cut.events.byteLength).toBe(1000 * RECORD_SIZE);
    const log = decodeEvents(cut.events);
    expect(log.type[log.length - 1]).toBe(EV.LOG_FULL);
    expect(cut.stdout).toMatch(/event log cut at its bound/);
    // bounds just past a growth step of the buffer (4096, 8192) must still end with LOG_FULL
    for (const maxEvents of [2, 4097, 8193]) {
      const r = simScenario(m, { workload: 'page_fault1', cpus: 2, pages: 256, iterations: 1, seed: 1, preset: 'v4.16', maxEvents });
      expect(r.events.byteLength).toBe(maxEvents * RECORD_SIZE);
      const l = decodeEvents(r.events);
      expect(l.type[l.length - 1]).toBe(EV.LOG_FULL);
    }
    const bad = simScenario(m, { workload: 'page_fault1', cpus: 2, pages: 256, iterations: 1, seed: 1, preset: 'v9.99', maxEvents: 1000 });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/unknown preset 'v9.99'/);
    const noRoom = simScenario(m, { workload: 'page_fault1', cpus: 2, pages: 256, iterations: 1, seed: 1, preset: 'v4.16', maxEvents: 1 });
    expect(noRoom.status).toBe(2);
    expect(noRoom.stderr).toMatch(/max_events=1 must be 2\.\./);
    const tooMany = simScenario(m, { workload: 'page_fault1', cpus: 300, pages: 256, iterations: 1, seed: 1, preset: 'v4.16', maxEvents: 1000 });
    expect(tooMany.status).toBe(2);
    expect(tooMany.stderr).toMatch(/^blab sim: /);
  });

  it('refuses up front a run whose zone the player could not show (the URL #pages=4194304&cpus=112)', () => {
    // the workbench's request for that link (web/scenario/request.ts)
    const req = scenarioRequest({ pages: URL_LIMITS.maxPages, cpus: URL_LIMITS.maxCpus, preset: 'v5.18', workload: 'page_fault1', seed: 1 });
    if (req.workload === 'hackbench') throw new Error('page_fault1 asked for');
    const r = simScenario(m, { ...req, maxEvents: 1 << 21, maxZonePages: PLAYER_LIMITS.maxPages });
    expect(r.status).toBe(2);
    const said = /this run's zone would have ([\d,]+) pages; the player shows at most 4,194,304/.exec(r.stderr);
    expect(said).not.toBeNull();
    expect(Number(said![1]!.replaceAll(',', ''))).toBeGreaterThan(PLAYER_LIMITS.maxPages);
    expect(r.events.byteLength).toBe(0); // refused before it ran (it used to run for 30 s)
    // the core's figure is the zone the run makes: a bound of its ZONE_INIT's pages runs, one
    // page less is refused
    const small = simScenario(m, { ...req, cpus: 2, pages: 64, maxEvents: 1000 });
    expect(small.status).toBe(0);
    const zonePages = decodeEvents(small.events).arg0[0]!;
    expect(simScenario(m, { ...req, cpus: 2, pages: 64, maxEvents: 1000, maxZonePages: zonePages }).status).toBe(0);
    expect(simScenario(m, { ...req, cpus: 2, pages: 64, maxEvents: 1000, maxZonePages: zonePages - 1 }).status).toBe(2);
  });

  it('rejects an oversized script with a message, before touching the core', () => {
    const r = replayScript(m, '#'.repeat((1 << 20) + 1));
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/limit is 1048576/);
  });

  it('reports a bad line as `line N: why` with status 1', () => {
    const r = replayScript(m, 'zone pages=16\nalloc order=11\n');
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^line 2: /);
  });

  it('names every event type exactly as the C core does (blab_events.h)', () => {
    const classBits: Record<string, number> = { state: 1, explain: 2, lock: 4, cache: 8 };
    const fromC: { id: number; name: string; cls: number }[] = [];
    for (let id = 1; id < 96; id++) {
      const p = m._blab_event_name(id);
      if (p) fromC.push({ id, name: m.UTF8ToString(p), cls: m._blab_event_class(id) });
    }
    expect(fromC.length).toBeGreaterThan(0);
    expect(EVENT_TYPES.map((t) => ({ id: t.id, name: t.name, cls: classBits[t.cls] }))).toEqual(fromC);
  });

  it('computes the fragmentation indices as the TypeScript twin does (blab_frag_index)', () => {
    const top = 10;
    const buf = m._malloc(4 * (top + 1) + 8);
    try {
      let seed = 7;
      const rnd = (n: number) => {
        seed = (seed * 1103515245 + 12345) % 2147483648;
        return seed % n;
      };
      for (let trial = 0; trial < 200; trial++) {
        const nr = Array.from({ length: top + 1 }, (_, o) => (rnd(3) === 0 ? 0 : rnd(2000 >> Math.min(o, 10))));
        const view = new DataView(m.HEAPU8.buffer, buf, 4 * (top + 1) + 8);
        nr.forEach((n, o) => view.setUint32(4 * o, n, true));
        for (let order = 0; order <= top; order++) {
          expect(m._blab_frag_index(buf, top, order, buf + 4 * (top + 1), buf + 4 * (top + 1) + 4)).toBe(0);
          const fromC = { unusable: view.getInt32(4 * (top + 1), true), extfrag: view.getInt32(4 * (top + 1) + 4, true) };
          expect(fromC).toEqual(fragIndex(nr, order));
        }
      }
      expect(m._blab_frag_index(buf, top, top + 1, buf, buf)).toBeLessThan(0);
    } finally {
      m._free(buf);
    }
  });
});
