// The workbench's player: it holds the loaded run, plays it (the playback clock of
// web/ui/playback.ts), answers the player's keys, keeps the scenario and the step in the URL
// hash, and draws the views at the current step. Data flows one way: a log goes into a Player;
// the views draw the Player's state. The panels around it (web/panels/, placed by
// workbench.ts) hear about every new scenario and run through load() and hand runs back
// through loadEventLog, the engine's way in too: call `app.loadEventLog(buffer)` with an
// ArrayBuffer of 32-byte records (docs/events.md). Everything else follows from the log.

import { LogError, decodeEvents, pathWhere } from '../log/events';
import { JUMP_KINDS, Player, type JumpKind } from '../log/player';
import { DEFAULT_SCENARIO, UrlStateError, formatHash, parseHash, type Scenario } from '../scenario/url';
import { el } from '../ui/dom';
import { describeEvent } from '../log/describe';
import type { PcpParams } from '../views/pcp';
import { buddyinfoText } from '../views/procfs';
import type { MountedView } from '../views/registry';
import { createPresenter, showChosenFigures, type Presenter, type PresenterFigure } from '../ui/presenter';
import type { SimStats } from '../engine/simstats';
import type { LoadOptions, LoadResult, Panel, PanelData } from '../panels/panel';
import { MAX_LOG_BYTES } from '../panels/binlog-panel';
import { workloadEntry } from '../scenario/workloads';
import { createPfnDialog } from '../views/pfn-dialog';
import { createVisibility } from '../ui/visibility';
import { playbackKey } from '../ui/playback-keys';
import { createPlayback, type Playback } from '../ui/playback';
import { SPEEDS, createPlayerBar, keyboardHelp, type PlayerBar } from './playerbar';
import { mountWorkbenchViews, workbenchFigures } from './workbench-views';
import type { RealHistogram } from '../log/histtext-json';
import type { LatencyReport, LatRecordKind, LatSeriesId } from '../log/latency-json';
import { findCallRecord } from '../log/latency-record';
import type { LatencyData } from '../views/latency-data';
import type { LatencySelect } from '../views/latency';

/** what a latency bucket's longest call was, in words */
const CALL_WORDS: Record<LatRecordKind, string> = { ALLOC: 'allocation', FREE: 'free', RMQUEUE_BULK: 'rmqueue_bulk() call', PCP_DRAIN: 'free_pcppages_bulk() call' };

/** records per second at 1x */
const BASE_RATE = 8;

function latest(times: ArrayLike<number>): number {
  let m = 0;
  for (let i = 0; i < times.length; i++) if (times[i]! > m) m = times[i]!;
  return m;
}

/** The clock in the step readout: an imported trace's time since its first event (the kernel's
 * timestamps are ns since boot), else the run's own clock (model cycles, or ops). */
function timeText(p: Player, t: number): string {
  return p.state.geo.imported ? `t = ${(t / 1000).toLocaleString('en', { minimumFractionDigits: 1, maximumFractionDigits: 1 })} µs into the trace` : `t = ${t.toLocaleString('en')}`;
}

export class App {
  private player: Player | undefined;
  private pcp: PcpParams = { high: undefined, batch: undefined, source: 'no log' };
  /** the counters of the model run the loaded log came from (LoadOptions.stats) */
  private runStats: SimStats | undefined;
  private scenario: Scenario = { ...DEFAULT_SCENARIO };
  /** the step a link asked for, taken once its run is loaded */
  private pendingStep = 0;
  private jumpKind: JumpKind = 'merge';
  private label = '';
  /** the loaded run's latencies (a model run that counted them), and an imported histogram:
   * one object per change, so the latency view redraws only then */
  private latency: { report?: LatencyReport; real?: { label: string; hist: RealHistogram }; series?: LatSeriesId; data?: LatencyData } = {};
  /** the panels told about every new scenario and run (load()) */
  private readonly panels: Panel[] = [];
  private readonly playback: Playback;
  private readonly bar: PlayerBar;
  /** the sidebar: the keyboard's list, and the panels the workbench places around it */
  readonly sidebar: HTMLElement;
  /** the views, and any panel the workbench places among them */
  readonly views: HTMLElement;
  /** the views, from the registry, in page order */
  private readonly mounted: MountedView[];
  private readonly figures: (PresenterFigure & { el: HTMLElement })[];
  private readonly presenter: Presenter;
  private readonly visibility = createVisibility(() => this.render());
  private readonly line = {
    log: el('p', { class: 'loglabel' }),
    event: el('p', { class: 'eventline', id: 'event-line', 'aria-live': 'polite' }),
    status: el('p', { class: 'status', role: 'status' }),
    alert: el('p', { class: 'alert', role: 'alert' }),
  };
  /** redraws: one per animation frame; readouts and text views at their own pace */
  private readonly frame = { requested: false, lastText: 0, lastReadout: 0 };
  private readonly hash = { timer: undefined as number | undefined, writtenAt: -Infinity };

  constructor(root: HTMLElement) {
    this.sidebar = el('aside', { class: 'sidebar', 'aria-label': 'Scenario and event log' }, keyboardHelp());
    this.playback = createPlayback({
      position: () => this.step(),
      end: () => this.player?.length ?? 0,
      show: (step) => this.seek(step),
      rate: BASE_RATE,
      speeds: SPEEDS,
      speedIndex: SPEEDS.indexOf(1),
      whole: true,
      find: (dir, kind) => (dir > 0 ? this.player?.findNext(kind as JumpKind) : this.player?.findPrev(kind as JumpKind)),
      onPlayingChange: (on) => {
        this.line.event.setAttribute('aria-live', on ? 'off' : 'polite'); // do not flood screen readers while playing
        this.render();
      },
    });
    this.bar = createPlayerBar({
      seek: (to) => this.seek(to === 'end' ? (this.player?.length ?? 0) : to),
      stepBy: (n) => this.seek(this.step() + n),
      togglePlay: () => this.togglePlay(),
      jump: (dir, kind) => this.jump(dir, kind),
      setSpeedIndex: (i) => this.playback.setSpeed(i),
      setJumpKind: (k) => {
        this.jumpKind = k;
      },
    });
    this.views = el('div', { class: 'views', id: 'views', tabindex: -1 });
    this.mounted = mountWorkbenchViews(this.views);
    this.figures = workbenchFigures(this.mounted);
    // presenter mode (web/ui/presenter.ts): PageDown / PageUp jump to the next / previous event
    // of the "jump to" kind; a slide shows the free areas and the pcp lists, or the chosen figures
    this.presenter = createPresenter({
      root,
      next: () => this.jump(1),
      prev: () => this.jump(-1),
      onLecture: () => {
        this.showFigures();
        this.render(); // figure labels are drawn at the new size
      },
      onFigures: () => this.showFigures(),
      lecture: new URLSearchParams(location.search).get('lecture') === '1',
      stepKeys: false,
      signal: new AbortController().signal,
    });
    this.presenter.setFigures(this.figures);
    this.showFigures();
    this.bar.root.append(this.presenter.controls);

    // a click on a page (mem_map, free areas) or a pcp list opens the page's history
    createPfnDialog((step) => this.seek(step)).listen(this.views, () => this.player);
    // a click on a latency bucket goes to its longest call
    this.views.addEventListener('latency-select', (ev) => this.goToCall((ev as CustomEvent<LatencySelect>).detail));
    const l = this.line;
    const content = el('div', { class: 'content' }, this.bar.root, l.log, l.event, l.status, l.alert, this.views);
    root.replaceChildren(this.sidebar, content);
    for (const sec of this.views.querySelectorAll('section.panel')) this.visibility.watch(sec);

    this.readHash();
    window.addEventListener('hashchange', () => this.readHash(true));
    document.addEventListener('keydown', (ev) => this.onKey(ev));
    this.render();
  }

  /** A figure lecture mode may show besides the views (a panel the workbench put among them). */
  addFigure(f: PresenterFigure & { el: HTMLElement }): void {
    this.figures.push(f);
    this.presenter.setFigures(this.figures);
    this.showFigures();
    this.visibility.watch(f.el);
  }

  private showFigures() {
    showChosenFigures(this.figures, this.presenter.chosen, this.presenter.lecture);
  }

  /** The step a link asked for before any run was loaded (0: none). */
  linkStep(): number {
    return this.pendingStep;
  }

  /** A new scenario from the scenario form: into the URL, and to every panel. */
  setScenario(s: Scenario): void {
    this.scenario = s;
    this.tellPanels();
    this.writeHash();
    if (!this.player) this.render(); // the hint names the scenario the button would run
  }

  /** Decodes and validates a whole log, then shows it. Never throws: errors are shown and returned. */
  loadEventLog(data: ArrayBuffer | ArrayBufferView | Player, opts: LoadOptions = {}): LoadResult {
    this.pause();
    let player: Player;
    try {
      if (data instanceof Player) player = data; // built already (Player.build(), an imported trace)
      else if (data.byteLength > MAX_LOG_BYTES) throw new LogError(-1, `the log is ${data.byteLength} bytes; the limit is ${MAX_LOG_BYTES}`);
      else player = new Player(decodeEvents(data));
    } catch (e) {
      const msg = e instanceof Error ? e.message : String(e);
      this.showError(`This event log cannot be replayed: ${msg}`);
      return { ok: false, error: msg };
    }
    this.player = player;
    this.runStats = opts.stats;
    const seen = player.observedPcp();
    this.pcp = opts.pcp
      ? { ...opts.pcp, source: 'from the scenario' }
      : { ...seen, source: 'as observed in the log' };
    this.line.alert.textContent = '';
    const g = player.state.geo;
    this.line.log.textContent =
      `${opts.label ?? 'event log'}: ${player.length.toLocaleString('en')} events, ` +
      `${g.pages.toLocaleString('en')} pages, ${g.cpus} CPU${g.cpus === 1 ? '' : 's'}`;
    this.bar.scrub.max = String(player.length);
    // reserve the widest readout this log can show, so the scrubber never shifts while playing
    const widest = `step ${player.length.toLocaleString('en')} / ${player.length.toLocaleString('en')} · ${timeText(player, latest(player.log.time))}`;
    this.bar.stepOut.style.minWidth = `${widest.length + 1}ch`;
    let step = this.pendingStep;
    if (step > player.length) {
      this.line.status.textContent = `step ${step} is past the end of this log (${player.length} events): showing the last step`;
      step = player.length;
    }
    this.pendingStep = 0;
    this.label = opts.label ?? 'event log';
    this.setLatency({ ...this.latency, report: opts.latency });
    player.seek(step);
    this.render();
    this.tellPanels();
    return { ok: true, events: player.length };
  }

  /** An imported kernel latency histogram over the run's (or none): shown over the series its
   * function measures, which the view switches to. */
  setLatencyOverlay(real: { label: string; hist: RealHistogram; series: LatSeriesId } | undefined): void {
    this.setLatency({ ...this.latency, real: real && { label: real.label, hist: real.hist }, series: real?.series });
    this.render();
  }

  private setLatency(l: { report?: LatencyReport; real?: { label: string; hist: RealHistogram }; series?: LatSeriesId }) {
    const sources = l.report ? [{ label: this.label, report: l.report }] : [];
    // a histogram alone (no run yet) is drawn too: the kernel's, with no model bars beside it
    const data: LatencyData | undefined = sources.length || l.real ? { sources, ...(l.real ? { real: l.real } : {}), ...(l.series ? { series: l.series } : {}) } : undefined;
    this.latency = { ...l, ...(data ? { data } : {}) };
    if (!data) delete this.latency.data;
  }

  /** Moves the player to the record of a latency bucket's longest call, or says why it cannot. */
  private goToCall(sel: LatencySelect) {
    const p = this.player;
    if (!p || !this.latency.report) return;
    const r = findCallRecord(p.log, sel.call, sel.kind);
    const what = CALL_WORDS[sel.kind];
    const us = (sel.call.cycles / this.latency.report.cyclesPerUs).toLocaleString('en', { maximumFractionDigits: 2 });
    if (!r.ok) {
      this.line.status.textContent = `The ${us} µs ${what} on cpu ${sel.call.cpu} cannot be shown: ${r.why}.`;
      return;
    }
    this.line.status.textContent = `The ${what} that took ${us} µs (cpu ${sel.call.cpu}): record #${r.index}.`;
    this.seek(r.index + 1);
  }

  /** Adds a panel to those told (load()) about each new scenario and run; tells it the current ones now. */
  addPanel(p: Panel): void {
    this.panels.push(p);
    p.load?.(this.panelData());
  }

  private panelData(): PanelData {
    const p = this.player;
    return { scenario: { ...this.scenario }, ...(p ? { player: p, run: { label: this.label, pcp: this.pcp } } : {}) };
  }

  private tellPanels() {
    const d = this.panelData();
    for (const p of this.panels) p.load?.(d);
  }

  step(): number {
    return this.player?.step ?? 0;
  }

  /** For tests and the lead's wiring: what the panels show, as text. */
  snapshot() {
    const p = this.player;
    return {
      loaded: p !== undefined,
      step: p?.step ?? 0,
      length: p?.length ?? 0,
      playing: this.playback.playing,
      speed: this.playback.speed,
      buddyinfo: p ? buddyinfoText(p) : '',
    };
  }

  seek(step: number) {
    if (!this.player) return;
    this.player.seek(step);
    this.render();
  }

  jump(dir: 1 | -1, kind: JumpKind = this.jumpKind) {
    if (!this.player) return;
    this.saidJump(this.playback.jump(dir, kind), dir, kind);
  }

  /** "no later MERGE in this log" when a jump found none */
  private saidJump(found: boolean, dir: 1 | -1, kind: JumpKind) {
    if (!this.player) return;
    this.line.status.textContent = found ? '' : `no ${dir > 0 ? 'later' : 'earlier'} ${JUMP_KINDS[kind].label} in this log`;
  }

  togglePlay() {
    if (this.playback.playing) this.pause();
    else this.play();
  }

  play() {
    if (!this.player) return;
    this.playback.play();
    this.render();
  }

  pause() {
    this.playback.pause();
  }

  private onKey(ev: KeyboardEvent) {
    const answered = playbackKey(ev, this.playback, {
      jumpKind: () => this.jumpKind,
      jumped: (found, dir, kind) => this.saidJump(found, dir, kind as JumpKind),
      speed: (i) => this.setSpeed(i),
    });
    if (answered) ev.preventDefault();
  }

  private setSpeed(i: number) {
    this.playback.setSpeed(i);
    this.bar.speed.value = String(this.playback.speed);
  }

  private showError(msg: string) {
    this.line.alert.textContent = msg;
  }

  private readHash(fromEvent = false) {
    try {
      const u = parseHash(window.location.hash);
      this.scenario = u.scenario;
      this.tellPanels();
      if (this.player && fromEvent) {
        if (u.step !== this.player.step) this.seek(u.step);
      } else {
        this.pendingStep = u.step;
      }
      this.line.alert.textContent = '';
    } catch (e) {
      if (!(e instanceof UrlStateError)) throw e;
      this.showError(`The link's state was ignored: ${e.message}`);
    }
  }

  private writeHash() {
    const h = this.hash;
    window.clearTimeout(h.timer);
    const write = () => {
      const next = formatHash({ scenario: this.scenario, step: this.step() });
      if (window.location.hash !== next) history.replaceState(null, '', next);
    };
    // While playing, the step changes every frame: coalesce. Otherwise write at once, so
    // whatever reads the URL next (a copied link, "Save current scenario") sees this state,
    // but at most every 100 ms (browsers throttle replaceState), with a trailing write.
    const now = performance.now();
    const playing = this.playback.playing;
    if (!playing && now - h.writtenAt >= 100) {
      h.writtenAt = now;
      write();
      return;
    }
    h.timer = window.setTimeout(() => {
      h.writtenAt = performance.now();
      write();
    }, playing ? 500 : 100);
  }

  /** Coalesces redraws into one per animation frame. */
  private render() {
    if (this.frame.requested) return;
    this.frame.requested = true;
    requestAnimationFrame(() => {
      this.frame.requested = false;
      this.draw();
    });
  }

  private draw() {
    const p = this.player;
    const loaded = p !== undefined;
    const { play, scrub, stepOut, buttons } = this.bar;
    const playing = this.playback.playing;
    const fast = playing && this.playback.speed >= 4;
    // every write below is skipped when nothing changed: a write costs a style and layout pass
    if (scrub.disabled === loaded) {
      for (const b of buttons) b.disabled = !loaded;
      scrub.disabled = !loaded;
    }
    const playText = playing ? '❚❚ pause' : '▶ play';
    if (play.textContent !== playText) {
      play.textContent = playText;
      play.setAttribute('aria-label', playing ? 'Pause (Space)' : 'Play (Space)');
    }
    this.views.classList.toggle('empty', !loaded);
    // fast playback: no CSS transitions (they would restart every frame) and no per-frame text
    this.views.classList.toggle('playing-fast', fast);
    if (!p) {
      stepOut.textContent = 'step 0 / 0';
      this.line.log.textContent = 'No event log loaded.';
      // the scenario the button would run, as the workload table maps it (never typed here)
      const s = this.scenario;
      const size = workloadEntry(s.workload)?.size(s.pages, s.cpus);
      this.line.event.textContent = `Press Run scenario (left) to run ${s.workload} on ${size?.tasks ?? s.cpus} model CPUs, then “next drain ▶” to watch a pcp list drain into the free areas.`;
      return;
    }
    // Playing fast, the readouts change faster than anyone reads them: 10 times a second is
    // enough, and a frame that leaves them alone repaints (composites) only the views.
    const t = performance.now();
    if (!fast || t - this.frame.lastReadout >= 100) {
      this.frame.lastReadout = t;
      scrub.value = String(p.step);
      scrub.setAttribute('aria-valuetext', `step ${p.step} of ${p.length}`);
      stepOut.textContent = `step ${p.step.toLocaleString('en')} / ${p.length.toLocaleString('en')} · ${timeText(p, p.state.time)}`;
      const cur = p.currentIndex();
      const where = cur === undefined ? undefined : pathWhere(p.log.path[cur]!);
      this.line.event.textContent =
        cur === undefined
          ? 'step 0: before the first record'
          : `#${cur} ${describeEvent(p.log, cur)}${where ? `  [${where}]` : ''}`;
    }
    // While playing, views scrolled out of view wait and text views refresh four times a second
    // (each view's pace, web/views/registry.ts); pausing or seeking draws them all at once.
    const now = performance.now();
    const textDue = !playing || now - this.frame.lastText >= 250;
    if (textDue) this.frame.lastText = now;
    const data = { player: p, pcp: this.pcp, textDue, ...(this.runStats ? { stats: this.runStats } : {}), ...(this.latency.data ? { latency: this.latency.data } : {}) };
    for (const v of this.mounted) {
      const onScreen = !playing || this.visibility.shown(v.section);
      if (v.pace === 'always' || (onScreen && (v.pace === 'visible' || textDue))) v.update(data);
    }
    this.writeHash();
  }
}
