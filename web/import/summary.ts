// Reads the summary the C importer prints (`blab import`, docs/import.md "What blab import
// prints") into numbers the summary panel draws. The C side computes everything (batches,
// histograms, rates); this file only reads its one-fact-per-line text, and refuses a line it
// does not know, so a change on the C side fails the contract test instead of vanishing.

export interface Batches {
  count: number;
  events: number;
  min: number;
  max: number;
  mean: number;
  /** histogram of run lengths: [bucket label, runs] */
  sizes: [string, number][];
}

export interface TraceSummary {
  lines: number;
  bytes: number;
  comment: number;
  skipped: number;
  malformed: number;
  /** the first malformed lines: [line, why] */
  malformedLines: [number, string][];
  events: number;
  /** per tracepoint name */
  kinds: [string, number][];
  allocFailed: number;
  cpus: number;
  cpuColumns: string[];
  /** per CPU with events: cpu, total, then one count per cpuColumns kind */
  perCpu: { cpu: number; events: number; kinds: number[] }[];
  orders: { order: number; allocs: number; frees: number }[];
  migratetypes: { mt: number; name: string; allocs: number }[];
  refills: number;
  refill: Batches;
  drain: Batches;
  unknownPages: number;
  pfnRange?: { lo: number; hi: number; pages: number };
  time?: { first: number; last: number; span: number };
  rateBucketUs: number;
  rate: { atUs: number; allocs: number; frees: number }[];
  limits: string;
  /** set when a bound stopped the parse */
  stopped?: string;
}

export class SummaryFormatError extends Error {
  override name = 'SummaryFormatError';
}

const emptyBatches = (): Batches => ({ count: 0, events: 0, min: 0, max: 0, mean: 0, sizes: [] });

export function parseSummary(text: string): TraceSummary {
  const s: TraceSummary = {
    lines: 0,
    bytes: 0,
    comment: 0,
    skipped: 0,
    malformed: 0,
    malformedLines: [],
    events: 0,
    kinds: [],
    allocFailed: 0,
    cpus: 0,
    cpuColumns: [],
    perCpu: [],
    orders: [],
    migratetypes: [],
    refills: 0,
    refill: emptyBatches(),
    drain: emptyBatches(),
    unknownPages: 0,
    rateBucketUs: 0,
    rate: [],
    limits: '',
  };
  const lines = text.split('\n');
  lines.forEach((line, i) => {
    if (line === '') return;
    const w = line.trim().split(/\s+/);
    const n = (k: number) => {
      const v = Number(w[k]);
      if (w[k] === undefined || !Number.isFinite(v)) throw new SummaryFormatError(`summary line ${i + 1}: expected a number in "${line}"`);
      return v;
    };
    const batches = (b: Batches) => {
      b.count = n(1);
      if (b.count) {
        b.events = n(3);
        b.min = n(5);
        b.max = n(7);
        b.mean = n(9);
      }
    };
    switch (w[0]) {
      case 'lines':
        s.lines = n(1);
        s.bytes = n(3);
        break;
      case 'lines_comment':
        s.comment = n(1);
        break;
      case 'lines_skipped':
        s.skipped = n(1);
        break;
      case 'lines_malformed':
        s.malformed = n(1);
        break;
      case 'malformed': {
        const m = /^malformed line (\d+): (.*)$/.exec(line);
        if (!m) throw new SummaryFormatError(`summary line ${i + 1}: "${line}"`);
        s.malformedLines.push([Number(m[1]), m[2]!]);
        break;
      }
      case 'events':
        s.events = n(1);
        break;
      case 'event':
        s.kinds.push([w[1]!, n(2)]);
        break;
      case 'alloc_failed':
        s.allocFailed = n(1);
        break;
      case 'cpus':
        s.cpus = n(1);
        break;
      case 'cpu_columns':
        s.cpuColumns = w.slice(2);
        break;
      case 'cpu':
        s.perCpu.push({ cpu: n(1), events: n(3), kinds: w.slice(4).map((_, k) => n(4 + k)) });
        break;
      case 'order':
        s.orders.push({ order: n(1), allocs: n(3), frees: n(5) });
        break;
      case 'migratetype':
        s.migratetypes.push({ mt: n(1), name: w[2]!, allocs: n(3) });
        break;
      case 'refills':
        s.refills = n(1);
        break;
      case 'refill_batches':
        batches(s.refill);
        break;
      case 'drain_batches':
        batches(s.drain);
        break;
      case 'refill_size':
        s.refill.sizes.push([w[1]!, n(2)]);
        break;
      case 'drain_size':
        s.drain.sizes.push([w[1]!, n(2)]);
        break;
      case 'unknown_pages':
        s.unknownPages = n(1);
        break;
      case 'pfn_range':
        s.pfnRange = { lo: parseInt(w[1]!, 16), hi: parseInt(w[2]!, 16), pages: n(4) };
        break;
      case 'time':
        s.time = { first: n(1), last: n(2), span: n(4) };
        break;
      case 'rate_bucket_us':
        s.rateBucketUs = n(1);
        break;
      case 'rate_us':
        s.rate.push({ atUs: Number(w[1]!.replace('+', '')), allocs: n(3), frees: n(5) });
        break;
      case 'limits':
        s.limits = w.slice(1).join(' ');
        break;
      case 'stopped':
        s.stopped = line.slice('stopped '.length);
        break;
      default:
        throw new SummaryFormatError(`summary line ${i + 1}: unknown line "${line.slice(0, 80)}"`);
    }
  });
  return s;
}
