// 6.7's pcp high moves (PCP_HIGH records, docs/events.md), and the replay follows it: the
// climb of lesson 8 from the real core (make wasm), every record's old value checked against
// the state, and the final highs equal to what the core's own `pcp` command prints.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { replayScript, type BlabFactory, type BlabModule } from '../engine/blab-module';
import { EV, PATHS, decodeEvents, encodeEvents, type EventLog } from './events';
import { Player } from './player';
import { narrate } from './narrate';

const modulePath = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'build', 'wasm', 'node', 'blab.js');
let m: BlabModule;
beforeAll(async () => {
  if (!existsSync(modulePath)) throw new Error(`${modulePath} is missing: run "make wasm" first`);
  m = await (createRequire(import.meta.url)(modulePath) as BlabFactory)({ noInitialRun: true });
}, 60_000);

const pathId = (name: string) => PATHS.find((p) => p.name === name)!.id;
const fmt = (n: number) => n.toLocaleString('en');

function run(script: string): { log: EventLog; stdout: string } {
  const r = replayScript(m, script);
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  return { log: decodeEvents(r.events), stdout: r.stdout };
}

/** the highs per CPU that the core's `pcp` command printed last */
function printedHighs(stdout: string): number[] {
  return [...stdout.matchAll(/^\s+high:\s+(\d+)$/gm)].map((x) => Number(x[1]));
}

describe('PCP_HIGH: a 6.7 list against its own high', () => {
  it('starts every list at high_min, raises CPU 0 refill by refill, and ends where the core says', () => {
    const { log, stdout } = run('zone pages=262144 cpus=2 preset=v6.7 events=state,explain\nalloc order=0 cpu=0 count=4200\npcp\n');
    const highs = [];
    for (let i = 0; i < log.length; i++) if (log.type[i] === EV.PCP_HIGH) highs.push({ cpu: log.cpu[i]!, path: log.path[i]!, high: log.arg0[i]!, old: log.arg1[i]! });
    const init = highs.filter((h) => h.path === pathId('ZONE_INIT'));
    expect(init.map((h) => h.cpu)).toEqual([0, 1]);
    expect(new Set(init.map((h) => h.high)).size).toBe(1);
    expect(init.every((h) => h.old === 0)).toBe(true);
    // every refill raises high by what it takes: 63, 126, ... 2016 (the lesson's climb)
    const raises = highs.filter((h) => h.path === pathId('RMQUEUE_BULK'));
    expect(raises.every((h) => h.cpu === 0)).toBe(true);
    expect(raises.slice(0, 6).map((h) => h.high - h.old)).toEqual([63, 126, 252, 504, 1008, 2016]);
    // told in the kernel's words: what moved high, from what to what
    const first = Array.from(log.type).findIndex((t, k) => t === EV.PCP_HIGH && log.path[k] === pathId('RMQUEUE_BULK'));
    expect(narrate(log, first)).toBe(`CPU 0: nr_pcp_alloc() raises its pcp high before the refill from ${fmt(raises[0]!.old)} to ${fmt(raises[0]!.high)}: 6.7 lets each list's high move between high_min and high_max.`);
    expect(narrate(log, Array.from(log.type).indexOf(EV.PCP_HIGH))).toMatch(/^CPU 0's pcp high starts at high_min = [\d,]+:/);
    // the refill that follows asks for batch << alloc_factor, not batch
    const refill = Array.from(log.type).findIndex((t, k) => k > first && t === EV.RMQUEUE_BULK);
    expect(narrate(log, refill, { pcp: { batch: 63 } })).toContain('moves batch = 63 blocks');
    const p = new Player(log);
    p.seek(log.length);
    expect(Array.from(p.state.pcpHigh)).toEqual(printedHighs(stdout));
  });

  it('follows decay_pcp_high() down, and stepping back restores each high', () => {
    const { log, stdout } = run(
      'zone pages=262144 cpus=2 preset=v6.7 events=state,explain\nalloc order=0 cpu=0 count=4200\nfree last=4200 cpu=0\ndecay cpu=0\ndecay cpu=0\npcp\n',
    );
    const decays = [];
    for (let i = 0; i < log.length; i++) if (log.type[i] === EV.PCP_HIGH && log.path[i] === pathId('DECAY')) decays.push(i);
    expect(decays.length).toBe(2);
    const p = new Player(log);
    p.seek(log.length);
    expect(Array.from(p.state.pcpHigh)).toEqual(printedHighs(stdout));
    const after = p.state.pcpHigh[0]!;
    p.seek(decays[1]!); // just before the second decay
    expect(p.state.pcpHigh[0]).toBeGreaterThan(after);
    expect(p.state.pcpHigh[0]).toBe(log.arg1[decays[1]!]);
  });

  it('earlier kernels never move high: no PCP_HIGH in a v6.0 or v4.16 log', () => {
    for (const preset of ['v6.0', 'v4.16']) {
      const { log } = run(`zone pages=65536 cpus=2 preset=${preset} events=state,explain\nalloc order=0 cpu=0 count=1000\nfree last=1000 cpu=0\n`);
      expect(Array.from(log.type).includes(EV.PCP_HIGH)).toBe(false);
    }
  });

  it('refuses a record whose old high is not the one the replay holds, naming the record', () => {
    const { log } = run('zone pages=262144 cpus=2 preset=v6.7 events=state\nalloc order=0 cpu=0 count=100\n');
    const i = Array.from(log.type).findIndex((t, k) => t === EV.PCP_HIGH && log.path[k] === pathId('RMQUEUE_BULK'));
    expect(i).toBeGreaterThan(0);
    const records = Array.from({ length: log.length }, (_, k) => ({
      time: log.time[k]!, pfn: log.pfn[k]!, type: log.type[k]!, order: log.order[k]!, cpu: log.cpu[k]!, mt: log.mt[k]!, path: log.path[k]!, flags: log.flags[k]!, arg0: log.arg0[k]!, arg1: log.arg1[k]!,
    }));
    records[i]!.arg1 += 1;
    expect(() => new Player(decodeEvents(encodeEvents(records))).seek(i + 1)).toThrow(/PCP_HIGH.*cpu 0's high was \d+, the record says \d+/);
  });
});
