// The keys of every page's run player, answered through the one playback controller
// (playback.ts): ← → step (Shift: 10), Home / End, [ ] the previous / next event of the "jump
// to" kind, D the next pcp drain, Space play / pause, - = slower / faster. The workbench and the
// lesson player read the same table, so a key means the same thing on both.
import type { Playback } from './playback';

export interface PlaybackKeyOptions {
  /** the "jump to" menu's kind now */
  jumpKind(): string;
  /** after a jump: whether it found one, to say "no later refill" when not */
  jumped?(found: boolean, dir: 1 | -1, kind: string): void;
  /** a speed change (the page shows the new speed); none: - and = do nothing */
  speed?(index: number): void;
}

/** The keys this table answers, as the pages' key lists show them. */
export const PLAYBACK_KEYS: readonly (readonly [string, string])[] = [
  ['Space', 'play / pause'],
  ['← →', 'step back / forward (Shift: 10)'],
  ['[ ]', 'previous / next event of the jump kind'],
  ['D', 'next pcp drain (free_pcppages_bulk)'],
  ['- =', 'slower / faster'],
  ['Home End', 'first / last step'],
];

/**
 * Answers one keydown for a run player; true when the key was one of its keys (the caller then
 * calls preventDefault). Form fields keep their keys, and a focused button keeps Space and Enter.
 */
export function playbackKey(ev: KeyboardEvent, pb: Playback, o: PlaybackKeyOptions): boolean {
  if (ev.ctrlKey || ev.metaKey || ev.altKey) return false;
  const t = typeof (ev.target as Element | null)?.closest === 'function' ? (ev.target as Element) : null;
  if (t?.closest('input, select, textarea, [contenteditable]')) return false;
  if (t?.closest('button') && (ev.key === ' ' || ev.key === 'Enter')) return false;
  const n = ev.shiftKey ? 10 : 1;
  const jump = (dir: 1 | -1, kind: string) => o.jumped?.(pb.jump(dir, kind), dir, kind);
  switch (ev.key) {
    case ' ':
      pb.toggle();
      break;
    case 'ArrowRight':
      pb.stepBy(n);
      break;
    case 'ArrowLeft':
      pb.stepBy(-n);
      break;
    case ']':
      jump(1, o.jumpKind());
      break;
    case '[':
      jump(-1, o.jumpKind());
      break;
    case 'd':
    case 'D':
      jump(1, 'drain');
      break;
    case 'Home':
      pb.seek(0);
      break;
    case 'End':
      pb.seek(Number.MAX_SAFE_INTEGER);
      break;
    case '-':
    case '_':
      if (!o.speed) return false;
      o.speed(pb.speedIndex - 1);
      break;
    case '=':
    case '+':
      if (!o.speed) return false;
      o.speed(pb.speedIndex + 1);
      break;
    default:
      return false;
  }
  return true;
}
