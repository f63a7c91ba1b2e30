// The counters of one model-machine run. The core fills one int64 each, in the order of
// SIM_STATS (web/scenario/core-schema.ts, generated from include/blab_js.h's table), and
// blab-module.ts reads them into this record by name. A counter a workload does not have
// (hackbench's messages on page_fault1) is 0.
//
// A run kept for later (the results cache, the tables the build shipped) is kept as the text
// the core printed: its score line, then "stats NAME=VALUE ..." with the same counters by the
// same names (blab_sim_report(), from the same table), which `blab sim --points` prints
// natively; parseSimStats() reads that line back, and a table checks the text byte for byte.
import { SIM_STATS } from '../scenario/core-schema.ts';

export type SimStats = Record<(typeof SIM_STATS)[number], number>;

/** The counters of the core's "stats" line; throws naming what is missing or malformed, so a
 * table never shows a guessed number. */
export function parseSimStats(stdout: string): SimStats {
  const line = stdout.split('\n').find((l) => l.startsWith('stats '));
  if (!line) throw new Error('the core printed no "stats" line');
  const values = new Map<string, number>();
  for (const kv of line.slice(6).trim().split(/\s+/)) {
    const eq = kv.indexOf('=');
    const v = kv.slice(eq + 1);
    if (eq < 1 || !/^-?\d{1,19}$/.test(v)) throw new Error(`the core's stats line has "${kv.slice(0, 40)}", not NAME=NUMBER`);
    values.set(kv.slice(0, eq), Number(v));
  }
  const out: Partial<SimStats> = {};
  for (const k of SIM_STATS) {
    const v = values.get(k);
    if (v === undefined) throw new Error(`the core's stats line has no ${k}`);
    out[k] = v;
  }
  return out as SimStats;
}

/** zone->lock acquisitions per page faulted */
export const acqPerPage = (s: SimStats): number => (s.pagesTotal ? s.zoneAcq / s.pagesTotal : 0);
/** cycles zone->lock is held per acquisition */
export const holdPerAcq = (s: SimStats): number => (s.zoneAcq ? s.zoneHold / s.zoneAcq : 0);
