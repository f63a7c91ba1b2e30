// "What just happened", in one sentence, for the lesson player: the record at the current
// position told in the kernel's words, with what makes it happen (a list that reached `high`,
// an empty list, a buddy that is free). Built on describe.ts, which says one record plainly;
// here the sentence leads with the cause, the way a lecturer would say it.

import { ACCESS_OUTCOMES, CPU_NONE, EV, FLAG, LOCK_NAMES, pathId, splitHalves, type EventLog } from './events';
import { describeEvent, hexPfn, pcpHighMoved } from './describe';
import { isSlabObject, narrateSlab, narrateSlabPrefetch } from './slab-words';

/** drain_pages() empties a list whatever its count; decay_pcp_high() gives back what lies
 * above a list's lowered high */
const PATH_DRAIN = pathId('DRAIN');
const PATH_DECAY = pathId('DECAY');
const PATH_ALLOC_FAST = pathId('ALLOC_FAST');
const PATH_FREE_FAST = pathId('FREE_FAST');
/** how far back a sentence looks for the list's last addition */
const LOOK_BACK = 1 << 14;

/** The record that put pfn on cpu's pcp list before record i, if it is near. */
function pcpAddOf(log: EventLog, i: number, cpu: number, pfn: number): number | undefined {
  for (let k = i - 1; k >= Math.max(0, i - LOOK_BACK); k--) if (log.type[k] === EV.PCP_ADD && log.cpu[k] === cpu && log.pfn[k] === pfn) return k;
  return undefined;
}
/** access outcomes (blab_events.h BLAB_ACC_*) */
const OUTCOME = { PREFETCH_HIT: 5, PREFETCH_LATE: 6 } as const;

export interface NarrateContext {
  /** pcp high and batch as the run configured them, when known */
  pcp?: { high?: number | undefined; batch?: number | undefined };
  /** the log's kernel moves each CPU's high (6.7+: PCP_HIGH records), so no one high of the
   * run is the one a free was held to, and a free_high free drains below it */
  movingHigh?: boolean;
}

const cpuName = (cpu: number) => (cpu === CPU_NONE ? 'Zone set-up' : `CPU ${cpu}`);
const fmt = (n: number) => n.toLocaleString('en');
const upper = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** One sentence about record i; step 0 (nothing applied yet) has its own. */
export function narrate(log: EventLog, i: number | undefined, ctx: NarrateContext = {}): string {
  if (i === undefined) return 'Nothing has happened yet: the zone is not set up.';
  const type = log.type[i]!;
  const cpu = log.cpu[i]!;
  const who = cpuName(cpu);
  const pfn = log.pfn[i]!;
  const order = log.order[i]!;
  const a0 = log.arg0[i]!;
  const a1 = log.arg1[i]!;
  const flags = log.flags[i]!;
  const end = (flags & FLAG.END) !== 0;
  switch (type) {
    case EV.PCP_DRAIN: {
      if (end) return `${who}: free_pcppages_bulk() is done; the pcp list holds ${fmt(a1)} pages again.`;
      if (log.path[i] === PATH_DRAIN)
        return a0 < a1
          ? `drain_pages() empties ${who}'s pcp list a chunk at a time (6.10+): free_pcppages_bulk() returns ${fmt(a0)} of its ${fmt(a1)} pages to the buddy, then pcp->lock is dropped and taken again for the rest.`
          : `drain_pages() empties ${who}'s pcp list: free_pcppages_bulk() returns its ${fmt(a0)} pages to the buddy.`;
      if (log.path[i] === PATH_DECAY) return `decay_pcp_high() has lowered ${who}'s high below the ${fmt(a1)} pages on its list: free_pcppages_bulk() returns ${fmt(a0)} of them to the buddy.`;
      if (ctx.movingHigh) return `${who} frees a page onto a list of ${fmt(a1)}, at or over the high nr_pcp_high() holds it to now: free_pcppages_bulk() returns ${fmt(a0)} pages to the buddy.`;
      const high = ctx.pcp?.high;
      const reached = high !== undefined ? `reached high = ${fmt(high)}` : `reached high (count ${fmt(a1)})`;
      return `${who}'s list ${reached}: free_pcppages_bulk() returns ${fmt(a0)} pages to the buddy.`;
    }
    case EV.RMQUEUE_BULK:
      if (end) return `${who}: rmqueue_bulk() is done: it moved ${fmt(a1)} of ${fmt(a0)} blocks onto the pcp list under one zone->lock hold.`;
    {
      // 6.7+ refills batch << alloc_factor (nr_pcp_alloc()), not batch itself
      const batch = ctx.pcp?.batch;
      const asked = batch === undefined || a0 === Math.max(1, batch >> order) ? `batch = ${fmt(a0)}` : fmt(a0);
      return `${who}'s pcp list has no page of order ${order}: rmqueue_bulk() takes zone->lock once and moves ${asked} ${a0 === 1 ? 'block' : 'blocks'} from the buddy onto it.`;
    }
    case EV.SPLIT: {
      const { listed, kept, side } = splitHalves(log, i);
      // 2.4/2.5 listed the lower half and went on with the upper one: a block is handed out from its top
      const rest = side === 'lower' ? ` (2002's expand() keeps the upper half, pfn ${hexPfn(kept)})` : '';
      return `${who}: expand() halves the order-${order + 1} block at pfn ${hexPfn(pfn)}; its ${side} half, pfn ${hexPfn(listed)}, goes on free_area[${order}]${rest}.`;
    }
    case EV.MERGE: {
      const buddy = log.pfn[0]! + a0; // arg0 is the buddy's pfn minus the zone's start pfn
      return `${who}: __free_one_page() finds the buddy of pfn ${hexPfn(pfn)}, pfn ${hexPfn(buddy)} = ${hexPfn(pfn)} ^ (1 << ${order}), free: the two join into an order-${order + 1} block at pfn ${hexPfn(Math.min(pfn, buddy))}.`;
    }
    case EV.ACCESS: {
      const outcome = flags & FLAG.OUTCOME_MASK;
      const what = flags & FLAG.SLAB_OBJECT ? `the slab object at ${hexPfn(pfn)}` : `the struct page of pfn ${hexPfn(pfn)}`;
      if (outcome === OUTCOME.PREFETCH_HIT) return `${who} reads ${what}: its prefetch landed in time, a prefetch hit (${fmt(a0)} cycles).`;
      if (outcome === OUTCOME.PREFETCH_LATE) return `${who} reads ${what}: its prefetch is still in flight, a late prefetch: the CPU waits the remaining ${fmt(a0)} cycles.`;
      return `${who} ${flags & FLAG.WRITE ? 'writes' : 'reads'} ${what}: ${ACCESS_OUTCOMES[outcome] ?? 'unknown outcome'}, ${fmt(a0)} cycles.`;
    }
    case EV.PREFETCH:
      if (isSlabObject(log, i)) return narrateSlabPrefetch(log, i, who);
      if (a0 === 0) return `${who} prefetch()es the struct page of pfn ${hexPfn(pfn)}, but its line is already in this CPU's L1: a redundant prefetch.`;
      return `${who} prefetch()es the struct page of pfn ${hexPfn(pfn)}; the line lands in ${fmt(a0)} cycles, while the CPU goes on.`;
    case EV.PREFETCH_WASTED:
      return `${who}'s prefetch of pfn ${hexPfn(pfn)} was wasted: the line was evicted before anyone read it.`;
    case EV.LOCK_ACQUIRE:
      return a0 > 0
        ? `${who} spun ${fmt(a0)} cycles behind another CPU, then takes ${LOCK_NAMES[log.mt[i]!] ?? 'a lock'}.`
        : `${who} takes ${LOCK_NAMES[log.mt[i]!] ?? 'a lock'}; no one else held it.`;
    case EV.LOCK_RELEASE:
      // the plain machine has no clock: a hold of 0 says nothing
      return a0 > 0 ? `${who} drops ${LOCK_NAMES[log.mt[i]!] ?? 'a lock'} after holding it ${fmt(a0)} cycles.` : `${who} drops ${LOCK_NAMES[log.mt[i]!] ?? 'a lock'}.`;
    case EV.MARK:
      // the one marker the workloads write: a task's round boundary (value = the round)
      return a0 === 1 ? `${who} reaches round ${fmt(a1)} of its workload (a marker; no page moves).` : `${who}: workload marker ${a0} = ${a1} (no page moves).`;
    case EV.PCP_HIGH:
      return `${pcpHighMoved(log, i, who)}: 6.7 lets each list's high move between high_min and high_max.`;
    case EV.PCP_DEL: {
      // LIFO: an allocation takes the list's head, the page freed onto it most recently
      const added = pcpAddOf(log, i, cpu, pfn);
      if (log.path[i] === PATH_ALLOC_FAST && added !== undefined && log.path[added] === PATH_FREE_FAST)
        return `${who} takes pfn ${hexPfn(pfn)} off the head of its pcp list, a page it freed ${fmt(i - added)} records ago: the list is LIFO, so the page freed last is reused first, likely still in this CPU's cache.`;
      return `${upper(describeEvent(log, i).replace(/^cpu (\d+)/, 'CPU $1'))}.`;
    }
    case EV.ZONE_INIT:
      return `Zone set-up: ${fmt(a0)} pages from pfn ${hexPfn(pfn)}, ${a1} ${a1 === 1 ? 'CPU' : 'CPUs'}, orders 0 to ${order}.`;
    default:
      return narrateSlab(log, i, who) ?? `${upper(describeEvent(log, i).replace(/^cpu (\d+)/, 'CPU $1'))}.`;
  }
}
