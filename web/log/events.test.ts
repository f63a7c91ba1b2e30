import { describe, expect, it } from 'vitest';
import { EV, EVENT_TYPES, LogError, RECORD_SIZE, decodeEvents, encodeEvents, eventName } from './events';

const init = { type: EV.ZONE_INIT, pfn: 4096, order: 4, flags: 2, arg0: 16, arg1: 2 };

describe('decodeEvents', () => {
  it('reads every field of a record at its documented offset', () => {
    const buf = new ArrayBuffer(64);
    const v = new DataView(buf);
    v.setUint8(16, EV.ZONE_INIT);
    // record 1: hand-written bytes, not the encoder
    const at = 32;
    v.setUint32(at + 0, 0x89abcdef, true);
    v.setUint32(at + 4, 0x12, true); // time = 0x12_89abcdef
    v.setUint32(at + 8, 0x1000, true); // pfn
    v.setUint8(at + 16, EV.BUDDY_ADD);
    v.setUint8(at + 17, 3);
    v.setUint16(at + 18, 0x0102, true);
    v.setUint8(at + 20, 1);
    v.setUint8(at + 21, 7);
    v.setUint16(at + 22, 0x8003, true);
    v.setUint32(at + 24, 0xdeadbeef, true);
    v.setUint32(at + 28, 42, true);
    const log = decodeEvents(buf);
    expect(log.length).toBe(2);
    expect(log.get(1)).toEqual({
      time: 0x12 * 2 ** 32 + 0x89abcdef,
      pfn: 0x1000,
      type: EV.BUDDY_ADD,
      order: 3,
      cpu: 0x0102,
      mt: 1,
      path: 7,
      flags: 0x8003,
      arg0: 0xdeadbeef,
      arg1: 42,
    });
  });

  it('round-trips through the encoder', () => {
    const recs = [
      { ...init, time: 0, cpu: 0xffff, mt: 0, path: 0 },
      { time: 2 ** 52 + 1, pfn: 4100, type: EV.ACCESS, order: 0, cpu: 1, mt: 0, path: 3, flags: 0x14, arg0: 200, arg1: 0 },
    ];
    const log = decodeEvents(encodeEvents(recs));
    expect([log.get(0), log.get(1)]).toEqual(recs);
  });

  it('accepts a view into a larger buffer', () => {
    const bytes = new Uint8Array(encodeEvents([init]));
    const big = new Uint8Array(bytes.length + 8);
    big.set(bytes, 8);
    expect(decodeEvents(big.subarray(8)).length).toBe(1);
  });

  it('decodes the same from a view at any byte offset (typed views or a DataView), errors too', () => {
    const recs = [
      { ...init, time: 0, cpu: 0xffff, mt: 0, path: 0 },
      { time: 2 ** 52 + 7, pfn: 2 ** 40 + 3, type: EV.PCP_ADD, order: 9, cpu: 257, mt: 3, path: 5, flags: 0xfffe, arg0: 0xffffffff, arg1: 12345 },
      { time: 3, pfn: 4096, type: EV.TRACE_UNKNOWN, order: 1, cpu: 1, mt: 1, path: 0, flags: 1, arg0: 1, arg1: 0x80000000 },
    ];
    const bytes = new Uint8Array(encodeEvents(recs));
    const decodeAt = (src: Uint8Array, offset: number) => {
      const big = new Uint8Array(src.length + offset);
      big.set(src, offset);
      return decodeEvents(big.subarray(offset));
    };
    const want = recs.map((_, i) => decodeEvents(bytes).get(i));
    expect(want).toEqual(recs);
    for (const offset of [1, 2, 3, 4, 8]) expect(recs.map((_, i) => decodeAt(bytes, offset).get(i))).toEqual(want);
    const bad = bytes.slice();
    new DataView(bad.buffer).setUint32(32 + 4, 0x200000, true); // time high word
    for (const offset of [0, 1, 4]) expect(() => decodeAt(bad, offset)).toThrow('record 1: time = 2097152 * 2^32 + 7 does not fit in 53 bits');
  });

  it('rejects an empty log', () => {
    expect(() => decodeEvents(new ArrayBuffer(0))).toThrow(/empty/);
  });

  it('rejects a length that is not a multiple of 32, naming the cut record', () => {
    const buf = encodeEvents([init, init]).slice(0, 2 * RECORD_SIZE - 5);
    expect(() => decodeEvents(buf)).toThrow(/record 1: .*59 bytes, not a multiple of 32/);
  });

  it('rejects an unknown type, naming the record', () => {
    const buf = encodeEvents([init, { type: EV.FREE }, { type: 99 }]);
    let err: unknown;
    try {
      decodeEvents(buf);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(LogError);
    expect((err as LogError).index).toBe(2);
    expect((err as Error).message).toBe('record 2: unknown event type 99');
  });

  it('rejects a first record that is not ZONE_INIT', () => {
    expect(() => decodeEvents(encodeEvents([{ type: EV.BUDDY_ADD }]))).toThrow(
      'record 0: the first record must be ZONE_INIT (or TRACE_ZONE), found BUDDY_ADD',
    );
  });

  it('rejects a u64 that does not fit in a double exactly', () => {
    const buf = encodeEvents([init, { type: EV.MARK }]);
    new DataView(buf).setUint32(32 + 12, 0xffffffff, true); // pfn high word
    expect(() => decodeEvents(buf)).toThrow(/record 1: pfn .* 53 bits/);
  });

  it('has a unique id and name for every documented type', () => {
    // the page allocator's 1..22, then each layer's own range (slab 30..38, skip-merge and
    // compaction 40..44), in order, each id and name once
    const ids = EVENT_TYPES.map((t) => t.id);
    expect(ids.filter((id) => id < 30)).toEqual(Array.from({ length: 22 }, (_, i) => i + 1));
    expect(ids.filter((id) => id >= 30 && id < 40)).toEqual(Array.from({ length: 9 }, (_, i) => i + 30));
    expect(ids.filter((id) => id >= 40 && id <= 49)).toEqual([40, 41, 42, 43, 44]);
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(EVENT_TYPES.map((t) => t.name)).size).toBe(ids.length);
    expect(eventName(EV.PCP_DRAIN)).toBe('PCP_DRAIN');
    expect(EVENT_TYPES.filter((t) => t.cls === 'state' && t.id < 30).map((t) => t.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 22]);
  });
});
