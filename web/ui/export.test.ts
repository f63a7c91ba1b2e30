import { describe, expect, it } from 'vitest';
import { decodeEvents, encodeEvents, EV } from '../log/events';
import { csvLines, toCsv } from './csv';
import { EventLogJsonError, eventLogFromJson, eventLogToJson } from '../log/eventlog-json';

describe('CSV', () => {
  it('quotes what needs quoting', () => {
    expect(csvLines([['a', 'b,c'], [1, 'say "hi"']])).toBe('a,"b,c"\r\n1,"say ""hi"""\r\n');
  });

  it('writes numbers as plain numbers, empty cells for no value, and names every parameter above the header', () => {
    const text = toCsv({
      title: 'page_fault1, two presets',
      params: [['workload', 'page_fault1'], ['tasks', 4], ['pcp batch', "the preset's"]],
      commands: ['blab sim --workload page_fault1 --cpus 4'],
      columns: ['measure', 'v4.16', 'v4.17', 'v4.17 vs v4.16', 'unit'],
      rows: [['score', 17889561, 18822000.5, 5.2134, '%'], ['misses', null, 3, Infinity, '%']],
    });
    const lines = text.split('\r\n');
    expect(lines.slice(0, 5)).toEqual([
      '# page_fault1, two presets',
      '# workload: page_fault1',
      '# tasks: 4',
      "# pcp batch: the preset's",
      '# command: blab sim --workload page_fault1 --cpus 4',
    ]);
    expect(lines[5]).toBe('measure,v4.16,v4.17,v4.17 vs v4.16,unit');
    expect(lines[6]).toBe('score,17889561,18822000.5,5.2134,%');
    expect(lines[7]).toBe('misses,,3,,%');
    // no thousands separators and no quoted numbers anywhere
    expect(text).not.toMatch(/"\d|\d,\d{3}\b(?!\.)/);
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
    const { label, log: again } = eventLogFromJson(eventLogToJson(log, 'run 1'));
    expect(label).toBe('run 1');
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
