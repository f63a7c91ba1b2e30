// The event-log readers that take a file in pieces (the import worker's): any split gives the
// same log as the whole text or buffer, and bad input fails with the line and record.
import { describe, expect, it } from 'vitest';
import { BinaryLogReader, EV, EventLog, LogError, RECORD_SIZE, decodeEvents, decodeEventsInSlices, encodeEvents, type EventLogColumns } from './events';
import { EVENTLOG_FIELDS, EventLogJsonError, JsonLogReader, eventLogFromJson, eventLogToJson } from './eventlog-json';

const recs = [
  { time: 0, pfn: 0, type: EV.ZONE_INIT, order: 4, cpu: 0xffff, flags: 0x4, arg0: 16, arg1: 1 },
  { time: 2 ** 40, pfn: 2 ** 33, type: EV.PAGEBLOCK_MT, order: 4, cpu: 0xffff, mt: 1 },
  { time: 7, pfn: 3, type: EV.BUDDY_ADD, order: 2, cpu: 3, mt: 0, path: 2, flags: 0xffff, arg0: 0xffffffff, arg1: 5 },
];
const bin = encodeEvents(recs);
const whole = decodeEvents(bin);
const cols = (l: EventLog) => Object.fromEntries(Object.entries(l.columns()).map(([k, v]) => [k, Array.from(v as ArrayLike<number>)]));
const colsOf = (c: EventLogColumns) => cols(EventLog.fromColumns(c));

function jsonInPieces(text: string, size: number, opts = {}): { label: string; columns: EventLogColumns } {
  const r = new JsonLogReader(opts);
  for (let at = 0; at < text.length; at += size) r.feed(text.slice(at, at + size));
  return r.finish();
}

const HEAD = `"format":"buddylab-event-log","version":1,"fields":${JSON.stringify(EVENTLOG_FIELDS)}`;

describe('JsonLogReader', () => {
  const text = eventLogToJson(whole, 'run "1" \\ é');

  it('gives the same log whatever the pieces (every size from 1 to 64 characters)', () => {
    for (let size = 1; size <= 64; size++) {
      const { label, columns } = jsonInPieces(text, size);
      expect(label).toBe('run "1" \\ é');
      expect(colsOf(columns)).toEqual(cols(whole));
    }
  });

  it('reads any JSON layout: white space anywhere, members in any order, unknown members left out', () => {
    const odd = `\n {\r\n "records" : [ [ 0 ,0,${EV.ZONE_INIT},4,65535,0,0,4,16,1 ]\t,\n[1,2,${EV.BUDDY_ADD},0,0,0,0,0,0,0]] , "note": {"a":[1,"]}"]},\n ${HEAD}, "label":"x" }\n\n`;
    const { label, log } = eventLogFromJson(odd);
    expect(label).toBe('x');
    expect(log.length).toBe(2);
    expect(log.pfn[1]).toBe(2);
  });

  it.each([
    ['', /the file is empty/],
    ['[1]', /not JSON: line 1: expected '\{'/],
    [`{${HEAD},"records":[[0,0,1,0,0,0,0,0,0,-1]]}`, /line 1, record 0: arg1 must be a whole number/],
    [`{${HEAD},"records":[[0,0,1,0,0,0,0,0,0,1.5]]}`, /record 0: arg1 must be a whole number/],
    [`{${HEAD},"records":[[0,0,1,0,0,0,0,0,0,"1"]]}`, /record 0: arg1 must be a whole number/],
    [`{${HEAD},"records":[[0,0,1,0,0,0,0,0,0,2,3]]}`, /record 0: expected 10 numbers, found more/],
    [`{${HEAD},"records":[[0,0,1,0,0,0,0,0,0,1],\n\n[]]}`, /line 3, record 1: expected 10 numbers, found none/],
    [`{${HEAD},"records":[[0,0,1,0,0,0,0,0,0,1]]} x`, /nothing after the closing/],
    [`{${HEAD},"records":[[0,0,1,0,0,0,0,0,0,1]`, /ends early/],
    [`{${HEAD},"records":[],"records":[]}`, /"records" appears twice/],
    [`{${HEAD},"records":{}}`, /"records" must be a list/],
    [`{${HEAD},"label":${JSON.stringify('x'.repeat(70_000))},"records":[]}`, /longer than 65536 characters/],
    [`{"format":"buddylab-event-log","version":1,"records":[]}`, /"fields" must be/],
    [`{${HEAD}}`, /"records" is missing/],
    [`{${HEAD},"records":[[0,0,1,0,0,0,0,0,0,99999999999]]}`, /arg1 must be a whole number 0..4294967295/],
  ])('refuses %#', (t, why) => {
    const e = (() => {
      try {
        jsonInPieces(t, 5);
      } catch (err) {
        return err;
      }
      return undefined;
    })();
    expect(e).toBeInstanceOf(EventLogJsonError);
    expect((e as Error).message).toMatch(why);
  });

  it('stops at its record limit with the count', () => {
    expect(() => jsonInPieces(text, 9, { maxRecords: 2 })).toThrow(/more than 2 records/);
  });

  it('leaves the type table and the first record to EventLog.fromColumns, as for a binary log', () => {
    expect(() => eventLogFromJson(`{${HEAD},"records":[[0,0,99,0,0,0,0,0,0,0]]}`)).toThrow(LogError);
    expect(() => eventLogFromJson(`{${HEAD},"records":[]}`)).toThrow(/first record must be ZONE_INIT/);
  });

  it('never throws anything but its own errors on mangled logs, and always ends', () => {
    let seed = 12345;
    const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) >>> 0) % n);
    const alphabet = '[]{},:"0123456789 \n-.eabc\\';
    for (let k = 0; k < 2000; k++) {
      const chars = text.split('');
      for (let m = 1 + rnd(4); m > 0; m--) chars[rnd(chars.length)] = alphabet[rnd(alphabet.length)]!;
      try {
        eventLogFromJson(chars.join(''));
      } catch (e) {
        expect(e instanceof EventLogJsonError || e instanceof LogError).toBe(true);
      }
    }
  });
});

describe('BinaryLogReader', () => {
  it('gives decodeEvents() result whatever the chunk size, records cut across chunks included', () => {
    const bytes = new Uint8Array(bin);
    for (const size of [1, 5, 31, 32, 33, 64, 95, bytes.length]) {
      const r = new BinaryLogReader(bytes.length);
      for (let at = 0; at < bytes.length; at += size) r.feed(bytes.slice(at, at + size));
      expect(cols(r.finish())).toEqual(cols(whole));
    }
  });

  it('checks the size before reading, and a file that ends early or grows', () => {
    expect(() => new BinaryLogReader(0)).toThrow(/empty/);
    expect(() => new BinaryLogReader(RECORD_SIZE * 2 + 3)).toThrow(/record 2 is cut short/);
    expect(() => new BinaryLogReader(RECORD_SIZE * ((1 << 24) + 1))).toThrow(/limit is 16777216/);
    const r = new BinaryLogReader(bin.byteLength);
    r.feed(new Uint8Array(bin).slice(0, 40));
    expect(() => r.finish()).toThrow(/ended after 40 of 96 bytes/);
    expect(() => r.feed(new Uint8Array(100))).toThrow(/grew/);
  });

  it('names the record of a bad type even when it straddles two chunks', () => {
    const bad = new Uint8Array(bin.slice(0));
    bad[RECORD_SIZE * 2 + 16] = 99; // record 2's type
    const r = new BinaryLogReader(bad.length);
    expect(() => {
      r.feed(bad.slice(0, RECORD_SIZE * 2 + 10));
      r.feed(bad.slice(RECORD_SIZE * 2 + 10));
    }).toThrow(/record 2: unknown event type 99/);
  });
});

describe('decodeEventsInSlices', () => {
  // a log of many slices: 10,000 records, the smallest slice 1024 records when each slice's time
  // budget is 0 ms
  const many = encodeEvents([recs[0]!, ...Array.from({ length: 9999 }, (_, i) => ({ time: i + 1, pfn: i, type: EV.BUDDY_ADD, order: i % 11, cpu: i % 7, arg0: i * 3 }))]);

  it("gives decodeEvents()'s log, whatever the slices", async () => {
    for (const sliceMs of [0, 30]) expect(cols(await decodeEventsInSlices(many, sliceMs))).toEqual(cols(decodeEvents(many)));
    expect(cols(await decodeEventsInSlices(new Uint8Array(bin)))).toEqual(cols(whole));
  });

  it("fails as decodeEvents() does, naming the record, in a later slice too", async () => {
    const bad = new Uint8Array(many.slice(0));
    bad[RECORD_SIZE * 5000 + 16] = 99; // record 5000's type
    await expect(decodeEventsInSlices(bad, 0)).rejects.toThrow(/record 5000: unknown event type 99/);
    await expect(decodeEventsInSlices(new ArrayBuffer(RECORD_SIZE + 1))).rejects.toThrow(/record 1 is cut short/);
    await expect(decodeEventsInSlices(new ArrayBuffer(0))).rejects.toBeInstanceOf(LogError);
  });
});
