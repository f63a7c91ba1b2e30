// /proc/buddyinfo and /proc/zoneinfo-style text: the exact numbers behind the pictures, and the
// text alternative for screen readers.

import { ACCESS_OUTCOMES, MIGRATETYPES, NR_MIGRATETYPES, NR_OUTCOMES } from '../log/events';
import { CACHE, prefetchFates } from '../log/state';
import type { Player } from '../log/player';
import type { PcpParams } from './pcp';
import { hexPfn } from '../log/describe';
import { sizeOf } from '../ui/dom';

const pad = (v: number | string, w: number) => String(v).padStart(w);

/** The kernel's line; where it is wider than `cols` characters (a slide, a phone), the zone's
 * name on a line of its own and the counts under it, each as wide as the widest, so every
 * order stays in view. */
export function buddyinfoText(p: Player, cols = Infinity): string {
  const s = p.state;
  const nr = Array.from({ length: s.nrOrders }, (_, o) => s.nrFreeOrder(o));
  const cells = nr.map((v) => pad(v, 6)).join(' ');
  let line = `Node 0, zone   Normal ${cells}`;
  if (line.length > cols) {
    const w = Math.max(...nr.map((v) => String(v).length));
    line = `Node 0, zone   Normal\n${nr.map((v) => pad(v, w)).join(' ')}`;
  }
  // a trace says nothing of what was free before it began: its counts are the blocks it freed
  return s.geo.imported ? `${line}\n# an imported trace: the blocks it put on each free_area, not the zone's nr_free (what was free before the recording is unknown)` : line;
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
      `              high:  ${s.pcpHigh[c] || (pcp.high ?? 'unknown')}`,
      `              batch: ${pcp.batch ?? 'unknown'}`,
    );
  }
  if (g.cpus > shown) lines.push(`    ... ${g.cpus - shown} more CPUs`);
  return lines.join('\n');
}

/** A column heading per access outcome (one word each, so the columns can be read by eye
 * and by a script); typed over ACCESS_OUTCOMES, so a new outcome needs its heading here. */
const OUTCOME_HEADS: Record<(typeof ACCESS_OUTCOMES)[number], string> = {
  'L1 hit': 'L1',
  'L2 hit': 'L2',
  'LLC hit': 'LLC',
  'remote hit': 'remote',
  memory: 'memory',
  'prefetch hit': 'pf_hit',
  'late prefetch': 'pf_late',
  plain: 'plain',
};

/** Rows of cells as right-aligned columns (the first left-aligned), every row as wide as its heading. */
function columns(head: readonly string[], rows: readonly (readonly (string | number)[])[]): string[] {
  const w = head.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (r: readonly (string | number)[]) => r.map((c, i) => (i === 0 ? String(c).padEnd(w[i]!) : String(c).padStart(w[i]!))).join('  ');
  return [line(head), ...rows.map(line)];
}

export function cpuStatsText(p: Player, maxCpus = 32): string {
  const s = p.state;
  const shown = Math.min(s.geo.cpus, maxCpus);
  const cpus = Array.from({ length: shown }, (_, c) => c);
  const lines = columns(
    ['cpu', 'zone->lock', 'acquired', 'contended', 'spin_cycles', 'hold_cycles'],
    cpus.map((c) => {
      const st = p.lockStats(c);
      return [c, p.lockState(c), st.acquisitions, st.contended, st.spinCycles, st.holdCycles];
    }),
  );
  if (s.geo.cpus > shown) lines.push(`... ${s.geo.cpus - shown} more CPUs`);
  return lines.join('\n');
}

/** Every prefetch's fate per CPU: issued = pf_hit + pf_late + pf_wasted + redundant + unread;
 * then, unless `fatesOnly` (a slide has room for one table), every access by where it was served
 * (the 'plain' column only on the plain machine). */
export function prefetchFatesText(p: Player, maxCpus = 32, fatesOnly = false): string {
  const s = p.state;
  const shown = Math.min(s.geo.cpus, maxCpus);
  const cpus = Array.from({ length: shown }, (_, c) => c);
  const lines = ['issued = pf_hit + pf_late + pf_wasted + redundant (already in L1) + unread'];
  lines.push(
    ...columns(
      ['cpu', 'issued', 'pf_hit', 'pf_late', 'pf_wasted', 'redundant', 'unread'],
      cpus.map((c) => {
        const f = prefetchFates(s, c);
        return [c, f.issued, f.hit, f.late, f.wasted, f.redundant, f.unread];
      }),
    ),
  );
  if (fatesOnly) return [...lines, '', 'accesses by where they were served: on the page (L)'].join('\n');
  const plain = cpus.some((c) => s.cache[c * CACHE.WIDTH + NR_OUTCOMES - 1]! > 0);
  const outcomes = ACCESS_OUTCOMES.slice(0, 5).concat(plain ? ['plain'] : []).map((o) => ACCESS_OUTCOMES.indexOf(o));
  lines.push('', 'accesses (struct pages, slab objects) by where they were served');
  lines.push(...columns(['cpu', ...outcomes.map((k) => OUTCOME_HEADS[ACCESS_OUTCOMES[k]!])], cpus.map((c) => [c, ...outcomes.map((k) => s.cache[c * CACHE.WIDTH + k]!)])));
  if (s.geo.cpus > shown) lines.push(`... ${s.geo.cpus - shown} more CPUs`);
  return lines.join('\n');
}

export function createTextView(body: HTMLElement, label: string) {
  const pre = document.createElement('pre');
  /** characters of the text's font that fit across the box (a monospace glyph is 0.6 em) */
  const cols = () => {
    const w = sizeOf(pre).w;
    const px = parseFloat(getComputedStyle(pre).fontSize) || 13;
    return w > 0 ? Math.floor((w - px) / (px * 0.6)) : Infinity;
  };
  pre.className = 'procfs';
  pre.tabIndex = 0; // it may scroll sideways: the keyboard must reach it
  pre.setAttribute('role', 'figure');
  pre.setAttribute('aria-label', label);
  body.append(pre);
  return {
    set(text: string) {
      if (pre.textContent !== text) pre.textContent = text;
    },
    cols,
  };
}
