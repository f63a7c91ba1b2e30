// Turns a lesson's run (an op script or a model-machine run) into a Player, through the engine
// worker; and finds the step a lesson step stops at.
import type { EngineClient } from '../engine/engine-client';
import { decodeEvents } from '../log/events';
import { Player } from '../log/player';
import { afterSetup } from '../log/setup';
import type { PcpParams } from '../views/pcp';
import type { LessonRun, StepAt } from './lesson';
import { iterationsFor } from './compute';

export interface LoadedRun {
  player: Player;
  pcp: PcpParams;
  /** what the core printed (buddyinfo lines, or the sim summary) */
  stdout: string;
  /** the raw records, for the JSON export */
  events: ArrayBuffer;
}

export async function loadRun(client: EngineClient, run: LessonRun): Promise<LoadedRun> {
  const r =
    run.kind === 'script'
      ? await client.replay(run.script)
      : await client.sim({
          workload: run.workload,
          cpus: run.cpus,
          pages: run.pages,
          iterations: iterationsFor(run.workload, run.config, run.iterations),
          seed: run.config.seed ?? run.seed,
          preset: run.config.preset,
          maxEvents: 1 << 20,
          clearLines: run.clearLines,
          ...(run.config.batch !== undefined ? { batch: run.config.batch } : {}),
          ...(run.config.high !== undefined ? { high: run.config.high } : {}),
        });
  if (r.status !== 0) throw new Error(`run "${run.name}": ${r.stderr.trim() || `status ${r.status}`}`);
  const player = new Player(decodeEvents(r.events));
  const m = /batch (\d+), high (\d+)/.exec(r.stdout);
  const pcp: PcpParams = m
    ? { batch: Number(m[1]), high: Number(m[2]), source: 'from the run' }
    : { ...player.observedPcp(), source: 'as observed in the log' };
  return { player, pcp, stdout: r.stdout, events: r.events };
}

/** The step index a lesson step stops at; an event past the end of the log stops at the end. */
export function stepFor(p: Player, at: StepAt): number {
  switch (at.kind) {
    case 'start':
      return afterSetup(p.log);
    case 'end':
      return p.length;
    case 'step':
      return Math.min(at.step, p.length);
    case 'event': {
      let pos = 0;
      for (let k = 0; k < at.nth; k++) {
        const next = p.findNext(at.event, pos);
        if (next === undefined) return p.length;
        pos = next;
      }
      return pos;
    }
  }
}
