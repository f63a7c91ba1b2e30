// Slab view: one row per CPU with its cpu slab's objects (cache 0, or the first cache that
// exists): handed out, on this CPU's freelist (numbered in pop order, the head outlined), or
// freed back onto the slab's own freelist by another CPU. A free object whose free pointer
// another CPU wrote last (a remote free) carries that CPU's number in a corner: its line is in
// that CPU's cache, cold here, which is the line SLUB's freelist prefetch fetches early. The
// object whose free pointer was prefetched last carries a ring (green: the next pop found it
// landed, vermillion: still in flight, white: not read yet). An arrow joins the CPU of the latest
// remote free to the CPU whose slab it went to. Sizes follow the figure type (web/ui/figfont.ts),
// so a lecture slide draws the same picture larger. Draws only what the player's state holds
// (log/slabstate.ts).

import { select } from 'd3-selection';
import type { Player } from '../log/player';
import { OBJ, SLAB_MAX_CACHES, SLAB_MAX_OBJECTS, SLAB_STAT, type SlabState } from '../log/slabstate';
import { CPU_NONE } from '../log/events';
import { COLORS } from '../ui/palette';
import { figureFont } from '../ui/figfont';

const SVG_NS = 'http://www.w3.org/2000/svg';
const MAX_CELLS = 64; // objects drawn per slab
const MAX_ROWS = 16; // CPUs drawn
/** how long (in records) the latest remote-free arrow stays up */
const ARROW_STEPS = 400;

const OBJ_COLOR: Record<number, string> = {
  [OBJ.NONE]: COLORS.unknown,
  [OBJ.ALLOCATED]: COLORS.allocated,
  [OBJ.CPU_FREE]: COLORS.pcpHot,
  [OBJ.SLAB_FREE]: COLORS.holding,
};
const RING = [COLORS.highlight, COLORS.compaction, COLORS.spinning]; // pending, hit, late

interface Cell {
  cpu: number;
  index: number;
  state: number;
  order: number; // position on the CPU's freelist, -1 if not on it
  /** the CPU that wrote its free pointer last, when that is another CPU and the object is free */
  remote: number;
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
    const k = slot * SLAB_MAX_OBJECTS + i;
    const state = s.objState[k]!;
    const writer = s.objWriter[k]!;
    const remote = state !== OBJ.ALLOCATED && writer !== CPU_NONE && writer !== cpu ? writer : -1;
    cells.push({ cpu, index: i, state, order: pos.get(i) ?? -1, remote });
  }
  return cells;
}

/** The geometry at figure type px: a cell holds a two-digit pop order at the small type. */
function geometry(px: number, small: number, objects: number) {
  const cell = Math.ceil(Math.max(14, small * 1.6));
  const rowH = Math.ceil(Math.max(cell + 10, px * 1.9));
  const labelW = Math.ceil(px * 0.62 * 7);
  const gutter = Math.ceil(px * 1.6); // the remote-free arrow's room, left of the cells
  const left = labelW + gutter;
  const statsX = left + objects * cell + Math.ceil(px * 0.8);
  return { cell, rowH, labelW, gutter, left, statsX, width: statsX + Math.ceil(px * 0.62 * 24) };
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

  function empty() {
    note.textContent = 'No slab cache in this log: run hackbench (blab sim --workload hackbench --events FILE).';
    select(svg).selectAll('*').remove();
    svg.setAttribute('width', '0');
    svg.setAttribute('height', '0');
    svg.setAttribute('aria-label', 'no slab cache');
  }

  function update(p: Player) {
    const s = p.state.slab;
    const cache = s.slots ? shownCache(s) : -1;
    if (cache < 0) return empty();
    const cpus = Array.from({ length: Math.min(MAX_ROWS, s.cpus) }, (_, c) => c);
    const objects = Math.min(MAX_CELLS, s.cacheObjects[cache]!);
    const { px, small } = figureFont(svg);
    const g = geometry(px, small, objects);
    const height = cpus.length * g.rowH + 8;
    svg.setAttribute('viewBox', `0 0 ${g.width} ${height}`);
    svg.setAttribute('width', String(g.width));
    svg.setAttribute('height', String(height));
    note.textContent =
      `cache ${cache}: ${s.cacheSize[cache]}-byte objects, ${s.cacheObjects[cache]} per order-${s.cacheOrder[cache]} slab, ` +
      `freelist prefetch ${s.cacheFlags[cache]! & 1 ? 'on' : 'off'}. Each row is a CPU's cpu slab; the numbers are its freelist's pop order.`;
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
        const e = enter.append('g').attr('class', 'slab-row');
        e.append('text').attr('class', 'slab-cpu').attr('x', 4);
        e.append('g').attr('class', 'slab-cells');
        e.append('text').attr('class', 'slab-stats');
        return e;
      })
      .attr('transform', (c) => `translate(0,${4 + c * g.rowH})`);
    const mid = g.rowH / 2;
    rows.select('text.slab-cpu').attr('y', mid).attr('dominant-baseline', 'central').text((c) => `cpu ${c}`);
    rows
      .select('text.slab-stats')
      .attr('x', g.statsX)
      .attr('y', mid)
      .attr('dominant-baseline', 'central')
      .text((c) => `pf hit ${s.stat(c, SLAB_STAT.PREFETCH_HIT)}/${s.stat(c, SLAB_STAT.PREFETCH)} · remote frees ${s.stat(c, SLAB_STAT.REMOTE_FREE)}`);
    rows.each(function (c) {
      drawCells(select(this).select<SVGGElement>('g.slab-cells'), s, c, cache, g.cell, g.left, mid);
    });
    drawRemoteArrow(s, p.step, cpus.length, g);
  }

  /** One CPU's objects: colour by state, pop order, the head outlined, remote writers, the ring. */
  function drawCells(cellsG: ReturnType<typeof select<SVGGElement, unknown>>, s: SlabState, c: number, cache: number, cell: number, left: number, mid: number) {
    const cells = slabCells(s, c, cache);
    const slot = s.cpuSlab[c * SLAB_MAX_CACHES + cache]!;
    const head = s.cpuFreelist(c, cache)[0];
    const pfObj = s.lastPrefetch[c]!;
    const box = cell - 2;
    const top = mid - box / 2;
    const sel = cellsG
      .selectAll<SVGGElement, Cell>('g.slab-obj')
      .data(cells)
      .join((enter) => {
        const e = enter.append('g').attr('class', 'slab-obj');
        e.append('rect');
        e.append('path').attr('class', 'slab-remote-mark');
        e.append('circle').attr('fill', 'none');
        e.append('text').attr('class', 'slab-order').attr('text-anchor', 'middle').attr('dominant-baseline', 'central');
        return e;
      })
      .attr('transform', (d) => `translate(${left + d.index * cell},0)`);
    sel
      .select('rect')
      .attr('y', top)
      .attr('width', box)
      .attr('height', box)
      .attr('fill', (d) => OBJ_COLOR[d.state] ?? COLORS.unknown)
      .attr('stroke', (d) => (d.index === head ? COLORS.highlight : 'none'))
      .attr('stroke-width', 2);
    // a free object whose free pointer another CPU wrote: a dark corner, its line is cold here
    sel
      .select('path.slab-remote-mark')
      .attr('d', (d) => (d.remote >= 0 ? `M ${box * 0.55} ${top} H ${box} V ${top + box * 0.45} Z` : ''))
      .attr('fill', COLORS.spinning);
    sel
      .select('text')
      .attr('x', box / 2)
      .attr('y', mid)
      .text((d) => (d.order >= 0 && d.order < 100 ? String(d.order) : ''));
    const size = s.cacheSize[cache]!;
    const slabStart = slot >= 0 ? s.slabPfn[slot]! * 4096 : -1;
    sel
      .select('circle')
      .attr('cx', box / 2)
      .attr('cy', mid)
      .attr('r', cell / 2 + 1)
      .attr('stroke', (d) => (slot >= 0 && pfObj >= 0 && pfObj === slabStart + d.index * size ? RING[s.lastPrefetchOutcome[c]!]! : 'none'))
      .attr('stroke-width', 2.5);
  }

  /** The latest remote free: from the freeing CPU to the owner of the slab, in the gutter. */
  function drawRemoteArrow(s: SlabState, step: number, rows: number, g: ReturnType<typeof geometry>) {
    const [from, to, , at] = Array.from(s.lastRemote);
    const arrow = at! >= 0 && step - at! <= ARROW_STEPS && to !== CPU_NONE && from! < rows && to! < rows && from !== to ? [[from!, to!]] : [];
    select(svg)
      .selectAll<SVGPathElement, number[]>('path.slab-remote')
      .data(arrow)
      .join('path')
      .attr('class', 'slab-remote')
      .attr('fill', 'none')
      .attr('stroke', COLORS.holding)
      .attr('stroke-width', 3)
      .attr('d', ([a, b]) => {
        const y1 = 4 + a! * g.rowH + g.rowH / 2;
        const y2 = 4 + b! * g.rowH + g.rowH / 2;
        const x = g.left - 4;
        const bend = g.labelW + 4;
        return `M ${x} ${y1} C ${bend} ${y1}, ${bend} ${y2}, ${x} ${y2} m -8 -5 l 8 5 l -8 5`;
      });
  }

  return { update };
}

/** What the slab view's colours mean, for its legend (views/legends.ts). */
export const SLAB_LEGEND = [
  { color: COLORS.allocated, label: 'handed out' },
  { color: COLORS.pcpHot, label: "on this CPU's freelist (pop order)" },
  { color: COLORS.holding, label: "freed by another CPU onto the slab's freelist" },
  { color: COLORS.spinning, label: 'corner: free pointer written on another CPU (cold line)' },
  { color: COLORS.highlight, label: 'freelist head', kind: 'outline' as const },
  { color: COLORS.compaction, label: 'ring: prefetched free pointer (green hit, vermillion late)', kind: 'outline' as const },
];
