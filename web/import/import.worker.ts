// The import worker: reads a dropped trace file in chunks (File.slice), feeds each chunk to the
// C parser (the same code as `blab import`, compiled to WebAssembly), and reports progress after
// every chunk. The page never touches the file's bytes, so a 40 MB trace never freezes it.
// Event logs the app wrote (binary or JSON) are read the same way, decoded slice by slice into
// the columns the page replays (a 2^24-record log is never in memory twice).
// Cancelling terminates this worker: the page starts a fresh one for the next file.
import { wasmBase as wasmBaseOf } from '../engine/wasm-base';
import { BinaryLogReader, columnBuffers, type EventLogColumns } from '../log/events';
import { JsonLogReader } from '../log/eventlog-json';
import { IMPORT_LIMITS, checkLimit } from '../scenario/limits';
import type { ImportReply, ImportRequest } from './import-protocol';
import { ChunkReader } from './chunk-reader';
import { TraceImport, type TraceModule } from './trace-core';
import { readZoneinfo, type ZoneinfoModule } from './zoneinfo-core';

declare function importScripts(...urls: string[]): void;
declare const createBlab: (options: Record<string, unknown>) => Promise<TraceModule & ZoneinfoModule>;

const scope = self as unknown as {
  onmessage: ((e: MessageEvent<ImportRequest>) => void) | null;
  postMessage(msg: ImportReply, transfer?: Transferable[]): void;
};

const wasmBase = wasmBaseOf(self.location.href);
let core: Promise<TraceModule & ZoneinfoModule> | null = null;

function loadCore(): Promise<TraceModule & ZoneinfoModule> {
  importScripts(`${wasmBase}blab.js`);
  return createBlab({ locateFile: (file: string) => `${wasmBase}${file}`, mainScriptUrlOrBlob: `${wasmBase}blab.js` });
}

/** perf.data starts with this magic: the most likely binary file someone drops here. */
const PERF_DATA_MAGIC = 'PERFILE2';

function binaryReason(head: Uint8Array): string | null {
  const magic = String.fromCharCode(...head.subarray(0, 8));
  if (magic === PERF_DATA_MAGIC) {
    return 'this is a perf.data file (binary): run `perf script -i perf.data > trace.txt` and import trace.txt';
  }
  const nul = head.indexOf(0);
  if (nul >= 0) return `this is not a text file (a NUL byte at offset ${nul}): import the text of \`perf script\` or of tracefs \`trace\``;
  return null;
}

async function importTrace(file: Blob): Promise<void> {
  const started = performance.now();
  // the page checks first; this is the worker's own guard
  checkLimit('trace file size (bytes)', file.size, 'the file');
  core ??= loadCore();
  const m = await core;
  const t = new TraceImport(m, file.size);
  // the parse alone, for the rate the page reports (the core's start-up is not the parser's)
  const parseStart = performance.now();
  const chunks = new ChunkReader(file, IMPORT_LIMITS.chunkBytes);
  try {
    const why = binaryReason(new Uint8Array(await file.slice(0, 4096).arrayBuffer()));
    if (why) throw new Error(why);
    let at = 0;
    for (let chunk = await chunks.next(); chunk; chunk = await chunks.next()) {
      at += chunk.length;
      const more = t.feed(chunk);
      scope.postMessage({ kind: 'progress', bytes: at, total: file.size });
      if (!more) break;
    }
    // the replay is decoded here, straight from the core's heap: the page gets typed arrays it
    // only has to replay
    const { result, columns, replayError } = t.finishDecoded();
    const parseMs = t.finishedAt - parseStart;
    const transfer = columns ? columnBuffers(columns) : [];
    scope.postMessage(
      { kind: 'done', result, bytes: at, elapsedMs: performance.now() - started, parseMs, ...(columns ? { columns } : {}), ...(replayError ? { replayError } : {}) },
      transfer,
    );
  } finally {
    chunks.cancel();
    t.dispose();
  }
}

/** An event log read in slices: only its decoded columns are ever whole in memory. */
async function loadLog(file: Blob, format: 'binary' | 'json'): Promise<void> {
  const started = performance.now();
  const bin = format === 'binary' ? new BinaryLogReader(file.size) : null;
  const json = format === 'json' ? new JsonLogReader() : null;
  const text = new TextDecoder('utf-8', { fatal: true });
  const chunks = new ChunkReader(file, IMPORT_LIMITS.chunkBytes);
  let at = 0;
  for (let chunk = await chunks.next(); chunk; chunk = await chunks.next()) {
    at += chunk.length;
    if (bin) bin.feed(chunk);
    else json!.feed(decodeUtf8(text, chunk, at >= file.size));
    scope.postMessage({ kind: 'progress', bytes: at, total: file.size });
  }
  let label: string | undefined;
  let columns: EventLogColumns;
  if (bin) columns = bin.finish().columns();
  else ({ label, columns } = json!.finish());
  const transfer = columnBuffers(columns);
  scope.postMessage({ kind: 'log-done', ...(label !== undefined ? { label } : {}), columns, bytes: at, elapsedMs: performance.now() - started }, transfer);
}

function decodeUtf8(d: TextDecoder, chunk: Uint8Array, last: boolean): string {
  try {
    return d.decode(chunk, { stream: !last });
  } catch {
    throw new Error('this is not UTF-8 text: a JSON event log is text (was a binary log picked as JSON?)');
  }
}

scope.onmessage = (e) => {
  const req = e.data;
  void (async () => {
    try {
      if (req.kind === 'trace') await importTrace(req.file);
      else if (req.kind === 'log') await loadLog(req.file, req.format);
      else if (req.kind === 'zoneinfo') {
        core ??= loadCore();
        scope.postMessage({ kind: 'zoneinfo', report: readZoneinfo(await core, req.text, req.nodeCpus) });
      } else throw new Error(`unknown request ${String((req as { kind?: unknown }).kind)}`);
    } catch (err) {
      // A trap in the core leaves the module unusable: drop it so the next trace gets a fresh
      // one (an event log never touches the core)
      if (req.kind === 'trace') core = null;
      scope.postMessage({ kind: 'failed', error: err instanceof Error ? err.message : String(err) });
    }
  })();
};
