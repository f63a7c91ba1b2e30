// Slab view: one row per CPU with its cpu slab's objects (cache 0, or the first cache that
// exists): handed out, on this CPU's freelist (numbered in pop order), or freed back onto the
// slab's own freelist by another CPU. The freelist's head is outlined; the object whose free
// pointer was prefetched last carries a ring (green: the next pop found it landed, vermillion:
// still in flight, white: not used yet). An arrow joins the CPU of the latest remote free to
// the CPU whose slab it went to. Counters at the right. Draws only what the player's state
// holds (log/slabstate.ts).

import { select } from 'd3-selection';
import type { Player } from '../log/player';
import { OBJ, SLAB_MAX_CACHES, SLAB_MAX_OBJECTS, SLAB_STAT, type SlabState } from '../log/slabstate';
import { CPU_NONE } from '../log/events';
import { COLORS } from '../ui/palette';

const SVG_NS = 'http://www.w3.org/2000/svg';
const ROW_H = 26;
const LEFT = 56;
const CELL = 12;
const MAX_CELLS = 64; // objects drawn per slab
const MAX_ROWS = 16; // CPUs drawn
const STATS_W = 250;
/** how long (in records) the latest remote-free arrow stays up */
const ARROW_STEPS = 400;

const OBJ_COLOR: Record<number, string> = {
  [OBJ.NONE]: COLORS.unknown,
  [OBJ.ALLOCATED]: COLORS.allocated,
  [OBJ.CPU_FREE]: COLORS.pcpHot,
  [OBJ.SLAB_FREE]: COLORS.holding,
};
const RING = ['#ffffff', '#009E73', COLORS.spinning]; // pending, hit, late

interface Cell {
  cpu: number;
  index: number;
  state: number;
  order: number; // position on the CPU's freelist, -1 if not on it
}

/** The cache the view shows: the first that exists. */
function shownCache(s: SlabState): number {
  for (let c = 0; c < SLAB_MAX_CACHES; c++) if (s.cacheUsed[c]) return c;
  return -1;
}

/** Cells of cpu's cpu slab, for a given cache (pure: tested through the reducer's state). */
export function slabCells(s: SlabState, cpu: number, cache: number): Cell[] {
  const slot = s.cpuSlab[cpu * SLAB_MAX_CACHES + cache]!;
  if (slot < 0) return [];
  const n = Math.min(MAX_CELLS, s.cacheObjects[cache]!);
  const pos = new Map(s.cpuFreelist(cpu, cache).map((o, k) => [o, k]));
  const cells: Cell[] = [];
  for (let i = 0; i < n; i++) {
    cells.push({ cpu, index: i, state: s.objState[slot * SLAB_MAX_OBJECTS + i]!, order: pos.get(i) ?? -1 });
  }
  return cells;
}

export function createSlabView(body: HTMLElement) {
  const note = document.createElement('p');
  note.className = 'panel-note';
  const scroller = document.createElement('div');
  scroller.className = 'pcp-scroll';
  // it scrolls sideways on a narrow screen, and holds nothing focusable: the keyboard scrolls it
  scroller.tabIndex = 0;
  scroller.setAttribute('role', 'region');
  scroller.setAttribute('aria-label', 'kmem_cache_cpu freelists (scrolls sideways)');
  const svg = document.createElementNS(SVG_NS, 'svg');
  svg.setAttribute('class', 'slab-svg');
  svg.setAttribute('role', 'img');
  scroller.append(svg);
  body.append(note, scroller);

  function update(p: Player) {
    const s = p.state.slab;
    const cache = s.slots ? shownCache(s) : -1;
    if (cache < 0) {
      note.textContent = 'No slab cache in this log: run hackbench (blab sim --workload hackbench --events FILE).';
      select(svg).selectAll('*').remove();
      svg.setAttribute('width', '0');
      svg.setAttribute('height', '0');
      svg.setAttribute('aria-label', 'no slab cache');
      return;
    }
    const cpus = Array.from({ length: Math.min(MAX_ROWS, s.cpus) }, (_, c) => c);
    const objects = Math.min(MAX_CELLS, s.cacheObjects[cache]!);
    const width = LEFT + objects * CELL + 16 + STATS_W;
    const height = cpus.length * ROW_H + 8;
    svg.setAttribute('viewBox', `0 0 ${width} ${height}`);
    svg.setAttribute('width', String(width));
    svg.setAttribute('height', String(height));
    note.textContent =
      `cache ${cache}: ${s.cacheSize[cache]}-byte objects, ${s.cacheObjects[cache]} per order-${s.cacheOrder[cache]} slab, ` +
      `freelist prefetch ${s.cacheFlags[cache]! & 1 ? 'on' : 'off'}. Grey: handed out; orange: on this CPU's freelist ` +
      `(numbered in pop order); blue: freed by another CPU onto the slab's own freelist; ring: last prefetched ` +
      `free pointer (green hit, vermillion late).`;
    svg.setAttribute(
      'aria-label',
      cpus
        .map((c) => `cpu ${c}: ${s.cpuFreelist(c, cache).length} on its freelist, ${s.stat(c, SLAB_STAT.REMOTE_FREE)} remote frees`)
        .join('; '),
    );

    const rows = select(svg)
      .selectAll<SVGGElement, number>('g.slab-row')
      .data(cpus)
      .join((enter) => {
        const g = enter.append('g').attr('class', 'slab-row');
        g.append('text').attr('class', 'slab-cpu').attr('x', 4).attr('y', 17);
        g.append('g').attr('class', 'slab-cells');
        g.append('text').attr('class', 'slab-stats');
        return g;
      })
      .attr('transform', (c) => `translate(0,${4 + c * ROW_H})`);
    rows.select('text.slab-cpu').text((c) => `cpu ${c}`).attr('fill', '#d0d6de');
    rows
      .select('text.slab-stats')
      .attr('x', LEFT + objects * CELL + 16)
      .attr('y', 17)
      .attr('fill', '#d0d6de')
      .text(
        (c) =>
          `fast ${s.stat(c, SLAB_STAT.ALLOC_FAST)} slow ${s.stat(c, SLAB_STAT.ALLOC_SLOW)} ` +
          `remote free ${s.stat(c, SLAB_STAT.REMOTE_FREE)} pf hit ${s.stat(c, SLAB_STAT.PREFETCH_HIT)}/${s.stat(c, SLAB_STAT.PREFETCH)}`,
      );
    // the counters are as wide as the figure's type makes them: the picture widens to hold them
    let statsW = STATS_W;
    rows.select<SVGTextElement>('text.slab-stats').each(function () {
      if (typeof this.getComputedTextLength === 'function') statsW = Math.max(statsW, Math.ceil(this.getComputedTextLength()) + 8);
    });
    if (statsW > STATS_W) {
      svg.setAttribute('viewBox', `0 0 ${width - STATS_W + statsW} ${height}`);
      svg.setAttribute('width', String(width - STATS_W + statsW));
    }
    rows.each(function (c) {
      const cells = slabCells(s, c, cache);
      const slot = s.cpuSlab[c * SLAB_MAX_CACHES + cache]!;
      const head = s.cpuFreelist(c, cache)[0];
      const pfObj = s.lastPrefetch[c]!;
      const g = select(this).select<SVGGElement>('g.slab-cells');
      const sel = g
        .selectAll<SVGGElement, Cell>('g.slab-obj')
        .data(cells)
        .join((enter) => {
          const e = enter.append('g').attr('class', 'slab-obj');
          e.append('rect').attr('width', CELL - 2).attr('height', CELL - 2).attr('y', 6);
          e.append('circle').attr('r', CELL / 2 + 1).attr('cy', 6 + (CELL - 2) / 2).attr('fill', 'none');
          e.append('text').attr('y', 6 + CELL - 3).attr('font-size', 7).attr('text-anchor', 'middle');
          return e;
        })
        .attr('transform', (d) => `translate(${LEFT + d.index * CELL},0)`);
      sel
        .select('rect')
        .attr('fill', (d) => OBJ_COLOR[d.state] ?? COLORS.unknown)
        .attr('stroke', (d) => (d.index === head ? COLORS.highlight : 'none'))
        .attr('stroke-width', 1.5);
      sel
        .select('text')
        .attr('x', (CELL - 2) / 2)
        .attr('fill', '#10141c')
        .text((d) => (d.order >= 0 && d.order < 10 ? String(d.order) : ''));
      const size = s.cacheSize[cache]!;
      const slabStart = slot >= 0 ? s.slabPfn[slot]! * 4096 : -1;
      sel
        .select('circle')
        .attr('cx', (CELL - 2) / 2)
        .attr('stroke', (d) =>
          slot >= 0 && pfObj >= 0 && pfObj === slabStart + d.index * size ? RING[s.lastPrefetchOutcome[c]!]! : 'none',
        )
        .attr('stroke-width', 1.5);
    });

    // the latest remote free: from the freeing CPU to the owner of the slab
    const [from, to, , at] = Array.from(s.lastRemote);
    const arrow =
      at! >= 0 && p.step - at! <= ARROW_STEPS && to !== CPU_NONE && from! < cpus.length && to! < cpus.length ? [[from!, to!]] : [];
    select(svg)
      .selectAll<SVGPathElement, number[]>('path.slab-remote')
      .data(arrow)
      .join('path')
      .attr('class', 'slab-remote')
      .attr('fill', 'none')
      .attr('stroke', COLORS.holding)
      .attr('stroke-width', 2)
      .attr('d', ([a, b]) => {
        const y1 = 4 + a! * ROW_H + 12;
        const y2 = 4 + b! * ROW_H + 12;
        const x = LEFT - 8;
        return `M ${x} ${y1} C ${x - 30} ${y1}, ${x - 30} ${y2}, ${x} ${y2}`;
      });
  }

  return { update };
}
