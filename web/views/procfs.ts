// /proc/buddyinfo and /proc/zoneinfo-style text: the exact numbers behind the pictures, and the
// text alternative for screen readers.

import { MIGRATETYPES, NR_MIGRATETYPES, NR_OUTCOMES } from '../log/events';
import type { Player } from '../log/player';
import type { PcpParams } from './pcp';
import { hexPfn } from '../log/describe';

const pad = (v: number | string, w: number) => String(v).padStart(w);

export function buddyinfoText(p: Player): string {
  const s = p.state;
  const cells = Array.from({ length: s.nrOrders }, (_, o) => pad(s.nrFreeOrder(o), 6)).join(' ');
  return `Node 0, zone   Normal ${cells}`;
}

/** Like /proc/pagetypeinfo's "Free pages count per migrate type at order". */
export function pagetypeText(p: Player): string {
  const s = p.state;
  const head = `${'order'.padEnd(14)}${Array.from({ length: s.nrOrders }, (_, o) => pad(o, 6)).join('')}`;
  const rows = [head];
  for (let mt = 0; mt < NR_MIGRATETYPES; mt++) {
    let any = false;
    const cells = Array.from({ length: s.nrOrders }, (_, o) => {
      const v = s.nrFree[o * NR_MIGRATETYPES + mt]!;
      if (v) any = true;
      return pad(v, 6);
    });
    if (any || mt <= 2) rows.push(`${MIGRATETYPES[mt]!.padEnd(14)}${cells.join('')}`);
  }
  return rows.join('\n');
}

export function zoneinfoText(p: Player, pcp: PcpParams, maxCpus = 16): string {
  const s = p.state;
  const g = s.geo;
  const lines = [
    'Node 0, zone   Normal',
    `  pages free     ${s.freePages()}`,
    `        spanned  ${g.pages}`,
    `  start_pfn:           ${g.startPfn} (${hexPfn(g.startPfn)})`,
    `  MAX_PAGE_ORDER:      ${g.maxOrder}`,
    `  pageblock_order:     ${g.pageblockOrder}`,
    '  pagesets',
  ];
  const shown = Math.min(g.cpus, maxCpus);
  for (let c = 0; c < shown; c++) {
    lines.push(
      `    cpu: ${c}`,
      `              count: ${s.pcpCount[c]}`,
      `              high:  ${pcp.high ?? '?'}`,
      `              batch: ${pcp.batch ?? '?'}`,
    );
  }
  if (g.cpus > shown) lines.push(`    ... ${g.cpus - shown} more CPUs`);
  return lines.join('\n');
}

export function cpuStatsText(p: Player, maxCpus = 32): string {
  const s = p.state;
  const header = 'cpu  zone->lock  acquired contended      spin cycles      hold cycles';
  const lines = [header];
  const shown = Math.min(s.geo.cpus, maxCpus);
  for (let c = 0; c < shown; c++) {
    const st = p.lockStats(c);
    lines.push(
      `${pad(c, 3)}  ${p.lockState(c).padEnd(10)} ${pad(st.acquisitions, 9)} ${pad(st.contended, 9)} ${pad(st.spinCycles, 16)} ${pad(st.holdCycles, 16)}`,
    );
  }
  if (s.geo.cpus > shown) lines.push(`... ${s.geo.cpus - shown} more CPUs`);
  const heads = ['L1', 'L2', 'LLC', 'remote', 'memory', 'pf hit', 'pf late'];
  lines.push('', 'struct page accesses by outcome, and prefetches', `cpu  ${heads.map((h) => pad(h, 7)).join(' ')}   ${pad('issued', 7)} ${pad('wasted', 7)}`);
  for (let c = 0; c < shown; c++) {
    const b = c * (NR_OUTCOMES + 2);
    const o = Array.from(s.cache.subarray(b, b + NR_OUTCOMES)).map((v) => pad(v, 7));
    lines.push(`${pad(c, 3)}  ${o.join(' ')}   ${pad(s.cache[b + NR_OUTCOMES]!, 7)} ${pad(s.cache[b + NR_OUTCOMES + 1]!, 7)}`);
  }
  return lines.join('\n');
}

export function createTextView(body: HTMLElement, label: string) {
  const pre = document.createElement('pre');
  pre.className = 'procfs';
  pre.tabIndex = 0;
  pre.setAttribute('aria-label', label);
  body.append(pre);
  return {
    set(text: string) {
      if (pre.textContent !== text) pre.textContent = text;
    },
  };
}
