// Cache and prefetch: per-CPU counters of struct page accesses by outcome (L1 / L2 / LLC hit,
// remote hit, memory) and of buddy prefetches (used in time, late, wasted), and a strip of the
// current CPU's most recent cache records: the code path being animated, one cell per access.
// Every cell also carries a short label, so the outcome never depends on colour alone.

import { CPU_NONE, pathWhere, type EventLog } from '../log/events';
import { CacheIndex, STRIP, stripKind } from '../log/cacheindex';
import type { Player } from '../log/player';
import { CACHE } from '../log/state';
import { bindingLimit, memGbs, memLimitGbs, type SimStats } from '../engine/simstats';
import { beginCanvas, el, onResize } from '../ui/dom';

/** Per strip kind: colour (Okabe–Ito and greys, readable with colour blindness), label, name. */
export const STRIP_STYLE: { color: string; label: string; name: string }[] = [
  { color: '#56B4E9', label: 'L1', name: 'L1 hit' },
  { color: '#0072B2', label: 'L2', name: 'L2 hit' },
  { color: '#7d8796', label: 'LLC', name: 'LLC hit' },
  { color: '#CC79A7', label: 'rem', name: 'remote hit (line modified in another CPU)' },
  { color: '#D55E00', label: 'mem', name: 'miss to memory' },
  { color: '#009E73', label: 'pf✓', name: 'prefetch hit (landed before use)' },
  { color: '#F0E442', label: 'late', name: 'late prefetch (still in flight)' },
  { color: '#3a4250', label: '?', name: 'plain machine (no cache model)' },
  { color: '#1e2532', label: 'pf→', name: 'prefetch issued' },
  { color: '#E69F00', label: 'pf✗', name: 'prefetch wasted (evicted unused)' },
];
const CELL = 34;

/** Black or white, whichever reads better on `bg` (WCAG relative luminance). */
export function textOn(bg: string): string {
  const lin = (c: number) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  const [r, g, b] = [1, 3, 5].map((i) => lin(parseInt(bg.slice(i, i + 2), 16) / 255));
  const L = 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
  return (L + 0.05) / 0.05 >= 1.05 / (L + 0.05) ? '#000000' : '#ffffff';
}
const MAX_ROWS = 16;
const COLS = ['L1', 'L2', 'LLC', 'remote', 'memory', 'pf hit', 'pf late', 'pf issued', 'pf wasted', 'pf redundant'] as const;

export function createCacheView(body: HTMLElement) {
  const caption = el('p', { class: 'cache-caption', 'aria-live': 'off' });
  const canvas = el('canvas', { class: 'cache-strip', role: 'img', 'aria-label': 'recent cache accesses' });
  const legend = el('ul', { class: 'cache-legend', 'aria-label': 'strip legend' });
  for (const s of STRIP_STYLE.filter((_, k) => k !== 7)) {
    const sw = el('span', { class: 'cache-sw', text: s.label, 'aria-hidden': 'true' });
    sw.style.background = s.color;
    sw.style.color = textOn(s.color);
    legend.append(el('li', {}, sw, el('span', { text: s.name })));
  }
  const table = el('table', { class: 'cache-table' });
  const head = table.createTHead().insertRow();
  for (const h of ['cpu', ...COLS]) head.append(el('th', { scope: 'col', text: h }));
  const tbody = table.createTBody();
  const more = el('p', { class: 'panel-note' });
  const gauge = createMemoryGauge();
  body.append(gauge.root, caption, canvas, legend, el('div', { class: 'cache-table-wrap' }, table), more);

  let index: CacheIndex | undefined;
  let cells: HTMLTableCellElement[][] = [];
  let rows: HTMLTableRowElement[] = [];
  let last: Player | undefined;
  let drawnKey = '';
  onResize(canvas, () => {
    drawnKey = '';
    if (last) drawStrip(last);
  });

  function ensureRows(cpus: number) {
    const n = Math.min(cpus, MAX_ROWS);
    if (rows.length === n) return;
    tbody.replaceChildren();
    rows = [];
    cells = [];
    for (let c = 0; c < n; c++) {
      const r = tbody.insertRow();
      r.append(el('th', { scope: 'row', text: String(c) }));
      cells.push(COLS.map(() => r.insertCell()));
      rows.push(r);
    }
    more.textContent = cpus > n ? `first ${n} of ${cpus} CPUs` : '';
  }

  /** The CPU whose records the strip follows: the current event's, else the last one that acted. */
  function focusCpu(p: Player): number {
    const l = p.log;
    for (let i = p.step - 1, k = 0; i >= 0 && k < 64; i--, k++) if (l.cpu[i] !== CPU_NONE) return l.cpu[i]!;
    return 0;
  }

  function drawStrip(p: Player) {
    const log: EventLog = p.log;
    const cpu = focusCpu(p);
    const drawing = beginCanvas(canvas);
    if (!drawing || !index) return;
    const { ctx, w, h } = drawing;
    const n = Math.max(4, Math.floor(w / CELL));
    const recent = index.recent(cpu, p.step, n);
    const cur = p.currentIndex();
    const curPath = cur === undefined ? 0 : log.path[cur]!;
    const key = `${w}/${cpu}/${recent.at(-1) ?? -1}/${curPath}`;
    if (key === drawnKey) return;
    drawnKey = key;
    ctx.clearRect(0, 0, w, h);
    ctx.font = '11px ui-monospace, DejaVu Sans Mono, monospace';
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    const counts = new Array(STRIP_STYLE.length).fill(0);
    recent.forEach((i, k) => {
      const kind = stripKind(log, i);
      counts[kind]++;
      const st = STRIP_STYLE[kind]!;
      const x = k * CELL;
      // records of other code paths than the current event's are drawn faint
      ctx.globalAlpha = curPath === 0 || log.path[i] === curPath ? 1 : 0.4;
      ctx.fillStyle = st.color;
      ctx.fillRect(x + 1, 4, CELL - 2, h - 8);
      if (kind === STRIP.PREFETCH) {
        ctx.strokeStyle = '#009E73';
        ctx.lineWidth = 2;
        ctx.strokeRect(x + 2, 5, CELL - 4, h - 10);
      }
      ctx.fillStyle = textOn(st.color);
      ctx.fillText(st.label, x + CELL / 2, h / 2);
    });
    ctx.globalAlpha = 1;
    const where = pathWhere(curPath);
    const text = recent.length
      ? `cpu ${cpu}${where ? ` in ${where}` : ''}: its last ${recent.length} cache records, oldest left (other code paths faint)`
      : `cpu ${cpu}: no cache records yet at this step`;
    if (caption.textContent !== text) caption.textContent = text;
    const words = STRIP_STYLE.map((s, k) => (counts[k] ? `${counts[k]} ${s.name}` : '')).filter((x) => x);
    canvas.setAttribute('aria-label', `${text}. ${words.join(', ') || 'none'}`);
  }

  function drawTable(p: Player) {
    const s = p.state;
    ensureRows(s.geo.cpus);
    const cur = p.currentIndex();
    const cpuNow = cur === undefined ? -1 : p.log.cpu[cur]!;
    rows.forEach((r, c) => {
      const b = c * CACHE.WIDTH;
      const v = [0, 1, 2, 3, 4, 5, 6].map((k) => s.cache[b + k]!);
      v.push(s.cache[b + CACHE.ISSUED]!, s.cache[b + CACHE.WASTED]!, s.cache[b + CACHE.REDUNDANT]!);
      v.forEach((x, k) => {
        const t = x.toLocaleString('en');
        const td = cells[c]![k]!;
        if (td.textContent !== t) td.textContent = t;
      });
      const isNow = c === cpuNow;
      if (r.classList.contains('now') !== isNow) r.classList.toggle('now', isNow);
    });
  }

  return {
    /** `counters`: refresh the table too (the app does it a few times a second while playing). */
    update(p: Player, counters = true, stats?: SimStats) {
      last = p;
      gauge.set(stats);
      if (!index || index.log !== p.log) {
        index = new CacheIndex(p.log, p.state.geo.cpus);
        drawnKey = '';
      }
      if (!index.present) {
        caption.textContent = 'This log has no cache records (ACCESS / PREFETCH): it was recorded without the cache class, or on the plain machine.';
        canvas.hidden = true;
        return;
      }
      canvas.hidden = false;
      drawStrip(p);
      if (counters) drawTable(p);
    },
  };
}


/** What the gauge says of a run: the busiest socket's share of its memory controller's limit
 * (0..1, for the bar), and the sentence beside it. */
export function memoryGaugeText(s: SimStats): { fill: number; text: string } {
  const lim = memLimitGbs(s);
  const b = bindingLimit(s);
  const binds = `the limit that binds: ${b.text}${b.name === 'none' ? '' : ` (${b.share.toFixed(1)} % of the CPUs’ time)`}`;
  if (!lim) return { fill: 0, text: `memory: ${memGbs(s).toFixed(1)} GB/s, no bandwidth limit in this run; ${binds}` };
  const util = s.memUtilBp / 100;
  return {
    fill: Math.min(1, util / 100),
    text: `memory controller, busiest socket: ${util.toFixed(1)} % of its ${lim.toFixed(1)} GB/s (all sockets ${memGbs(s).toFixed(1)} GB/s); CPUs waiting on memory ${(s.memWaitBp / 100).toFixed(1)} % of their time; ${binds}`,
  };
}

/** A bar for the whole run's memory traffic against the socket's limit, with the sentence;
 * hidden when the page has no run counters (an imported log, an op script). */
function createMemoryGauge() {
  const bar = el('div', { class: 'mem-gauge-fill' });
  const track = el('div', { class: 'mem-gauge-track', role: 'meter', 'aria-valuemin': '0', 'aria-valuemax': '100', 'aria-label': 'memory bandwidth used, busiest socket, % of its limit' }, bar);
  const text = el('p', { class: 'mem-gauge-text' });
  const root = el('div', { class: 'mem-gauge', hidden: true }, track, text);
  let shown: SimStats | undefined;
  return {
    root,
    set(s: SimStats | undefined) {
      if (s === shown) return;
      shown = s;
      root.hidden = !s;
      if (!s) return;
      const g = memoryGaugeText(s);
      bar.style.width = `${(g.fill * 100).toFixed(1)}%`;
      bar.classList.toggle('binds', bindingLimit(s).name === 'memory');
      track.setAttribute('aria-valuenow', (g.fill * 100).toFixed(1));
      text.textContent = g.text;
    },
  };
}
