import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { prng } from '../testing/prng';
import { SnapshotError, parseBuddyinfo, parseZoneinfo } from './procfs-parse';

const buddyinfo = readFileSync('web/testing/procfs/buddyinfo.txt', 'utf8');
const zoneinfo = readFileSync('web/testing/procfs/zoneinfo.txt', 'utf8');

describe('/proc/buddyinfo and /proc/zoneinfo parsers', () => {
  it('read this machine\'s files (kernel 6.18, 2 CPUs)', () => {
    const b = parseBuddyinfo(buddyinfo);
    expect(b.map((z) => z.zone)).toEqual(['DMA', 'DMA32', 'Normal']);
    // each column as the file has it, checked against a plain split of the text
    for (const [i, line] of buddyinfo.trim().split('\n').entries()) {
      expect(b[i]!.nrFree).toEqual(line.trim().split(/\s+/).slice(4).map(Number));
    }
    const z = parseZoneinfo(zoneinfo);
    expect(z.map((x) => x.zone)).toEqual(['DMA', 'DMA32', 'Normal', 'Movable', 'Device']);
    const dma32 = z[1]!;
    const grab = (k: string, from: number) => Number(new RegExp(`^\\s+${k}\\s+(\\d+)`, 'm').exec(zoneinfo.slice(from))![1]);
    const at = zoneinfo.indexOf('zone    DMA32');
    expect([dma32.spanned, dma32.present, dma32.managed]).toEqual([grab('spanned', at), grab('present', at), grab('managed', at)]);
    expect(dma32.startPfn).toBe(Number(/start_pfn:\s+(\d+)/.exec(zoneinfo.slice(at))![1]));
    expect(dma32.pcp.map((p) => p.cpu)).toEqual([0, 1]);
    expect(dma32.pcp[0]!.highMax).toBeGreaterThan(0);
    expect(z[3]!.pcp).toEqual([]);
  });

  it('reads the zoneinfo the core prints (blab replay `zoneinfo`)', () => {
    const out = execFileSync('build/native/blab', ['replay', '-'], { input: 'zone pages=4096 cpus=3 preset=v4.16 batch=7 high=42\nzoneinfo\n', encoding: 'utf8' });
    const [z] = parseZoneinfo(out);
    expect(z!.spanned).toBe(4096);
    expect(z!.pcp).toEqual([0, 1, 2].map((cpu) => ({ cpu, count: 0, high: 42, batch: 7 })));
  });

  it.each([
    ['buddyinfo', 'hello\n', 'buddyinfo line 1: expected "Node N, zone NAME" followed by nr_free per order'],
    ['buddyinfo', 'Node 0, zone Normal 1 2 x\n', 'buddyinfo line 1: order 2: expected a whole number, found "x"'],
    ['buddyinfo', 'Node 0, zone Normal 1 2\nNode 0, zone DMA 1 2 3\n', 'buddyinfo line 2: 3 orders, but line 1 has 2'],
    ['buddyinfo', 'Node 0, zone Normal 1\nNode 0, zone Normal 1\n', 'buddyinfo line 2: node 0 zone Normal appears twice'],
    ['buddyinfo', `Node 0, zone Normal ${'1 '.repeat(17)}\n`, 'buddyinfo line 1: 17 orders; at most 16 (0..15)'],
    ['buddyinfo', 'Node 0, zone Normal 99999999999999999\n', 'expected a whole number'],
    ['buddyinfo', 'Node 0, zone Normal 0 0 0 0 0 0 0 0 0 0 9007199254740\n', 'order 10: 9007199254740 blocks are more than 2^52 pages'],
    ['buddyinfo', '\n\n', 'buddyinfo: no "Node N, zone NAME" line'],
    ['buddyinfo', 'Node 0, zone Normal 1\0', 'buddyinfo line 1: a NUL byte'],
    ['zoneinfo', 'Node 0, zone Normal\n  pages free 3\nfoo\n', 'zoneinfo line 3: expected "Node N, zone NAME" or an indented field'],
    ['zoneinfo', 'Node 0, zone Normal\n  spanned 10\n  present 10\n  managed 10\n', 'zoneinfo line 1: zone Normal: no "start_pfn:" line'],
    ['zoneinfo', 'Node 0, zone Normal\n  spanned 10\n  present 11\n  managed 10\n  start_pfn: 0\n', 'expected managed <= present <= spanned'],
    ['zoneinfo', 'Node 0, zone Normal\n  pagesets\n    cpu: 0\n      count: 1\n      high: 2\n  start_pfn: 0\n', 'zoneinfo line 3: cpu 0: no batch: line in its pageset'],
    ['zoneinfo', 'Node 0, zone Normal\n  what is this?\n', 'zoneinfo line 2: "what is this?" is not a /proc/zoneinfo line'],
    ['zoneinfo', 'Node 0, zone Normal 1 2 3\n', 'is this /proc/buddyinfo?'],
    ['zoneinfo', '  spanned 1\n', 'zoneinfo line 1: a field before the first'],
  ])('%s: %j is refused with its line', (file, text, msg) => {
    const parse = file === 'buddyinfo' ? parseBuddyinfo : parseZoneinfo;
    expect(() => parse(text)).toThrow(SnapshotError);
    expect(() => parse(text)).toThrow(msg);
  });

  it('reads text that starts with a UTF-8 byte order mark', () => {
    expect(parseBuddyinfo(`\uFEFF${buddyinfo}`)).toEqual(parseBuddyinfo(buddyinfo));
    expect(parseZoneinfo(`\uFEFF${zoneinfo}`)).toEqual(parseZoneinfo(zoneinfo));
  });

  it('refuses more than the size limit before reading it', () => {
    expect(() => parseBuddyinfo('x'.repeat((1 << 20) + 1))).toThrow('buddyinfo: 1,048,577 characters; the limit is 1,048,576');
  });

  it('throws nothing but SnapshotError on mutated files, and what it accepts is within bounds (seeded)', () => {
    const r = prng(8);
    for (let i = 0; i < 2000; i++) {
      for (const [parse, base] of [
        [parseBuddyinfo, buddyinfo],
        [parseZoneinfo, zoneinfo],
      ] as const) {
        let t = base;
        for (let k = r.int(5); k >= 0; k--) t = r.mutate(t);
        try {
          const zones = parse(t);
          for (const z of zones) {
            if ('nrFree' in z) expect(z.nrFree.every((f) => Number.isSafeInteger(f) && f >= 0)).toBe(true);
            else expect(z.managed <= z.present && z.present <= z.spanned).toBe(true);
          }
        } catch (e) {
          if (!(e instanceof SnapshotError)) throw new Error(`seed 8 case ${i}: ${String(e)}`);
        }
      }
    }
  });
});
