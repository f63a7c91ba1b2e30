// A file's bytes in pieces, for the import worker. A File.slice().arrayBuffer() per megabyte
// hands back a fresh ArrayBuffer each time, and faulting its pages in cost the worker more CPU
// than the parse of a quarter of the file (docs/performance.md, "Trace import speed in the
// browser"); a BYOB reader of the file's stream fills two buffers in turn instead, the next
// piece read while the caller parses this one. Where a browser's Blob stream has no BYOB
// reader, slices it is.

export class ChunkReader {
  private readonly reader: ReadableStreamBYOBReader | null;
  private pending: Promise<Uint8Array | null>;
  /** the buffer the caller holds (the last piece), handed to the next read on the next call */
  private lent: ArrayBuffer | null = null;
  private spare: ArrayBuffer | null;
  private at = 0;

  constructor(
    private readonly file: Blob,
    private readonly chunkBytes: number,
  ) {
    this.reader = byobReader(file);
    this.spare = this.reader ? new ArrayBuffer(chunkBytes) : null;
    this.pending = this.read(new ArrayBuffer(chunkBytes));
  }

  /** The next piece (at most chunkBytes, never empty), or null at the end of the file. The
   * piece is valid until the next call: its buffer is read into again. */
  async next(): Promise<Uint8Array | null> {
    if (this.lent) this.spare = this.lent;
    this.lent = null;
    const piece = await this.pending;
    if (!piece) return null;
    this.at += piece.length;
    this.pending = this.read(this.spare);
    this.spare = null;
    this.lent = piece.buffer as ArrayBuffer;
    return piece;
  }

  /** Stops reading (the caller needs no more of the file). */
  cancel(): void {
    void this.reader?.cancel().catch(() => {});
    this.pending = Promise.resolve(null);
  }

  private async read(into: ArrayBuffer | null): Promise<Uint8Array | null> {
    if (!this.reader) {
      const from = this.at;
      if (from >= this.file.size) return null;
      return new Uint8Array(await this.file.slice(from, from + this.chunkBytes).arrayBuffer());
    }
    const r = await this.reader.read(new Uint8Array(into!));
    if (r.done || !r.value) return null;
    // a byte stream fills at least one byte of a read it does not end; an empty one is read again
    return r.value.length > 0 ? r.value : this.read(r.value.buffer as ArrayBuffer);
  }
}

function byobReader(file: Blob): ReadableStreamBYOBReader | null {
  try {
    return file.stream().getReader({ mode: 'byob' });
  } catch {
    return null;
  }
}
