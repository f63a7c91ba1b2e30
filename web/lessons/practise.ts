// "Practise this" at the end of a lesson: the exercise kind and level that practise what the
// lesson teaches (docs/exercises.md). The link is written out here, not built by the exercise
// pages' own code: those sit a layer above the lessons.
const PRACTISE: Record<string, { kind: string; level: number; preset?: string; what: string }> = {
  buddy: { kind: 'buddy', level: 2, what: 'allocations and frees on a zone’s free lists' },
  hotcold: { kind: 'pcp', level: 1, what: 'a per-cpu list’s refills and drains' },
  prefetch: { kind: 'result', level: 2, what: 'reading a compare of two kernels, and the counter that explains it' },
  singlepass: { kind: 'pcp', level: 2, what: 'refills and drains over a sequence' },
  slubprefetch: { kind: 'slab', level: 2, what: 'SLUB’s freelists on two CPUs' },
  skipmerge: { kind: 'buddy', level: 3, what: 'where a freed block merges and goes on its list' },
  capstone: { kind: 'pcp', level: 3, what: 'each refill and drain of a tuned list' },
  autotune: { kind: 'pcp', level: 3, preset: 'v6.7', what: '6.7’s growing refills and moving high' },
  tail: { kind: 'pcp', level: 1, preset: 'v6.7', what: 'how many pages one refill takes under zone->lock on 6.7' },
};

/** The exercise that practises lesson `id`, as a link and its words; undefined for none. */
export function practiseLink(id: string): { href: string; text: string } | undefined {
  const p = PRACTISE[id];
  if (!p) return undefined;
  return { href: `?exercise=${p.kind}&seed=1&level=${p.level}${p.preset ? `&preset=${p.preset}` : ''}`, text: `Practise this: ${p.what} (${p.kind}, level ${p.level})` };
}
