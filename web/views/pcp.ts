// pcp lists: one column per CPU, its count against the high and batch marks, the cold part of
// the list darker, and the CPU's zone->lock state (running / spinning / holding) in words.

import { select, type EnterElement, type Selection } from 'd3-selection';
import 'd3-transition';
import { scaleLinear, type ScaleLinear } from 'd3-scale';
import type { Player, CpuLockState } from '../log/player';
import type { ZoneState } from '../log/state';
import { COLORS } from '../ui/palette';
import { onResize, reducedMotion, sizeOf } from '../ui/dom';
import { figureFont } from '../ui/figfont';
import type { FigureTerm } from './terms';
import { selectPcp } from './pfn-dialog';

const SVG_NS = 'http://www.w3.org/2000/svg';
/** a refill or drain (a count change a few records away) slides; a jump or fast play does not */
const ANIMATE_STEPS = 8;
const ANIMATE_MS = 220;

export interface PcpParams {
  high: number | undefined;
  batch: number | undefined;
  source: string;
}

const LOCK_SHORT: Record<CpuLockState, string> = { running: 'run', spinning: 'spin', holding: 'hold' };

const LOCK_COLOR: Record<CpuLockState, string> = {
  running: COLORS.running,
  spinning: COLORS.spinning,
  holding: COLORS.holding,
};

/** The high and batch labels; one label when the two marks would overlap. */
function markLabels(params: PcpParams, y: (v: number) => number, fontPx: number): [string, number][] {
  const { high, batch } = params;
  if (high !== undefined && batch !== undefined && Math.abs(y(high) - y(batch)) < fontPx) {
    return [[high === batch ? 'high = batch' : 'high, batch', high]];
  }
  return (
    [
      ['high', high],
      ['batch', batch],
    ] as [string, number | undefined][]
  ).filter((d): d is [string, number] => d[1] !== undefined);
}

/** The figure's caption: what the marks are, with no number the log does not hold. A 6.7+ list
 * has its own high (each CPU's, when few enough to name), and a log with no order-0 refill
 * states no batch, so none is named. */
export function pcpNote(tuned: boolean, highs: readonly (number | undefined)[], params: PcpParams): string {
  const batch = params.batch !== undefined ? ` and batch = ${params.batch}` : '';
  const each = highs.length <= 4 ? `: ${highs.map((h, c) => `cpu ${c} ${h ?? '?'}`).join(', ')}` : '';
  const marks = tuned
    ? `count per CPU against its own high (6.7+ moves it between high_min and high_max${each})${batch}. `
    : `count per CPU against high = ${params.high ?? 'unknown'}${batch} (${params.source}). `;
  return `${marks}Light: hot pages; dark: cold list.`;
}

/** The new CPUs' columns: each a button that opens its pcp list's pages (pfn-dialog.ts). */
function newColumns(enter: Selection<EnterElement, number, SVGSVGElement, unknown>) {
  const g = enter
    .append('g')
    .attr('class', 'pcp-col')
    .attr('tabindex', 0)
    .attr('role', 'button')
    .attr('aria-haspopup', 'dialog')
    .on('click', function (_ev, c) {
      selectPcp(this, c);
    })
    .on('keydown', function (ev: KeyboardEvent, c) {
      if (ev.key !== 'Enter' && ev.key !== ' ') return;
      ev.preventDefault();
      selectPcp(this, c);
    });
  g.append('rect').attr('class', 'pcp-track');
  g.append('rect').attr('class', 'pcp-hot');
  g.append('rect').attr('class', 'pcp-cold');
  g.append('line').attr('class', 'pcp-high');
  g.append('line').attr('class', 'pcp-batch');
  g.append('text').attr('class', 'pcp-count');
  g.append('text').attr('class', 'pcp-cpu');
  g.append('text').attr('class', 'pcp-lock');
  return g;
}

interface ColumnFrame {
  s: ZoneState;
  y: ScaleLinear<number, number>;
  colW: number;
  /** the plot's margins and height */
  top: number;
  bottom: number;
  h: number;
  fs: number;
  /** labels in short ("12", "spin") */
  narrow: boolean;
  /** slide the bars (a refill or drain a few records away) */
  animate: boolean;
  highOf(c: number): number | undefined;
  batch: number | undefined;
  locks: CpuLockState[];
}

/** Draws the columns given: the list's hot and cold parts, the high and batch marks, the count,
 * the CPU and its zone->lock state. */
function drawColumns(cols: Selection<SVGGElement, number, SVGSVGElement, unknown>, f: ColumnFrame) {
  const { s, y, colW: COL_W, top: TOP, bottom: BOTTOM, h: H, fs, narrow, locks } = f;
  const bx = Math.round(COL_W * 0.18);
  const bw = COL_W - 2 * bx;
  cols
    .select('rect.pcp-track')
    .attr('x', bx)
    .attr('width', bw)
    .attr('y', TOP)
    .attr('height', H - BOTTOM - TOP);
  // a refill grows the bar and a drain shrinks it, sliding (d3-transition) when stepped
  const hot = cols.select<SVGRectElement>('rect.pcp-hot').attr('x', bx).attr('width', bw).attr('fill', COLORS.pcpHot);
  const cold = cols.select<SVGRectElement>('rect.pcp-cold').attr('x', bx).attr('width', bw).attr('fill', COLORS.pcpCold);
  const hotY = (c: number) => y(s.pcpCount[c]!);
  const hotH = (c: number) => y(0) - y(s.pcpCount[c]! - s.pcpCold[c]!);
  const coldY = (c: number) => y(s.pcpCold[c]!);
  const coldH = (c: number) => y(0) - y(s.pcpCold[c]!);
  if (f.animate) {
    hot.transition().duration(ANIMATE_MS).attr('y', hotY).attr('height', hotH);
    cold.transition().duration(ANIMATE_MS).attr('y', coldY).attr('height', coldH);
  } else {
    hot.interrupt().attr('y', hotY).attr('height', hotH);
    cold.interrupt().attr('y', coldY).attr('height', coldH);
  }
  const mark = (sel: string, v: (c: number) => number | undefined) =>
    cols
      .select(sel)
      .attr('x1', bx - 6)
      .attr('x2', bx + bw + 6)
      .attr('y1', (c) => (v(c) === undefined ? -10 : y(v(c)!)))
      .attr('y2', (c) => (v(c) === undefined ? -10 : y(v(c)!)))
      .attr('visibility', (c) => (v(c) === undefined ? 'hidden' : 'visible'));
  mark('line.pcp-high', f.highOf);
  mark('line.pcp-batch', () => f.batch);
  cols
    .select('text.pcp-count')
    .attr('x', COL_W / 2)
    .attr('y', (c) => y(s.pcpCount[c]!) - 6)
    .text((c) => String(s.pcpCount[c]));
  cols
    .select('text.pcp-cpu')
    .attr('x', COL_W / 2)
    .attr('y', H - BOTTOM + fs * 1.4)
    .text((c) => (narrow ? String(c) : `cpu ${c}`));
  cols
    .select('text.pcp-lock')
    .attr('x', COL_W / 2)
    .attr('y', H - BOTTOM + fs * 2.9)
    .attr('fill', (c) => LOCK_COLOR[locks[c]!])
    .text((c) => (narrow ? LOCK_SHORT[locks[c]!] : locks[c]!));
}

/** The smallest type a lecture slide shows (what web/e2e/lecture.spec.ts holds every label to). */
const SLIDE_MIN_PX = 24;

/**
 * The figure type for `n` columns in a slide's box `boxW` px wide (0: not on a slide): the
 * figure type, or smaller, down to the slide's minimum, until the columns' shortest labels
 * ("spin", "12") and the "batch" label beside them fit without scrolling sideways.
 */
export function slideFont(px: number, boxW: number, n: number): number {
  if (boxW <= 0) return px;
  // width at type f: LEFT (6 digits + 6) + n columns of 4 digits + 8, a digit 0.62 f
  const need = (f: number) => Math.ceil(f * 0.62 * 6 + 6) + 4 + n * Math.ceil(f * 0.62 * 4 + 8);
  let f = px;
  while (f > SLIDE_MIN_PX && need(f) > boxW) f -= 1;
  return f;
}

export function createPcpView(body: HTMLElement) {
  const note = document.createElement('p');
  note.className = 'panel-note';
  const scroller = document.createElement('div');
  scroller.className = 'pcp-scroll';
  const svg = document.createElementNS(SVG_NS, 'svg');
  svg.setAttribute('class', 'pcp-svg');
  // a group, not an image: its columns are buttons
  svg.setAttribute('role', 'group');
  scroller.append(svg);
  body.append(note, scroller);

  let drawnLayout = '';
  let drawnCols: string[] = [];
  let drawnStep = -1;
  let drawnPlayer: Player | undefined;
  let drawnParams: PcpParams | undefined;
  /** on a lesson's slide, or alone in an embedded frame, the box is sized by the slide or the
   * frame, not by the drawing: fill it */
  const fills = () => (document.documentElement.classList.contains('lecture') && scroller.closest('.lesson-stage') !== null) || scroller.closest('.embed-view') !== null;
  onResize(scroller, () => {
    if (fills() && drawnPlayer && drawnParams) update(drawnPlayer, drawnParams);
  });

  function update(p: Player, params: PcpParams) {
    drawnParams = params;
    const s = p.state;
    const cpus = Array.from({ length: s.geo.cpus }, (_, c) => c);
    const counts = cpus.map((c) => s.pcpCount[c]!);
    // 6.7+ moves each CPU's high (PCP_HIGH records); before the first one, and on earlier
    // kernels, a list's high is the zone's
    const tuned = s.pcpHigh.some((h) => h > 0);
    const highOf = (c: number): number | undefined => s.pcpHigh[c] || params.high;
    const shown: PcpParams = tuned ? { ...params, high: highOf(0) } : params;
    const maxCount = Math.max(1, params.high ?? 0, ...counts, ...s.pcpHigh);
    // sizes follow the figure type (web/ui/figfont.ts), so presenter mode's labels keep apart
    const fill = fills();
    const fs = slideFont(figureFont(scroller).px, fill ? sizeOf(scroller).w : 0, cpus.length);
    if (svg.style.getPropertyValue('--fig-font') !== `${fs}px`) svg.style.setProperty('--fig-font', `${fs}px`);
    const ch = fs * 0.62; // a monospace digit
    const LEFT = Math.max(44, Math.ceil(ch * 6 + 6)); // room for "batch"
    const TOP = Math.ceil(fs * 2);
    const BOTTOM = Math.ceil(fs * 3.7);
    // a lesson's slide gives the figure a box to fill (lecture.css): as tall and as wide as it is
    const H = fill ? Math.max(230, Math.floor(sizeOf(scroller).h) - 6) : Math.max(230, TOP + BOTTOM + fs * 8);
    const y = scaleLinear()
      .domain([0, maxCount * 1.1])
      .range([H - BOTTOM, TOP]);
    // columns shrink to fit up to ~24 CPUs; beyond that the panel scrolls sideways. A column is
    // never narrower than its shortest labels ("12", "spin"), and says "cpu 12" when it can.
    const avail = Math.max(200, sizeOf(scroller).w - LEFT - 4);
    const minW = Math.ceil(ch * 4 + 8);
    const widest = fill ? Math.ceil(ch * 14) : Math.max(72, Math.ceil(ch * 7 + 8));
    const COL_W = Math.max(minW, Math.min(widest, Math.floor(avail / cpus.length)));
    const narrow = COL_W < ch * (`cpu ${cpus.length - 1}`.length + 1) || COL_W < ch * 8;
    const width = LEFT + cpus.length * COL_W;
    const animate = p === drawnPlayer && Math.abs(p.step - drawnStep) <= ANIMATE_STEPS && p.step !== drawnStep && !reducedMotion();
    drawnPlayer = p;
    drawnStep = p.step;
    // Only what changed is written: a column whose count, cold part and lock state are as
    // drawn is left alone (attribute writes restyle the SVG; at 60 frames a second they add up).
    const layoutKey = `${width}/${H}/${COL_W}/${maxCount}/${shown.high}/${params.batch}/${params.source}/${tuned}/${fs}`;
    const locks = cpus.map((c) => p.lockState(c));
    const colKeys = cpus.map((c) => `${s.pcpCount[c]}/${s.pcpCold[c]}/${s.pcpHigh[c]}/${locks[c]}`);
    const relayout = layoutKey !== drawnLayout || colKeys.length !== drawnCols.length;
    if (!relayout && colKeys.every((k, c) => k === drawnCols[c])) return;
    const dirty = cpus.map((c) => relayout || colKeys[c] !== drawnCols[c]);
    drawnLayout = layoutKey;
    drawnCols = colKeys;
    svg.setAttribute(
      'aria-label',
      cpus.map((c) => `cpu ${c}: count ${counts[c]}${tuned ? `, high ${highOf(c) ?? 'unknown'}` : ''}, ${locks[c]}`).join('; ') || 'no CPUs',
    );
    if (relayout) {
      svg.setAttribute('viewBox', `0 0 ${width} ${H}`);
      svg.setAttribute('width', String(width));
      svg.setAttribute('height', String(H));
      note.textContent = pcpNote(tuned, cpus.map(highOf), params);
    }

    const all = select(svg)
      .selectAll<SVGGElement, number>('g.pcp-col')
      .data(cpus)
      .join(newColumns);
    if (relayout) all.attr('transform', (c) => `translate(${LEFT + c * COL_W},0)`);
    const cols = all.filter((c) => dirty[c]!);

    drawColumns(cols, { s, y, colW: COL_W, top: TOP, bottom: BOTTOM, h: H, fs, narrow, animate: animate && !relayout, highOf, batch: params.batch, locks });

    // mark labels, once, at the left
    if (!relayout) return;
    select(svg)
      .selectAll<SVGTextElement, string>('text.pcp-mark-label')
      .data(markLabels(shown, y, fs))
      .join('text')
      .attr('class', 'pcp-mark-label')
      .attr('x', 2)
      .attr('y', (d) => y(d[1]) - 3)
      .text((d) => d[0]);
  }

  /** points at `high`, `batch`, the counts or the zone->lock states while prose names them */
  function mark(t: FigureTerm | undefined) {
    svg.dataset['mark'] = t?.kind === 'pcp' ? t.part : t?.kind === 'lock' ? 'lock' : '';
  }

  return { update, mark };
}
