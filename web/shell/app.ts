// The app shell: scenario panel, player controls, keyboard, URL state, and the views.
// Data flows one way: a log goes into a Player; the views draw the Player's state.
//
// The engine connects here: call `app.loadEventLog(buffer)` with an ArrayBuffer of 32-byte
// records (docs/events.md). Everything else follows from the log.

import { LogError, decodeEvents, pathWhere } from '../log/events';
import { createLogLoader } from '../panels/log-loader';
import { engine } from '../engine/engine';
import { JUMP_KINDS, Player, type JumpKind } from '../log/player';
import {
  DEFAULT_SCENARIO,
  PRESETS,
  URL_LIMITS,
  UrlStateError,
  WORKLOADS,
  formatHash,
  parseHash,
  type Scenario,
} from '../scenario/url';
import { el, panel } from '../ui/dom';
import { describeEvent } from '../log/describe';
import type { PcpParams } from '../views/pcp';
import { buddyinfoText } from '../views/procfs';
import { mountView, viewTitle, type MountedView, type ViewId } from '../views/registry';
import { createPresenter, showChosenFigures } from '../ui/presenter';
import { addViewExportButtons } from '../ui/export-buttons';
import type { LoadOptions, LoadResult, Panel, PanelData } from '../panels/panel';
import { createThroughputPanel } from '../panels/throughput-panel';
import { WORKLOAD_TABLE, workloadEntry } from '../scenario/workloads';
import { presetHint } from '../scenario/preset-switches';
import { renderResults } from '../views/results';
import type { SimStats } from '../engine/simstats';
import { createPfnDialog } from '../views/pfn-dialog';
import { createDrawer, type Drawer } from '../ui/drawer';
import { createVisibility } from '../ui/visibility';

export const SPEEDS = [0.25, 0.5, 1, 2, 4, 8, 16, 32, 64] as const;
/** events per second at 1x */
export const BASE_RATE = 8;
/** the largest log a user may load (docs/limits.md): 2^24 records */
export const MAX_LOG_BYTES = 32 * (1 << 24);

const ZONE_SIZES = [16, 256, 1024, 4096, 16384, 65536, 262144];

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
  /** the counters of the run the loaded log came from (Run scenario), for the views that show
   * a whole run's figures (the cache view's memory gauge); undefined for any other log */
  private runStats: SimStats | undefined;
  private scenario: Scenario = { ...DEFAULT_SCENARIO };
  private pendingStep = 0;
  private playing = false;
  private speedIndex = SPEEDS.indexOf(1);
  private jumpKind: JumpKind = 'merge';
  private carry = 0;
  private lastFrame = 0;
  private frameRequested = false;
  private hashTimer: number | undefined;
  private lastTextUpdate = 0;
  private lastReadout = 0;
  private readonly visibility = createVisibility(() => this.render());
  private label = '';
  /** the panels told about every new scenario and run (load()) */
  private readonly panels: Panel[] = [];

  // controls
  private readonly playBtn: HTMLButtonElement;
  private readonly scrub: HTMLInputElement;
  private readonly stepOut: HTMLOutputElement;
  private readonly speedSel: HTMLSelectElement;
  private readonly jumpSel: HTMLSelectElement;
  private readonly eventLine: HTMLParagraphElement;
  private readonly logLabel: HTMLParagraphElement;
  private readonly status: HTMLParagraphElement;
  private readonly alert: HTMLParagraphElement;
  private readonly views: HTMLElement;
  private readonly controls: HTMLButtonElement[] = [];
  /** the scenario in one line, above Run (the fields may be folded away) */
  private readonly scenarioLine: HTMLParagraphElement;
  /** the sidebar's folding parts: the scenario's fields, and the tools below it */
  private readonly drawers: Drawer[] = [];
  private tools: Drawer | undefined;
  private readonly form: Record<'pages' | 'cpus' | 'preset' | 'workload' | 'seed', HTMLInputElement | HTMLSelectElement>;

  /** the views, from the registry, in page order */
  private readonly mounted: MountedView[] = [];

  constructor(root: HTMLElement) {
    // ---- sidebar: scenario, event log, keys
    const side = el('aside', { class: 'sidebar', 'aria-label': 'Scenario and event log' });
    const scen = el('form', { class: 'scenario', id: 'scenario-form', 'aria-labelledby': 'scenario-title' });
    // the Run button first, its results right under it, the fields folded below (a phone
    // sees Run and the results without scrolling; a keyboard reaches Run in a few Tabs)
    const runBtn = el('button', { type: 'submit', class: 'primary', id: 'run-scenario', text: 'Run scenario' });
    const runMsg = el('p', { class: 'run-msg', id: 'run-msg', role: 'status' });
    const results = el('section', { class: 'results', id: 'results', 'aria-labelledby': 'results-title', hidden: true });
    this.scenarioLine = el('p', { class: 'scenario-line', id: 'scenario-line' });
    const settings = createDrawer('Change the scenario', 'scenario-settings');
    scen.append(el('h2', { id: 'scenario-title', text: 'Scenario' }), this.scenarioLine, runBtn, runMsg, results, settings.root);
    this.drawers.push(settings);
    const field = (id: string, label: string, input: HTMLInputElement | HTMLSelectElement, hint?: string) => {
      input.id = id;
      input.name = id;
      const wrap = el('div', { class: 'field' }, el('label', { for: id, text: label }), input);
      if (hint) {
        const h = el('span', { class: 'hint', id: `${id}-hint`, text: hint });
        input.setAttribute('aria-describedby', h.id);
        wrap.append(h);
      }
      settings.body.append(wrap);
      return input;
    };
    const select = (options: [string, string][]) => {
      const s = el('select');
      for (const [v, t] of options) s.append(el('option', { value: v, text: t }));
      return s;
    };
    this.form = {
      pages: field(
        'sc-pages',
        'zone size (pages)',
        select(ZONE_SIZES.map((n) => [String(n), `${n.toLocaleString('en')} (${(n * 4) / 1024 >= 1 ? `${(n * 4) / 1024} MiB` : `${n * 4} KiB`})`])),
        WORKLOAD_TABLE[0].params.pages,
      ),
      cpus: field('sc-cpus', 'CPUs', el('input', { type: 'number', min: 1, max: URL_LIMITS.maxCpus, step: 1, required: true }), WORKLOAD_TABLE[0].params.cpus),
      preset: field('sc-preset', 'preset (kernel change)', select(Object.entries(PRESETS)), ' '),
      workload: field('sc-workload', 'workload', select(Object.entries(WORKLOADS)), WORKLOAD_TABLE[0].description),
      seed: field('sc-seed', 'seed', el('input', { type: 'number', min: 0, max: 4294967295, step: 1, required: true })),
    };
    scen.addEventListener('submit', async (ev) => {
      ev.preventDefault();
      this.readScenario();
      this.writeHash();
      runMsg.textContent = engine.connected ? 'running…' : '';
      runBtn.disabled = true;
      try {
        const run = await engine.runScenario(this.scenario);
        const s = this.scenario;
        const res = this.loadEventLog(run.log, {
          label: `${s.workload}, ${s.cpus} CPUs, ${s.pages} pages, ${s.preset}, seed ${s.seed}`,
          ...(run.pcp ? { pcp: run.pcp } : {}),
        });
        if (res.ok && this.player) {
          this.runStats = run.stats;
          this.render();
          renderResults(results, { request: run.request, stats: run.stats, log: this.player.log });
          runMsg.textContent =
            s.workload === 'page_fault1'
              ? 'Next: press “next drain ▶” (or D) to watch a pcp list drain and its pages merge back into the free areas.'
              : 'Step through the run with the player (→, or Space to play).';
        } else {
          results.hidden = true;
          runMsg.textContent = 'The run’s event log was rejected by the player (see the message above the views).';
        }
      } catch (e) {
        runMsg.textContent = e instanceof Error ? e.message : String(e);
      } finally {
        runBtn.disabled = false;
      }
    });
    scen.addEventListener('change', () => {
      this.writePresetHint();
      const w = workloadEntry(this.form.workload.value);
      if (w) {
        for (const [id, text] of [['sc-workload-hint', w.description], ['sc-pages-hint', w.params.pages], ['sc-cpus-hint', w.params.cpus]]) {
          const h = document.getElementById(id!);
          if (h) h.textContent = text!;
        }
      }
      this.readScenario();
      this.writeHash();
      if (!this.player) this.render(); // the hint names the scenario the button would run
    });

    const logSec = el('section', { class: 'logfile', 'aria-labelledby': 'log-title' });
    const fileInput = el('input', { type: 'file', id: 'log-file', accept: '.bin,.blog,application/octet-stream' });
    logSec.append(
      el('h2', { id: 'log-title', text: 'Event log' }),
      el('label', { for: 'log-file', text: 'Load a recorded log (32-byte records, docs/events.md)' }),
      fileInput,
    );
    // read and decoded in the import worker, the replay built in slices: a 2^24-record log
    // (512 MB) loads with a progress bar and never blocks the page (panels/log-loader.ts)
    logSec.append(
      createLogLoader({
        input: fileInput,
        format: 'binary',
        maxBytes: MAX_LOG_BYTES,
        limitText: `${MAX_LOG_BYTES / (1024 * 1024)} MB (2^24 records)`,
        open: (data, opts) => this.loadEventLog(data, opts),
      }),
    );

    const keys = el('section', { class: 'keys', 'aria-labelledby': 'keys-title' });
    const dl = el('dl');
    for (const [k, v] of [
      ['Space', 'play / pause'],
      ['← →', 'step back / forward (Shift: 10)'],
      ['[ ]', 'previous / next event of the jump kind'],
      ['D', 'next pcp drain (free_pcppages_bulk)'],
      ['- =', 'slower / faster'],
      ['Home End', 'first / last step'],
    ]) {
      dl.append(el('dt', {}, el('kbd', { text: k! })), el('dd', { text: v! }));
    }
    keys.append(el('h2', { id: 'keys-title', text: 'Keyboard' }), dl);
    side.append(scen, logSec, keys);

    // ---- player controls
    const content = el('div', { class: 'content' });
    const bar = el('section', { class: 'playerbar', 'aria-label': 'Player' });
    const btn = (text: string, label: string, on: () => void, cls = '') => {
      const b = el('button', { type: 'button', text, 'aria-label': label, title: label, class: cls });
      b.addEventListener('click', on);
      this.controls.push(b);
      return b;
    };
    const first = btn('|◀◀', 'First step (Home)', () => this.seek(0));
    const back = btn('◀ step', 'step back (←)', () => this.seek(this.step() - 1));
    this.playBtn = btn('▶ play', 'Play (Space)', () => this.togglePlay(), 'play');
    const fwd = btn('step ▶', 'step forward (→)', () => this.seek(this.step() + 1));
    const last = btn('▶▶|', 'Last step (End)', () => this.seek(this.player?.length ?? 0));
    this.scrub = el('input', { type: 'range', min: 0, max: 0, step: 1, value: 0, id: 'scrub', 'aria-label': 'Scrub: step' });
    this.scrub.addEventListener('input', () => this.seek(Number(this.scrub.value)));
    this.stepOut = el('output', { class: 'stepout', for: 'scrub', 'aria-live': 'off' });
    this.speedSel = el('select', { id: 'speed' });
    for (const s of SPEEDS) this.speedSel.append(el('option', { value: String(s), text: `${s}x` }));
    this.speedSel.value = '1';
    this.speedSel.addEventListener('change', () => {
      this.speedIndex = SPEEDS.indexOf(Number(this.speedSel.value) as (typeof SPEEDS)[number]);
    });
    this.jumpSel = el('select', { id: 'jump-kind' });
    for (const [k, v] of Object.entries(JUMP_KINDS)) this.jumpSel.append(el('option', { value: k, text: v.label }));
    this.jumpSel.addEventListener('change', () => {
      this.jumpKind = this.jumpSel.value as JumpKind;
    });
    const prevJ = btn('[ prev', '[ prev: previous event of the jump kind', () => this.jump(-1));
    const nextJ = btn('next ]', 'next ]: next event of the jump kind', () => this.jump(1));
    // the first thing to watch: a pcp list reaching high and draining into the buddy lists
    const nextDrain = btn('next drain ▶', 'next drain: the next free_pcppages_bulk() (D)', () => this.jump(1, 'drain'), 'nextdrain');
    bar.append(
      el('div', { class: 'transport' }, first, back, this.playBtn, fwd, last),
      el('div', { class: 'scrubber' }, this.scrub, this.stepOut),
      el('div', { class: 'speed' }, el('label', { for: 'speed', text: 'speed' }), this.speedSel),
      el('div', { class: 'jump' }, el('label', { for: 'jump-kind', text: 'jump to' }), this.jumpSel, prevJ, nextJ, nextDrain),
    );
    this.logLabel = el('p', { class: 'loglabel' });
    this.eventLine = el('p', { class: 'eventline', id: 'event-line', 'aria-live': 'polite' });
    this.status = el('p', { class: 'status', role: 'status' });
    this.alert = el('p', { class: 'alert', role: 'alert' });

    // ---- views
    this.views = el('div', { class: 'views', id: 'views', tabindex: -1 });
    const wide = el('div', { class: 'views-wide' });
    const grid = el('div', { class: 'views-grid' });
    const view = (parent: HTMLElement, id: ViewId) => {
      const v = mountView(parent, id);
      this.mounted.push(v);
      if (id !== 'legend') addViewExportButtons(v.section, { title: viewTitle(id), what: viewTitle(id), file: `buddylab-${id}` });
    };
    this.views.append(wide);
    view(wide, 'free-areas');
    view(wide, 'legend');
    view(this.views, 'buddyinfo');
    this.views.append(grid);
    view(grid, 'mem-map');
    const right = el('div', { class: 'views-col' });
    grid.append(right);
    view(right, 'pcp');
    view(right, 'pagetypeinfo');
    view(this.views, 'buddy-tree');
    const locks = el('div', { class: 'views-locks' });
    this.views.append(locks);
    view(locks, 'lock-timeline');
    view(locks, 'lock-hist');
    view(this.views, 'cache');
    view(this.views, 'slab');
    const lower = el('div', { class: 'views-wide views-text' });
    this.views.append(lower);
    view(lower, 'zoneinfo');
    view(lower, 'cpustats');
    const tpBody = panel(this.views, 'throughput', 'Throughput: will-it-scale page_fault1', 'score vs tasks, one line per preset; dashed: linear (1-task score x tasks)');
    this.addPanel(createThroughputPanel(tpBody));
    addViewExportButtons(tpBody.parentElement!, { title: 'Throughput: will-it-scale page_fault1', what: 'the throughput chart', file: 'buddylab-throughput' });

    // presenter mode (web/ui/presenter.ts): PageDown / PageUp jump to the next / previous event
    // of the "jump to" kind; a slide shows the free areas and the pcp lists, or the chosen figures
    const onSlide: ViewId[] = ['free-areas', 'pcp'];
    // (the legend stays on every slide: it names the colours of them all)
    const figures = [...onSlide, ...this.mounted.map((v) => v.id).filter((id) => id !== 'legend' && !onSlide.includes(id))].map((id) => ({ id: id as string, title: viewTitle(id), el: this.mounted.find((v) => v.id === id)!.section }));
    const sweep = this.views.querySelector<HTMLElement>('#throughput');
    if (sweep) figures.push({ id: 'throughput', title: 'Throughput', el: sweep });
    const presenter = createPresenter({
      root,
      next: () => this.jump(1),
      prev: () => this.jump(-1),
      onLecture: () => {
        showChosenFigures(figures, presenter.chosen, presenter.lecture);
        this.render(); // figure labels are drawn at the new size
      },
      onFigures: () => showChosenFigures(figures, presenter.chosen, presenter.lecture),
      lecture: new URLSearchParams(location.search).get('lecture') === '1',
      stepKeys: false,
      signal: new AbortController().signal,
    });
    presenter.setFigures(figures);
    showChosenFigures(figures, presenter.chosen, presenter.lecture);
    bar.append(presenter.controls);

    // a click on a page (mem_map, free areas) or a pcp list opens the page's history
    createPfnDialog((step) => this.seek(step)).listen(this.views, () => this.player);
    content.append(bar, this.logLabel, this.eventLine, this.status, this.alert, this.views);
    root.replaceChildren(side, content);
    for (const sec of this.views.querySelectorAll('section.panel')) this.visibility.watch(sec);

    this.readHash();
    this.writeForm();
    if (this.pendingStep > 0) runMsg.textContent = `This link points at step ${this.pendingStep}: press Run scenario to replay the run and land there.`;
    window.addEventListener('hashchange', () => this.readHash(true));
    document.addEventListener('keydown', (ev) => this.onKey(ev));
    this.render();
  }

  /**
   * Folds the sidebar's tools (everything after the scenario: saved scenarios, op scripts,
   * logs, trace import, snapshots, the real machine) into one drawer, open on a wide screen and
   * closed on a narrow one, so that on a phone the views follow right after Run and its results.
   * Called once the shell has placed the panels.
   */
  foldTools(): void {
    const side = this.views.closest('.layout')?.querySelector('aside.sidebar');
    const form = side?.querySelector('#scenario-form');
    if (!side || !form || this.tools) return;
    const tools = createDrawer('More tools: saved scenarios, op scripts, trace import, snapshots, real machine', 'tools');
    const rest = [...side.children].filter((c) => c !== form);
    tools.body.append(...rest);
    form.after(tools.root);
    this.tools = tools;
    this.drawers.push(tools);
  }

  /** Opens the drawer that holds `part` and brings it into view, focused (?workbench=import). */
  showTool(part: HTMLElement): void {
    for (const d of this.drawers) if (d.root.contains(part)) d.open(true);
    const h = part.querySelector<HTMLElement>('h2') ?? part;
    if (!h.hasAttribute('tabindex')) h.setAttribute('tabindex', '-1');
    h.focus();
    h.scrollIntoView({ block: 'start' });
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
    this.runStats = undefined;
    const seen = player.observedPcp();
    this.pcp = opts.pcp
      ? { ...opts.pcp, source: 'from the scenario' }
      : { ...seen, source: 'as observed in the log' };
    this.alert.textContent = '';
    const g = player.state.geo;
    this.logLabel.textContent =
      `${opts.label ?? 'event log'}: ${player.length.toLocaleString('en')} events, ` +
      `${g.pages.toLocaleString('en')} pages, ${g.cpus} CPU${g.cpus === 1 ? '' : 's'}`;
    this.scrub.max = String(player.length);
    // reserve the widest readout this log can show, so the scrubber never shifts while playing
    const widest = `step ${player.length.toLocaleString('en')} / ${player.length.toLocaleString('en')} · ${timeText(player, latest(player.log.time))}`;
    this.stepOut.style.minWidth = `${widest.length + 1}ch`;
    let step = this.pendingStep;
    if (step > player.length) {
      this.status.textContent = `step ${step} is past the end of this log (${player.length} events): showing the last step`;
      step = player.length;
    }
    this.pendingStep = 0;
    this.label = opts.label ?? 'event log';
    player.seek(step);
    this.render();
    this.tellPanels();
    return { ok: true, events: player.length };
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
      playing: this.playing,
      speed: SPEEDS[this.speedIndex],
      buddyinfo: p ? buddyinfoText(p) : '',
    };
  }

  seek(step: number) {
    if (!this.player) return;
    this.player.seek(step);
    this.render();
  }

  jump(dir: 1 | -1, kind: JumpKind = this.jumpKind) {
    const p = this.player;
    if (!p) return;
    const to = dir > 0 ? p.findNext(kind) : p.findPrev(kind);
    if (to === undefined) {
      this.status.textContent = `no ${dir > 0 ? 'later' : 'earlier'} ${JUMP_KINDS[kind].label} in this log`;
      return;
    }
    this.status.textContent = '';
    this.seek(to);
  }

  togglePlay() {
    if (this.playing) this.pause();
    else this.play();
  }

  play() {
    const p = this.player;
    if (!p || this.playing) return;
    if (p.step >= p.length) p.seek(0);
    this.playing = true;
    this.carry = 0;
    this.lastFrame = performance.now();
    this.eventLine.setAttribute('aria-live', 'off'); // do not flood screen readers while playing
    const tick = (now: number) => {
      if (!this.playing || !this.player) return;
      const dt = Math.min(250, now - this.lastFrame);
      this.lastFrame = now;
      this.carry += (dt / 1000) * BASE_RATE * SPEEDS[this.speedIndex]!;
      const n = Math.floor(this.carry);
      if (n > 0) {
        this.carry -= n;
        this.player.stepForward(n);
        this.render();
        if (this.player.step >= this.player.length) {
          this.pause();
          return;
        }
      }
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
    this.render();
  }

  pause() {
    if (!this.playing) return;
    this.playing = false;
    this.eventLine.setAttribute('aria-live', 'polite');
    this.render();
  }

  private onKey(ev: KeyboardEvent) {
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const t = ev.target as HTMLElement | null;
    // form fields keep their keys (the scrubber's arrows, typing a pfn); a focused button keeps
    // Space and Enter (they press it) but the other shortcuts still work after a click
    if (t && t.closest('input, select, textarea, [contenteditable]')) return;
    if (t && t.closest('button') && (ev.key === ' ' || ev.key === 'Enter')) return;
    const n = ev.shiftKey ? 10 : 1;
    switch (ev.key) {
      case ' ':
        this.togglePlay();
        break;
      case 'ArrowRight':
        this.seek(this.step() + n);
        break;
      case 'ArrowLeft':
        this.seek(this.step() - n);
        break;
      case ']':
        this.jump(1);
        break;
      case '[':
        this.jump(-1);
        break;
      case 'd':
      case 'D':
        this.jump(1, 'drain');
        break;
      case 'Home':
        this.seek(0);
        break;
      case 'End':
        this.seek(this.player?.length ?? 0);
        break;
      case '-':
      case '_':
        this.setSpeed(this.speedIndex - 1);
        break;
      case '=':
      case '+':
        this.setSpeed(this.speedIndex + 1);
        break;
      default:
        return;
    }
    ev.preventDefault();
  }

  private setSpeed(i: number) {
    this.speedIndex = Math.max(0, Math.min(SPEEDS.length - 1, i));
    this.speedSel.value = String(SPEEDS[this.speedIndex]);
  }

  private showError(msg: string) {
    this.alert.textContent = msg;
  }

  private readScenario() {
    const f = this.form;
    const num = (v: string, lo: number, hi: number, dflt: number) => {
      const x = Number(v);
      return Number.isInteger(x) && x >= lo && x <= hi ? x : dflt;
    };
    this.scenario = {
      pages: num(f.pages.value, URL_LIMITS.minPages, URL_LIMITS.maxPages, this.scenario.pages),
      cpus: num(f.cpus.value, 1, URL_LIMITS.maxCpus, this.scenario.cpus),
      preset: f.preset.value as Scenario['preset'],
      workload: f.workload.value as Scenario['workload'],
      seed: num(f.seed.value, 0, 0xffffffff, this.scenario.seed),
    };
    this.writeScenarioLine();
    this.tellPanels();
  }

  private writeScenarioLine() {
    const s = this.scenario;
    this.scenarioLine.textContent = `${s.workload} · ${s.cpus} CPUs · ${s.pages.toLocaleString('en')} pages · ${s.preset} · seed ${s.seed}`;
  }

  private writeForm() {
    const s = this.scenario;
    this.writeScenarioLine();
    if (!ZONE_SIZES.includes(s.pages)) {
      this.form.pages.append(el('option', { value: String(s.pages), text: s.pages.toLocaleString('en') }));
    }
    this.form.pages.value = String(s.pages);
    this.form.cpus.value = String(s.cpus);
    this.form.preset.value = s.preset;
    this.form.workload.value = s.workload;
    this.form.seed.value = String(s.seed);
    this.writePresetHint();
  }

  /** Under the preset menu: what the preset models and its switches (blab presets NAME). */
  private writePresetHint() {
    const h = document.getElementById('sc-preset-hint');
    if (h) h.textContent = presetHint(this.form.preset.value);
  }

  private readHash(fromEvent = false) {
    try {
      const u = parseHash(window.location.hash);
      this.scenario = u.scenario;
      this.tellPanels();
      if (fromEvent) this.writeForm();
      if (this.player && fromEvent) {
        if (u.step !== this.player.step) this.seek(u.step);
      } else {
        this.pendingStep = u.step;
      }
      this.alert.textContent = '';
    } catch (e) {
      if (!(e instanceof UrlStateError)) throw e;
      this.showError(`The link's state was ignored: ${e.message}`);
    }
  }

  private hashWrittenAt = -Infinity;

  private writeHash() {
    window.clearTimeout(this.hashTimer);
    const write = () => {
      const h = formatHash({ scenario: this.scenario, step: this.step() });
      if (window.location.hash !== h) history.replaceState(null, '', h);
    };
    // While playing, the step changes every frame: coalesce. Otherwise write at once, so
    // whatever reads the URL next (a copied link, "Save current scenario") sees this state,
    // but at most every 100 ms (browsers throttle replaceState), with a trailing write.
    const now = performance.now();
    if (!this.playing && now - this.hashWrittenAt >= 100) {
      this.hashWrittenAt = now;
      write();
      return;
    }
    this.hashTimer = window.setTimeout(() => {
      this.hashWrittenAt = performance.now();
      write();
    }, this.playing ? 500 : 100);
  }

  /** Coalesces redraws into one per animation frame. */
  private render() {
    if (this.frameRequested) return;
    this.frameRequested = true;
    requestAnimationFrame(() => {
      this.frameRequested = false;
      this.draw();
    });
  }

  private draw() {
    const p = this.player;
    const loaded = p !== undefined;
    // every write below is skipped when nothing changed: a write costs a style and layout pass
    if (this.scrub.disabled === loaded) {
      for (const b of this.controls) b.disabled = !loaded;
      this.scrub.disabled = !loaded;
    }
    const playText = this.playing ? '❚❚ pause' : '▶ play';
    if (this.playBtn.textContent !== playText) {
      this.playBtn.textContent = playText;
      this.playBtn.setAttribute('aria-label', this.playing ? 'Pause (Space)' : 'Play (Space)');
    }
    this.views.classList.toggle('empty', !loaded);
    // fast playback: no CSS transitions (they would restart every frame) and no per-frame text
    this.views.classList.toggle('playing-fast', this.playing && SPEEDS[this.speedIndex]! >= 4);
    if (!p) {
      this.stepOut.textContent = 'step 0 / 0';
      this.logLabel.textContent = 'No event log loaded.';
      // the scenario the button would run, as the workload table maps it (never typed here)
      const s = this.scenario;
      const size = workloadEntry(s.workload)?.size(s.pages, s.cpus);
      this.eventLine.textContent = `Press Run scenario (left) to run ${s.workload} on ${size?.tasks ?? s.cpus} model CPUs, then “next drain ▶” to watch a pcp list drain into the free areas.`;
      return;
    }
    // Playing fast, the readouts change faster than anyone reads them: 10 times a second is
    // enough, and a frame that leaves them alone repaints (composites) only the views.
    const t = performance.now();
    if (!(this.playing && SPEEDS[this.speedIndex]! >= 4) || t - this.lastReadout >= 100) {
      this.lastReadout = t;
      this.scrub.value = String(p.step);
      this.scrub.setAttribute('aria-valuetext', `step ${p.step} of ${p.length}`);
      this.stepOut.textContent = `step ${p.step.toLocaleString('en')} / ${p.length.toLocaleString('en')} · ${timeText(p, p.state.time)}`;
      const cur = p.currentIndex();
      const where = cur === undefined ? undefined : pathWhere(p.log.path[cur]!);
      this.eventLine.textContent =
        cur === undefined
          ? 'step 0: before the first record'
          : `#${cur} ${describeEvent(p.log, cur)}${where ? `  [${where}]` : ''}`;
    }
    // While playing, views scrolled out of view wait and text views refresh four times a second
    // (each view's pace, web/views/registry.ts); pausing or seeking draws them all at once.
    const now = performance.now();
    const textDue = !this.playing || now - this.lastTextUpdate >= 250;
    if (textDue) this.lastTextUpdate = now;
    const data = { player: p, pcp: this.pcp, textDue, ...(this.runStats ? { stats: this.runStats } : {}) };
    for (const v of this.mounted) {
      const onScreen = !this.playing || this.visibility.shown(v.section);
      if (v.pace === 'always' || (onScreen && (v.pace === 'visible' || textDue))) v.update(data);
    }
    this.writeHash();
  }
}
