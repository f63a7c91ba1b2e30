// A pasted or dropped /proc/zoneinfo, read by the C core (blab_js_zoneinfo: the parser and the
// report of `blab zoneinfo --json`, include/blab_zoneinfo.h), so the browser and the CLI agree
// line for line, refusals included. The import worker calls it; Vitest calls it on the Node
// module.
import type { BlabModule } from '../engine/blab-module';
import { CORE_LIMITS } from '../log/core-limits';

/** The module's zoneinfo entry point, on top of what the engine uses. */
export interface ZoneinfoModule extends BlabModule {
  _blab_js_zoneinfo(text: number, len: number, nodeCpus: number, status: number): number;
}

/** one preset's sizes for a zone, and how they differ from what the kernel printed */
export interface PresetSizes {
  batch: number;
  high: number;
  /** 6.7+ presets only */
  high_min?: number;
  high_max?: number;
  differs: { field: string; computed: number; kernel: number }[];
}

export interface ZoneReport {
  node: number;
  zone: string;
  /** the line of its "Node N, zone NAME" in the file */
  line: number;
  managed: number;
  /** false: the file printed no managed line (before 3.x) and present stands in */
  managed_line: boolean;
  present: number;
  free: number;
  min: number;
  low: number;
  high: number;
  /** CPUs with a pageset; 0 for an empty zone */
  pagesets: number;
  start_pfn?: number;
  /** what the kernel printed (the first CPU's pageset), null for an empty zone */
  kernel: {
    cpu: number;
    batch: number;
    high: number;
    high_lo: number;
    high_hi: number;
    count: number;
    high_min?: number;
    high_max?: number;
    cpus_differ: boolean;
  } | null;
  presets: Record<string, PresetSizes>;
  /** presets whose sizes equal what the kernel printed */
  matches: string[];
}

export interface ZoneinfoReport {
  zones_count: number;
  nodes: number;
  /** CPUs with a pageset: the machine's online CPUs */
  cpus: number;
  /** the CPUs zone_highsize() split over */
  node_cpus: number;
  node_cpus_given: boolean;
  format: '6.7+' | 'before 6.7';
  zones: ZoneReport[];
}

export class ZoneinfoError extends Error {
  override name = 'ZoneinfoError';
}

/** The core's bound on a zoneinfo (BLAB_ZONEINFO_MAX_BYTES, generated into core-limits.ts) */
export const ZONEINFO_MAX_BYTES = CORE_LIMITS.zoneinfoMaxBytes;

/**
 * Parses text in the core: the report, or a ZoneinfoError with the core's "line N: why".
 * nodeCpus: the CPUs of a zone's node (0: the file's).
 */
export function readZoneinfo(m: ZoneinfoModule, text: string, nodeCpus = 0): ZoneinfoReport {
  const bytes = new TextEncoder().encode(text);
  if (bytes.length > ZONEINFO_MAX_BYTES) {
    throw new ZoneinfoError(`${bytes.length.toLocaleString('en')} bytes: a zoneinfo is at most ${ZONEINFO_MAX_BYTES.toLocaleString('en')}`);
  }
  const buf = m._malloc(Math.max(1, bytes.length));
  const status = m._malloc(4);
  let out = 0;
  try {
    if (!buf || !status) throw new Error('the core is out of memory (zoneinfo text)');
    m.HEAPU8.set(bytes, buf);
    out = m._blab_js_zoneinfo(buf, bytes.length, nodeCpus >>> 0, status);
    if (!out) throw new Error('the core is out of memory (zoneinfo report)');
    const rc = new DataView(m.HEAPU8.buffer, status, 4).getInt32(0, true);
    const text = m.UTF8ToString(out);
    if (rc !== 0) throw new ZoneinfoError(text || `the core refused it (${rc})`);
    return JSON.parse(text) as ZoneinfoReport;
  } finally {
    if (out) m._free(out);
    if (status) m._free(status);
    if (buf) m._free(buf);
  }
}

/** The zones that have pcp lists (an empty zone has none), by "node/name". */
export function zonesWithPcp(r: ZoneinfoReport): ZoneReport[] {
  return r.zones.filter((z) => z.pagesets > 0 && z.kernel !== null);
}
