// Lesson 8 (lessons/08-pcp-tunes-itself.md) against the real core (the Node WASM build): its
// op scripts make the refills, drains and pcp counts its prose and questions name, and its
// table's answer is what the model computes.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { replayScript, simScenario, type BlabFactory, type BlabModule } from '../engine/blab-module';
import { EV, decodeEvents } from '../log/events';
import { serialPoints } from '../engine/point';
import { cellSpread, computeTable } from './compute';
import { parseLesson } from './parse';

const root = join(import.meta.dirname, '..', '..');
const modulePath = join(root, 'build', 'wasm', 'node', 'blab.js');
const lesson = () => parseLesson('lessons/08-pcp-tunes-itself.md', readFileSync(join(root, 'lessons', '08-pcp-tunes-itself.md'), 'utf8'));
let m: BlabModule;
beforeAll(async () => {
  if (!existsSync(modulePath)) throw new Error(`${modulePath} is missing: run "make wasm" first`);
  m = await (createRequire(import.meta.url)(modulePath) as BlabFactory)({ noInitialRun: true });
});

function records(script: string, type: number) {
  const r = replayScript(m, script);
  if (r.status !== 0) throw new Error(r.stderr);
  const log = decodeEvents(r.events);
  const out: { arg0: number; arg1: number; flags: number; path: number }[] = [];
  for (let i = 0; i < log.length; i++) if (log.type[i] === type) out.push({ arg0: log.arg0[i]!, arg1: log.arg1[i]!, flags: log.flags[i]!, path: log.path[i]! });
  return { r, out };
}

describe('lesson 8 on the core', () => {
  it('climbs 63 .. 2016 (the answer to its refill question), decays in sizes no batch divides', () => {
    const l = lesson();
    const scriptOf = (id: string) => {
      const run = l.runs[id];
      if (!run || run.kind !== 'script') throw new Error(`run ${id} is not a script`);
      return run.script;
    };
    const refills = records(scriptOf('climb'), EV.RMQUEUE_BULK).out.filter((e) => e.flags & 1).map((e) => e.arg1);
    expect(refills).toEqual([63, 126, 252, 504, 1008, 2016, 2016]);
    const q = l.steps.find((s) => s.predict?.kind === 'number')!.predict!;
    if (q.kind !== 'number' || typeof q.answer !== 'number') throw new Error('expected a fixed answer');
    expect(q.answer).toBe(refills[5]);
    const drains = records(scriptOf('decay'), EV.PCP_DRAIN).out.filter((e) => !(e.flags & 1)).map((e) => e.arg0);
    expect(drains).toEqual([185, 725]);
    // free_high: 6.7 drains CPU 1's list hard, 6.16 keeps all 300 pages (choice 1)
    const hard = records(scriptOf('freehigh67'), EV.PCP_DRAIN).out;
    expect(hard.length).toBeGreaterThan(0);
    expect(replayScript(m, scriptOf('freehigh616')).stdout).toMatch(/cpu: 1\n\s+count:\s+310\n/);
    expect(replayScript(m, scriptOf('freehigh67')).stdout).toMatch(/cpu: 1\n\s+count:\s+0\n/);
  });

  it("computes the contention table: 6.7's tuned high spins less than 6.0's fixed one at 56 tasks", async () => {
    const t = lesson().tables['contention']!;
    const a = await computeTable(serialPoints(async (req) => simScenario(m, req)), t);
    const at56 = t.tasks.indexOf(56);
    const [v60, v67] = [cellSpread(a, at56, 0).mean, cellSpread(a, at56, 1).mean];
    expect(v67!).toBeLessThan(v60!); // choice 1 of the table's question
  }, 120_000);
});
