// A lesson's tables on the page: each computed once per page, from the results the build
// shipped (the native core ran them, web/lessons/precompute.ts), else from the results cache,
// else by the worker pool; and "Run live", which runs every table of the lesson again in the
// browser and says per row whether the WebAssembly core counted the same as the native one did
// at build time: every counter of every run, each compared as the int64 the core counted.
import shipped from 'virtual:lesson-results';
import { CORE_HASH } from '../engine/core-hash';
import { pointKey } from '../engine/point';
import type { PoolProgress, SimPool } from '../engine/pool';
import { readSimStats, statsDiffer, type SimStats } from '../engine/simstats';
import type { Lesson, SimConfig } from './lesson';
import { computeTable, emptyResult, rowDone, tablePoints, type TableResult } from './compute';
import type { RowMatch } from './tableview';

export interface LiveProgress {
  /** a row of a table finished: the live result so far and that row's check */
  onRow(name: string, r: TableResult, i: number, match: RowMatch): void;
  onProgress(p: PoolProgress): void;
}

export class LessonTables {
  private readonly computed = new Map<string, Promise<TableResult>>();
  private readonly live = new Map<string, { result: TableResult; matches: (RowMatch | undefined)[] }>();
  private shippedRuns: Promise<ReadonlyMap<string, SimStats>> | undefined;

  constructor(
    private readonly lesson: Lesson,
    private readonly pool: SimPool,
  ) {}

  /** What the build shipped for this lesson (empty for a lesson file opened from disk, or when
   * the shipped results come from another core than this page's). */
  shipped(): Promise<ReadonlyMap<string, SimStats>> {
    this.shippedRuns ??= shippedSet(this.lesson.id);
    return this.shippedRuns;
  }

  /** The live result of a table and its row checks, once "Run live" has run it. */
  liveResult(name: string): { result: TableResult; matches: (RowMatch | undefined)[] } | undefined {
    return this.live.get(name);
  }

  /**
   * A table (the lesson's configs, or the student's edit of them): shipped runs first, the cache
   * next, the pool for the rest; onRow as each row finishes, onProgress while the pool runs.
   */
  get(name: string, configs?: SimConfig[], onRow?: (r: TableResult, i: number) => void, onProgress?: (p: PoolProgress) => void): Promise<TableResult> {
    const key = configs ? `${name}:${JSON.stringify(configs)}` : name;
    let t = this.computed.get(key);
    if (!t) {
      t = this.shipped().then((known) =>
        computeTable(
          (reqs, onPoint) => this.pool.run(reqs, { known, onPoint: (p) => onPoint(p.index, p.stats), ...(onProgress ? { onProgress } : {}) }),
          this.lesson.tables[name]!,
          configs,
          onRow,
        ),
      );
      // a failed or cancelled table is computed afresh when asked again
      t.catch(() => this.computed.delete(key));
      this.computed.set(key, t);
    }
    return t;
  }

  /** Every table of the lesson, run again in this browser (never from the cache or the shipped
   * results), each row checked against the shipped runs: every counter of every run equal, as
   * the int64 the core counted. */
  async runLive(cb: LiveProgress): Promise<void> {
    const known = await this.shipped();
    const names = Object.keys(this.lesson.tables);
    const parts = names.map((name) => {
      const t = this.lesson.tables[name]!;
      return { name, result: emptyResult(t), points: tablePoints(t), matches: t.tasks.map((): RowMatch | undefined => 'running') };
    });
    for (const p of parts) this.live.set(p.name, { result: p.result, matches: p.matches });
    const all = parts.flatMap((p) => p.points.map((pt) => ({ part: p, pt })));
    await this.pool.run(
      all.map((a) => a.pt.req),
      {
        readCache: false,
        onProgress: (pr) => cb.onProgress(pr),
        onPoint: ({ index, stats }) => {
          const { part, pt } = all[index]!;
          part.result.runs[pt.i]![pt.j]![pt.k] = stats;
          if (!rowDone(part.result, pt.i)) return;
          const row = part.points.filter((q) => q.i === pt.i);
          const ref = row.map((q) => known.get(pointKey(q.req)));
          part.matches[pt.i] = ref.some((v) => v === undefined)
            ? 'unshipped'
            : row.every((q, n) => statsDiffer(ref[n]!, part.result.runs[q.i]![q.j]![q.k]!) === null)
              ? 'matched'
              : 'differs';
          cb.onRow(part.name, part.result, pt.i, part.matches[pt.i]!);
        },
      },
    );
  }
}

/** The runs the build shipped under a set's id (a lesson's, or another page's such as the time
 * machine's): empty for a set it did not ship, or when they come from another core than this
 * page's. */
export async function shippedSet(id: string): Promise<Map<string, SimStats>> {
  const load = shipped.coreHash === CORE_HASH ? shipped.sets[id] : undefined;
  return load ? shippedStats((await load()).default) : new Map<string, SimStats>();
}

/** A set's shipped runs, each record checked (every counter present, whole, nothing extra):
 * a build that shipped a damaged or foreign record fails here naming the point and the field,
 * rather than showing a guessed number. */
function shippedStats(records: Readonly<Record<string, unknown>>): Map<string, SimStats> {
  return new Map(Object.entries(records).map(([key, stats]) => [key, readSimStats(stats, `the shipped run "${key}"`)]));
}
