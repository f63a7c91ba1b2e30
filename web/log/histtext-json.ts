// A kernel's latency histogram as the C core read it (blab_js_histtext(), blab_histtext_json():
// the text of BCC's funclatency or of a bpftrace hist() / lhist() map, docs/import.md "Latency
// histograms"): each histogram's kind, name, unit, the kernel function its name holds and the
// model's series that function compares with (blab_latency_mask_for_function(), in the core so
// the browser and `blab import` agree). Parsed strictly and bounded, and matched to what the
// latency view shows: "rmqueue_bulk" goes over the model's rmqueue_bulk() calls, nothing else.
import { LAT_PATHS, LAT_SERIES, type LatSeriesId } from './latency-json';

export type HistKind = 'funclatency' | 'hist' | 'lhist';
export type HistUnit = 'nsecs' | 'usecs' | 'msecs' | '';

export interface RealHistogram {
  kind: HistKind;
  /** funclatency's function, or the bpftrace map ("@rmqueue_bulk_ns") */
  name: string;
  /** '' when the text does not say (a bpftrace map whose name carries no unit) */
  unit: HistUnit;
  /** the line of the file it starts at */
  line: number;
  /** the kernel function its name holds ('' when none the model knows) */
  function: string;
  /** the model's series it compares with: a mask of 1 << LAT_PATHS index (0: none) */
  mask: number;
  total: number;
  /** lhist()'s step; 0 for the log2 kinds */
  step: number;
  /** inclusive [lo, hi] in its unit; null: an open end (lhist's first or last) */
  buckets: [lo: number | null, hi: number | null, count: number][];
}

/** the core's bounds (include/blab_histtext.h) */
export const HISTTEXT_LIMITS = { maxHists: 64, maxBuckets: 64, maxName: 63, maxInputBytes: 16 << 20 } as const;

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const whole = (v: unknown) => Number.isSafeInteger(v) && (v as number) >= 0;

function one(v: unknown, i: number): RealHistogram {
  const at = `histogram ${i + 1}`;
  if (!isObj(v)) throw new Error(`${at} is not an object`);
  const kind = v['kind'];
  if (kind !== 'funclatency' && kind !== 'hist' && kind !== 'lhist') throw new Error(`${at}: unknown kind`);
  const unit = v['unit'];
  if (unit !== 'nsecs' && unit !== 'usecs' && unit !== 'msecs' && unit !== '') throw new Error(`${at}: unknown unit`);
  const str = (k: string) => {
    const s = v[k];
    if (typeof s !== 'string' || s.length > HISTTEXT_LIMITS.maxName) throw new Error(`${at}: "${k}" is not a short string`);
    return s;
  };
  const model = v['model'];
  if (!Array.isArray(model)) throw new Error(`${at}: "model" is not a list`);
  let mask = 0;
  for (const name of model) {
    const k = LAT_PATHS.indexOf(name as (typeof LAT_PATHS)[number]);
    if (k < 0) throw new Error(`${at}: "model" names no series of the core`);
    mask |= 1 << k;
  }
  const b = v['buckets'];
  if (!Array.isArray(b) || b.length > HISTTEXT_LIMITS.maxBuckets) throw new Error(`${at}: more than ${HISTTEXT_LIMITS.maxBuckets} buckets`);
  const buckets = b.map((row, j): [number | null, number | null, number] => {
    if (!Array.isArray(row) || row.length !== 3 || !(row[0] === null || whole(row[0])) || !(row[1] === null || whole(row[1])) || !whole(row[2]))
      throw new Error(`${at}: bucket ${j + 1} is not [lo, hi, count]`);
    return [row[0] as number | null, row[1] as number | null, row[2] as number];
  });
  for (const k of ['line', 'total', 'step']) if (!whole(v[k])) throw new Error(`${at}: "${k}" is not a whole number`);
  return { kind, name: str('name'), unit, line: v['line'] as number, function: str('function'), mask, total: v['total'] as number, step: v['step'] as number, buckets };
}

/** Reads the core's JSON text; throws naming what is wrong. */
export function parseHistText(text: string): RealHistogram[] {
  const raw: unknown = JSON.parse(text);
  if (!isObj(raw) || !Array.isArray(raw['histograms'])) throw new Error('not the core\'s histogram JSON ({"histograms":[..]})');
  const hs = raw['histograms'];
  if (hs.length < 1 || hs.length > HISTTEXT_LIMITS.maxHists) throw new Error(`expected 1 to ${HISTTEXT_LIMITS.maxHists} histograms`);
  return hs.map(one);
}

const NS_PER: Record<Exclude<HistUnit, ''>, number> = { nsecs: 1, usecs: 1000, msecs: 1_000_000 };

/**
 * Buckets in nanoseconds as half-open [lo, hi): an inclusive integer bucket [a, b] of a log2 or
 * linear histogram holds values from a up to b + 1 (exclusive). An open end is left out (it
 * has no width to draw); a unit the text does not say gives none (overlayMatch() refuses it).
 */
export function realBucketsNs(h: RealHistogram): { lo: number; hi: number; count: number }[] {
  if (h.unit === '') return [];
  const k = NS_PER[h.unit];
  return h.buckets.flatMap(([lo, hi, count]) => (lo === null || hi === null ? [] : [{ lo: lo * k, hi: (hi + 1) * k, count }]));
}

/** What a path's model calls are named for in a message. */
const FUNCTIONS_KNOWN = 'rmqueue_bulk, free_pcppages_bulk, rmqueue_pcplist, rmqueue_buddy, free_one_page, free_unref_page_commit (free_frozen_page_commit), __alloc_pages, get_page_from_freelist, rmqueue, free_unref_page, free_frozen_pages and __free_pages';

/** The series the histogram's function measures on the model, if the model has one. */
export function ownSeries(h: RealHistogram): LatSeriesId | undefined {
  return h.mask ? LAT_SERIES.find((s) => s.mask === h.mask)?.id : undefined;
}

/** The histogram of a text the model can draw: the first with a series and a unit, else the first. */
export function pickHistogram(hs: readonly RealHistogram[]): RealHistogram {
  return hs.find((h) => ownSeries(h) !== undefined && h.unit !== '') ?? hs[0]!;
}

export type OverlayMatch = { ok: true; series: LatSeriesId } | { ok: false; why: string; series?: LatSeriesId };

/**
 * Whether the histogram goes over the model's series `id`: the kernel function its name holds
 * must measure the same calls (the core's mask), and its unit must be known. Otherwise the
 * reason, in words, and the series it would go over when there is one.
 */
export function overlayMatch(h: RealHistogram, id: LatSeriesId): OverlayMatch {
  const what = h.function ? `${h.function} (${h.name})` : `"${h.name}"`;
  const own = LAT_SERIES.find((s) => s.mask === h.mask);
  if (!h.mask || !own) return { ok: false, why: `${what}: the model has no calls that measure this; it compares ${FUNCTIONS_KNOWN}. Name the function in the probe (funclatency FUNCTION, or a bpftrace map such as @rmqueue_bulk_ns).` };
  if (h.unit === '') return { ok: false, series: own.id, why: `${what}: the text does not say its unit; a bpftrace map whose name ends in _ns, _us or _ms says it (@rmqueue_bulk_ns).` };
  if (own.id !== id) return { ok: false, series: own.id, why: `${what} measures the model's ${own.title}, not ${LAT_SERIES.find((s) => s.id === id)!.title}: choose that path to see the two together.` };
  return { ok: true, series: own.id };
}
