// The player against the real core: every preset runs an op script in the native CLI
// (build/native/blab replay, events=all), its printed records become a binary log, the player
// replays it, and the final /proc/buddyinfo must be the core's own line. Skipped where the
// native build is not there yet (make native builds it).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EVENT_TYPES, PATHS, decodeEvents, encodeEvents, type EventRecord } from './events';
import { Player } from './player';
import { buddyinfoText } from '../views/procfs';

const BLAB = 'build/native/blab';
const have = existsSync(BLAB);
const PRESETS = ['v2.5.44', 'v2.5.45', 'v2.6.25', 'v4.16', 'v4.17-pick', 'v4.17', 'v5.18-prefetch', 'v5.18'];

function replay(script: string): string {
  return execFileSync(BLAB, ['replay', '-'], { input: script, encoding: 'utf8', maxBuffer: 256 << 20 });
}

/** "   12 t=3 BUDDY_ADD pfn=0x8 order=3 cpu=0 mt=1 path=EXPAND flags=0x0 arg0=0 arg1=0" */
const LINE =
  /^\s*\d+ t=(\d+) (\w+)\s+pfn=(0x[0-9a-f]+) order=(\d+) cpu=(\S+) mt=(\d+) path=(\w+) flags=(0x[0-9a-f]+) arg0=(\d+) arg1=(\d+)$/;

function records(out: string): Partial<EventRecord>[] {
  const recs: Partial<EventRecord>[] = [];
  for (const line of out.split('\n')) {
    const m = LINE.exec(line);
    if (!m) continue;
    const type = EVENT_TYPES.find((t) => t.name === m[2]);
    const path = PATHS.find((p) => p.name === m[7]);
    if (!type || !path) throw new Error(`unknown name in: ${line}`);
    recs.push({
      time: Number(m[1]),
      type: type.id,
      pfn: parseInt(m[3]!, 16),
      order: Number(m[4]),
      cpu: m[5] === '-' ? 0xffff : Number(m[5]),
      mt: Number(m[6]),
      path: path.id,
      flags: parseInt(m[8]!, 16),
      arg0: Number(m[9]),
      arg1: Number(m[10]),
    });
  }
  return recs;
}

function rng(seed: number) {
  let a = seed >>> 0;
  return () => ((a = (Math.imul(a, 1664525) + 1013904223) >>> 0) / 4294967296);
}

// The tree always has the core, and make builds it first: a missing file is a failure, not a skip.
if (!have) throw new Error('missing build/native/blab (make native)')
describe('the player replays real core logs', () => {
  for (const preset of PRESETS) {
    for (const start of [0, 0x301]) {
      it(`${preset}, zone from pfn ${start.toString(16)}`, () => {
        const rand = rng(PRESETS.indexOf(preset) * 7 + start);
        const head = `zone pages=2048 start_pfn=${start} cpus=4 preset=${preset} events=all log=1000000\n`;
        const allocs: string[] = [];
        for (let i = 0; i < 400; i++) {
          const order = [0, 0, 0, 0, 1, 2, 3][Math.floor(rand() * 7)];
          const mt = ['movable', 'movable', 'unmovable', 'reclaimable'][Math.floor(rand() * 4)];
          allocs.push(`alloc order=${order} cpu=${Math.floor(rand() * 4)} mt=${mt}\n`);
        }
        // first pass: which blocks did the allocations get (the plain machine is deterministic)
        const got = [...replay(head + allocs.join('')).matchAll(/pfn=(0x[0-9a-f]+) order=(\d+)/g)].map((m) => [
          m[1],
          m[2],
        ]);
        const frees = got
          .filter(() => rand() < 0.8)
          .map(([pfn, order]) => `free pfn=${pfn} order=${order} cpu=${Math.floor(rand() * 4)}\n`);
        const out = replay(head + allocs.join('') + frees.join('') + 'drain cpu=all\nbuddyinfo\nevents\n');
        const core = out.split('\n').find((l) => l.startsWith('Node 0'))!;
        const p = new Player(decodeEvents(encodeEvents(records(out))), { keyframeInterval: 500 });
        p.seek(p.length);
        const nums = (s: string) => s.trim().split(/\s+/).slice(3).map(Number);
        expect(nums(buddyinfoText(p))).toEqual(nums(core));
        p.seek(Math.floor(p.length / 2));
        const mid = buddyinfoText(p);
        p.stepBack(777);
        p.stepForward(777);
        expect(buddyinfoText(p)).toBe(mid);
      });
    }
  }
});
