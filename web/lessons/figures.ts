// Which paragraph each figure of a step stands beside: the first one that talks about it (its
// kernel names and words, below). The page puts that paragraph and its figures in one row, side
// by side on a wide screen and one under the other on a narrow one. Plain data: Vitest checks it.
import type { LessonViewId } from './lesson';

/** What a paragraph says when it discusses a figure. */
export const VIEW_MENTIONS: Record<LessonViewId, RegExp> = {
  'free-areas': /free_area|free areas|nr_free|free lists?\b/i,
  'buddy-tree': /buddy tree|\bbuddies\b|\bbuddy pfn|expand\(\)|\btree\b/i,
  'mem-map': /mem_map|memory map|every pfn/i,
  pcp: /\bpcp\b|per-CPU (?:list|stack)|\bhigh\b|\bbatch\b|hot list|cold list/i,
  'lock-timeline': /timeline|spinning|\bspins?\b|vermillion|queue on|zone->lock/i,
  buddyinfo: /buddyinfo/i,
  cpustats: /counters?\b|per-CPU counters/i,
  prefetches: /pf_hit|redundant|prefetch(?:es)? (?:that )?(?:landed|arrived)/i,
  slab: /freelist|free pointer|\bslab\b|kmem_cache_cpu/i,
  latency: /latency|\bp99|\bp50|histogram|funclatency|\btail\b/i,
};

/**
 * For each view (in the step's order), the index of the paragraph it goes beside: the first
 * that mentions it, else the first paragraph.
 */
export function assignFigures(paragraphs: readonly string[], views: readonly LessonViewId[]): number[] {
  return views.map((v) => {
    const k = paragraphs.findIndex((p) => VIEW_MENTIONS[v].test(p));
    return k < 0 ? 0 : k;
  });
}
