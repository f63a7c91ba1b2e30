// The import worker's reader: every byte once and in order, whatever the file's size against
// the piece size, in pieces of at most that size; and the same
// through slices where a stream has no BYOB reader.
import { describe, expect, it } from 'vitest';
import { ChunkReader } from './chunk-reader';
import { prng } from '../testing/prng';

async function readAll(file: Blob, chunk: number) {
  const r = new ChunkReader(file, chunk);
  const parts: Uint8Array[] = [];
  for (let p = await r.next(); p; p = await r.next()) {
    expect(p.length).toBeGreaterThan(0);
    expect(p.length).toBeLessThanOrEqual(chunk);
    parts.push(p.slice());
  }
  const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) all.set(p, (at += p.length) - p.length);
  return all;
}

function bytesOf(n: number, seed: number): Uint8Array<ArrayBuffer> {
  const { int } = prng(seed);
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = int(256);
  return out;
}

describe('ChunkReader', () => {
  for (const [size, chunk] of [[0, 16], [1, 16], [16, 16], [17, 16], [100_000, 4096], [3 << 20, 1 << 20]] as const) {
    it(`reads ${size} bytes in pieces of up to ${chunk}`, async () => {
      const want = bytesOf(size, size + 1);
      const all = await readAll(new Blob([want]), chunk);
      expect(Buffer.from(all).equals(Buffer.from(want))).toBe(true);
    });
  }

  it('reads slices when the stream has no BYOB reader', async () => {
    const want = bytesOf(10_000, 7);
    const blob = new Blob([want]);
    const noByob = {
      size: blob.size,
      slice: blob.slice.bind(blob),
      stream: () => ({
        getReader: () => {
          throw new TypeError('no BYOB reader');
        },
      }),
    } as unknown as Blob;
    const all = await readAll(noByob, 999);
    expect(Buffer.from(all).equals(Buffer.from(want))).toBe(true);
  });

  it('stops reading when cancelled', async () => {
    const r = new ChunkReader(new Blob([bytesOf(5000, 3)]), 1000);
    expect((await r.next())?.length).toBeGreaterThan(0);
    r.cancel();
    expect(await r.next()).toBeNull();
  });
});
