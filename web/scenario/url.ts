// URL hash state: scenario + step, so any moment can be shared and reloaded exactly.
//
//   #pages=4096&cpus=4&preset=v5.18&workload=page_fault1&seed=1&step=120
//
// The hash is user input: it is bounded in length, every key is known, every number is an
// integer in range, and each problem gets its own message (a hash asking for 2^40 pages gets
// an error, never a frozen tab).

import { CORE_LIMITS } from '../log/core-limits.ts';
import { CORE_PRESETS } from './core-schema.ts';
import { WORKLOAD_TABLE, type WorkloadName } from './workloads.ts';

/** The core's presets (generated from wasm-core/src/mm/preset.c), name -> menu label. */
export const PRESETS = Object.fromEntries(CORE_PRESETS.map((p) => [p.name, `${p.name}: ${p.title}`])) as Record<
  (typeof CORE_PRESETS)[number]['name'],
  string
>;
export type Preset = keyof typeof PRESETS;

/** The workloads a link may name: web/scenario/workloads.ts, one entry each (name -> menu title). */
export const WORKLOADS: Readonly<Record<WorkloadName, string>> = Object.fromEntries(
  WORKLOAD_TABLE.map((w) => [w.name, w.title]),
) as Record<WorkloadName, string>;
export type Workload = WorkloadName;

export interface Scenario {
  pages: number;
  cpus: number;
  preset: Preset;
  workload: Workload;
  seed: number;
  /** CONFIG_PCP_BATCH_SCALE_MAX (52166607ecc9), 0..6, 6.7+ presets only; absent: the preset's (5) */
  pcpBatchScaleMax?: number;
}

/** CONFIG_PCP_BATCH_SCALE_MAX's range in mm/Kconfig (the core's BLAB_PCP_BATCH_SCALE_MAX_LIMIT). */
export const BATCH_SCALE_MAX_LIMIT = 6;

/** The preset's CONFIG_PCP_BATCH_SCALE_MAX (5 on 6.7+), or undefined where the option did not
 * exist yet: it came with 6.7 (52166607ecc9), and the core refuses it on an older preset. */
export function presetBatchScaleMax(preset: string): number | undefined {
  const v = CORE_PRESETS.find((p) => p.name === preset)?.strategy.pcpBatchScaleMax;
  return v ? v : undefined;
}

/** Why a scale cannot go with a preset, or undefined when it can. */
export function batchScaleProblem(preset: string, scale: number): string | undefined {
  if (presetBatchScaleMax(preset) === undefined) return `preset ${preset} has no CONFIG_PCP_BATCH_SCALE_MAX (it came with 6.7, 52166607ecc9)`;
  if (!Number.isInteger(scale) || scale < 0 || scale > BATCH_SCALE_MAX_LIMIT) return `CONFIG_PCP_BATCH_SCALE_MAX is 0..${BATCH_SCALE_MAX_LIMIT} (mm/Kconfig)`;
  return undefined;
}

export interface UrlState {
  scenario: Scenario;
  step: number;
}

/** Pages and CPUs are the core's (web/log/core-limits.ts): a zone of cpus x pages mapped pages
 * on the default modelled machine, whose CPUs the scenario form offers. */
export const URL_LIMITS = {
  maxHashLength: 512,
  minPages: 16,
  maxPages: CORE_LIMITS.simMaxMapped,
  maxCpus: CORE_LIMITS.modelCpus,
  maxSeed: 0xffffffff,
  maxStep: 2 ** 31 - 1,
} as const;

export const DEFAULT_SCENARIO: Scenario = {
  pages: 4096,
  cpus: 4,
  preset: 'v5.18', // BLAB_DEFAULT_PRESET
  workload: 'page_fault1',
  seed: 1,
};

export class UrlStateError extends Error {
  override name = 'UrlStateError';
}

function int(key: string, raw: string, min: number, max: number): number {
  if (!/^[0-9]{1,16}$/.test(raw)) {
    throw new UrlStateError(`${key}=${raw.slice(0, 32)}: expected a whole number`);
  }
  const v = Number(raw);
  if (v < min || v > max) throw new UrlStateError(`${key}=${raw}: must be between ${min} and ${max}`);
  return v;
}

/** Parses a location hash (with or without the leading '#'). An empty hash gives the defaults. */
export function parseHash(hash: string): UrlState {
  const h = hash.startsWith('#') ? hash.slice(1) : hash;
  if (h.length > URL_LIMITS.maxHashLength) {
    throw new UrlStateError(`the URL state is ${h.length} characters; the limit is ${URL_LIMITS.maxHashLength}`);
  }
  const scenario: Scenario = { ...DEFAULT_SCENARIO };
  let step = 0;
  if (h === '') return { scenario, step };
  const seen = new Set<string>();
  for (const part of h.split('&')) {
    const eq = part.indexOf('=');
    if (eq <= 0) throw new UrlStateError(`"${part.slice(0, 32)}": expected key=value`);
    const key = part.slice(0, eq);
    let raw: string;
    try {
      raw = decodeURIComponent(part.slice(eq + 1));
    } catch {
      throw new UrlStateError(`${key}: the value is not valid URL encoding`);
    }
    if (seen.has(key)) throw new UrlStateError(`${key} appears twice`);
    seen.add(key);
    switch (key) {
      case 'pages': {
        scenario.pages = int(key, raw, URL_LIMITS.minPages, URL_LIMITS.maxPages);
        if ((scenario.pages & (scenario.pages - 1)) !== 0) {
          throw new UrlStateError(`pages=${raw}: must be a power of two`);
        }
        break;
      }
      case 'cpus':
        scenario.cpus = int(key, raw, 1, URL_LIMITS.maxCpus);
        break;
      case 'seed':
        scenario.seed = int(key, raw, 0, URL_LIMITS.maxSeed);
        break;
      case 'step':
        step = int(key, raw, 0, URL_LIMITS.maxStep);
        break;
      case 'preset':
        if (!Object.hasOwn(PRESETS, raw)) {
          throw new UrlStateError(`preset=${raw.slice(0, 32)}: unknown; one of ${Object.keys(PRESETS).join(', ')}`);
        }
        scenario.preset = raw as Preset;
        break;
      case 'pcp_batch_scale_max':
        scenario.pcpBatchScaleMax = int(key, raw, 0, BATCH_SCALE_MAX_LIMIT);
        break;
      case 'workload':
        if (!Object.hasOwn(WORKLOADS, raw)) {
          throw new UrlStateError(
            `workload=${raw.slice(0, 32)}: unknown; one of ${Object.keys(WORKLOADS).join(', ')}`,
          );
        }
        scenario.workload = raw as Workload;
        break;
      default:
        throw new UrlStateError(`unknown key "${key.slice(0, 32)}"`);
    }
  }
  // checked once every key is read: the preset may come after the scale
  if (scenario.pcpBatchScaleMax !== undefined) {
    const why = batchScaleProblem(scenario.preset, scenario.pcpBatchScaleMax);
    if (why) throw new UrlStateError(`pcp_batch_scale_max=${scenario.pcpBatchScaleMax}: ${why}`);
  }
  return { scenario, step };
}

export function formatHash(u: UrlState): string {
  const s = u.scenario;
  return (
    `#pages=${s.pages}&cpus=${s.cpus}&preset=${encodeURIComponent(s.preset)}` +
    `&workload=${encodeURIComponent(s.workload)}&seed=${s.seed}` +
    (s.pcpBatchScaleMax !== undefined ? `&pcp_batch_scale_max=${s.pcpBatchScaleMax}` : '') +
    `&step=${u.step}`
  );
}
