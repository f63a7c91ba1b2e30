// zone->lock timeline: one lane per CPU, spinning (vermillion) and holding (sky blue) over
// time; the white line is now. The future is drawn faint: it is in the log, but has not happened
// at this step. Contention % per CPU at the right, counted up to now.

import { format } from 'd3-format';
import { scaleLinear } from 'd3-scale';
import type { EventLog } from '../engine/events';
import type { Player } from '../player/player';
import { firstEndingAfter, lockIntervals, type LockIntervals } from '../player/locks';
import { COLORS } from './palette';
import { beginCanvas, el, onResize } from './dom';

const MAX_LANES = 32;
const LABEL_W = 64;
const STAT_W = 150;
const pct = format('.0%');
const si = format('.3~s');

export function createLockTimelineView(body: HTMLElement) {
  const canvas = el('canvas', { class: 'lt-canvas', role: 'img', 'aria-label': 'zone->lock timeline' });
  const note = el('p', { class: 'panel-note' });
  body.append(canvas, note);
  let cache: { log: EventLog; iv: LockIntervals } | undefined;

  let last: Player | undefined;
  onResize(canvas, () => {
    if (last) update(last);
  });

  function update(p: Player) {
    last = p;
    const cpus = p.state.geo.cpus;
    if (!cache || cache.log !== p.log) cache = { log: p.log, iv: lockIntervals(p.log, cpus) };
    const iv = cache.iv;
    const lanes = Math.min(cpus, MAX_LANES);
    const laneH = lanes <= 8 ? 22 : lanes <= 16 ? 14 : 9;
    const cssH = `${lanes * laneH + 26}px`;
    if (canvas.style.height !== cssH) canvas.style.height = cssH;
    const drawing = beginCanvas(canvas);
    if (!drawing) return;
    const { ctx, w, h } = drawing;
    ctx.clearRect(0, 0, w, h);

    const now = p.state.time;
    const span = Math.max(iv.meanGap * 40, 1000);
    const x = scaleLinear()
      .domain([now - span * 0.8, now + span * 0.2])
      .range([LABEL_W, w - STAT_W]);
    const [t0, t1] = x.domain() as [number, number];
    ctx.font = '12px ui-monospace, DejaVu Sans Mono, monospace';
    ctx.textBaseline = 'middle';
    const summary: string[] = [];
    for (let c = 0; c < lanes; c++) {
      const y = c * laneH;
      ctx.fillStyle = '#232a36';
      ctx.fillRect(LABEL_W, y + 1, w - STAT_W - LABEL_W, laneH - 2);
      for (const [flat, color] of [
        [iv.spin[c]!, COLORS.spinning],
        [iv.hold[c]!, COLORS.holding],
      ] as const) {
        for (let k = firstEndingAfter(flat, t0); k < flat.length / 2; k++) {
          const a = flat[k * 2]!;
          const b = flat[k * 2 + 1]!;
          if (a > t1) break;
          // past: solid; the part after now: faint
          const xa = x(Math.max(a, t0));
          const xb = x(Math.min(b, t1));
          const xn = x(now);
          ctx.fillStyle = color;
          ctx.globalAlpha = 1;
          if (xa < xn) ctx.fillRect(xa, y + 2, Math.max(1, Math.min(xb, xn) - xa), laneH - 4);
          ctx.globalAlpha = 0.25;
          if (xb > xn) ctx.fillRect(Math.max(xa, xn), y + 2, Math.max(1, xb - Math.max(xa, xn)), laneH - 4);
          ctx.globalAlpha = 1;
        }
      }
      ctx.fillStyle = '#e6edf3';
      ctx.textAlign = 'left';
      ctx.fillText(`cpu ${c}`, 4, y + laneH / 2);
      const st = p.lockStats(c);
      const stat = st.acquisitions ? `${pct(st.contended / st.acquisitions)} contended` : 'no acquisitions';
      ctx.fillText(stat, w - STAT_W + 8, y + laneH / 2);
      summary.push(`cpu ${c} ${p.lockState(c)}, ${stat}`);
    }
    const xn = x(now);
    ctx.fillStyle = COLORS.highlight;
    ctx.fillRect(xn - 1, 0, 2, lanes * laneH);
    ctx.textAlign = 'center';
    ctx.textBaseline = 'top';
    ctx.fillStyle = '#aab4c0';
    ctx.fillText(`now t = ${si(now)}`, xn, lanes * laneH + 6);
    ctx.textAlign = 'left';
    ctx.fillText(`−${si(span * 0.8)}`, LABEL_W, lanes * laneH + 6);
    canvas.setAttribute('aria-label', `zone->lock timeline at t = ${now}: ${summary.join('; ')}`);
    const n =
      `spinning = waiting for zone->lock, holding = inside it; window ${si(span)} time units` +
      (cpus > lanes ? `; first ${lanes} of ${cpus} CPUs` : '');
    if (note.textContent !== n) note.textContent = n;
  }

  return { update };
}
