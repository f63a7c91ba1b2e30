// One sentence per record, in the kernel's own words, for the "current event" line.

import {
  ACCESS_OUTCOMES,
  CPU_NONE,
  EV,
  FLAG,
  LOCK_NAMES,
  MIGRATETYPES,
  pathId,
  splitHalves,
  eventName,
  type EventLog,
} from './events';
import { describeSlab } from './slab-words';

const mtName = (mt: number) => MIGRATETYPES[mt] ?? `mt ${mt}`;
const lockName = (id: number) => LOCK_NAMES[id] ?? `lock ${id}`;
export const hexPfn = (pfn: number) => `0x${pfn.toString(16)}`;

const HIGH_MOVED_BY: ReadonlyMap<number, string> = new Map([
  [pathId('RMQUEUE_BULK'), 'nr_pcp_alloc() raises its pcp high before the refill'],
  [pathId('FREE_FAST'), 'nr_pcp_high() moves its pcp high on a free'],
  [pathId('DECAY'), 'decay_pcp_high() lowers its pcp high'],
]);

/** A PCP_HIGH record (6.7+) in words: where the list's high starts, or what moved it. */
export function pcpHighMoved(log: EventLog, i: number, who: string): string {
  const [high, old] = [log.arg0[i]!, log.arg1[i]!];
  if (log.path[i] === pathId('ZONE_INIT')) return `${who}'s pcp high starts at high_min = ${high.toLocaleString('en')}`;
  const by = HIGH_MOVED_BY.get(log.path[i]!) ?? 'its pcp high moves';
  return `${who}: ${by} from ${old.toLocaleString('en')} to ${high.toLocaleString('en')}`;
}

export function describeEvent(log: EventLog, i: number): string {
  const type = log.type[i]!;
  const pfn = log.pfn[i]!;
  const order = log.order[i]!;
  const cpu = log.cpu[i]!;
  const mt = log.mt[i]!;
  const flags = log.flags[i]!;
  const a0 = log.arg0[i]!;
  const a1 = log.arg1[i]!;
  const who = cpu === CPU_NONE ? 'set-up' : `cpu ${cpu}`;
  const block = `pfn ${hexPfn(pfn)} order ${order}`;
  const end = (flags & FLAG.END) !== 0;
  switch (type) {
    case EV.ZONE_INIT:
      return `zone set-up: ${a0} pages from pfn ${hexPfn(pfn)}, ${a1} CPUs, MAX_PAGE_ORDER ${order}, pageblock_order ${flags}`;
    case EV.PAGEBLOCK_MT:
      return `pageblock at pfn ${hexPfn(pfn)} is now ${mtName(mt)}`;
    case EV.BUDDY_ADD:
      return (
        `${who}: block ${block} added to free_area[${order}].free_list[${mtName(mt)}] at the ${flags & FLAG.TAIL ? 'tail' : 'head'}` +
        (flags & FLAG.MERGE_SKIPPED ? ' (merge skipped)' : '')
      );
    case EV.BUDDY_DEL:
      return `${who}: block ${block} taken off free_area[${order}].free_list[${mtName(mt)}]`;
    case EV.PCP_ADD:
      return `${who}: block ${block} put on its pcp list (${mtName(mt)}${flags & FLAG.COLD ? ', cold' : ''}) at the ${flags & FLAG.TAIL ? 'tail' : 'head'}`;
    case EV.PCP_DEL:
      return `${who}: block ${block} taken off its pcp list`;
    case EV.ALLOC:
      return `${who}: block ${block} handed to the caller`;
    case EV.FREE:
      return `${who}: the caller frees block ${block}`;
    case EV.SPLIT: {
      const { listed, side } = splitHalves(log, i);
      return `${who}: expand() halves the order-${order + 1} block at pfn ${hexPfn(pfn)}; the ${side} half (pfn ${hexPfn(listed)}) goes to free_area[${order}]`;
    }
    case EV.MERGE:
      return `${who}: __free_one_page() merges pfn ${hexPfn(pfn)} with its buddy (pfn ^ (1 << ${order})) into an order-${order + 1} block`;
    case EV.RMQUEUE_BULK:
      return end
        ? `${who}: rmqueue_bulk() done: got ${a1} of ${a0} pages`
        : `${who}: rmqueue_bulk() refills the pcp list with batch = ${a0} pages under one zone->lock hold`;
    case EV.PCP_DRAIN:
      if (end) return `${who}: free_pcppages_bulk() done: count is now ${a1}`;
      if (log.path[i] === pathId('DRAIN'))
        // 6.10+ (55f77df7d715): at most batch << 5 pages a call, pcp->lock taken again for the rest
        return a0 < a1
          ? `${who}: drain_pages(): free_pcppages_bulk() drains ${a0} of the ${a1} pages, one chunk under this pcp->lock hold`
          : `${who}: drain_pages(): free_pcppages_bulk() drains all ${a0} pages (count ${a1})`;
      if (log.path[i] === pathId('DECAY')) return `${who}: decay_pcp_high(): free_pcppages_bulk() drains ${a0} pages (count ${a1}, over the lowered high)`;
      return `${who}: free_pcppages_bulk() drains ${a0} pages (count ${a1} at or over high)`;
    case EV.LOCK_ACQUIRE:
      return a0 > 0
        ? `${who} takes ${lockName(mt)} after spinning ${a0} cycles`
        : `${who} takes ${lockName(mt)} (uncontended)`;
    case EV.LOCK_RELEASE:
      return `${who} drops ${lockName(mt)} after holding it ${a0} cycles`;
    case EV.ACCESS: {
      const what = flags & FLAG.SLAB_OBJECT ? `slab object ${hexPfn(pfn)}` : `struct page of pfn ${hexPfn(pfn)}`;
      const outcome = ACCESS_OUTCOMES[flags & FLAG.OUTCOME_MASK] ?? 'unknown outcome';
      return `${who} ${flags & FLAG.WRITE ? 'writes' : 'reads'} ${what}: ${outcome}, ${a0} cycles`;
    }
    case EV.PREFETCH:
      return `${who} prefetch()es the ${flags & FLAG.SLAB_OBJECT ? 'slab object at' : 'struct page of pfn'} ${hexPfn(pfn)}; ${a0 === 0 ? 'already in its L1 (redundant)' : `it lands in ${a0} cycles`}`;
    case EV.PREFETCH_WASTED:
      return `${who}: the prefetched line of pfn ${hexPfn(pfn)} was evicted before use (wasted)`;
    case EV.FALLBACK:
      return `${who}: __rmqueue_fallback() steals block ${block} of ${mtName(mt)} for ${mtName(a0)}`;
    case EV.ALLOC_FAIL:
      return `${who}: no free block of order ${order} (error ${a0})`;
    case EV.MARK:
      return `${who}: workload marker ${a0} = ${a1}`;
    case EV.LOG_FULL:
      return 'the log reached its bound here; the run stopped';
    case EV.PCP_HIGH:
      return pcpHighMoved(log, i, who);
    case EV.TRACE_ZONE:
      return `imported kernel trace: pfns ${hexPfn(pfn)} onwards, ${a0} pages, ${a1} CPUs; where each page sat when the recording began is unknown`;
    case EV.TRACE_UNKNOWN:
      return `${who}: block ${block} is freed but was allocated before the recording began`;
    case EV.TRACE_FREE_BATCHED:
      return `${who}: block ${block} is freed as part of a batch (mm_page_free_batched)`;
    case EV.TRACE_EXTFRAG:
      return `${who}: __rmqueue_fallback() takes an order-${a1} block of ${mtName(mt)} for an order-${order} ${mtName(a0)} request${flags & 1 ? ', and the pageblock changes owner' : ''}${flags & 2 ? ' (fragmenting)' : ''}`;
    default:
      return describeSlab(log, i, who) ?? eventName(type);
  }
}
