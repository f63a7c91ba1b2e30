// A lesson step's run: a small player (step back, step forward, a scrubber, the position, the
// "jump to" menu with [ prev / next ], the run as JSON; moved by the pages' one playback
// controller, web/ui/playback.ts, and its keys, web/ui/playback-keys.ts), one sentence
// that says what the current record did (log/narrate.ts), the record drawn as a moving picture
// (views/eventanim.ts), the step's figures, and where in the C the record was written
// (sourcepane.ts). Everything redraws from the one Player.
import { el } from '../ui/dom';
import { download } from '../ui/download';
import { createPlayback } from '../ui/playback';
import { playbackKey } from '../ui/playback-keys';
import { addViewExportButtons } from '../ui/export-buttons';
import { eventLogToJson } from '../log/eventlog-json';
import { EV } from '../log/events';
import { JUMP_KINDS, type JumpKind, type Player } from '../log/player';
import { narrate } from '../log/narrate';
import { mountView, mountViewSet, viewTitle, type MountedView, type ViewId } from '../views/registry';
import type { LoadedRun } from './runs';
import type { Preset } from './lesson';
import { createSourcePane } from './sourcepane';
import { findCallRecord } from '../log/latency-record';
import type { LatencySelect } from '../views/latency';

export interface RunPlayer {
  /** the player's bar */
  head: HTMLElement;
  /** the sentence that says what the current record did */
  sentence: HTMLElement;
  /** where in the C, for below the figures */
  source: HTMLElement;
  /** the step's figures, for the prose terms to point at */
  views: readonly MountedView[];
  draw(): void;
}

export interface RunPlayerOptions {
  run: LoadedRun;
  /** the run's name, for the JSON file and its label */
  label: string;
  file: string;
  preset: Preset | undefined;
  stop: number;
  views: readonly ViewId[];
  /** where each figure goes (the row of the paragraph that discusses it) */
  placeView(id: ViewId): HTMLElement;
  /** where the moving picture of the current record goes (above the first figures); none: not shown */
  eventInto?: HTMLElement | undefined;
  highlight?: ViewId | undefined;
  /** the "jump to" kind to start with (the step's `at` event), else the first the run has */
  jumpKind?: JumpKind | undefined;
  /** the step's lifetime: its keys stop answering when the page moves on */
  signal: AbortSignal;
}

/** The kinds of record this run has at least one of, in the menu's order. */
export function jumpKindsIn(p: Player): JumpKind[] {
  return (Object.keys(JUMP_KINDS) as JumpKind[]).filter((k) => p.findNext(k, 0) !== undefined);
}

/** The "jump to" menu and its buttons; the status line says when no event of the kind is left. */
function jumpControls(kinds: readonly JumpKind[], start: JumpKind | undefined, jump: (dir: 1 | -1) => void) {
  const sel = el('select', { class: 'jump-kind', 'aria-label': 'Jump to the previous / next record of this kind ([ and ])' });
  for (const k of kinds) sel.append(el('option', { value: k, text: JUMP_KINDS[k].label }));
  if (start && kinds.includes(start)) sel.value = start;
  const prev = el('button', { type: 'button', class: 'small jump-prev', text: '[ prev', 'aria-label': '[ prev: the previous record of the jump kind' });
  const next = el('button', { type: 'button', class: 'small jump-next', text: 'next ]', 'aria-label': 'next ]: the next record of the jump kind' });
  prev.addEventListener('click', () => jump(-1));
  next.addEventListener('click', () => jump(1));
  const said = el('span', { class: 'jump-status', role: 'status' });
  const root = el('span', { class: 'jump' }, el('span', { class: 'jump-label', 'aria-hidden': 'true', text: 'jump to' }), sel, prev, next, said);
  root.hidden = kinds.length === 0;
  return { root, kind: () => sel.value as JumpKind, said };
}

export function createRunPlayer(o: RunPlayerOptions): RunPlayer {
  const p = o.run.player;
  p.seek(o.stop);
  const bar = el('div', { class: 'mini-player', role: 'group', 'aria-label': 'Step through the run' });
  const back = el('button', { type: 'button', class: 'small step-back', text: '◀ record', 'aria-label': 'Step back one record' });
  const fwd = el('button', { type: 'button', class: 'small step-fwd', text: 'record ▶', 'aria-label': 'Step forward one record' });
  const scrub = el('input', { type: 'range', min: 0, max: p.length, step: 1, value: o.stop, id: 'lesson-scrub', 'aria-label': 'Position in the run' });
  const out = el('output', { for: 'lesson-scrub', class: 'stepout run-pos' });
  // the widest position this run can show, reserved so nothing moves (or hides it) as it changes
  out.style.minWidth = `${`record ${p.length} / ${p.length}`.length + 1}ch`;
  const json = el('button', { type: 'button', class: 'small run-json', text: 'Run as JSON' });
  json.addEventListener('click', () => download(eventLogToJson(p.log, o.label), `${o.file}.events.json`, 'application/json'));
  bar.append(back, scrub, fwd, out, json);
  const said = el('p', { class: 'narration', 'aria-live': 'polite' });
  const anim = o.eventInto ? mountView(o.eventInto, 'event', { prefix: 'lv', heading: 'short', legend: true }) : undefined;

  const set = mountViewSet(el('div'), o.views, 'lv', o.placeView);
  for (const v of o.views) {
    const panel = set.panelOf(v);
    if (panel) addViewExportButtons(panel, { title: viewTitle(v), what: viewTitle(v), file: `${o.file}-${v}` });
  }
  set.highlight(o.highlight);
  const source = createSourcePane(o.preset);

  // 6.7+ logs record each CPU's high as it moves: the sentence then names no one high
  const movingHigh = p.log.type.includes(EV.PCP_HIGH);
  const draw = () => {
    scrub.value = String(p.step);
    out.textContent = `record ${p.step} / ${p.length}`;
    back.disabled = p.step === 0;
    fwd.disabled = p.step === p.length;
    said.textContent = narrate(p.log, p.currentIndex(), { pcp: o.run.pcp, movingHigh });
    const d = { player: p, pcp: o.run.pcp, ...(o.run.latency ? { latency: o.run.latency } : {}) };
    anim?.update(d);
    set.update(d);
    source.update(p);
  };
  // stepped, scrubbed and jumped, never played: the playback controller without a clock
  const playback = createPlayback({
    position: () => p.step,
    end: () => p.length,
    show: (step) => {
      p.seek(step);
      draw();
    },
    find: (dir, kind) => (dir > 0 ? p.findNext(kind as JumpKind) : p.findPrev(kind as JumpKind)),
  });
  const tellJump = (found: boolean, dir: 1 | -1, kind: string) => {
    jumps.said.textContent = found ? '' : `no ${dir > 0 ? 'later' : 'earlier'} ${JUMP_KINDS[kind as JumpKind].label} in this run`;
  };
  const jumps = jumpControls(jumpKindsIn(p), o.jumpKind, (dir) => tellJump(playback.jump(dir, jumps.kind()), dir, jumps.kind()));
  bar.insertBefore(jumps.root, json);
  scrub.addEventListener('input', () => playback.seek(Number(scrub.value)));
  // a latency bucket's click: the player goes to its longest call's record
  set.panelOf('latency')?.addEventListener('latency-select', (ev) => {
    const sel = (ev as CustomEvent<LatencySelect>).detail;
    const hit = findCallRecord(p.log, sel.call, sel.kind);
    if (hit.ok) playback.seek(hit.index + 1);
    else said.textContent = `That call cannot be shown: ${hit.why}.`;
  });
  back.addEventListener('click', () => playback.stepBy(-1));
  fwd.addEventListener('click', () => playback.stepBy(1));
  // the workbench's keys, through the same controller: ← → a record, [ ] the jump kind, D a drain
  document.addEventListener(
    'keydown',
    (ev) => {
      if (!bar.isConnected) return;
      if (playbackKey(ev, playback, { jumpKind: jumps.kind, jumped: tellJump })) ev.preventDefault();
    },
    { signal: o.signal },
  );
  return { head: bar, sentence: said, source: source.root, views: set.views, draw };
}
