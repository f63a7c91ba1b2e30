// The counters of one model-machine run, read off the "stats key=value ..." line that
// blab_js_sim_ex() prints (wasm-core/wasm/api.c), and the figures the tables derive from them.

export interface SimStats {
  score: number;
  pagesScored: number;
  pagesTotal: number;
  zoneAcq: number;
  zoneHold: number;
  zoneBp: number;
  lruBp: number;
  missesLocked: number;
  prefetches: number;
  pfHit: number;
  pfLate: number;
  pfWasted: number;
  batch: number;
  high: number;
  /** present when the core prints them (a workload that has them): hackbench's messages and
   * virtual run length, the high-order workloads' attempts and successes */
  messages?: number;
  elapsed?: number;
  hiAttempts?: number;
  hiSuccess?: number;
  /** cycles of all attempts, compaction included; compactions run; pages they merged back;
   * the unusable free space index (thousandths) for the order before the attempts */
  hiCycles?: number;
  hiCompactions?: number;
  hiMerged?: number;
  hiUnusable?: number;
  /** the pcp lists over the run: rmqueue_bulk() refills and free_pcppages_bulk() drains in all,
   * the CPUs whose list was used (pages went on or came off it), and of those the ones never
   * drained and never refilled (pcp-warning.ts says what that means for a run) */
  pcpRefills?: number;
  pcpDrains?: number;
  pcpUsed?: number;
  pcpUndrained?: number;
  pcpUnrefilled?: number;
  /** hackbench's message cache (SLUB's own counter names in the comments) */
  slabAllocFast?: number; // ALLOC_FASTPATH
  slabAllocSlow?: number; // ALLOC_SLOWPATH
  slabFreeFast?: number; // FREE_FASTPATH
  slabFreeSlow?: number; // FREE_SLOWPATH
  slabFreeRemote?: number;
  /** prefetch_freepointer() calls, and those the cache model saw used in time, late, never */
  slabPrefetch?: number;
  slabPfHit?: number;
  slabPfLate?: number;
  slabPfWasted?: number;
}

/** Keys the stats line carries for some workloads only. */
const OPTIONAL: Record<string, keyof SimStats> = {
  messages: 'messages',
  elapsed_cycles: 'elapsed',
  hi_attempts: 'hiAttempts',
  hi_success: 'hiSuccess',
  hi_cycles: 'hiCycles',
  hi_compactions: 'hiCompactions',
  hi_merged: 'hiMerged',
  hi_unusable: 'hiUnusable',
  pcp_refills: 'pcpRefills',
  pcp_drains: 'pcpDrains',
  pcp_used: 'pcpUsed',
  pcp_undrained: 'pcpUndrained',
  pcp_unrefilled: 'pcpUnrefilled',
  slab_alloc_fast: 'slabAllocFast',
  slab_alloc_slow: 'slabAllocSlow',
  slab_free_fast: 'slabFreeFast',
  slab_free_slow: 'slabFreeSlow',
  slab_free_remote: 'slabFreeRemote',
  slab_prefetch: 'slabPrefetch',
  slab_pf_hit: 'slabPfHit',
  slab_pf_late: 'slabPfLate',
  slab_pf_wasted: 'slabPfWasted',
};

const KEYS: Record<string, keyof SimStats> = {
  score: 'score',
  pages_scored: 'pagesScored',
  pages_total: 'pagesTotal',
  zone_acq: 'zoneAcq',
  zone_hold: 'zoneHold',
  zone_bp: 'zoneBp',
  lru_bp: 'lruBp',
  misses_locked: 'missesLocked',
  prefetches: 'prefetches',
  pf_hit: 'pfHit',
  pf_late: 'pfLate',
  pf_wasted: 'pfWasted',
  batch: 'batch',
  high: 'high',
};

/** Throws if the line is missing or lacks a counter: a table must never show a guessed number. */
export function parseSimStats(stdout: string): SimStats {
  const line = stdout.split('\n').find((l) => l.startsWith('stats '));
  if (!line) throw new Error('the core printed no "stats" line');
  const out: Partial<SimStats> = {};
  for (const kv of line.slice(6).trim().split(/\s+/)) {
    const [k, v] = kv.split('=');
    const key = KEYS[k ?? ''] ?? OPTIONAL[k ?? ''];
    if (key && v !== undefined && /^\d+$/.test(v)) out[key] = Number(v);
  }
  for (const k of Object.values(KEYS)) if (out[k] === undefined) throw new Error(`the core's stats line has no ${k}`);
  return out as SimStats;
}

/** zone->lock acquisitions per page faulted */
export const acqPerPage = (s: SimStats): number => (s.pagesTotal ? s.zoneAcq / s.pagesTotal : 0);
/** cycles zone->lock is held per acquisition */
export const holdPerAcq = (s: SimStats): number => (s.zoneAcq ? s.zoneHold / s.zoneAcq : 0);
