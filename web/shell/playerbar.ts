// The workbench's player controls: first / back / play / forward / last, the scrubber and its
// readout, the speed, and the "jump to" kind with its buttons and "next drain"; and the
// sidebar's list of the keys that do the same. It only builds them and calls back: the app owns
// the player and the playback clock.
import { JUMP_KINDS, type JumpKind } from '../log/player';
import { el } from '../ui/dom';
import { PLAYBACK_KEYS } from '../ui/playback-keys';

/** the playback speeds offered, multipliers of the app's records per second */
export const SPEEDS = [0.25, 0.5, 1, 2, 4, 8, 16, 32, 64] as const;

export interface PlayerBarActions {
  /** to a step, or the last */
  seek(to: number | 'end'): void;
  stepBy(n: number): void;
  togglePlay(): void;
  /** to the previous / next record of a kind (the menu's when none is given) */
  jump(dir: 1 | -1, kind?: JumpKind): void;
  setSpeedIndex(i: number): void;
  setJumpKind(k: JumpKind): void;
}

export interface PlayerBar {
  readonly root: HTMLElement;
  readonly play: HTMLButtonElement;
  readonly scrub: HTMLInputElement;
  readonly stepOut: HTMLOutputElement;
  readonly speed: HTMLSelectElement;
  /** the buttons, disabled while no log is loaded */
  readonly buttons: readonly HTMLButtonElement[];
}

export function createPlayerBar(a: PlayerBarActions): PlayerBar {
  const bar = el('section', { class: 'playerbar', 'aria-label': 'Player' });
  const buttons: HTMLButtonElement[] = [];
  const btn = (text: string, label: string, on: () => void, cls = '') => {
    const b = el('button', { type: 'button', text, 'aria-label': label, title: label, class: cls });
    b.addEventListener('click', on);
    buttons.push(b);
    return b;
  };
  const first = btn('|◀◀', 'First step (Home)', () => a.seek(0));
  const back = btn('◀ step', 'step back (←)', () => a.stepBy(-1));
  const play = btn('▶ play', 'Play (Space)', () => a.togglePlay(), 'play');
  const fwd = btn('step ▶', 'step forward (→)', () => a.stepBy(1));
  const last = btn('▶▶|', 'Last step (End)', () => a.seek('end'));
  const scrub = el('input', { type: 'range', min: 0, max: 0, step: 1, value: 0, id: 'scrub', 'aria-label': 'Scrub: step' });
  scrub.addEventListener('input', () => a.seek(Number(scrub.value)));
  const stepOut = el('output', { class: 'stepout', for: 'scrub', 'aria-live': 'off' });
  const speed = el('select', { id: 'speed' });
  for (const s of SPEEDS) speed.append(el('option', { value: String(s), text: `${s}x` }));
  speed.value = '1';
  speed.addEventListener('change', () => a.setSpeedIndex(SPEEDS.indexOf(Number(speed.value) as (typeof SPEEDS)[number])));
  const jumpSel = el('select', { id: 'jump-kind' });
  for (const [k, v] of Object.entries(JUMP_KINDS)) jumpSel.append(el('option', { value: k, text: v.label }));
  jumpSel.addEventListener('change', () => a.setJumpKind(jumpSel.value as JumpKind));
  const prevJ = btn('[ prev', '[ prev: previous event of the jump kind', () => a.jump(-1));
  const nextJ = btn('next ]', 'next ]: next event of the jump kind', () => a.jump(1));
  // the first thing to watch: a pcp list reaching high and draining into the buddy lists
  const nextDrain = btn('next drain ▶', 'next drain: the next free_pcppages_bulk() (D)', () => a.jump(1, 'drain'), 'nextdrain');
  bar.append(
    el('div', { class: 'transport' }, first, back, play, fwd, last),
    el('div', { class: 'scrubber' }, scrub, stepOut),
    el('div', { class: 'speed' }, el('label', { for: 'speed', text: 'speed' }), speed),
    el('div', { class: 'jump' }, el('label', { for: 'jump-kind', text: 'jump to' }), jumpSel, prevJ, nextJ, nextDrain),
  );
  return { root: bar, play, scrub, stepOut, speed, buttons };
}

/** The sidebar's list of the player's keys (App.onKey answers them through playback-keys.ts). */
export function keyboardHelp(): HTMLElement {
  const keys = el('section', { class: 'keys', 'aria-labelledby': 'keys-title' });
  const dl = el('dl');
  for (const [k, v] of PLAYBACK_KEYS) {
    dl.append(el('dt', {}, el('kbd', { text: k! })), el('dd', { text: v! }));
  }
  keys.append(el('h2', { id: 'keys-title', text: 'Keyboard' }), dl);
  return keys;
}
