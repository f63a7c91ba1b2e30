// Turns a lesson's run (an op script or a model-machine run) into a Player, through the engine
// worker; and finds the step a lesson step stops at.
import type { EngineClient } from '../engine/engine-client';
import { decodeEvents } from '../log/events';
import { Player } from '../log/player';
import { afterSetup } from '../log/setup';
import type { PcpParams } from '../views/pcp';
import type { Lesson, LessonRun, LessonSimRun, LessonTable, StepAt } from './lesson';
import { presetSlubPrefetch } from '../scenario/request';
import type { SimRequest } from '../engine/blab-module';
import type { LatencyData } from '../views/latency-data';

export interface LoadedRun {
  player: Player;
  pcp: PcpParams;
  /** the raw records, for the JSON export */
  events: ArrayBuffer;
  /** a model run's allocation and free latencies, for the latency view (one object per run,
   * so the view draws it once, not per record) */
  latency?: LatencyData;
}

/** A lesson's sim run as the core takes it: its fields are the workload's own (docs/lessons.md). */
export function runSimRequest(run: LessonSimRun): SimRequest {
  const common = {
    seed: run.config.seed ?? run.seed,
    preset: run.config.preset,
    maxEvents: 1 << 20,
    // a replay counts its calls' latency (the latency view; it changes no counter)
    latency: true,
    clearLines: run.clearLines,
    cacheScale: run.cacheScale,
    ...(run.config.batch !== undefined ? { batch: run.config.batch } : {}),
    ...(run.config.high !== undefined ? { high: run.config.high } : {}),
    ...(run.config.pcpBatchScaleMax !== undefined ? { pcpBatchScaleMax: run.config.pcpBatchScaleMax } : {}),
  };
  return run.workload === 'hackbench'
    ? {
        workload: run.workload,
        groups: run.groups,
        loops: run.loops,
        slubPrefetch: run.config.slubPrefetch ?? presetSlubPrefetch(run.config.preset),
        sameCpu: run.config.sameCpu ?? false,
        ...common,
      }
    : { workload: run.workload, cpus: run.cpus, pages: run.pages, iterations: run.iterations, ...common };
}

export async function loadRun(client: EngineClient, run: LessonRun): Promise<LoadedRun> {
  const r = run.kind === 'script' ? await client.replay(run.script) : await client.sim(runSimRequest(run));
  if (r.status !== 0) throw new Error(`run "${run.name}": ${r.stderr.trim() || `status ${r.status}`}`);
  const player = new Player(decodeEvents(r.events));
  // a sim run's pcp sizes are its counters; an op script's, what its log shows
  const pcp: PcpParams = r.stats
    ? { batch: r.stats.batch, high: r.stats.high, source: 'from the run' }
    : { ...player.observedPcp(), source: 'as observed in the log' };
  const label = run.kind === 'sim' ? `${run.config.label}${run.config.pcpBatchScaleMax !== undefined && run.config.label === run.config.preset ? `, scale max ${run.config.pcpBatchScaleMax}` : ''}` : run.name;
  return { player, pcp, events: r.events, ...(r.latency ? { latency: { sources: [{ label, report: r.latency }] } } : {}) };
}

/**
 * What the stepped player shows, in words: a replay is kept small enough to follow page by
 * page, so it says how small, and that the lesson's tables come from runs at the seed's sizes.
 */
export function runScaleNote(run: LessonRun, lesson: Lesson): string {
  if (run.kind === 'script') return `This replay is an op script on the plain machine (no caches, no locks): ${run.name}.`;
  const size = run.workload === 'hackbench' ? `${run.groups} groups x ${run.loops} messages` : `${run.cpus} CPUs x ${run.pages} pages`;
  const sizes = Object.values(lesson.tables).map(tableSize);
  const big = sizes.length ? ` The tables come from runs at ${[...new Set(sizes)].join('; ')}.` : '';
  return `A small scenario to watch single pages: ${size}, clear_page() through ${run.clearLines} of 64 lines, ${run.config.preset}${run.config.batch !== undefined ? ` with batch ${run.config.batch}, high ${run.config.high ?? "the preset's"}` : ''}.${big}`;
}

/** A table's largest run in the workload's own words: "4096 pages per task, up to 224 tasks". */
function tableSize(t: LessonTable): string {
  const most = Math.max(...t.tasks);
  switch (t.workload) {
    case 'hackbench':
      return `${t.loops} messages per sender, up to ${most} groups`;
    case 'stress_highalloc':
      return `a zone of ${t.pages} pages, up to ${most} CPUs`;
    default:
      return `${t.pages} pages per task, up to ${most} tasks`;
  }
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
