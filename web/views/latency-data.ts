// What the latency view draws, as numbers (no DOM, so Vitest checks it): each configuration's
// log2 buckets of one series as shares of its calls, its percentiles in nanoseconds of the
// modelled clock, the tail bucket and the call a click on a bucket goes to, and an imported
// kernel histogram as shares per power of two (a linear lhist() bucket is narrower than an
// octave, so its share is spread over its width: the heights of the two kinds compare).
import { LAT_SERIES, seriesSummary, type LatCall, type LatencyReport, type LatSeriesId } from '../log/latency-json';
import { overlayMatch, realBucketsNs, type RealHistogram } from '../log/histtext-json';

/** One configuration's run: its label (the compare column's, the workbench's run). */
export interface LatencySource {
  label: string;
  report: LatencyReport;
}

/** What a page hands the latency view. */
export interface LatencyData {
  sources: LatencySource[];
  /** an imported BCC funclatency / bpftrace histogram, drawn over the matching series */
  real?: { label: string; hist: RealHistogram };
  /** the series to show first (an import switches to the one its function measures) */
  series?: LatSeriesId;
}

/** A log2 bucket of one source: bpf_log2l() slot k holds [2^(k-1), 2^k) ns (slot 1: 0 and 1). */
export interface ModelBar {
  slot: number;
  lo: number;
  hi: number;
  count: number;
  /** % of the source's calls of this series */
  share: number;
  /** the longest call in it, with where it ran (absent when the core kept none) */
  longest?: LatCall;
}

export const slotLo = (slot: number): number => (slot <= 1 ? 0 : 2 ** (slot - 1));
export const slotHi = (slot: number): number => 2 ** slot;

/** One source's buckets of a series, nonzero ones only. */
export function modelBars(r: LatencyReport, id: LatSeriesId): ModelBar[] {
  const s = seriesSummary(r, id);
  const total = s.log2.reduce((a, c) => a + c, 0);
  const longest = new Map(s.longest.map((c) => [c.slot, c]));
  const out: ModelBar[] = [];
  s.log2.forEach((count, i) => {
    const slot = i + 1;
    if (!count) return;
    const l = longest.get(slot);
    out.push({ slot, lo: slotLo(slot), hi: slotHi(slot), count, share: (100 * count) / total, ...(l ? { longest: l } : {}) });
  });
  return out;
}

/** The slowest bucket with calls in it: the tail a click follows to its call. */
export function tailBar(bars: readonly ModelBar[]): ModelBar | undefined {
  return bars.at(-1);
}

export type MarkerName = 'p50' | 'p99' | 'p99.9';

/** A percentile as the view marks it: ns of the modelled clock, and whether the core knows it
 * exactly (below 8,192 cycles always; above, when its range closed). */
export interface Marker {
  name: MarkerName;
  cycles: number;
  ns: number;
  exact: boolean;
}

/** p50, p99 and p99.9 of a source's series; none for a sum of paths (the core has none). */
export function markers(r: LatencyReport, id: LatSeriesId): Marker[] {
  const s = seriesSummary(r, id);
  if (!s.count || !Number.isFinite(s.p50)) return [];
  const ns = (c: number) => (c * 1000) / r.cyclesPerUs;
  return [
    { name: 'p50', cycles: s.p50, ns: ns(s.p50), exact: s.p50 === s.p50Lo },
    { name: 'p99', cycles: s.p99, ns: ns(s.p99), exact: s.p99 === s.p99Lo },
    { name: 'p99.9', cycles: s.p999, ns: ns(s.p999), exact: s.p999 === s.p999Lo },
  ];
}

/** Markers at one value share a label ("p50 = p99"), so that no two labels sit on each other. */
export function mergedMarkers(ms: readonly Marker[]): { names: MarkerName[]; ns: number; exact: boolean }[] {
  const out: { names: MarkerName[]; ns: number; exact: boolean }[] = [];
  for (const m of ms) {
    const same = out.find((o) => o.ns === m.ns);
    if (same) same.names.push(m.name);
    else out.push({ names: [m.name], ns: m.ns, exact: m.exact });
  }
  return out;
}

/** An imported histogram's buckets in ns, each a share of its total and that share per power of
 * two of its width (what the y axis shows). */
export interface RealBar {
  lo: number;
  hi: number;
  count: number;
  share: number;
  perOctave: number;
}

export function realBars(h: RealHistogram): RealBar[] {
  const buckets = realBucketsNs(h);
  const total = buckets.reduce((a, b) => a + b.count, 0);
  if (!total) return [];
  return buckets
    .filter((b) => b.count > 0)
    .map((b) => {
      const lo = Math.max(b.lo, 0.5);
      const octaves = Math.max(Math.log2(b.hi / lo), 1e-9);
      const share = (100 * b.count) / total;
      // a log2 bucket spans one octave: its height is its share, as the model's bars
      return { lo: b.lo, hi: b.hi, count: b.count, share, perOctave: h.kind === 'lhist' ? share / octaves : share };
    });
}

/** The ns range every source's bars (and the imported one's) fall in, whole octaves. */
export function nsDomain(sources: readonly ModelBar[][], real: readonly RealBar[]): [number, number] {
  let lo = Infinity;
  let hi = 0;
  for (const bars of sources)
    for (const b of bars) {
      lo = Math.min(lo, Math.max(b.lo, 1));
      hi = Math.max(hi, b.hi);
    }
  for (const b of real) {
    lo = Math.min(lo, Math.max(b.lo, 1));
    hi = Math.max(hi, b.hi);
  }
  if (!Number.isFinite(lo)) return [1, 1024];
  return [2 ** Math.floor(Math.log2(lo)), 2 ** Math.ceil(Math.log2(Math.max(hi, lo * 2)))];
}

/** Whether the imported histogram is drawn over this series, and what the view says if not. */
export function overlayState(d: LatencyData, id: LatSeriesId): { draw: boolean; note: string } {
  if (!d.real) return { draw: false, note: '' };
  const m = overlayMatch(d.real.hist, id);
  return m.ok ? { draw: true, note: `${d.real.label}: drawn over the model's ${LAT_SERIES.find((s) => s.id === id)!.title}.` } : { draw: false, note: `${d.real.label}: ${m.why}` };
}

/** Three significant digits, without trailing zeros after the point: 4.70 -> 4.7, 100 -> 100. */
const sig3 = (v: number) => {
  const t = v.toPrecision(3);
  return t.includes('.') && !t.includes('e') ? t.replace(/0+$/, '').replace(/\.$/, '') : String(Number(t));
};

/** A length in words at the modelled clock: "260 ns", "4.7 µs", "1.87 ms". */
export function nsText(ns: number): string {
  // a value that rounds up to the next unit is said in it ("1 µs", never "1000 ns")
  if (ns < 999.5) return `${Math.round(ns)} ns`;
  if (ns < 999_500) return `${sig3(ns / 1000)} µs`;
  return `${sig3(ns / 1e6)} ms`;
}
