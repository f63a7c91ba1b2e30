// JSON event log loading for `make bench` (called by bench/run.mjs): a log at the JSON
// loader's record limit (2^21 records, EVENTLOG_JSON_MAX_RECORDS) read by the app's
// streaming reader (web/log/eventlog-json.ts, JsonLogReader fed 1 MiB pieces, as the import
// worker feeds it), with the engine's JSON.parse of the same text beside it as the yardstick.
// Each figure is the process's CPU time (user + sys) over REPS runs, because the development
// machine is shared and wall time there measures the neighbours; the wall time is in the note.
// The app's TypeScript is loaded through Vite's module runner, so this measures the code the
// app ships, not a copy.
import { runnerImport } from 'vite';

const REPS = 3;
const PIECE = 1 << 20;

const load = async (id) => (await runnerImport(id, { configFile: false, logLevel: 'silent' })).module;

/** Runs fn once; its CPU and wall time in ms. */
function timed(fn) {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const out = fn();
  const wall = performance.now() - t0;
  const c = process.cpuUsage(c0);
  return { out, cpu: (c.user + c.system) / 1000, wall };
}

export async function jsonLogFigures(results, spread) {
  const { JsonLogReader, EVENTLOG_JSON_MAX_RECORDS, EVENTLOG_FORMAT, EVENTLOG_VERSION, EVENTLOG_FIELDS } =
    await load('./web/log/eventlog-json.ts');
  const { EV } = await load('./web/log/events.ts');
  const n = EVENTLOG_JSON_MAX_RECORDS;
  const rows = [`[0,0,${EV.ZONE_INIT},4,65535,0,0,4,16,1]`];
  for (let i = 1; i < n; i++) rows.push(`[${i * 37},${(i * 7919) % 1048576},${EV.BUDDY_ADD},${i % 11},${i % 4},1,0,0,${i % 1000},0]`);
  const head = { format: EVENTLOG_FORMAT, version: EVENTLOG_VERSION, label: 'bench', fields: EVENTLOG_FIELDS };
  const text = `${JSON.stringify(head).slice(0, -1)},"records":[\n${rows.join(',\n')}\n]}\n`;
  rows.length = 0;
  const mb = (text.length / 2 ** 20).toFixed(0);

  const parse = [];
  const reader = [];
  for (let k = 0; k < REPS; k++) {
    const p = timed(() => JSON.parse(text).records.length);
    if (p.out !== n) throw new Error(`jsonlog: JSON.parse read ${p.out} records of ${n}`);
    parse.push(p);
    const r = timed(() => {
      const rd = new JsonLogReader();
      for (let at = 0; at < text.length; at += PIECE) rd.feed(text.slice(at, at + PIECE));
      return rd.finish().columns.type.length;
    });
    // the reader's result must be the log, or its time means nothing
    if (r.out !== n) throw new Error(`jsonlog: JsonLogReader read ${r.out} records of ${n}`);
    reader.push(r);
  }
  const wall = (xs) => xs.map((x) => Math.round(x.wall)).join(', ');
  results.figures.push({
    name: `JSON event log, ${n} records (${mb} MiB): JsonLogReader`,
    unit: 'ms',
    ...spread(reader.map((x) => Math.round(x.cpu))),
    note: `CPU time, fed ${PIECE >> 20} MiB pieces as the import worker feeds them; wall ms: ${wall(reader)}`,
  });
  results.figures.push({
    name: `JSON event log, ${n} records (${mb} MiB): JSON.parse`,
    unit: 'ms',
    ...spread(parse.map((x) => Math.round(x.cpu))),
    note: `CPU time of the engine's own parser on the same text, the yardstick; wall ms: ${wall(parse)}`,
  });
}
