// The compare view's URL state, in the query string:
//
//   ?compare=v4.16,v4.17&cpus=56&pages=64&seed=1&tasks=1,8,28,56&t=123456
//   (&workload=parallel_free|trunc: another order-0 workload; page_fault1 when absent)
//
// Each configuration is a preset, optionally with pcp sizes: `v4.16:batch=7:high=42`. `t` is
// the shared playback position in virtual cycles. User input: bounded, every key known, each
// problem with its own message.
import { PRESETS, type Preset } from '../player/url';
import type { SimConfig } from '../lessons/lesson';

export const COMPARE_LIMITS = {
  maxQuery: 600,
  minConfigs: 2,
  maxConfigs: 4,
  maxCpus: 112,
  /** pages per task; cpus x pages is bounded so a replayed run stays small */
  maxPages: 4096,
  maxFaults: 1 << 15,
  maxTaskPoints: 8,
  maxBatch: 4096,
  maxHigh: 1 << 16,
} as const;

/**
 * The workloads a compare may run: the order-0 ones whose arguments mean the same thing (one
 * task per CPU, pages per task per round, two rounds) and whose score is pages per second, so
 * the columns, the diff table and the throughput chart read alike (docs/sim.md). hackbench and
 * the high-order workloads score something else and stay in the lessons and the player.
 */
export const COMPARE_WORKLOADS = {
  page_fault1: { title: 'will-it-scale page_fault1', score: 'pages faulted / s' },
  parallel_free: { title: 'parallel free (all tasks free at once)', score: 'pages freed / s' },
  trunc: { title: 'mmtests trunc (truncate page-cache files)', score: 'pages truncated / s' },
} as const;
export type CompareWorkload = keyof typeof COMPARE_WORKLOADS;

export interface CompareState {
  workload: CompareWorkload;
  configs: SimConfig[];
  cpus: number;
  pages: number;
  seed: number;
  tasks: number[];
  /** playback position, virtual cycles */
  t: number;
}

export const DEFAULT_COMPARE: CompareState = {
  workload: 'page_fault1',
  configs: [
    { label: 'v4.16', preset: 'v4.16' },
    { label: 'v4.17', preset: 'v4.17' },
  ],
  cpus: 56,
  pages: 64,
  seed: 1,
  tasks: [1, 8, 28, 56],
  t: 0,
};

export class CompareUrlError extends Error {
  override name = 'CompareUrlError';
}

function int(key: string, raw: string, min: number, max: number): number {
  if (!/^\d{1,16}$/.test(raw)) throw new CompareUrlError(`${key}=${raw.slice(0, 32)}: expected a whole number`);
  const v = Number(raw);
  if (v < min || v > max) throw new CompareUrlError(`${key}=${raw.slice(0, 32)}: must be between ${min} and ${max}`);
  return v;
}

export function parseConfig(text: string): SimConfig {
  const [preset, ...opts] = text.split(':');
  if (!preset || !Object.hasOwn(PRESETS, preset))
    throw new CompareUrlError(`configuration "${text.slice(0, 40)}": unknown preset; one of ${Object.keys(PRESETS).join(', ')}`);
  const c: SimConfig = { label: text, preset: preset as Preset };
  for (const o of opts) {
    const [k, v] = o.split('=');
    if (k === 'batch' && v !== undefined && c.batch === undefined) c.batch = int('batch', v, 1, COMPARE_LIMITS.maxBatch);
    else if (k === 'high' && v !== undefined && c.high === undefined) c.high = int('high', v, 1, COMPARE_LIMITS.maxHigh);
    else throw new CompareUrlError(`configuration "${text.slice(0, 40)}": "${o.slice(0, 20)}" is not batch=N or high=N (each at most once)`);
  }
  if (c.batch !== undefined && c.high !== undefined && c.high < c.batch)
    throw new CompareUrlError(`configuration "${text.slice(0, 40)}": high must be at least batch`);
  return c;
}

export function formatConfig(c: SimConfig): string {
  return `${c.preset}${c.batch !== undefined ? `:batch=${c.batch}` : ''}${c.high !== undefined ? `:high=${c.high}` : ''}`;
}

/** Parses location.search (with or without '?'); `compare` must be present (it picks the page). */
export function parseCompare(search: string): CompareState {
  const q = search.startsWith('?') ? search.slice(1) : search;
  if (q.length > COMPARE_LIMITS.maxQuery) throw new CompareUrlError(`the link is ${q.length} characters; the limit is ${COMPARE_LIMITS.maxQuery}`);
  const s: CompareState = structuredClone(DEFAULT_COMPARE);
  const seen = new Set<string>();
  for (const part of q.split('&')) {
    if (!part) continue;
    const eq = part.indexOf('=');
    const key = eq < 0 ? part : part.slice(0, eq);
    let raw: string;
    try {
      raw = decodeURIComponent(eq < 0 ? '' : part.slice(eq + 1));
    } catch {
      throw new CompareUrlError(`${key.slice(0, 20)}: the value is not valid URL encoding`);
    }
    if (seen.has(key)) throw new CompareUrlError(`${key.slice(0, 20)} appears twice`);
    seen.add(key);
    switch (key) {
      case 'compare': {
        if (raw === '') break; // the defaults
        const list = raw.split(',');
        if (list.length < COMPARE_LIMITS.minConfigs || list.length > COMPARE_LIMITS.maxConfigs)
          throw new CompareUrlError(`compare: ${list.length} configurations; give ${COMPARE_LIMITS.minConfigs} to ${COMPARE_LIMITS.maxConfigs}`);
        s.configs = list.map(parseConfig);
        if (new Set(s.configs.map((c) => c.label)).size !== s.configs.length) throw new CompareUrlError('compare: the same configuration twice');
        break;
      }
      case 'workload':
        if (!Object.hasOwn(COMPARE_WORKLOADS, raw))
          throw new CompareUrlError(`workload=${raw.slice(0, 32)}: one of ${Object.keys(COMPARE_WORKLOADS).join(', ')}`);
        s.workload = raw as CompareWorkload;
        break;
      case 'cpus':
        s.cpus = int(key, raw, 1, COMPARE_LIMITS.maxCpus);
        break;
      case 'pages':
        s.pages = int(key, raw, 1, COMPARE_LIMITS.maxPages);
        break;
      case 'seed':
        s.seed = int(key, raw, 0, 0xffffffff);
        break;
      case 't':
        s.t = int(key, raw, 0, Number.MAX_SAFE_INTEGER);
        break;
      case 'tasks': {
        const list = raw.split(',');
        if (list.length < 1 || list.length > COMPARE_LIMITS.maxTaskPoints) throw new CompareUrlError(`tasks: 1 to ${COMPARE_LIMITS.maxTaskPoints} values`);
        s.tasks = list.map((x) => int('tasks', x, 1, COMPARE_LIMITS.maxCpus));
        break;
      }
      default:
        throw new CompareUrlError(`unknown key "${key.slice(0, 32)}"`);
    }
  }
  if (!seen.has('compare')) throw new CompareUrlError('not a compare link (no "compare" key)');
  if (s.cpus * s.pages > COMPARE_LIMITS.maxFaults)
    throw new CompareUrlError(`cpus x pages = ${s.cpus * s.pages}; the compare view replays at most ${COMPARE_LIMITS.maxFaults} page faults per run`);
  return s;
}

export function formatCompare(s: CompareState): string {
  return (
    `?compare=${s.configs.map(formatConfig).join(',')}${s.workload === 'page_fault1' ? '' : `&workload=${s.workload}`}` +
    `&cpus=${s.cpus}&pages=${s.pages}&seed=${s.seed}` +
    `&tasks=${s.tasks.join(',')}&t=${s.t}`
  );
}
