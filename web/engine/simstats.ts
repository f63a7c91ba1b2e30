// The counters of one model-machine run, a typed record end to end. The core fills one int64
// each, in the order of SIM_STATS (web/scenario/core-schema.ts, generated from
// include/blab_js.h's table), and blab-module.ts reads them into this record by name. A counter
// a workload does not have (hackbench's messages on page_fault1) is 0.
//
// A run kept for later (the results cache, the tables the build shipped) is kept as this
// record; natively `blab sim --points` prints the same record, one JSON line per point with its
// key and the counters by the same names (blab_sim_point_record(), from the same table).
// Whatever was stored or shipped is read back through readSimStats(), which refuses a record
// with a counter missing, extra or not a whole number, naming the point and the field.
import { SIM_BINDS_BP, SIM_LIMITS, SIM_STATS } from '../scenario/core-schema.ts';

export type SimStats = Record<(typeof SIM_STATS)[number], number>;

/** A finished point as `blab sim --points` prints it: its key (point.ts) and every counter. */
export interface PointRecord {
  key: string;
  stats: SimStats;
}

const NAMES: ReadonlySet<string> = new Set(SIM_STATS);

/**
 * The counters of a stored or shipped record, checked: an object with every SIM_STATS name,
 * each a whole number a JavaScript number holds exactly (|v| < 2^53), and nothing else. Throws
 * naming `where` (the point) and the field, so a table never shows a guessed number.
 */
export function readSimStats(value: unknown, where: string): SimStats {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error(`${where}: the counters are not an object`);
  const rec = value as Record<string, unknown>;
  const extra = Object.keys(rec).filter((k) => !NAMES.has(k));
  if (extra.length) throw new Error(`${where}: "${extra[0]!.slice(0, 40)}" is not one of the core's counters (SIM_STATS)`);
  const out: Partial<SimStats> = {};
  for (const k of SIM_STATS) {
    const v = rec[k];
    if (v === undefined) throw new Error(`${where}: the counter ${k} is missing`);
    if (typeof v !== 'number' || !Number.isSafeInteger(v)) throw new Error(`${where}: the counter ${k} is ${JSON.stringify(v)?.slice(0, 40)}, not a whole number below 2^53`);
    out[k] = v;
  }
  return out as SimStats;
}

/** One line of `blab sim --points` output ({"key":..,"stats":{..}}), checked as readSimStats()
 * does; `where` says which line. */
export function readPointRecord(line: string, where: string): PointRecord {
  let v: unknown;
  try {
    v = JSON.parse(line);
  } catch (e) {
    throw new Error(`${where}: not a JSON record (${e instanceof Error ? e.message : String(e)})`);
  }
  if (typeof v !== 'object' || v === null) throw new Error(`${where}: not a JSON object`);
  const { key, stats, ...rest } = v as Record<string, unknown>;
  if (typeof key !== 'string' || !key) throw new Error(`${where}: the record has no "key"`);
  const more = Object.keys(rest);
  if (more.length) throw new Error(`${where}: the record has "${more[0]!.slice(0, 40)}" beside "key" and "stats"`);
  return { key, stats: readSimStats(stats, `${where} (${key.slice(0, 200)})`) };
}

/** The first counter where two runs differ, or null when every one is equal: each compared as
 * the int64 the core counted (both are exact, readSimStats() and simScenario() see to it). */
export function statsDiffer(a: SimStats, b: SimStats): (typeof SIM_STATS)[number] | null {
  return SIM_STATS.find((k) => a[k] !== b[k]) ?? null;
}

/** zone->lock acquisitions per page faulted */
export const acqPerPage = (s: SimStats): number => (s.pagesTotal ? s.zoneAcq / s.pagesTotal : 0);
/** cycles zone->lock is held per acquisition */
export const holdPerAcq = (s: SimStats): number => (s.zoneAcq ? s.zoneHold / s.zoneAcq : 0);

/** all sockets' DRAM traffic (line fills, clear_page()'s write-backs and reads for
 * ownership), GB/s over the run's model time */
export const memGbs = (s: SimStats): number => s.memMbs / 1000;
/** what one socket's memory controller carries, GB/s (0: the run had no limit) */
export const memLimitGbs = (s: SimStats): number => s.memLimitMbs / 1000;

/** The limit that binds the run (the core decides: include/blab_sim.h, blab_sim_limit), in
 * words, and the share of the CPUs' time that wait took. */
export function bindingLimit(s: SimStats): { name: string; text: string; share: number } {
  const name = SIM_LIMITS[s.binds] ?? 'none';
  const share = name === 'zone->lock' ? s.zoneBp : name === 'lru_lock' ? s.lruBp : name === 'memory' ? s.memWaitBp : 0;
  const text =
    name === 'memory'
      ? 'memory bandwidth'
      : name === 'none'
        ? `none: no wait took ${SIM_BINDS_BP / 100} % of the CPUs’ time`
        : name;
  return { name, text, share: share / 100 };
}
