// The compare page's replays: one column per configuration (its views from the registry, the
// run as JSON, what the small run is), all stepped together by virtual time under one playback
// clock (web/ui/playback.ts): play all (Space), the shared scrubber, and PageDown / PageUp in
// presenter mode. The replays run side by side in the engine's worker pool (SimPool.replay());
// each is decoded, built and first drawn in short slices, so the page never blocks.
import type { ReplayResult, SimRequest } from '../engine/blab-module';
import { pcpWarnings, pcpWarningsApply } from '../engine/pcp-warning';
import type { SimPool } from '../engine/pool';
import { eventLogToJson } from '../log/eventlog-json';
import { decodeEventsInSlices, type EventLog } from '../log/events';
import { Player } from '../log/player';
import { nextTask } from '../log/yield';
import type { SimConfig } from '../lessons/lesson';
import { el } from '../ui/dom';
import { download } from '../ui/download';
import { addViewExportButtons } from '../ui/export-buttons';
import { createPlayback } from '../ui/playback';
import { createPfnDialog, type PfnDialog } from '../views/pfn-dialog';
import type { PcpParams } from '../views/pcp';
import { mountViewSet, viewTitle, type ViewId, type ViewSet } from '../views/registry';
import { seriesColor } from '../views/throughput';
import { unusableIndex } from './diff';
import type { LatencyReport } from '../log/latency-json';
import { findCallRecord } from '../log/latency-record';
import type { LatencyData } from '../views/latency-data';
import type { LatencySelect } from '../views/latency';
import { formatConfig, type CompareState, type CompareWorkload } from './compare-url';
import { replayRequest, slubPrefetchOf } from './compare-request';
import { CORE_PRESETS } from '../scenario/core-schema';
import { cpuCount, sizeWords } from './describe-runs';

/** The replays' views: the pcp lists for the order-0 workloads and hackbench's slabs' pages,
 * the free areas where order-9 blocks are the point; the lock timeline for all. */
const compareViews = (w: CompareWorkload): ViewId[] =>
  w === 'stress_highalloc' || w === 'mixed' ? ['free-areas', 'lock-timeline'] : ['pcp', 'lock-timeline'];
/** virtual cycles per second of playback at 1x */
const CYCLES_PER_SECOND = 200_000;
/** ms of replay decoding or building per task: well under the 50 ms a task may block the page */
const REPLAY_SLICE_MS = 15;

interface Column {
  config: SimConfig;
  player: Player;
  /** the replay's latencies (the replays count them), for the latency view under the columns */
  latency?: LatencyReport;
  pcp: PcpParams;
  /** running maximum of the log's times, so "the last record at or before t" is a binary search */
  maxTime: Float64Array;
  set: ViewSet;
}

/** A run's high in words: a 6.7+ list's high moves, and the run's number is its high_min. */
export function highWords(preset: string, high: number): string {
  return (CORE_PRESETS.find((p) => p.name === preset)?.strategy.highMode ?? 0) >= 2 ? `high_min ${high} (high moves up to high_max)` : `high ${high}`;
}

/** The playback position in words. */
const timeLabel = (t: number) => `t = ${Math.round(t).toLocaleString('en')} cycles`;

/** The step whose records all happened at or before virtual time t. */
function stepAtTime(maxTime: Float64Array, t: number): number {
  let lo = 0;
  let hi = maxTime.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (maxTime[mid]! <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The index of the first record in [from, to) at which the logs stop being the same (any field,
 * time included), or -1. Field by field over the columns (typed arrays, a tight loop).
 */
export function firstDifferentRecord(logs: readonly EventLog[], from: number, to: number): number {
  const [a, ...rest] = logs;
  if (!a) return -1;
  const fields = ['type', 'cpu', 'pfn', 'order', 'mt', 'path', 'flags', 'arg0', 'arg1', 'time'] as const;
  let first = to;
  for (const l of rest)
    for (const f of fields) {
      const x = a[f];
      const y = l[f];
      for (let i = from; i < first; i++)
        if (x[i] !== y[i]) {
          first = i;
          break;
        }
    }
  return first < to ? first : -1;
}

/**
 * The virtual time of the first record at which the logs stop being the same, the latest of
 * theirs at that index; undefined when none differs before the shortest one ends. Read a slice
 * of records at a time, so the page never blocks on logs of 10^5 records.
 */
export async function firstDifference(logs: readonly EventLog[], yieldEvery = 1 << 15): Promise<number | undefined> {
  if (logs.length < 2) return undefined;
  const n = Math.min(...logs.map((l) => l.length));
  for (let from = 0; from < n; from += yieldEvery) {
    const i = firstDifferentRecord(logs, from, Math.min(n, from + yieldEvery));
    if (i >= 0) return Math.max(...logs.map((l) => l.time[i]!));
    await nextTask();
  }
  return undefined;
}

/** A replayed column's note: how small its scenario is, and where the figures below come from. */
function replayNote(s: CompareState, req: SimRequest, fragmentation: number): string {
  const small =
    s.workload === 'stress_highalloc'
      ? 'the same run as measured below'
      : req.workload === 'hackbench'
        ? `a small scenario to step through: ${req.groups} groups x ${req.loops} messages, clear_page() through ${req.clearLines} lines`
        : `a small scenario to step through: ${cpuCount(req.cpus)} x ${req.pages} pages, one round, clear_page() through ${req.clearLines} lines`;
  return `Replay: ${small}; it ends with an unusable free space index of ${fragmentation.toFixed(3)} at pageblock_order. The table and chart below come from the measured runs (${sizeWords(s)}).`;
}

interface ColumnOptions {
  state: CompareState;
  /** the column's index: its configuration, colour and ids */
  k: number;
  r: ReplayResult;
  req: SimRequest;
  views: readonly ViewId[];
  cols: HTMLElement;
  pfnDialog: PfnDialog;
  current(): boolean;
  /** the column is on the page (its views not drawn yet); with its end's unusable free space index */
  onColumn(c: Column, fragmentation: number): void;
}

/** One replay's column: built, its views mounted and first drawn, a task at a time; false when
 * a newer compare started meanwhile. */
async function addColumn(o: ColumnOptions): Promise<boolean> {
  const { state, k, r, views, current } = o;
  const c = state.configs[k]!;
  // decoded and built in short slices, so a large replay never blocks the page for long
  const log = await decodeEventsInSlices(r.events, REPLAY_SLICE_MS);
  if (!current()) return false;
  const player = await Player.build(log, { sliceMs: REPLAY_SLICE_MS });
  await nextTask(); // the player's last slice ran in this task
  if (!current()) return false;
  const stats = r.stats;
  if (!stats) throw new Error(`${c.label}: the core returned no counters`);
  const maxTime = new Float64Array(player.length);
  let m = 0;
  for (let i = 0; i < player.length; i++) maxTime[i] = m = Math.max(m, player.log.time[i]!);
  player.seek(player.length);
  const frag = unusableIndex(player.state, Math.min(9, player.state.geo.maxOrder));
  await nextTask(); // the seek to the end replayed the whole log
  if (!current()) return false;
  const col = el('section', { class: 'compare-col', 'aria-label': c.label });
  const head = el('h3', { class: 'compare-col-title' }, el('span', { class: 'swatch', style: `background:${seriesColor(k)}` }), c.label);
  const json = el('button', { type: 'button', class: 'small', text: 'Run as JSON' });
  json.addEventListener('click', () => download(eventLogToJson(player.log, `compare ${c.label}`), `compare-${formatConfig(c)}.events.json`, 'application/json'));
  col.append(
    head,
    el('p', { class: 'hint', text: `batch ${stats.batch}, ${highWords(c.preset, stats.high)}${state.workload === 'hackbench' ? `, freelist prefetch ${slubPrefetchOf(c) ? 'on' : 'off'}` : ''}, ${player.length.toLocaleString('en')} events` }),
    el('p', { class: 'hint replay-scale', text: replayNote(state, o.req, frag) }),
    ...(pcpWarningsApply(state.workload) ? pcpWarnings(stats, c.preset) : []).map((w) => el('p', { class: 'alert pcp-warning', role: 'note', text: `This replay: ${w}` })),
    json,
  );
  o.cols.append(col);
  const pcp: PcpParams = { batch: stats.batch, high: stats.high, source: 'from the run' };
  const set = mountViewSet(col, views, `cmp${k}`);
  o.pfnDialog.listen(col, () => player);
  for (const v of views) {
    const p = set.panelOf(v);
    if (p) addViewExportButtons(p, { title: `${c.label}: ${viewTitle(v)}`, what: `${c.label} ${v}`, file: `compare-${k}-${v}` });
  }
  o.onColumn({ config: c, player, pcp, maxTime, set, ...(r.latency ? { latency: r.latency } : {}) }, frag);
  // each view's first picture (the run's end, where the player stands) in a task of its
  // own: a first draw builds the view's DOM (the lock timeline's, 56 CPUs' lanes: 20-40
  // ms); draw() then only moves them to the time asked
  for (const v of set.views) {
    await nextTask();
    if (!current()) return false;
    v.update({ player, pcp });
  }
  await nextTask();
  return current();
}

export interface ReplayColumns {
  /** the playback bar: play all, the shared scrubber, the time */
  readonly bar: HTMLElement;
  /** the columns, side by side */
  readonly cols: HTMLElement;
  /** each replayed column's unusable free space index at its end (the diff table's last row) */
  readonly fragmentation: readonly number[];
  /** each view of every column, first views first, for the lecture's slides */
  figures(): { id: string; title: string; el: HTMLElement }[];
  /** a new compare: no columns, paused at t = 0 */
  clear(): void;
  /** replays the state's configurations into columns; false when a newer compare started meanwhile */
  replay(state: CompareState, current: () => boolean): Promise<boolean>;
  /** moves the shared clock by a fraction of the run (presenter mode) */
  seekBy(f: number): void;
  /** draws every column at the shared clock's time (after a change of type size) */
  draw(): void;
  readonly shown: boolean;
  /** the replays' latencies, one source per column in the columns' colours (none before a replay) */
  latency(): LatencyData | undefined;
  /** moves the shared clock to the record of a latency bucket's longest call; what it did, in words */
  goToCall(sel: LatencySelect): string;
}

export interface ReplayColumnsOptions {
  pool: SimPool;
  /** the page's status line: what is being replayed */
  status: HTMLElement;
  /** the time moved: into the URL (coalesced harder while playing) */
  onTime(t: number, playing: boolean): void;
}

export function createReplayColumns(o: ReplayColumnsOptions): ReplayColumns {
  const bar = el('div', { class: 'compare-bar playerbar', 'aria-label': 'Synchronised playback' });
  const play = el('button', { type: 'button', class: 'play', text: '▶ play', 'aria-label': 'Play all (Space)' });
  const scrub = el('input', { type: 'range', id: 'cmp-scrub', min: 0, max: 0, step: 1, value: 0, 'aria-label': 'Virtual time, all configurations' });
  const tOut = el('output', { for: 'cmp-scrub', class: 'stepout' });
  bar.append(play, el('div', { class: 'scrubber' }, scrub, tOut));
  const cols = el('div', { class: 'compare-cols' });
  let columns: Column[] = [];
  /** the views every column shows */
  let views: ViewId[] = [];
  let fragmentation: number[] = [];
  let t = 0;
  let tMax = 0;

  const draw = () => {
    for (const c of columns) {
      c.player.seek(stepAtTime(c.maxTime, t));
      c.set.update({ player: c.player, pcp: c.pcp });
    }
    scrub.value = String(Math.round(t));
    tOut.textContent = timeLabel(t);
    o.onTime(t, playback.playing);
  };
  const playback = createPlayback({
    position: () => t,
    end: () => tMax,
    show: (pos) => {
      t = pos;
      draw();
    },
    rate: CYCLES_PER_SECOND,
    onPlayingChange: (on) => {
      play.textContent = on ? '❚❚ pause' : '▶ play';
    },
  });
  // a page's or pcp list's history; its steps are a column's records: jump to their time
  const pfnDialog = createPfnDialog((step, p) => playback.seek(p.log.time[Math.max(0, step - 1)]!));
  scrub.addEventListener('input', () => playback.seek(Number(scrub.value)));
  play.addEventListener('click', () => playback.toggle());
  document.addEventListener('keydown', (ev) => {
    const target = ev.target as HTMLElement | null;
    if (ev.key === ' ' && !target?.closest('input, select, textarea, button') && columns.length) {
      ev.preventDefault();
      playback.toggle();
    }
  });

  async function replay(state: CompareState, current: () => boolean): Promise<boolean> {
    views = compareViews(state.workload);
    const unit = state.workload === 'hackbench' ? 'groups' : 'CPUs';
    o.status.textContent = `replaying ${state.configs.length} configurations at ${state.cpus} ${unit}, a small scenario…`;
    // as many replays asked for at once as the pool has workers, so they run side by side
    // and a column is built while the next replay runs; no more, so that no more logs than
    // that wait to be decoded (each up to 2^21 records, 64 MB)
    const reqs = state.configs.map((c) => replayRequest(state, c, 1 << 21));
    const pending: Promise<ReplayResult>[] = [];
    const ask = (upTo: number) => {
      for (let i = pending.length; i < Math.min(upTo, reqs.length); i++) {
        const p = o.pool.replay(reqs[i]!);
        p.catch(() => undefined); // awaited below, in order
        pending.push(p);
      }
    };
    for (let k = 0; k < state.configs.length; k++) {
      ask(k + o.pool.size);
      const r = await pending[k]!;
      if (!current()) return false;
      if (r.status !== 0) throw new Error(`${state.configs[k]!.label}: ${r.stderr.trim()}`);
      const onColumn = (c: Column, frag: number) => {
        fragmentation[k] = frag;
        columns.push(c);
      };
      if (!(await addColumn({ state, k, r, req: reqs[k]!, views, cols, pfnDialog, current, onColumn }))) return false;
    }
    tMax = Math.max(...columns.map((c) => c.maxTime[c.maxTime.length - 1] ?? 0));
    scrub.max = String(tMax);
    // room for the widest time this run can show, so the label is never cut off
    tOut.style.minWidth = `${timeLabel(tMax).length + 1}ch`;
    // a link without t starts where the configurations first do something different (the
    // first drain, for v4.16 against v4.17): the end looks the same in every column
    const differ = await firstDifference(columns.map((c) => c.player.log));
    if (!current()) return false;
    t = state.t >= 0 ? Math.min(state.t, tMax) : differ ?? tMax;
    draw();
    cols.dataset['drawnMs'] = String(Math.round(performance.now())); // tests: after the shipped chart
    o.status.textContent =
      state.t >= 0 ? '' : differ === undefined ? 'The replays do the same thing all the way: shown at their end.' : `Shown from where the replays first differ (${timeLabel(differ)}); the scrubber moves all of them.`;
    return true;
  }

  return {
    bar,
    cols,
    get fragmentation() {
      return fragmentation;
    },
    figures: () => {
      return views.flatMap((v) => columns.map((c, k) => ({ id: `${k}-${v}`, title: `${c.config.label}: ${viewTitle(v)}`, el: c.set.panelOf(v)! })));
    },
    clear: () => {
      playback.pause();
      cols.replaceChildren();
      delete cols.dataset['drawnMs'];
      columns = [];
      fragmentation = [];
      t = 0;
    },
    replay,
    seekBy: (f) => {
      if (columns.length) playback.seek(t + f * tMax);
    },
    draw,
    get shown() {
      return columns.length > 0;
    },
    latency: () => (columns.length && columns.every((c) => c.latency) ? { sources: columns.map((c) => ({ label: c.config.label, report: c.latency! })) } : undefined),
    goToCall: (sel) => {
      const c = columns[sel.source];
      if (!c?.latency) return '';
      const hit = findCallRecord(c.player.log, sel.call, sel.kind);
      const us = (sel.call.cycles / c.latency.cyclesPerUs).toLocaleString('en', { maximumFractionDigits: 2 });
      if (!hit.ok) return `${c.config.label}: the ${us} µs call on cpu ${sel.call.cpu} cannot be shown: ${hit.why}.`;
      // every column to that moment: the slow call's record is the last its column replays
      playback.seek(c.player.log.time[hit.index]!);
      return `${c.config.label}: the call that took ${us} µs (cpu ${sel.call.cpu}), record #${hit.index}; every column is at its time.`;
    },
  };
}
