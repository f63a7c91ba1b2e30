// Compactions on several CPUs at once, from the real core: the `mixed` workload's huge-page
// tasks (one per CPU of its second half) each compact with their own COMPACT_BEGIN .. END, and
// the player must follow every one of them, stepping back as exactly as forward. Runs the
// WASM build (make wasm), as web/scenario/workloads.test.ts does.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { simScenario, type BlabFactory, type BlabModule } from '../engine/blab-module';
import { EV, decodeEvents, type EventLog } from './events';
import { Player } from './player';
import { ZoneState, applyEvent, geometryFromLog } from './state';

const modulePath = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'build', 'wasm', 'node', 'blab.js');
let log: EventLog;
beforeAll(async () => {
  if (!existsSync(modulePath)) throw new Error(`${modulePath} is missing: run "make wasm" first`);
  const m: BlabModule = await (createRequire(import.meta.url)(modulePath) as BlabFactory)({ noInitialRun: true });
  // 6 CPUs: page_fault1 on 0..2, huge pages on 3..5; lu-rfc-p2 skips merging, so the
  // huge-page tasks find no order-9 block and compact
  const r = simScenario(m, { workload: 'mixed', cpus: 6, pages: 64, iterations: 1, seed: 1, preset: 'lu-rfc-p2', maxEvents: 1 << 21, clearLines: 1 });
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  log = decodeEvents(r.events);
}, 60_000);

/** What stepping must get exactly right, cheap enough to keep for every step. */
function fingerprint(s: ZoneState): number[] {
  return [s.step, s.time, ...s.compaction, ...s.nrFree, ...s.pcpCount];
}

describe('the player follows concurrent compactions of a real mixed run', () => {
  it('has compactions on several CPUs at once, each replayed on its own CPU', () => {
    let running = 0;
    let most = 0;
    const cpus = new Set<number>();
    for (let i = 0; i < log.length; i++) {
      if (log.type[i] === EV.COMPACT_BEGIN) {
        most = Math.max(most, ++running);
        cpus.add(log.cpu[i]!);
      } else if (log.type[i] === EV.COMPACT_END) running--;
    }
    expect(most).toBeGreaterThanOrEqual(2);
    expect([...cpus].every((c) => c >= 3)).toBe(true); // the huge-page half
    const p = new Player(log);
    // somewhere in the log the state itself shows two or more running at once
    let seen = 0;
    for (let i = 0; i < log.length; i++) {
      if (log.type[i] === EV.COMPACT_BEGIN || log.type[i] === EV.COMPACT_SCAN) {
        seen = Math.max(seen, p.seek(i + 1).runningCompactions().length);
      }
    }
    expect(seen).toBe(most);
    expect(p.seek(p.length).runningCompactions()).toEqual([]);
  });

  it('steps back and forward around every compaction record, and seeks across the rest, to the state a fresh replay gives', () => {
    // the ranges stepped one record at a time: around each COMPACT_BEGIN and COMPACT_END
    const ranges: [number, number][] = [];
    for (let i = 0; i < log.length; i++) {
      if (log.type[i] === EV.COMPACT_BEGIN || log.type[i] === EV.COMPACT_END) ranges.push([Math.max(0, i - 300), Math.min(log.length, i + 300)]);
    }
    const lo = ranges[0]![0];
    const hi = ranges.at(-1)![1];
    const wanted = (step: number) => ranges.some(([a, b]) => step >= a && step <= b) || (step >= lo && step <= hi && step % 97 === 0);
    // a fresh replay from record 0, one record at a time
    const fresh = new ZoneState(geometryFromLog(log));
    const expected = new Map<number, string>();
    for (let i = 0; i < hi; i++) {
      if (wanted(i)) expected.set(i, fingerprint(fresh).join());
      applyEvent(fresh, log, i);
    }
    expected.set(hi, fingerprint(fresh).join());
    const p = new Player(log);
    const check = (s: ZoneState, what: string) => {
      const got = fingerprint(s).join();
      if (got !== expected.get(s.step)) expect(got, `${what} to step ${s.step}`).toBe(expected.get(s.step));
    };
    for (const [a, b] of [...ranges].reverse()) {
      p.seek(b);
      while (p.step > a) check(p.stepBack(), 'back');
      while (p.step < b) check(p.stepForward(), 'forward');
    }
    // long seeks, backwards then forwards, over the whole stretch the compactions ran
    const strided = [...expected.keys()].filter((k) => k % 97 === 0).sort((x, y) => y - x);
    expect(strided.length).toBeGreaterThan(100);
    for (const step of strided) check(p.seek(step), 'seek back');
    for (const step of strided.reverse()) check(p.seek(step), 'seek forward');
    // and the whole state, arrays and all, where the fresh replay stopped
    expect(p.seek(hi).arrays().map((x) => Array.from(x as Uint8Array))).toEqual(fresh.arrays().map((x) => Array.from(x as Uint8Array)));
  }, 60_000);
});
