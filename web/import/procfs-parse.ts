// Strict parsers for /proc/buddyinfo and /proc/zoneinfo text a user pastes or drops
// (docs/import.md, "Snapshots"). Every refusal names its line and why; sizes and numbers are
// bounded (docs/limits.md). Lines of /proc/zoneinfo this tool does not use are recognised by
// shape (`key value` statistics) and skipped; anything else is an error, so a wrong file is
// refused instead of half-read.
import { IMPORT_LIMITS } from '../scenario/limits';

export const SNAPSHOT_LIMITS = {
  /** zones in one file (nodes x zone types) */
  maxZones: 256,
  /** nr_free columns: orders 0 .. 15 */
  maxOrders: 16,
  maxNode: 1023,
  maxCpus: 1024,
  /** any count or pfn */
  maxNumber: 2 ** 52,
  maxLineLength: 4096,
} as const;

export class SnapshotError extends Error {
  override name = 'SnapshotError';
  constructor(
    readonly file: 'buddyinfo' | 'zoneinfo',
    readonly line: number,
    why: string,
  ) {
    super(line > 0 ? `${file} line ${line}: ${why}` : `${file}: ${why}`);
  }
}

export interface BuddyinfoZone {
  node: number;
  zone: string;
  /** nr_free per order, 0 .. MAX_PAGE_ORDER */
  nrFree: number[];
  line: number;
}

export interface PcpSnapshot {
  cpu: number;
  count: number;
  high: number;
  batch: number;
  /** 6.7+ (high auto-tuning) */
  highMin?: number;
  highMax?: number;
}

export interface ZoneinfoZone {
  node: number;
  zone: string;
  line: number;
  free?: number;
  min?: number;
  low?: number;
  high?: number;
  spanned: number;
  present: number;
  managed: number;
  startPfn?: number;
  pcp: PcpSnapshot[];
}

function checkSize(file: 'buddyinfo' | 'zoneinfo', text: string): string[] {
  if (text.length > IMPORT_LIMITS.maxSnapshotBytes) {
    throw new SnapshotError(file, 0, `${text.length.toLocaleString('en')} characters; the limit is ${IMPORT_LIMITS.maxSnapshotBytes.toLocaleString('en')}`);
  }
  if (text.includes('\0')) throw new SnapshotError(file, text.slice(0, text.indexOf('\0')).split('\n').length, 'a NUL byte: not a text file');
  // a byte order mark before the first line (pasted from an editor that writes one) is not text
  const lines = text.replace(/^\uFEFF/, '').replace(/\r\n/g, '\n').split('\n');
  lines.forEach((l, i) => {
    if (l.length > SNAPSHOT_LIMITS.maxLineLength) throw new SnapshotError(file, i + 1, `line longer than ${SNAPSHOT_LIMITS.maxLineLength} characters`);
  });
  return lines;
}

function num(file: 'buddyinfo' | 'zoneinfo', line: number, what: string, raw: string | undefined): number {
  if (raw === undefined || !/^\d{1,16}$/.test(raw)) throw new SnapshotError(file, line, `${what}: expected a whole number, found "${(raw ?? '').slice(0, 24)}"`);
  const v = Number(raw);
  if (v > SNAPSHOT_LIMITS.maxNumber) throw new SnapshotError(file, line, `${what} = ${raw} is too large (at most 2^52)`);
  return v;
}

const ZONE_HEAD = /^Node\s+(\d+),\s+zone\s+(\S+)(.*)$/;
const ZONE_NAME = /^[A-Za-z][A-Za-z0-9_]{0,15}$/;

function zoneHead(file: 'buddyinfo' | 'zoneinfo', n: number, m: RegExpExecArray, seen: Set<string>) {
  const node = num(file, n, 'node', m[1]);
  if (node > SNAPSHOT_LIMITS.maxNode) throw new SnapshotError(file, n, `node ${node} is too large (at most ${SNAPSHOT_LIMITS.maxNode})`);
  const zone = m[2]!;
  if (!ZONE_NAME.test(zone)) throw new SnapshotError(file, n, `"${zone.slice(0, 24)}" is not a zone name`);
  const key = `${node}/${zone}`;
  if (seen.has(key)) throw new SnapshotError(file, n, `node ${node} zone ${zone} appears twice`);
  seen.add(key);
  if (seen.size > SNAPSHOT_LIMITS.maxZones) throw new SnapshotError(file, n, `more than ${SNAPSHOT_LIMITS.maxZones} zones`);
  return { node, zone };
}

/** /proc/buddyinfo: `Node N, zone NAME nr_free[0] ... nr_free[MAX_PAGE_ORDER]` per line. */
export function parseBuddyinfo(text: string): BuddyinfoZone[] {
  const lines = checkSize('buddyinfo', text);
  const zones: BuddyinfoZone[] = [];
  const seen = new Set<string>();
  lines.forEach((l, i) => {
    const n = i + 1;
    if (l.trim() === '') return;
    const m = ZONE_HEAD.exec(l.trim());
    if (!m) throw new SnapshotError('buddyinfo', n, 'expected "Node N, zone NAME" followed by nr_free per order');
    const { node, zone } = zoneHead('buddyinfo', n, m, seen);
    const cols = m[3]!.trim() === '' ? [] : m[3]!.trim().split(/\s+/);
    if (cols.length === 0) throw new SnapshotError('buddyinfo', n, 'no nr_free columns after the zone name');
    if (cols.length > SNAPSHOT_LIMITS.maxOrders) throw new SnapshotError('buddyinfo', n, `${cols.length} orders; at most ${SNAPSHOT_LIMITS.maxOrders} (0..15)`);
    const nrFree = cols.map((c, o) => num('buddyinfo', n, `order ${o}`, c));
    nrFree.forEach((f, o) => {
      if (f * 2 ** o > SNAPSHOT_LIMITS.maxNumber) throw new SnapshotError('buddyinfo', n, `order ${o}: ${f} blocks are more than 2^52 pages`);
    });
    if (zones.length && zones[0]!.nrFree.length !== nrFree.length) {
      throw new SnapshotError('buddyinfo', n, `${nrFree.length} orders, but line ${zones[0]!.line} has ${zones[0]!.nrFree.length}`);
    }
    zones.push({ node, zone, nrFree, line: n });
  });
  if (zones.length === 0) throw new SnapshotError('buddyinfo', 0, 'no "Node N, zone NAME" line: is this /proc/buddyinfo?');
  return zones;
}

/** Statistics lines the tool does not use: `name value`, `name: value`, `protection: (a, b)`. */
const SKIPPED = /^\s+(?:[a-z][a-z0-9_]*:?\s+-?\d+|protection:\s*\([\d,\s]*\)|per-node stats|[a-z][a-z0-9_ ]*:\s+-?\d+)\s*$/;

/** /proc/zoneinfo: per zone its size, watermarks and per-cpu pagesets. */
export function parseZoneinfo(text: string): ZoneinfoZone[] {
  const lines = checkSize('zoneinfo', text);
  const zones: ZoneinfoZone[] = [];
  const seen = new Set<string>();
  let z: (Partial<ZoneinfoZone> & { node: number; zone: string; line: number; pcp: PcpSnapshot[] }) | undefined;
  let cpu: Partial<PcpSnapshot> & { line: number } | undefined;
  let inPagesets = false;
  const endCpu = () => {
    if (!cpu || !z) return;
    for (const k of ['count', 'high', 'batch'] as const) {
      if (cpu[k] === undefined) throw new SnapshotError('zoneinfo', cpu.line, `cpu ${cpu.cpu}: no ${k}: line in its pageset`);
    }
    const p: PcpSnapshot = { cpu: cpu.cpu!, count: cpu.count!, high: cpu.high!, batch: cpu.batch! };
    if (cpu.highMin !== undefined) p.highMin = cpu.highMin;
    if (cpu.highMax !== undefined) p.highMax = cpu.highMax;
    z.pcp.push(p);
    cpu = undefined;
  };
  const endZone = () => {
    endCpu();
    if (!z) return;
    for (const k of ['spanned', 'present', 'managed'] as const) {
      if (z[k] === undefined) throw new SnapshotError('zoneinfo', z.line, `zone ${z.zone}: no "${k}" line`);
    }
    if (z.spanned! > 0 && z.startPfn === undefined) throw new SnapshotError('zoneinfo', z.line, `zone ${z.zone}: no "start_pfn:" line`);
    if (z.present! > z.spanned! || z.managed! > z.present!) {
      throw new SnapshotError('zoneinfo', z.line, `zone ${z.zone}: expected managed <= present <= spanned, found ${z.managed} / ${z.present} / ${z.spanned}`);
    }
    zones.push(z as ZoneinfoZone);
    z = undefined;
  };
  lines.forEach((l, i) => {
    const n = i + 1;
    if (l.trim() === '') return;
    const head = /^\S/.test(l) ? ZONE_HEAD.exec(l.trimEnd()) : null;
    if (head) {
      endZone();
      if (head[3]!.trim() !== '') throw new SnapshotError('zoneinfo', n, `unexpected "${head[3]!.trim().slice(0, 24)}" after the zone name (is this /proc/buddyinfo?)`);
      const { node, zone } = zoneHead('zoneinfo', n, head, seen);
      z = { node, zone, line: n, pcp: [] };
      inPagesets = false;
      return;
    }
    if (!/^\s/.test(l)) throw new SnapshotError('zoneinfo', n, 'expected "Node N, zone NAME" or an indented field');
    if (!z) throw new SnapshotError('zoneinfo', n, 'a field before the first "Node N, zone NAME" line');
    const t = l.trim();
    let m: RegExpExecArray | null;
    if ((m = /^pages free\s+(\S+)$/.exec(t))) z.free = num('zoneinfo', n, 'pages free', m[1]);
    else if ((m = /^(min|low|high|spanned|present|managed)\s+(\S+)$/.exec(t)) && !inPagesets) {
      z[m[1] as 'min' | 'low' | 'high' | 'spanned' | 'present' | 'managed'] = num('zoneinfo', n, m[1]!, m[2]);
    } else if ((m = /^start_pfn:\s+(\S+)$/.exec(t))) {
      endCpu();
      inPagesets = false;
      z.startPfn = num('zoneinfo', n, 'start_pfn', m[1]);
    } else if (t === 'pagesets') inPagesets = true;
    else if ((m = /^cpu:\s+(\S+)$/.exec(t))) {
      if (!inPagesets) throw new SnapshotError('zoneinfo', n, '"cpu:" outside a pagesets block');
      endCpu();
      const c = num('zoneinfo', n, 'cpu', m[1]);
      if (c >= SNAPSHOT_LIMITS.maxCpus) throw new SnapshotError('zoneinfo', n, `cpu ${c} is too large (at most ${SNAPSHOT_LIMITS.maxCpus - 1})`);
      if (z.pcp.some((p) => p.cpu === c)) throw new SnapshotError('zoneinfo', n, `cpu ${c} appears twice in zone ${z.zone}`);
      cpu = { cpu: c, line: n };
    } else if ((m = /^(count|high|batch|high_min|high_max):\s+(\S+)$/.exec(t)) && cpu) {
      const v = num('zoneinfo', n, m[1]!, m[2]);
      if (v > 2 ** 32) throw new SnapshotError('zoneinfo', n, `${m[1]} = ${v} is too large for a pcp counter`);
      const key = { count: 'count', high: 'high', batch: 'batch', high_min: 'highMin', high_max: 'highMax' }[m[1] as 'count'] as keyof PcpSnapshot;
      (cpu as Record<string, number>)[key] = v;
    } else if (/^vm stats threshold:/.test(t)) endCpu();
    else if (!SKIPPED.test(l)) throw new SnapshotError('zoneinfo', n, `"${t.slice(0, 40)}" is not a /proc/zoneinfo line`);
  });
  endZone();
  if (zones.length === 0) throw new SnapshotError('zoneinfo', 0, 'no "Node N, zone NAME" line: is this /proc/zoneinfo?');
  return zones;
}
