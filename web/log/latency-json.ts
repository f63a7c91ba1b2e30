// A model run's latencies as the C core reports them (blab_latency_json(), include/blab_latency.h;
// the same object `blab sim --latency --json` puts in each preset's row): every allocation and
// every free, each path the core tells apart, and each rmqueue_bulk() / free_pcppages_bulk()
// call, in the model's cycles, with log2 histograms in nanoseconds of the modelled clock
// (bpf_log2l()'s slots, what BCC's funclatency prints) and, per slot, the longest call and where
// it ran, so that a histogram's bucket can be followed to its record (latency-record.ts).
// Parsed strictly and bounded here, so a view draws only numbers it can trust.

/** The core's series (enum blab_lat_series), by the names its JSON uses. */
export const LAT_PATHS = ['alloc_pcp', 'alloc_refill', 'alloc_direct', 'free_pcp', 'free_drain', 'free_direct', 'rmqueue_bulk', 'free_pcppages_bulk'] as const;
export type LatPath = (typeof LAT_PATHS)[number];

/**
 * What a latency view can show: every allocation, every free, or one series. Each has the
 * core's mask of series (1 << index in LAT_PATHS), which blab_latency_mask_for_function()
 * gives a kernel function too, so an imported histogram is matched to what it measures.
 */
export const LAT_SERIES = [
  { id: 'alloc', mask: 0x07, title: 'every allocation', record: 'ALLOC' },
  { id: 'alloc_pcp', mask: 0x01, title: 'allocations from the pcp list (a hit)', record: 'ALLOC' },
  { id: 'alloc_refill', mask: 0x02, title: 'allocations that refilled the list (rmqueue_bulk() first)', record: 'ALLOC' },
  { id: 'alloc_direct', mask: 0x04, title: 'allocations from the buddy lists under zone->lock', record: 'ALLOC' },
  // what rmqueue_pcplist() measures on a kernel: the model keeps percentiles per path, so this
  // sum of two has its histogram and longest calls but no percentiles of its own
  { id: 'alloc_pcplist', mask: 0x03, title: 'allocations through the pcp list (hits and refills)', record: 'ALLOC' },
  { id: 'free', mask: 0x38, title: 'every free', record: 'FREE' },
  { id: 'free_pcp', mask: 0x08, title: 'frees onto the pcp list', record: 'FREE' },
  { id: 'free_drain', mask: 0x10, title: 'frees that drained the list (free_pcppages_bulk())', record: 'FREE' },
  { id: 'free_direct', mask: 0x20, title: 'frees to the buddy lists (free_one_page())', record: 'FREE' },
  // free_unref_page_commit() on a kernel: a sum of two paths, as alloc_pcplist
  { id: 'free_commit', mask: 0x18, title: 'frees onto the pcp list, with or without a drain', record: 'FREE' },
  { id: 'rmqueue_bulk', mask: 0x40, title: 'each rmqueue_bulk() call (a refill)', record: 'RMQUEUE_BULK' },
  { id: 'free_pcppages_bulk', mask: 0x80, title: 'each free_pcppages_bulk() call (a drain)', record: 'PCP_DRAIN' },
] as const;
export type LatSeriesId = (typeof LAT_SERIES)[number]['id'];
export type LatRecordKind = (typeof LAT_SERIES)[number]['record'];

/** The longest call of one log2 slot: where it ran, so its record can be found. */
export interface LatCall {
  /** bpf_log2l() slot of its length in ns: 1 holds 0 and 1 ns, slot k holds 2^(k-1) .. 2^k - 1 */
  slot: number;
  cpu: number;
  /** the CPU's clock (cycles) when the call began */
  start: number;
  cycles: number;
  /** the block an allocation handed out or a free took back; 0 for the bulk functions' calls */
  pfn: number;
}

/** One series (or every allocation / free) in cycles; percentiles exact when lo = value. */
export interface LatSummary {
  count: number;
  min: number;
  avg: number;
  max: number;
  p50: number;
  p50Lo: number;
  p99: number;
  p99Lo: number;
  p999: number;
  p999Lo: number;
  /** counts of bpf_log2l() slots 1 .. the last nonzero one: log2[k - 1] is slot k */
  log2: number[];
  /** each nonzero slot's longest call (absent for the lock_wait and bulk parts) */
  longest: LatCall[];
}

export interface LatencyReport {
  /** the modelled clock: cycles in a microsecond */
  cyclesPerUs: number;
  alloc: LatSummary;
  free: LatSummary;
  paths: Record<LatPath, LatSummary & { lockWait?: LatSummary; bulk?: LatSummary }>;
  /** each CPU's own log2 histograms, per series that counted a call on it */
  cpus: { cpu: number; log2: Partial<Record<LatPath, number[]>> }[];
}

/** what the core may send: 64 log2 slots past slot 0, BLAB_LAT_MAX_CPUS */
export const LATENCY_LIMITS = { slots: 64, maxCpus: 1024 } as const;

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function count(v: unknown, what: string): number {
  if (!Number.isSafeInteger(v) || (v as number) < 0) throw new Error(`latency: ${what} is not a whole number`);
  return v as number;
}

function slots(v: unknown, what: string): number[] {
  if (!Array.isArray(v) || v.length > LATENCY_LIMITS.slots) throw new Error(`latency: ${what} is not a list of at most ${LATENCY_LIMITS.slots} slots`);
  return v.map((c, i) => count(c, `${what}[${i}]`));
}

function longest(v: unknown, what: string): LatCall[] {
  if (!Array.isArray(v) || v.length > LATENCY_LIMITS.slots) throw new Error(`latency: ${what} is not a list of at most ${LATENCY_LIMITS.slots} calls`);
  return v.map((row, i) => {
    if (!Array.isArray(row) || row.length !== 5) throw new Error(`latency: ${what}[${i}] is not [slot, cpu, start, cycles, pfn]`);
    const [slot, cpu, start, cycles, pfn] = row.map((x, j) => count(x, `${what}[${i}][${j}]`)) as [number, number, number, number, number];
    if (slot < 1 || slot > LATENCY_LIMITS.slots || cpu >= LATENCY_LIMITS.maxCpus) throw new Error(`latency: ${what}[${i}] has slot ${slot}, cpu ${cpu}`);
    return { slot, cpu, start, cycles, pfn };
  });
}

function summary(v: unknown, what: string, withLongest: boolean): LatSummary {
  if (!isObj(v)) throw new Error(`latency: ${what} is not an object`);
  const n = (k: string) => count(v[k], `${what}.${k}`);
  return {
    count: n('count'),
    min: n('min'),
    avg: n('avg'),
    max: n('max'),
    p50: n('p50'),
    p50Lo: n('p50_lo'),
    p99: n('p99'),
    p99Lo: n('p99_lo'),
    p999: n('p99_9'),
    p999Lo: n('p99_9_lo'),
    log2: slots(v['log2_ns'], `${what}.log2_ns`),
    longest: withLongest ? longest(v['longest'], `${what}.longest`) : [],
  };
}

/** Reads the core's JSON text (blab_js_latency()); throws naming what is wrong. */
export function parseLatency(text: string): LatencyReport {
  const raw: unknown = JSON.parse(text);
  if (!isObj(raw)) throw new Error('latency: not an object');
  if (raw['unit'] !== 'cycles' || raw['log2_unit'] !== 'nsecs') throw new Error('latency: expected cycles, with log2 histograms in nsecs');
  const cyclesPerUs = count(raw['cycles_per_us'], 'cycles_per_us');
  if (cyclesPerUs < 1) throw new Error('latency: cycles_per_us is 0');
  const p = raw['paths'];
  if (!isObj(p)) throw new Error('latency: "paths" is not an object');
  const paths = Object.fromEntries(
    LAT_PATHS.map((name, i) => {
      const s = p[name];
      const base = summary(s, `paths.${name}`, true);
      // the allocation and free paths have their parts; the functions' calls are one whole
      return [name, i < 6 ? { ...base, lockWait: summary((s as Record<string, unknown>)['lock_wait'], `paths.${name}.lock_wait`, false), bulk: summary((s as Record<string, unknown>)['bulk'], `paths.${name}.bulk`, false) } : base];
    }),
  ) as LatencyReport['paths'];
  const cpusRaw = raw['cpus'];
  if (!Array.isArray(cpusRaw) || cpusRaw.length > LATENCY_LIMITS.maxCpus) throw new Error('latency: "cpus" is not a list of CPUs');
  const cpus = cpusRaw.map((c, i) => {
    if (!isObj(c)) throw new Error(`latency: cpus[${i}] is not an object`);
    const cpu = count(c['cpu'], `cpus[${i}].cpu`);
    const log2: Partial<Record<LatPath, number[]>> = {};
    for (const name of LAT_PATHS) if (c[name] !== undefined) log2[name] = slots(c[name], `cpus[${i}].${name}`);
    return { cpu, log2 };
  });
  return { cyclesPerUs, alloc: summary(raw['alloc'], 'alloc', true), free: summary(raw['free'], 'free', true), paths, cpus };
}

/**
 * The summary a view shows for a series: every allocation, every free, one path, or a sum of
 * paths; a sum's percentiles and average are NaN (the core keeps them per path: a log2 histogram alone
 * cannot give them exactly) and its count, maximum, histogram and longest calls are the paths'.
 */
export function seriesSummary(r: LatencyReport, id: LatSeriesId): LatSummary {
  if (id === 'alloc') return r.alloc;
  if (id === 'free') return r.free;
  if (id !== 'alloc_pcplist' && id !== 'free_commit') return r.paths[id];
  const parts = LAT_PATHS.filter((_, i) => LAT_SERIES.find((s) => s.id === id)!.mask & (1 << i)).map((n) => r.paths[n]);
  const log2: number[] = [];
  const best = new Map<number, LatCall>();
  for (const p of parts) {
    p.log2.forEach((c, i) => (log2[i] = (log2[i] ?? 0) + c));
    for (const c of p.longest) if ((best.get(c.slot)?.cycles ?? -1) < c.cycles) best.set(c.slot, c);
  }
  const n = parts.reduce((a, p) => a + p.count, 0);
  const withCalls = parts.filter((p) => p.count);
  return {
    count: n,
    min: withCalls.length ? Math.min(...withCalls.map((p) => p.min)) : 0,
    avg: NaN, // the paths' averages are rounded: their sum's would not be exact
    max: Math.max(0, ...parts.map((p) => p.max)),
    p50: NaN,
    p50Lo: NaN,
    p99: NaN,
    p99Lo: NaN,
    p999: NaN,
    p999Lo: NaN,
    log2: Array.from(log2, (c) => c ?? 0),
    longest: [...best.values()].sort((a, b) => a.slot - b.slot),
  };
}
