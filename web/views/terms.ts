// Terms a lesson's prose uses that name a part of a figure: `zone->lock`, `pcp->high`, a pfn,
// `free_area[3]`. The lesson page finds them in the text; each view says which it can point
// at (registry.ts) and outlines that part while the reader points at the word.

export type FigureTerm =
  | { kind: 'lock'; lock: 'zone->lock' | 'lru_lock' }
  | { kind: 'pcp'; part: 'high' | 'batch' | 'count' }
  | { kind: 'pfn'; pfn: number }
  | { kind: 'order'; order: number }
  /** a name a whole figure is about: nr_free, /proc/buddyinfo, expand(), pf_hit ... */
  | { kind: 'name'; name: string };

/** The term a piece of prose names, or undefined. `code` is the text of a `code` span. */
export function parseTerm(code: string): FigureTerm | undefined {
  const t = code.trim().replace(/\(\)$/, '');
  if (t === 'zone->lock' || t === 'lru_lock') return { kind: 'lock', lock: t };
  const pcp = /^(?:pcp->)?(high|batch|count)$/.exec(t);
  if (pcp) return { kind: 'pcp', part: pcp[1] as 'high' | 'batch' | 'count' };
  const fa = /^free_area\[(\d+)\]$/.exec(t);
  if (fa) return { kind: 'order', order: Number(fa[1]) };
  const pfn = /^pfn (0x[0-9a-f]+|\d+)$/i.exec(t);
  if (pfn) return { kind: 'pfn', pfn: Number(pfn[1]) };
  if (/^[\w/[\]>.-]+$/.test(t)) return { kind: 'name', name: t.replace(/\[\]$/, '') };
  return undefined;
}

export const termKey = (t: FigureTerm): string =>
  t.kind === 'lock' ? t.lock : t.kind === 'pcp' ? `pcp->${t.part}` : t.kind === 'pfn' ? `pfn ${t.pfn}` : t.kind === 'order' ? `free_area[${t.order}]` : t.name;
