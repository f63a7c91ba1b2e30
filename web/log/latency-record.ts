// From a latency histogram's bucket to the record in the replay: the core keeps, per log2 slot,
// the longest call and where it ran (latency-json.ts, LatCall), and the call's record is the
// one on its CPU inside its time: an allocation's ALLOC of its block, a free's FREE, a
// rmqueue_bulk() call's RMQUEUE_BULK begin record, a free_pcppages_bulk() call's PCP_DRAIN begin
// record (docs/events.md). test_latency.c holds the core to the same rule.
import { EV, type EventLog } from './events';
import type { LatCall, LatRecordKind } from './latency-json';

const TYPE: Record<LatRecordKind, number> = { ALLOC: EV.ALLOC, FREE: EV.FREE, RMQUEUE_BULK: EV.RMQUEUE_BULK, PCP_DRAIN: EV.PCP_DRAIN };

/** Where a call's record is: its index in the log, or why it is not there. */
export type CallRecord = { ok: true; index: number } | { ok: false; why: string };

/** Finds the record of `call` in a model run's log: one scan, on a click (not per frame). */
export function findCallRecord(log: EventLog, call: LatCall, kind: LatRecordKind): CallRecord {
  const type = TYPE[kind];
  const end = call.start + call.cycles;
  const byPfn = kind === 'ALLOC' || kind === 'FREE';
  for (let k = 0; k < log.length; k++) {
    const t = log.time[k]!;
    if (log.type[k] !== type || log.cpu[k] !== call.cpu || t < call.start || t > end) continue;
    if (byPfn ? log.pfn[k] === call.pfn : (log.flags[k]! & 1) === 0) return { ok: true, index: k };
  }
  const n = log.length;
  if (n && log.type[n - 1] === EV.LOG_FULL)
    return { ok: false, why: `it is not in the recorded part of the run: the event log stopped at its bound (${n.toLocaleString('en')} records)` };
  return { ok: false, why: `no ${kind} record on cpu ${call.cpu} between cycles ${call.start.toLocaleString('en')} and ${end.toLocaleString('en')}` };
}
