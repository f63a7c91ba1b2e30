// The counters of one model-machine run. The core fills one int64 each, in the order of
// SIM_STATS (web/scenario/core-schema.ts, generated from include/blab_js.h's table), and
// blab-module.ts reads them into this record by name: nothing parses the core's text.
// A counter a workload does not have (hackbench's messages on page_fault1) is 0.
import type { SIM_STATS } from '../scenario/core-schema';

export type SimStats = Record<(typeof SIM_STATS)[number], number>;

/** zone->lock acquisitions per page faulted */
export const acqPerPage = (s: SimStats): number => (s.pagesTotal ? s.zoneAcq / s.pagesTotal : 0);
/** cycles zone->lock is held per acquisition */
export const holdPerAcq = (s: SimStats): number => (s.zoneAcq ? s.zoneHold / s.zoneAcq : 0);
