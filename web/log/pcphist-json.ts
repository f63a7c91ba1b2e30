// The sizes of pcp refills (rmqueue_bulk) and drains (free_pcppages_bulk), per CPU, as the C
// core counts them for a model run (blab_js_hist) and for an imported kernel trace
// (blab_trace_hist + blab_hist_json): {"refill":{"0":[[63,17],...]},"drain":{...},"dropped":0}.
// Parsed strictly and bounded here, so a view draws only numbers it can trust.

export type PcpHistKind = 'refill' | 'drain';

/** pages per refill or drain -> how many there were, one map per CPU */
export interface PcpHistogram {
  refill: Map<number, Map<number, number>>;
  drain: Map<number, Map<number, number>>;
  /** sizes past the core's bound (BLAB_HIST_MAX_BINS distinct), counted but not kept */
  dropped: number;
}

/** what the core may send: BLAB_HIST_MAX_CPUS, BLAB_HIST_MAX_BINS (include/blab_hist.h) */
export const PCP_HIST_LIMITS = { maxCpus: 1024, maxBins: 65536 } as const;

function kind(raw: unknown, name: PcpHistKind): Map<number, Map<number, number>> {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new Error(`histogram: "${name}" is not an object`);
  const out = new Map<number, Map<number, number>>();
  let bins = 0;
  for (const [cpuText, rows] of Object.entries(raw)) {
    const cpu = Number(cpuText);
    if (!/^[0-9]{1,4}$/.test(cpuText) || cpu >= PCP_HIST_LIMITS.maxCpus) throw new Error(`histogram: ${name} cpu "${cpuText.slice(0, 8)}" is not a CPU number`);
    if (!Array.isArray(rows)) throw new Error(`histogram: ${name} cpu ${cpu} is not a list`);
    const sizes = new Map<number, number>();
    for (const row of rows) {
      if (!Array.isArray(row) || row.length !== 2 || !row.every((v) => Number.isSafeInteger(v) && v > 0)) {
        throw new Error(`histogram: ${name} cpu ${cpu} has a bin that is not [size, count]`);
      }
      sizes.set(row[0] as number, row[1] as number);
      if (++bins > PCP_HIST_LIMITS.maxBins) throw new Error(`histogram: more than ${PCP_HIST_LIMITS.maxBins} bins`);
    }
    out.set(cpu, sizes);
  }
  return out;
}

/** Reads the core's JSON text; throws naming what is wrong. */
export function parsePcpHistogram(text: string): PcpHistogram {
  const raw: unknown = JSON.parse(text);
  if (typeof raw !== 'object' || raw === null) throw new Error('histogram: not an object');
  const o = raw as Record<string, unknown>;
  const dropped = o.dropped;
  if (!Number.isSafeInteger(dropped) || (dropped as number) < 0) throw new Error('histogram: "dropped" is not a count');
  return { refill: kind(o.refill, 'refill'), drain: kind(o.drain, 'drain'), dropped: dropped as number };
}

/** One kind's sizes summed over the CPUs (all CPUs, or the one given), ascending by size. */
export function histBins(h: PcpHistogram, k: PcpHistKind, cpu?: number): [size: number, count: number][] {
  const sum = new Map<number, number>();
  for (const [c, sizes] of h[k]) {
    if (cpu !== undefined && c !== cpu) continue;
    for (const [size, n] of sizes) sum.set(size, (sum.get(size) ?? 0) + n);
  }
  return [...sum].sort((a, b) => a[0] - b[0]);
}

/** How many refills or drains, and how many pages they moved. */
export function histTotals(h: PcpHistogram, k: PcpHistKind): { count: number; pages: number } {
  let count = 0;
  let pages = 0;
  for (const [size, n] of histBins(h, k)) {
    count += n;
    pages += size * n;
  }
  return { count, pages };
}

/** The CPUs that have refills or drains, ascending. */
export function histCpus(h: PcpHistogram): number[] {
  return [...new Set([...h.refill.keys(), ...h.drain.keys()])].sort((a, b) => a - b);
}
