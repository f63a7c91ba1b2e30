// The workloads the scenario panel offers: one table entry each. A workload appears here when
// the C core has it (wasm-core/src/sim_workloads.c); the panel also asks the running core which
// ones it has and disables any entry it lacks, so nothing is offered that cannot run.
//
// To add one: a row in WORKLOAD_TABLE with the core's name (as `blab sim --workload` spells
// it), a title and description for the menu, and how the scenario's zone size and CPU count
// become the core's per-task arguments (`request`).

export interface WorkloadRequest {
  /** model CPUs, one task each */
  cpus: number;
  /** pages each task works on per round (the zone holds what the core needs for them) */
  pages: number;
  /** rounds; the first is a warm-up when there are two or more */
  iterations: number;
}

export interface WorkloadEntry {
  /** the core's name (blab_sim_workload_name) */
  readonly name: string;
  /** the menu text */
  readonly title: string;
  /** one or two sentences under the menu: what the workload does, in the kernel's words */
  readonly description: string;
  /** what each scenario field means for this workload (shown as the fields' hints) */
  readonly params: { readonly pages: string; readonly cpus: string };
  /** the scenario's zone size, CPUs and preset, as the core's arguments */
  request(zonePages: number, cpus: number, preset: string): WorkloadRequest;
  /** the run's one-line summary, from what the core printed (default: as printed) */
  summary?(req: WorkloadRequest, printed: string): string;
}

/** Presets older than the 2011 change (3.3): SLUB's fast path did not prefetch then. */
const BEFORE_SLUB_PREFETCH = new Set(['v2.5.44', 'v2.5.45', 'v2.6.25']);
/** Messages per sender in a browser hackbench run: a few slabs' worth, a log of ~10^5 records. */
export const HACKBENCH_LOOPS = 200;

export const WORKLOAD_TABLE = [
  {
    name: 'page_fault1',
    title: 'will-it-scale page_fault1',
    description:
      'Each task maps memory, writes one byte per page (an order-0 page fault through its pcp list), ' +
      'then unmaps it all: frees fill the pcp list until count reaches high and free_pcppages_bulk() ' +
      'drains a batch back to the buddy lists, merging.',
    params: {
      pages: 'pages the tasks map in all (each maps this / CPUs); the zone adds room for the pcp lists',
      cpus: 'one task per CPU, 1 to 112',
    },
    request: (zonePages: number, cpus: number) => ({ cpus, pages: Math.max(1, Math.floor(zonePages / cpus)), iterations: 1 }),
  },
  {
    name: 'hackbench',
    title: 'hackbench (remote frees)',
    description:
      'Senders and receivers in groups: each message is a slab object allocated on the sender’s CPU ' +
      'and freed on the receiver’s, so the freelist links are written remotely; SLUB’s prefetch of the ' +
      'next free object (2011) is on for presets from v3.3 and off before (docs/slab.md).',
    params: {
      pages: `not used: each sender sends ${HACKBENCH_LOOPS} messages`,
      cpus: 'groups, one CPU each, 2 to 112',
    },
    // iterations carries hackbench's flags: bit 0 = SLUB freelist prefetch
    request: (_zonePages: number, cpus: number, preset: string) => ({
      cpus: Math.max(2, Math.min(112, cpus)),
      pages: HACKBENCH_LOOPS,
      iterations: BEFORE_SLUB_PREFETCH.has(preset) ? 0 : 1,
    }),
    summary: (req: WorkloadRequest, printed: string) =>
      `hackbench, ${req.cpus} groups x ${req.pages} messages, freelist prefetch ${req.iterations & 1 ? 'on' : 'off'}: ${printed}`,
  },
] as const satisfies readonly WorkloadEntry[];

export type WorkloadName = (typeof WORKLOAD_TABLE)[number]['name'];

export function workloadEntry(name: string): WorkloadEntry | undefined {
  return WORKLOAD_TABLE.find((w) => w.name === name);
}
