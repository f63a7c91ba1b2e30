// TEST FIXTURE ONLY. A tiny reference buddy + pcp allocator in TypeScript that writes event
// logs following docs/events.md, so the player and views can be tested at any size before the
// WASM engine lands. Its numbers (times, spins, cache outcomes) are made up: nothing here is a
// result, and the app never imports this file (only tests and the e2e test hook do).

import { CPU_NONE, EV, FLAG, encodeEvents, type EventRecord } from '../log/events';

export interface SynthOptions {
  pages: number; // power of two, >= 2^maxOrder
  cpus: number;
  maxOrder?: number;
  pageblockOrder?: number;
  batch?: number;
  high?: number;
  seed?: number;
  /** allocations per CPU per round, then the CPU frees them all (page_fault1's shape) */
  perRound?: number;
  rounds?: number;
  startPfn?: number;
}

function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function synthRecords(o: SynthOptions): Partial<EventRecord>[] {
  const maxOrder = o.maxOrder ?? 10;
  const pbo = o.pageblockOrder ?? Math.min(9, maxOrder);
  const batch = o.batch ?? 8;
  const high = o.high ?? 6 * batch;
  const start = o.startPfn ?? 0;
  const rand = rng(o.seed ?? 1);
  const MOVABLE = 1;
  const out: Partial<EventRecord>[] = [];
  let time = 0;
  const emit = (r: Partial<EventRecord>) => {
    time += 1 + Math.floor(rand() * 20);
    out.push({ time, cpu: CPU_NONE, ...r });
  };

  // free lists: per order, the free block heads (pfn); freeOrder[pfn-start] = order or -1
  const lists: Set<number>[] = Array.from({ length: maxOrder + 1 }, () => new Set<number>());
  const freeOrder = new Int8Array(o.pages).fill(-1);
  const add = (pfn: number, order: number, cpu: number, flags = 0) => {
    lists[order]!.add(pfn);
    freeOrder[pfn - start] = order;
    emit({ type: EV.BUDDY_ADD, pfn, order, mt: MOVABLE, cpu, flags });
  };
  const del = (pfn: number, order: number, cpu: number) => {
    lists[order]!.delete(pfn);
    freeOrder[pfn - start] = -1;
    emit({ type: EV.BUDDY_DEL, pfn, order, mt: MOVABLE, cpu });
  };

  emit({ type: EV.ZONE_INIT, pfn: start, order: maxOrder, flags: pbo, arg0: o.pages, arg1: o.cpus });
  for (let p = start; p < start + o.pages; p += 2 ** pbo) emit({ type: EV.PAGEBLOCK_MT, pfn: p, mt: MOVABLE });
  for (let p = start; p < start + o.pages; p += 2 ** maxOrder) add(p, maxOrder, CPU_NONE, FLAG.TAIL);

  const access = (cpu: number, pfn: number) => {
    const outcome = Math.floor(rand() * 7);
    emit({ type: EV.ACCESS, pfn, cpu, flags: outcome, arg0: [4, 14, 40, 90, 200, 4, 60][outcome]! });
  };

  // __rmqueue_smallest + expand()
  const rmqueue = (cpu: number): number | undefined => {
    let o2 = 0;
    while (o2 <= maxOrder && lists[o2]!.size === 0) o2++;
    if (o2 > maxOrder) return undefined;
    const pfn = lists[o2]!.values().next().value as number;
    del(pfn, o2, cpu);
    access(cpu, pfn);
    while (o2 > 0) {
      o2--;
      emit({ type: EV.SPLIT, pfn, order: o2, cpu });
      add(pfn + 2 ** o2, o2, cpu);
    }
    return pfn;
  };

  // __free_one_page()
  const freeOne = (pfn: number, cpu: number) => {
    let order = 0;
    while (order < maxOrder) {
      const buddy = pfn ^ (2 ** order);
      if (buddy < start || buddy >= start + o.pages || freeOrder[buddy - start] !== order) break;
      access(cpu, buddy);
      emit({ type: EV.MERGE, pfn, order, cpu, arg0: buddy - start });
      del(buddy, order, cpu);
      pfn = Math.min(pfn, buddy);
      order++;
    }
    add(pfn, order, cpu);
  };

  const lock = (cpu: number) => {
    // A contended acquisition: the CPU began spinning right after its previous record.
    const prev = time;
    const contended = rand() < 0.4;
    if (contended) time += Math.floor(rand() * 300) + 1;
    emit({ type: EV.LOCK_ACQUIRE, cpu, mt: 0, arg0: 0 });
    if (contended) out[out.length - 1]!.arg0 = time - prev;
    return time;
  };
  const unlock = (cpu: number, since: number) => emit({ type: EV.LOCK_RELEASE, cpu, mt: 0, arg0: time - since });

  const pcp: number[][] = Array.from({ length: o.cpus }, () => []); // head = end of array
  const held: number[][] = Array.from({ length: o.cpus }, () => []);

  const allocPage = (cpu: number): boolean => {
    const list = pcp[cpu]!;
    if (list.length === 0) {
      emit({ type: EV.RMQUEUE_BULK, cpu, arg0: batch });
      const t0 = lock(cpu);
      let got = 0;
      const refill: number[] = [];
      for (let k = 0; k < batch; k++) {
        const pfn = rmqueue(cpu);
        if (pfn === undefined) break;
        refill.push(pfn);
        got++;
      }
      unlock(cpu, t0);
      // list_add_tail in ascending pfn: the lowest pfn ends at the head
      refill.sort((a, b) => a - b);
      for (const pfn of refill) {
        emit({ type: EV.PCP_ADD, pfn, cpu, mt: MOVABLE, flags: FLAG.TAIL });
        list.unshift(pfn); // index 0 is the tail
      }
      emit({ type: EV.RMQUEUE_BULK, cpu, flags: FLAG.END, arg0: batch, arg1: got });
      if (got === 0) {
        emit({ type: EV.ALLOC_FAIL, cpu, arg0: 12 });
        return false;
      }
    }
    const pfn = list.pop()!;
    emit({ type: EV.PCP_DEL, pfn, cpu, mt: MOVABLE });
    emit({ type: EV.ALLOC, pfn, cpu });
    access(cpu, pfn);
    held[cpu]!.push(pfn);
    return true;
  };

  const freePage = (cpu: number, pfn: number) => {
    emit({ type: EV.FREE, pfn, cpu });
    const list = pcp[cpu]!;
    list.push(pfn);
    emit({ type: EV.PCP_ADD, pfn, cpu, mt: MOVABLE });
    if (list.length >= high) {
      const n = Math.min(batch, list.length);
      emit({ type: EV.PCP_DRAIN, cpu, arg0: n, arg1: list.length });
      const t0 = lock(cpu);
      for (let k = 0; k < n; k++) {
        const victim = list.shift()!; // the tail: oldest, coldest
        emit({ type: EV.PCP_DEL, pfn: victim, cpu, mt: MOVABLE });
        freeOne(victim, cpu);
      }
      unlock(cpu, t0);
      emit({ type: EV.PCP_DRAIN, cpu, flags: FLAG.END, arg0: n, arg1: list.length });
    }
  };

  const perRound = o.perRound ?? 3 * batch;
  for (let r = 0; r < (o.rounds ?? 2); r++) {
    for (let cpu = 0; cpu < o.cpus; cpu++) {
      emit({ type: EV.MARK, cpu, arg0: 1, arg1: r });
      for (let k = 0; k < perRound; k++) if (!allocPage(cpu)) break;
    }
    for (let cpu = 0; cpu < o.cpus; cpu++) {
      const h = held[cpu]!;
      while (h.length > 0) freePage(cpu, h.splice(Math.floor(rand() * h.length), 1)[0]!);
    }
  }
  return out;
}

export function synthLog(o: SynthOptions): ArrayBuffer {
  return encodeEvents(synthRecords(o));
}
