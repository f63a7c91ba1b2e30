// Lock timeline: one lane per CPU, spinning and holding over time; the white line is now. The
// future is drawn faint: it is in the log, but has not happened at this step. Contention % per
// CPU at the right, counted up to now.
//
// zone->lock lanes always; below them a second lane set for lru_lock (lock id 1 in the log,
// docs/events.md), in its own colours and under its own label, when the log has lru_lock
// acquisitions at all (page_fault1, trunc, mixed: skip-merge moves the queue there, lesson 6).
// The lru_lock set can be switched off; when it is off, or the log has none, it costs nothing.

import { format } from 'd3-format';
import { scaleLinear } from 'd3-scale';
import type { EventLog } from '../log/events';
import type { Player } from '../log/player';
import { countEndingBy, countStartingBy, firstEndingAfter, lockIntervals, type LockIntervals } from '../log/locks';
import { COLORS } from '../ui/palette';
import { beginCanvas, el, onResize, sizeOf } from '../ui/dom';
import { figureFont, monoFont } from '../ui/figfont';
import type { FigureTerm } from './terms';
import { createCanvasAxis } from '../ui/canvas-axis';

const MAX_LANES = 32;
/** the outline of what prose points at: the page's focus colour */
/** the time axis strip under the lanes at the normal figure type; it grows with the type */
const AXIS_H = 26;
/** the least room between two time labels ("now t = 1.23M" is about 90 px wide) */
const MIN_TICK_GAP = 72;
const pct = format('.0%');
const si = format('.3~s');
/** the log's lock ids (LOCK_ACQUIRE's mt) */
const LRU_LOCK = 1;

interface LaneSet {
  name: string;
  iv: LockIntervals;
  spin: string;
  hold: string;
}

/**
 * A lane's height for `all` lanes at figure type `fs` px, and which lanes carry a label: at
 * many lanes (56 CPUs with lru_lock: 64) a lane is lower than a line of type, so only every
 * `labelEvery`-th lane is labelled, and no two labels overlap ("cpu 0", "cpu 2", ...). The
 * figure's text summary still names every CPU.
 */
export function laneLayout(all: number, fs: number): { laneH: number; labelEvery: number } {
  const laneH = Math.max(all <= 8 ? 22 : all <= 16 ? 14 : 9, fs > 16 ? Math.ceil(fs * 1.25) : 0);
  return { laneH, labelEvery: Math.ceil(fs / laneH) };
}

/** The same for lanes that must fit `room` px each (a slide's box): as tall as that allows. */
export function laneLayoutIn(all: number, fs: number, room: number): { laneH: number; labelEvery: number } {
  const laneH = Math.max(6, Math.floor(Math.min(room, laneLayout(all, fs).laneH * 3)));
  return { laneH, labelEvery: Math.ceil(fs / laneH) };
}

/** Whether the log has any acquisition of `lock` (a lane set with nothing in it is not drawn). */
const hasAcquisitions = (iv: LockIntervals) => iv.hold.some((h) => h.length > 0);

/** A CPU's lane in words: how contended its acquisitions were up to now, and its state now.
 * zone->lock (no intervals given) as the player counts it step by step; lru_lock counted off
 * its intervals. */
function laneState(p: Player, iv: LockIntervals | undefined, c: number, now: number): { stat: string; state: string } {
  if (!iv) {
    const st = p.lockStats(c);
    return { stat: st.acquisitions ? `${pct(st.contended / st.acquisitions)} contended` : 'no acquisitions', state: p.lockState(c) };
  }
  const acq = countStartingBy(iv.hold[c]!, now);
  return {
    stat: acq ? `${pct(countEndingBy(iv.spin[c]!, now) / acq)} contended` : 'no acquisitions',
    state: within(iv.hold[c]!, now) ? 'holding' : within(iv.spin[c]!, now) ? 'spinning' : 'running',
  };
}

export function createLockTimelineView(body: HTMLElement) {
  const canvas = el('canvas', { class: 'lt-canvas', role: 'img', 'aria-label': 'zone->lock timeline' });
  const lruToggle = el('input', { type: 'checkbox', checked: true });
  const lruField = el('label', { class: 'lt-toggle' }, lruToggle, ' lru_lock lanes');
  lruField.hidden = true;
  const note = el('p', { class: 'panel-note' });
  const host = el('div', { class: 'lt-plot canvas-host' }, canvas);
  const axis = createCanvasAxis(host, AXIS_H, 'lt-axis');
  body.append(host, lruField, note);
  let cache: { log: EventLog; cpus: number; zone: LockIntervals; lru: LockIntervals | undefined } | undefined;

  let last: Player | undefined;
  // the lock prose points at: its lanes are outlined, the other lock's dimmed
  let marked: 'zone->lock' | 'lru_lock' | undefined;
  onResize(canvas, () => {
    if (last) update(last);
  });
  /** on a lesson's slide (lecture.css), or alone in an embedded frame, the plot has a box of the
   * page's making: lanes fill it */
  const fills = () => (document.documentElement.classList.contains('lecture') && host.closest('.lesson-stage') !== null) || host.closest('.embed-view') !== null;
  onResize(host, () => {
    if (last && fills()) update(last);
  });
  lruToggle.addEventListener('change', () => {
    if (last) update(last);
  });

  function update(p: Player) {
    last = p;
    const cpus = p.state.geo.cpus;
    if (!cache || cache.log !== p.log || cache.cpus !== cpus) {
      const lru = lockIntervals(p.log, cpus, LRU_LOCK);
      cache = { log: p.log, cpus, zone: lockIntervals(p.log, cpus), lru: hasAcquisitions(lru) ? lru : undefined };
      lruField.hidden = !cache.lru;
    }
    const sets: LaneSet[] = [{ name: 'zone->lock', iv: cache.zone, spin: COLORS.spinning, hold: COLORS.holding }];
    if (cache.lru && lruToggle.checked) sets.push({ name: 'lru_lock', iv: cache.lru, spin: COLORS.lruSpinning, hold: COLORS.lruHolding });
    const lanes = Math.min(cpus, MAX_LANES);
    const all = lanes * sets.length;
    // label columns, lanes and titles grow with the figure type (presenter mode): a lane is
    // never lower than its label once labels are large
    const fs = figureFont(canvas).px;
    const ch = fs * 0.62;
    const LABEL_W = Math.max(64, Math.ceil(ch * 6 + 10));
    const STAT_W = Math.max(150, Math.ceil(ch * 15 + 16));
    const titleH = sets.length > 1 ? Math.max(16, Math.ceil(fs * 1.3)) : 0;
    const axisH = Math.max(AXIS_H, Math.ceil(fs * 1.8));
    // filling a slide's box, the lanes take its height (a label only every so many when short)
    const fillH = fills() ? Math.floor(sizeOf(host).h) : 0;
    const { laneH, labelEvery } = fillH > 0 ? laneLayoutIn(all, fs, (fillH - axisH - titleH * sets.length) / all) : laneLayout(all, fs);
    canvas.dataset['fontPx'] = String(fs);
    const setH = titleH + lanes * laneH;
    const plotH = setH * sets.length;
    const cssH = `${fillH > 0 ? fillH : plotH + axisH}px`;
    if (canvas.style.height !== cssH) canvas.style.height = cssH;
    const drawing = beginCanvas(canvas);
    if (!drawing) return;
    const { ctx, w, h } = drawing;
    ctx.clearRect(0, 0, w, h);

    const now = p.state.time;
    // the window follows zone->lock's pace (the lock every run takes)
    const span = Math.max((cache.zone.meanGap || sets[1]?.iv.meanGap || 0) * 40, 1000);
    const x = scaleLinear()
      .domain([now - span * 0.8, now + span * 0.2])
      .range([LABEL_W, w - STAT_W]);
    const [t0, t1] = x.domain() as [number, number];
    const xn = x(now);
    ctx.font = monoFont(fs);
    ctx.textBaseline = 'middle';
    const summary: string[] = [];
    sets.forEach((set, si0) => {
      const top = si0 * setH;
      const base = marked !== undefined && marked !== set.name ? 0.35 : 1;
      ctx.globalAlpha = base;
      if (titleH) {
        ctx.fillStyle = set.hold;
        ctx.textAlign = 'left';
        ctx.fillText(set.name, 4, top + titleH / 2);
      }
      const parts: string[] = [];
      for (let c = 0; c < lanes; c++) {
        const y = top + titleH + c * laneH;
        ctx.fillStyle = COLORS.unknown;
        ctx.fillRect(LABEL_W, y + 1, w - STAT_W - LABEL_W, laneH - 2);
        for (const [flat, color] of [
          [set.iv.spin[c]!, set.spin],
          [set.iv.hold[c]!, set.hold],
        ] as const) {
          for (let k = firstEndingAfter(flat, t0); k < flat.length / 2; k++) {
            const a = flat[k * 2]!;
            const b = flat[k * 2 + 1]!;
            if (a > t1) break;
            // past: solid; the part after now: faint
            const xa = x(Math.max(a, t0));
            const xb = x(Math.min(b, t1));
            ctx.fillStyle = color;
            ctx.globalAlpha = base;
            if (xa < xn) ctx.fillRect(xa, y + 2, Math.max(1, Math.min(xb, xn) - xa), laneH - 4);
            ctx.globalAlpha = base * 0.25;
            if (xb > xn) ctx.fillRect(Math.max(xa, xn), y + 2, Math.max(1, xb - Math.max(xa, xn)), laneH - 4);
            ctx.globalAlpha = base;
          }
        }
        const labelled = c % labelEvery === 0;
        ctx.fillStyle = COLORS.text;
        ctx.textAlign = 'left';
        if (labelled) ctx.fillText(`cpu ${c}`, 4, y + laneH / 2);
        const { stat, state } = laneState(p, si0 === 0 ? undefined : set.iv, c, now);
        if (labelled) ctx.fillText(stat, w - STAT_W + 8, y + laneH / 2);
        parts.push(`cpu ${c} ${state}, ${stat}`);
      }
      summary.push(`${set.name}: ${parts.join('; ')}`);
      ctx.globalAlpha = 1;
      if (marked === set.name) {
        ctx.strokeStyle = COLORS.focus;
        ctx.lineWidth = 3;
        ctx.strokeRect(1.5, top + 1.5, w - 3, setH - 3);
      }
    });
    ctx.fillStyle = COLORS.highlight;
    ctx.fillRect(xn - 1, 0, 2, plotH);
    // the time axis (d3-axis): the window's start, a few ticks, and now; times before now
    // counted back from it
    // labels at least MIN_TICK_GAP px apart: "now" first, then the window's start, then the rest
    const kept: number[] = [now];
    const gap = Math.max(MIN_TICK_GAP, fs * 6);
    for (const v of [t0, ...x.ticks(4)]) if (v < now && kept.every((k) => Math.abs(x(k) - x(v)) >= gap)) kept.push(v);
    axis.draw(x, w, kept.sort((a, b) => a - b), (v) => (v === now ? `now t = ${si(now)}` : `−${si(now - v)}`), axisH);
    const names = sets.map((s) => s.name).join(' and ');
    canvas.setAttribute('aria-label', `${names} timeline at t = ${now}: ${summary.join('. ')}`);
    canvas.dataset['locks'] = sets.map((s) => s.name).join(',');
    const n =
      `spinning = waiting for the lock, holding = inside it (zone->lock: vermillion / blue` +
      (sets.length > 1 ? '; lru_lock: yellow / green' : '') +
      `); window ${si(span)} cycles of the model CPUs' clocks (2,500 a microsecond at the default 2,500 MHz)` +
      (cpus > lanes ? `; first ${lanes} of ${cpus} CPUs` : '');
    if (note.textContent !== n) note.textContent = n;
  }

  function mark(t: FigureTerm | undefined) {
    marked = t?.kind === 'lock' ? t.lock : undefined;
    if (last) update(last);
  }

  return { update, mark };
}

/** Whether t falls inside one of the intervals. */
function within(flat: Float64Array, t: number): boolean {
  const k = firstEndingAfter(flat, t);
  return k < flat.length / 2 && flat[k * 2]! <= t;
}
