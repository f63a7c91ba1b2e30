// A link to the kernel function a record's code path models, at the kernel the run's preset
// models, on Elixir (elixir.bootlin.com). Links search by identifier, so no line number is
// written down anywhere; a function the kernel of that tag called by an older name is linked
// under that name.
import type { Preset } from './lesson';

/**
 * The kernel tag a preset models, read off its name (v4.17-pick models 4.17 with one of its two
 * patches, v5.18-prefetch 5.18 with the prefetch kept); Aaron Lu's 2018 RFC (lu-rfc-*) was never
 * merged: it was written against v4.16.
 */
export function presetTag(preset: string): string | undefined {
  if (preset.startsWith('lu-rfc')) return 'v4.16';
  return /^v\d+\.\d+(?:\.\d+)?/.exec(preset)?.[0];
}

/** Elixir indexes Linux from its git history on, which begins at 2.6.12: older kernels link there. */
const OLDEST_INDEXED = 'v2.6.12';

/** Kernel functions that had another name at older tags: [name, the tag that introduced it, the name before]. */
const RENAMED: readonly [string, string, string][] = [
  ['free_unref_page_commit', 'v4.15', 'free_hot_cold_page'],
  ['__rmqueue_pcplist', 'v4.13', 'buffered_rmqueue'],
  ['free_pcppages_bulk', 'v2.6.32', 'free_pages_bulk'],
];

/** v2.6.25 < v4.13 < v4.15: tags compared by their numbers. */
function tagBefore(a: string, b: string): boolean {
  const n = (t: string) => t.replace(/^v/, '').split('.').map(Number);
  const [x, y] = [n(a), n(b)];
  for (let k = 0; k < Math.max(x.length, y.length); k++) {
    const d = (x[k] ?? 0) - (y[k] ?? 0);
    if (d !== 0) return d < 0;
  }
  return false;
}

export interface KernelLink {
  url: string;
  /** the function's name at that tag */
  name: string;
  tag: string;
  /** why the link is not exactly the preset's kernel, when it is not */
  note?: string;
}

/** A link to `fn` at the kernel a preset models (no preset: the current kernel). */
export function kernelLink(fn: string, preset: Preset | undefined): KernelLink {
  const modelled = (preset && presetTag(preset)) || 'latest';
  const tag = modelled !== 'latest' && tagBefore(modelled, OLDEST_INDEXED) ? OLDEST_INDEXED : modelled;
  let name = fn;
  if (tag !== 'latest') for (const [now, since, before] of RENAMED) if (fn === now && tagBefore(tag, since)) name = before;
  const notes: string[] = [];
  if (tag !== modelled) notes.push(`${modelled} predates the git history Elixir indexes; this is ${tag}`);
  if (preset?.startsWith('lu-rfc')) notes.push('the RFC was never merged; this is the kernel it was written against');
  if (name !== fn) notes.push(`called ${name} at ${tag}`);
  return { url: `https://elixir.bootlin.com/linux/${tag}/C/ident/${encodeURIComponent(name)}`, name, tag, ...(notes.length ? { note: notes.join('; ') } : {}) };
}
