// A preset's switches as the core names them (struct blab_strategy; `blab presets NAME` prints
// the same), for the scenario form's hint under the preset menu: a student sees which of the
// kernel's mechanisms each preset turns on, not only its title.
import { CORE_PRESETS } from './core-schema';

/** the schema's camelCase key as the core spells it: pcpMaxOrder -> pcp_max_order */
const coreName = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** The switches a preset sets (the nonzero ones), as [core name, value] in the core's order. */
export function presetSwitches(name: string): [string, number][] {
  const p = CORE_PRESETS.find((q) => q.name === name);
  if (!p) return [];
  return Object.entries(p.strategy)
    .filter(([, v]) => v !== 0)
    .map(([k, v]) => [coreName(k), v]);
}

/** The hint: what the preset models (its commits), then its switches. '' for no such preset. */
export function presetHint(name: string): string {
  const p = CORE_PRESETS.find((q) => q.name === name);
  if (!p) return '';
  const sw = presetSwitches(name);
  return `${p.describe}. Switches: ${sw.length ? sw.map(([k, v]) => `${k} ${v}`).join(', ') : 'none'}.`;
}
