// A run's event log as JSON, and back: one array per record in the field order below, so a
// log can be read, diffed and edited by people and loaded back into the player unchanged.
//
// The loader is a parser of user input, and logs are large (2^21 records is about 80 MB of
// text), so it reads the text in pieces (JsonLogReader.feed) and writes each record straight
// into the typed arrays of an EventLog: no JSON.parse of the whole text, no array per record.
// The small members ("format", "version", "label", "fields") are cut out whole and given to
// JSON.parse, so their strings and escapes follow JSON exactly. Every number is checked, every
// error says the line and the record, and every size is bounded.
import { EventLog, MAX_RECORDS, type EventLogColumns } from './events';

export const EVENTLOG_FORMAT = 'buddylab-event-log';
export const EVENTLOG_VERSION = 1;
export const EVENTLOG_FIELDS = ['time', 'pfn', 'type', 'order', 'cpu', 'mt', 'path', 'flags', 'arg0', 'arg1'] as const;
/** records a JSON log may hold (docs/limits.md): smaller than the binary limit, JSON is ~3x bigger */
export const EVENTLOG_JSON_MAX_RECORDS = 1 << 21;
/** bytes of JSON the loader reads at most (docs/limits.md) */
export const EVENTLOG_JSON_MAX_BYTES = 256 * 1024 * 1024;
/** the longest member other than "records" (a label, the field list) */
const MAX_SMALL_VALUE = 64 * 1024;
const MAX_KEY = 256;

type Field = (typeof EVENTLOG_FIELDS)[number];
const NFIELDS = EVENTLOG_FIELDS.length;

const MAX: Record<Field, number> = {
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
const MAXES = EVENTLOG_FIELDS.map((f) => MAX[f]);

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

const enum S {
  Start, // before the top-level {
  KeyOrEnd, // after { : a key or }
  Key, // after , : a key
  KeyText, // inside a key's quotes
  Colon,
  Small, // copying a member's value for JSON.parse
  CommaOrEnd, // after a member: , or }
  RecordsOpen, // the [ of "records"
  RecordOrEnd, // a record's [ or the list's ]
  Record, // after , in the list: a record's [
  Number, // inside a record, before or in a number
  AfterNumber, // after a number: , or ]
  RecordSep, // after a record: , or ]
  Done, // after the top-level }: only white space
}

const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/** Growable columns, the final EventLog's arrays; doubled as records arrive (up to the limit). */
class Columns {
  n = 0;
  c: EventLogColumns;
  constructor(cap: number) {
    this.c = Columns.alloc(cap);
  }
  private static alloc(cap: number): EventLogColumns {
    return {
      time: new Float64Array(cap),
      pfn: new Float64Array(cap),
      type: new Uint8Array(cap),
      order: new Uint8Array(cap),
      cpu: new Uint16Array(cap),
      mt: new Uint8Array(cap),
      path: new Uint8Array(cap),
      flags: new Uint16Array(cap),
      arg0: new Uint32Array(cap),
      arg1: new Uint32Array(cap),
    };
  }
  push(v: Float64Array): void {
    if (this.n === this.c.type.length) {
      const bigger = Columns.alloc(this.n * 2);
      for (const k of Object.keys(bigger) as (keyof EventLogColumns)[]) (bigger[k] as Float64Array).set(this.c[k] as Float64Array);
      this.c = bigger;
    }
    const i = this.n++;
    const c = this.c;
    c.time[i] = v[0]!;
    c.pfn[i] = v[1]!;
    c.type[i] = v[2]!;
    c.order[i] = v[3]!;
    c.cpu[i] = v[4]!;
    c.mt[i] = v[5]!;
    c.path[i] = v[6]!;
    c.flags[i] = v[7]!;
    c.arg0[i] = v[8]!;
    c.arg1[i] = v[9]!;
  }
  /** exactly n entries per column */
  trimmed(): EventLogColumns {
    const out = {} as Record<keyof EventLogColumns, ArrayBufferView>;
    for (const k of Object.keys(this.c) as (keyof EventLogColumns)[]) out[k] = this.c[k].slice(0, this.n);
    return out as unknown as EventLogColumns;
  }
}

/**
 * Reads a JSON event log piece by piece: feed() each piece of text in order, then finish().
 * Throws EventLogJsonError at the first thing that is wrong, naming its line and record.
 */
export class JsonLogReader {
  private state = S.Start;
  private line = 1;
  private chars = 0;
  private key = '';
  private small = '';
  private smallDepth = 0;
  private inString = false;
  private escaped = false;
  private readonly seen = new Map<string, unknown>();
  private hasRecords = false;
  private readonly cols = new Columns(1 << 12);
  private readonly rec = new Float64Array(NFIELDS);
  private field = 0;
  private num = -1; // the number being read; -1 before its first digit
  private readonly limit: number;

  /** maxRecords: a lower record limit than the app's (tests; a page that wants less) */
  constructor(opts: { maxRecords?: number } = {}) {
    this.limit = Math.min(opts.maxRecords ?? Infinity, EVENTLOG_JSON_MAX_RECORDS, MAX_RECORDS);
  }

  private fail(detail: string): never {
    throw new EventLogJsonError(`line ${this.line}: ${detail}`);
  }

  private failRecord(detail: string): never {
    throw new EventLogJsonError(`line ${this.line}, record ${this.cols.n}: ${detail}`);
  }

  private notJson(c: number, wanted: string): never {
    const what = c === 0x22 ? 'a string' : `'${String.fromCharCode(c)}'`;
    throw new EventLogJsonError(`not JSON: line ${this.line}: expected ${wanted}, found ${what}`);
  }

  /** The text, in order, in pieces of any size (a piece may end in the middle of a number). */
  feed(text: string): void {
    this.chars += text.length;
    if (this.chars > EVENTLOG_JSON_MAX_BYTES) this.fail(`the log is longer than ${EVENTLOG_JSON_MAX_BYTES} characters`);
    const n = text.length;
    for (let i = 0; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c === 0x0a) this.line++;
      switch (this.state) {
        case S.Number: {
          if (c >= 0x30 && c <= 0x39) {
            this.num = (this.num < 0 ? 0 : this.num * 10) + (c - 0x30);
            if (this.num > MAXES[this.field]!) this.badNumber();
            continue;
          }
          if (this.num < 0) {
            if (isSpace(c)) continue;
            if (c === 0x5d && this.field === 0) this.failRecord(`expected ${NFIELDS} numbers, found none`);
            this.badNumber();
          }
          this.rec[this.field] = this.num;
          this.state = S.AfterNumber;
          i--; // the character after a number is read as AfterNumber
          if (c === 0x0a) this.line--;
          continue;
        }
        case S.AfterNumber:
          if (isSpace(c)) continue;
          if (c === 0x2c) {
            if (++this.field === NFIELDS) this.failRecord(`expected ${NFIELDS} numbers, found more`);
            this.num = -1;
            this.state = S.Number;
          } else if (c === 0x5d) {
            if (this.field !== NFIELDS - 1) this.failRecord(`expected ${NFIELDS} numbers, found ${this.field + 1}`);
            if (this.cols.n >= this.limit) this.fail(`more than ${this.limit} records; the limit is ${this.limit}`);
            this.cols.push(this.rec);
            this.state = S.RecordSep;
          } else this.badNumber(c);
          continue;
        case S.RecordSep:
          if (isSpace(c)) continue;
          if (c === 0x2c) this.state = S.Record;
          else if (c === 0x5d) this.state = S.CommaOrEnd;
          else this.notJson(c, "',' or ']' after a record");
          continue;
        case S.Record:
        case S.RecordOrEnd:
          if (isSpace(c)) continue;
          if (c === 0x5b) {
            const after = this.wholeRecord(text, i);
            if (after > i) {
              i = after - 1;
              continue;
            }
            this.field = 0;
            this.num = -1;
            this.state = S.Number;
          } else if (c === 0x5d && this.state === S.RecordOrEnd) this.state = S.CommaOrEnd;
          else this.failRecord(`expected ${NFIELDS} numbers in [ ]`);
          continue;
        case S.Small:
          this.smallChar(c, text, i);
          continue;
        case S.KeyText:
          if (c === 0x22 && !this.escaped) {
            this.state = S.Colon;
            continue;
          }
          this.escaped = !this.escaped && c === 0x5c;
          if (this.key.length >= MAX_KEY) this.fail(`a member name longer than ${MAX_KEY} characters`);
          this.key += text[i];
          continue;
        default:
          if (isSpace(c)) continue;
          this.structural(c);
      }
    }
  }

  /**
   * The common case at a record's [: ten plain numbers and ], all in this piece, read in one
   * tight loop. Anything else (white space, a piece boundary, a bad value) returns `i`, and the
   * character-by-character path above reads the record and reports what is wrong.
   */
  private wholeRecord(text: string, i: number): number {
    const rec = this.rec;
    let j = i + 1;
    for (let f = 0; f < NFIELDS; f++) {
      let v = 0;
      let digits = 0;
      let c = text.charCodeAt(j);
      while (c >= 0x30 && c <= 0x39) {
        v = v * 10 + (c - 0x30);
        digits++;
        c = text.charCodeAt(++j);
      }
      if (digits === 0 || digits > 16 || v > MAXES[f]!) return i;
      rec[f] = v;
      if (c !== (f < NFIELDS - 1 ? 0x2c : 0x5d)) return i;
      j++;
    }
    if (this.cols.n >= this.limit) return i;
    this.cols.push(rec);
    this.state = S.RecordSep;
    return j;
  }

  private badNumber(c?: number): never {
    const f = EVENTLOG_FIELDS[this.field]!;
    if (c !== undefined && c !== 0x2c && c !== 0x5d && !(c >= 0x30 && c <= 0x39) && c !== 0x2e && c !== 0x65 && c !== 0x45 && c !== 0x2d)
      this.failRecord(`expected ',' or ']' after ${f}`);
    this.failRecord(`${f} must be a whole number 0..${MAX[f]}`);
  }

  private structural(c: number): void {
    switch (this.state) {
      case S.Start:
        if (c !== 0x7b) this.notJson(c, "'{' (a buddylab event log is one JSON object)");
        this.state = S.KeyOrEnd;
        return;
      case S.KeyOrEnd:
      case S.Key:
        if (c === 0x7d && this.state === S.KeyOrEnd) {
          this.state = S.Done;
          return;
        }
        if (c !== 0x22) this.notJson(c, 'a member name in double quotes');
        this.key = '';
        this.escaped = false;
        this.state = S.KeyText;
        return;
      case S.Colon:
        if (c !== 0x3a) this.notJson(c, `':' after "${this.key}"`);
        this.key = this.parseSmall(`"${this.key}"`, 'a member name') as string;
        if (this.seen.has(this.key) || (this.key === 'records' && this.hasRecords)) this.fail(`"${this.key.slice(0, 40)}" appears twice`);
        if (this.key === 'records') {
          this.checkHead(false);
          this.hasRecords = true;
          this.state = S.RecordsOpen;
        } else {
          this.small = '';
          this.smallDepth = 0;
          this.inString = false;
          this.escaped = false;
          this.state = S.Small;
        }
        return;
      case S.RecordsOpen:
        if (c !== 0x5b) this.fail('"records" must be a list');
        this.state = S.RecordOrEnd;
        return;
      case S.CommaOrEnd:
        if (c === 0x2c) this.state = S.Key;
        else if (c === 0x7d) this.state = S.Done;
        else this.notJson(c, "',' or '}'");
        return;
      case S.Done:
        this.notJson(c, 'nothing after the closing }');
    }
  }

  /** one character of a small member's value; its end is a , or } outside strings and brackets */
  private smallChar(c: number, text: string, i: number): void {
    if (this.inString) {
      if (this.escaped) this.escaped = false;
      else if (c === 0x5c) this.escaped = true;
      else if (c === 0x22) this.inString = false;
    } else if (c === 0x22) this.inString = true;
    else if (c === 0x5b || c === 0x7b) this.smallDepth++;
    else if ((c === 0x5d || c === 0x7d) && this.smallDepth > 0) this.smallDepth--;
    else if ((c === 0x2c || c === 0x7d) && this.smallDepth === 0) {
      const v = this.parseSmall(this.small, `the value of "${this.key.slice(0, 40)}"`);
      this.seen.set(this.key, v);
      this.checkHead(false);
      this.state = c === 0x2c ? S.Key : S.Done;
      return;
    }
    if (this.small.length >= MAX_SMALL_VALUE) this.fail(`the value of "${this.key.slice(0, 40)}" is longer than ${MAX_SMALL_VALUE} characters`);
    this.small += text[i];
  }

  private parseSmall(raw: string, what: string): unknown {
    try {
      return JSON.parse(raw);
    } catch (e) {
      throw new EventLogJsonError(`not JSON: line ${this.line}: ${what}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  /** the head's members, as soon as each is known (complete: all of them must be there) */
  private checkHead(complete: boolean): void {
    const s = this.seen;
    const format = s.get('format');
    if ((complete || s.has('format')) && format !== EVENTLOG_FORMAT)
      throw new EventLogJsonError(`not a buddylab event log (expected "format": "${EVENTLOG_FORMAT}")`);
    const version = s.get('version');
    if ((complete || s.has('version')) && version !== EVENTLOG_VERSION)
      throw new EventLogJsonError(`version ${String(version).slice(0, 12)}: this buddylab reads version ${EVENTLOG_VERSION}`);
    const fields = s.get('fields');
    if ((complete || s.has('fields')) && (!Array.isArray(fields) || fields.join() !== EVENTLOG_FIELDS.join()))
      throw new EventLogJsonError(`"fields" must be ${EVENTLOG_FIELDS.join(', ')}`);
    if (complete && !this.hasRecords) throw new EventLogJsonError('"records" is missing');
  }

  /** Records read so far (for progress). */
  get records(): number {
    return this.cols.n;
  }

  /** The log's label and columns, once all the text has been fed. */
  finish(): { label: string; columns: EventLogColumns } {
    if (this.state === S.Start) throw new EventLogJsonError('not JSON: the file is empty');
    if (this.state !== S.Done) this.fail('the log ends early (the text stops inside it)');
    this.checkHead(true);
    const label = this.seen.get('label');
    return { label: typeof label === 'string' ? label.slice(0, 200) : 'event log', columns: this.cols.trimmed() };
  }
}

/**
 * Parses a whole JSON event log: the same reader as the worker's, in one piece. The records are
 * then validated as a binary log is (EventLog.fromColumns: the type table, the first record).
 */
export function eventLogFromJson(text: string): { label: string; log: EventLog } {
  const r = new JsonLogReader();
  r.feed(text);
  const { label, columns } = r.finish();
  return { label, log: EventLog.fromColumns(columns) };
}
