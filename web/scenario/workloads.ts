// The workloads the scenario panel offers: one table entry each. A workload appears here when
// the C core has it (wasm-core/src/sim_workloads.c); the panel also asks the running core which
// ones it has and disables any entry it lacks, so nothing is offered that cannot run.
//
// To add one: a row in WORKLOAD_TABLE with the core's name (as `blab sim --workload` spells
// it), a title and description for the menu, and how the scenario's zone size and CPU count
// become the core's per-task sizes (`size`). Everything else about a run (rounds, attempts,
// clear_page() lines, hackbench's switches) comes from runRequest() in ./request.ts.

import { CORE_LIMITS } from '../log/core-limits.ts';

/** A scenario's run as tasks of one size each; runRequest() takes it in the workload's own
 * fields (sizedInput(), web/scenario/request.ts). */
export interface WorkloadSize {
  /** tasks, one model CPU each (hackbench: its groups) */
  tasks: number;
  /** each task's size: pages it works on per round (the zone holds what the core needs for
   * them); hackbench: messages each sender sends; stress_highalloc: the zone's fill */
  size: number;
}

export interface WorkloadEntry {
  /** the core's name (blab_sim_workload_name) */
  readonly name: string;
  /** the menu text */
  readonly title: string;
  /** what the core's score counts, exactly as `blab sim --json` names it (score_unit) */
  readonly unit: string;
  /** one or two sentences under the menu: what the workload does, in the kernel's words */
  readonly description: string;
  /** what each scenario field means for this workload (shown as the fields' hints) */
  readonly params: { readonly pages: string; readonly cpus: string };
  /** a workload whose score counts part of each run while its other counters cover all of
   * it: the part scored, and what the rest is (the diff table's caption, the results card) */
  readonly partScored?: { readonly counts: string; readonly rest: string };
  /** the scenario's zone size and CPUs, as the core's per-task sizes */
  size(zonePages: number, cpus: number): WorkloadSize;
}
/** Messages per sender in a browser hackbench run: a few slabs' worth, a log of ~10^5 records. */
export const HACKBENCH_LOOPS = 200;

/** Pages a browser run of parallel_free or trunc handles in all: a run of a few seconds. */
export const BROWSER_MAX_PAGES = 1 << 16;
/** stress_highalloc: the fill (the core needs 4 pageblocks of 512 to leave one whole), the
 * attempts at order 9, and the CPUs (cpu 0 and the churners, 256 pages each). */
export const HIGHALLOC_PAGES = [2048, 8192] as const;
export const HIGHALLOC_ATTEMPTS = 8;
export const HIGHALLOC_MAX_CPUS = 8;
/** mixed: CPUs as for every model-machine workload (the default topology's 112); the core
 * gives the first ceil(cpus/2) to page_fault1 and the rest to huge pages, and several of those
 * may compact at once (the player keeps one compaction per CPU, web/log/state.ts). */
export const MIXED_MAX_CPUS = CORE_LIMITS.modelCpus;
/** mixed: the page_fault1 side's pages in all */
export const MIXED_MAX_PAGES = 1 << 13;

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

/** The zone's pages (at most BROWSER_MAX_PAGES) split over one task per CPU (at most the
 * modelled machine's). */
function perTask(zonePages: number, cpus: number): WorkloadSize {
  const n = clamp(cpus, 1, CORE_LIMITS.modelCpus);
  return { tasks: n, size: Math.max(1, Math.floor(Math.min(zonePages, BROWSER_MAX_PAGES) / n)) };
}

export const WORKLOAD_TABLE = [
  {
    name: 'page_fault1',
    unit: 'pages/s',
    title: 'will-it-scale page_fault1',
    description:
      'Each task maps memory, writes one byte per page (an order-0 page fault through its pcp list), ' +
      'then unmaps it all: frees fill the pcp list until count reaches high and free_pcppages_bulk() ' +
      'drains a batch back to the buddy lists, merging.',
    params: {
      pages: 'pages the tasks map in all (each maps this / CPUs); the zone adds room for the pcp lists',
      cpus: `one task per CPU, 1 to ${CORE_LIMITS.modelCpus}`,
    },
    size: (zonePages: number, cpus: number) => ({ tasks: cpus, size: Math.max(1, Math.floor(zonePages / cpus)) }),
  },
  {
    name: 'hackbench',
    unit: 'messages/s',
    title: 'hackbench (remote frees)',
    description:
      'Senders and receivers in groups: each message is a slab object allocated on the sender’s CPU ' +
      'and freed on the receiver’s, so the freelist links are written remotely; SLUB’s prefetch of the ' +
      'next free object (2011) is on for presets from v3.3 and off before (docs/slab.md).',
    params: {
      pages: `not used: each sender sends ${HACKBENCH_LOOPS} messages`,
      cpus: `groups, one CPU each, 2 to ${CORE_LIMITS.hackbenchMaxGroups}`,
    },
    // SLUB's freelist prefetch follows the preset (runRequest())
    size: (_zonePages: number, cpus: number) => ({ tasks: clamp(cpus, 2, CORE_LIMITS.hackbenchMaxGroups), size: HACKBENCH_LOOPS }),
  },
  {
    name: 'parallel_free',
    unit: 'pages freed/s',
    title: 'parallel free (many processes exit at once)',
    description:
      'Each task faults in its pages through the pcp list and puts them on the LRU list 15 at a time ' +
      'under lru_lock (set-up, not scored), waits at a barrier, then all unmap at once, as when a big ' +
      'mapping is freed at exit (seed 004): release_pages() takes 32 pages at a time off the LRU list ' +
      'under lru_lock, then frees them with free_unref_page() onto the pcp list, and free_pcppages_bulk() ' +
      'returns a batch to the buddy lists under zone->lock whenever count reaches high.',
    params: {
      pages: `pages the tasks free in all (each frees this / CPUs; at most ${BROWSER_MAX_PAGES} in a browser run)`,
      cpus: `one task per CPU, 1 to ${CORE_LIMITS.modelCpus}`,
    },
    partScored: { counts: 'the frees only', rest: 'the faults that set them up' },
    size: perTask,
  },
  {
    name: 'trunc',
    unit: 'pages truncated/s',
    title: 'mmtests trunc (truncate a page-cache file)',
    description:
      'Each task reads a sparse file into the page cache (set-up), then truncates it: ' +
      'truncate_inode_pages_range() clears page->mapping page by page, and release_pages() takes ' +
      'lru_lock once per pagevec of 15 and frees each page to the pcp list.',
    params: {
      pages: `pages of the files in all (each task truncates this / CPUs; at most ${BROWSER_MAX_PAGES} in a browser run)`,
      cpus: `one task (and file) per CPU, 1 to ${CORE_LIMITS.modelCpus}; seed 002 ran one`,
    },
    partScored: { counts: 'the truncates only (the first round a warm-up when there are two or more)', rest: 'the reads that fill the page cache' },
    size: perTask,
  },
  {
    name: 'stress_highalloc',
    unit: '% of attempts',
    title: 'mmtests stress-highalloc (order-9 blocks under churn)',
    description:
      'The zone is filled with order-0 pages and freed again except for long-lived ones, so some ' +
      'pageblocks are entirely free: an order-9 block only if the frees merged. Then cpu 0 asks for ' +
      `${HIGHALLOC_ATTEMPTS} order-9 blocks 1 ms apart, compacting when none is free, while the other CPUs churn order-0 pages.`,
    params: {
      pages: `the zone's fill, ${HIGHALLOC_PAGES[0]} to ${HIGHALLOC_PAGES[1]} pages (4 pageblocks at least)`,
      cpus: `cpu 0 allocates order 9, the others churn order-0 pages; 1 to ${HIGHALLOC_MAX_CPUS}`,
    },
    // the core's pages is the whole fill (its iterations, the attempts: docs/skipmerge.md)
    size: (zonePages: number, cpus: number) => ({
      tasks: clamp(cpus, 1, HIGHALLOC_MAX_CPUS),
      size: clamp(zonePages, HIGHALLOC_PAGES[0], HIGHALLOC_PAGES[1]),
    }),
  },
  {
    name: 'mixed',
    unit: 'order-0 pages/s',
    title: 'page_fault1 beside huge-page users (the skip-merge RFC\'s THP test)',
    description:
      'Half the CPUs run page_fault1 (order-0 faults through the pcp lists); the other half, while ' +
      'those run, allocate an order-9 block, compacting (deferred after a failure, as defer_compaction() ' +
      'does), clear it and free it; a failed attempt falls back to small pages.',
    params: {
      pages: `pages the page_fault1 tasks map in all, each this / its share of CPUs (at most ${MIXED_MAX_PAGES}); the core adds 1024 pages per huge-page task`,
      cpus: `2 to ${MIXED_MAX_CPUS}: page_fault1 on the first half (rounded up), huge pages on the rest, each compacting on its own`,
    },
    partScored: { counts: 'the page_fault1 tasks’ scored rounds', rest: 'the set-up that breaks up the zone and the warm-up' },
    size: (zonePages: number, cpus: number) => {
      const n = clamp(cpus, 2, MIXED_MAX_CPUS);
      return { tasks: n, size: Math.max(1, Math.floor(Math.min(zonePages, MIXED_MAX_PAGES) / Math.ceil(n / 2))) };
    },
  },
] as const satisfies readonly WorkloadEntry[];

export type WorkloadName = (typeof WORKLOAD_TABLE)[number]['name'];

export function workloadEntry(name: string): (WorkloadEntry & { readonly name: WorkloadName }) | undefined {
  return WORKLOAD_TABLE.find((w) => w.name === name);
}
