// The fragmentation measures of mm/vmstat.c, from nr_free per order, in thousandths exactly
// as the C core computes them (wasm-core/src/fragmentation.c, blab_frag_index(); the WASM
// contract test compares the two):
//   unusable free space index: the share of free pages in blocks too small for the order
//     (1000 when nothing is free);
//   fragmentation (extfrag) index: when no block of the order is free, near 0 means the
//     failure is for lack of memory, near 1000 for lack of contiguity; -1000 when a block is free.

export interface FragIndex {
  unusable: number;
  extfrag: number;
}

export function fragIndex(nrFree: readonly number[], order: number): FragIndex {
  if (!Number.isInteger(order) || order < 0 || order >= nrFree.length) {
    throw new RangeError(`order ${order} is not one of 0..${nrFree.length - 1}`);
  }
  let freePages = 0;
  let blocksTotal = 0;
  let suitable = 0;
  for (let o = 0; o < nrFree.length; o++) {
    const n = nrFree[o]!;
    blocksTotal += n;
    freePages += n * 2 ** o;
    if (o >= order) suitable += n * 2 ** (o - order);
  }
  const unusable = freePages === 0 ? 1000 : Math.floor(((freePages - suitable * 2 ** order) * 1000) / freePages);
  let extfrag: number;
  if (blocksTotal === 0) extfrag = 0;
  else if (suitable > 0) extfrag = -1000;
  else extfrag = 1000 - Math.floor((1000 + Math.floor((freePages * 1000) / 2 ** order)) / blocksTotal);
  return { unusable, extfrag };
}

/** 0.123 / -1.000, as /sys/kernel/debug/extfrag prints an index */
export function formatIndex(v: number): string {
  const a = Math.abs(v);
  return `${v < 0 ? '-' : ''}${Math.floor(a / 1000)}.${String(a % 1000).padStart(3, '0')}`;
}
