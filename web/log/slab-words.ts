// The slab layer's records in words (docs/events.md, types 30..38), for describe.ts's short line
// and narrate.ts's sentence: which object moved, on which freelist, and who wrote its free
// pointer last, the thing lesson 5 is about.
import { CPU_NONE, EV, FLAG, type EventLog } from './events';

const hex = (n: number) => `0x${n.toString(16)}`;
const cpuName = (cpu: number) => (cpu === CPU_NONE ? 'no CPU' : `CPU ${cpu}`);
/** SLAB_CPU_SLAB's flags: how the CPU's slab changed */
const CPU_SLAB_HOW = ['takes a new slab as its cpu slab', 'takes a slab off the partial list as its cpu slab', "refills c->freelist from its slab's own freelist", 'gives its cpu slab back (deactivate_slab)'];

/** Where the line a prefetch fetched came from, read off the PREFETCH record just before. */
function prefetchLanding(log: EventLog, i: number): string {
  const p = i > 0 && log.type[i - 1] === EV.PREFETCH && log.pfn[i - 1] === log.pfn[i] ? i - 1 : -1;
  if (p < 0) return '';
  const cycles = log.arg0[p]!;
  return cycles === 0
    ? ': the line is already in this CPU\'s L1, so the prefetch has nothing to hide (a redundant prefetch)'
    : `: the line is ${cycles} cycles away (another CPU wrote it last) and travels while this CPU goes on`;
}

/** One slab record as the workbench's short line says it; undefined for other records. */
export function describeSlab(log: EventLog, i: number, who: string): string | undefined {
  const [a0, a1, pfn, flags] = [log.arg0[i]!, log.arg1[i]!, log.pfn[i]!, log.flags[i]!];
  switch (log.type[i]) {
    case EV.SLAB_CACHE_CREATE:
      return `kmem_cache ${a0} created: ${a1}-byte objects, ${pfn} per order-${log.order[i]} slab, freelist prefetch ${flags & 1 ? 'on' : 'off'}`;
    case EV.SLAB_ALLOC:
      return `${who}: slab_alloc() hands out object ${hex(pfn)}${flags & 1 ? ' (slow path)' : ' off c->freelist'}, tid ${a1}`;
    case EV.SLAB_FREE:
      return `${who}: slab_free() pushes object ${hex(pfn)} on its c->freelist, tid ${a1}`;
    case EV.SLAB_REMOTE_FREE:
      return `${who}: __slab_free() puts object ${hex(pfn)} on its slab's own freelist (the cpu slab of ${cpuName(a1)})`;
    case EV.SLAB_FREELIST_PREFETCH:
      return `${who}: prefetch_freepointer() of the next free object, ${hex(pfn)}`;
    case EV.SLAB_NEW:
      return `${who}: new_slab() at pfn ${hex(pfn)} order ${log.order[i]}, ${a1} objects`;
    case EV.SLAB_DISCARD:
      return `${who}: discard_slab() gives the empty slab at pfn ${hex(pfn)} back`;
    case EV.SLAB_CPU_SLAB:
      return `${who} ${CPU_SLAB_HOW[flags] ?? 'changes its cpu slab'} (pfn ${hex(pfn)}, ${a1} objects)`;
    case EV.SLAB_PARTIAL:
      return `${who}: slab pfn ${hex(pfn)} ${flags & 1 ? 'taken off' : 'put on'} the partial list (${a1} in use)`;
    default:
      return undefined;
  }
}

/** One slab record as the lesson player's sentence says it, cause first; undefined for others. */
export function narrateSlab(log: EventLog, i: number, who: string): string | undefined {
  const [a1, pfn, flags] = [log.arg1[i]!, log.pfn[i]!, log.flags[i]!];
  switch (log.type[i]) {
    case EV.SLAB_ALLOC:
      return flags & 1
        ? `${who}'s c->freelist is empty: ___slab_alloc() loads a freelist and hands out the object at ${hex(pfn)}.`
        : `${who} pops the object at ${hex(pfn)} off its c->freelist: get_freepointer() read the next free object's address from inside it, and one cmpxchg_double moved freelist and tid (now ${a1}).`;
    case EV.SLAB_FREE:
      return `${who} frees the object at ${hex(pfn)} onto its own c->freelist: it writes the old head into the object's free pointer, a fast-path free.`;
    case EV.SLAB_REMOTE_FREE:
      return `${who} frees the object at ${hex(pfn)}, which belongs to ${a1 === CPU_NONE ? 'a slab no CPU holds' : `${cpuName(a1)}'s slab`}: __slab_free() writes the slab's old freelist head into it, so that line is now dirty in ${who}'s cache.`;
    case EV.SLAB_FREELIST_PREFETCH:
      return `${who}: prefetch_freepointer() starts fetching the next free object, ${hex(pfn)}, whose free pointer the next allocation reads${prefetchLanding(log, i)}.`;
    default: {
      const d = describeSlab(log, i, who);
      return d && `${d.charAt(0).toUpperCase()}${d.slice(1)}.`;
    }
  }
}

/** A PREFETCH of a slab object (lesson 5): what it fetched and whether it could help. */
export function narrateSlabPrefetch(log: EventLog, i: number, who: string): string {
  const cycles = log.arg0[i]!;
  return cycles === 0
    ? `${who} prefetch()es the slab object at ${hex(log.pfn[i]!)}, but its line is already in this CPU's L1: a redundant prefetch.`
    : `${who} prefetch()es the slab object at ${hex(log.pfn[i]!)}; the line lands in ${cycles} cycles, while the CPU goes on.`;
}

/** whether an ACCESS or PREFETCH record is of a slab object rather than a struct page */
export const isSlabObject = (log: EventLog, i: number) => (log.flags[i]! & FLAG.SLAB_OBJECT) !== 0;
