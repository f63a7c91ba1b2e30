// A run's event log as JSON, and back: one array per record in the field order below, so a
// log can be read, diffed and edited by people and loaded back into the player unchanged.
// The loader is a parser of user input: bounded, every number checked, errors say which record.
import { decodeEvents, encodeEvents, MAX_RECORDS, type EventLog, type EventRecord } from './events';

export const EVENTLOG_FORMAT = 'buddylab-event-log';
export const EVENTLOG_VERSION = 1;
export const EVENTLOG_FIELDS = ['time', 'pfn', 'type', 'order', 'cpu', 'mt', 'path', 'flags', 'arg0', 'arg1'] as const;
/** records a JSON log may hold (docs/limits.md): smaller than the binary limit, JSON is ~3x bigger */
export const EVENTLOG_JSON_MAX_RECORDS = 1 << 21;

const MAX: Record<(typeof EVENTLOG_FIELDS)[number], number> = {
  time: Number.MAX_SAFE_INTEGER,
  pfn: Number.MAX_SAFE_INTEGER,
  type: 0xff,
  order: 0xff,
  cpu: 0xffff,
  mt: 0xff,
  path: 0xff,
  flags: 0xffff,
  arg0: 0xffffffff,
  arg1: 0xffffffff,
};

export function eventLogToJson(log: EventLog, label: string): string {
  const rows: string[] = [];
  for (let i = 0; i < log.length; i++) {
    rows.push(`[${log.time[i]},${log.pfn[i]},${log.type[i]},${log.order[i]},${log.cpu[i]},${log.mt[i]},${log.path[i]},${log.flags[i]},${log.arg0[i]},${log.arg1[i]}]`);
  }
  const head = JSON.stringify({ format: EVENTLOG_FORMAT, version: EVENTLOG_VERSION, label, fields: EVENTLOG_FIELDS });
  return `${head.slice(0, -1)},"records":[\n${rows.join(',\n')}\n]}\n`;
}

export class EventLogJsonError extends Error {
  override name = 'EventLogJsonError';
}

/** Parses a JSON event log back into 32-byte records (then validated by decodeEvents / the Player). */
export function eventLogFromJson(text: string): { label: string; buffer: ArrayBuffer } {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    throw new EventLogJsonError(`not JSON: ${e instanceof Error ? e.message : String(e)}`);
  }
  const o = v as Record<string, unknown>;
  if (typeof o !== 'object' || o === null || o['format'] !== EVENTLOG_FORMAT)
    throw new EventLogJsonError(`not a buddylab event log (expected "format": "${EVENTLOG_FORMAT}")`);
  if (o['version'] !== EVENTLOG_VERSION) throw new EventLogJsonError(`version ${String(o['version']).slice(0, 12)}: this buddylab reads version ${EVENTLOG_VERSION}`);
  const fields = o['fields'];
  if (!Array.isArray(fields) || fields.join() !== EVENTLOG_FIELDS.join()) throw new EventLogJsonError(`"fields" must be ${EVENTLOG_FIELDS.join(', ')}`);
  const recs = o['records'];
  if (!Array.isArray(recs)) throw new EventLogJsonError('"records" must be a list');
  const limit = Math.min(EVENTLOG_JSON_MAX_RECORDS, MAX_RECORDS);
  if (recs.length > limit) throw new EventLogJsonError(`${recs.length} records; the limit is ${limit}`);
  const out: EventRecord[] = recs.map((r, i) => {
    if (!Array.isArray(r) || r.length !== EVENTLOG_FIELDS.length) throw new EventLogJsonError(`record ${i}: expected ${EVENTLOG_FIELDS.length} numbers`);
    const rec = {} as EventRecord;
    EVENTLOG_FIELDS.forEach((f, k) => {
      const x = r[k];
      if (typeof x !== 'number' || !Number.isInteger(x) || x < 0 || x > MAX[f]) throw new EventLogJsonError(`record ${i}: ${f} must be a whole number 0..${MAX[f]}`);
      rec[f] = x;
    });
    return rec;
  });
  const buffer = encodeEvents(out);
  decodeEvents(buffer); // the binary decoder's own checks, with its record numbers
  return { label: typeof o['label'] === 'string' ? o['label'].slice(0, 200) : 'event log', buffer };
}
