import { describe, expect, it } from 'vitest';
import { decodeEvents, encodeEvents, EV } from '../log/events';
import { toCsv } from './csv';
import { EventLogJsonError, eventLogFromJson, eventLogToJson } from '../log/eventlog-json';

describe('CSV', () => {
  it('quotes what needs quoting', () => {
    expect(toCsv([['a', 'b,c'], [1, 'say "hi"']])).toBe('a,"b,c"\r\n1,"say ""hi"""\r\n');
  });
});

describe('JSON event log', () => {
  const log = decodeEvents(
    encodeEvents([
      { time: 0, pfn: 0, type: EV.ZONE_INIT, order: 4, cpu: 0xffff, flags: 0x4, arg0: 16, arg1: 1 },
      { time: 2 ** 40, pfn: 2 ** 33, type: EV.PAGEBLOCK_MT, order: 4, cpu: 0xffff, mt: 1 },
    ]),
  );

  it('round-trips the records byte for byte', () => {
    const { label, buffer } = eventLogFromJson(eventLogToJson(log, 'run 1'));
    expect(label).toBe('run 1');
    const again = decodeEvents(buffer);
    expect(Array.from(again.time)).toEqual(Array.from(log.time));
    expect(Array.from(again.pfn)).toEqual(Array.from(log.pfn));
    expect(Array.from(again.arg0)).toEqual(Array.from(log.arg0));
  });

  it.each([
    ['nope', /not JSON/],
    ['{"format":"x"}', /not a buddylab event log/],
    ['{"format":"buddylab-event-log","version":2}', /version 2/],
    ['{"format":"buddylab-event-log","version":1,"fields":["time"],"records":[]}', /"fields" must be/],
    [JSON.stringify({ format: 'buddylab-event-log', version: 1, fields: ['time', 'pfn', 'type', 'order', 'cpu', 'mt', 'path', 'flags', 'arg0', 'arg1'], records: [[0, 0, 300, 0, 0, 0, 0, 0, 0, 0]] }), /record 0: type must be/],
    [JSON.stringify({ format: 'buddylab-event-log', version: 1, fields: ['time', 'pfn', 'type', 'order', 'cpu', 'mt', 'path', 'flags', 'arg0', 'arg1'], records: [[0, 0]] }), /record 0: expected 10 numbers/],
  ])('refuses %s', (text, why) => {
    expect(() => eventLogFromJson(text)).toThrow(why);
  });

  it('is an EventLogJsonError for bad shapes', () => {
    expect(() => eventLogFromJson('{}')).toThrow(EventLogJsonError);
  });
});
